import type { CompiledCard } from './compile.js';
import { type ErrorCode, ruleViolation, TilemateError } from '../errors.js';
import { completeForm, completeForms, exposuresFitCard, singlesAndPairs, tilesUsed } from './hand-check.js';
import { rackExposures, rackLive } from './racks.js';
import { nextInt, seedRng, shuffle, type RngState } from '../rng.js';
import type { Ruleset } from './rulesets.js';
import { scoreGame, type GameOutcome, type MahJonggEvent, type ScoreLine } from './scoring.js';
import { TableProofs } from './table-proofs.js';
import { JOKER, KINDS, setCopies, tileName, tilesFromCounts, type TileId, type Group } from './tiles.js';

/**
 * The game as a pure, deterministic state machine: `newGame(rules, card, seed)`, then
 * `legalActions(state, seat)` and `apply(state, action)`. `apply` checks an action in full
 * before it changes anything, so a refused action (a TilemateError with a stable code)
 * leaves the state as it was. All randomness comes from the generator held in the state.
 *
 * Seats are numbered in turn order from East (0); seat s + 1 sits to s's right and play
 * passes to the right. `view(state, seat)` is what that seat may see.
 */

export interface Exposure extends Group {
  /** The rack it stands on (Siamese players have two). */
  rack: number;
  /** Its jokers may be exchanged (not in an exposed Mah Jongg, not in the exposure that made a hand dead). */
  exchangeable: boolean;
}

export interface DeclaredMahJongg {
  rack: number;
  line: number;
  form: number;
  /** Concealed tiles that went into it, as counts (exposures excluded). */
  tiles: number[];
  event: MahJonggEvent;
  /** Actions applied before it was declared: orders the Mah Jonggs of a game as declared. */
  at: number;
}

export interface Player {
  /** Concealed tiles as counts per kind, jokers included. */
  concealed: number[];
  exposures: Exposure[];
  discards: TileId[];
  /** Dead hands, per rack. */
  dead: boolean[];
  mahJonggs: DeclaredMahJongg[];
}

export interface PassChoice {
  /** Tiles from the player's own rack. */
  tiles: TileId[];
  /** Received tiles passed on unseen (a blind pass, or "steal"). */
  blind: number;
}

export type ClaimResponse =
  | { type: 'decline' }
  | { type: 'call'; size: number; jokers: number; rack: number }
  | { type: 'callMahJongg'; rack: number; both: boolean };

/** The answer of every seat that declines a discard (one shared object: answers are never changed, only replaced). */
const DECLINED: ClaimResponse = Object.freeze({ type: 'decline' });

export type Phase =
  | { kind: 'charleston'; pass: number; choices: (PassChoice | null)[]; eastFirst: boolean }
  | { kind: 'vote'; votes: (boolean | null)[] }
  | { kind: 'courtesy'; offers: (TileId[] | null)[] }
  | { kind: 'draw' }
  | { kind: 'discard' }
  | { kind: 'claims'; tile: TileId; discarder: number; responses: (ClaimResponse | null)[] }
  | { kind: 'ended' };

/** Whether a phase is a step of the Charleston before play: a pass, the vote on a second Charleston, the courtesy offer. */
export const beforePlay = (kind: Phase['kind']): boolean => kind === 'charleston' || kind === 'vote' || kind === 'courtesy';

export type Action =
  | { type: 'pass'; seat: number; tiles: TileId[]; blind?: number }
  | { type: 'vote'; seat: number; yes: boolean }
  | { type: 'courtesy'; seat: number; tiles: TileId[] }
  | { type: 'draw'; seat: number }
  | { type: 'discard'; seat: number; tile: TileId }
  | { type: 'exchange'; seat: number; owner: number; exposure: number }
  | { type: 'declare'; seat: number; rack?: number; both?: boolean }
  | { type: 'decline'; seat: number }
  | { type: 'call'; seat: number; size: number; jokers: number; rack?: number }
  | { type: 'callMahJongg'; seat: number; rack?: number; both?: boolean }
  | { type: 'callDead'; seat: number; target: number; rack?: number }
  /** The director calls time on an unfinished game (tournament 11.4); never among a seat's legal actions. */
  | { type: 'timeUp'; seat: number };

export interface GameResult {
  /** Seats that declared a valid Mah Jongg, in order. */
  winners: number[];
  wallGame: boolean;
  scores: number[];
  lines: ScoreLine[];
  outcome: GameOutcome;
}

