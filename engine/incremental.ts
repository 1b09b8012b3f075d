import { awayFromPlaced, PLACED } from './analyzer.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/** Buckets of a line's histogram: tiles away runs 0..14. */
const B = 16;

/**
 * Tiles away for every line, kept up to date as a hand changes one tile at a time (a
 * bot's draw, discard or pass). Each form keeps what the hand places in it (packed as in
 * `tilesAwayAll`) and its tiles away; each line keeps how many of its forms stand at each
 * tiles away (a histogram) and the least of them. A change of one kind touches only the
 * forms holding that kind (the card's postings), each moving one form between two buckets
 * of its line; a line whose least bucket empties looks up its next bucket (at most 15
 * steps), never its forms. A change in jokers changes the forms of every line that takes
 * jokers: those lines are counted again.
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  private readonly counts = new Uint8Array(KINDS);
  private readonly placed: Uint16Array;
  /** Tiles away of each form. */
  private readonly formAway: Uint8Array;
  /** Forms of line l at tiles away a: hist[l * B + a]. */
  private readonly hist: Uint16Array;
  /**
   * Per posting (the card's kind-to-form entries), packed to be read at once: its code (as in
   * PLACED), its form, and 1 when the form's line takes jokers; and the form's histogram row.
   */
  private readonly postPack: Uint32Array;
  private readonly postRow: Uint32Array;

  constructor(cc: CompiledCard, counts: ArrayLike<number>) {
    this.cc = cc;
    const posts = cc.postForm.length;
    this.postPack = new Uint32Array(posts);
    this.postRow = new Uint32Array(posts);
    for (let p = 0; p < posts; p++) {
      const f = cc.postForm[p], l = cc.formLine[f];
      this.postPack[p] = cc.postCode[p] | (f << 8) | (cc.lineJokers[l] << 31); // forms < 2^23 (FORM_LIMITS: 20,000)
      this.postRow[p] = l * B;
    }
    this.away = new Uint8Array(cc.lineCount);
    this.placed = new Uint16Array(cc.formCount);
    this.formAway = new Uint8Array(cc.formCount);
    this.hist = new Uint16Array(cc.lineCount * B);
    this.reset(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    this.placed.fill(0);
    this.counts.fill(0);
    const { postStart, postForm, postCode } = this.cc;
    for (let t = 0; t < JOKER; t++) {
      const row = Math.min(counts[t], 15) << 8; // PLACED holds counts to 15; a form takes at most 14 of a kind
      this.counts[t] = counts[t];
      if (row === 0) continue;
      for (let p = postStart[t]; p < postStart[t + 1]; p++) this.placed[postForm[p]] += PLACED[row | postCode[p]];
    }
    this.counts[JOKER] = counts[JOKER];
    for (let l = 0; l < this.cc.lineCount; l++) this.recount(l);
  }

  count(t: number): number {
    return this.counts[t];
  }

  /** The line's form at its least tiles away (the first, as `tilesAwayAll` names it). */
  bestForm(l: number): number {
    const { lineStart } = this.cc, least = this.away[l];
    let f = lineStart[l];
    while (this.formAway[f] !== least) f++;
    return f;
  }

  /** One tile leaves the hand and another joins it (a discard after a draw, a pass); either may be -1. */
  swap(out: number, into: number): void {
    if (out >= 0) this.change(out, -1);
    if (into >= 0) this.change(into, 1);
  }

  /** Moves to another hand, touching only the kinds whose counts differ (a pool that changed by a tile or two). */
  update(counts: ArrayLike<number>): void {
    for (let t = 0; t < KINDS; t++) if (counts[t] !== this.counts[t]) this.change(t, counts[t] - this.counts[t]);
  }

  private change(t: number, delta: number): void {
    const next = this.counts[t] + delta;
    if (next < 0) throw new Error(`rule violation: the hand holds no tile ${t} to give up`);
    this.counts[t] = next;
    if (t === JOKER) {
      this.recountJokerLines();
      return;
    }
    const { postStart, formSingles } = this.cc;
    const { placed, formAway, away, hist, postRow, postPack } = this;
    const jokers = this.counts[JOKER];
    const from = Math.min(next - delta, 15) << 8, to = Math.min(next, 15) << 8; // as in reset
    for (let p = postStart[t], end = postStart[t + 1]; p < end; p++) {
      const pack = postPack[p], code = pack & 255;
      const moved = PLACED[to | code] - PLACED[from | code];
      if (moved === 0) continue; // the form already had all of this kind it takes
      const f = (pack >>> 8) & 0x7fffff;
      const now = placed[f] + moved; // both packed fields move the same way, so the packed difference is exact
      placed[f] = now;
      const was = formAway[f];
      const a = awayFromPlaced(now, formSingles[f], pack >>> 31 === 1 ? jokers : 0);
      if (a === was) continue;
      formAway[f] = a;
      const row = postRow[p];
      hist[row + was]--;
      hist[row + a]++;
      const l = row >> 4; // B is 16
      if (a < away[l]) away[l] = a;
      else if (was === away[l] && hist[row + was] === 0) {
        let least = was + 1;
        while (hist[row + least] === 0) least++;
        away[l] = least;
      }
    }
  }

  /** Counts the forms of every line taking jokers again, their tiles away having moved with the jokers. */
  private recountJokerLines(): void {
    const { lineStart, lineJokers, lineCount, formSingles } = this.cc;
    const { placed, formAway, hist, away } = this;
    const j = this.counts[JOKER];
    for (let l = 0; l < lineCount; l++) {
      if (lineJokers[l] !== 1) continue;
      const row = l * B;
      for (let a = 0; a < B; a++) hist[row + a] = 0;
      let least = 255;
      for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
        const p = placed[f];
        const lack = 14 - (p & 255);
        const inGroups = lack - (formSingles[f] - (p >> 8));
        const a = lack - (inGroups < j ? inGroups : j); // awayFromPlaced
        formAway[f] = a;
        hist[row + a]++;
        if (a < least) least = a;
      }
      away[l] = least;
    }
  }

  /** Counts a line's forms again (from scratch). */
  private recount(l: number): void {
    const { lineStart, lineJokers, formSingles } = this.cc;
    const { placed, formAway, hist } = this;
    const j = lineJokers[l] === 1 ? this.counts[JOKER] : 0;
    const row = l * B;
    for (let a = 0; a < B; a++) hist[row + a] = 0;
    let least = 255;
    for (let f = lineStart[l]; f < lineStart[l + 1]; f++) {
      const a = awayFromPlaced(placed[f], formSingles[f], j);
      formAway[f] = a;
      hist[row + a]++;
      if (a < least) least = a;
    }
    this.away[l] = least;
  }
}
