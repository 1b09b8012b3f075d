import { ruleViolation } from '../../engine/errors.js';
import { awayFromPlaced, mendPlaced, placeAll } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { unseenCounts } from '../../engine/mah-jongg/seat.js';
import { beforePlay, type SeatView } from '../../engine/mah-jongg/game.js';
import { fitsForm } from '../../engine/mah-jongg/hand-check.js';
import { JOKER, KINDS, type TileId } from '../../engine/mah-jongg/tiles.js';
import { formsNeeding, liveForms, myExposures } from './heuristic.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';
import { readSeat, topFamily } from '../../engine/mah-jongg/reading.js';

/**
 * What a learned model sees of a moment in the game, card-independent: never which tiles a
 * hand holds, only what the analyzer says about the hand against whatever card is loaded
 * (for its closest lines: tiles away, what is missing in singles and pairs, jokers used, outs,
 * value, concealed), and the table (wall left, jokers, exposures, the danger of a discard).
 * So one model plays any card.
 *
 * The model values *afterstates*: the hand as it stands once the seat has acted (after a
 * discard, a call and its discard, a decline, a Charleston pass with the tiles still to come),
 * TD-Gammon's way: every candidate action is encoded as the afterstate it leads to, and the
 * policy takes the one the model rates highest.
 *
 * A feature version changes whenever the meaning or order of a feature changes; a model file
 * records the version it was trained on, and a model of a version this encoder does not write
 * is refused (agents/mah-jongg/model.ts). The encoder writes version 2, the shipped model's
 * (models/value-model.json):
 * - 60 numbers, the table (24) and the four closest lines (9 each) (version 1's, retired);
 * - then 27 more: the opponents one by one in turn order (their exposures, tiles exposed, dead,
 *   and how much the discard risks feeding each), the jokers on the table that could be taken
 *   for a tile held, and for each of the four lines how scarce its missing singles and pairs
 *   are, the unseen tiles that fill them, and how many of its missing kinds an opponent's
 *   exposures also call for.
 * Version 3 (version 2's 87 and 9 numbers read from the opponents' discards) was measured and
 * not shipped (docs/training.md, issue 30, fourth round); its encoder is retired with version 1's.
 *
 * Version 4 is version 2's 87 and 13 numbers from the reading of the table (engine/mah-jongg/reading.ts,
 * issue 48), once play has begun: for each opponent in turn order, the reading's chance that her
 * hand needs the tile discarded, the chance of her likeliest family, and whether no line of the
 * card is open to her; for each of the four lines, how much the opponents' readings need its
 * missing kinds.
 */
export const FEATURE_VERSIONS = [2, 4] as const;
/** The version new models are trained on. */
export const FEATURE_VERSION = 2;

/** Lines described one by one, closest first. */
export const LINE_SLOTS = 4;
const PER_LINE = 9;
const GLOBAL = 24;
const BASE_WIDTH = GLOBAL + LINE_SLOTS * PER_LINE;
/** Version 2's additions: three about jokers and lines, four for each of three opponents, three for each line. */
const OPPONENT_SLOTS = 3;
const PER_OPPONENT = 4;
const PER_LINE_V2 = 3;
const V2_WIDTH = BASE_WIDTH + 3 + OPPONENT_SLOTS * PER_OPPONENT + LINE_SLOTS * PER_LINE_V2;
/** Version 4's additions: three for each of three opponents, one for each line, from the reading. */
const PER_OPPONENT_V4 = 3;
const V4_WIDTH = V2_WIDTH + OPPONENT_SLOTS * PER_OPPONENT_V4 + LINE_SLOTS;

/** Whether a feature version is one this encoder writes. */
export const knownFeatureVersion = (v: unknown): v is number => FEATURE_VERSIONS.includes(v as 2 | 4);

/** The versions this encoder writes, in words ("version 2"; for several "versions 2 and 3", or with `last` "or"). */
export const featureVersionWords = (last = 'and'): string => {
  const v: readonly number[] = FEATURE_VERSIONS;
  return v.length === 1 ? `version ${v[0]}` : `versions ${v.slice(0, -1).join(', ')} ${last} ${v[v.length - 1]}`;
};

/** How many numbers a feature version's row holds. */
export function featureWidth(version: number): number {
  if (version === 2) return V2_WIDTH;
  if (version === 4) return V4_WIDTH;
  throw new Error(`feature version ${version} is not one this Tilemate encodes (${FEATURE_VERSIONS.join(', ')})`);
}

