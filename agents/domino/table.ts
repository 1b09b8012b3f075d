import { apply, legalActions, view, type DominoAction, type DominoState } from '../../engine/domino/game.js';
import type { RngState } from '../../engine/rng.js';
import type { DominoAgent } from './agent.js';

/**
 * Plays a Mexican Train game to its end: the seat to move is asked for its action through its
 * view only. `onAction` sees every action applied. Returns the number of actions applied.
 */
export function playDominoOut(state: DominoState, agents: readonly DominoAgent[], rng: RngState, onAction?: (a: DominoAction, s: DominoState) => void): number {
  let applied = 0;
  while (state.phase === 'play') {
    const seat = state.turn;
    const action = agents[seat].act({ seat, view: () => view(state, seat), legal: () => legalActions(state, seat), rng });
    apply(state, action);
    applied++;
    onAction?.(action, state);
  }
  return applied;
}
