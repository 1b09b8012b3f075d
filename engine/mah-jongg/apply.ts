import { TilemateError } from '../errors.js';
import { completeForm, exposuresFitCard, singlesAndPairs, tilesUsed } from './hand-check.js';
import { bothMahJonggs, isMahJonggNow, proofsOf, rackMahJongg } from './rack-mah-jongg.js';
import { scoreGame, type GameOutcome, type MahJonggEvent } from './scoring.js';
import { JOKER, KINDS, tileName, type TileId } from './tiles.js';
import { type Action, type ClaimResponse, DECLINED, type GameState, type Phase, checkTiles, fail, handSize, hasTiles, inPlay, liveRacks, nextInPlay, rackExposures, rackOf } from './state.js';
import { resolveCourtesy, resolvePass, startCourtesy } from './charleston.js';

/**
 * apply: an action checked in full, then played (the Charleston's choices, draws, discards,
 * claims, Mah Jongg, dead hands, the end and its scores); a refused action changes nothing.
 * Part of the game (game.ts).
 */

// ------------------------------------------------------------------ apply

/** Applies an action, or throws a TilemateError (and changes nothing) when the rules do not allow it. */
export function apply(state: GameState, action: Action): void {
  if (state.phase.kind === 'ended') fail('TM_GAME_OVER', 'the game has ended');
  const seat = action?.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.rules.players) fail('TM_ILLEGAL_ACTION', `no seat ${String(seat)} at this table`);
  const ph = state.phase;
  const p = state.players[seat];
  switch (action.type) {
    case 'pass': {
      if (ph.kind !== 'charleston') fail('TM_ILLEGAL_ACTION', 'there is no Charleston pass now');
      const c = ph as Extract<Phase, { kind: 'charleston' }>;
      if (c.choices[seat] !== null) fail('TM_NOT_YOUR_TURN', `seat ${seat} has already passed`);
      const tiles = checkTiles(action.tiles, 'pass');
      const blind = action.blind ?? 0;
      if (!Number.isInteger(blind) || blind < 0 || blind > 3) fail('TM_ILLEGAL_ACTION', 'a blind pass forwards 1 to 3 tiles');
      if (tiles.length + blind !== 3) fail('TM_ILLEGAL_ACTION', `a Charleston pass is 3 tiles (got ${tiles.length} + ${blind} blind)`);
      // teaching guide part 2.1: it is not allowed to pass a Joker
      if (tiles.includes(JOKER)) fail('TM_ILLEGAL_ACTION', 'a joker can never be passed');
      if (!hasTiles(p, tiles)) fail('TM_ILLEGAL_ACTION', `seat ${seat} does not hold ${tiles.map(tileName).join(' ')}`);
      // teaching guide 2.3, senior games 3: blind passes only on the first left and the last right
      if (blind > 0 && !state.rules.charleston!.blindPasses.includes(c.pass)) fail('TM_ILLEGAL_ACTION', 'a blind pass is allowed only on the first left and the last right');
      if (blind > 0 && c.eastFirst && seat === 0) fail('TM_ILLEGAL_ACTION', 'everyone is waiting on a blind pass: East must pass first, from her own tiles (standardized rules 4.5)');
      c.choices[seat] = { tiles: [...tiles], blind };
      for (const t of tiles) p.concealed[t]--; // set aside: passed face down before receiving (teaching guide 2.1)
      resolvePass(state);
      break;
    }
    case 'vote': {
      if (ph.kind !== 'vote') fail('TM_ILLEGAL_ACTION', 'there is no vote on a second Charleston now');
      const v = ph as Extract<Phase, { kind: 'vote' }>;
      if (v.votes[seat] !== null) fail('TM_NOT_YOUR_TURN', `seat ${seat} has already voted`);
      v.votes[seat] = action.yes === true;
      if (v.votes.every((x) => x !== null)) {
        // teaching guide 2.2: the second Charleston only if all players agree
        if (v.votes.every((x) => x)) state.phase = { kind: 'charleston', pass: state.rules.charleston!.first.length, choices: new Array(state.rules.players).fill(null), eastFirst: false };
        else startCourtesy(state);
      }
      break;
    }
    case 'courtesy': {
      if (ph.kind !== 'courtesy') fail('TM_ILLEGAL_ACTION', 'there is no courtesy pass now');
      const c = ph as Extract<Phase, { kind: 'courtesy' }>;
      if (c.offers[seat] !== null) fail('TM_NOT_YOUR_TURN', `seat ${seat} has already offered`);
      const tiles = checkTiles(action.tiles, 'courtesy pass');
      if (tiles.length > 3) fail('TM_ILLEGAL_ACTION', 'a courtesy pass is 0 to 3 tiles');
      if (tiles.includes(JOKER)) fail('TM_ILLEGAL_ACTION', 'a joker can never be passed');
      if (!hasTiles(p, tiles)) fail('TM_ILLEGAL_ACTION', `seat ${seat} does not hold ${tiles.map(tileName).join(' ')}`);
      c.offers[seat] = [...tiles];
      if (c.offers.every((x) => x !== null)) resolveCourtesy(state);
      break;
    }
    case 'draw': {
      if (ph.kind !== 'draw') fail('TM_ILLEGAL_ACTION', 'it is not time to draw');
      if (seat !== state.turn) fail('TM_NOT_YOUR_TURN', `it is seat ${state.turn}'s turn`);
      if (state.wallPos >= state.wall.length) fail('TM_ILLEGAL_ACTION', 'the wall is empty');
      p.concealed[state.wall[state.wallPos++]]++;
      state.turnSource = { from: 'wall' };
      state.exchangedFromOther = false;
      state.phase = { kind: 'discard' };
      break;
    }
    case 'discard': {
      requireTurnWithHand(state, seat);
      const t = action.tile;
      if (!Number.isInteger(t) || t < 0 || t >= KINDS || p.concealed[t] === 0)
        fail('TM_ILLEGAL_ACTION', `seat ${seat} holds no ${Number.isInteger(t) && t >= 0 && t < KINDS ? tileName(t) : String(t)} to discard`);
      p.concealed[t]--;
      p.discards.push(t);
      state.visible[t]++;
      state.discardCount++;
      state.tableVersion++;
      openClaims(state, seat, t);
      break;
    }
    case 'exchange': {
      requireTurnWithHand(state, seat);
      const owner = state.players[action.owner];
      const x = owner?.exposures[action.exposure];
      if (!x) fail('TM_ILLEGAL_ACTION', `no exposure ${action.exposure} on seat ${action.owner}'s rack`);
      // teaching guide 4.7; Siamese 9: not from an exposed Mah Jongg, nor from the exposure that made a hand dead
      if (x!.jokers === 0) fail('TM_ILLEGAL_ACTION', 'that exposure holds no joker');
      if (!x!.exchangeable) fail('TM_ILLEGAL_ACTION', 'jokers in that exposure can no longer be exchanged');
      if (p.concealed[x!.tile] === 0) fail('TM_ILLEGAL_ACTION', `seat ${seat} holds no ${tileName(x!.tile)} to exchange for the joker`);
      p.concealed[x!.tile]--;
      p.concealed[JOKER]++;
      x!.jokers--;
      state.visible[x!.tile]++;
      state.visible[JOKER]--;
      state.tableVersion++;
      if (action.owner !== seat) state.exchangedFromOther = true;
      break;
    }
    case 'declare': {
      const heavenly = ph.kind === 'charleston' && seat === 0;
      if (!heavenly) requireTurnWithHand(state, seat);
      if (action.both) {
        if (liveRacks(state, seat).length < 2) fail('TM_ILLEGAL_ACTION', 'two Mah Jonggs at once need two live racks');
        const src = state.turnSource;
        const selfPick = src.from === 'wall' || state.exchangedFromOther;
        declareBoth(state, seat, null, { selfPick, discarder: src.from === 'discard' && !selfPick ? src.discarder : null, heavenly: false });
        break;
      }
      if (heavenly && (ph as Extract<Phase, { kind: 'charleston' }>).choices[0] !== null) fail('TM_ILLEGAL_ACTION', 'East has already passed');
      // during the Charleston only a real heavenly hand stops the passing; nothing is exposed otherwise
      if (heavenly && !isMahJonggNow(state, 0)) fail('TM_ILLEGAL_ACTION', "East's tiles are not Mah Jongg");
      const rack = rackOf(state, seat, action.rack);
      if (!liveRacks(state, seat).includes(rack)) fail('TM_ILLEGAL_ACTION', `rack ${rack} is dead or already shows a Mah Jongg`);
      const src = state.turnSource;
      // standardized rules 10.2-10.3, 11.1: self-picked when the turn began from the wall ("picks own
      // Mah Jongg"), or a joker came from another's exposure; East's first turn picked nothing
      const selfPick = src.from === 'wall' || state.exchangedFromOther;
      const discarder = src.from === 'discard' && !selfPick ? src.discarder : null;
      // standardized rules 4.4, 11.10: East's 14 tiles, declared in the Charleston or before any discard
      // (when the Charleston completed them too), are her heavenly hand: no self-pick bonus
      const dealt = heavenly || (seat === 0 && state.discardCount === 0 && src.from === 'deal');
      declareMahJongg(state, seat, rack, null, { selfPick, discarder, heavenly: dealt });
      break;
    }
    case 'decline':
    case 'call':
    case 'callMahJongg': {
      if (ph.kind !== 'claims') fail('TM_ILLEGAL_ACTION', 'there is no discard to claim now');
      const c = ph as Extract<Phase, { kind: 'claims' }>;
      if (c.responses[seat] !== null) fail('TM_NOT_YOUR_TURN', seat === c.discarder ? 'a player cannot claim her own discard' : `seat ${seat} has already answered`);
      let response: ClaimResponse = DECLINED;
      if (action.type === 'call') {
        const rack = rackOf(state, seat, action.rack);
        if (!liveRacks(state, seat).includes(rack)) fail('TM_ILLEGAL_ACTION', `rack ${rack} cannot take exposures`);
        const { size, jokers } = action;
        // teaching guide 4.2: a discard completes a pung, kong or quint (a sextet on cards that have one); never a single or pair
        if (!Number.isInteger(size) || size < 3 || size > 6) fail('TM_ILLEGAL_ACTION', 'a discard may be called for a pung, kong, quint or sextet (or Mah Jongg)');
        if (!Number.isInteger(jokers) || jokers < 0 || jokers > size - 1) fail('TM_ILLEGAL_ACTION', 'the called tile is natural; jokers fill at most the rest');
        if (p.concealed[c.tile] < size - 1 - jokers || p.concealed[JOKER] < jokers) fail('TM_ILLEGAL_ACTION', `seat ${seat} lacks the tiles for that exposure`);
        if (!exposuresFitCard(state.cc, [...rackExposures(p, rack), { tile: c.tile, size, jokers }])) {
          fail('TM_ILLEGAL_ACTION', `an exposure of ${size} ${tileName(c.tile)} fits no exposed line of the card with this rack's exposures`);
        }
        response = { type: 'call', size, jokers, rack };
      } else if (action.type === 'callMahJongg') {
        const rack = rackOf(state, seat, action.rack);
        if (!liveRacks(state, seat).includes(rack)) fail('TM_ILLEGAL_ACTION', `rack ${rack} is dead or already shows a Mah Jongg`);
        if (action.both && liveRacks(state, seat).length < 2) fail('TM_ILLEGAL_ACTION', 'two Mah Jonggs at once need two live racks');
        response = { type: 'callMahJongg', rack, both: action.both === true };
      }
      c.responses[seat] = response;
      if (!c.responses.includes(null)) resolveClaims(state);
      break;
    }
    case 'callDead': {
      if (ph.kind !== 'draw' && ph.kind !== 'discard') fail('TM_ILLEGAL_ACTION', 'a hand may be called dead on your own turn');
      if (seat !== state.turn) fail('TM_NOT_YOUR_TURN', `it is seat ${state.turn}'s turn`);
      const target = action.target;
      if (!Number.isInteger(target) || target < 0 || target >= state.rules.players || target === seat) fail('TM_ILLEGAL_ACTION', "call another player's hand dead");
      const rack = action.rack ?? 0;
      // teaching guide 6.6: only when the tiles on the table prove the hand impossible
      if (!proofsOf(state).provablyDead(state, target, rack)) fail('TM_ILLEGAL_ACTION', `the table does not prove seat ${target}'s hand impossible`);
      killRack(state, target, rack);
      break;
    }
    case 'timeUp':
      // standardized rules 11.4: "If a game is not completed within designated time, each player
      // receives ZERO": the game ends with no Mah Jongg and no wall game, and the scorer gives 0
      endGame(state, false);
      break;
    default:
      fail('TM_ILLEGAL_ACTION', `unknown action "${String((action as { type?: unknown }).type)}"`);
  }
  state.actionCount++;
}