const BASE_NAMES: readonly string[] = [
  'closest effective away',
  'closest tiles away',
  'lines within 1',
  'lines within 2',
  'lines within 3',
  'jokers held',
  'jokers unseen',
  'own exposures',
  'tiles to come',
  'wall left',
  'charleston',
  'charleston passes left',
  'players',
  'opponents exposed',
  'most exposures of an opponent',
  'opponents dead',
  'discard',
  'discard worth',
  'discard rank',
  'discard danger',
  'discard unseen',
  'discard is not a suit tile',
  'call',
  'decline',
  ...Array.from({ length: LINE_SLOTS }, (_, i) =>
    ['present', 'tiles away', 'missing in singles and pairs', 'jokers used', 'outs', 'value', 'concealed', 'near forms', 'alternatives'].map((n) => `line ${i + 1} ${n}`),
  ).flat(),
];
const V2_NAMES: readonly string[] = [
  ...BASE_NAMES,
  'lines at the closest',
  'jokers to take for tiles held',
  'jokers to take on the table',
  ...Array.from({ length: OPPONENT_SLOTS }, (_, i) => ['exposures', 'tiles exposed', 'dead', 'discard danger'].map((n) => `opponent ${i + 1} ${n}`)).flat(),
  ...Array.from({ length: LINE_SLOTS }, (_, i) => ['scarce singles and pairs', 'outs for singles and pairs', 'kinds opponents call for'].map((n) => `line ${i + 1} ${n}`)).flat(),
];

const V4_NAMES: readonly string[] = [
  ...V2_NAMES,
  ...Array.from({ length: OPPONENT_SLOTS }, (_, i) => ['read needs the discard', 'read family chance', 'read no line'].map((n) => `opponent ${i + 1} ${n}`)).flat(),
  ...Array.from({ length: LINE_SLOTS }, (_, i) => `line ${i + 1} kinds opponents read for`),
];

/** Names of a version's features, in order (for the docs and for reading a model). */
export function featureNames(version: number): readonly string[] {
  return featureWidth(version) === V2_WIDTH ? V2_NAMES : V4_NAMES; // featureWidth refuses a version this encoder does not write
}

/** How a seat stands once it has acted. */
export interface Afterstate {
  /** Concealed tiles after the action (jokers included). */
  concealed: ArrayLike<number>;
  /** The seat's own exposures after the action. */
  exposures: readonly Group[];
  /** Tiles still to come unseen (a Charleston pass or courtesy offer in flight). */
  unknown: number;
  /** Charleston passes still to come after this one (0 in play). */
  charlestonLeft: number;
  /** What the action was. */
  kind: 'discard' | 'decline' | 'call' | 'pass';
  /** The tile discarded (discards and calls), with its worth and rank by the strong habits. */
  discard?: TileId;
  worth?: number;
  rank?: number;
}

/**
 * A form's level: twice its tiles away with the pair cost (the strong habits' half a tile more
 * for each tile it lacks in its singles and pairs), a whole number; NONE for a line with no
 * form that is live and fits the exposures.
 */
const NONE = 255;

/**
 * Each line of the card for one hand: its least tiles away over all forms (`raw`), and over
 * the forms weighed (live, fitting the exposures) the least level and the first form at it
 * (`form` -1 and `level` NONE when there is none).
 */
interface LineSummary {
  raw: Uint8Array;
  level: Uint8Array;
  form: Int32Array;
}

/**
 * Each form's singles (its single and pair tiles, formSingles), with NOT_WEIGHED added for a
 * form not weighed: one not live, or not fitting the exposures (`fits`, null when there are
 * none); a concealed line has no form weighed once the hand has exposed. One byte a form, read
 * in the inner loop of summarizeLine.
 */
const NOT_WEIGHED = 128;
function weighedForms(cc: CompiledCard, live: Uint8Array, fits: Uint8Array | null, concealed: Uint8Array, out: Uint8Array): Uint8Array {
  const n = cc.formCount,
    singles = cc.formSingles;
  let f = 0;
  // four forms a word where the arrays allow (each byte 0 or 1, singles below NOT_WEIGHED: no byte spills into the next)
  if (((live.byteOffset | out.byteOffset | singles.byteOffset | concealed.byteOffset | (fits === null ? 0 : fits.byteOffset)) & 3) === 0) {
    const words = n >> 2;
    const l32 = new Uint32Array(live.buffer, live.byteOffset, words),
      o32 = new Uint32Array(out.buffer, out.byteOffset, words);
    const s32 = new Uint32Array(singles.buffer, singles.byteOffset, words);
    if (fits === null) {
      for (let w = 0; w < words; w++) o32[w] = s32[w] | ((l32[w] ^ 0x01010101) << 7);
    } else {
      const f32 = new Uint32Array(fits.buffer, fits.byteOffset, words),
        c32 = new Uint32Array(concealed.buffer, concealed.byteOffset, words);
      for (let w = 0; w < words; w++) o32[w] = s32[w] | (((l32[w] & f32[w] & (c32[w] ^ 0x01010101)) ^ 0x01010101) << 7);
    }
    f = words << 2;
  }
  for (; f < n; f++) {
    const weighed = live[f] === 1 && (fits === null || (fits[f] === 1 && concealed[f] === 0));
    out[f] = singles[f] | (weighed ? 0 : NOT_WEIGHED);
  }
  return out;
}

