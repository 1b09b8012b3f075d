import { TilemateError } from '../../engine/errors.js';
import { loadDominoRuleset } from '../../engine/domino/rulesets.js';
import { GreedyDominoAgent } from './greedy.js';
import { MonteCarloDominoAgent } from './montecarlo.js';
import { RandomDominoAgent } from './random.js';
import type { Agent } from '../agent.js';
import type { MexicanTrainSpec } from '../../engine/domino/mexican-train.js';

/** Mexican Train bots by name. */
const MAKERS: Record<string, (ruleset: string) => Agent<MexicanTrainSpec>> = {
  random: () => new RandomDominoAgent(),
  greedy: (ruleset) => new GreedyDominoAgent(loadDominoRuleset(ruleset).doublerCovers),
  montecarlo: (ruleset) => new MonteCarloDominoAgent(ruleset),
};

export const DOMINO_AGENT_NAMES = Object.keys(MAKERS);

export function makeDominoAgent(name: string, ruleset: string): Agent<MexicanTrainSpec> {
  const make = Object.hasOwn(MAKERS, name) ? MAKERS[name] : undefined;
  if (!make) throw new TilemateError('TM_BAD_INPUT', `unknown Mexican Train bot "${name}" (expected one of ${DOMINO_AGENT_NAMES.join(', ')})`);
  return make(ruleset);
}
