import { describe, expect, it } from 'vitest';
import { tilesAwayAll } from '../../engine/mah-jongg/analyzer.js';
import { completeForms, PoolProof } from '../../engine/mah-jongg/hand-check.js';
import { nextInt, seedRng, shuffle } from '../../engine/rng.js';
import { KINDS, setCopies, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';

/**
 * PoolProof (the Siamese pools' Mah Jongg proof kept across turns) against the full
 * evaluation: it never proves a pool that completes a line, it proves every pool the full
 * evaluation leaves two or more tiles from every line (what a proof recomputed on every turn
 * would prove), whatever drew, discarded or claimed in between, and the lines it leaves open
 * hold every complete form.
 */
const cc = loadCard();

describe('PoolProof', () => {
  for (const [sets, jokers] of [
    [1, true],
    [2, false],
  ] as const) {
    it(`over turns of draws, discards and claimed tiles (${sets} set${sets > 1 ? 's' : ''}${jokers ? '' : ', no jokers'}), agrees with the full evaluation`, () => {
      const rng = seedRng(17 + sets);
      const away = new Uint8Array(cc.lineCount),
        best = new Uint32Array(cc.lineCount);
      const least = (pool: readonly number[]): number => {
        tilesAwayAll(cc, pool, away, best);
        return Math.min(...away);
      };
      let proved = 0,
        unproved = 0,
        complete = 0;
      for (let game = 0; game < 40; game++) {
        const wall = shuffle(rng, tilesFromCounts(setCopies(sets, jokers)));
        const pool = new Array<number>(KINDS).fill(0);
        for (const t of wall.splice(0, 27)) pool[t]++;
        let proof = new PoolProof(cc);
        const check = (extra: number): void => {
          const answer = proof.cannotComplete(pool, extra);
          const withExtra = [...pool];
          if (extra >= 0) withExtra[extra]++;
          const exact = least(withExtra);
          if (answer) {
            proved++;
            expect(exact).toBeGreaterThan(0);
            expect(completeForms(cc, withExtra, [])).toEqual([]);
          } else {
            unproved++;
            expect(least(pool)).toBeLessThan(2);
            // the lines it leaves open hold every complete form
            const forms = completeForms(cc, withExtra, []);
            expect(completeForms(cc, withExtra, [], false, proof.open)).toEqual(forms);
            if (forms.length > 0) complete++;
          }
        };
        for (let turn = 0; turn < 40 && wall.length > 1; turn++) {
          pool[wall.pop()!]++;
          check(-1);
          check(-1); // the same pool asked again (the next rack)
          const held = pool.flatMap((n, t) => Array<number>(n).fill(t));
          pool[held[nextInt(rng, held.length)]]--;
          check(wall[wall.length - 1]); // a discard offered to this player
          // now and then another rack's proof takes over, starting from this one's base
          if (nextInt(rng, 10) === 0) proof = new PoolProof(cc, proof);
        }
      }
      // both answers are exercised
      expect(proved).toBeGreaterThan(1000);
      expect(unproved).toBeGreaterThan(0);
      if (jokers) expect(complete).toBeGreaterThan(0); // pools that do complete a line (rarer without jokers)
    });
  }
});
