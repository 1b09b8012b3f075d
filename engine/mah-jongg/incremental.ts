import { ruleViolation } from '../errors.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS } from './tiles.js';

/**
 * Tiles away of every form and every line for a hand (natural tiles and jokers, as
 * `tilesAwayAll` gives them, the same integers), kept up to date as the hand changes a tile
 * or two at a time (a bot's draw and discard, a pass).
 *
 * Bit-sliced: every form is one bit of a 32-bit word in each of sixteen planes, so one
 * bitwise operation works on 32 forms at once. Per form it keeps two counters of four bits,
 *   lackN = 14 - placed             (tiles missing in all)
 *   lackS = singles - placedSingles (tiles missing in singles and pairs, which jokers never fill)
 * and its tiles away, lackS + max(0, lackN - lackS - j) = max(lackN - j, lackS), with j the
 * hand's jokers when the form's line takes them (engine/mah-jongg/analyzer.ts awayFromPlaced).
 *
 * When a kind's count goes from c to c - 1, lackN grows by one in exactly the forms needing c
 * or more of the kind, and lackS in those holding c or more in singles and pairs: two masks
 * per kind and count (the card's `BitCard`). A swap adds one in the forms of one kind's masks
 * and takes one off in the other's: a ripple carry (or borrow) through the four planes of
 * each counter, word by word; a change in jokers changes no counter. The tiles away follow in
 * the same pass, and each line's least: after a swap every form's tiles away moved by one at
 * most, so each line's least did too, and a fourth counter per form holds its line's least to
 * compare against (the line planes). A whole new hand (reset, or many kinds at once) takes
 * each line's least afresh: a bit-sliced minimum over its forms, from the top plane down.
 *
 * The practice card's 881 forms fit 29 words: a swap is one pass over them, five to six times
 * faster than a full `tilesAwayAll` (npm run bench).
 */
export class IncrementalTilesAway {
  readonly cc: CompiledCard;
  /** Tiles away of each line (least over its forms). */
  readonly away: Uint8Array;
  /**
   * Tiles away and placed counts (packed as PLACED) of each form, written out per line on
   * demand by `openLine(l)` (the figures of other lines are stale): see also `formAwayOf`.
   */
  readonly formAway: Uint8Array;
  readonly placed: Uint16Array;
  private readonly bc: BitCard;
  /**
   * Per word, sixteen planes: lackN (bits 0-3), lackS (4-7), away (8-11; kept only while the
   * hand holds jokers, lackN is the tiles away without), and the least of the form's line
   * (12-15), against which a swap's pass finds the lines whose least moved.
   */
  private readonly planes: Int32Array;
  /** The counts it holds (-1: none yet). */
  private readonly counts = new Int16Array(KINDS).fill(-1);
  /** Per line, the version of the hand its forms were last written out for (openLine). */
  private readonly opened: Int32Array;
  private version = 1;
  /** Per word, in a swap's pass: the forms now below their line's least, and those at it. */
  private readonly below: Int32Array;
  private readonly at: Int32Array;
  /** Per word, the forms whose line's least went one up, and one down, in the last swap: the line planes follow in the next pass. */
  private readonly up: Int32Array;
  private readonly down: Int32Array;

  constructor(cc: CompiledCard, counts?: ArrayLike<number>) {
    this.cc = cc;
    this.bc = bitCard(cc);
    this.away = new Uint8Array(cc.lineCount);
    this.formAway = new Uint8Array(cc.formCount);
    this.placed = new Uint16Array(cc.formCount);
    this.planes = new Int32Array(this.bc.words * PLANES);
    this.opened = new Int32Array(cc.lineCount);
    this.below = new Int32Array(this.bc.words);
    this.at = new Int32Array(this.bc.words);
    this.up = new Int32Array(this.bc.words);
    this.down = new Int32Array(this.bc.words);
    if (counts !== undefined) this.update(counts);
  }

