import { tilesAwayAll } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import type { SeatView } from '../../engine/mah-jongg/game.js';
import { nextInt, type RngState } from '../../engine/rng.js';
import { unseenCounts } from '../../engine/mah-jongg/seat.js';
import { JOKER, type TileId } from '../../engine/mah-jongg/tiles.js';

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
  /** Score a hand by all the lines within reach (linesAway), not by the closest line alone. */
  spread?: boolean;
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
      total += opts.spread ? linesAway(cc, hand) : closestOf(cc, hand);
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
  if (!w) {
    w = { away: new Uint8Array(cc.lineCount), best: new Uint32Array(cc.lineCount) };
    scratch.set(cc, w);
  }
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
 * Tiles away counting every line within reach: -log2 of the sum of 2^-(tiles away) over the
 * lines. One line alone at 4 tiles away scores 4; two lines at 4 score 3, four score 2: a hand
 * that keeps several lines near counts as nearer than one that keeps a single line as near.
 */
export function linesAway(cc: CompiledCard, hand: readonly number[]): number {
  const w = scratchOf(cc);
  tilesAwayAll(cc, hand, w.away, w.best);
  let sum = 0;
  for (let l = 0; l < cc.lineCount; l++) sum += 2 ** -w.away[l];
  return -Math.log2(sum);
}

/**
 * The held tile (never a joker: jokers are never passed) whose loss sets the hand back
 * least: the closest line first, then the second and third closest (so that a tie on the
 * closest does not break up the next-best lines).
 */
function cheapestTile(cc: CompiledCard, hand: number[]): TileId {
  const w = scratchOf(cc);
  let best = -1,
    bestScore = Infinity;
  for (let t = 0; t < JOKER; t++) {
    if (hand[t] === 0) continue;
    hand[t]--;
    tilesAwayAll(cc, hand, w.away, w.best);
    hand[t]++;
    let a = 99,
      b = 99,
      c = 99;
    for (let l = 0; l < cc.lineCount; l++) {
      const x = w.away[l];
      if (x < a) {
        c = b;
        b = a;
        a = x;
      } else if (x < b) {
        c = b;
        b = x;
      } else if (x < c) c = x;
    }
    const score = a * 10_000 + b * 100 + c;
    if (score < bestScore) {
      bestScore = score;
      best = t;
    }
  }
  return best;
}

/** k-tile multisets from the candidates (a kind at most as often as the hand holds it), in ranking order. */
function combinations(candidates: readonly TileId[], k: number, held: readonly number[]): TileId[][] {
  const kinds = [...new Set(candidates)];
  const out: TileId[][] = [];
  const pick: TileId[] = [];
  const rec = (from: number): void => {
    if (pick.length === k) {
      out.push([...pick]);
      return;
    }
    for (let i = from; i < kinds.length; i++) {
      const t = kinds[i];
      if (pick.filter((x) => x === t).length < held[t]) {
        pick.push(t);
        rec(i);
        pick.pop();
      }
    }
  };
  rec(0);
  return out;
}

/**
 * The pass that keeps lines open, as teachers give it (issue #29): early in the Charleston a
 * hand has not chosen its line, so a tile is worth what it does for every line within reach,
 * not for the one closest line alone. A held tile costs, for each line within `reach` tiles of
 * the closest, the tiles away it would add to that line if it went, the closest lines weighing
 * most (half as much for each tile further); a pair (or more) costs `pairGuard` more in the
 * first Charleston, when pairs are hardest to rebuild (pairs take no jokers: card-notation.md);
 * among tiles that cost the same, the one from the family the hand holds least of (a suit's
 * numbers, the winds, the dragons, the flowers) goes first. Three tiles are chosen one by one,
 * each from the hand left by the ones before. On a pass that allows a blind pass, a tile that
 * would still cost `blindCost` or more stays, and a received tile is forwarded unseen instead.
 */
export interface OpenPass {
  reach: number;
  pairGuard: number;
  blindCost: number;
}

export const OPEN_PASS: OpenPass = { reach: 2, pairGuard: 0.5, blindCost: 1 };

export interface OpenChoice {
  tiles: TileId[];
  blind: number;
  /** What each passed tile cost when it was chosen (as above). */
  costs: number[];
}

