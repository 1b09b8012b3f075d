import { describe, expect, it } from 'vitest';
import { makeDominoAgent } from '../../agents/domino/levels.js';
import { playOut } from '../../agents/table.js';
import { validateDomino } from '../../engine/domino/game.js';
import { mexicanTrainGame } from '../../engine/domino/mexican-train.js';
import { DISTRICT, SUN_LAKES } from '../../engine/domino/rulesets.js';
import { seedRng } from '../../engine/rng.js';

/**
 * The Monte Carlo domino player plays legal, repeatable whole rounds of both rulesets. Slow: a
 * sampled world per choice over whole rounds, seconds of work; the random and greedy bots' rounds
 * and the Monte Carlo player's choices are test/domino/agents.test.ts (unit).
 */

describe('bots play legal, repeatable games', () => {
  for (const name of ['montecarlo']) {
    it(`${name}: whole rounds of both rulesets, the same from the same seed`, () => {
      for (const rules of [SUN_LAKES, DISTRICT]) {
        const players = name === 'montecarlo' ? 2 : 4;
        const results = [0, 1].map(() => {
          const game = mexicanTrainGame(rules, players, { round: 1 });
          const s = game.newGame(17);
          const agents = Array.from({ length: players }, () => makeDominoAgent(name, rules.name));
          playOut(game, s, agents, seedRng(3), () => validateDomino(s));
          return s.rounds[0];
        });
        expect(results[0]).toEqual(results[1]);
      }
    });
  }
});