  /** Starts over from a whole hand. */
  reset(counts: ArrayLike<number>): void {
    const bc = this.bc,
      was = this.counts;
    this.version++;
    this.planes.set(bc.empty);
    for (let t = 0; t < JOKER; t++) {
      const h = counts[t];
      if (h < 0) ruleViolation(`the hand holds no tile ${t} to give up`);
      for (let c = 1, top = Math.min(h, 15); c <= top; c++) this.step(t, c, 1);
      was[t] = h;
    }
    was[JOKER] = counts[JOKER];
    this.deriveAll();
  }

  /** The line's form at its least tiles away (the first, as `tilesAwayAll` names it). */
  bestForm(l: number): number {
    const { segStart, segWord, segMask, segForm, segShift } = this.bc,
      planes = this.planes,
      v = this.away[l],
      a = this.awayPlanes();
    const k0 = (v & 1) === 0 ? -1 : 0,
      k1 = (v & 2) === 0 ? -1 : 0,
      k2 = (v & 4) === 0 ? -1 : 0,
      k3 = (v & 8) === 0 ? -1 : 0;
    for (let s = segStart[l], end = segStart[l + 1]; s < end; s++) {
      const o = segWord[s] * PLANES + a;
      const eq = segMask[s] & (planes[o] ^ k0) & (planes[o + 1] ^ k1) & (planes[o + 2] ^ k2) & (planes[o + 3] ^ k3);
      if (eq !== 0) return segForm[s] + (31 - Math.clz32(eq & -eq)) - segShift[s];
    }
    if (segStart[l + 1] === segStart[l]) return 0; // a line without forms, as tilesAwayAll names it
    ruleViolation('no form of the line at its least');
  }

  /** Tiles away of form f. */
  formAwayOf(f: number): number {
    return counter(this.planes, this.bc.formWord[f] * PLANES + this.awayPlanes(), this.bc.formBit[f]);
  }

  /** What the hand's natural tiles place in form f, packed as PLACED (placedSingles << 8 | placed). */
  placedOf(f: number): number {
    const o = this.bc.formWord[f] * PLANES,
      b = this.bc.formBit[f];
    return (14 - counter(this.planes, o, b)) | ((this.cc.formSingles[f] - counter(this.planes, o + 4, b)) << 8);
  }

  /** Writes out line l's forms' tiles away and placed counts into `formAway` and `placed` (once per hand). */
  openLine(l: number): void {
    if (this.opened[l] === this.version) return;
    this.opened[l] = this.version;
    const { segStart, segWord, segForm, segShift, segMask } = this.bc,
      planes = this.planes,
      { formAway, placed } = this;
    const formSingles = this.cc.formSingles;
    for (let s = segStart[l], end = segStart[l + 1]; s < end; s++) {
      const o = segWord[s] * PLANES,
        shift = segShift[s],
        f0 = segForm[s] - shift;
      const n0 = planes[o],
        n1 = planes[o + 1],
        n2 = planes[o + 2],
        n3 = planes[o + 3];
      const s0 = planes[o + 4],
        s1 = planes[o + 5],
        s2 = planes[o + 6],
        s3 = planes[o + 7];
      const a = o + this.awayPlanes(),
        a0 = planes[a],
        a1 = planes[a + 1],
        a2 = planes[a + 2],
        a3 = planes[a + 3];
      for (let b = shift, top = 32 - Math.clz32(segMask[s]); b < top; b++) {
        const f = f0 + b;
        formAway[f] = ((a0 >>> b) & 1) | (((a1 >>> b) & 1) << 1) | (((a2 >>> b) & 1) << 2) | (((a3 >>> b) & 1) << 3);
        const n = ((n0 >>> b) & 1) | (((n1 >>> b) & 1) << 1) | (((n2 >>> b) & 1) << 2) | (((n3 >>> b) & 1) << 3);
        const u = ((s0 >>> b) & 1) | (((s1 >>> b) & 1) << 1) | (((s2 >>> b) & 1) << 2) | (((s3 >>> b) & 1) << 3);
        placed[f] = (14 - n) | ((formSingles[f] - u) << 8);
      }
    }
  }

