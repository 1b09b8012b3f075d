import { KINDS, type TileId } from './tiles.js';

/**
 * A hand as packed counts, "bitboard style": 8 four-bit counts per 32-bit word, so the
 * 36 tile kinds fit in 5 words. Kind t lives in word t >> 3 at bit (t & 7) * 4. A count
 * never exceeds 8 (flowers and jokers), well inside a nibble.
 *
 * Whole-hand operations (total, deficit against a pattern) work on all eight counts of a
 * word at once (SWAR): nibbles are spread into bytes, so a byte-wise subtraction has room
 * for its borrow.
 */
export type Packed = Uint32Array;
export const PACKED_WORDS = 5;

export const emptyPacked = (): Packed => new Uint32Array(PACKED_WORDS);

export function packCounts(counts: ArrayLike<number>): Packed {
  const p = emptyPacked();
  for (let t = 0; t < KINDS; t++) p[t >> 3] |= counts[t] << ((t & 7) << 2);
  return p;
}

export function unpackCounts(p: Packed): number[] {
  const out = new Array<number>(KINDS);
  for (let t = 0; t < KINDS; t++) out[t] = (p[t >> 3] >>> ((t & 7) << 2)) & 15;
  return out;
}

export const packTiles = (tiles: readonly TileId[]): Packed => {
  const p = emptyPacked();
  for (const t of tiles) addTile(p, t);
  return p;
};

export const countOf = (p: Packed, t: TileId): number => (p[t >> 3] >>> ((t & 7) << 2)) & 15;

export function addTile(p: Packed, t: TileId): void {
  p[t >> 3] += 1 << ((t & 7) << 2);
}

/** Removes one copy of t; returns false (and changes nothing) when the hand has none. */
export function removeTile(p: Packed, t: TileId): boolean {
  if (countOf(p, t) === 0) return false;
  p[t >> 3] -= 1 << ((t & 7) << 2);
  return true;
}

const LO = 0x0f0f0f0f;
const HI = 0x80808080;

/** Sum of the four bytes of x (each byte at most 63, so no carry out of the top byte). */
const byteSum = (x: number): number => Math.imul(x, 0x01010101) >>> 24;

export function total(p: Packed): number {
  let n = 0;
  for (let w = 0; w < PACKED_WORDS; w++) {
    const x = p[w];
    n += byteSum((x & LO) + ((x >>> 4) & LO));
  }
  return n;
}

/** Byte-wise max(0, a - b) for bytes holding values 0..15. */
function satSub(a: number, b: number): number {
  const x = ((a | HI) - b) >>> 0; // each byte: 0x80 + a - b, never borrowing from its neighbour
  const keep = x & HI; // top bit set where a >= b
  return x & (keep - (keep >>> 7)) & 0x7f7f7f7f;
}

/**
 * Difference against a pattern: the number of tiles `pattern` holds that `hand` lacks,
 * sum over kinds of max(0, pattern - hand).
 */
export function deficit(hand: Packed, pattern: Packed): number {
  let n = 0;
  for (let w = 0; w < PACKED_WORDS; w++) {
    const h = hand[w], q = pattern[w];
    n += byteSum(satSub(q & LO, h & LO) + satSub((q >>> 4) & LO, (h >>> 4) & LO));
  }
  return n;
}

/** Tiles of `pattern` the hand holds: sum over kinds of min(hand, pattern). */
export const overlap = (hand: Packed, pattern: Packed): number => total(pattern) - deficit(hand, pattern);
