import { describe, it } from 'vitest';
import { agreeWithBruteForce, odd, practice } from './analyzer-hands.js';

/**
 * Tiles away agrees with the independent brute force (test/reference/brute-force.ts) on 1,500
 * seeded hands a card. Slow: the brute force tries every form of every line, half a minute on a
 * busy machine; test/engine/analyzer.test.ts checks the first 150 of the same hands in the unit tier.
 */

describe('tiles away', () => {
  for (const [name, cc, hands] of [
    ['the practice card', practice, 1500],
    ['a card of odd cases', odd, 1500],
  ] as const) {
    it(`agrees with the independent brute force on ${hands} seeded hands against ${name}`, () => agreeWithBruteForce(cc, hands));
  }
});