/**
 * The summary of line l from what a hand places in each form (`singles` from weighedForms).
 * The least level and the first form at it are kept as one number, level << 16 | form, a form
 * not weighed pushed past every weighed one, so that the loop has no branch to mispredict.
 */
function summarizeLine(cc: CompiledCard, l: number, placed: Uint16Array, jokers: number, singles: Uint8Array, out: LineSummary): void {
  const j = cc.lineJokers[l] === 1 ? jokers : 0;
  let least = 255,
    key = 0x7fffffff;
  for (let f = cc.lineStart[l], end = cc.lineStart[l + 1]; f < end; f++) {
    const p = placed[f],
      s = singles[f];
    // awayFromPlaced, and the level: twice the tiles away plus the single and pair tiles missing
    const lack = 14 - (p & 255),
      missing = (s & 127) - (p >> 8),
      inGroups = lack - missing;
    const raw = lack - (inGroups < j ? inGroups : j);
    least = raw < least ? raw : least;
    const k = ((2 * raw + missing + ((s & NOT_WEIGHED) << 3)) << 16) | f;
    key = k < key ? k : key;
  }
  out.raw[l] = least;
  const level = key >>> 16;
  if (level >= NOT_WEIGHED << 3) {
    out.level[l] = NONE;
    out.form[l] = -1;
  } else {
    out.level[l] = level;
    out.form[l] = key & 0xffff;
  }
}

/** What the encoder reads of a card: each form's concealed line (1), each line's value, the lines holding each kind (kindLine[kindLineStart[t] ..]). */
interface CardTables {
  formConcealed: Uint8Array;
  lineValue: Float64Array;
  kindLineStart: Uint32Array;
  kindLine: Uint16Array;
  fits: Map<number, Uint8Array>;
}
const TABLES = new WeakMap<CompiledCard, CardTables>();

function cardTables(cc: CompiledCard): CardTables {
  let tables = TABLES.get(cc);
  if (tables !== undefined) return tables;
  const linesOf: number[][] = Array.from({ length: KINDS }, () => []);
  for (let t = 0; t < KINDS; t++) {
    for (let p = cc.postStart[t]; p < cc.postStart[t + 1]; p++) {
      const l = cc.formLine[cc.postForm[p]];
      if (!linesOf[t].includes(l)) linesOf[t].push(l);
    }
  }
  const kindLineStart = new Uint32Array(KINDS + 1);
  for (let t = 0; t < KINDS; t++) kindLineStart[t + 1] = kindLineStart[t] + linesOf[t].length;
  tables = {
    formConcealed: Uint8Array.from(cc.formLine, (l) => (cc.card.lines[l].concealed ? 1 : 0)),
    lineValue: Float64Array.from(cc.card.lines, (line) => line.value),
    kindLineStart,
    kindLine: Uint16Array.from(linesOf.flat()),
    fits: new Map(),
  };
  TABLES.set(cc, tables);
  return tables;
}

/** How many forms weighed of line l are within one tile (two levels) of its best. */
function nearForms(cc: CompiledCard, l: number, placed: Uint16Array, jokers: number, singles: Uint8Array, best: number): number {
  const j = cc.lineJokers[l] === 1 ? jokers : 0;
  let near = 0;
  for (let f = cc.lineStart[l], end = cc.lineStart[l + 1]; f < end; f++) {
    const s = singles[f];
    if ((s & NOT_WEIGHED) !== 0) continue;
    const p = placed[f];
    if (2 * awayFromPlaced(p, s, j) + s - (p >> 8) <= best + 2) near++;
  }
  return near;
}

/** Exposures as one number, 12 bits a shape (tile < 64, size < 8, jokers < 8) and the count; NaN beyond four. */
function shapesKey(shapes: readonly Group[]): number {
  if (shapes.length > 4) return NaN;
  let key = -0; // float arithmetic from the first call (see heuristic.ts shapesKey)
  for (const x of shapes) key = key * 4096 + ((x.tile << 6) | (x.size << 3) | x.jokers);
  return key * 8 + shapes.length;
}

const sameShapes = (x: readonly Group[], y: readonly Group[]): boolean => x.length === y.length && x.every((g, i) => g.tile === y[i].tile && g.size === y[i].size && g.jokers === y[i].jokers);