  /** One tile leaves the hand and another joins it (a discard after a draw, a pass); either may be -1. */
  swap(out: number, into: number): void {
    const counts = this.counts;
    if (counts[0] < 0) ruleViolation('no hand to change yet');
    let jokers = counts[JOKER];
    let outRow = 0,
      intoRow = 0;
    if (out >= 0) {
      const h = counts[out];
      if (h <= 0) ruleViolation(`the hand holds no tile ${out} to give up`);
      if (out === JOKER) jokers--;
      else if (h <= 15) outRow = (out * 16 + h) * this.bc.words; // as placeAll caps
      counts[out] = h - 1;
    }
    if (into >= 0) {
      const h = counts[into] + 1;
      if (into === JOKER) jokers++;
      else if (h <= 15) intoRow = (into * 16 + h) * this.bc.words;
      counts[into] = h;
    }
    this.version++;
    this.pass(outRow, intoRow, jokers);
  }

  /** Moves to another hand, changing only the kinds whose counts differ. */
  update(counts: ArrayLike<number>): void {
    const was = this.counts;
    if (was[0] < 0) {
      this.reset(counts);
      return;
    }
    let out = -1,
      into = -1,
      changed = 0,
      moves = 0,
      fresh = 0;
    for (let t = 0; t < KINDS; t++) {
      if (t < JOKER) fresh += Math.min(counts[t], 15);
      const d = counts[t] - was[t];
      if (d === 0) continue;
      changed++;
      moves += d < 0 ? -d : d;
      if (d === -1) out = t;
      else if (d === 1) into = t;
    }
    if (changed === 0) return;
    if (changed <= 2 && moves === changed && (changed === 1 || (out >= 0 && into >= 0))) {
      this.swap(out, into);
      return;
    }
    if (moves >= fresh) {
      this.reset(counts);
      return;
    } // fewer steps from an empty hand
    this.version++;
    for (let t = 0; t < JOKER; t++) {
      const from = Math.min(was[t], 15),
        to = counts[t];
      if (to < 0) ruleViolation(`the hand holds no tile ${t} to give up`);
      const capped = Math.min(to, 15);
      for (let c = from; c > capped; c--) this.step(t, c, -1);
      for (let c = from + 1; c <= capped; c++) this.step(t, c, 1);
      was[t] = to;
    }
    was[JOKER] = counts[JOKER];
    this.deriveAll();
  }

  /**
   * One threshold of one kind: its count goes up to c (sign 1: lackN and lackS one less in the
   * forms of its masks) or down from c (sign -1: one more). The tiles away are left as they were.
   */
  private step(t: number, c: number, sign: number): void {
    const { words, masks } = this.bc,
      planes = this.planes;
    const row = (t * 16 + c) * words;
    const d = sign > 0 ? -1 : 0; // the borrow runs on through zeros, the carry through ones
    for (let w = 0; w < words; w++) {
      const mN = masks[(row + w) * 2],
        mS = masks[(row + w) * 2 + 1];
      if ((mN | mS) === 0) continue;
      const o = w * PLANES;
      let c0 = mN,
        x = planes[o];
      planes[o] = x ^ c0;
      c0 &= x ^ d;
      x = planes[o + 1];
      planes[o + 1] = x ^ c0;
      c0 &= x ^ d;
      x = planes[o + 2];
      planes[o + 2] = x ^ c0;
      c0 &= x ^ d;
      planes[o + 3] ^= c0;
      c0 = mS;
      x = planes[o + 4];
      planes[o + 4] = x ^ c0;
      c0 &= x ^ d;
      x = planes[o + 5];
      planes[o + 5] = x ^ c0;
      c0 &= x ^ d;
      x = planes[o + 6];
      planes[o + 6] = x ^ c0;
      c0 &= x ^ d;
      planes[o + 7] ^= c0;
    }
  }

