import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import type { Agent } from '../agent.js';
import { GreedyAgent } from './greedy.js';
import { defaultModel, DEFAULT_MODEL_FILE } from './default-model.js';
import { EASY_HABITS, HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { LearnedAgent } from './learned.js';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from './lookahead.js';
import { RandomAgent } from './random.js';
import { HARD_BUDGET, MonteCarloAgent } from './montecarlo.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';

/**
 * Agents by level (for people) or by name (for measuring): `easy` is the heuristic with a
 * beginner's habits, `medium` the heuristic, `hard` the Monte Carlo player, `expert` the
 * trained value model's policy with a short lookahead search (refused when the model is not
 * installed); `random` and `greedy` are the floors; `strong` is the heuristic with the
 * searching players' habits, and `learned` the trained model's policy alone (agents/mah-jongg/learned.ts).
 * Bots only studies play (measuring variants of these) live in lab/bots/, registered from
 * there (registerAgents below); nothing here imports lab/.
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
  learned: (cc) => new LearnedAgent(cc, defaultModel(), {}, 'learned'),
  montecarlo: (cc, rules) => new MonteCarloAgent(cc, rules, HARD_BUDGET, 'montecarlo'),
  hard: (cc, rules, valve) => new MonteCarloAgent(cc, rules, valve ? { ...HARD_BUDGET, ms: VALVE_MS.hard } : HARD_BUDGET, 'hard'),
  // the trained model's policy with a short search. Without the model there is no expert: a
  // stand-in under its name would tell the player, the records and the arenas that they met
  // a bot they never met, so the level is refused and the player chooses another.
  expert: (cc, rules, valve) => {
    const model = defaultModel();
    if (model === null) {
      throw new TilemateError(
        'TM_BAD_INPUT',
        `the expert bot needs the trained model (${DEFAULT_MODEL_FILE}), which is missing or cannot be read; choose hard (the Monte Carlo player) or install the model`,
      );
    }
    return new LookaheadAgent(cc, rules, model, valve ? { ...EXPERT_LOOKAHEAD, ms: VALVE_MS.expert } : EXPERT_LOOKAHEAD, 'expert');
  },
};

/** A bot's maker: the card, the ruleset, and whether the clock's safety valve is on (VALVE_MS). */
export type AgentMaker = (cc: CompiledCard, rules: Ruleset, valve: boolean) => Agent;

/** The bots the product offers (the command line's and the server's choices), in order. */
export const AGENT_NAMES: readonly string[] = Object.keys(MAKERS);

/**
 * Bots registered beside the product's by a module that measures (lab/bots/registry.ts):
 * never listed in a command's help or the server's levels, and known only in a process (or a
 * worker thread) that imported that module. `modules` is each registering module's URL, so
 * an arena's worker threads import them too (training/run-arena.ts).
 */
const EXTRA: Record<string, AgentMaker> = {};
const EXTRA_MODULES: string[] = [];

/** Registers more bots by name (from `module`, its import.meta.url); a product bot's name is refused. */
export function registerAgents(module: string, makers: Readonly<Record<string, AgentMaker>>): void {
  for (const [name, make] of Object.entries(makers)) {
    if (Object.hasOwn(MAKERS, name)) throw new Error(`bot "${name}" is one of the product's; give the registered bot another name`);
    EXTRA[name] = make;
  }
  if (!EXTRA_MODULES.includes(module)) EXTRA_MODULES.push(module);
}

/** The modules that registered bots in this thread (an arena's workers import them). */
export const registeredAgentModules = (): readonly string[] => [...EXTRA_MODULES];

/** Every bot this process knows: the product's, then any registered (registerAgents). */
export const knownAgentNames = (): readonly string[] => [...AGENT_NAMES, ...Object.keys(EXTRA)];

/** A bot by name; `valve`: with the clock's safety valve, for play against a person (VALVE_MS). */
export function makeAgent(name: string, cc: CompiledCard, rules: Ruleset, options: { valve?: boolean } = {}): Agent {
  const make = Object.hasOwn(MAKERS, name) ? MAKERS[name] : Object.hasOwn(EXTRA, name) ? EXTRA[name] : undefined;
  if (!make) throw new TilemateError('TM_BAD_INPUT', `unknown bot "${name}" (expected one of ${knownAgentNames().join(', ')})`);
  return make(cc, rules, options.valve === true);
}
