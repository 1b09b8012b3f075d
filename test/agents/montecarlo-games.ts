import type { Turn } from '../../agents/agent.js';
import { HeuristicAgent } from '../../agents/mah-jongg/heuristic.js';
import { playOut } from '../../agents/table.js';
import { loadCard } from '../../io/cards.js';
import { cloneState, legalActions, newGame, view, waitingOn, type GameState } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';

/**
 * The Monte Carlo tests' games (test/agents/montecarlo.test.ts, unit; montecarlo.slow.test.ts,
 * slow): a game stopped some way in, and at each Charleston step.
 */

export const cc = loadCard();
export const rules = RULESETS['nmjl-4p-tournament'];

/** A live game stopped at a seat's own turn with a full hand, some way in. */
export function midGame(seed: number): GameState {
  const state = newGame(rules, cc, seed);
  const agents = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
  let stop: GameState | null = null;
  try {
    playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed), (_a, s) => {
      if (stop === null && s.phase.kind === 'discard' && s.discardCount >= 12) {
        stop = cloneState(s);
        throw new Error('stop');
      }
    });
  } catch (err) {
    if ((err as Error).message !== 'stop') throw err;
  }
  if (stop === null) throw new Error('the game ended too soon for this test');
  return stop;
}

export const turnOf = (s: GameState, seed = 3): Turn => {
  const seat = waitingOn(s)[0];
  return { seat, phase: s.phase.kind, view: () => view(s, seat), legal: () => legalActions(s, seat), rng: seedRng(seed) };
};

/** A game stopped at each Charleston step as the medium bots play it (East choosing first, then the others): the state before each seat's choice. */
export function charlestonSteps(seed: number): GameState[] {
  const state = newGame(rules, cc, seed);
  const agents = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
  const steps: GameState[] = [];
  try {
    playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed), (_a, s) => {
      const k = s.phase.kind;
      if (k === 'charleston' || k === 'vote' || k === 'courtesy') steps.push(cloneState(s));
      else if (k === 'discard' || k === 'draw') throw new Error('stop');
    });
  } catch (err) {
    if ((err as Error).message !== 'stop') throw err;
  }
  return steps;
}
