import type { Agent } from '../../agents/agent.js';
import { apply, legalActions, view, waitingOn, type Action, type GameState } from '../../engine/game.js';
import type { RngState } from '../../engine/rng.js';
import type { TileId } from '../../engine/tiles.js';

/**
 * The person's draw or decline when it is the only thing she can do: nobody asks a person
 * for those (the terminal game and the server make them for her).
 */
export function forcedChoice(state: GameState, seat: number): Action | null {
  const legal = legalActions(state, seat);
  return legal.length === 1 && (legal[0].type === 'draw' || legal[0].type === 'decline') ? legal[0] : null;
}

/**
 * Lets the bots act until the game waits on the person or ends, in the order of
 * agents/table.ts (the lowest seat the state waits on acts first); the person's forced draw
 * or decline is made for her when `auto`. `onAction` sees each action applied, with the
 * tile drawn for a draw (null otherwise). Shared by the terminal game and the server.
 */
export function runBots(
  state: GameState, agents: readonly (Agent | null)[], rng: RngState, person: number,
  onAction: (action: Action, drew: TileId | null) => void, auto = true,
): void {
  while (state.phase.kind !== 'ended') {
    const seat = waitingOn(state)[0];
    if (seat === undefined) throw new Error('rule violation: nobody to act in a live game');
    let action: Action;
    if (seat === person) {
      const forced = auto ? forcedChoice(state, seat) : null;
      if (forced === null) return;
      action = forced;
    } else {
      const agent = agents[seat];
      if (!agent) throw new Error(`rule violation: no bot in seat ${seat}`);
      action = agent.act({ seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng });
    }
    const drawAt = state.wallPos;
    apply(state, action);
    onAction(action, action.type === 'draw' ? state.wall[drawAt] : null);
  }
}
