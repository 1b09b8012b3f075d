import { ruleViolation } from '../errors.js';
import type { ScoringTable } from './rulesets.js';

/**
 * Scoring a finished game. One scorer reads the ScoringTable's fields and never its name:
 * social payments (teaching guide part 6), tournament points (standardized tournament rules 11)
 * and Siamese points (Siamese rules 12, 17) are the same code with different numbers.
 *
 * Readings chosen where the rule texts leave room:
 * - Siamese 17D: two Mah Jonggs declared at once each score value x simultaneousMultiplier
 *   (x jokerlessMultiplier if jokerless). The second-Mah-Jongg multiplier (17C) is NOT applied
 *   on top, so "double the score for both hands" doubles each hand once, not the second twice.
 * - Siamese 17E-F: a simultaneous pair is one winning turn; its discarder (whichever hand took
 *   the claimed tile) is penalised once. Any discarder penalty is charged once per winning turn.
 * - Siamese 12: "the value of opponent's existing Mah Jongg" is the card value as printed (no
 *   jokerless or second-Mah-Jongg doubling); with several, the largest.
 * - A player dead on every rack is paid nothing for a Mah Jongg already exposed (Siamese 18B:
 *   both hands dead; tournament 14.2: a dead player receives zero).
 * - Bonuses, penalties, wall-game and dead-hand points are added as the table gives them in
 *   either mode; the social table sets them all to 0, so social scores stay zero-sum.
 * - No Mah Jongg and no wall game (an incomplete game, or Siamese 12's "the game ceases"):
 *   every player scores 0 (tournament 11.4) apart from Siamese 12's dead-hand penalty.
 * - "Singles and pairs" (tournament 11.2's "hands listed under the Singles - Pairs Group",
 *   Siamese 17B-C, teaching guide 5.6) means the card's section, not any line without a pung:
 *   a 2468 line of singles and pairs earns the jokerless bonus or doubling.
 * - Social doubling of a jokerless Singles and Pairs hand: the teaching guide (6.2) and the
 *   senior games rules (10) double every jokerless hand; the League card's convention excludes
 *   Singles and Pairs, where no joker could ever fit. A ruleset setting
 *   (`jokerlessOnSinglesAndPairs`): off by default, as on the League card the players practise
 *   with and as tournament 11.2 and Siamese 17B rule; on in `nmjl-4p-guide`.
 * - The discarder's penalty (tournament 11.5-11.7) counts the winner's exposures when the tile
 *   was thrown: calling it for a pung and then declaring Mah Jongg costs the same as calling
 *   Mah Jongg on it directly (the exposure made with the claimed tile is not counted).
 * - Royale Siamese: "another +25 Bonus Points" for playing the two sets without jokers is a
 *   jokerless bonus of 25 on every Mah Jongg, added to the Siamese score as 17B-C give it
 *   (doubled, as every hand is jokerless, except Singles and Pairs).
 * - East's 14 tiles declared before her first discard are her heavenly hand whether the deal
 *   or the Charleston completed them: she picked nothing, so no self-pick bonus (tournament
 *   4.4, 11.1, 11.10); social play pays it as self-picked (`heavenlyCountsAsSelfPick`).
 */

/** One Mah Jongg declared (and verified) during a game. */
export interface MahJonggEvent {
  seat: number;
  /** The card line's value. */
  value: number;
  /** The line is listed under the card's Singles and Pairs section (tournament 11.2's "Singles - Pairs Group"). */
  singlesAndPairs: boolean;
  /** No joker anywhere in the winning hand (concealed or exposed). */
  jokerless: boolean;
  /** The winning tile came from the wall (or a joker exchange after drawing), not from a discard. */
  selfPick: boolean;
  /** East's 14 tiles, declared before any discard (standardized rules 4.4, 11.10). */
  heavenly: boolean;
  /** Seat that discarded the winning tile, or null when self-picked / heavenly. */
  discarder: number | null;
  /** Exposures on the winner's rack when the winning tile came (before the Mah Jongg itself). */
  exposuresBefore: number;
  /** The discarder misnamed the winning tile (tournament 11.9, 12.3): her penalty is the table's misnamedPenalty. */
  misnamed?: boolean;
  /** 1 for a player's first Mah Jongg, 2 for the second (Siamese); always 1 in 3-4 player games. */
  ordinal: number;
  /** Declared together with the same player's other Mah Jongg in one turn (Siamese 17D). */
  simultaneous: boolean;
}

