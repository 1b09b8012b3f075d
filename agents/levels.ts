import type { CompiledCard } from '../engine/compile.js';
import { TilemateError } from '../engine/errors.js';
import type { Agent } from './agent.js';
import { GreedyAgent } from './greedy.js';
import { defaultModel, DEFAULT_MODEL_FILE } from './default-model.js';
import { EASY_HABITS, GUARDED_HABITS, HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { LearnedAgent } from './learned.js';
import { PolicyAgent, PolicySearchAgent } from './policy.js';
import { readPolicyModel } from './policy-model.js';
import { readFileSync } from 'node:fs';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from './lookahead.js';
import { RandomAgent } from './random.js';
import { HARD_BUDGET, MonteCarloAgent } from './montecarlo.js';
import type { Ruleset } from '../engine/rulesets.js';

/**
 * Agents by level (for people) or by name (for measuring): `easy` is the heuristic with a
 * beginner's habits, `medium` the heuristic, `hard` the Monte Carlo player, `expert` the
 * trained value model's policy with a short lookahead search (refused when the model is not
 * installed); `random` and `greedy` are the floors; `strong` is the heuristic with the
 * searching players' habits, and `learned` the trained model's policy alone (agents/learned.ts).
 */
/**
 * The clock's safety valve for play against a person (milliseconds a decision; see
 * Budget.ms): past the work budget, which fits on a quiet machine, a busy one still answers
 * within about this plus one sampled world. Never set for measuring (arena, self-play).
 */
export const VALVE_MS = { hard: 150, expert: 300 };

const MAKERS: Record<string, (cc: CompiledCard, rules: Ruleset, valve: boolean) => Agent> = {
  random: () => new RandomAgent(),
  greedy: (cc) => new GreedyAgent(cc),
  heuristic: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'heuristic'),
  easy: (cc) => new HeuristicAgent(cc, EASY_HABITS, 'easy'),
  medium: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'medium'),
  strong: (cc) => new HeuristicAgent(cc, STRONG_HABITS, 'strong'),
  // medium with the defence rule (agents/defence.ts), for measuring: it gives away fewer points
  // by discards but wins less than medium, so no level plays it (heuristic.ts GUARDED_HABITS)
  guarded: (cc) => new HeuristicAgent(cc, GUARDED_HABITS, 'guarded'),
  learned: (cc) => new LearnedAgent(cc, defaultModel(), {}, 'learned'),
  // for measuring (issue 30): the shipped model over every legal choice, not the habits' shortlist
  'learned-all': (cc) => new PolicyAgent(cc, defaultModel(), {}, 'learned-all'),
  // the same in play, its Charleston among the habits' five cheapest tiles as the learned player's
  'learned-all-play': (cc) => new PolicyAgent(cc, defaultModel(), { passPool: 5 }, 'learned-all-play'),
  // for measuring: the model file named by TILEMATE_POLICY_MODEL (one with a policy head from
  // training/exit.ts, or any value model) over every legal choice in play, its Charleston as
  // learned-all-play's; the shipped model without the variable
  'policy-file': (cc) => new PolicyAgent(cc, policyFileModel(), { passPool: 5 }, 'policy-file'),
  // for measuring: expert iteration's expert (training/exit.ts self-play's search, 8 worlds x 3
  // of every legal choice) with the model of policy-file, to see whether it beats its apprentice
  'exit-search': (cc, rules) => new PolicySearchAgent(cc, rules, policyFileModel(), { worlds: 8, candidates: 3, passPool: 5 }, 'exit-search'),
  // for measuring (issue 30): the expert's search with every candidate played to the end of the
  // game (16 worlds x 3, rated by wins), the policy in its own seat, as a stronger teacher
  'expert-deep': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { worlds: 16, candidates: 3, ms: 60_000, toEnd: true }, 'expert-deep'),
  // for measuring: the learned player and the expert with the model file named by
  // TILEMATE_POLICY_MODEL (a value model from tilemate train), to set a new model beside the shipped one
  'learned-file': (cc) => new LearnedAgent(cc, policyFileModel(), {}, 'learned-file'),
  'expert-file': (cc, rules) => new LookaheadAgent(cc, rules, policyFileModel(), EXPERT_LOOKAHEAD, 'expert-file'),
  // for measuring (issue 30): the learned player with a search at its Charleston steps only
  // (agents/lookahead.ts charlestonWorlds: 16 worlds x the model's best 3), its play the policy's
  'learned-cs': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { worlds: 0, candidates: 3, ms: 60_000, charlestonWorlds: 16 }, 'learned-cs'),
  // for measuring (issue 30, ninth round): the expert's search with eight times its worlds (96),
  // about 1.5 s of CPU a game for its seat, to see whether the search's noise holds the expert back
  'expert-wide': (cc, rules) => new LookaheadAgent(cc, rules, defaultModel(), { ...EXPERT_LOOKAHEAD, worlds: 96, ms: 60_000 }, 'expert-wide'),
  montecarlo: (cc, rules) => new MonteCarloAgent(cc, rules, HARD_BUDGET, 'montecarlo'),
  hard: (cc, rules, valve) => new MonteCarloAgent(cc, rules, valve ? { ...HARD_BUDGET, ms: VALVE_MS.hard } : HARD_BUDGET, 'hard'),
  // the trained model's policy with a short search. Without the model there is no expert: a
  // stand-in under its name would tell the player, the records and the arenas that they met
  // a bot they never met, so the level is refused and the player chooses another.
  expert: (cc, rules, valve) => {
    const model = defaultModel();
    if (model === null) {
      throw new TilemateError('TM_BAD_INPUT', `the expert bot needs the trained model (${DEFAULT_MODEL_FILE}), which is missing or cannot be read; choose hard (the Monte Carlo player) or install the model`);
    }
    return new LookaheadAgent(cc, rules, model, valve ? { ...EXPERT_LOOKAHEAD, ms: VALVE_MS.expert } : EXPERT_LOOKAHEAD, 'expert');
  },
};

let policyFile: { path: string; model: ReturnType<typeof readPolicyModel> } | undefined;
function policyFileModel() {
  const path = process.env.TILEMATE_POLICY_MODEL;
  if (path === undefined || path === '') return defaultModel();
  if (policyFile?.path !== path) policyFile = { path, model: readPolicyModel(readFileSync(path, 'utf8'), path) };
  return policyFile.model;
}

export const AGENT_NAMES = Object.keys(MAKERS);

/** A bot by name; `valve`: with the clock's safety valve, for play against a person (VALVE_MS). */
export function makeAgent(name: string, cc: CompiledCard, rules: Ruleset, options: { valve?: boolean } = {}): Agent {
  const make = Object.hasOwn(MAKERS, name) ? MAKERS[name] : undefined;
  if (!make) throw new TilemateError('TM_BAD_INPUT', `unknown bot "${name}" (expected one of ${AGENT_NAMES.join(', ')})`);
  return make(cc, rules, options.valve === true);
}