/** The family a tile belongs to, as the card's sections use them: 0-2 a suit's numbers, 3 winds, 4 dragons, 5 flowers. */
export function familyOf(t: TileId): number {
  if (t < 27) return (t / 9) | 0;
  if (t < 31) return 3;
  if (t < 34) return 4;
  return 5;
}

/**
 * Each held kind's cost (as in OPEN_PASS) for a concealed hand, into `cost` (jokers and kinds
 * not held: Infinity). `firstCharleston`: pairs are guarded.
 */
export function openCosts(cc: CompiledCard, hand: number[], firstCharleston: boolean, opts: OpenPass = OPEN_PASS, cost: Float64Array = new Float64Array(JOKER + 1)): Float64Array {
  const w = scratchOf(cc);
  const now = new Uint8Array(cc.lineCount);
  tilesAwayAll(cc, hand, now, w.best);
  let min = 99;
  for (let l = 0; l < cc.lineCount; l++) if (now[l] < min) min = now[l];
  cost.fill(Infinity);
  for (let t = 0; t < JOKER; t++) {
    if (hand[t] === 0) continue;
    hand[t]--;
    tilesAwayAll(cc, hand, w.away, w.best);
    hand[t]++;
    let c = 0;
    for (let l = 0; l < cc.lineCount; l++) {
      if (now[l] > min + opts.reach) continue;
      c += (w.away[l] - now[l]) / 2 ** (now[l] - min);
    }
    if (firstCharleston && hand[t] >= 2) c += opts.pairGuard;
    cost[t] = c;
  }
  return cost;
}

/** The Charleston pass that keeps lines open (OPEN_PASS): tiles chosen from the seat's concealed hand only. */
export function openPass(cc: CompiledCard, view: SeatView, opts: OpenPass = OPEN_PASS): OpenChoice {
  const hand = [...view.concealed];
  // the first Charleston's three passes (nmjl rules: right, across, left)
  const first = (view.pass ?? 0) < 3;
  const cost = new Float64Array(JOKER + 1);
  const out: OpenChoice = { tiles: [], blind: 0, costs: [] };
  for (let i = 0; i < 3; i++) {
    openCosts(cc, hand, first, opts, cost);
    const family = new Array<number>(6).fill(0);
    for (let t = 0; t < JOKER; t++) family[familyOf(t)] += hand[t];
    let best = -1;
    for (let t = 0; t < JOKER; t++) {
      if (hand[t] === 0) continue;
      if (best < 0 || cost[t] < cost[best] - 1e-9 || (Math.abs(cost[t] - cost[best]) <= 1e-9 && family[familyOf(t)] < family[familyOf(best)])) best = t;
    }
    if (best < 0) break; // nothing but jokers: never passed (teaching guide 2.1)
    if (view.blindAllowed && cost[best] >= opts.blindCost) {
      out.blind = 3 - out.tiles.length;
      break;
    }
    out.tiles.push(best);
    out.costs.push(cost[best]);
    hand[best]--;
  }
  // a hand of jokers and fewer than three other tiles: forwarding unseen is the only way to make up three
  if (out.tiles.length + out.blind < 3 && view.blindAllowed) out.blind = 3 - out.tiles.length;
  return out;
}

export const BLEND_SEARCH: PassSearch = { ...PASS_SEARCH, spread: true };

/**
 * The two together: the lookahead's search (searchPass: candidates tried against sampled
 * returns), its candidates the tiles the open pass would part with first (openCosts), and each
 * hand after the pass scored by all the lines within reach (linesAway), not the closest alone.
 * On a pass that allows a blind pass, forwarding 1-3 received tiles unseen is weighed too (it
 * keeps the hand as it is, but brings nothing).
 */