export interface GameOutcome {
  players: number;
  /** Mah Jonggs in the order declared; empty for a wall game. */
  mahJonggs: MahJonggEvent[];
  /** The wall ran out with no Mah Jongg exposed. */
  wallGame: boolean;
  /** Dead hands per seat at the end: 0 or 1 with one rack, 0-2 in Siamese. */
  deadHands: number[];
  /** Racks per player (1, or 2 in Siamese): a player with deadHands === racks is entirely dead. */
  racks: number;
  /** The lowest value on the card (Siamese 12). */
  lowestValue: number;
  /** The game ended on a Mah Jongg in error that left these seats' hands intact (tournament 14.4); empty otherwise. */
  intactAfterFalseMahJongg?: number[];
}

export interface ScoreLine {
  seat: number;
  points: number;
  why: string;
}

/** Points (or payments) per seat, and the itemised reasons (for the coach and the score sheet). */
export function scoreGame(table: ScoringTable, outcome: GameOutcome): { scores: number[]; lines: ScoreLine[] } {
  checkOutcome(outcome);
  const scores: number[] = new Array<number>(outcome.players).fill(0);
  const lines: ScoreLine[] = [];
  const add = (seat: number, points: number, why: string): void => {
    scores[seat] += points;
    lines.push({ seat, points, why });
  };
  const cite = citations(outcome);
  const entirelyDead = (seat: number): boolean => outcome.deadHands[seat] >= outcome.racks;

  const paid: MahJonggEvent[] = [];
  for (const e of outcome.mahJonggs) {
    if (entirelyDead(e.seat)) {
      // Siamese 18B / tournament 14.2: a player whose every hand is dead is paid nothing
      add(e.seat, 0, `Mah Jongg on a ${e.value}-point hand not paid: every hand of this player is dead (${cite.voided})`);
      continue;
    }
    paid.push(e);
    if (table.payments) scorePayments(table, e, outcome, add, entirelyDead);
    else scorePoints(table, e, add, cite);
  }

  for (const turn of winningTurns(paid)) scoreDiscarder(table, turn, add);

  if (outcome.wallGame) {
    // tournament 11.3, 11.4, 11.8; Siamese 17G: live and dead players score the table's wall-game points
    for (let seat = 0; seat < outcome.players; seat++) {
      const dead = entirelyDead(seat);
      const points = dead ? table.wallGameDead : table.wallGameLive;
      if (points !== 0) add(seat, points, dead ? `wall game, dead hand (${cite.wallDead})` : `wall game (${cite.wallLive})`);
    }
  }

  for (const seat of outcome.intactAfterFalseMahJongg ?? []) {
    // tournament 14.4: "If one person does not expose hand, that player gets ten (10) points ... everyone else gets ZERO"
    if (table.intactAfterFalseMahJongg !== 0) add(seat, table.intactAfterFalseMahJongg, 'the only hand intact after a Mah Jongg in error (tournament 14.4)');
  }

  if (table.deadBothMultiplier > 0) {
    // Siamese 12: dead on both hands scores minus N x the opponent's Mah Jongg, or N x the card's lowest value
    for (let seat = 0; seat < outcome.players; seat++) {
      if (!entirelyDead(seat)) continue;
      const theirs = paid.filter((e) => e.seat !== seat);
      const best = theirs.reduce<MahJonggEvent | null>((b, e) => (b === null || e.value > b.value ? e : b), null);
      const hands = outcome.racks === 2 ? 'both hands' : `all ${outcome.racks} hands`;
      if (best) {
        add(seat, -table.deadBothMultiplier * best.value, `dead on ${hands}: -${table.deadBothMultiplier} x ${best.value}, seat ${best.seat}'s Mah Jongg (Siamese 12)`);
      } else {
        add(seat, -table.deadBothMultiplier * outcome.lowestValue, `dead on ${hands}: -${table.deadBothMultiplier} x ${outcome.lowestValue}, the lowest value on the card (Siamese 12)`);
      }
    }
  }

  for (const s of scores) if (!Number.isInteger(s)) ruleViolation(`score ${s} is not a whole number of points`);
  return { scores, lines };
}