/**
 * Forms weighed (weighedForms) for each answer of liveForms met and each exposure list, by
 * shapesKey: kept from decision to decision while that answer is the table's (a few dozen a
 * game), for every encoder (liveForms keeps its answers per card; none is changed once given).
 */
const WEIGHED = new WeakMap<Uint8Array, Map<number, Uint8Array>>();

/**
 * Encodes afterstates for one decision: `begin(view)` reads the table once (unseen tiles,
 * live forms, danger), then `encode` writes one row per candidate.
 */
export class Encoder {
  /** The hand at begin() (concealed and own exposures) and what it places in each form (see PLACED). */
  private readonly baseCounts = new Uint8Array(KINDS);
  private basePlaced: Uint16Array;
  /** Each seat's hand at its last decision and what it placed, mended at the next (one player may serve several seats). */
  private readonly seatPlaced: Uint16Array[] = [];
  private readonly seatCounts: Int16Array[] = [];
  /** The hand's own exposures at begin(), and its lines' summary (made at the first afterstate that keeps both). */
  private baseExposures: readonly Group[] = [];
  private readonly baseLines: LineSummary;
  private baseReady = false;
  /** Scratch for one afterstate: what it places in each form, its lines' summary. */
  private readonly placed: Uint16Array;
  private readonly lines: LineSummary;
  /** The lines holding each kind (kindLine[kindLineStart[t] ..]), and which lines an afterstate has summarized afresh (stamp). */
  private readonly kindLineStart: Uint32Array;
  private readonly kindLine: Uint16Array;
  private readonly lineStamp: Int32Array;
  private stamp = 0;
  /** The last kept one asked for (weighedFor), with the exposures' shapesKey and the live forms it was for. */
  private lastWeighed: { key: number; live: Uint8Array | null; mask: Uint8Array } = { key: NaN, live: null, mask: new Uint8Array(0) };
  /** The same for an exposure list too long to key. */
  private readonly weighedLong: Uint8Array;
  /** 1 for each form of a concealed line. */
  private readonly formConcealed: Uint8Array;
  /** Forms each exposure list fits, by shapesKey (they depend only on the card: kept per card). */
  private readonly fits: Map<number, Uint8Array>;
  private unseen: number[] = [];
  private live: Uint8Array;
  private danger: Float32Array = new Float32Array(KINDS);
  /** Each opponent's part of it, by seat (read one by one; null where she adds nothing). */
  private dangerBy: (Float32Array | null)[] = [];
  /** The danger of each kind per seat, with the exposures it was read from (one player may serve several seats). */
  private readonly dangerOf = new Map<number, { key: number[]; risk: Float32Array; by: (Float32Array | null)[] }>();
  /** Version 2's three numbers for each line shown (scratch). */
  private readonly slotExtra = new Float32Array(LINE_SLOTS * PER_LINE_V2);
  private readonly dangerKey: number[] = [];
  /**
   * Version 4: the reading of each opponent slot in turn order (begin(), once play has begun):
   * each kind's chance her hand needs it, her likeliest family's chance, no line open to her; and
   * their needs summed over the opponents (`readNeed`), read by the lines shown.
   */
  private readonly readNeeds = new Float32Array(OPPONENT_SLOTS * KINDS);
  private readonly readFamily = new Float32Array(OPPONENT_SLOTS);
  private readonly readNoLine = new Uint8Array(OPPONENT_SLOTS);
  private readonly readNeed = new Float32Array(KINDS);
  private readonly slotRead = new Float32Array(LINE_SLOTS);
  private view!: SeatView;
  /** The opponents as the decision's view shows them (opponents()). */
  private opp = { exposed: 0, most: 0, dead: 0 };
  private readonly lineEff: Float32Array;
  private readonly lineForm: Int32Array;
  private readonly lineNear: Uint8Array;
  private readonly order: number[] = [];
  private readonly top = new Int32Array(LINE_SLOTS);
  private readonly lineValue: Float64Array;
  private readonly counts = new Array<number>(KINDS).fill(0);

  /** The feature version written, and how many numbers a row holds. */
  readonly version: number;
  readonly width: number;
  private readonly mend: boolean;

