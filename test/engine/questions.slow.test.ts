import { describe, expect, it } from 'vitest';
import { apply, legalActions, newGame, nextToAct, view, type GameState } from '../../engine/mah-jongg/game.js';
import { nextInt, seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { cc } from './game-helpers.js';

/**
 * Questions read the state and never write it: what makes answers fast (the proofs that a
 * rack cannot be Mah Jongg, that a hand is dead) is kept beside the state, not in it. Slow:
 * whole random games of every ruleset, every seat asked at every step (seconds of work).
 */

/** Everything in a state but the compiled card (shared by every game, never changed). */
const snapshot = (s: GameState): string => JSON.stringify(s, (key, value: unknown) => (key === 'cc' ? undefined : value));

describe('questions never change the game', () => {
  it.each(Object.keys(RULESETS))('%s - legal actions and views of every seat, at every step of whole games, leave the state as it was', (name) => {
    const rules = RULESETS[name];
    let asked = 0,
      callDead = 0,
      mahJongg = 0;
    for (let g = 0; g < 3; g++) {
      const s = newGame(rules, cc, 900 + g);
      const rng = seedRng(g);
      while (s.phase.kind !== 'ended') {
        const before = snapshot(s);
        for (let seat = 0; seat < rules.players; seat++) {
          const legal = legalActions(s, seat);
          view(s, seat);
          if (legal.some((a) => a.type === 'callDead')) callDead++;
          if (legal.some((a) => a.type === 'declare' || a.type === 'callMahJongg')) mahJongg++;
          asked++;
        }
        expect(snapshot(s)).toBe(before);
        const seat = nextToAct(s);
        const legal = legalActions(s, seat);
        apply(s, legal[nextInt(rng, legal.length)]);
      }
    }
    // the games asked about whole tables, hands that could be called dead and Mah Jonggs among them
    expect(asked).toBeGreaterThan(500);
    expect(callDead + mahJongg).toBeGreaterThan(0);
  });
});