type Add = (seat: number, points: number, why: string) => void;
type Cites = ReturnType<typeof citations>;

/**
 * Which rule a score-sheet line cites. Two racks per player is the Siamese game, so its lines
 * cite the Siamese rules; otherwise the standardized tournament rules. Only the text differs.
 */
function citations(outcome: GameOutcome) {
  const siamese = outcome.racks > 1;
  return {
    value: siamese ? 'Siamese 17B' : 'tournament 11',
    wallLive: siamese ? 'Siamese 17G' : 'tournament 11.3',
    wallDead: siamese ? 'Siamese 17G' : 'tournament 11.4, 11.8',
    voided: siamese ? 'Siamese 18B' : 'tournament 14.2',
    // only Royale Siamese gives a two-rack game a jokerless bonus
    jokerlessBonus: siamese ? 'Royale Siamese: no jokers' : 'tournament 11.2',
  };
}

/** Jokerless doubling or bonus applies: not on singles-and-pairs hands where the table excludes them. */
function jokerlessCounts(table: ScoringTable, e: MahJonggEvent): boolean {
  return e.jokerless && (!e.singlesAndPairs || table.jokerlessOnSinglesAndPairs);
}

/** Self-picked for scoring: a heavenly hand only when the table says so (tournament 4.4, 11.10). */
function countsAsSelfPick(table: ScoringTable, e: MahJonggEvent): boolean {
  return e.heavenly ? table.heavenlyCountsAsSelfPick : e.selfPick;
}

/** The hand's value times its multipliers (jokerless, second or simultaneous Mah Jongg), with the reasons. */
function handValue(table: ScoringTable, e: MahJonggEvent, jokerlessCite: string, singlesCite: string): { points: number; factors: string[] } {
  let points = e.value;
  const factors: string[] = [];
  if (e.simultaneous) {
    // Siamese 17D: both hands doubled; the 17C second-Mah-Jongg doubling is not applied on top
    if (table.simultaneousMultiplier !== 1) {
      points *= table.simultaneousMultiplier;
      factors.push(`x ${table.simultaneousMultiplier} for two Mah Jonggs declared together (Siamese 17D)`);
    }
  } else if (e.ordinal >= 2 && table.secondMahJonggMultiplier !== 1) {
    // Siamese 17C: the second Mah Jongg is doubled, self-picked or not
    points *= table.secondMahJonggMultiplier;
    factors.push(`x ${table.secondMahJonggMultiplier} for a second Mah Jongg (Siamese 17C)`);
  }
  if (table.jokerlessMultiplier !== 1) {
    if (jokerlessCounts(table, e)) {
      points *= table.jokerlessMultiplier;
      factors.push(`x ${table.jokerlessMultiplier} with no jokers (${jokerlessCite})`);
    } else if (e.jokerless) {
      factors.push(`no jokerless doubling on a singles-and-pairs hand (${singlesCite})`);
    }
  }
  return { points, factors };
}

function withFactors(text: string, factors: string[]): string {
  return factors.length === 0 ? text : `${text}, ${factors.join(', ')}`;
}