export function blendPass(cc: CompiledCard, view: SeatView, rng: RngState, opts: PassSearch = BLEND_SEARCH): OpenChoice & { expectedAway: number } {
  const hand = [...view.concealed];
  const cost = openCosts(cc, hand, (view.pass ?? 0) < 3);
  const family = new Array<number>(6).fill(0);
  for (let t = 0; t < JOKER; t++) family[familyOf(t)] += hand[t];
  const ranked: TileId[] = [];
  for (let t = 0; t < JOKER; t++) if (hand[t] > 0) ranked.push(t);
  ranked.sort((a, b) => cost[a] - cost[b] || family[familyOf(a)] - family[familyOf(b)] || a - b);
  let choice = { tiles: [] as TileId[], blind: 3, expectedAway: view.blindAllowed ? linesAway(cc, hand) : 99 };
  for (let blind = view.blindAllowed ? 2 : 0; blind >= 0; blind--) {
    const c = searchPass(cc, view, ranked, 3 - blind, 3 - blind, rng, opts);
    if (c.expectedAway < choice.expectedAway) choice = { ...c, blind };
  }
  return { ...choice, costs: choice.tiles.map((t) => cost[t]) };
}

/** A tile as a beginner says it: "3 Dot", "North", "Green Dragon", "Soap", "Flower". */
export function tileWords(t: TileId): string {
  if (t < 27) return `${(t % 9) + 1} ${['Bam', 'Crak', 'Dot'][(t / 9) | 0]}`;
  return ['North', 'East', 'West', 'South', 'Green Dragon', 'Red Dragon', 'Soap', 'Flower', 'Joker'][t - 27];
}

/** "a", "a and b", "a, b and c". */
export function andList(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'];

/**
 * A Charleston pass in one sentence a beginner understands, in the game's terms: which tiles
 * go (and how many received tiles go on unseen), why (a tile that sets back none of the lines
 * within reach, as openCosts weighs them, "fits none of the lines your tiles are building"),
 * and the pairs kept. `hand`: the concealed tiles before the pass.
 */
export function passWhy(cc: CompiledCard, hand: readonly number[], given: readonly TileId[], blind: number): string {
  // named in the order a player racks them
  const tiles = [...given].sort((a, b) => a - b);
  if (closestOf(cc, hand) === 0) return 'Your hand is already Mah Jongg: as East, declare it instead of passing.';
  const left = [...hand];
  const idle: string[] = [],
    spare: string[] = [];
  const cost = new Float64Array(JOKER + 1);
  // whether each passed tile that does serve a line costs no more than any tile kept
  let cheapest = true;
  for (const t of tiles) {
    openCosts(cc, left, false, OPEN_PASS, cost);
    (cost[t] < 1e-9 ? idle : spare).push(tileWords(t));
    left[t]--;
    if (cost[t] >= 1e-9) for (let k = 0; k < JOKER; k++) if (left[k] > 0 && !tiles.includes(k) && cost[k] < cost[t] - 1e-9) cheapest = false;
  }
  // a pass chosen for the closest lines alone may give a tile that lines a little further need more than a tile kept
  const spare1 = (what: string) =>
    cheapest
      ? `your lines can spare ${what} more easily than the tiles you keep`
      : `${what === 'it' || what === 'them' ? `giving ${what} up` : `giving up ${what}`} sets your closest lines back least`;
  let pairs = 0,
    broken = 0;
  for (let t = 0; t < JOKER; t++)
    if (hand[t] >= 2) {
      pairs++;
      if (left[t] < 2) broken++;
    }
  const keptPairs = broken > 0 || pairs === 0 ? '' : `, and you keep ${pairs === 1 ? 'your pair' : pairs === 2 ? 'both your pairs' : `all ${NUMBER_WORDS[pairs] ?? pairs} of your pairs`}`;
  const unseen = `forward ${blind === 3 ? 'all three' : NUMBER_WORDS[blind]} of the tiles you receive without looking at them (a blind pass)`;
  if (tiles.length === 0) return `${unseen.replace(/^./, (c) => c.toUpperCase())}: every tile in your hand helps the lines you are building${keptPairs}.`;
  const words = tiles.map(tileWords);
  const one = tiles.length === 1;
  let reason: string;
  if (spare.length === 0) reason = `${one ? 'it fits' : 'they fit'} none of the lines your tiles are building`;
  else if (idle.length === 0) reason = spare1(one ? 'it' : 'them');
  else reason = `${andList(idle)} ${idle.length === 1 ? 'fits' : 'fit'} none of the lines your tiles are building, and ${spare1(andList(spare))}`;
  if (blind > 0) reason += ', and every other tile in your hand helps your lines';
  return `Pass ${andList(words)}${blind > 0 ? ` and ${unseen}` : ''}: ${reason}${keptPairs}.`;
}
