import { describe, expect, it } from 'vitest';
import { RandomAgent } from '../../agents/mah-jongg/random.js';
import { apply, cloneState, legalActions, newGame, nextToAct, view, waitingOn, type Action } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { cc } from './game-helpers.js';

/**
 * Proofs carried from step to step list what a fresh copy lists, over 72 random games (12 of
 * every ruleset), the legal actions compared with a copy's at every step. Slow: seconds of
 * work, a quarter of a minute on a busy machine; the rest of the rules are
 * test/engine/game.test.ts (unit).
 */

describe('copies and replays', () => {
  it('proofs carried from step to step (dead hands, hands that cannot be Mah Jongg) list what a fresh copy lists', () => {
    // cloneState starts its proofs afresh: every list of a random game must come out the same
    const agent = new RandomAgent();
    let withCallDead = 0,
      withCalls = 0;
    for (const rules of Object.values(RULESETS)) {
      for (let g = 0; g < 12; g++) {
        const s = newGame(rules, cc, 700 + g);
        const rng = seedRng(g);
        while (s.phase.kind !== 'ended') {
          const seat = waitingOn(s)[0];
          expect(nextToAct(s)).toBe(seat); // the game loops' allocation-free first seat
          const legal = (): Action[] => {
            const kept = legalActions(s, seat);
            expect(kept).toEqual(legalActions(cloneState(s), seat));
            if (kept.some((a) => a.type === 'callDead')) withCallDead++;
            if (kept.some((a) => a.type === 'call')) withCalls++;
            return kept;
          };
          apply(s, agent.act({ seat, phase: s.phase.kind, view: () => view(s, seat), legal, rng }));
        }
        expect(nextToAct(s)).toBe(-1);
      }
    }
    expect(nextToAct(newGame(RULESETS['nmjl-4p'], cc, 1))).toBe(0);
    // the lists compared held hands to call dead and discards to call
    expect(withCallDead).toBeGreaterThan(20);
    expect(withCalls).toBeGreaterThan(20);
  });
});