/** teaching guide part 6.2-6.3: every other player pays the winner; dead players pay too. */
function scorePayments(table: ScoringTable, e: MahJonggEvent, outcome: GameOutcome, add: Add, entirelyDead: (seat: number) => boolean): void {
  // jokers can never be used in singles and pairs (teaching guide part 5.6), so such a hand is not doubled for having none
  const hand = handValue(table, e, 'teaching guide part 6.2', 'teaching guide part 5.6');
  const selfPicked = countsAsSelfPick(table, e);
  let collected = 0;
  for (let seat = 0; seat < outcome.players; seat++) {
    if (seat === e.seat) continue;
    let rate: number;
    let reason: string;
    if (selfPicked) {
      rate = table.selfPickPays;
      reason = e.heavenly ? 'heavenly hand, paid as self-picked' : 'self-picked Mah Jongg';
    } else if (seat === e.discarder) {
      rate = table.discarderPays;
      reason = 'discarded the winning tile';
    } else {
      rate = table.otherPays;
      reason = 'Mah Jongg';
    }
    const amount = rate * hand.points;
    if (amount === 0) continue;
    collected += amount;
    const dead = entirelyDead(seat) ? '; a dead hand still pays (teaching guide part 6.3)' : '';
    add(seat, -amount, withFactors(`pays ${amount} to seat ${e.seat}: ${reason}, ${rate} x the ${e.value}-point hand (teaching guide part 6.2)`, hand.factors) + dead);
  }
  add(e.seat, collected, withFactors(`collects ${collected} for Mah Jongg on a ${e.value}-point hand (teaching guide part 6.2)`, hand.factors));
  scoreBonuses(table, e, add, citations(outcome));
}

/** Tournament 11 and Siamese 17: the winner scores the hand's value, multipliers and bonuses. */
function scorePoints(table: ScoringTable, e: MahJonggEvent, add: Add, cite: Cites): void {
  const hand = handValue(table, e, e.ordinal >= 2 ? 'Siamese 17C' : 'Siamese 17B', 'Siamese 17B');
  const what = e.simultaneous ? 'one of two Mah Jonggs declared together' : e.ordinal >= 2 ? 'second Mah Jongg' : 'Mah Jongg';
  add(e.seat, hand.points, withFactors(`${what} on a ${e.value}-point hand (${cite.value})`, hand.factors));
  scoreBonuses(table, e, add, cite);
}

/** Tournament 11.1, 11.2, 11.10: points added for a self-picked and for a jokerless Mah Jongg. */
function scoreBonuses(table: ScoringTable, e: MahJonggEvent, add: Add, cite: Cites): void {
  if (table.selfPickBonus !== 0) {
    if (countsAsSelfPick(table, e)) add(e.seat, table.selfPickBonus, 'self-picked Mah Jongg (tournament 11.1)');
    else if (e.heavenly) add(e.seat, 0, 'heavenly hand: no bonus for a self-picked Mah Jongg (tournament 4.4, 11.10)');
  }
  if (table.jokerlessBonus !== 0) {
    if (jokerlessCounts(table, e)) add(e.seat, table.jokerlessBonus, `no jokers in the hand (${cite.jokerlessBonus})`);
    else if (e.jokerless) add(e.seat, 0, `no jokerless bonus on a singles-and-pairs hand (${cite.jokerlessBonus})`);
  }
}

/** Mah Jonggs won on one turn: a simultaneous pair is one turn (Siamese 17D-F), every other Mah Jongg its own. */
function winningTurns(events: MahJonggEvent[]): MahJonggEvent[][] {
  const turns: MahJonggEvent[][] = [];
  const pairBySeat = new Map<number, MahJonggEvent[]>();
  for (const e of events) {
    if (!e.simultaneous) {
      turns.push([e]);
      continue;
    }
    const pair = pairBySeat.get(e.seat);
    if (pair) pair.push(e);
    else {
      const fresh = [e];
      pairBySeat.set(e.seat, fresh);
      turns.push(fresh);
    }
  }
  return turns;
}

