import { awayFromPlaced, mendPlaced, placeAll, PLACED } from './analyzer.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/**
 * Tiles away of every form and every line for a hand (natural tiles and jokers, as
 * `tilesAwayAll` gives them, the same integers), kept up to date as the hand changes a tile
 * or two at a time (a bot's draw and discard, a pass). What a hand places in a form is a sum
 * over its kinds, so a change of one kind touches only the forms holding that kind (the
 * card's postings): each is weighed again in the same pass, and its line's least with it.
 * Each line counts its forms at the least, and looks at its forms' tiles away again only
 * when none is left there. A change in jokers moves every form of the lines taking jokers,
 * and many kinds at once (a player shared by several seats) touch most forms: then every
 * form is weighed again in one pass.
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  /** Tiles away of each form. */
  readonly formAway: Uint8Array;
  /** What the hand's natural tiles place in each form (packed as PLACED). */
  readonly placed: Uint16Array;
  /** The counts it holds (-1: none yet). */
  private readonly counts = new Int8Array(KINDS).fill(-1);
  /** How many forms of each line are at its least, and the lines that may have none left. */
  private readonly atLeast: Uint16Array;
  private readonly stale: number[] = [];
  private readonly info: Uint32Array;
  private readonly next = new Array<number>(KINDS).fill(0);

  constructor(cc: CompiledCard, counts?: ArrayLike<number>) {
    this.cc = cc;
    this.away = new Uint8Array(cc.lineCount);
    this.formAway = new Uint8Array(cc.formCount);
    this.placed = new Uint16Array(cc.formCount);
    this.atLeast = new Uint16Array(cc.lineCount);
    this.info = postingInfo(cc);
    if (counts !== undefined) this.update(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    this.counts.fill(-1);
    this.update(counts);
  }

  /** The line's form at its least tiles away (the first, as `tilesAwayAll` names it). */
  bestForm(l: number): number {
    const least = this.away[l];
    let f = this.cc.lineStart[l];
    while (this.formAway[f] !== least) f++;
    return f;
  }

  /** One tile leaves the hand and another joins it (a discard after a draw, a pass); either may be -1. */
  swap(out: number, into: number): void {
    if (out === JOKER || into === JOKER || this.counts[0] < 0) {
      const next = this.next;
      for (let t = 0; t < KINDS; t++) next[t] = this.counts[t];
      if (out >= 0) next[out]--;
      if (into >= 0) next[into]++;
      this.update(next);
      return;
    }
    if (out >= 0) this.step(out, this.counts[out] - 1);
    if (into >= 0) this.step(into, this.counts[into] + 1);
    this.settle();
  }

  /** Moves to another hand, weighing again only the forms holding the kinds whose counts differ. */
  update(counts: ArrayLike<number>): void {
    const was = this.counts;
    let changed = 0;
    for (let t = 0; t < JOKER; t++) if (was[t] !== counts[t]) changed++;
    const jokers = counts[JOKER];
    if (changed > 8 || jokers !== was[JOKER]) {
      const cc = this.cc, placed = this.placed;
      if (changed > 8) placeAll(cc, counts, placed);
      else for (let t = 0; t < JOKER; t++) if (was[t] !== counts[t]) mendPlaced(cc, placed, t, was[t], counts[t]);
      for (let t = 0; t < KINDS; t++) was[t] = counts[t];
      this.weighAll(jokers);
      return;
    }
    if (changed === 0) return;
    for (let t = 0; t < JOKER; t++) if (was[t] !== counts[t]) this.step(t, counts[t]);
    this.settle();
  }

  /** Kind t's count becomes `next` (jokers aside): the forms holding it are placed and weighed again. */
  private step(t: number, next: number): void {
    if (next < 0) throw new Error(`rule violation: the hand holds no tile ${t} to give up`);
    const { postStart, postForm } = this.cc;
    const { info, placed, away, formAway, atLeast, stale } = this;
    const jokers = this.counts[JOKER];
    const from = Math.min(this.counts[t], 15) << 8, to = Math.min(next, 15) << 8; // as placeAll caps
    this.counts[t] = next;
    for (let p = postStart[t], end = postStart[t + 1]; p < end; p++) {
      // mendPlaced's step, and the form weighed again in the same pass
      const f = postForm[p], i = info[p], code = i & 255, l = i >>> 14;
      const now = (placed[f] += PLACED[to | code] - PLACED[from | code]);
      const a = awayFromPlaced(now, (i >> 8) & 31, (i & JOKER_LINE) === 0 ? 0 : jokers);
      const old = formAway[f];
      if (a === old) continue;
      formAway[f] = a;
      // away[l] stays at most every form's, atLeast[l] the forms at it
      if (a < away[l]) { away[l] = a; atLeast[l] = 1; } else if (a === away[l]) atLeast[l]++;
      else if (old === away[l] && --atLeast[l] === 0) stale.push(l);
    }
  }

  /** A line whose closest forms all went further: its least found again. */
  private settle(): void {
    const { stale, atLeast } = this;
    for (const l of stale) if (atLeast[l] === 0) this.leastOf(l);
    stale.length = 0;
  }

  private weighAll(jokers: number): void {
    const { lineStart, lineJokers, formSingles, lineCount } = this.cc, { placed, formAway, away, atLeast } = this;
    for (let l = 0; l < lineCount; l++) {
      const j = lineJokers[l] === 1 ? jokers : 0;
      let least = 255, n = 0;
      for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
        const a = awayFromPlaced(placed[f], formSingles[f], j);
        formAway[f] = a;
        if (a < least) { least = a; n = 1; } else if (a === least) n++;
      }
      away[l] = least;
      atLeast[l] = n;
    }
  }

  /** Line l's least tiles away from its forms', and how many forms are at it. */
  private leastOf(l: number): void {
    const { lineStart } = this.cc, formAway = this.formAway;
    let least = 255, n = 0;
    for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
      const a = formAway[f];
      if (a < least) { least = a; n = 1; } else if (a === least) n++;
    }
    this.away[l] = least;
    this.atLeast[l] = n;
  }
}

/**
 * Per posting of a card (postForm's order), what the update loop reads packed in one number:
 * its code (need | single << 4) in the low byte, the form's singles in the next five bits,
 * JOKER_LINE when its line takes jokers, and its line from bit 14 up. Kept per card.
 */
function postingInfo(cc: CompiledCard): Uint32Array {
  let info = POSTING_INFO.get(cc);
  if (info === undefined) {
    info = new Uint32Array(cc.postForm.length);
    for (let p = 0; p < info.length; p++) {
      const f = cc.postForm[p], l = cc.formLine[f];
      info[p] = cc.postCode[p] | (cc.formSingles[f] << 8) | (cc.lineJokers[l] === 1 ? JOKER_LINE : 0) | (l << 14);
    }
    POSTING_INFO.set(cc, info);
  }
  return info;
}

const JOKER_LINE = 1 << 13;
const POSTING_INFO = new WeakMap<CompiledCard, Uint32Array>();
