import { seedRng, shuffle } from '../engine/rng.js';
import { fullSet, KINDS, tileName } from '../engine/tiles.js';

/** Seeded random 14-tile hands drawn from the full set, as counts. */
export function randomHands(n: number, seed = 1, size = 14): number[][] {
  const rng = seedRng(seed);
  const set = fullSet();
  return Array.from({ length: n }, () => {
    const counts = new Array<number>(KINDS).fill(0);
    for (const t of shuffle(rng, set).slice(0, size)) counts[t]++;
    return counts;
  });
}

export const handText = (counts: number[]): string =>
  counts.flatMap((n, t) => Array<string>(n).fill(tileName(t))).join(' ');
