import type { Action, SeatView } from '../engine/game.js';
import type { RngState } from '../engine/rng.js';

/**
 * A player at the table. It sees what a person in its seat would see (the seat's view)
 * and chooses among the legal actions, which it asks for only when it needs the full list
 * (the Charleston has hundreds of ways to choose three tiles).
 */
export interface Agent {
  readonly name: string;
  act(view: SeatView, legal: () => Action[], rng: RngState): Action;
}
