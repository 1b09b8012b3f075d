import { apply, legalActions, view, waitingOn, type Action, type GameState } from '../engine/game.js';
import type { RngState } from '../engine/rng.js';
import type { Agent } from './agent.js';

/**
 * Plays a game to its end: each seat the state waits on is asked, in seat order, for its
 * action, through its view only. `onAction` sees every action applied (records, invariant
 * checks). Returns the number of actions applied.
 */
export function playOut(state: GameState, agents: readonly Agent[], rng: RngState, onAction?: (a: Action, s: GameState) => void): number {
  let applied = 0;
  while (state.phase.kind !== 'ended') {
    const seat = waitingOn(state)[0];
    if (seat === undefined) throw new Error('rule violation: nobody to act in a live game');
    const action = agents[seat].act({ seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng });
    apply(state, action);
    applied++;
    onAction?.(action, state);
  }
  return applied;
}