  /**
   * The swap's one pass over every word: one more missing in the forms of out's masks, one
   * less in into's (a form in both stays); their tiles away; the line planes moved as the last
   * swap left them pending; and the lines within the word (one segment) moved. Each form's
   * tiles away moved by one at most, so each line's least did too: one less when a form went
   * below it, one more when no form is left at it. Then the lines over several words. No
   * branches on the hand: about a third of the lines move, unforeseeably.
   */
  private pass(outRow: number, intoRow: number, jokers: number): void {
    const { words, masks, jokerForms, oneEnd, oneMask, oneLine, segStart, segWord, segMask, longLines } = this.bc;
    const { planes, below, at, up, down, away } = this;
    const j = jokers > 15 ? 15 : jokers;
    for (let w = 0, i = 0; w < words; w++) {
      const mo = (outRow + w) * 2,
        mi = (intoRow + w) * 2;
      const iN = masks[mi],
        iS = masks[mi + 1],
        tN = masks[mo] ^ iN,
        tS = masks[mo + 1] ^ iS;
      const o = w * PLANES;
      // a carry (out) runs on through ones, a borrow (into) through zeros
      let c = tN,
        x = planes[o];
      const n0 = x ^ c;
      c &= x ^ iN;
      x = planes[o + 1];
      const n1 = x ^ c;
      c &= x ^ iN;
      x = planes[o + 2];
      const n2 = x ^ c;
      c &= x ^ iN;
      const n3 = planes[o + 3] ^ c;
      c = tS;
      x = planes[o + 4];
      const s0 = x ^ c;
      c &= x ^ iS;
      x = planes[o + 5];
      const s1 = x ^ c;
      c &= x ^ iS;
      x = planes[o + 6];
      const s2 = x ^ c;
      c &= x ^ iS;
      const s3 = planes[o + 7] ^ c;
      planes[o] = n0;
      planes[o + 1] = n1;
      planes[o + 2] = n2;
      planes[o + 3] = n3;
      planes[o + 4] = s0;
      planes[o + 5] = s1;
      planes[o + 6] = s2;
      planes[o + 7] = s3;
      let a0 = n0,
        a1 = n1,
        a2 = n2,
        a3 = n3;
      if (j !== 0) {
        deriveWord(planes, o, j, jokerForms[w]);
        a0 = planes[o + 8];
        a1 = planes[o + 9];
        a2 = planes[o + 10];
        a3 = planes[o + 11];
      }
      // the line planes, one up (u) or down (d) where the last swap moved the least
      let d = down[w];
      c = up[w] | d;
      x = planes[o + 12];
      const l0 = x ^ c;
      c &= x ^ d;
      x = planes[o + 13];
      const l1 = x ^ c;
      c &= x ^ d;
      x = planes[o + 14];
      const l2 = x ^ c;
      c &= x ^ d;
      const l3 = planes[o + 15] ^ c;
      planes[o + 12] = l0;
      planes[o + 13] = l1;
      planes[o + 14] = l2;
      planes[o + 15] = l3;
      // the forms below their line's least, and at it (from the top bit down)
      let lt = ~a3 & l3,
        eq = ~(a3 ^ l3);
      lt |= eq & ~a2 & l2;
      eq &= ~(a2 ^ l2);
      lt |= eq & ~a1 & l1;
      eq &= ~(a1 ^ l1);
      lt |= eq & ~a0 & l0;
      eq &= ~(a0 ^ l0);
      below[w] = lt;
      at[w] = eq;
      let u = 0;
      d = 0;
      for (const end = oneEnd[w]; i < end; i++) {
        const m = oneMask[i],
          l = oneLine[i];
        // -1 when some form went below the least; else -1 when none is left at it
        const dec = (Math.clz32(lt & m) >>> 5) - 1,
          inc = ~((Math.clz32(eq & m) >>> 5) - 1) & ~dec;
        away[l] += dec - inc;
        u |= m & inc;
        d |= m & dec;
      }
      up[w] = u;
      down[w] = d;
    }
    for (let k = 0, n = longLines.length; k < n; k++) {
      const l = longLines[k],
        s0 = segStart[l],
        s1 = segStart[l + 1];
      let b = 0,
        e = 0;
      for (let s = s0; s < s1; s++) {
        const w = segWord[s],
          m = segMask[s];
        b |= below[w] & m;
        e |= at[w] & m;
      }
      const dec = (Math.clz32(b) >>> 5) - 1,
        inc = ~((Math.clz32(e) >>> 5) - 1) & ~dec;
      away[l] += dec - inc;
      for (let s = s0; s < s1; s++) {
        const w = segWord[s],
          m = segMask[s];
        up[w] |= m & inc;
        down[w] |= m & dec;
      }
    }
  }

