import { TilemateError } from '../errors.js';

/**
 * Mexican Train rulesets as data (docs/mexican-train.md has every reading, rule by rule,
 * with its source line). The engine reads these fields and never branches on a name.
 */
export interface DominoRuleset {
  name: string;
  description: string;
  minPlayers: number;
  maxPlayers: number;
  /** Tiles dealt to each player, by player count (index = players). */
  handSize: readonly number[];
  /** The engine double of each round of a game, in order: the game has this many rounds. */
  engines: readonly number[];
  /**
   * true: the engine double is taken from the set and set in the station before the deal
   * (senior games: "Find the double 12 and place it in the Station Holder").
   * false: the player holding it plays it after the deal; if no one holds it, players draw
   * one at a time until it is drawn (district rules, Beginning the Game).
   */
  engineSetAside: boolean;
  /**
   * The player who plays a double plays again. 'same-turn': that play must cover the double
   * (senior games); 'free-turn': any play, as a normal turn (district rules; the engine
   * double played from a hand earns this extra turn too).
   */
  doublerCovers: 'same-turn' | 'free-turn';
  tournament: { tableRounds: number; championshipRounds: number; advancePerTable: number; places: number } | null;
  /** Sources cited by docs/mexican-train.md for the deal table. */
  source: string;
}

// The common table for counts a document leaves open: 2-4 players 15, 5-6 players 12, 7-8 players 10.
const COMMON = [0, 0, 15, 15, 15, 12, 12, 10, 10];

export const SUN_LAKES: DominoRuleset = {
  name: 'sun-lakes',
  description: 'Mexican Train as the Sun Lakes senior games event plays it: double-12 engine in the station, rounds 12 down to 7, a double is covered in the same turn',
  minPlayers: 2,
  maxPlayers: 8,
  // senior games, Rules of Play: "1-5 = 12 tiles, 6-10 - 10 tiles"
  handSize: [0, 0, 12, 12, 12, 12, 10, 10, 10],
  // senior games: six rounds per game; the engine descends from the double 12 round by round
  engines: [12, 11, 10, 9, 8, 7],
  engineSetAside: true,
  // senior games: "If you play a double, you need to play a second tile that matches"
  doublerCovers: 'same-turn',
  // senior games, Winning: 6 rounds per table, lowest at each table to a 6-round championship, totals added, 2 places
  tournament: { tableRounds: 6, championshipRounds: 6, advancePerTable: 1, places: 2 },
  source: 'senior-games-mexican-train-and-mah-jongg.txt',
};

export const DISTRICT: DominoRuleset = {
  name: 'district',
  description: 'Mexican Train by the district senior games rules: double-5 engine played from a hand, rounds 5 down to the double blank, a double earns a free extra turn',
  minPlayers: 2,
  maxPlayers: 8,
  // district rules: "For 4 players, draw 15 dominoes. For 5 players, draw 12"; the rest from the common table
  handSize: COMMON.map((n, p) => (p === 4 ? 15 : p === 5 ? 12 : n)),
  // district rules: begins with the double 5; "If that round began with the double blank, the game ends"
  engines: [5, 4, 3, 2, 1, 0],
  engineSetAside: false,
  // district rules, Playing Doubles: "This additional turn follows exactly the same rules as any normal turn"
  doublerCovers: 'free-turn',
  tournament: null,
  source: 'mexican-train-district-rules.txt',
};

export const DOMINO_RULESETS: Record<string, DominoRuleset> = { 'sun-lakes': SUN_LAKES, district: DISTRICT };

export function loadDominoRuleset(name: string): DominoRuleset {
  // own keys only: "toString" or "__proto__" must not find Object.prototype
  const r = typeof name === 'string' && Object.hasOwn(DOMINO_RULESETS, name) ? DOMINO_RULESETS[name] : undefined;
  if (!r) throw new TilemateError('TM_BAD_INPUT', `no Mexican Train ruleset "${name}"; choose ${Object.keys(DOMINO_RULESETS).join(' or ')}`);
  return r;
}

export function checkPlayers(rules: DominoRuleset, players: number): void {
  if (!Number.isInteger(players) || players < rules.minPlayers || players > rules.maxPlayers) {
    throw new TilemateError('TM_BAD_INPUT', `${rules.name} is played by ${rules.minPlayers} to ${rules.maxPlayers} players, not ${String(players)}`);
  }
}