export interface GameState {
  rules: Ruleset;
  cc: CompiledCard;
  seed: number;
  rng: RngState;
  dice: number[];
  /** Tiles in picking order; the next pick is wall[wallPos]. */
  wall: TileId[];
  wallPos: number;
  players: Player[];
  turn: number;
  phase: Phase;
  /**
   * How the current turn began, for self-pick and the discarder of a winning tile; `exposed`
   * is the rack where the claimed discard went into an exposure this turn.
   */
  turnSource: { from: 'deal' } | { from: 'wall' } | { from: 'discard'; discarder: number; exposed?: number };
  /** A joker was taken from another player's exposure this turn (standardized rules 10.2). */
  exchangedFromOther: boolean;
  /** Discards made so far in the game (a Mah Jongg before the first is East's heavenly hand). */
  discardCount: number;
  /** Actions applied so far. */
  actionCount: number;
  /** Tiles on the table for all to see, per kind: discards, exposures, declared Mah Jonggs (kept as they change). */
  visible: number[];
  /**
   * Changes to the tiles on the table so far (discards, exposures, Mah Jonggs, dead hands):
   * `apply` counts each, as it counts actions and discards. The dead-hand proofs kept beside a
   * state (TableProofs) are checked again when it moves, so code that changes the table by
   * hand (a test setting up a position) moves it too.
   */
  tableVersion: number;
  result: GameResult | null;
}

// ------------------------------------------------------------------ setting up

const copiesByRules = new WeakMap<Ruleset, readonly number[]>();
/** Copies of each kind the ruleset plays with (one 152-tile set; Royale Siamese two without jokers). */
export function copiesOf(rules: Ruleset): readonly number[] {
  let c = copiesByRules.get(rules);
  if (!c) { c = setCopies(rules.sets, rules.jokers); copiesByRules.set(rules, c); }
  return c;
}
/** Chairs at the table (four walls, teaching guide 1.2); a table of three leaves one empty. */
const CHAIRS = 4;

/** A new game, shuffled, walls built and broken, tiles dealt (teaching guide part 1). */
export function newGame(rules: Ruleset, cc: CompiledCard, seed: number): GameState {
  const rng = seedRng(seed);
  const tiles = shuffle(rng, tilesFromCounts(copiesOf(rules)));
  const STACKS = rules.wallStacks;
  if (tiles.length !== 2 * STACKS * (rules.wallOrder.length + 1)) {
    throw new TilemateError('TM_BAD_INPUT', `ruleset ${rules.name}: ${tiles.length} tiles do not fill ${rules.wallOrder.length + 1} walls of ${STACKS} stacks`);
  }
  // Walls of STACKS stacks of two (teaching guide 1.2: four of 19), wall w holding tiles
  // [w*2*STACKS .. (w+1)*2*STACKS - 1], stack i its tiles 2i (top) and 2i + 1.
  const dice = Array.from({ length: rules.dice }, () => 1 + nextInt(rng, 6));
  const breakAt = dice.reduce((a, b) => a + b, 0) % STACKS;
  // East counts the dice from her wall's right end; those stacks are picked last (teaching guide 1.4),
  // or moved to the tail of her first wall (Siamese 4A).
  const stacks: number[] = [];
  const counted: number[] = [];
  for (let i = breakAt; i < STACKS; i++) stacks.push(i);
  for (let i = 0; i < breakAt; i++) counted.push(i);
  if (rules.countedStacks === 'firstWallTail') stacks.push(...counted);
  for (const w of rules.wallOrder) for (let i = 0; i < STACKS; i++) stacks.push(w * STACKS + i);
  if (rules.countedStacks === 'last') stacks.push(...counted);
  const wall: TileId[] = [];
  for (const s of stacks) wall.push(tiles[2 * s], tiles[2 * s + 1]);

  const n = rules.players;
  const players: Player[] = Array.from({ length: n }, () => ({
    concealed: new Array<number>(KINDS).fill(0),
    exposures: [],
    discards: [],
    dead: new Array<boolean>(rules.racks).fill(false),
    mahJonggs: [],
  }));
  // Deal: four at a time in turn order, then the rest one by one; East one more (teaching guide 1.5-1.8).
  let pos = 0;
  for (let dealt = 0; dealt < rules.dealSize; ) {
    const take = Math.min(rules.dealChunk, rules.dealSize - dealt);
    for (const p of players) for (let i = 0; i < take; i++) p.concealed[wall[pos++]]++;
    dealt += take;
  }
  if (rules.eastDealtExtra) players[0].concealed[wall[pos++]]++;

  const state: GameState = {
    rules, cc, seed, rng, dice, wall, wallPos: pos, players,
    turn: 0,
    phase: { kind: 'draw' },
    turnSource: { from: 'deal' },
    exchangedFromOther: false,
    discardCount: 0,
    actionCount: 0,
    tableVersion: 0,
    visible: new Array<number>(KINDS).fill(0),
    result: null,
  };
  if (rules.charleston && rules.charleston.first.length > 0) state.phase = { kind: 'charleston', pass: 0, choices: new Array(n).fill(null), eastFirst: false };
  else if (rules.charleston) startCourtesy(state); // teaching guide 8: no Charleston at three, the courtesy pass optional
  else if (rules.eastDealtExtra) state.phase = { kind: 'discard' };
  // Siamese 8: East picks the 28th tile to begin (phase 'draw').
  return state;
}

