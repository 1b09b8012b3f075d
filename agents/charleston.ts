import { tilesAwayAll } from '../engine/analyzer.js';
import type { CompiledCard } from '../engine/compile.js';
import type { SeatView } from '../engine/game.js';
import { nextInt, type RngState } from '../engine/rng.js';
import { unseenCounts } from '../engine/seat.js';
import { JOKER, type TileId } from '../engine/tiles.js';

/**
 * Choosing a Charleston pass by looking ahead: each candidate set of tiles to give (drawn
 * from the tiles the heuristic would part with first) is tried against many samples of the
 * tiles that could come back, and the set whose hand ends closest to some line on average
 * wins. The heuristic looks only at the hand as it is; this also weighs what the pass
 * may bring.
 */
export interface PassSearch {
  /** Tiles considered for passing: the cheapest few by the heuristic's ranking. */
  pool: number;
  /** Samples of incoming tiles per candidate. */
  samples: number;
}

export const PASS_SEARCH: PassSearch = { pool: 8, samples: 32 };

export interface PassChoice {
  tiles: TileId[];
  /** Mean tiles away of the closest line after the pass comes back. */
  expectedAway: number;
}

/** Unseen tiles from the seat's view (the pool incoming tiles are sampled from; never jokers: jokers are never passed). */
function incomingPool(view: SeatView): TileId[] {
  const unseen = unseenCounts(view);
  const pool: TileId[] = [];
  for (let t = 0; t < JOKER; t++) for (let i = 0; i < unseen[t]; i++) pool.push(t);
  return pool;
}

/**
 * The best `k` tiles to pass among `ranked` (cheapest first), with `incoming` tiles coming
 * back. Common random numbers: every candidate meets the same samples.
 */
export function searchPass(cc: CompiledCard, view: SeatView, ranked: readonly TileId[], k: number, incoming: number, rng: RngState, opts: PassSearch = PASS_SEARCH): PassChoice {
  const pool = incomingPool(view);
  const candidates = combinations(ranked.slice(0, Math.max(k, opts.pool)), k, view.concealed);
  const samples: TileId[][] = [];
  for (let s = 0; s < opts.samples; s++) {
    const got: TileId[] = [];
    const left = [...pool];
    for (let i = 0; i < incoming && left.length > 0; i++) got.push(left.splice(nextInt(rng, left.length), 1)[0]);
    samples.push(got);
  }
  const hand = [...view.concealed];
  let choice: PassChoice = { tiles: candidates[0] ?? [], expectedAway: 99 };
  for (const tiles of candidates) {
    for (const t of tiles) hand[t]--;
    let total = 0;
    for (const got of samples) {
      for (const t of got) hand[t]++;
      total += closestOf(cc, hand);
      for (const t of got) hand[t]--;
    }
    for (const t of tiles) hand[t]++;
    const mean = total / samples.length;
    if (mean < choice.expectedAway) choice = { tiles, expectedAway: mean };
  }
  return choice;
}

/**
 * The courtesy pass by lookahead (teaching guide 2.4: 0-3 tiles across, the smaller offer
 * counts): for each size, the best tiles to offer as in `searchPass`, and the size whose
 * hand ends closest on average. Offering nothing keeps the hand as it is.
 */
export function searchCourtesy(cc: CompiledCard, view: SeatView, ranked: readonly TileId[], rng: RngState, opts: PassSearch = PASS_SEARCH): PassChoice {
  let choice: PassChoice = { tiles: [], expectedAway: closestOf(cc, view.concealed) };
  for (let k = 1; k <= Math.min(3, ranked.length); k++) {
    const c = searchPass(cc, view, ranked, k, k, rng, opts);
    if (c.expectedAway < choice.expectedAway) choice = c;
  }
  return choice;
}

export interface VoteChoice {
  yes: boolean;
  /** Tiles away of the closest line now. */
  now: number;
  /** Mean tiles away after three more passes (sampled). */
  after: number;
}

/**
 * Whether to go on to the second Charleston (teaching guide 2.3: any player may stop it):
 * three more passes are played out on samples of what could come back, each pass giving up
 * the three tiles whose loss sets the hand back least. Yes when the hand ends closer on
 * average than it is now.
 */
export function searchVote(cc: CompiledCard, view: SeatView, rng: RngState, samples = PASS_SEARCH.samples): VoteChoice {
  const pool = incomingPool(view);
  const now = closestOf(cc, view.concealed);
  let total = 0;
  for (let s = 0; s < samples; s++) {
    const hand = [...view.concealed];
    const left = [...pool];
    for (let pass = 0; pass < 3; pass++) {
      for (let i = 0; i < 3; i++) hand[cheapestTile(cc, hand)]--;
      for (let i = 0; i < 3 && left.length > 0; i++) hand[left.splice(nextInt(rng, left.length), 1)[0]]++;
    }
    total += closestOf(cc, hand);
  }
  const after = total / samples;
  return { yes: after < now, now, after };
}

const scratch = new WeakMap<CompiledCard, { away: Uint8Array; best: Uint32Array }>();

function scratchOf(cc: CompiledCard): { away: Uint8Array; best: Uint32Array } {
  let w = scratch.get(cc);
  if (!w) { w = { away: new Uint8Array(cc.lineCount), best: new Uint32Array(cc.lineCount) }; scratch.set(cc, w); }
  return w;
}

/** Tiles away of the closest line for a concealed hand. */
function closestOf(cc: CompiledCard, hand: readonly number[]): number {
  const w = scratchOf(cc);
  tilesAwayAll(cc, hand, w.away, w.best);
  let min = 99;
  for (let l = 0; l < cc.lineCount; l++) if (w.away[l] < min) min = w.away[l];
  return min;
}

/**
 * The held tile (never a joker: jokers are never passed) whose loss sets the hand back
 * least: the closest line first, then the second and third closest (so that a tie on the
 * closest does not break up the next-best lines).
 */
function cheapestTile(cc: CompiledCard, hand: number[]): TileId {
  const w = scratchOf(cc);
  let best = -1, bestScore = Infinity;
  for (let t = 0; t < JOKER; t++) {
    if (hand[t] === 0) continue;
    hand[t]--;
    tilesAwayAll(cc, hand, w.away, w.best);
    hand[t]++;
    let a = 99, b = 99, c = 99;
    for (let l = 0; l < cc.lineCount; l++) {
      const x = w.away[l];
      if (x < a) { c = b; b = a; a = x; } else if (x < b) { c = b; b = x; } else if (x < c) c = x;
    }
    const score = a * 10_000 + b * 100 + c;
    if (score < bestScore) { bestScore = score; best = t; }
  }
  return best;
}

/** k-tile multisets from the candidates (a kind at most as often as the hand holds it), in ranking order. */
function combinations(candidates: readonly TileId[], k: number, held: readonly number[]): TileId[][] {
  const kinds = [...new Set(candidates)];
  const out: TileId[][] = [];
  const pick: TileId[] = [];
  const rec = (from: number): void => {
    if (pick.length === k) { out.push([...pick]); return; }
    for (let i = from; i < kinds.length; i++) {
      const t = kinds[i];
      if (pick.filter((x) => x === t).length < held[t]) { pick.push(t); rec(i); pick.pop(); }
    }
  };
  rec(0);
  return out;
}