  /**
   * `version` the feature version to write (a model's own, agents/mah-jongg/model.ts); `mend` false places
   * every afterstate's tiles afresh (the plain way, for tests to hold the mended one to).
   */
  constructor(
    private readonly cc: CompiledCard,
    opts: { version: number; mend?: boolean },
  ) {
    this.version = opts.version;
    this.width = featureWidth(opts.version);
    this.mend = opts.mend ?? true;
    this.basePlaced = new Uint16Array(cc.formCount);
    this.placed = new Uint16Array(cc.formCount);
    const summary = (): LineSummary => ({ raw: new Uint8Array(cc.lineCount), level: new Uint8Array(cc.lineCount), form: new Int32Array(cc.lineCount) });
    this.lines = summary();
    this.baseLines = summary();
    this.live = new Uint8Array(cc.formCount);
    this.weighedLong = new Uint8Array(cc.formCount);

    if (cc.formCount > 0xffff) ruleViolation(`a card of ${cc.formCount} forms is more than the encoder keys (65535)`);
    this.lineEff = new Float32Array(cc.lineCount);
    this.lineForm = new Int32Array(cc.lineCount);
    this.lineNear = new Uint8Array(cc.lineCount);

    this.lineStamp = new Int32Array(cc.lineCount);
    // what the encoder reads of the card, made once a card (self-play makes a player a game)
    const tables = cardTables(cc);
    this.formConcealed = tables.formConcealed;
    this.lineValue = tables.lineValue;
    this.kindLineStart = tables.kindLineStart;
    this.kindLine = tables.kindLine;
    this.fits = tables.fits;
  }

  /** Whether line x comes before line y: fewer tiles away (with the pair cost), then more valuable, then first on the card. */
  private before(x: number, y: number): boolean {
    const d = this.lineEff[x] - this.lineEff[y];
    if (d !== 0) return d < 0;
    const v = this.lineValue[y] - this.lineValue[x];
    return v !== 0 ? v < 0 : x < y;
  }

  /** Reads what the decision's candidates share: unseen tiles, forms still makeable, the danger of each kind. */
  begin(view: SeatView): void {
    this.view = view;
    this.unseen = unseenCounts(view);
    const held = [...view.concealed];
    const mine = myExposures(view);
    for (const x of mine) {
      held[x.tile] += x.size - x.jokers;
      held[JOKER] += x.jokers;
    }
    this.live = liveForms(this.cc, held, this.unseen);
    this.updateDanger(view);
    this.opp = this.opponents();
    if (this.version >= 4) this.readOpponents(view);
    this.placeBase(view.seat, held);
    this.baseCounts.set(held);
    this.baseExposures = mine;
    this.baseReady = false;
  }

  /** basePlaced for the hand `held` of `seat`: the seat's kept from its last decision, mended for the kinds that differ (a few). */
  private placeBase(seat: number, held: readonly number[]): void {
    const cc = this.cc;
    let placed = this.seatPlaced[seat],
      was = this.seatCounts[seat];
    if (placed === undefined) {
      placed = new Uint16Array(cc.formCount);
      was = new Int16Array(KINDS).fill(-1);
      this.seatPlaced[seat] = placed;
      this.seatCounts[seat] = was;
    }
    let differ = 0;
    for (let t = 0; t < JOKER; t++) if (was[t] !== held[t]) differ++;
    if (differ > 8) placeAll(cc, held, placed);
    else for (let t = 0; t < JOKER; t++) if (was[t] !== held[t]) mendPlaced(cc, placed, t, was[t], held[t]);
    for (let t = 0; t < KINDS; t++) was[t] = held[t];
    this.basePlaced = placed;
  }

  /** What the afterstate `counts` places in each form: the hand's at begin(), mended for the kinds that differ. */
  private place(counts: readonly number[]): Uint16Array {
    const placed = this.placed,
      base = this.baseCounts;
    if (!this.mend) return placeAll(this.cc, counts, placed);
    placed.set(this.basePlaced);
    for (let t = 0; t < JOKER; t++) if (base[t] !== counts[t]) mendPlaced(this.cc, placed, t, base[t], counts[t]);
    return placed;
  }

  /** Which forms an exposure list fits (kept by its shapes: it depends only on the card). */
  private fitting(exposures: readonly Group[]): Uint8Array {
    const key = shapesKey(exposures);
    let mask = Number.isNaN(key) ? undefined : this.fits.get(key);
    if (mask === undefined) {
      const cc = this.cc;
      mask = new Uint8Array(cc.formCount);
      for (let f = 0; f < cc.formCount; f++) mask[f] = fitsForm(cc, f, exposures) ? 1 : 0;
      if (!Number.isNaN(key)) {
        if (this.fits.size >= 256) this.fits.clear();
        this.fits.set(key, mask);
      }
    }
    return mask;
  }

