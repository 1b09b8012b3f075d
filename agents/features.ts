import { awayFromPlaced, tilesAwayAll } from '../engine/analyzer.js';
import type { CompiledCard } from '../engine/compile.js';
import { unseenCounts } from '../engine/determinize.js';
import type { SeatView } from '../engine/game.js';
import { fitsForm, type GroupShape } from '../engine/hand-check.js';
import { JOKER, KINDS, type TileId } from '../engine/tiles.js';
import { liveForms, myExposures } from './heuristic.js';

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
 * FEATURE_VERSION changes whenever the meaning or order of a feature changes; a model file
 * records the version it was trained on and is refused by an encoder of another version.
 */
export const FEATURE_VERSION = 1;

/** Lines described one by one, closest first. */
export const LINE_SLOTS = 4;
const PER_LINE = 9;
const GLOBAL = 24;
export const FEATURES = GLOBAL + LINE_SLOTS * PER_LINE;

/** Names of the features, in order (for the docs and for reading a model). */
export const FEATURE_NAMES: readonly string[] = [
  'closest effective away', 'closest tiles away', 'lines within 1', 'lines within 2', 'lines within 3',
  'jokers held', 'jokers unseen', 'own exposures', 'tiles to come', 'wall left',
  'charleston', 'charleston passes left', 'players', 'opponents exposed', 'most exposures of an opponent',
  'opponents dead', 'discard', 'discard worth', 'discard rank', 'discard danger',
  'discard unseen', 'discard is not a suit tile', 'call', 'decline',
  ...Array.from({ length: LINE_SLOTS }, (_, i) => [
    'present', 'tiles away', 'missing in singles and pairs', 'jokers used', 'outs', 'value', 'concealed', 'near forms', 'alternatives',
  ].map((n) => `line ${i + 1} ${n}`)).flat(),
];

/** How a seat stands once it has acted. */
export interface Afterstate {
  /** Concealed tiles after the action (jokers included). */
  concealed: ArrayLike<number>;
  /** The seat's own exposures after the action. */
  exposures: readonly GroupShape[];
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

/** Extra tiles away counted for each tile a form lacks in its singles and pairs (the strong habits' pair cost). */
const PAIR_COST = 0.5;

/**
 * Encodes afterstates for one decision: `begin(view)` reads the table once (unseen tiles,
 * live forms, danger), then `encode` writes one row per candidate.
 */
export class Encoder {
  private readonly away: Uint8Array;
  private readonly best: Uint32Array;
  private unseen: number[] = [];
  private live: Uint8Array;
  private danger: Float32Array = new Float32Array(KINDS);
  /** The danger of each kind per seat, with the exposures it was read from (one player may serve several seats). */
  private readonly dangerOf = new Map<number, { key: string; risk: Float32Array }>();
  private view!: SeatView;
  private readonly lineEff: Float32Array;
  private readonly lineForm: Int32Array;
  private readonly lineNear: Uint8Array;
  private readonly order: number[] = [];
  private readonly top = new Int32Array(LINE_SLOTS);
  private readonly lineValue: Float64Array;
  private readonly lineConcealed: Uint8Array;
  /** Scratch: the effective tiles away of one line's forms. */
  private effs: Float32Array;

  constructor(private readonly cc: CompiledCard) {
    this.away = new Uint8Array(cc.lineCount);
    this.best = new Uint32Array(cc.lineCount);
    this.live = new Uint8Array(cc.formCount);
    this.lineEff = new Float32Array(cc.lineCount);
    this.lineForm = new Int32Array(cc.lineCount);
    this.lineNear = new Uint8Array(cc.lineCount);
    let most = 0;
    for (let l = 0; l < cc.lineCount; l++) most = Math.max(most, cc.lineStart[l + 1] - cc.lineStart[l]);
    this.effs = new Float32Array(most);
    this.lineValue = Float64Array.from(cc.card.lines, (line) => line.value);
    this.lineConcealed = Uint8Array.from(cc.card.lines, (line) => (line.concealed ? 1 : 0));
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
    for (const x of myExposures(view)) { held[x.tile] += x.size - x.jokers; held[JOKER] += x.jokers; }
    this.live = liveForms(this.cc, held, this.unseen);
    this.updateDanger(view);
  }

  /** Unseen copies of each kind, from the seat's view. */
  unseenOf(t: TileId): number {
    return this.unseen[t];
  }

