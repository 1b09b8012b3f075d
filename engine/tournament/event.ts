import { TilemateError } from '../errors.js';
import type { ScoringTable } from '../mah-jongg/rulesets.js';
import { checkResult, sameResult, type GameResult } from './score-card.js';
import { collectorOf, nextRound, seatAtRandom, verifierOf, type Place, type Seat, type Seating } from './seating.js';
import { standings, type AcceptedRound, type Adjustment, type Standing } from './standings.js';

/**
 * A Mah Jongg club event (issue 47) as the list of changes made to it, in order: the director's
 * (players registered and withdrawn, rounds seated, the clock, rounds accepted, adjustments and
 * corrections) and the players' (each one's score card entries, her verifier's check). The
 * event as it stands is the changes folded by `apply`, which refuses a change that cannot be
 * made (naming why) and changes nothing then; kept in that order, the changes are the event's
 * audit log, and the same changes give the same event on every server.
 */

/** Players an event registers at most (the senior games' day seats 51; a round of an online event opens a table for each four). */
export const MAX_PLAYERS = 256;

/** Games in a round (standardized tournament rules 20: "After four (4) games (a round)"). */
export const GAMES_A_ROUND = 4;

export interface EventPlayer {
  id: string;
  name: string;
  /** A senior games table host: East at her own table, every round. */
  host: boolean;
  /** Her card code: it opens her score card on her phone (never shown but to her and the director). */
  code: string;
  /** Her Tilemate account (its player id), once its owner accepted the event (issue 63): her rating follows it. */
  account?: string;
  /** The account the director named for her, waiting for its owner to accept: nothing of the event counts for it until then. */
  invited?: string;
  /** The round she was first seated for (a late arrival's is later than 1). */
  from: number;
  /** The round she withdrew before (null: still playing). */
  withdrawn: number | null;
}

export interface RoundState {
  round: number;
  seating: Seating;
  /** The rotation held (false: the room changed too much and was drawn again). */
  rotated: boolean;
  /** The round's clock: when it started (ms), how long it has been paused in all, whether it is paused now or ended. */
  startedAt: number;
  pausedMs: number;
  pausedAt: number | null;
  endedAt: number | null;
  /** Each player's card: her entry of each game at her table (index 0 = game 1). */
  cards: Map<string, (GameResult | null)[]>;
  /** Cards checked, by the player who checked them. */
  verified: Map<string, string>;
  accepted: boolean;
  /** The Director's corrections of an accepted round, by table and game (`table/game`, the game from 1). */
  corrections: Map<string, GameResult>;
  /** Games the Director settled before the round was accepted (`table/game`: her reason and who was there), written on every card at the table. */
  settled: Map<string, { reason: string; present: string[] }>;
  /** An online event: each game's Tilemate table, by `table/game` (its code). */
  games: Map<string, string>;
  /** The round's draw (its seat change's seed): at a table of three, the fourth game's East (rules 3.1). */
  roll: number;
}

/** An online event's play at Tilemate tables: the bot that takes an empty or abandoned seat, and how long a seat waits for its player. */
export interface OnlinePlay {
  level: string;
  /** Seconds a player may be gone before the bot plays for her (15 to 600). */
  awayAfter: number;
  /** The card the tables play on (its text), or null for the server's own. */
  card: { name: string; text: string } | null;
}

export interface EventState {
  name: string;
  ruleset: string;
  /** The round's time limit (standardized rules 20: about 55 minutes). */
  roundMinutes: number;
  players: Map<string, EventPlayer>;
  rounds: RoundState[];
  adjustments: Adjustment[];
  over: boolean;
  /** Played at Tilemate tables (null: with real tiles, each player entering her card). */
  online: OnlinePlay | null;
}

