import { KINDS, type TileId } from './tiles.js';
import { type Exposure, type GameResult, type GameState, type Phase, type Player, copiesOf } from './state.js';

/**
 * What a seat may see (view, sharedView) and who is waited on (waitingOn, nextToAct). Part
 * of the game (game.ts).
 */

// ------------------------------------------------------------------ views

export interface SeatView {
  seat: number;
  ruleset: string;
  players: number;
  phase: Phase['kind'];
  /** The Charleston pass (0-based), its direction as a seat offset, and whether a blind pass is allowed to this seat. */
  pass?: number;
  passOffset?: number;
  blindAllowed?: boolean;
  /** The discard on the table in a claim window, and whether this seat has answered. */
  claim?: { tile: TileId; discarder: number; answered: boolean };
  /** Seats still to act (all of them in simultaneous steps: passes, votes, claims). */
  waitingOn: number[];
  turn: number;
  wallLeft: number;
  dice: readonly number[];
  /** This seat's concealed tiles, as counts. */
  concealed: readonly number[];
  /** Copies of each kind in the game (the ruleset's sets and jokers): what is unseen is these less what the seat sees. */
  copies: readonly number[];
  /** Concealed tiles on each seat's racks, as counts only. */
  concealedCounts: number[];
  /** Each seat's exposures, discards, dead racks and declared Mah Jonggs: on the table for all to see. */
  exposures: readonly (readonly Exposure[])[];
  discards: readonly (readonly TileId[])[];
  dead: readonly (readonly boolean[])[];
  /** Declared Mah Jonggs, with the concealed tiles that went into them (on the rack for all to see). */
  mahJonggs: { seat: number; rack: number; line: string; value: number; tiles: readonly number[] }[];
  /** How the current turn began (public: everyone saw the draw or the claim). */
  turnFrom: GameState['turnSource'];
  /** A joker came from another player's exposure this turn (public). */
  exchangedFromOther: boolean;
  result: GameResult | null;
  /** When the game has ended: every hand and the seed, for review. */
  reveal?: { seed: number; concealed: number[][] };
}

/** The first seat `waitingOn` lists, or -1 when nobody is waited on (ended): nothing allocated, for the game loops. */
export function nextToAct(state: GameState): number {
  const ph = state.phase;
  if (ph.kind === 'draw' || ph.kind === 'discard') return state.turn;
  if (ph.kind === 'ended') return -1;
  const list: readonly unknown[] = ph.kind === 'claims' ? ph.responses : ph.kind === 'charleston' ? ph.choices : ph.kind === 'vote' ? ph.votes : ph.offers;
  for (let s = 0; s < list.length; s++) if (list[s] === null) return s;
  return -1;
}

/** Seats that must act before the game can go on (simultaneous steps: passes, votes, claims). */
export function waitingOn(state: GameState): number[] {
  const ph = state.phase;
  const out: number[] = [];
  if (ph.kind === 'draw' || ph.kind === 'discard') out.push(state.turn);
  else if (ph.kind !== 'ended') {
    const list: readonly unknown[] = ph.kind === 'claims' ? ph.responses : ph.kind === 'charleston' ? ph.choices : ph.kind === 'vote' ? ph.votes : ph.offers;
    for (let s = 0; s < list.length; s++) if (list[s] === null) out.push(s);
  }
  return out;
}

/**
 * Per table (its list of players), every player's exposures, discards and dead racks as a
 * shared view shows them: the players' own arrays (a window on the state, never a copy),
 * gathered once rather than for every view. A copied or sampled state has its own players list.
 */
const tableLists = new WeakMap<Player[], Pick<SeatView, 'exposures' | 'discards' | 'dead'>>();

/**
 * What a seat may see (see `view`), without copies: the game's own arrays, read-only by type
 * and valid until the next apply. The fast path for self-play, whose bots only read their
 * views (bots ask for one at every step); a view given to anyone else is `view`'s.
 */
export function sharedView(state: GameState, seat: number): SeatView {
  const ph = state.phase;
  const players = state.players;
  // plain loops: flatMap and for-of cost more than the rest of a bot's step
  const concealedCounts: number[] = [];
  const mahJonggs: SeatView['mahJonggs'] = [];
  let lists = tableLists.get(players);
  if (lists === undefined) {
    lists = { exposures: players.map((p) => p.exposures), discards: players.map((p) => p.discards), dead: players.map((p) => p.dead) };
    tableLists.set(players, lists);
  }
  for (let s = 0; s < players.length; s++) {
    const c = players[s].concealed;
    let n = 0;
    for (let t = 0; t < KINDS; t++) n += c[t];
    concealedCounts.push(n);
    for (const m of players[s].mahJonggs) mahJonggs.push({ seat: s, rack: m.rack, line: state.cc.card.lines[m.line].id, value: m.event.value, tiles: m.tiles });
  }
  const v: SeatView = {
    seat,
    ruleset: state.rules.name,
    players: state.rules.players,
    phase: ph.kind,
    // every field in every phase: one object shape for all views (code that reads views stays optimized)
    pass: undefined,
    passOffset: undefined,
    blindAllowed: undefined,
    claim: undefined,
    waitingOn: waitingOn(state),
    turn: state.turn,
    wallLeft: state.wall.length - state.wallPos,
    dice: state.dice,
    concealed: players[seat].concealed,
    copies: copiesOf(state.rules),
    concealedCounts,
    exposures: lists.exposures,
    discards: lists.discards,
    dead: lists.dead,
    mahJonggs,
    turnFrom: state.turnSource,
    exchangedFromOther: state.exchangedFromOther,
    result: state.result,
    reveal: undefined,
  };
  if (ph.kind === 'charleston') {
    const ch = state.rules.charleston!;
    v.pass = ph.pass;
    v.passOffset = [...ch.first, ...ch.second][ph.pass];
    v.blindAllowed = ch.blindPasses.includes(ph.pass) && !(ph.eastFirst && seat === 0);
  }
  if (ph.kind === 'claims') v.claim = { tile: ph.tile, discarder: ph.discarder, answered: ph.responses[seat] !== null };
  if (ph.kind === 'ended') v.reveal = { seed: state.seed, concealed: players.map((p) => [...p.concealed]) };
  return v;
}

/**
 * What a seat may see: its own rack, every exposure and discard, counts of the others'
 * racks and of the wall; never another rack, the wall order, the generator or the seed of a
 * live game. Its lists and objects are its own copies, so nothing written into a view
 * reaches the game; it shows the game as it was when asked. (sharedView is the same view
 * without the copies.)
 */
export function view(state: GameState, seat: number): SeatView {
  const v = sharedView(state, seat);
  v.dice = v.dice.slice();
  v.concealed = v.concealed.slice();
  v.copies = v.copies.slice();
  v.exposures = v.exposures.map((list) => list.map(copyExposure));
  v.discards = v.discards.map((list) => list.slice());
  v.dead = v.dead.map((list) => list.slice());
  v.mahJonggs = v.mahJonggs.map((m) => ({ ...m, tiles: m.tiles.slice() }));
  v.turnFrom = { ...v.turnFrom };
  v.result = dataCopy(v.result);
  return v;
}

const copyExposure = (x: Exposure): Exposure => ({ tile: x.tile, size: x.size, jokers: x.jokers, rack: x.rack, exchangeable: x.exchangeable });

/** A deep copy of plain data (arrays, objects, numbers, strings, booleans, null, undefined). */
function dataCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((x: unknown) => dataCopy(x)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) out[k] = dataCopy(x);
  return out as T;
}
