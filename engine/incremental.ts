import { awayFromPlaced, PLACED } from './analyzer.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/**
 * Tiles away for every line, kept up to date as a hand changes one tile at a time (a
 * bot's draw, discard or pass). Each form keeps what the hand places in it (packed as in
 * `tilesAwayAll`) and its tiles away; each line keeps its least tiles away, the first form
 * reaching it and how many forms reach it. A change of one kind touches only the forms
 * holding that kind (the card's postings): a form coming down to or below its line's least
 * updates the line at once; a line is walked again only when the last of its forms at the
 * least moves up (or its first form there does). A change in jokers changes every form of
 * the lines that take jokers: those are walked again.
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  /** The form reaching it (the first, as `tilesAwayAll` gives it). */
  readonly best: Uint32Array;
  private readonly counts = new Uint8Array(KINDS);
  private readonly placed: Uint16Array;
  /** Tiles away of each form. */
  private readonly formAway: Uint8Array;
  /** Forms of each line at its least tiles away. */
  private readonly atLeast: Uint16Array;
  /** Lines to walk again (every form's tiles away recomputed) at the next refresh. */
  private readonly dirty: Uint8Array;

  constructor(cc: CompiledCard, counts: ArrayLike<number>) {
    this.cc = cc;
    this.away = new Uint8Array(cc.lineCount);
    this.best = new Uint32Array(cc.lineCount);
    this.placed = new Uint16Array(cc.formCount);
    this.formAway = new Uint8Array(cc.formCount);
    this.atLeast = new Uint16Array(cc.lineCount);
    this.dirty = new Uint8Array(cc.lineCount);
    this.reset(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    this.placed.fill(0);
    this.counts.fill(0);
    this.dirty.fill(1); // every line is walked below: setCount leaves the lines alone meanwhile
    for (let t = 0; t < JOKER; t++) this.setCount(t, counts[t]);
    this.counts[JOKER] = counts[JOKER];
    this.refresh();
  }

  count(t: number): number {
    return this.counts[t];
  }

  /** One tile leaves the hand and another joins it (a discard after a draw, a pass); either may be -1. */
  swap(out: number, into: number): void {
    if (out >= 0) this.change(out, -1);
    if (into >= 0) this.change(into, 1);
    this.refresh();
  }

  /** Moves to another hand, touching only the kinds whose counts differ (a pool that changed by a tile or two). */
  update(counts: ArrayLike<number>): void {
    for (let t = 0; t < JOKER; t++) if (counts[t] !== this.counts[t]) this.setCount(t, counts[t]);
    if (counts[JOKER] !== this.counts[JOKER]) this.change(JOKER, counts[JOKER] - this.counts[JOKER]);
    this.refresh();
  }

  private change(t: number, delta: number): void {
    if (this.counts[t] + delta < 0) throw new Error(`rule violation: the hand holds no tile ${t} to give up`);
    if (t === JOKER) {
      this.counts[JOKER] += delta;
      const { lineJokers, lineCount } = this.cc;
      for (let l = 0; l < lineCount; l++) if (lineJokers[l] === 1) this.dirty[l] = 1;
    } else this.setCount(t, this.counts[t] + delta);
  }

  private setCount(t: number, next: number): void {
    const prev = this.counts[t];
    if (prev === next) return;
    this.counts[t] = next;
    const { postStart, postForm, postCode, formLine, formSingles, lineJokers } = this.cc;
    const { placed, formAway, away, best, atLeast, dirty } = this;
    const jokers = this.counts[JOKER];
    const from = prev << 8, to = next << 8;
    for (let p = postStart[t]; p < postStart[t + 1]; p++) {
      const f = postForm[p], code = postCode[p];
      // both packed fields move the same way, so the packed difference is exact
      placed[f] += PLACED[to | code] - PLACED[from | code];
      const l = formLine[f];
      if (dirty[l] === 1) continue; // walked in full at the refresh
      const was = formAway[f];
      const a = awayFromPlaced(placed[f], formSingles[f], lineJokers[l] === 1 ? jokers : 0);
      if (a === was) continue;
      formAway[f] = a;
      const least = away[l];
      if (a < least) { away[l] = a; best[l] = f; atLeast[l] = 1; }
      else if (a === least) { atLeast[l]++; if (f < best[l]) best[l] = f; }
      else if (was === least) {
        // the form left the least: walk the line when none is left there, or the first one left
        if (--atLeast[l] === 0 || best[l] === f) dirty[l] = 1;
      }
    }
  }

  private refresh(): void {
    const { lineStart, lineJokers, lineCount, formSingles } = this.cc;
    const { placed, formAway, dirty } = this;
    const jokers = this.counts[JOKER];
    for (let l = 0; l < lineCount; l++) {
      if (dirty[l] === 0) continue;
      dirty[l] = 0;
      const j = lineJokers[l] === 1 ? jokers : 0;
      let bestAway = 255, bestForm = 0, n = 0;
      for (let f = lineStart[l]; f < lineStart[l + 1]; f++) {
        const a = awayFromPlaced(placed[f], formSingles[f], j);
        formAway[f] = a;
        if (a < bestAway) { bestAway = a; bestForm = f; n = 1; }
        else if (a === bestAway) n++;
      }
      this.away[l] = bestAway;
      this.best[l] = bestForm;
      this.atLeast[l] = n;
    }
  }
}