export type Change =
  | { type: 'create'; name: string; ruleset: string; roundMinutes: number; online?: OnlinePlay }
  /** A player registered; `account` asks that account's owner to join the event with it (she accepts with `consent`). */
  | { type: 'register'; id: string; name: string; code: string; host?: boolean; account?: string }
  /** The owner of the account the director named accepts (her rating follows the event) or declines. */
  | { type: 'consent'; player: string; account: string; accept: boolean }
  | { type: 'withdraw'; player: string }
  | { type: 'seat'; seed: number; at: number }
  | { type: 'clock'; action: 'pause' | 'resume' | 'end'; at: number }
  | { type: 'enter'; player: string; game: number; result: GameResult }
  | { type: 'verify'; player: string; by: string }
  /** She reopens her checked card to change it (the round not yet accepted): its check, and the checks she made against it, are undone. */
  | { type: 'reopen'; player: string }
  | { type: 'accept' }
  | { type: 'adjust'; player: string; points: number; reason: string }
  /** The Director's ruling on a game: on an accepted round, a correction; before it is accepted, the game settled on every card at the table. */
  | { type: 'correct'; round: number; table: number; game: number; result: GameResult; reason: string; present?: string[] }
  | { type: 'finish' }
  /** Online: a game of the round opened at a Tilemate table (its code). */
  | { type: 'open-game'; table: number; game: number; code: string }
  /** Online: a game's result as its table finished it (or zero each when the round's time ran out), entered on every card at the table. */
  | { type: 'played'; table: number; game: number; result: GameResult };

const refuse = (message: string): never => {
  throw new TilemateError('TM_BAD_INPUT', message);
};

export function emptyEvent(): EventState {
  return { name: '', ruleset: '', roundMinutes: 55, players: new Map(), rounds: [], adjustments: [], over: false, online: null };
}

/** The round now being played or scored (the last seated), if any. */
export const currentRound = (e: EventState): RoundState | undefined => e.rounds.at(-1);

/** The players still playing, in the order they registered. */
export const activePlayers = (e: EventState): EventPlayer[] => [...e.players.values()].filter((p) => p.withdrawn === null);