  /** Line l's least becomes v: in `away` and in the line planes of its forms. */
  private setLeast(l: number, v: number): void {
    const { segStart, segWord, segMask } = this.bc,
      planes = this.planes;
    this.away[l] = v;
    for (let s = segStart[l], end = segStart[l + 1]; s < end; s++) {
      const o = segWord[s] * PLANES + 12,
        m = segMask[s];
      planes[o] = (planes[o] & ~m) | ((v & 1) === 0 ? 0 : m);
      planes[o + 1] = (planes[o + 1] & ~m) | ((v & 2) === 0 ? 0 : m);
      planes[o + 2] = (planes[o + 2] & ~m) | ((v & 4) === 0 ? 0 : m);
      planes[o + 3] = (planes[o + 3] & ~m) | ((v & 8) === 0 ? 0 : m);
    }
  }

  /** Where the tiles away planes of a word begin: with no jokers, the tiles away are lackN. */
  private awayPlanes(): number {
    return this.counts[JOKER] === 0 ? 0 : 8;
  }

  /** Tiles away of every word from its counters, and every line's least. */
  private deriveAll(): void {
    const { words, jokerForms } = this.bc,
      planes = this.planes;
    const jokers = this.counts[JOKER],
      j = jokers > 15 ? 15 : jokers;
    if (j !== 0) for (let w = 0; w < words; w++) deriveWord(planes, w * PLANES, j, jokerForms[w]);
    this.leastAll();
  }

  private leastAll(): void {
    this.up.fill(0);
    this.down.fill(0);
    const segStart = this.bc.segStart;
    for (let l = 0, n = this.away.length; l < n; l++) {
      if (segStart[l + 1] > segStart[l]) this.setLeast(l, this.least(l));
      else this.away[l] = 255; // a line without forms, as tilesAwayAll leaves it
    }
  }

  /** Line l's least tiles away: over each of its words, the forms at the least so far kept, from the top plane down. */
  private least(l: number): number {
    const { segStart, segWord, segMask } = this.bc,
      planes = this.planes,
      a = this.awayPlanes();
    let least = 15;
    for (let s = segStart[l], end = segStart[l + 1]; s < end; s++) {
      const o = segWord[s] * PLANES + a;
      let m = segMask[s],
        v = 0,
        z = m & ~planes[o + 3];
      if (z !== 0) m = z;
      else v = 8;
      z = m & ~planes[o + 2];
      if (z !== 0) m = z;
      else v |= 4;
      z = m & ~planes[o + 1];
      if (z !== 0) m = z;
      else v |= 2;
      if ((m & ~planes[o]) === 0) v |= 1;
      if (v < least) least = v;
    }
    return least;
  }
}

const PLANES = 16;

/** One form's four-bit counter: bit b of the four planes from o. */
function counter(planes: Int32Array, o: number, b: number): number {
  return ((planes[o] >>> b) & 1) | (((planes[o + 1] >>> b) & 1) << 1) | (((planes[o + 2] >>> b) & 1) << 2) | (((planes[o + 3] >>> b) & 1) << 3);
}