// ------------------------------------------------------------------ small helpers

const fail = (code: ErrorCode, message: string): never => { throw new TilemateError(code, message); };

/** Tiles in play on a player's racks: concealed, and exposed on racks without a Mah Jongg. */
export const handSize = (p: Player): number =>
  p.concealed.reduce((a, b) => a + b, 0) +
  p.exposures.reduce((a, x) => a + (p.mahJonggs.some((m) => m.rack === x.rack) ? 0 : x.size), 0);

/** The seat's live racks (not dead, no Mah Jongg declared on them yet). */
function liveRacks(state: GameState, seat: number): number[] {
  const p = state.players[seat];
  const out: number[] = [];
  for (let r = 0; r < state.rules.racks; r++) if (rackLive(p, r)) out.push(r);
  return out;
}

/** Whether the seat still plays: some rack live (dead players stop drawing and discarding, rule 14.3). */
function inPlay(state: GameState, seat: number): boolean {
  const p = state.players[seat];
  if (state.rules.racks === 1) return rackLive(p, 0); // one rack: no loop whose step only a dead hand reaches (a deoptimization)
  for (let r = 0; r < state.rules.racks; r++) if (rackLive(p, r)) return true;
  return false;
}

function nextInPlay(state: GameState, from: number): number {
  const n = state.rules.players;
  for (let i = 1; i <= n; i++) {
    const s = (from + i) % n;
    if (inPlay(state, s)) return s;
  }
  return -1;
}

function countsOfTiles(tiles: readonly TileId[]): number[] {
  const c = new Array<number>(KINDS).fill(0);
  for (const t of tiles) c[t]++;
  return c;
}

function hasTiles(p: Player, tiles: readonly TileId[]): boolean {
  const c = countsOfTiles(tiles);
  for (let t = 0; t < KINDS; t++) if (c[t] > p.concealed[t]) return false;
  return true;
}

function checkTiles(tiles: unknown, what: string): TileId[] {
  if (!Array.isArray(tiles) || !tiles.every((t) => Number.isInteger(t) && t >= 0 && t < KINDS)) fail('TM_ILLEGAL_ACTION', `${what}: expected a list of tiles`);
  return tiles as TileId[];
}

function rackOf(state: GameState, seat: number, rack: number | undefined): number {
  const r = rack ?? liveRacks(state, seat)[0] ?? 0;
  if (!Number.isInteger(r) || r < 0 || r >= state.rules.racks) fail('TM_ILLEGAL_ACTION', `no rack ${rack} (this game has ${state.rules.racks})`);
  return r;
}

/**
 * The proofs kept beside the few states asked about most recently (TableProofs), by identity,
 * the least recently asked about given up first: a game loop asks about one state at every
 * step, a searching bot about its sampled worlds one after another. A state not among them
 * (new, copied, sampled, or not asked about for a while) starts afresh: its proofs are made
 * again from its tiles, with the same answers. A WeakMap keyed by state would keep the proofs
 * of every state alive, but it costs each garbage collection its bookkeeping: about 4% of a
 * random game, whose states die young. The states kept here stay alive until replaced.
 */
