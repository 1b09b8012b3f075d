import type { CompiledCard } from './compile.js';
import { type ErrorCode, TilemateError } from '../errors.js';
import type { RngState } from '../rng.js';
import type { Ruleset } from './rulesets.js';
import type { GameOutcome, MahJonggEvent, ScoreLine } from './scoring.js';
import { JOKER, KINDS, setCopies, type TileId, type Group } from './tiles.js';

/**
 * The game's state (GameState and its parts) and the questions the rules ask of it: the racks
 * and seats still in play, the tiles on the table, and cloneState (a rack's Mah Jongg, which
 * asks the table's proofs, is in rack-mah-jongg.ts). Part of the game (game.ts).
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

/** A player's racks (Siamese players have two), as the rules and the proofs read them. */

/** Whether a rack is live: not dead, no Mah Jongg declared on it yet. */
export function rackLive(p: Player, rack: number): boolean {
  if (p.dead[rack]) return false;
  for (let i = 0; i < p.mahJonggs.length; i++) if (p.mahJonggs[i].rack === rack) return false;
  return true;
}

/** The exposures on one rack (the player's own list when all stand on it: read it, never change it). */
export function rackExposures(p: Player, rack: number): Exposure[] {
  const all = p.exposures;
  for (let i = 0; i < all.length; i++) if (all[i].rack !== rack) return all.filter((x) => x.rack === rack);
  return all;
}

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