/** `apply` that answers instead of throwing: the error (state unchanged) or null. */
export function tryApply(state: GameState, action: Action): TilemateError | null {
  try {
    apply(state, action);
    return null;
  } catch (err) {
    if (err instanceof TilemateError) return err;
    throw err;
  }
}

function requireTurnWithHand(state: GameState, seat: number): void {
  if (state.phase.kind !== 'discard') fail('TM_ILLEGAL_ACTION', state.phase.kind === 'draw' ? 'draw first' : 'it is not time to discard');
  if (seat !== state.turn) fail('TM_NOT_YOUR_TURN', `it is seat ${state.turn}'s turn`);
}

// ------------------------------------------------------------------ discards and claims

function openClaims(state: GameState, discarder: number, tile: TileId): void {
  const n = state.rules.players;
  // teaching guide 4.9: a discarded joker can never be picked up
  const responses: (ClaimResponse | null)[] = new Array(n).fill(null);
  let anyone = false;
  for (let s = 0; s < n; s++) {
    if (s === discarder || tile === JOKER || !inPlay(state, s)) responses[s] = DECLINED;
    else anyone = true;
  }
  if (!anyone) {
    passTurn(state, discarder);
    return;
  }
  state.phase = { kind: 'claims', tile, discarder, responses };
}

