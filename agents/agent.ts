import type { Action, Phase, SeatView } from '../engine/game.js';
import type { RngState } from '../engine/rng.js';

/**
 * One decision for one seat. The agent sees what a person in that seat would see (the
 * view) and chooses among the legal actions; both are built only when asked for, since a
 * random player needs neither most of the time and the Charleston has hundreds of ways to
 * choose three tiles.
 */
export interface Turn {
  readonly seat: number;
  /** The step of the game (public): Charleston pass, vote, courtesy, draw, discard, claims. */
  readonly phase: Phase['kind'];
  view(): SeatView;
  legal(): Action[];
  /** The agent's own random stream (never the game's). */
  readonly rng: RngState;
}

/** A player at the table. */
export interface Agent {
  readonly name: string;
  act(turn: Turn): Action;
}