  /** Writes the afterstate's features into out[offset .. offset + FEATURES). */
  encode(a: Afterstate, out: Float32Array, offset: number): void {
    const cc = this.cc, view = this.view;
    const counts = Array.from(a.concealed);
    for (const x of a.exposures) { counts[x.tile] += x.size - x.jokers; counts[JOKER] += x.jokers; }
    tilesAwayAll(cc, counts, this.away, this.best);
    const placed = cc.work;
    const exposed = a.exposures.length > 0;
    let minLower = 255;
    for (let l = 0; l < cc.lineCount; l++) if (this.away[l] < minLower) minLower = this.away[l];
    // each line's best live form the exposures fit, by tiles away with the pair cost
    const order = this.order;
    order.length = 0;
    let minEff = 99, minAway = 99;
    const { lineStart, formSingles, lineJokers } = cc;
    const live = this.live, effs = this.effs, away = this.away, lineConcealed = this.lineConcealed;
    const jokers = counts[JOKER];
    for (let l = 0; l < cc.lineCount; l++) {
      this.lineEff[l] = 99;
      if (away[l] > minLower + 4) continue; // the line's least tiles away bounds its forms' from below
      if (exposed && lineConcealed[l] === 1) continue;
      const j = lineJokers[l] === 1 ? jokers : 0;
      let bestEff = 99, bestForm = -1, n = 0;
      for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
        if (live[f] === 0 || (exposed && !fitsForm(cc, f, a.exposures))) continue;
        const p = placed[f];
        const singles = formSingles[f];
        const eff = awayFromPlaced(p, singles, j) + PAIR_COST * (singles - (p >> 8));
        effs[n++] = eff;
        if (eff < bestEff) { bestEff = eff; bestForm = f; }
      }
      if (bestForm < 0) continue;
      let near = 0;
      for (let k = 0; k < n; k++) if (effs[k] <= bestEff + 1) near++;
      this.lineEff[l] = bestEff;
      this.lineForm[l] = bestForm;
      this.lineNear[l] = near;
      order.push(l);
      const raw = awayFromPlaced(placed[bestForm], formSingles[bestForm], j);
      if (bestEff < minEff) minEff = bestEff;
      if (raw < minAway) minAway = raw;
    }
    // the closest lines first (then the more valuable, then card order): the first LINE_SLOTS by selection
    const top = this.top;
    let slots = 0;
    let within1 = 0, within2 = 0, within3 = 0;
    for (const l of order) {
      const e = this.lineEff[l];
      if (e <= minEff + 1) within1++;
      if (e <= minEff + 2) within2++;
      if (e <= minEff + 3) within3++;
      let k = slots < LINE_SLOTS ? slots++ : LINE_SLOTS;
      while (k > 0 && this.before(l, top[k - 1])) { if (k < LINE_SLOTS) top[k] = top[k - 1]; k--; }
      if (k < LINE_SLOTS) top[k] = l;
    }
    // the table
    const o = out;
    let i = offset;
    const opp = this.opponents();
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
    o[i++] = view.phase === 'charleston' || view.phase === 'vote' || view.phase === 'courtesy' ? 1 : 0;
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
      if (s >= slots) { for (let k = 0; k < PER_LINE; k++) o[i++] = 0; continue; }
      const l = top[s], f = this.lineForm[l];
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
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
        const t = cc.entryKind[e];
        if (t === JOKER) continue;
        const h = counts[t];
        if (h < cc.entrySingle[e] || (groupsShort && h < cc.entryNeed[e])) outs += this.unseen[t];
      }
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
  }

  private opponents(): { exposed: number; most: number; dead: number } {
    const view = this.view;
    let exposed = 0, most = 0, dead = 0;
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat) continue;
      if (view.dead[s].every((x) => x)) { dead++; continue; }
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
    let key = '';
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat) continue;
      key += `${view.dead[s].every((x) => x) ? 'd' : ''}${view.exposures[s].map((x) => `${x.tile}.${x.size}.${x.exchangeable ? 1 : 0}`).join(',')}|`;
    }
    const kept = this.dangerOf.get(view.seat);
    if (kept !== undefined && kept.key === key) { this.danger = kept.risk; return; }
    const cc = this.cc;
    const risk = new Float32Array(KINDS);
    this.danger = risk;
    this.dangerOf.set(view.seat, { key, risk });
    const need = new Float32Array(KINDS);
    for (let s = 0; s < view.players; s++) {
      if (s === view.seat || view.dead[s].every((x) => x)) continue;
      const shapes = view.exposures[s].filter((x) => x.exchangeable).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
      if (shapes.length === 0) continue;
      need.fill(0);
      let fitting = 0;
      for (let f = 0; f < cc.formCount; f++) {
        if (cc.card.lines[cc.formLine[f]].concealed || !fitsForm(cc, f, shapes)) continue;
        fitting++;
        for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) need[cc.entryKind[e]]++;
      }
      if (fitting > 0) for (let t = 0; t < KINDS; t++) risk[t] += (shapes.length * need[t]) / fitting;
    }
  }
}