/** The next player in play draws; a wall game when the wall is empty (teaching guide 3.4). */
function passTurn(state: GameState, from: number): void {
  const next = nextInPlay(state, from);
  if (next < 0 || state.wallPos >= state.wall.length) {
    endGame(state, true);
    return;
  }
  state.turn = next;
  state.phase = { kind: 'draw' };
}

/**
 * Teaching guide 4.4, senior games 8: Mah Jongg beats an exposure; otherwise the claimant
 * whose turn would come first wins the tile (Siamese 10D: the closest in succession).
 */
function resolveClaims(state: GameState): void {
  const ph = state.phase as Extract<Phase, { kind: 'claims' }>;
  const n = state.rules.players;
  let mj = -1,
    call = -1;
  for (let i = 1; i < n; i++) {
    const s = (ph.discarder + i) % n,
      type = ph.responses[s]!.type;
    if (type === 'callMahJongg' && mj < 0) mj = s;
    if (type === 'call' && call < 0) call = s;
  }
  const winner = mj >= 0 ? mj : call;
  if (winner < 0) {
    passTurn(state, ph.discarder);
    return;
  }
  const tile = ph.tile;
  const discarder = ph.discarder;
  const p = state.players[winner];
  state.players[discarder].discards.pop(); // the claimed tile leaves the discards
  state.visible[tile]--;
  state.tableVersion++;
  const r = ph.responses[winner]!;
  state.turn = winner;
  state.turnSource = { from: 'discard', discarder };
  state.exchangedFromOther = false;
  if (r.type === 'callMahJongg') {
    if (r.both) declareBoth(state, winner, tile, { selfPick: false, discarder, heavenly: false });
    else declareMahJongg(state, winner, r.rack, tile, { selfPick: false, discarder, heavenly: false });
    return;
  }
  if (r.type !== 'call') return;
  state.turnSource = { from: 'discard', discarder, exposed: r.rack };
  // teaching guide 4.3: expose the pung, kong or quint with the claimed tile, then discard
  p.concealed[tile] -= r.size - 1 - r.jokers;
  p.concealed[JOKER] -= r.jokers;
  p.exposures.push({ tile, size: r.size, jokers: r.jokers, rack: r.rack, exchangeable: true });
  state.visible[tile] += r.size - r.jokers;
  state.visible[JOKER] += r.jokers;
  state.phase = { kind: 'discard' };
}