const KEPT_PROOFS = 4;
const keptStates: (GameState | null)[] = new Array<GameState | null>(KEPT_PROOFS).fill(null);
const keptProofs: (TableProofs | null)[] = new Array<TableProofs | null>(KEPT_PROOFS).fill(null);
function proofsOf(state: GameState): TableProofs {
  if (keptStates[0] === state) return keptProofs[0]!;
  let i = 1;
  while (i < KEPT_PROOFS && keptStates[i] !== state) i++;
  const proofs = i < KEPT_PROOFS ? keptProofs[i]! : new TableProofs(copiesOf(state.rules));
  // to the front, the others one place back (the last one out when the state is new)
  for (let j = Math.min(i, KEPT_PROOFS - 1); j > 0; j--) { keptStates[j] = keptStates[j - 1]; keptProofs[j] = keptProofs[j - 1]; }
  keptStates[0] = state;
  keptProofs[0] = proofs;
  return proofs;
}

/** The complete form a seat's rack makes with extra concealed tiles (a claimed discard), or -1. */
function rackMahJongg(state: GameState, seat: number, rack: number, extra: TileId | null): number {
  const p = state.players[seat];
  const exposures = rackExposures(p, rack);
  const lines = proofsOf(state).linesLeft(state, seat, exposures, extra);
  if (lines === null) return -1;
  let concealed = p.concealed;
  if (extra !== null) {
    concealed = withExtra;
    for (let t = 0; t < KINDS; t++) concealed[t] = p.concealed[t];
    concealed[extra]++;
  }
  return completeForm(state.cc, concealed, exposures, lines);
}

/** Scratch for a rack with a claimed tile (completeForm keeps no reference to it). */
const withExtra = new Array<number>(KINDS).fill(0);

/** The live racks that make Mah Jongg (with a claimed tile); racks without exposures share one answer. */
function mahJonggRacks(state: GameState, seat: number, extra: TileId | null): readonly number[] {
  let out: number[] | null = null; // allocated only for a Mah Jongg: most turns have none
  let bare: boolean | null = null; // the answer for a rack without exposures, once known
  const p = state.players[seat];
  for (let rack = 0; rack < state.rules.racks; rack++) {
    if (!rackLive(p, rack)) continue;
    let plain = true;
    for (let i = 0; i < p.exposures.length; i++) if (p.exposures[i].rack === rack) { plain = false; break; }
    const ok: boolean = plain && bare !== null ? bare : rackMahJongg(state, seat, rack, extra) >= 0;
    if (plain) bare = ok;
    if (ok) (out ??= []).push(rack);
  }
  return out ?? NO_RACKS;
}
const NO_RACKS: readonly number[] = [];

/**
 * Whether two Mah Jonggs at once are worth looking for: two racks, and the first live one makes
 * Mah Jongg (`mj`: mahJonggRacks' answer), as bothMahJonggs' pair needs.
 */
function pairPossible(state: GameState, seat: number, mj: readonly number[]): boolean {
  if (state.rules.racks < 2 || mj.length === 0) return false;
  const p = state.players[seat];
  let first = 0;
  while (first < state.rules.racks && !rackLive(p, first)) first++;
  return mj[0] === first;
}

// ------------------------------------------------------------------ legal actions

