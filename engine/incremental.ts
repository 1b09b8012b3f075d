import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/**
 * Tiles away for every line, kept up to date as a hand changes one tile at a time (a
 * bot's draw, discard or pass). Each form keeps what it lacks in all and in singles; a
 * change of one kind touches only the forms holding that kind (an inverted index built
 * once per card), and only their lines are re-minimised. A change in jokers touches no
 * form, only every line's minimum.
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  /** The form reaching it. */
  readonly best: Uint32Array;
  private readonly counts = new Uint8Array(KINDS);
  private readonly lack: Uint8Array;
  private readonly lackSingles: Uint8Array;
  /** Forms holding kind t: postStart[t] .. postStart[t+1]-1 into postForm/postNeed/postSingle. */
  private readonly postStart: Uint32Array;
  private readonly postForm: Uint32Array;
  private readonly postNeed: Uint8Array;
  private readonly postSingle: Uint8Array;
  private readonly dirty: Uint8Array;

  constructor(cc: CompiledCard, counts: ArrayLike<number>) {
    this.cc = cc;
    this.away = new Uint8Array(cc.lineCount);
    this.best = new Uint32Array(cc.lineCount);
    this.lack = new Uint8Array(cc.formCount);
    this.lackSingles = new Uint8Array(cc.formCount);
    this.dirty = new Uint8Array(cc.lineCount);
    const n = cc.entryKind.length;
    this.postStart = new Uint32Array(KINDS + 1);
    for (let e = 0; e < n; e++) this.postStart[cc.entryKind[e] + 1]++;
    for (let t = 0; t < KINDS; t++) this.postStart[t + 1] += this.postStart[t];
    this.postForm = new Uint32Array(n);
    this.postNeed = new Uint8Array(n);
    this.postSingle = new Uint8Array(n);
    const fill = this.postStart.slice(0, KINDS);
    for (let f = 0; f < cc.formCount; f++) {
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
        const p = fill[cc.entryKind[e]]++;
        this.postForm[p] = f;
        this.postNeed[p] = cc.entryNeed[e];
        this.postSingle[p] = cc.entrySingle[e];
      }
    }
    this.reset(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    // An empty hand lacks every tile of every form.
    const { entryStart, entryNeed, entrySingle } = this.cc;
    for (let f = 0; f < this.cc.formCount; f++) {
      let lack = 0, singles = 0;
      for (let e = entryStart[f]; e < entryStart[f + 1]; e++) { lack += entryNeed[e]; singles += entrySingle[e]; }
      this.lack[f] = lack;
      this.lackSingles[f] = singles;
    }
    this.counts.fill(0);
    for (let t = 0; t < KINDS; t++) if (t !== JOKER) this.setCount(t, counts[t]);
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
    if (t === JOKER) {
      this.counts[JOKER] += delta;
      this.dirty.fill(1);
    } else this.setCount(t, this.counts[t] + delta);
  }

  private setCount(t: number, next: number): void {
    const prev = this.counts[t];
    if (next < 0) throw new Error(`rule violation: removing a tile the hand does not hold (${t})`);
    this.counts[t] = next;
    const { formLine } = this.cc;
    for (let p = this.postStart[t]; p < this.postStart[t + 1]; p++) {
      const f = this.postForm[p], need = this.postNeed[p], single = this.postSingle[p];
      this.lack[f] += Math.max(0, need - next) - Math.max(0, need - prev);
      if (single > 0) this.lackSingles[f] += Math.max(0, single - next) - Math.max(0, single - prev);
      this.dirty[formLine[f]] = 1;
    }
  }

  private refresh(): void {
    const { lineStart, lineJokers, lineCount } = this.cc;
    const jokers = this.counts[JOKER];
    for (let l = 0; l < lineCount; l++) {
      if (this.dirty[l] === 0) continue;
      this.dirty[l] = 0;
      const j = lineJokers[l] === 1 ? jokers : 0;
      let bestAway = 255, bestForm = 0;
      for (let f = lineStart[l]; f < lineStart[l + 1]; f++) {
        const lack = this.lack[f], inGroups = lack - this.lackSingles[f];
        const a = lack - (inGroups < j ? inGroups : j);
        if (a < bestAway) { bestAway = a; bestForm = f; }
      }
      this.away[l] = bestAway;
      this.best[l] = bestForm;
    }
  }
}
