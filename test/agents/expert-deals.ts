import type { Turn } from '../../agents/agent.js';
import { defaultModel } from '../../agents/mah-jongg/default-model.js';
import type { ExpertBudget } from '../../agents/mah-jongg/expert.js';
import type { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { tableTurns } from '../../agents/table.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { loadCard } from '../../io/cards.js';

/** What test/agents/expert.test.ts and expert.slow.test.ts share: the practice card's game, the model, tiny budgets, and a deal's decisions. */

export const cc = loadCard();
export const rules = loadRuleset('nmjl-4p');
export const game = mahJonggGame(rules, cc);
export const model = defaultModel()!;
/** Tiny budgets: the wiring, not the strength (lab/paired-study.ts measures that). */
export const tiny: ExpertBudget = { candidates: 3, charlestonCandidates: 2, worlds: 2 };

/** Seat 0's decisions in deal `seed` with the policy's best few to weigh (medium plays every seat to get there). */
export function* decisions(seed: number, policy: LearnedAgent, phases: readonly string[]): Generator<Turn> {
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