// ------------------------------------------------------------------ Mah Jongg, dead hands, the end

type HowWon = { selfPick: boolean; discarder: number | null; heavenly: boolean };

function declareMahJongg(state: GameState, seat: number, rack: number, claimed: TileId | null, how: HowWon): void {
  const p = state.players[seat];
  state.tableVersion++;
  const form = rackMahJongg(state, seat, rack, claimed);
  if (claimed !== null) p.concealed[claimed]++;
  if (form < 0) {
    // standardized rules 14.2: Mah Jongg in error with the hand exposed: the hand is dead
    killRack(state, seat, rack);
    if (state.phase.kind === 'ended') return;
    // standardized rules 14.4: with one hand left intact the game ends (two or more, it goes on)
    const intact = state.players.map((_, s) => s).filter((s) => inPlay(state, s));
    if (state.rules.scoring.intactAfterFalseMahJongg !== 0 && intact.length === 1) {
      endGame(state, false, intact);
      return;
    }
    // Siamese 11A: with another live rack the player still discards to end her turn and plays on
    if (inPlay(state, seat)) {
      state.turn = seat;
      state.phase = { kind: 'discard' };
    } else if (state.turn === seat) passTurn(state, seat);
    return;
  }
  recordMahJongg(state, seat, rack, form, how, false);
  afterMahJongg(state, seat);
}

