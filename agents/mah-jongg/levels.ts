import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import type { Agent } from '../agent.js';
import { GreedyAgent } from './greedy.js';
import { defaultModel, DEFAULT_MODEL_FILE } from './default-model.js';
import { EASY_HABITS, HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { LearnedAgent } from './learned.js';
import { EXPERT_JUDGED, ExpertAgent } from './expert.js';
import { RandomAgent } from './random.js';
import { HARD_BUDGET, MonteCarloAgent } from './montecarlo.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';

/**
 * Agents by level (for people) or by name (for measuring). The levels a player chooses make a
 * ladder, each stronger than the one below and no faster (issue 48, docs/training.md "The
 * ladder"): `easy` the heuristic with a beginner's habits, `medium` the heuristic, `hard` the
 * trained value model's policy (the learned player), `expert` the same policy with each of its
 * choices checked by the coach's one judge against its next best (agents/mah-jongg/expert.ts,
 * issue 61: it switches only where the judge would call the policy's choice a mistake; until
 * issue 61 it was the policy with a short lookahead search, now the lab's `expert-lookahead`,
 * level with hard). Hard and expert need the model and are refused without it. The rest are
 * for measuring: `random` and `greedy` the floors, `heuristic` medium under its old name,
 * `strong` the heuristic with the searching players' habits, `learned` the model's policy
 * under its measuring name (hard's player), and `montecarlo` the Monte Carlo player (hard
 * until issue 48: slower than the learned player and weaker). Bots only studies play
 * (measuring variants of these) live in lab/bots/, registered from there (registerAgents
 * below); nothing here imports lab/.
 */
/**
 * The clock's safety valve for play against a person (milliseconds a decision; see
 * Budget.ms and ExpertBudget.ms): past the work budget, which fits on a quiet machine, a busy
 * one still answers within about this plus one sampled world (montecarlo) or one question to
 * the judge (expert: a question cannot be cut short; on a busy machine one took up to 0.5 s).
 * Never set for measuring (arena, self-play).
 */
export const VALVE_MS = { montecarlo: 150, expert: 300 };

/**
 * The trained model, or a refusal naming the level: without the model there is no hard or
 * expert bot. A stand-in under its name would tell the player, the records and the arenas that
 * they met a bot they never met, so the level is refused and the player chooses another.
 */
function modelFor(level: string) {
  const model = defaultModel();
  if (model === null) {
    throw new TilemateError('TM_BAD_INPUT', `the ${level} bot needs the trained model (${DEFAULT_MODEL_FILE}), which is missing or cannot be read; choose medium or install the model`);
  }
  return model;
}

const MAKERS: Record<string, (cc: CompiledCard, rules: Ruleset, valve: boolean) => Agent> = {
  random: () => new RandomAgent(),
  greedy: (cc) => new GreedyAgent(cc),
  heuristic: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'heuristic'),
  easy: (cc) => new HeuristicAgent(cc, EASY_HABITS, 'easy'),
  medium: (cc) => new HeuristicAgent(cc, MEDIUM_HABITS, 'medium'),
  strong: (cc) => new HeuristicAgent(cc, STRONG_HABITS, 'strong'),
  learned: (cc) => new LearnedAgent(cc, defaultModel(), {}, 'learned'),
  montecarlo: (cc, rules, valve) => new MonteCarloAgent(cc, rules, valve ? { ...HARD_BUDGET, ms: VALVE_MS.montecarlo } : HARD_BUDGET, 'montecarlo'),
  hard: (cc) => new LearnedAgent(cc, modelFor('hard'), {}, 'hard'),
  expert: (cc, rules, valve) => new ExpertAgent(cc, rules, modelFor('expert'), valve ? { ...EXPERT_JUDGED, ms: VALVE_MS.expert } : EXPERT_JUDGED, 'expert'),
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