/** Tiles away of the 32 forms of one word (at o): max(lackN - j, lackS) where the line takes jokers, lackN elsewhere. */
function deriveWord(planes: Int32Array, o: number, j: number, jm: number): void {
  const n0 = planes[o],
    n1 = planes[o + 1],
    n2 = planes[o + 2],
    n3 = planes[o + 3];
  const s0 = planes[o + 4],
    s1 = planes[o + 5],
    s2 = planes[o + 6],
    s3 = planes[o + 7];
  // t = lackN - j, bit by bit with the borrow b (j's bits are known: one branch each)
  let b = 0,
    t0: number,
    t1: number,
    t2: number,
    t3: number;
  if ((j & 1) !== 0) {
    t0 = ~n0;
    b = ~n0;
  } else {
    t0 = n0;
  }
  if ((j & 2) !== 0) {
    t1 = ~(n1 ^ b);
    b = ~n1 | b;
  } else {
    t1 = n1 ^ b;
    b = ~n1 & b;
  }
  if ((j & 4) !== 0) {
    t2 = ~(n2 ^ b);
    b = ~n2 | b;
  } else {
    t2 = n2 ^ b;
    b = ~n2 & b;
  }
  if ((j & 8) !== 0) {
    t3 = ~(n3 ^ b);
    b = ~n3 | b;
  } else {
    t3 = n3 ^ b;
    b = ~n3 & b;
  }
  // below zero (a borrow out): 0, which lackS never goes under; lackN itself where the line takes no jokers
  b = ~b & jm;
  t0 = (t0 & b) | (n0 & ~jm);
  t1 = (t1 & b) | (n1 & ~jm);
  t2 = (t2 & b) | (n2 & ~jm);
  t3 = (t3 & b) | (n3 & ~jm);
  // the greater of t and lackS (never more than lackN): where t > lackS, from the top bit down, t's bits
  const x0 = t0 ^ s0,
    x1 = t1 ^ s1,
    x2 = t2 ^ s2,
    x3 = t3 ^ s3;
  let gt = t3 & x3,
    eq = ~x3;
  gt |= eq & t2 & x2;
  eq &= ~x2;
  gt |= eq & t1 & x1;
  eq &= ~x1;
  gt |= eq & t0 & x0;
  planes[o + 8] = s0 ^ (gt & x0);
  planes[o + 9] = s1 ^ (gt & x1);
  planes[o + 10] = s2 ^ (gt & x2);
  planes[o + 11] = s3 ^ (gt & x3);
}

/**
 * A card laid out for the bit-sliced counters: each form a bit of a word, a line's forms in
 * order on consecutive bits; a line of 32 forms or fewer within one word (its segment), a
 * longer one on whole words of its own (one segment each), the rest packed first-fit.
 */
interface BitCard {
  words: number;
  formWord: Int32Array;
  formBit: Uint8Array;
  /** Segments of line l: segStart[l] .. segStart[l+1]-1, in form order: word, mask, first form, first bit. */
  segStart: Int32Array;
  segWord: Int32Array;
  segMask: Int32Array;
  segForm: Int32Array;
  segShift: Uint8Array;
  /** The lines of one segment, in word order: line and mask, those of word w before oneEnd[w]; and the lines of several. */
  oneLine: Int32Array;
  oneEnd: Int32Array;
  oneMask: Int32Array;
  longLines: Int32Array;
  /** masks[((t * 16 + c) * words + w) * 2]: forms of word w needing c or more of kind t; + 1: holding c or more in singles and pairs. Row c = 0 is all zeros. */
  masks: Int32Array;
  /** Per word, the forms of lines taking jokers. */
  jokerForms: Int32Array;
  /** The counters for an empty hand: lackN = 14, lackS = the form's singles (the rest is derived). */
  empty: Int32Array;
}

const BIT_CARDS = new WeakMap<CompiledCard, BitCard>();

