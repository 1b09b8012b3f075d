import type { GameSpec } from '../engine/games.js';
import type { MahJonggSpec } from '../engine/mah-jongg/mah-jongg.js';
import type { RngState } from '../engine/rng.js';

/**
 * One decision for one seat, in any game. The agent sees what a person in that seat would
 * see (the view) and chooses among the legal actions; both are built only when asked for,
 * since a random player needs neither most of the time and the Charleston has hundreds of
 * ways to choose three tiles. Mah Jongg is the default game of these types.
 */
export interface Turn<G extends GameSpec = MahJonggSpec> {
  readonly seat: number;
  /** The step of the game (public): a Charleston pass, a vote, a discard, a play... */
  readonly phase: G['phase'];
  view(): G['view'];
  legal(): G['action'][];
  /** The agent's own random stream (never the game's). */
  readonly rng: RngState;
}

/** A player at the table. */
export interface Agent<G extends GameSpec = MahJonggSpec> {
  readonly name: string;
  act(turn: Turn<G>): G['action'];
}
