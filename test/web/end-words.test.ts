import { describe, expect, it } from 'vitest';
import { HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { playOut } from '../../agents/table.js';
import { newGame, type GameState } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
// the page's own module (plain ES; this function needs no DOM)
import { decisionWords, judgeFigures, plainScoreWhy, progressWords } from '../../api/web/end.js';

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

describe("the review's decisions in the judge's words", () => {
  const base = { index: 40, phase: 'discard', chosen: 'discard J', suggested: 'discard N', tilesLost: 0 };
  it('right, as good, about as good with its reason, or a mistake with the better choice, its cost and its reason: the statistics kept for the details', () => {
    expect(decisionWords({ ...base, chosen: 'discard N', agreed: true, verdict: 'right', asGood: false, loss: 0 })).toBe(
      'Discard (move 40): you chose to discard North. Good: that is what the coach would do.',
    );
    expect(decisionWords({ ...base, chosen: 'discard 5B', agreed: false, verdict: 'right', asGood: true, loss: 0, reason: "That is as good as the coach's choice to discard N." })).toBe(
      "Discard (move 40): you chose to discard 5 Bam, as good as the coach's choice to discard North.",
    );
    expect(
      decisionWords({
        ...base,
        chosen: 'discard 5B',
        agreed: false,
        verdict: 'asGood',
        asGood: true,
        loss: 0,
        cost: 4.2,
        reason: 'Yours gives up little: about 4 points a game.',
      }),
    ).toBe("Discard (move 40): you chose to discard 5 Bam, about as good as the coach's choice to discard North. Yours gives up little: about 4 points a game.");
    const mistake = {
      ...base,
      agreed: false,
      verdict: 'mistake' as const,
      asGood: false,
      loss: 11.6,
      cost: 11.6,
      lossSe: 2.04,
      worlds: 48,
      reason: 'You threw a joker, which can stand in for a tile in almost any group, while N on your rack helps no hand on the card.',
    };
    expect(decisionWords(mistake)).toBe(
      'Discard (move 40): a mistake: you chose to discard Joker; better was to discard North. It cost about 12 points a game. You threw a joker, which can stand in for a tile in almost any group, while North on your rack helps no hand on the card.',
    );
    // for her coach, of her by name
    expect(decisionWords(mistake, 'Rose')).toMatch(/^Discard \(move 40\): a mistake: Rose chose to discard Joker; better was to discard North\./);
    // no figures in the words: they are the details'
    expect(decisionWords(mistake)).not.toMatch(/±|give or take|sampled|2\.04|48/);
    expect(judgeFigures(mistake)).toBe(
      "The judge's estimate: about 11.6 points a game, give or take 2.0, over 48 sampled games played on from here (a mistake from 6 points; within 3 as good as the coach's).",
    );
    expect(judgeFigures({ ...base, chosen: 'discard N', agreed: true, verdict: 'right', worlds: 0 })).toBe('');
  });

  it('a review under way says how far it has got', () => {
    expect(progressWords({ running: true, done: 120, total: 300 })).toBe('Reviewing your game: move 120 of 300\u2026');
    expect(progressWords({ running: true, done: 0, total: 300 }, 'Rose')).toBe('Reviewing Rose\u2019s game: move 1 of 300\u2026');
  });
});
