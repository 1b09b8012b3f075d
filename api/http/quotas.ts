import { TilemateError } from '../../engine/errors.js';
import { DEFAULT_LIMITS } from '../shared/limits.js';

/**
 * Who may open a new live game, the same for both games' tables: a table holds at most
 * `maxGames`, one address at most `perAddress` unfinished games, and a game untouched for
 * `idleMs` is dropped (so an abandoned game frees its place in minutes). When the table is
 * full, a finished game (already saved, only waiting to be read) makes room; an unfinished
 * game of someone else is never evicted: the new game is refused instead.
 */

export interface TableLimits {
  maxGames: number;
  perAddress: number;
  idleMs: number;
}

export const DEFAULT_TABLE_LIMITS: TableLimits = { maxGames: DEFAULT_LIMITS.maxGames, perAddress: DEFAULT_LIMITS.gamesPerAddress, idleMs: DEFAULT_LIMITS.idleMs };

/** What the admission needs to know of a live game. */
export interface Seated {
  /** The address that created it. */
  readonly owner: string;
  /** When it was last opened (ms). */
  touched: number;
}

/**
 * Refuses with TM_TOO_MANY_GAMES, changing nothing, when `owner` could not open one more game
 * now (she has her share, or the table is full of games in progress): asked before any work
 * is done for a new game (a saved card compiled).
 */
export function checkRoom<G extends Seated>(games: ReadonlyMap<string, G>, owner: string, limits: TableLimits, now: number, finished: (g: G) => boolean): void {
  let mine = 0,
    done = 0;
  for (const g of games.values()) {
    if (finished(g) || now - g.touched > limits.idleMs)
      done++; // a finished or idle game makes room
    else if (g.owner === owner) mine++;
  }
  if (mine >= limits.perAddress) {
    throw new TilemateError('TM_TOO_MANY_GAMES', `this address already has ${mine} games in progress, the most one address may play at once; finish one first`);
  }
  if (games.size >= limits.maxGames && done === 0) throw new TilemateError('TM_TOO_MANY_GAMES', `the server holds ${limits.maxGames} live games, its limit; try again in a few minutes`);
}

/**
 * Makes room for one more game of `owner` in `games`, or refuses with TM_TOO_MANY_GAMES.
 * `finished` says which games are over; `drop` removes one (the table's own clean-up).
 */
export function admit<G extends Seated>(games: ReadonlyMap<string, G>, owner: string, limits: TableLimits, now: number, finished: (g: G) => boolean, drop: (id: string) => void): void {
  for (const [id, g] of games) if (now - g.touched > limits.idleMs) drop(id);
  let mine = 0;
  for (const g of games.values()) if (g.owner === owner && !finished(g)) mine++;
  if (mine >= limits.perAddress) {
    throw new TilemateError('TM_TOO_MANY_GAMES', `this address already has ${mine} games in progress, the most one address may play at once; finish one first`);
  }
  if (games.size < limits.maxGames) return;
  let oldest: [string, G] | null = null;
  for (const entry of games) if (finished(entry[1]) && (oldest === null || entry[1].touched < oldest[1].touched)) oldest = entry;
  if (oldest === null) throw new TilemateError('TM_TOO_MANY_GAMES', `the server holds ${limits.maxGames} live games, its limit; try again in a few minutes`);
  drop(oldest[0]);
}