/** Every action the seat may take now (empty when it has nothing to do). */
export function legalActions(state: GameState, seat: number): Action[] {
  const ph = state.phase;
  const p = state.players[seat];
  const out: Action[] = [];
  switch (ph.kind) {
    case 'charleston': {
      if (ph.choices[seat] !== null) return out;
      if (seat === 0 && isMahJonggNow(state, 0)) out.push({ type: 'declare', seat }); // standardized rules 4.4
      const blindOk = state.rules.charleston!.blindPasses.includes(ph.pass) && !(ph.eastFirst && seat === 0);
      // one pass per choice of three distinct-kind combinations would explode; offer each way to choose by kind
      for (const tiles of passCombos(p.concealed, 3)) out.push({ type: 'pass', seat, tiles, blind: 0 });
      if (blindOk) for (let blind = 1; blind <= 3; blind++) for (const tiles of passCombos(p.concealed, 3 - blind)) out.push({ type: 'pass', seat, tiles, blind });
      return out;
    }
    case 'vote':
      return ph.votes[seat] === null ? [{ type: 'vote', seat, yes: true }, { type: 'vote', seat, yes: false }] : out;
    case 'courtesy': {
      if (ph.offers[seat] !== null) return out;
      for (let k = 0; k <= 3; k++) for (const tiles of passCombos(p.concealed, k)) out.push({ type: 'courtesy', seat, tiles });
      return out;
    }
    case 'draw': {
      if (seat !== state.turn) return out;
      const list = [shared.draw[seat] ?? { type: 'draw', seat }]; // a list of one, grown only for a call of a dead hand
      pushCallDead(state, seat, list);
      return list;
    }
    case 'discard': {
      if (seat !== state.turn) return out;
      const discards = shared.discard[seat];
      for (let t = 0; t < KINDS; t++) if (p.concealed[t] > 0) out.push(discards?.[t] ?? { type: 'discard', seat, tile: t });
      if (state.rules.racks === 1) {
        // the common table: one rack, no lists of racks
        if (rackLive(p, 0) && rackMahJongg(state, seat, 0, null) >= 0) out.push({ type: 'declare', seat, rack: 0 });
      } else {
        const mj = mahJonggRacks(state, seat, null);
        for (const rack of mj) out.push({ type: 'declare', seat, rack });
        if (pairPossible(state, seat, mj) && bothMahJonggs(state, seat, null) !== null) out.push({ type: 'declare', seat, both: true });
      }
      for (let owner = 0; owner < state.players.length; owner++) {
        const xs = state.players[owner].exposures;
        for (let i = 0; i < xs.length; i++) {
          const x = xs[i];
          if (x.jokers > 0 && x.exchangeable && p.concealed[x.tile] > 0) out.push({ type: 'exchange', seat, owner, exposure: i });
        }
      }
      pushCallDead(state, seat, out);
      return out;
    }
    case 'claims': {
      if (ph.responses[seat] !== null) return out;
      const list = [shared.decline[seat] ?? { type: 'decline', seat }]; // most windows end at the decline
      if (state.rules.racks === 1) {
        // the common table: one rack, no lists of racks
        if (!rackLive(p, 0)) return list;
        if (rackMahJongg(state, seat, 0, ph.tile) >= 0) list.push({ type: 'callMahJongg', seat, rack: 0 });
        pushCalls(state, seat, 0, ph.tile, list);
        return list;
      }
      const mj = mahJonggRacks(state, seat, ph.tile);
      if (pairPossible(state, seat, mj) && bothMahJonggs(state, seat, ph.tile) !== null) list.push({ type: 'callMahJongg', seat, both: true });
      for (let rack = 0; rack < state.rules.racks; rack++) {
        if (!rackLive(p, rack)) continue;
        if (mj.includes(rack)) list.push({ type: 'callMahJongg', seat, rack });
        pushCalls(state, seat, rack, ph.tile, list);
      }
      return list;
    }
    case 'ended':
      return out;
  }
}

/**
 * The actions listed at almost every step (draws, discards, declines), one frozen object
 * each for all games: an action is only read, so the lists share them instead of building
 * a dozen objects a step (a table of more chairs gets objects of its own).
 */
const shared = {
  draw: Array.from({ length: CHAIRS }, (_, seat): Action => Object.freeze({ type: 'draw', seat })),
  decline: Array.from({ length: CHAIRS }, (_, seat): Action => Object.freeze({ type: 'decline', seat })),
  discard: Array.from({ length: CHAIRS }, (_, seat) => Array.from({ length: KINDS }, (_, tile): Action => Object.freeze({ type: 'discard', seat, tile }))),
};

/** Distinct ways (by kind) to choose k non-joker tiles: jokers can never be passed (teaching guide part 2.1). */
function passCombos(concealed: readonly number[], k: number): TileId[][] {
  const out: TileId[][] = [];
  const pick: TileId[] = [];
  const rec = (from: number, left: number): void => {
    if (left === 0) { out.push([...pick]); return; }
    for (let t = from; t < JOKER; t++) {
      const used = pick.filter((x) => x === t).length;
      if (concealed[t] > used) { pick.push(t); rec(t, left - 1); pick.pop(); }
    }
  };
  rec(0, k);
  return out;
}

/**
 * The exposures a seat could make with the discard on a rack (pung to sextet, any mix of
 * naturals and jokers, fitting the card), each pushed onto `out` as a call.
 */
