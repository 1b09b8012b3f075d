import type { CompiledCard } from '../engine/compile.js';
import { TilemateError } from '../engine/errors.js';
import type { Agent } from './agent.js';
import { GreedyAgent } from './greedy.js';
import { defaultModel } from './default-model.js';
import { EASY_HABITS, HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { LearnedAgent } from './learned.js';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from './lookahead.js';
import { RandomAgent } from './random.js';
import { EXPERT_BUDGET, HARD_BUDGET, MonteCarloAgent } from './montecarlo.js';
import type { Ruleset } from '../engine/rulesets.js';

/**
 * Agents by level (for people) or by name (for measuring): `easy` is the heuristic with a
 * beginner's habits, `medium` the heuristic, `hard` and `expert` the Monte Carlo player at
 * two budgets; `random` and `greedy` are the floors; `strong` is the heuristic with the searching
 * players' habits, and `learned` the trained value model's policy alone (agents/learned.ts).
 */
const MAKERS: Record<string, (cc: CompiledCard, rules: Ruleset) => Agent> = {
  random: () => new RandomAgent(),
  greedy: (cc) => new GreedyAgent(cc),
  heuristic: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'heuristic'),
  easy: (cc) => new HeuristicAgent(cc, EASY_HABITS, 'easy'),
  medium: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'medium'),
  strong: (cc) => new HeuristicAgent(cc, STRONG_HABITS, 'strong'),
  learned: (cc) => new LearnedAgent(cc, defaultModel(), {}, 'learned'),
  montecarlo: (cc, rules) => new MonteCarloAgent(cc, rules, HARD_BUDGET, 'montecarlo'),
  hard: (cc, rules) => new MonteCarloAgent(cc, rules, HARD_BUDGET, 'hard'),
  // the trained model's policy with a short search; without a model, the Monte Carlo player
  expert: (cc, rules) => {
    const model = defaultModel();
    return model ? new LookaheadAgent(cc, rules, model, EXPERT_LOOKAHEAD, 'expert') : new MonteCarloAgent(cc, rules, EXPERT_BUDGET, 'expert');
  },
};

export const AGENT_NAMES = Object.keys(MAKERS);

export function makeAgent(name: string, cc: CompiledCard, rules: Ruleset): Agent {
  const make = Object.hasOwn(MAKERS, name) ? MAKERS[name] : undefined;
  if (!make) throw new TilemateError('TM_BAD_INPUT', `unknown bot "${name}" (expected one of ${AGENT_NAMES.join(', ')})`);
  return make(cc, rules);
}