/**
 * Siamese 10E, 17D: two Mah Jonggs declared at once. The pool (with a claimed tile) must
 * make a hand on each rack; when it makes only one, that one is honoured and the other
 * rack is dead; when none, both are.
 */
function declareBoth(state: GameState, seat: number, claimed: TileId | null, how: HowWon): void {
  const p = state.players[seat];
  state.tableVersion++;
  const pair = bothMahJonggs(state, seat, claimed);
  if (claimed !== null) p.concealed[claimed]++;
  const [r0, r1] = liveRacks(state, seat);
  if (pair !== null) {
    recordMahJongg(state, seat, r0, pair[0], how, true);
    recordMahJongg(state, seat, r1, pair[1], how, true);
  } else {
    const f0 = completeForm(state.cc, p.concealed, rackExposures(p, r0));
    const f1 = f0 >= 0 ? -1 : completeForm(state.cc, p.concealed, rackExposures(p, r1));
    if (f0 >= 0) {
      recordMahJongg(state, seat, r0, f0, how, false);
      killRack(state, seat, r1);
    } else if (f1 >= 0) {
      recordMahJongg(state, seat, r1, f1, how, false);
      killRack(state, seat, r0);
    } else {
      killRack(state, seat, r0);
      if (state.phase.kind !== 'ended') killRack(state, seat, r1);
    }
  }
  if (state.phase.kind !== 'ended') afterMahJongg(state, seat);
}