function pushCalls(state: GameState, seat: number, rack: number, tile: TileId, out: Action[]): void {
  const p = state.players[seat];
  const naturals = p.concealed[tile], jokers = p.concealed[JOKER];
  if (naturals + jokers < 2) return; // a pung needs two more tiles besides the discard
  // the rack's exposures and the new one in a reused list (exposuresFitCard only reads it)
  const shapes = callShapes;
  const earlier = rackExposures(p, rack);
  shapes.length = 0;
  for (let i = 0; i < earlier.length; i++) shapes.push(earlier[i]);
  const call: Group = { tile, size: 0, jokers: 0 };
  shapes.push(call);
  for (let size = 3; size <= 6; size++) {
    for (let j = 0; j <= Math.min(jokers, size - 1); j++) {
      if (size - 1 - j > naturals) continue;
      call.size = size;
      call.jokers = j;
      if (exposuresFitCard(state.cc, shapes)) out.push({ type: 'call', seat, size, jokers: j, rack });
    }
  }
  shapes.length = 0;
}
const callShapes: Group[] = [];

function isMahJonggNow(state: GameState, seat: number): boolean {
  return mahJonggRacks(state, seat, null).length > 0;
}

/** The visible tiles counted afresh (validate checks the running count against it). */
export function countVisible(state: GameState): number[] {
  const v = new Array<number>(KINDS).fill(0);
  for (const p of state.players) {
    for (const t of p.discards) v[t]++;
    for (const x of p.exposures) { v[x.tile] += x.size - x.jokers; v[JOKER] += x.jokers; }
    for (const m of p.mahJonggs) for (let t = 0; t < KINDS; t++) v[t] += m.tiles[t];
  }
  return v;
}

/** The seat may call dead each hand the tiles on the table prove impossible (teaching guide 6.6). */
function pushCallDead(state: GameState, seat: number, out: Action[]): void {
  const racks = state.rules.racks;
  const dead = proofsOf(state).deadHands(state);
  for (let target = 0; target < state.rules.players; target++) {
    if (target === seat) continue;
    for (let rack = 0; rack < racks; rack++) if (dead[target * racks + rack]) out.push({ type: 'callDead', seat, target, rack });
  }
}

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
      if (!Number.isInteger(t) || t < 0 || t >= KINDS || p.concealed[t] === 0) fail('TM_ILLEGAL_ACTION', `seat ${seat} holds no ${Number.isInteger(t) && t >= 0 && t < KINDS ? tileName(t) : String(t)} to discard`);
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
      if (!Number.isInteger(target) || target < 0 || target >= state.rules.players || target === seat) fail('TM_ILLEGAL_ACTION', 'call another player\'s hand dead');
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

// ------------------------------------------------------------------ Charleston

function resolvePass(state: GameState): void {
  const ph = state.phase as Extract<Phase, { kind: 'charleston' }>;
  if (ph.choices.some((c) => c === null)) return;
  const n = state.rules.players;
  const ch = state.rules.charleston!;
  const offset = [...ch.first, ...ch.second][ph.pass];
  const giver = (s: number) => (s - offset + n) % n;
  const choices = ph.choices as PassChoice[];
  // Blind passes forward tiles received in this very pass, so a seat can only complete
  // once its giver has. When every seat is waiting on a blind pass, East must pass first
  // from her own tiles (standardized rules 4.5): her choice is taken back and she chooses again.
  const out: (TileId[] | null)[] = choices.map((c) => (c.blind === 0 ? c.tiles : null));
  if (out.every((o) => o === null)) {
    for (const t of choices[0].tiles) state.players[0].concealed[t]++;
    ph.choices[0] = null;
    ph.eastFirst = true;
    return;
  }
  for (let guard = 0; out.some((o) => o === null) && guard < n; guard++) {
    for (let s = 0; s < n; s++) {
      const g = out[giver(s)];
      if (out[s] === null && g !== null) out[s] = [...choices[s].tiles, ...g.slice(0, choices[s].blind)];
    }
  }
  // each seat receives what its giver passed, less what it forwarded unseen
  for (let s = 0; s < n; s++) {
    const received = out[giver(s)]!.slice(choices[s].blind);
    for (const t of received) state.players[s].concealed[t]++;
  }
  const nextPass = ph.pass + 1;
  if (nextPass === ch.first.length) state.phase = { kind: 'vote', votes: new Array(n).fill(null) };
  else if (nextPass === ch.first.length + ch.second.length) startCourtesy(state);
  else state.phase = { kind: 'charleston', pass: nextPass, choices: new Array(n).fill(null), eastFirst: false };
}

