import { describe, expect, it } from 'vitest';
import { HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { playOut } from '../../agents/table.js';
import { newGame, type GameState } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
// the page's own module (plain ES; this function needs no DOM)
import { plainScoreWhy } from '../../api/web/end.js';

/**
 * The score table at the end of a game reads in a player's words: who by where she sits, not
 * "seat 2", and no rule-part citations (those stay under "Rules behind the score").
 */
const seatWords = (s: number): string => ['You', 'Right', 'Across', 'Left'][s];

describe("the score table in a player's words", () => {
  it('names players by where they sit and drops the rule references', () => {
    expect(plainScoreWhy('pays 50 to seat 1: discarded the winning tile, 2 x the 25-point hand (teaching guide part 6.2)', seatWords)).toBe(
      'pays 50 to Right: discarded the winning tile, twice the 25-point hand',
    );
    expect(plainScoreWhy('collects 100 for Mah Jongg on a 25-point hand (teaching guide part 6.2); a dead hand still pays (teaching guide part 6.3)', seatWords)).toBe(
      'collects 100 for Mah Jongg on a 25-point hand; a dead hand still pays',
    );
    expect(plainScoreWhy("discarded the tile claimed for seat 0's second Mah Jongg (Siamese 17E)", seatWords)).toBe('discarded the tile claimed for your second Mah Jongg');
    // never "1 times the"
    expect(plainScoreWhy('pays 75 to seat 1: Mah Jongg, 1 x the 75-point hand', seatWords)).toBe('pays 75 to Right: Mah Jongg, once the 75-point hand');
  });

  it('every reason the engine gives in played games, social and tournament, reads without seat numbers or citations', () => {
    const cc = loadCard();
    let seen = 0;
    for (const ruleset of ['nmjl-4p', 'nmjl-4p-tournament']) {
      const rules = loadRuleset(ruleset);
      for (let seed = 1; seed <= 40; seed++) {
        const state: GameState = newGame(rules, cc, seed);
        const bots = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
        playOut(mahJonggGame(rules, cc), state, bots, seedRng(seed));
        for (const line of state.result?.lines ?? []) {
          const plain: string = plainScoreWhy(line.why, seatWords);
          seen++;
          expect(plain, line.why).not.toMatch(/\bseat \d|teaching guide|tournament \d|standardized|Siamese \d|\(\s*\)/i);
          expect(plain.length, line.why).toBeGreaterThan(5);
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });
});
