import { MEXICAN_TRAIN } from './domino/mexican-train.js';
import { TilemateError } from './errors.js';
import type { CardSource, Game, GameType } from './games.js';
import { MAH_JONGG } from './mah-jongg/mah-jongg.js';

/** The registry: every game Tilemate plays, found by name (engine/games.ts is the interface). */

/** Every game, by name. */
export const GAMES = {
  [MAH_JONGG.name]: MAH_JONGG,
  [MEXICAN_TRAIN.name]: MEXICAN_TRAIN,
} as Readonly<Record<string, GameType>>;

export const GAME_NAMES = Object.keys(GAMES);

/** A game type by name (own keys only: "constructor" names nothing). */
export function gameType(name: string): GameType {
  if (typeof name !== 'string' || !Object.hasOwn(GAMES, name)) throw new TilemateError('TM_BAD_INPUT', `unknown game ${JSON.stringify(name)} (expected one of ${GAME_NAMES.join(', ')})`);
  return GAMES[name];
}

/** A game by name and parameters: `loadGame('mexican-train', { ruleset: 'sun-lakes', players: 4 })`. */
export function loadGame(name: string, params: Readonly<Record<string, unknown>> = {}, cards?: CardSource): Game {
  return gameType(name).load(params, cards);
}

/** The game type whose records have this format, or undefined. */
export function gameTypeOfRecord(format: unknown): GameType | undefined {
  return Object.values(GAMES).find((t) => t.record.format === format);
}
