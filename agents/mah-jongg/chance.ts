import { ruleViolation } from '../../engine/errors.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { fitsForm } from '../../engine/mah-jongg/hand-check.js';
import { nextInt, seedRng } from '../../engine/rng.js';
import { JOKER, KINDS } from '../../engine/mah-jongg/tiles.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * The solo model of a hand's chances: the seat draws from a wall sampled out of the tiles
 * she has not seen, keeps a drawn tile when it brings a line closer (giving up the tile the
 * line needs least) and discards it otherwise. Nobody calls and nobody races her, so it
 * measures how reachable a line is from a hand, not the odds of winning the game; lines and
 * hands are compared on the same sampled draws (common random numbers). Used by the
 * `--simulate` chances (agents/mah-jongg/advice.ts).
 */

/** The forms of a line the exposures fit, with what each still needs from the concealed tiles. */
export interface LineForms {
  start: number[];
  kind: number[];
  need: number[];
  single: number[];
  jokers: boolean;
  /** Kinds some form of the line holds. */
  used: boolean[];
  /** The order to give tiles up in: what no form wants first, jokers last (they fill any group). */
  order: number[];
}

export function lineForms(cc: CompiledCard, l: number, exposures: readonly Group[]): LineForms {
  const lf: LineForms = { start: [0], kind: [], need: [], single: [], jokers: cc.lineJokers[l] === 1, used: new Array<boolean>(KINDS).fill(false), order: [] };
  // teaching guide 5.2: a concealed line exposes nothing before Mah Jongg
  if (exposures.length === 0 || !cc.card.lines[l].concealed) {
    for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
      if (!fitsForm(cc, f, exposures)) continue;
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
        const t = cc.entryKind[e];
        let need = cc.entryNeed[e];
        for (const x of exposures) if (x.tile === t) need -= x.size;
        lf.kind.push(t);
        lf.need.push(need);
        lf.single.push(cc.entrySingle[e]);
        if (need > 0) lf.used[t] = true;
      }
      lf.start.push(lf.kind.length);
    }
  }
  for (let t = 0; t < JOKER; t++) if (!lf.used[t]) lf.order.push(t);
  for (let t = 0; t < JOKER; t++) if (lf.used[t]) lf.order.push(t);
  lf.order.push(JOKER);
  return lf;
}

/** Tiles away of the concealed counts from the line (as the analyzer counts it), 99 when no form fits. */
export function awayFrom(lf: LineForms, h: ArrayLike<number>): number {
  const j = lf.jokers ? h[JOKER] : 0;
  let best = 99;
  for (let f = 0; f + 1 < lf.start.length; f++) {
    let lack = 0,
      lackSingles = 0;
    for (let e = lf.start[f]; e < lf.start[f + 1]; e++) {
      const have = h[lf.kind[e]];
      if (lf.need[e] > have) lack += lf.need[e] - have;
      if (lf.single[e] > have) lackSingles += lf.single[e] - have;
    }
    const inGroups = lack - lackSingles;
    const a = lack - (inGroups < j ? inGroups : j);
    if (a < best) best = a;
  }
  return best;
}

/**
 * `deals` sampled draw sequences of `draws` tiles each, out of `pool` (one entry per unseen
 * tile): a partial shuffle per deal from a generator of its own, so a shorter wall deals
 * the same tiles, cut short.
 */
export function sampleDraws(pool: ArrayLike<number>, deals: number, draws: number, seed: number): Uint8Array {
  const n = Math.min(draws, pool.length);
  const drawn = new Uint8Array(deals * draws);
  const base = Uint8Array.from(pool);
  const work = new Uint8Array(base.length);
  for (let d = 0; d < deals; d++) {
    const rng = seedRng((seed + Math.imul(d, 0x9e3779b9)) >>> 0);
    work.set(base);
    for (let i = 0; i < n; i++) {
      const j = i + nextInt(rng, work.length - i);
      const tmp = work[i];
      work[i] = work[j];
      work[j] = tmp;
      drawn[d * draws + i] = work[i];
    }
  }
  return drawn;
}

