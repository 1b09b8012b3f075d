/**
 * A seeded generator (sfc32) whose whole state is four 32-bit numbers, so it can live in a
 * game's state and be copied with it: the same seed gives the same deals on every machine.
 */
export type RngState = [number, number, number, number];

export function seedRng(seed: number): RngState {
  // seeds past 32 bits (up to 2^53) mix their high bits in too; a seed below 2^32 gives the stream it always gave
  const high = Math.floor(seed / 0x100000000) >>> 0;
  const s: RngState = [0x9e3779b9, 0x243f6a88, (0xb7e15162 ^ high) >>> 0, seed >>> 0];
  for (let i = 0; i < 12; i++) nextU32(s); // mix the seed through
  return s;
}

/** The next 32-bit value; advances the state in place. */
export function nextU32(s: RngState): number {
  const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0;
  s[3] = (s[3] + 1) >>> 0;
  s[0] = s[1] ^ (s[1] >>> 9);
  s[1] = (s[2] + (s[2] << 3)) >>> 0;
  s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0;
  s[2] = (s[2] + t) >>> 0;
  return t;
}

/** A whole number in [0, n). */
export function nextInt(s: RngState, n: number): number {
  return Math.floor((nextU32(s) / 0x100000000) * n);
}

/** Fisher-Yates, in place. */
export function shuffle<T>(s: RngState, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = nextInt(s, i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}

/** A seed from a text (FNV-1a): the same text gives the same seed on every machine. */
export function seedOfText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
