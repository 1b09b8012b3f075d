import { describe, expect, it } from 'vitest';
import type { Turn } from '../../agents/agent.js';
import { defaultModel } from '../../agents/mah-jongg/default-model.js';
import { ExpertAgent, type ExpertBudget, type ExpertJudge } from '../../agents/mah-jongg/expert.js';
import { sameChoice, type Judgement } from '../../agents/mah-jongg/judge.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { tableTurns } from '../../agents/table.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { loadCard } from '../../io/cards.js';

/**
 * The expert (agents/mah-jongg/expert.ts): the learned policy, its choices checked by the coach's
 * judge. Whole deals, and the real judge's playouts, are test/agents/expert.slow.test.ts (slow).
 */

const cc = loadCard();
const rules = loadRuleset('nmjl-4p');
const game = mahJonggGame(rules, cc);
const model = defaultModel()!;
/** Tiny budgets: the wiring, not the strength (lab/paired-study.ts measures that). */
const tiny: ExpertBudget = { candidates: 3, charlestonCandidates: 2, worlds: 2 };

/** Seat 0's decisions in deal `seed` with the policy's best few to weigh (medium plays every seat to get there). */
function* decisions(seed: number, policy: LearnedAgent, phases: readonly string[]): Generator<Turn> {
  const state = game.newGame(seed);
  const medium = [0, 1, 2, 3].map(() => makeAgent('medium', cc, rules));
  const turns = tableTurns(game, state, seedRng(seed));
  for (let s = game.nextToAct(state); s >= 0; s = game.nextToAct(state)) {
    const turn = turns[s];
    turn.phase = game.phase(state);
    if (s === 0 && phases.includes(turn.phase) && policy.choices(turn).length >= 3) yield turn;
    game.apply(state, medium[s].act(turn));
  }
}

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