const h = new Int32Array(KINDS);

/**
 * Share of the deals in which the line is completed within `draws` draws from the
 * concealed counts `concealed` (13 tiles, or 14 when she has yet to discard).
 */
export function soloChance(lf: LineForms, concealed: ArrayLike<number>, full: boolean, drawn: Uint8Array, deals: number, draws: number): number {
  if (lf.start.length === 1) return 0;
  let completed = 0;
  for (let d = 0; d < deals; d++) {
    h.set(concealed);
    let away = awayFrom(lf, h);
    let done = full && away === 0;
    if (full && !done) away = giveUp(lf, h, away);
    for (let i = 0; i < draws && !done; i++) {
      const t = drawn[d * draws + i];
      h[t]++;
      const withIt = awayFrom(lf, h);
      if (withIt === 0) done = true;
      else if (withIt < away) away = giveUp(lf, h, withIt);
      else h[t]--;
    }
    if (done) completed++;
  }
  return completed / deals;
}

/** Discards the tile the line needs least from a 14-tile hand; returns the tiles away after. */
function giveUp(lf: LineForms, hand: Int32Array, now: number): number {
  let bestTile = -1,
    bestAway = 999;
  for (const t of lf.order) {
    if (hand[t] === 0) continue;
    hand[t]--;
    const a = awayFrom(lf, hand);
    hand[t]++;
    if (a < bestAway) {
      bestAway = a;
      bestTile = t;
    }
    if (a === now) break; // nothing can do better than losing nothing
  }
  hand[bestTile]--;
  return bestAway;
}

// ------------------------------------------------------------------ calibration

/**
 * The chance a player is shown: the solo chance mapped through a logistic calibration fitted
 * to full-table outcomes (lab/chances.ts; the fit and its tables in docs/training.md).
 * Its inputs are card-independent: the solo chance's log-odds, the wall, the line's place in
 * the list, its tiles away, and (from the third version) the hand's standing among the lines
 * listed with it.
 */
export interface ChanceCalibration {
  weights: number[];
  bias: number;
  /**
   * A monotone correction of the logistic's output, fitted after it (isotonic regression by
   * pooling adjacent violators): knots [from, to], interpolated linearly between them.
   */
  knots: [number, number][];
  /** Examples it was fitted on. */
  fittedOn: number;
}

/**
 * The calibration's inputs, versioned as a model names the features it was trained on; each
 * version's inputs begin with the last one's, so an older file reads the first inputs only.
 * - version 1 (6 inputs): the solo chance's log-odds (and the same times the wall), the wall,
 *   the line's place in the list, its tiles away, whether the solo chance is 0;
 * - version 2 (8): how much calls can help a line, which the solo chance leaves out: whether
 *   it is concealed, and the share of the tiles it still needs that sit in pungs or larger;
 * - version 3 (22): the hand's standing, which the solo chance of one line leaves out and which
 *   differs from card to card (a card whose lines overlap splits a hand between them): the
 *   other listed lines' solo chances, how many are within a tile of the closest, the jokers in
 *   hand and what they can fill, the others' exposures (how far the table has come), whether
 *   she has exposed, and a few products and powers of the log-odds with them.
 * A file without a version is of version 1 or 2, by its count of weights.
 */
export const CHANCE_INPUTS_V1 = 6;
export const CHANCE_INPUTS_V2 = 8;
export const CHANCE_INPUTS_V3 = 22;
export const CHANCE_INPUTS = CHANCE_INPUTS_V3;
export const CHANCE_INPUTS_VERSION = 3;
/** The lines whose standing the third version reads: the first five listed, as the calibration was fitted. */
export const CHANCE_LISTED = 5;

const clamp = (p: number) => Math.min(0.995, Math.max(0.002, p));
const logOdds = (p: number) => Math.log(clamp(p) / (1 - clamp(p)));

/** What the calibration reads of a line, besides its solo chance (engine/mah-jongg/analyzer.ts LineResult). */
export interface ChanceLine {
  tilesAway: number;
  concealed: boolean;
  jokerSlots: number;
  need: readonly unknown[];
}

