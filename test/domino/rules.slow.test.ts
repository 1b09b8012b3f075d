import { describe, expect, it } from 'vitest';
import { apply, legalActions, newRound, tryApply, type DominoAction, type DominoState } from '../../engine/domino/game.js';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { SET_SIZE } from '../../engine/domino/tiles.js';
import { nextInt, seedRng, type RngState } from '../../engine/rng.js';
import { snapshot } from './helpers.js';

/**
 * Mexican Train's random rounds: 420 a ruleset (every table size from 2 to 8, 60 seeds each), which
 * end both ways, and random actions outside the rules refused without changing anything. Slow:
 * seconds of work; the rules one by one are test/domino/rules.test.ts (unit).
 */

describe('random rounds of every ruleset and table size', () => {
  /** An action that is not among the legal ones: a random tile, train, type and (mostly) the seat to move. */
  function randomOther(s: DominoState, rng: RngState, legal: Set<string>): DominoAction | null {
    for (let i = 0; i < 20; i++) {
      const r = nextInt(rng, 10);
      const seat = nextInt(rng, 10) < 8 ? s.turn : nextInt(rng, s.players);
      const a: DominoAction = r < 1 ? { type: 'draw', seat } : r < 2 ? { type: 'pass', seat } : { type: 'play', seat, tile: nextInt(rng, SET_SIZE), train: nextInt(rng, s.players + 1) };
      if (!legal.has(JSON.stringify(a))) return a;
    }
    return null;
  }

  for (const rules of Object.values(DOMINO_RULESETS)) {
    it(`${rules.name}: rounds end both ways (a player out with no pips, or blocked), and random actions outside the rules are refused without changing anything`, () => {
      let outs = 0,
        blocked = 0,
        refusals = 0;
      for (let p = 2; p <= 8; p++) {
        for (let seed = 0; seed < 60; seed++) {
          const s = newRound(rules, p, seed * 31 + p, seed % rules.engines.length);
          const rng = seedRng(seed ^ 0x5bd1e995);
          for (let n = 0; s.phase === 'play'; n++) {
            const legal = legalActions(s, s.turn);
            const wrong = n % 7 === 0 ? randomOther(s, rng, new Set(legal.map((a) => JSON.stringify(a)))) : null;
            if (wrong) {
              const before = snapshot(s);
              expect(tryApply(s, wrong)).not.toBeNull();
              expect(snapshot(s)).toBe(before);
              refusals++;
            }
            apply(s, legal[nextInt(rng, legal.length)]);
          }
          const r = s.rounds[0];
          if (r.outBy >= 0) {
            outs++;
            expect(r.pipsLeft[r.outBy]).toBe(0);
          } else blocked++;
        }
      }
      expect(outs).toBeGreaterThan(0);
      expect(blocked).toBeGreaterThan(0);
      expect(refusals).toBeGreaterThan(1000);
    });
  }
});