/**
 * The courtesy partner of a seat: the player across the table's four chairs (teaching guide 2.4).
 * At a table of three the empty chair is the fourth in turn order, so South sits across it and
 * has no partner (teaching guide 8: the courtesy pass is optional there); null then.
 */
function courtesyPartner(state: GameState, seat: number): number | null {
  const partner = (seat + state.rules.charleston!.courtesyOffset) % CHAIRS;
  return partner < state.rules.players ? partner : null;
}

function startCourtesy(state: GameState): void {
  if (state.rules.charleston!.courtesyOffset === 0) { startPlay(state); return; }
  // a seat with nobody across offers nothing and is not waited on
  const offers = Array.from({ length: state.rules.players }, (_, s): TileId[] | null => (courtesyPartner(state, s) === null ? [] : null));
  state.phase = { kind: 'courtesy', offers };
  if (offers.every((o) => o !== null)) resolveCourtesy(state);
}

/** Teaching guide 2.4: players across may exchange 1-3 tiles; the smaller offer sets how many. */
function resolveCourtesy(state: GameState): void {
  const ph = state.phase as Extract<Phase, { kind: 'courtesy' }>;
  const offers = ph.offers as TileId[][];
  const partners = offers.map((_, s) => courtesyPartner(state, s));
  const gives = offers.map((o, s) => (partners[s] === null ? [] : o.slice(0, Math.min(o.length, offers[partners[s]!].length))));
  gives.forEach((g, s) => { for (const t of g) state.players[s].concealed[t]--; });
  gives.forEach((g, s) => { for (const t of g) state.players[partners[s]!].concealed[t]++; });
  startPlay(state);
}

/** Teaching guide part 3.1: East starts by discarding. */
function startPlay(state: GameState): void {
  state.turn = 0;
  state.turnSource = { from: 'deal' };
  state.phase = { kind: 'discard' };
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
  if (!anyone) { passTurn(state, discarder); return; }
  state.phase = { kind: 'claims', tile, discarder, responses };
}

/** The next player in play draws; a wall game when the wall is empty (teaching guide 3.4). */
function passTurn(state: GameState, from: number): void {
  const next = nextInPlay(state, from);
  if (next < 0 || state.wallPos >= state.wall.length) { endGame(state, true); return; }
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
  let mj = -1, call = -1;
  for (let i = 1; i < n; i++) {
    const s = (ph.discarder + i) % n, type = ph.responses[s]!.type;
    if (type === 'callMahJongg' && mj < 0) mj = s;
    if (type === 'call' && call < 0) call = s;
  }
  const winner = mj >= 0 ? mj : call;
  if (winner < 0) { passTurn(state, ph.discarder); return; }
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
    if (state.rules.scoring.intactAfterFalseMahJongg !== 0 && intact.length === 1) { endGame(state, false, intact); return; }
    // Siamese 11A: with another live rack the player still discards to end her turn and plays on
    if (inPlay(state, seat)) { state.turn = seat; state.phase = { kind: 'discard' }; }
    else if (state.turn === seat) passTurn(state, seat);
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
    if (f0 >= 0) { recordMahJongg(state, seat, r0, f0, how, false); killRack(state, seat, r1); }
    else if (f1 >= 0) { recordMahJongg(state, seat, r1, f1, how, false); killRack(state, seat, r0); }
    else { killRack(state, seat, r0); if (state.phase.kind !== 'ended') killRack(state, seat, r1); }
  }
  if (state.phase.kind !== 'ended') afterMahJongg(state, seat);
}

