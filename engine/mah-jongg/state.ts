import type { CompiledCard } from './compile.js';
import { type ErrorCode, TilemateError } from '../errors.js';
import { completeForm, completeForms, tilesUsed } from './hand-check.js';
import { rackExposures, rackLive } from './racks.js';
import type { RngState } from '../rng.js';
import type { Ruleset } from './rulesets.js';
import type { GameOutcome, MahJonggEvent, ScoreLine } from './scoring.js';
import { TableProofs } from './table-proofs.js';
import { JOKER, KINDS, setCopies, type TileId, type Group } from './tiles.js';

/**
 * The game's state (GameState and its parts) and the questions the rules ask of it: the seats
 * still in play, a rack's Mah Jongg (with the table's proofs kept beside the states asked
 * about, proofsOf), the tiles on the table, and cloneState. Part of the game (game.ts).
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

export type ClaimResponse = { type: 'decline' } | { type: 'call'; size: number; jokers: number; rack: number } | { type: 'callMahJongg'; rack: number; both: boolean };

/** The answer of every seat that declines a discard (one shared object: answers are never changed, only replaced). */
export const DECLINED: ClaimResponse = Object.freeze({ type: 'decline' });

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
  if (!c) {
    c = setCopies(rules.sets, rules.jokers);
    copiesByRules.set(rules, c);
  }
  return c;
}
/** Chairs at the table (four walls, teaching guide 1.2); a table of three leaves one empty. */
export const CHAIRS = 4;

// ------------------------------------------------------------------ small helpers

export const fail = (code: ErrorCode, message: string): never => {
  throw new TilemateError(code, message);
};

/** Tiles in play on a player's racks: concealed, and exposed on racks without a Mah Jongg. */
export const handSize = (p: Player): number => p.concealed.reduce((a, b) => a + b, 0) + p.exposures.reduce((a, x) => a + (p.mahJonggs.some((m) => m.rack === x.rack) ? 0 : x.size), 0);

/** The seat's live racks (not dead, no Mah Jongg declared on them yet). */
export function liveRacks(state: GameState, seat: number): number[] {
  const p = state.players[seat];
  const out: number[] = [];
  for (let r = 0; r < state.rules.racks; r++) if (rackLive(p, r)) out.push(r);
  return out;
}

/** Whether the seat still plays: some rack live (dead players stop drawing and discarding, rule 14.3). */
export function inPlay(state: GameState, seat: number): boolean {
  const p = state.players[seat];
  if (state.rules.racks === 1) return rackLive(p, 0); // one rack: no loop whose step only a dead hand reaches (a deoptimization)
  for (let r = 0; r < state.rules.racks; r++) if (rackLive(p, r)) return true;
  return false;
}

export function nextInPlay(state: GameState, from: number): number {
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

export function hasTiles(p: Player, tiles: readonly TileId[]): boolean {
  const c = countsOfTiles(tiles);
  for (let t = 0; t < KINDS; t++) if (c[t] > p.concealed[t]) return false;
  return true;
}

export function checkTiles(tiles: unknown, what: string): TileId[] {
  if (!Array.isArray(tiles) || !tiles.every((t) => Number.isInteger(t) && t >= 0 && t < KINDS)) fail('TM_ILLEGAL_ACTION', `${what}: expected a list of tiles`);
  return tiles as TileId[];
}

export function rackOf(state: GameState, seat: number, rack: number | undefined): number {
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
 * random game, whose states die young (measured again when game.ts was split, issue 45: a
 * Siamese random game about 8% slower). A field of the state would be written by questions that
 * only read it (legalActions, view), copied by cloneState's spread and kept in the JSON of a
 * state, so the proofs stay here, beside the questions that use them. The states kept here stay
 * alive until replaced.
 */
const KEPT_PROOFS = 4;
const keptStates: (GameState | null)[] = new Array<GameState | null>(KEPT_PROOFS).fill(null);
const keptProofs: (TableProofs | null)[] = new Array<TableProofs | null>(KEPT_PROOFS).fill(null);
export function proofsOf(state: GameState): TableProofs {
  if (keptStates[0] === state) return keptProofs[0]!;
  let i = 1;
  while (i < KEPT_PROOFS && keptStates[i] !== state) i++;
  const proofs = i < KEPT_PROOFS ? keptProofs[i]! : new TableProofs(copiesOf(state.rules));
  // to the front, the others one place back (the last one out when the state is new)
  for (let j = Math.min(i, KEPT_PROOFS - 1); j > 0; j--) {
    keptStates[j] = keptStates[j - 1];
    keptProofs[j] = keptProofs[j - 1];
  }
  keptStates[0] = state;
  keptProofs[0] = proofs;
  return proofs;
}

/** The complete form a seat's rack makes with extra concealed tiles (a claimed discard), or -1. */
export function rackMahJongg(state: GameState, seat: number, rack: number, extra: TileId | null): number {
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
export function mahJonggRacks(state: GameState, seat: number, extra: TileId | null): readonly number[] {
  let out: number[] | null = null; // allocated only for a Mah Jongg: most turns have none
  let bare: boolean | null = null; // the answer for a rack without exposures, once known
  const p = state.players[seat];
  for (let rack = 0; rack < state.rules.racks; rack++) {
    if (!rackLive(p, rack)) continue;
    let plain = true;
    for (let i = 0; i < p.exposures.length; i++)
      if (p.exposures[i].rack === rack) {
        plain = false;
        break;
      }
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
export function pairPossible(state: GameState, seat: number, mj: readonly number[]): boolean {
  if (state.rules.racks < 2 || mj.length === 0) return false;
  const p = state.players[seat];
  let first = 0;
  while (first < state.rules.racks && !rackLive(p, first)) first++;
  return mj[0] === first;
}

export function isMahJonggNow(state: GameState, seat: number): boolean {
  return mahJonggRacks(state, seat, null).length > 0;
}

/** The most valuable pair of complete forms for a player's two racks from one pool, or null. */
export function bothMahJonggs(state: GameState, seat: number, extra: TileId | null): [number, number] | null {
  const p = state.players[seat];
  const racks = liveRacks(state, seat);
  if (racks.length < 2) return null;
  const x0 = rackExposures(p, racks[0]),
    x1 = rackExposures(p, racks[1]);
  const open = proofsOf(state).linesLeft(state, seat, x0, extra);
  if (open === null) return null; // no hand on the first rack, so no pair
  const pool = extra === null ? [...p.concealed] : p.concealed.map((n, t) => (t === extra ? n + 1 : n));
  let best: [number, number] | null = null,
    bestValue = -1;
  const lines = state.cc.card.lines,
    formLine = state.cc.formLine;
  for (const f0 of completeForms(state.cc, pool, x0, false, open)) {
    const used = tilesUsed(state.cc, f0, pool, x0);
    const rest = pool.map((n, t) => n - used[t]);
    const f1 = completeForm(state.cc, rest, x1);
    if (f1 < 0) continue;
    const value = lines[formLine[f0]].value + lines[formLine[f1]].value;
    if (value > bestValue) {
      bestValue = value;
      best = [f0, f1];
    }
  }
  return best;
}

/** The visible tiles counted afresh (validate checks the running count against it). */
export function countVisible(state: GameState): number[] {
  const v = new Array<number>(KINDS).fill(0);
  for (const p of state.players) {
    for (const t of p.discards) v[t]++;
    for (const x of p.exposures) {
      v[x.tile] += x.size - x.jokers;
      v[JOKER] += x.jokers;
    }
    for (const m of p.mahJonggs) for (let t = 0; t < KINDS; t++) v[t] += m.tiles[t];
  }
  return v;
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
