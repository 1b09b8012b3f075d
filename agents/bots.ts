import { TilemateError } from '../engine/errors.js';
import type { Game, GameSpec } from '../engine/games.js';
import type { MahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import type { MexicanTrainGame } from '../engine/domino/mexican-train.js';
import { seedRng, type RngState } from '../engine/rng.js';
import type { Agent } from './agent.js';
import { DOMINO_AGENT_NAMES, makeDominoAgent } from './domino/levels.js';
import { AGENT_NAMES, makeAgent } from './mah-jongg/levels.js';

/**
 * The bots of every game, by name (agents/mah-jongg/levels.ts for Mah Jongg, agents/domino/levels.ts for
 * Mexican Train): what the arena, the live tables and the command line seat.
 */

/**
 * The bots that think long (they play deals out at every decision): the server plays their
 * turns in its worker pool, off the event loop.
 */
const THINK_LONG: Readonly<Record<string, readonly string[]>> = { 'mah-jongg': ['expert', 'montecarlo'], 'mexican-train': ['montecarlo'] };
export const thinksLong = (type: { name: string }, bot: string): boolean => THINK_LONG[type.name]?.includes(bot) ?? false;

/** The bots' names for a game type. */
export function botNames(gameType: string): readonly string[] {
  return gameType === 'mexican-train' ? DOMINO_AGENT_NAMES : AGENT_NAMES;
}

/**
 * A bot by name for this game; an unknown name is TM_BAD_INPUT naming the choices. `valve`:
 * with the clock's safety valve, for play against a person (agents/mah-jongg/levels.ts VALVE_MS).
 */
export function makeBot<G extends GameSpec>(game: Game<G>, name: string, options: { valve?: boolean } = {}): Agent<G> {
  if (game.type.name === 'mexican-train') return makeDominoAgent(name, (game as unknown as MexicanTrainGame).rules.name) as unknown as Agent<G>;
  const g = game as unknown as MahJonggGame;
  return makeAgent(name, g.cc, g.rules, options) as unknown as Agent<G>;
}

/**
 * Bots for `seats` seats from a list of names: one name for every seat, one per seat, or a
 * shorter list repeated round the table ("greedy,random" at four seats: g r g r). Unknown
 * names are refused before any game starts.
 */
export function seatBots<G extends GameSpec>(game: Game<G>, spec: string, seats: number, option = '--bots'): { names: string[]; agents: Agent<G>[] } {
  const given = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (given.length === 0 || given.length > seats)
    throw new TilemateError(
      'TM_BAD_INPUT',
      `${option} lists ${given.length} bots for ${seats} seat${seats === 1 ? '' : 's'} (give one name, one per seat, or a shorter list to repeat round the table)`,
    );
  const names = Array.from({ length: seats }, (_, s) => given[s % given.length]);
  return { names, agents: names.map((name) => makeBot(game, name)) };
}

/**
 * The bots' random stream for a game: seeded from the game seed, so a game is repeatable,
 * but not the same stream as the shuffle's (that would tie the bots' choices to the deal).
 */
export const botRng = (seed: number): RngState => seedRng((seed ^ 0x5bd1e995) >>> 0);