/** The most valuable pair of complete forms for a player's two racks from one pool, or null. */
function bothMahJonggs(state: GameState, seat: number, extra: TileId | null): [number, number] | null {
  const p = state.players[seat];
  const racks = liveRacks(state, seat);
  if (racks.length < 2) return null;
  const x0 = rackExposures(p, racks[0]), x1 = rackExposures(p, racks[1]);
  const open = proofsOf(state).linesLeft(state, seat, x0, extra);
  if (open === null) return null; // no hand on the first rack, so no pair
  const pool = extra === null ? [...p.concealed] : p.concealed.map((n, t) => (t === extra ? n + 1 : n));
  let best: [number, number] | null = null, bestValue = -1;
  const lines = state.cc.card.lines, formLine = state.cc.formLine;
  for (const f0 of completeForms(state.cc, pool, x0, false, open)) {
    const used = tilesUsed(state.cc, f0, pool, x0);
    const rest = pool.map((n, t) => n - used[t]);
    const f1 = completeForm(state.cc, rest, x1);
    if (f1 < 0) continue;
    const value = lines[formLine[f0]].value + lines[formLine[f1]].value;
    if (value > bestValue) { bestValue = value; best = [f0, f1]; }
  }
  return best;
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
  if (p.mahJonggs.length >= state.rules.mahJonggsToEnd || state.players.every((_, s) => !inPlay(state, s))) { endGame(state, false); return; }
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
  if (live.every((x) => !x)) { endGame(state, !someoneShowsMahJongg); return; }
  if (state.rules.racks > 1 && !inPlay(state, seat) && state.players[seat].mahJonggs.length === 0) { endGame(state, false); return; }
  if (state.phase.kind === 'claims') {
    const c = state.phase;
    c.responses[seat] = c.responses[seat] ?? DECLINED;
  }
}

function endGame(state: GameState, wallGame: boolean, intactAfterFalseMahJongg: number[] = []): void {
  const n = state.rules.players;
  // in the order declared (records.md: `winners`); a pair declared together keeps its rack order
  const events = state.players.flatMap((p) => p.mahJonggs).sort((a, b) => a.at - b.at).map((m) => m.event);
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

// ------------------------------------------------------------------ copying and checking

/** A deep copy (the card and ruleset are shared: they never change). */
export function cloneState(s: GameState): GameState {
  const phase: Phase = JSON.parse(JSON.stringify(s.phase));
  return {
    ...s,
    rng: [...s.rng] as RngState,
    dice: [...s.dice],
    wall: s.wall,
    players: s.players.map((p) => ({
      concealed: [...p.concealed],
      exposures: p.exposures.map((x) => ({ ...x })),
      discards: [...p.discards],
      dead: [...p.dead],
      mahJonggs: p.mahJonggs.map((m) => ({ ...m, tiles: [...m.tiles], event: { ...m.event } })),
    })),
    phase,
    turnSource: { ...s.turnSource },
    visible: [...s.visible],
    result: s.result,
  };
}

/**
 * Every invariant of a state, for tests (libriichi's validate()): all 152 tiles accounted
 * for, no count out of range, rack sizes right for the phase. Throws "rule violation: ...".
 */
export function validate(state: GameState): void {
  const bad = (what: string): never => { ruleViolation(`${what}`); };
  const count = new Array<number>(KINDS).fill(0);
  for (let i = state.wallPos; i < state.wall.length; i++) count[state.wall[i]]++;
  const ph = state.phase;
  if (ph.kind === 'charleston') for (const c of ph.choices) if (c) for (const t of c.tiles) count[t]++;
  for (const p of state.players) {
    for (let t = 0; t < KINDS; t++) {
      if (p.concealed[t] < 0) bad(`negative count of ${tileName(t)}`);
      count[t] += p.concealed[t];
    }
    for (const t of p.discards) { count[t]++; }
    for (const x of p.exposures) {
      if (x.jokers >= x.size) bad('an exposure of jokers only');
      count[x.tile] += x.size - x.jokers;
      count[JOKER] += x.jokers;
    }
    for (const m of p.mahJonggs) for (let t = 0; t < KINDS; t++) count[t] += m.tiles[t];
  }
  const visible = countVisible(state);
  for (let t = 0; t < KINDS; t++) if (visible[t] !== state.visible[t]) bad(`the running count of visible ${tileName(t)} is ${state.visible[t]}, not ${visible[t]}`);
  const copies = copiesOf(state.rules);
  for (let t = 0; t < KINDS; t++) if (count[t] !== copies[t]) bad(`${count[t]} copies of ${tileName(t)} accounted for, not ${copies[t]}`);
  if (ph.kind === 'draw' || ph.kind === 'discard') {
    const p = state.players[state.turn];
    if (!inPlay(state, state.turn)) bad(`seat ${state.turn} is out of play but has the turn`);
    const base = state.rules.racks > 1 ? state.rules.dealSize - 14 * p.mahJonggs.length : 13;
    const size = handSize(p);
    const expected = ph.kind === 'draw' ? base : base + 1;
    if (size !== expected) bad(`seat ${state.turn} holds ${size} tiles in phase ${ph.kind}, expected ${expected}`);
  }
}