  /** The forms weighed for an afterstate with these exposures (live, and fitting them). */
  private weighedFor(exposures: readonly Group[]): Uint8Array {
    const key = shapesKey(exposures);
    // the candidates of one decision mostly share their exposures
    const last = this.lastWeighed;
    if (key === last.key && this.live === last.live) return last.mask;
    if (Number.isNaN(key)) return weighedForms(this.cc, this.live, this.fitting(exposures), this.formConcealed, this.weighedLong);
    // liveForms's answers are never changed once given, so they key what is made from them
    let byShapes = WEIGHED.get(this.live);
    if (byShapes === undefined) {
      byShapes = new Map();
      WEIGHED.set(this.live, byShapes);
    }
    let mask = byShapes.get(key);
    if (mask === undefined) {
      mask = weighedForms(this.cc, this.live, exposures.length > 0 ? this.fitting(exposures) : null, this.formConcealed, new Uint8Array(this.cc.formCount));
      if (byShapes.size >= 64) byShapes.clear();
      byShapes.set(key, mask);
    }
    this.lastWeighed = { key, live: this.live, mask };
    return mask;
  }

  /** Unseen copies of each kind, from the seat's view. */
  unseenOf(t: TileId): number {
    return this.unseen[t];
  }

  /** Writes the afterstate's features into out[offset .. offset + width). */
  encode(a: Afterstate, out: Float32Array, offset: number): void {
    const cc = this.cc,
      view = this.view;
    const counts = this.counts;
    for (let t = 0; t < KINDS; t++) counts[t] = a.concealed[t];
    for (const x of a.exposures) {
      counts[x.tile] += x.size - x.jokers;
      counts[JOKER] += x.jokers;
    }
    const placed = this.place(counts);
    const lines = this.lines;
    const weighed = this.weighedFor(a.exposures);
    if (this.mend && counts[JOKER] === this.baseCounts[JOKER] && sameShapes(a.exposures, this.baseExposures)) {
      // the decision's hand with the same exposures and jokers: only the lines holding a kind that differs are summarized afresh
      const base = this.baseLines;
      if (!this.baseReady) {
        for (let l = 0; l < cc.lineCount; l++) summarizeLine(cc, l, this.basePlaced, counts[JOKER], weighed, base);
        this.baseReady = true;
      }
      lines.raw.set(base.raw);
      lines.level.set(base.level);
      lines.form.set(base.form);
      const stamp = ++this.stamp,
        was = this.baseCounts;
      for (let t = 0; t < JOKER; t++) {
        if (was[t] === counts[t]) continue;
        for (let k = this.kindLineStart[t], end = this.kindLineStart[t + 1]; k < end; k++) {
          const l = this.kindLine[k];
          if (this.lineStamp[l] === stamp) continue;
          this.lineStamp[l] = stamp;
          summarizeLine(cc, l, placed, counts[JOKER], weighed, lines);
        }
      }
    } else {
      for (let l = 0; l < cc.lineCount; l++) summarizeLine(cc, l, placed, counts[JOKER], weighed, lines);
    }
    let minLower = 255;
    for (let l = 0; l < cc.lineCount; l++) if (lines.raw[l] < minLower) minLower = lines.raw[l];
    // each line's best live form the exposures fit, by tiles away with the pair cost
    const order = this.order;
    order.length = 0;
    let minEff = 99,
      minAway = 99;
    for (let l = 0; l < cc.lineCount; l++) {
      this.lineEff[l] = 99;
      const bestForm = lines.form[l];
      // a line's least tiles away bounds its forms' from below
      if (lines.raw[l] > minLower + 4 || bestForm < 0) continue;
      const bestEff = lines.level[l] / 2;
      this.lineEff[l] = bestEff;
      this.lineForm[l] = bestForm;
      order.push(l);
      const raw = awayFromPlaced(placed[bestForm], cc.formSingles[bestForm], cc.lineJokers[l] === 1 ? counts[JOKER] : 0);
      if (bestEff < minEff) minEff = bestEff;
      if (raw < minAway) minAway = raw;
    }
    // the closest lines first (then the more valuable, then card order): the first LINE_SLOTS by selection
    const top = this.top;
    let slots = 0;
    let within1 = 0,
      within2 = 0,
      within3 = 0;
    for (const l of order) {
      const e = this.lineEff[l];
      if (e <= minEff + 1) within1++;
      if (e <= minEff + 2) within2++;
      if (e <= minEff + 3) within3++;
      let k = slots < LINE_SLOTS ? slots++ : LINE_SLOTS;
      while (k > 0 && this.before(l, top[k - 1])) {
        if (k < LINE_SLOTS) top[k] = top[k - 1];
        k--;
      }
      if (k < LINE_SLOTS) top[k] = l;
    }
    // how many forms of each line shown are near its best (a Uint8Array, as it always was)
    for (let s = 0; s < slots; s++) this.lineNear[top[s]] = nearForms(cc, top[s], placed, counts[JOKER], weighed, lines.level[top[s]]);
    // the table
    const o = out;
    let i = offset;
    const opp = this.opp;
    o[i++] = Math.min(minEff, 20) / 14;
    o[i++] = Math.min(minAway, 20) / 14;
    o[i++] = Math.min(within1, 10) / 10;
    o[i++] = Math.min(within2, 20) / 20;
    o[i++] = Math.min(within3, 30) / 30;
    o[i++] = a.concealed[JOKER] / 8;
    o[i++] = this.unseen[JOKER] / 8;
    o[i++] = a.exposures.length / 4;
    o[i++] = a.unknown / 3;
    o[i++] = view.wallLeft / 100;
    o[i++] = beforePlay(view.phase) ? 1 : 0;
    o[i++] = a.charlestonLeft / 7;
    o[i++] = view.players / 4;
    o[i++] = opp.exposed / 3;
    o[i++] = opp.most / 4;
    o[i++] = opp.dead / 3;
    const d = a.discard;
    o[i++] = d === undefined ? 0 : 1;
    o[i++] = d === undefined ? 0 : Math.min(a.worth ?? 0, 4) / 4;
    o[i++] = d === undefined ? 0 : Math.min(a.rank ?? 0, 13) / 13;
    o[i++] = d === undefined ? 0 : Math.min(this.danger[d], 4) / 4;
    o[i++] = d === undefined ? 0 : this.unseen[d] / 4;
    o[i++] = d !== undefined && d >= 27 ? 1 : 0;
    o[i++] = a.kind === 'call' ? 1 : 0;
    o[i++] = a.kind === 'decline' ? 1 : 0;
    // the closest lines
    for (let s = 0; s < LINE_SLOTS; s++) {
      if (s >= slots) {
        for (let k = 0; k < PER_LINE; k++) o[i++] = 0;
        continue;
      }
      const l = top[s],
        f = this.lineForm[l];
      const line = cc.card.lines[l];
      const j = cc.lineJokers[l] === 1 ? counts[JOKER] : 0;
      const p = placed[f];
      const away = awayFromPlaced(p, cc.formSingles[f], j);
      const missingSingles = cc.formSingles[f] - (p >> 8);
      const lacking = 14 - (p & 255);
      const jokersUsed = lacking - away;
      // outs: unseen tiles that bring the form a tile closer (a group slot helps only when jokers do not already fill it)
      const groupsShort = away - missingSingles > 0;
      let outs = groupsShort && cc.lineJokers[l] === 1 ? this.unseen[JOKER] : 0;
      // version 2: how scarce the missing single and pair tiles are (each one's copies missing over
      // its copies unseen), the unseen tiles that fill them, the missing kinds an opponent calls for
      let scarce = 0,
        singleOuts = 0,
        contested = 0,
        read = 0;
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
        const t = cc.entryKind[e];
        if (t === JOKER) continue;
        const h = counts[t];
        if (h < cc.entrySingle[e] || (groupsShort && h < cc.entryNeed[e])) {
          outs += this.unseen[t];
          if (this.danger[t] > 0) contested++;
          read += this.readNeed[t];
        }
        if (h < cc.entrySingle[e]) {
          singleOuts += this.unseen[t];
          scarce += Math.min((cc.entrySingle[e] - h) / Math.max(this.unseen[t], 0.5), 2);
        }
      }
      const x = this.slotExtra;
      x[s * PER_LINE_V2] = Math.min(scarce, 8) / 4;
      x[s * PER_LINE_V2 + 1] = Math.min(singleOuts, 40) / 20;
      x[s * PER_LINE_V2 + 2] = Math.min(contested, 8) / 4;
      this.slotRead[s] = Math.min(read, 8) / 4;
      o[i++] = 1;
      o[i++] = Math.min(away, 20) / 14;
      o[i++] = missingSingles / 8;
      o[i++] = jokersUsed / 8;
      o[i++] = Math.min(outs, 60) / 40;
      o[i++] = line.value / 100;
      o[i++] = line.concealed ? 1 : 0;
      o[i++] = Math.min(this.lineNear[l], 20) / 20;
      o[i++] = Math.min(cc.lineStart[l + 1] - cc.lineStart[l], 100) / 100;
    }
    // version 2: the lines at the closest, the jokers to take
    let atClosest = 0;
    for (const l of order) if (this.lineEff[l] === minEff) atClosest++;
    let forHeld = 0,
      onTable = 0;
    for (let s = 0; s < view.players; s++) {
      for (const x of view.exposures[s]) {
        if (!x.exchangeable || x.jokers === 0) continue;
        onTable += x.jokers;
        forHeld += Math.min(x.jokers, a.concealed[x.tile]);
      }
    }
    o[i++] = Math.min(atClosest, 10) / 10;
    o[i++] = Math.min(forHeld, 4) / 4;
    o[i++] = Math.min(onTable, 8) / 8;
    // the opponents in turn order after the seat
    for (let k = 1; k <= OPPONENT_SLOTS; k++) {
      if (k >= view.players) {
        for (let q = 0; q < PER_OPPONENT; q++) o[i++] = 0;
        continue;
      }
      const s = (view.seat + k) % view.players;
      const list = view.exposures[s];
      let tiles = 0;
      for (const x of list) tiles += x.size;
      const risk = this.dangerBy[s];
      o[i++] = Math.min(list.length, 4) / 4;
      o[i++] = Math.min(tiles, 14) / 14;
      o[i++] = view.dead[s].every((x) => x) ? 1 : 0;
      o[i++] = d === undefined || risk == null ? 0 : Math.min(risk[d], 4) / 4;
    }
    // the lines shown: version 2's three numbers each (0 for a slot with no line)
    for (let s = 0; s < LINE_SLOTS; s++) for (let q = 0; q < PER_LINE_V2; q++) o[i++] = s < slots ? this.slotExtra[s * PER_LINE_V2 + q] : 0;
    if (this.version < 4) return;
    // version 4: each opponent's reading beside the tile discarded, and the lines' kinds the readings need
    for (let k = 0; k < OPPONENT_SLOTS; k++) {
      o[i++] = d === undefined ? 0 : this.readNeeds[k * KINDS + d];
      o[i++] = this.readFamily[k];
      o[i++] = this.readNoLine[k];
    }
    for (let s = 0; s < LINE_SLOTS; s++) o[i++] = s < slots ? this.slotRead[s] : 0;
  }

  /**
   * Version 4: reads each live opponent in turn order after the seat (engine/mah-jongg/reading.ts).
   * Not before play: no discard or exposure has been seen, and every reading would be the card's prior.
   */
  private readOpponents(view: SeatView): void {
    this.readNeeds.fill(0);
    this.readFamily.fill(0);
    this.readNoLine.fill(0);
    this.readNeed.fill(0);
    if (beforePlay(view.phase)) return;
    for (let k = 0; k < OPPONENT_SLOTS && k + 1 < view.players; k++) {
      const s = (view.seat + k + 1) % view.players;
      if (view.dead[s].every((x) => x)) continue;
      const r = readSeat(this.cc, view, s);
      if (r.noLine) {
        this.readNoLine[k] = 1;
        continue;
      }
      this.readFamily[k] = topFamily(this.cc, r)?.p ?? 0;
      for (let t = 0; t < KINDS; t++) {
        this.readNeeds[k * KINDS + t] = r.needs[t];
        this.readNeed[t] += r.needs[t];
      }
    }
  }

  private opponents(): { exposed: number; most: number; dead: number } {
    const view = this.view;
    let exposed = 0,
      most = 0,
      dead = 0;
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat) continue;
      if (view.dead[s].every((x) => x)) {
        dead++;
        continue;
      }
      const n = view.exposures[s].length;
      if (n > 0) exposed++;
      if (n > most) most = n;
    }
    return { exposed, most, dead };
  }

  /**
   * For each kind, how much discarding it risks feeding an opponent: over every live opponent
   * whose exposures narrow her hand down, the share of the exposed forms they fit that hold the
   * kind, times her exposures. Recomputed only when exposures change.
   */
  private updateDanger(view: SeatView): void {
    // what it is read from: each opponent dead or not, and her exposures' tiles, sizes and whether exchangeable
    const key = this.dangerKey;
    key.length = 0;
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat) continue;
      const list = view.exposures[s];
      key.push(view.dead[s].every((x) => x) ? 1 : 0, list.length);
      for (const x of list) key.push(x.tile, x.size, x.exchangeable ? 1 : 0);
    }
    const kept = this.dangerOf.get(view.seat);
    if (kept !== undefined && kept.key.length === key.length && kept.key.every((v, i) => v === key[i])) {
      this.danger = kept.risk;
      this.dangerBy = kept.by;
      return;
    }
    const cc = this.cc;
    const risk = new Float32Array(KINDS);
    const by: (Float32Array | null)[] = new Array(view.players).fill(null);
    this.danger = risk;
    this.dangerBy = by;
    this.dangerOf.set(view.seat, { key: key.slice(), risk, by });
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat || view.dead[s].every((x) => x)) continue;
      const shapes = view.exposures[s].filter((x) => x.exchangeable).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
      if (shapes.length === 0) continue;
      // the exposed forms her exposures fit, and their entries of each kind (kept per card, as for the strong habits' danger)
      const { fitting, need } = formsNeeding(cc, shapes);
      if (fitting === 0) continue;
      const hers = new Float32Array(KINDS);
      for (let t = 0; t < KINDS; t++) {
        const v = (shapes.length * need[t]) / fitting;
        risk[t] += v;
        hers[t] = v;
      }
      by[s] = hers;
    }
  }
}