function bitCard(cc: CompiledCard): BitCard {
  let bc = BIT_CARDS.get(cc);
  if (bc !== undefined) return bc;
  const formWord = new Int32Array(cc.formCount),
    formBit = new Uint8Array(cc.formCount);
  const used: number[] = []; // bits used per word
  const size = (l: number) => cc.lineStart[l + 1] - cc.lineStart[l];
  const order = Array.from({ length: cc.lineCount }, (_, l) => l).sort((a, b) => size(b) - size(a) || a - b);
  for (const l of order) {
    const n = size(l),
      f0 = cc.lineStart[l];
    if (n > 32) {
      for (let i = 0; i < n; i++) {
        if (i % 32 === 0) used.push(0);
        const w = used.length - 1;
        formWord[f0 + i] = w;
        formBit[f0 + i] = used[w]++;
      }
      continue;
    }
    let w = used.findIndex((u) => u + n <= 32);
    if (w < 0) {
      used.push(0);
      w = used.length - 1;
    }
    for (let i = 0; i < n; i++) {
      formWord[f0 + i] = w;
      formBit[f0 + i] = used[w]++;
    }
  }
  const words = Math.max(used.length, 1);
  const segs: { word: number; mask: number; form: number; shift: number }[] = [];
  const segStart = new Int32Array(cc.lineCount + 1);
  for (let l = 0; l < cc.lineCount; l++) {
    segStart[l] = segs.length;
    for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
      const last = segs[segs.length - 1];
      if (f > cc.lineStart[l] && last.word === formWord[f]) last.mask |= 1 << formBit[f];
      else segs.push({ word: formWord[f], mask: 1 << formBit[f], form: f, shift: formBit[f] });
    }
  }
  segStart[cc.lineCount] = segs.length;
  const one = Array.from({ length: cc.lineCount }, (_, l) => l)
    .filter((l) => segStart[l + 1] - segStart[l] === 1)
    .sort((a, b) => segs[segStart[a]].word - segs[segStart[b]].word || a - b);
  const masks = new Int32Array(JOKER * 16 * words * 2);
  const jokerForms = new Int32Array(words);
  const empty = new Int32Array(words * PLANES);
  for (let f = 0; f < cc.formCount; f++) {
    const w = formWord[f],
      bit = 1 << formBit[f];
    if (cc.lineJokers[cc.formLine[f]] === 1) jokerForms[w] |= bit;
    for (let p = 0; p < 4; p++) {
      if ((14 >> p) & 1) empty[w * PLANES + p] |= bit;
      if ((cc.formSingles[f] >> p) & 1) empty[w * PLANES + 4 + p] |= bit;
    }
  }
  for (let t = 0; t < JOKER; t++) {
    for (let p = cc.postStart[t]; p < cc.postStart[t + 1]; p++) {
      const f = cc.postForm[p],
        need = cc.postCode[p] & 15,
        single = cc.postCode[p] >> 4;
      const w = formWord[f],
        bit = 1 << formBit[f];
      for (let c = 1; c <= need; c++) {
        masks[((t * 16 + c) * words + w) * 2] |= bit;
        if (c <= single) masks[((t * 16 + c) * words + w) * 2 + 1] |= bit;
      }
    }
  }
  bc = {
    words,
    formWord,
    formBit,
    segStart,
    segWord: Int32Array.from(segs, (s) => s.word),
    segMask: Int32Array.from(segs, (s) => s.mask),
    segForm: Int32Array.from(segs, (s) => s.form),
    segShift: Uint8Array.from(segs, (s) => s.shift),
    masks,
    jokerForms,
    empty,
    oneLine: Int32Array.from(one, (l) => l),
    oneEnd: Int32Array.from({ length: words }, (_, w) => one.filter((l) => segs[segStart[l]].word <= w).length),
    oneMask: Int32Array.from(one, (l) => segs[segStart[l]].mask),
    longLines: Int32Array.from({ length: cc.lineCount }, (_, l) => l).filter((l) => segStart[l + 1] - segStart[l] > 1),
  };
  BIT_CARDS.set(cc, bc);
  return bc;
}