/** The discarder of the winning tile: tournament 11.5-11.7 by exposures; Siamese 17E-F for a second Mah Jongg. */
function scoreDiscarder(table: ScoringTable, turn: MahJonggEvent[], add: Add): void {
  const claimed = turn.filter((e) => e.discarder !== null);
  if (claimed.length === 0) return;
  const e = claimed[0];
  if (claimed.some((c) => c.discarder !== e.discarder)) ruleViolation(`seat ${e.seat} claimed two different discards in one turn`);
  const discarder = e.discarder as number;

  const row = table.discarderPenalty.filter((r) => r.atLeast <= e.exposuresBefore).reduce<{ atLeast: number; points: number } | null>((b, r) => (b === null || r.atLeast > b.atLeast ? r : b), null);
  if (e.misnamed && table.misnamedPenalty !== 0) {
    // tournament 11.9, 12.3: the misnamed tile's penalty, whatever the winner's exposures
    add(discarder, table.misnamedPenalty, 'misnamed the discard that gave Mah Jongg (tournament 11.9, 12.3)');
  } else if (row && row.points !== 0) {
    const n = e.exposuresBefore;
    const rule = n <= 1 ? '11.5' : n === 2 ? '11.6' : '11.7';
    add(discarder, row.points, `discarder of the winning tile, winner has ${n} exposure${n === 1 ? '' : 's'} (tournament ${rule})`);
  }

  if (table.secondMahJonggDiscarderPenalty !== 0) {
    if (turn.length > 1 || e.simultaneous) {
      // Siamese 17F: penalised even when the claimed tile went into the first of the two
      add(discarder, table.secondMahJonggDiscarderPenalty, `discarded the tile claimed for seat ${e.seat}'s two Mah Jonggs declared together (Siamese 17E-F)`);
    } else if (e.ordinal >= 2) {
      // Siamese 17E; 17B reminder: no penalty for the tile claimed for a first Mah Jongg
      add(discarder, table.secondMahJonggDiscarderPenalty, `discarded the tile claimed for seat ${e.seat}'s second Mah Jongg (Siamese 17E)`);
    }
  }
}

/** A malformed outcome is an engine bug (the state machine builds it), not a user's mistake. */
function checkOutcome(o: GameOutcome): void {
  const seatOk = (s: number): boolean => Number.isInteger(s) && s >= 0 && s < o.players;
  if (!Number.isInteger(o.players) || o.players < 1) ruleViolation(`a game of ${o.players} players`);
  if (!Number.isInteger(o.racks) || o.racks < 1) ruleViolation(`${o.racks} racks per player`);
  if (o.deadHands.length !== o.players) ruleViolation(`dead hands given for ${o.deadHands.length} of ${o.players} players`);
  o.deadHands.forEach((d, s) => {
    if (!Number.isInteger(d) || d < 0 || d > o.racks) ruleViolation(`seat ${s} has ${d} dead hands with ${o.racks} racks`);
  });
  // Siamese 14, 17G: a wall game is one with no Mah Jongg exposed
  if (o.wallGame && o.mahJonggs.length > 0) ruleViolation('a wall game with a Mah Jongg exposed');
  const together = new Map<number, number>();
  for (const e of o.mahJonggs) {
    const who = `seat ${e.seat}'s Mah Jongg`;
    if (!seatOk(e.seat)) ruleViolation(`Mah Jongg by seat ${e.seat} in a game of ${o.players}`);
    if (!Number.isInteger(e.value) || e.value < 0) ruleViolation(`${who} is worth ${e.value}`);
    if (!Number.isInteger(e.ordinal) || e.ordinal < 1 || e.ordinal > o.racks) ruleViolation(`${who} is number ${e.ordinal} with ${o.racks} racks`);
    if (!Number.isInteger(e.exposuresBefore) || e.exposuresBefore < 0) ruleViolation(`${who} had ${e.exposuresBefore} exposures`);
    if (e.discarder !== null && (!seatOk(e.discarder) || e.discarder === e.seat)) ruleViolation(`${who} took a discard from seat ${e.discarder}`);
    if ((e.selfPick || e.heavenly) && e.discarder !== null) ruleViolation(`${who} is self-picked or heavenly yet names a discarder`);
    if (!e.selfPick && !e.heavenly && e.discarder === null && !e.simultaneous) ruleViolation(`${who} took a discard but names no discarder`);
    if (e.simultaneous) together.set(e.seat, (together.get(e.seat) ?? 0) + 1);
  }
  for (const [seat, n] of together) if (n !== 2) ruleViolation(`seat ${seat} declared ${n} Mah Jonggs "together"`);
}
