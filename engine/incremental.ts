import { awayFromPlaced, PLACED } from './analyzer.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/**
 * Tiles away for every line, kept up to date as a hand changes one tile at a time (a
 * bot's draw, discard or pass). Each form keeps what the hand places in it (packed as in
 * `tilesAwayAll`); a change of one kind touches only the forms holding that kind (the
 * card's postings), and only their lines are re-minimised. A change in jokers touches no
 * form, only every line's minimum.
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  /** The form reaching it. */
  readonly best: Uint32Array;
  private readonly counts = new Uint8Array(KINDS);
  private readonly placed: Uint16Array;
  private readonly dirty: Uint8Array;

  constructor(cc: CompiledCard, counts: ArrayLike<number>) {
    this.cc = cc;
    this.away = new Uint8Array(cc.lineCount);
    this.best = new Uint32Array(cc.lineCount);
    this.placed = new Uint16Array(cc.formCount);
    this.dirty = new Uint8Array(cc.lineCount);
    this.reset(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    this.placed.fill(0);
    this.counts.fill(0);
    for (let t = 0; t < JOKER; t++) this.setCount(t, counts[t]);
    this.counts[JOKER] = counts[JOKER];
    this.dirty.fill(1);
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

  private change(t: number, delta: number): void {
    if (this.counts[t] + delta < 0) throw new Error(`rule violation: the hand holds no tile ${t} to give up`);
    if (t === JOKER) {
      this.counts[JOKER] += delta;
      this.dirty.fill(1);
    } else this.setCount(t, this.counts[t] + delta);
  }

  private setCount(t: number, next: number): void {
    const prev = this.counts[t];
    if (prev === next) return;
    this.counts[t] = next;
    const { postStart, postForm, postCode, formLine } = this.cc;
    const from = prev << 8, to = next << 8;
    for (let p = postStart[t]; p < postStart[t + 1]; p++) {
      const f = postForm[p], code = postCode[p];
      // both packed fields move the same way, so the packed difference is exact
      this.placed[f] += PLACED[to | code] - PLACED[from | code];
      this.dirty[formLine[f]] = 1;
    }
  }

  private refresh(): void {
    const { lineStart, lineJokers, lineCount, formSingles } = this.cc;
    const jokers = this.counts[JOKER];
    for (let l = 0; l < lineCount; l++) {
      if (this.dirty[l] === 0) continue;
      this.dirty[l] = 0;
      const j = lineJokers[l] === 1 ? jokers : 0;
      let bestAway = 255, bestForm = 0;
      for (let f = lineStart[l]; f < lineStart[l + 1]; f++) {
        const a = awayFromPlaced(this.placed[f], formSingles[f], j);
        if (a < bestAway) { bestAway = a; bestForm = f; }
      }
      this.away[l] = bestAway;
      this.best[l] = bestForm;
    }
  }
}
