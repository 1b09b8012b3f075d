import type { DominoAction, DominoView } from '../../engine/domino/game.js';
import type { RngState } from '../../engine/rng.js';

/** One Mexican Train decision for one seat: the seat's view and the legal actions, built when asked for. */
export interface DominoTurn {
  readonly seat: number;
  view(): DominoView;
  legal(): DominoAction[];
  /** The agent's own random stream (never the game's). */
  readonly rng: RngState;
}

export interface DominoAgent {
  readonly name: string;
  act(turn: DominoTurn): DominoAction;
}