/** Moves a complete form's tiles onto the rack as a declared Mah Jongg. */
function recordMahJongg(state: GameState, seat: number, rack: number, form: number, how: HowWon, simultaneous: boolean): void {
  const p = state.players[seat];
  const exposures = rackExposures(p, rack);
  const line = state.cc.formLine[form];
  const src = state.turnSource;
  const tiles = tilesUsed(state.cc, form, p.concealed, exposures);
  for (let t = 0; t < KINDS; t++) p.concealed[t] -= tiles[t];
  // Siamese 9, 10C: jokers in an exposed Mah Jongg can no longer be exchanged
  for (const x of exposures) x.exchangeable = false;
  const event: MahJonggEvent = {
    seat,
    value: state.cc.card.lines[line].value,
    singlesAndPairs: singlesAndPairs(state.cc, line),
    jokerless: tiles[JOKER] === 0 && exposures.every((x) => x.jokers === 0),
    selfPick: how.selfPick,
    heavenly: how.heavenly,
    discarder: how.discarder,
    // tournament 11.5-11.7: the exposures when the winning tile was thrown; one made with it this turn is not counted
    exposuresBefore: exposures.length - (how.discarder !== null && src.from === 'discard' && src.exposed === rack ? 1 : 0),
    ordinal: p.mahJonggs.length + 1,
    simultaneous,
  };
  p.mahJonggs.push({ rack, line, form, tiles, event, at: state.actionCount });
  for (let t = 0; t < KINDS; t++) state.visible[t] += tiles[t];
}

/**
 * After a Mah Jongg: the game ends when the player has the Mah Jonggs it takes (one, or two
 * in Siamese 14) or nobody is left to play; otherwise she discards to complete her turn and
 * plays on (Siamese 10), or, with no live rack left, the others play on (Siamese 13).
 */
function afterMahJongg(state: GameState, seat: number): void {
  const p = state.players[seat];
  if (p.mahJonggs.length >= state.rules.mahJonggsToEnd || state.players.every((_, s) => !inPlay(state, s))) {
    endGame(state, false);
    return;
  }
  if (inPlay(state, seat) && handSize(p) > 0) {
    state.turn = seat;
    state.phase = { kind: 'discard' };
  } else passTurn(state, seat);
}

/**
 * A dead hand stops drawing and discarding and pays at the end (teaching guide 6.3). Jokers
 * in exposures made before stay exchangeable (6.4, standardized 14.3): its exposures are
 * left as they are.
 */
function killRack(state: GameState, seat: number, rack: number): void {
  state.players[seat].dead[rack] = true;
  state.tableVersion++;
  const live = state.players.map((_, s) => inPlay(state, s));
  const someoneShowsMahJongg = state.players.some((p) => p.mahJonggs.length > 0);
  // everyone dead, or (Siamese 12-13) one player left with nothing to play against: the game ends
  if (live.every((x) => !x)) {
    endGame(state, !someoneShowsMahJongg);
    return;
  }
  if (state.rules.racks > 1 && !inPlay(state, seat) && state.players[seat].mahJonggs.length === 0) {
    endGame(state, false);
    return;
  }
  if (state.phase.kind === 'claims') {
    const c = state.phase;
    c.responses[seat] = c.responses[seat] ?? DECLINED;
  }
}

function endGame(state: GameState, wallGame: boolean, intactAfterFalseMahJongg: number[] = []): void {
  const n = state.rules.players;
  // in the order declared (records.md: `winners`); a pair declared together keeps its rack order
  const events = state.players
    .flatMap((p) => p.mahJonggs)
    .sort((a, b) => a.at - b.at)
    .map((m) => m.event);
  const outcome: GameOutcome = {
    players: n,
    mahJonggs: events,
    wallGame: wallGame && events.length === 0,
    deadHands: state.players.map((p) => p.dead.filter((d) => d).length),
    racks: state.rules.racks,
    lowestValue: Math.min(...state.cc.card.lines.map((l) => l.value)),
    ...(intactAfterFalseMahJongg.length > 0 ? { intactAfterFalseMahJongg } : {}),
  };
  const { scores, lines } = scoreGame(state.rules.scoring, outcome);
  state.result = { winners: events.map((e) => e.seat), wallGame: outcome.wallGame, scores, lines, outcome };
  state.phase = { kind: 'ended' };
}
