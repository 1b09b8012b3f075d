import { apply, legalActions, nextToAct, view, type Action, type GameState, type Phase, type SeatView } from '../engine/game.js';
import type { RngState } from '../engine/rng.js';
import type { Agent, Turn } from './agent.js';

/**
 * A seat's turn at a table in play, one per seat for a whole game: its phase is set before
 * each ask, and the view and the legal actions are worked out only when the agent asks.
 * Game loops make nothing per action (an agent keeps no turn past its `act`).
 */
export class TableTurn implements Turn {
  phase: Phase['kind'] = 'charleston';
  constructor(private readonly state: GameState, readonly seat: number, readonly rng: RngState) {}

  // own properties, not methods: a turn copied with a spread ({ ...turn, rng }) keeps them
  readonly view = (): SeatView => view(this.state, this.seat);
  readonly legal = (): Action[] => legalActions(this.state, this.seat);
}

/** One turn per seat of the state's table (see TableTurn). */
export function tableTurns(state: GameState, rng: RngState): TableTurn[] {
  return Array.from({ length: state.players.length }, (_, seat) => new TableTurn(state, seat, rng));
}

/**
 * Plays a game to its end: each seat the state waits on is asked, in seat order, for its
 * action, through its view only. `onAction` sees every action applied (records, invariant
 * checks). Returns the number of actions applied.
 */
export function playOut(state: GameState, agents: readonly Agent[], rng: RngState, onAction?: (a: Action, s: GameState) => void): number {
  let applied = 0;
  const turns = tableTurns(state, rng);
  while (state.phase.kind !== 'ended') {
    const seat = nextToAct(state);
    if (seat < 0) throw new Error('rule violation: nobody to act in a live game');
    const turn = turns[seat];
    turn.phase = state.phase.kind;
    const action = agents[seat].act(turn);
    apply(state, action);
    applied++;
    onAction?.(action, state);
  }
  return applied;
}