/** Her table's players in a round, by seat. */
export function tableOf(r: RoundState, table: number): Map<Seat, string> {
  // in seat order (A, B, C, D), whatever order the seating was drawn in: sheets, cards and the desk list them so
  return new Map(
    [...r.seating]
      .filter(([, p]) => p.table === table)
      .map(([id, p]) => [p.seat, id] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Where a player sits in a round, or a refusal naming why she has no card there. */
function placeOf(e: EventState, r: RoundState, player: string): Place {
  const place = r.seating.get(player);
  if (place === undefined) refuse(`${e.players.get(player)?.name ?? 'that player'} has no seat in round ${r.round}`);
  return place!;
}

/**
 * Registers a player at an event of either game, playing from round (or game) `from`: refused
 * when her id, her name (among those playing), her card code or her account is taken.
 */
export function registerPlayer(players: Map<string, EventPlayer>, c: { id: string; name: string; code: string; host?: boolean; account?: string }, from: number): void {
  const all = [...players.values()];
  if (all.length >= MAX_PLAYERS) refuse(`an event registers at most ${MAX_PLAYERS} players`);
  if (players.has(c.id)) refuse('that player is registered already');
  if (all.some((p) => p.name.toLowerCase() === c.name.toLowerCase() && p.withdrawn === null)) refuse(`${c.name} is registered already`);
  if (all.some((p) => p.code === c.code)) refuse('that card code is taken');
  if (c.account !== undefined && all.some((p) => (p.account === c.account || p.invited === c.account) && p.withdrawn === null)) refuse('that account is registered already');
  // the account is asked, not taken: its owner accepts before anything of the event is hers (issue 63)
  players.set(c.id, { id: c.id, name: c.name, host: c.host === true, code: c.code, from, withdrawn: null, ...(c.account === undefined ? {} : { invited: c.account }) });
}

/** The owner of the account the director named for a player accepts the event (her rating follows it from then on) or declines it. */
export function consentPlayer(players: Map<string, EventPlayer>, c: { player: string; account: string; accept: boolean }): void {
  const p = players.get(c.player) ?? refuse('this event has no such player');
  if (p!.account === c.account) refuse('your account has joined this event already');
  if (p!.invited !== c.account) refuse('this event has not asked for your account');
  if (c.accept) p!.account = c.account;
  delete p!.invited;
}

/** A player withdraws from round (or game) `from` on; her scores so far stay. */
export function withdrawPlayer(players: Map<string, EventPlayer>, id: string, from: number): void {
  const p = players.get(id) ?? refuse('no such player');
  if (p.withdrawn !== null) refuse(`${p.name} has withdrawn already`);
  p.withdrawn = from;
}

/** The Director's adjustment of a player's points, checked: a whole number from -1000 to 1000, not 0, with its reason. */
export function checkAdjustment(players: Map<string, EventPlayer>, c: { player: string; points: number; reason: string }): { player: string; points: number; reason: string } {
  const p = players.get(c.player) ?? refuse('no such player');
  if (!Number.isInteger(c.points) || c.points === 0 || Math.abs(c.points) > 1000) refuse('an adjustment is a whole number of points, from -1000 to 1000, not 0');
  if (c.reason.trim() === '') refuse(`an adjustment to ${p.name}'s points needs its reason`);
  return { player: c.player, points: c.points, reason: c.reason.trim() };
}

/** Applies one change to the event, in place; refused (TM_BAD_INPUT, naming why) when it cannot be made, and then nothing has changed. */
export function apply(e: EventState, c: Change): void {
  if (e.over && c.type !== 'adjust' && c.type !== 'correct' && c.type !== 'consent') refuse('the event is over');
  if (c.type !== 'create' && e.name === '') refuse('the event has not been created');
  const round = currentRound(e);
  switch (c.type) {
    case 'create':
      if (e.name !== '') refuse('the event exists already');
      e.name = c.name;
      e.ruleset = c.ruleset;
      e.roundMinutes = c.roundMinutes;
      e.online = c.online ?? null;
      return;
    case 'register':
      // a late arrival plays from the next round seated (her lateness is the Director's to penalise)
      registerPlayer(e.players, c, (round?.round ?? 0) + 1);
      return;
    case 'withdraw':
      withdrawPlayer(e.players, c.player, (round?.round ?? 0) + 1);
      return;
    case 'consent':
      consentPlayer(e.players, c);
      return;
    case 'seat': {
      if (round !== undefined && !round.accepted) refuse(`round ${round.round} is not accepted yet: its cards come first`);
      const players = activePlayers(e).map((p) => p.id);
      const hosts = activePlayers(e)
        .filter((p) => p.host)
        .map((p) => p.id);
      const next = round === undefined ? { seating: seatAtRandom(players, c.seed, hosts), rotated: true } : nextRound(round.seating, players, c.seed, hosts);
      e.rounds.push({
        round: e.rounds.length + 1,
        seating: next.seating,
        rotated: next.rotated,
        startedAt: c.at,
        pausedMs: 0,
        pausedAt: null,
        endedAt: null,
        cards: new Map(),
        verified: new Map(),
        accepted: false,
        corrections: new Map(),
        settled: new Map(),
        games: new Map(),
        roll: c.seed,
      });
      return;
    }
    case 'clock': {
      if (round === undefined || round.accepted) refuse('no round is being played');
      const r = round!;
      if (r.endedAt !== null) refuse(`round ${r.round} has ended`);
      if (c.action === 'pause') {
        if (r.pausedAt !== null) refuse(`round ${r.round} is paused already`);
        r.pausedAt = c.at;
      } else if (c.action === 'resume') {
        if (r.pausedAt === null) refuse(`round ${r.round} is not paused`);
        r.pausedMs += Math.max(0, c.at - r.pausedAt!);
        r.pausedAt = null;
      } else {
        if (r.pausedAt !== null) {
          r.pausedMs += Math.max(0, c.at - r.pausedAt);
          r.pausedAt = null;
        }
        r.endedAt = c.at;
      }
      return;
    }
    case 'enter': {
      if (e.online !== null) refuse('at an online event the tables score the games: nobody enters them');
      if (round === undefined || round.accepted) refuse('no round is being scored');
      const r = round!;
      const place = placeOf(e, r, c.player);
      if (!Number.isInteger(c.game) || c.game < 1 || c.game > GAMES_A_ROUND) refuse(`a round has games 1 to ${GAMES_A_ROUND}`);
      if (r.verified.has(c.player)) refuse('your card has been checked already: reopen it to change a game, and it will be checked again');
      if (r.settled.has(`${place.table}/${c.game}`)) refuse(`the Director settled game ${c.game} at your table: ask her if it should change`);
      checkResult(c.result, [...tableOf(r, place.table).keys()]);
      const card = r.cards.get(c.player) ?? new Array<GameResult | null>(GAMES_A_ROUND).fill(null);
      card[c.game - 1] = c.result;
      r.cards.set(c.player, card);
      return;
    }
    case 'verify': {
      if (e.online !== null) refuse('at an online event the tables score the games: there is no card to check');
      if (round === undefined || round.accepted) refuse('no round is being scored');
      const r = round!;
      const place = placeOf(e, r, c.player);
      const table = tableOf(r, place.table);
      const seats = [...table.keys()];
      const checker = table.get(verifierOf(place.seat, seats));
      const name = (id: string) => e.players.get(id)?.name ?? id;
      if (c.by !== checker) refuse(`${name(c.player)}'s card is checked by ${name(checker!)}, who sits ${verifierOf(place.seat, seats)}`);
      const card = r.cards.get(c.player);
      const mine = r.cards.get(c.by);
      if (card === undefined || card.some((g) => g === null)) refuse(`${name(c.player)} has not entered all ${GAMES_A_ROUND} games yet`);
      if (mine === undefined || mine.some((g) => g === null)) refuse(`enter your own ${GAMES_A_ROUND} games first: the cards are checked against each other`);
      const differs = card!.findIndex((g, i) => !sameResult(g!, mine![i]!));
      if (differs >= 0) refuse(`game ${differs + 1} differs between ${name(c.player)}'s card and yours: one of you must correct it before it is checked`);
      r.verified.set(c.player, c.by);
      return;
    }
    case 'reopen': {
      if (e.online !== null) refuse('at an online event the tables score the games: there is no card to reopen');
      if (round === undefined || round.accepted) refuse('no round is being scored');
      const r = round!;
      placeOf(e, r, c.player);
      if (!r.verified.has(c.player)) refuse('your card is not checked: change its games as they are');
      // standardized rules 3: a changed card is verified again, and so is the card checked against it
      r.verified.delete(c.player);
      for (const [checked, by] of [...r.verified]) if (by === c.player) r.verified.delete(checked);
      return;
    }
    case 'accept': {
      if (round === undefined || round.accepted) refuse('no round is waiting to be accepted');
      const r = round!;
      const unchecked = [...r.seating.keys()].filter((id) => !r.verified.has(id));
      if (unchecked.length > 0)
        refuse(`round ${r.round} waits for ${unchecked.length} card${unchecked.length === 1 ? '' : 's'} to be checked (${unchecked.map((id) => e.players.get(id)?.name ?? id).join(', ')})`);
      // the four cards of a table agree (East and West checked each other, North and South each other: here all of them)
      for (const t of new Set([...r.seating.values()].map((p) => p.table))) {
        const g = differences(r, t)[0];
        if (g !== undefined) refuse(`table ${t}'s cards differ at game ${g.game}: its players change their cards to agree (reopening a checked one), or the Director settles the game`);
      }
      r.accepted = true;
      if (r.endedAt === null) r.endedAt = r.startedAt;
      return;
    }
    case 'adjust':
      e.adjustments.push({ ...checkAdjustment(e.players, c), round: round?.round ?? null });
      return;
    case 'correct': {
      const r = e.rounds[c.round - 1] ?? refuse(`no round ${c.round}`);
      const table = tableOf(r!, c.table);
      if (table.size === 0) refuse(`round ${c.round} has no table ${c.table}`);
      if (!Number.isInteger(c.game) || c.game < 1 || c.game > GAMES_A_ROUND) refuse(`a round has games 1 to ${GAMES_A_ROUND}`);
      if (c.reason.trim() === '') refuse(`a change to ${r!.accepted ? 'an accepted card' : "a table's cards"} needs the Director's reason`);
      checkResult(c.result, [...table.keys()]);
      // standardized rules 22: in a dispute all four players are present with the Director; who was, is kept with her ruling
      const seated = [...table.values()];
      for (const [i, id] of (c.present ?? []).entries()) {
        if (!seated.includes(id)) refuse(`${e.players.get(id)?.name ?? 'that player'} did not sit at table ${c.table} in round ${c.round}: name only its players as present`);
        if (c.present!.indexOf(id) !== i) refuse(`${e.players.get(id)!.name} is named twice among those present: name each once`);
      }
      if (r!.accepted) {
        r!.corrections.set(`${c.table}/${c.game}`, c.result);
        return;
      }
      // standardized rules 23: in a dispute the Director's ruling is final. Before the round is
      // accepted she settles the game on every card at the table (her ruling stands until she
      // rules again); the checks stay, since every card changes alike
      if (e.online !== null) refuse('at an online event the tables score the games: correct a game once its round is accepted');
      for (const id of table.values()) {
        const card = r!.cards.get(id) ?? new Array<GameResult | null>(GAMES_A_ROUND).fill(null);
        card[c.game - 1] = c.result;
        r!.cards.set(id, card);
      }
      r!.settled.set(`${c.table}/${c.game}`, { reason: c.reason.trim(), present: [...(c.present ?? [])] });
      return;
    }
    case 'finish':
      if (round !== undefined && !round.accepted) refuse(`round ${round.round} is not accepted yet`);
      e.over = true;
      return;
    case 'open-game': {
      const r = onlineRound(e, round, c.table, c.game);
      if (r.games.has(`${c.table}/${c.game}`)) refuse(`game ${c.game} at table ${c.table} has its table already`);
      if (c.game > 1 && !r.cards.get(tableOf(r, c.table).values().next().value!)?.[c.game - 2]) refuse(`game ${c.game - 1} at table ${c.table} is not over yet`);
      r.games.set(`${c.table}/${c.game}`, c.code);
      return;
    }
    case 'played': {
      const r = onlineRound(e, round, c.table, c.game);
      const players = [...tableOf(r, c.table).values()];
      if (r.cards.get(players[0])?.[c.game - 1]) refuse(`game ${c.game} at table ${c.table} is scored already`);
      checkResult(c.result, [...tableOf(r, c.table).keys()]);
      for (const p of players) {
        const card = r.cards.get(p) ?? new Array<GameResult | null>(GAMES_A_ROUND).fill(null);
        card[c.game - 1] = c.result;
        r.cards.set(p, card);
      }
      // the table's games are its cards, agreed: checked once all four are in
      if (r.cards.get(players[0])!.every((g) => g !== null)) for (const p of players) r.verified.set(p, p);
      return;
    }
    default:
      refuse(`${(c as { type: string }).type} is no change this event takes`);
  }
}

/** One game whose entries differ at a table: the seats that entered each result (the cards not yet entered at that game left out). */
export interface Difference {
  game: number;
  entries: { seats: Seat[]; result: GameResult }[];
}

/** The games whose entered cards differ at a table of a round, in order (none: the entered cards agree). */
export function differences(r: RoundState, table: number): Difference[] {
  const out: Difference[] = [];
  const seated = [...tableOf(r, table)];
  for (let i = 0; i < GAMES_A_ROUND; i++) {
    const entries: Difference['entries'] = [];
    for (const [seat, id] of seated) {
      const g = r.cards.get(id)?.[i];
      if (g === null || g === undefined) continue;
      const same = entries.find((x) => sameResult(x.result, g));
      if (same === undefined) entries.push({ seats: [seat], result: g });
      else same.seats.push(seat);
    }
    if (entries.length > 1) out.push({ game: i + 1, entries });
  }
  return out;
}

/** An online event's round being played, and a table and game in it, or a refusal naming what is wrong. */
function onlineRound(e: EventState, round: RoundState | undefined, table: number, game: number): RoundState {
  if (e.online === null) refuse('this event is played with real tiles');
  if (round === undefined || round.accepted) refuse('no round is being played');
  if (tableOf(round!, table).size === 0) refuse(`round ${round!.round} has no table ${table}`);
  if (!Number.isInteger(game) || game < 1 || game > GAMES_A_ROUND) refuse(`a round has games 1 to ${GAMES_A_ROUND}`);
  return round!;
}

/** The event from its changes, in order. */
export function replay(changes: readonly Change[]): EventState {
  const e = emptyEvent();
  for (const c of changes) apply(e, c);
  return e;
}

/** The accepted rounds' games at each table (a table's agreed cards, with the Director's corrections). */
export function acceptedRounds(e: EventState): AcceptedRound[] {
  return e.rounds
    .filter((r) => r.accepted)
    .map((r) => {
      const games = new Map<number, GameResult[]>();
      for (const t of new Set([...r.seating.values()].map((p) => p.table))) {
        const first = r.cards.get(tableOf(r, t).values().next().value!)!;
        games.set(
          t,
          first.map((g, i) => r.corrections.get(`${t}/${i + 1}`) ?? g!),
        );
      }
      return { round: r.round, seating: r.seating, games };
    });
}

/** The standings now: every player registered, the accepted rounds, the adjustments. */
export function eventStandings(e: EventState, scoring: ScoringTable): Standing[] {
  return standings([...e.players.keys()], acceptedRounds(e), e.adjustments, scoring);
}

/** The round clock's time left (ms, never below 0) at `now`. */
export function timeLeft(e: EventState, r: RoundState, now: number): number {
  const until = r.endedAt ?? r.pausedAt ?? now;
  return Math.max(0, e.roundMinutes * 60_000 - (until - r.startedAt - r.pausedMs));
}

/** Who collects a table's cards in the round (standardized rules 21). */
export function collector(r: RoundState, table: number): string | undefined {
  const t = tableOf(r, table);
  return t.get(collectorOf(r.round, [...t.keys()]));
}
