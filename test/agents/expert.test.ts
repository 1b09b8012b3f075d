import { describe, expect, it } from 'vitest';
import { ExpertAgent, type ExpertJudge } from '../../agents/mah-jongg/expert.js';
import { sameChoice, type Judgement } from '../../agents/mah-jongg/judge.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { cc, decisions, model, rules, tiny } from './expert-deals.js';

/**
 * The expert (agents/mah-jongg/expert.ts): the learned policy, its choices checked by the coach's
 * judge. Whole deals, and the real judge's playouts, are test/agents/expert.slow.test.ts (slow).
 */

describe('the expert', () => {
  it("asks the judge whether the policy's choice is a mistake against each of its next best, and plays the one it costs most against, only on a mistake", () => {
    const policy = new LearnedAgent(cc, model, {}, 'policy');
    const [turn] = decisions(3, policy, ['discard']);
    const choices = policy.choices(turn).map((c) => c.action);
    const own = policy.act(turn);
    expect(sameChoice(own, choices[0])).toBe(true);
    const asked: { chosen: Action; coach: Action }[] = [];
    const judge =
      (costs: number[]): ExpertJudge =>
      (_cc, _analyzer, v, legal, chosen, coach): Judgement => {
        expect(v.seat).toBe(0);
        expect(legal).toEqual(turn.legal());
        asked.push({ chosen, coach });
        const cost = costs[choices.findIndex((c) => sameChoice(c, coach))];
        return { verdict: cost >= 6 ? 'mistake' : cost >= 3 ? 'asGood' : 'right', cost, costSe: 1, worlds: 2, reason: '' };
      };
    const expert = (costs: number[]) => new ExpertAgent(cc, rules, model, tiny, 'expert', judge(costs));
    // the policy's choice judged against its second and third best
    expect(expert([0, 7, 12]).act(turn)).toEqual(choices[2]);
    expect(asked).toEqual([
      { chosen: choices[0], coach: choices[1] },
      { chosen: choices[0], coach: choices[2] },
    ]);
    expect(expert([0, 12, 7]).act(turn)).toEqual(choices[1]);
    // about as good, or right, is never a reason to switch
    expect(expert([0, 5.9, 4]).act(turn)).toEqual(own);
    expect(expert([0, 0, 0]).act(turn)).toEqual(own);
    // with one alternative weighed, the third is never asked about
    asked.length = 0;
    expect(new ExpertAgent(cc, rules, model, { ...tiny, candidates: 2 }, 'expert', judge([0, 3, 50])).act(turn)).toEqual(own);
    expect(asked).toHaveLength(1);
  });
});