/** What the third version reads of the hand: the lines listed with the line, and the table. */
export interface ChanceHand {
  /** The first lines listed (at most CHANCE_LISTED), in the list's order: their solo chances and tiles away. */
  listed: readonly { solo: number; tilesAway: number }[];
  /** Jokers among her concealed tiles. */
  jokers: number;
  /** Whether she has exposed a group. */
  exposed: boolean;
  /** Tiles the other players have exposed. */
  othersExposed: number;
}

/**
 * The inputs of a line's solo chance `solo`, with `wall` tiles left and the line `rank`th in
 * the list: the first eight without `hand` (versions 1 and 2), all of them with it.
 */
export function chanceInputs(solo: number, wall: number, rank: number, line: ChanceLine, hand?: ChanceHand): number[] {
  const z = logOdds(solo) / 4;
  const groupShare = line.need.length === 0 ? 0 : Math.min(1, line.jokerSlots / line.need.length);
  const v2 = [z, z * (wall / 100), wall / 100, rank / 4, Math.min(line.tilesAway, 14) / 14, solo === 0 ? 1 : 0, line.concealed ? 1 : 0, groupShare];
  if (hand === undefined) return v2;
  const listed = hand.listed.slice(0, CHANCE_LISTED);
  if (listed.length === 0) ruleViolation("a line's standing needs the lines listed with it");
  let others = 0,
    best = 0;
  listed.forEach((l, i) => {
    if (i !== rank) others += l.solo;
    best = Math.max(best, l.solo);
  });
  const closest = Math.min(...listed.map((l) => l.tilesAway));
  const near = listed.filter((l) => l.tilesAway <= closest + 1).length;
  const jokers = hand.jokers / 4;
  const table = Math.min(hand.othersExposed, 24) / 12;
  return [
    ...v2,
    others,
    near / CHANCE_LISTED,
    jokers,
    jokers * groupShare,
    table,
    hand.exposed ? 1 : 0,
    (z * Math.min(rank, CHANCE_LISTED)) / 4,
    z * others,
    Math.min(line.tilesAway - closest, 14) / 4,
    logOdds(best) / 4,
    z * table,
    z * z,
    z * z * z,
    z * z * (wall / 100),
  ];
}

/** The hand's standing for chanceInputs: the first lines listed with their solo chances, her jokers and exposures, the others' exposed tiles. */
export function chanceHand(listed: readonly { tilesAway: number }[], solos: readonly number[], jokers: number, exposures: number, othersExposed: number): ChanceHand {
  return {
    listed: listed.slice(0, CHANCE_LISTED).map((l, i) => ({ solo: solos[i], tilesAway: l.tilesAway })),
    jokers,
    exposed: exposures > 0,
    othersExposed,
  };
}

/** The logistic part alone. */
export function logistic(c: Pick<ChanceCalibration, 'weights' | 'bias'>, inputs: readonly number[]): number {
  if (inputs.length < c.weights.length) ruleViolation(`a calibration of ${c.weights.length} inputs given ${inputs.length}`);
  let s = c.bias;
  for (let i = 0; i < c.weights.length; i++) s += c.weights[i] * inputs[i]; // an older file: its first inputs only
  return 1 / (1 + Math.exp(-s));
}

export function calibrated(c: ChanceCalibration, inputs: readonly number[]): number {
  const p = logistic(c, inputs);
  const k = c.knots;
  if (k.length === 0) return p;
  if (p <= k[0][0]) return k[0][1] * (k[0][0] > 0 ? p / k[0][0] : 1);
  for (let i = 1; i < k.length; i++) {
    if (p <= k[i][0]) {
      const [x0, y0] = k[i - 1],
        [x1, y1] = k[i];
      return x1 === x0 ? y1 : y0 + ((p - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  const [xl, yl] = k[k.length - 1];
  return xl < 1 ? yl + ((p - xl) / (1 - xl)) * (1 - yl) : yl;
}
