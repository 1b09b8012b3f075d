import { expect } from 'vitest';
import { Analyzer, tilesAwayAll } from '../../engine/mah-jongg/analyzer.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard, type CompiledCard } from '../../engine/mah-jongg/compile.js';
import { nextInt, seedRng, shuffle, type RngState } from '../../engine/rng.js';
import { COPIES, fullSet, JOKER, KINDS } from '../../engine/mah-jongg/tiles.js';
import { readCardText } from '../../io/cards.js';
import { bruteForceTilesAway } from '../reference/brute-force.js';

/**
 * The analyzer's tests' cards and seeded hands, and its check against the independent brute
 * force (test/reference/brute-force.ts): the first hands of the seeded sequence in the unit tier
 * (test/engine/analyzer.test.ts), 1,500 a card in the slow (test/engine/analyzer.slow.test.ts).
 */

export const practice = compileCard(parseCard(readCardText()));

/** A card of odd cases: nojoker, pins, alternatives, `or`, flower groups, a sextet, different numbers (`other`), a year beside moving numbers. */
export const odd = compileCard(
  parseCard(`card: Odd cases
[Odd]
NNNN EEE WWW SSSS ; x 35 nojoker
FF 2222a 44b 66b 8888a ; x 25 a=D
NNN|EEE|WWW|SSS DDDDa DDDDb DDDc ; x 35
1111a 333b 5555b 999a or 9999a 777b 5555b 111a ; x 30
FFFFF 11111a 2222a ; x 40 consec
111111a 222222b 33c ; x 50 consec
13579a 13579b FFFF ; c 35
336699a 336699b DD ; c 55
11111a NNNN 22222b ; x 45 other
2026a 1111b 1111c NN ; x 25 consec
`),
);

export function handFor(rng: RngState, cc: CompiledCard): number[] {
  const counts = new Array<number>(KINDS).fill(0);
  const size = 13 + nextInt(rng, 2);
  if (nextInt(rng, 3) === 0) {
    // uniformly random tiles
    for (const t of shuffle(rng, fullSet()).slice(0, size)) counts[t]++;
    return counts;
  }
  // near a random form: its tiles, some swapped for jokers or random tiles
  const f = nextInt(rng, cc.formCount);
  const pool = fullSet();
  const tiles: number[] = [];
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) for (let i = 0; i < cc.entryNeed[e]; i++) tiles.push(cc.entryKind[e]);
  shuffle(rng, tiles);
  const swaps = nextInt(rng, 6);
  const out: number[] = [];
  for (let i = 0; i < size; i++) {
    let t = i < swaps ? (nextInt(rng, 2) ? JOKER : pool[nextInt(rng, pool.length)]) : tiles[i];
    if (counts[t] >= (t === JOKER || t === 34 ? 8 : 4)) t = JOKER;
    if (counts[t] >= 8) continue;
    counts[t]++;
    out.push(t);
  }
  while (out.length < size) {
    const t = pool[nextInt(rng, pool.length)];
    if (counts[t] < (t >= 34 ? 8 : 4)) {
      counts[t]++;
      out.push(t);
    }
  }
  return counts;
}

/** Tiles away of every line, by tilesAwayAll and by the analyzer, agree with the brute force on the first `hands` seeded hands. */
export function agreeWithBruteForce(cc: CompiledCard, hands: number): void {
  const rng = seedRng(2026);
  const away = new Uint8Array(cc.lineCount),
    best = new Uint32Array(cc.lineCount);
  const analyzer = new Analyzer(cc);
  for (let i = 0; i < hands; i++) {
    const hand = handFor(rng, cc);
    tilesAwayAll(cc, hand, away, best);
    const full = analyzer.analyze({ concealed: hand, exposures: [], seen: new Array(KINDS).fill(0), copies: COPIES });
    cc.card.lines.forEach((line, l) => {
      const expected = bruteForceTilesAway(line, hand);
      expect(away[l], `${line.id} / ${hand.join('')}`).toBe(expected);
      expect(full.find((r) => r.line === l)!.tilesAway).toBe(expected);
    });
  }
}
