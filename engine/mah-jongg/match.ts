import { TilemateError } from '../errors.js';
import { nextInt, seedRng } from '../rng.js';

/**
 * Several games in a row, kept as pure bookkeeping over finished games' scores (each game an
 * ordinary `newGame`, so each replays from its seed and actions on its own).
 *
 * A match: "The next 'dealer' is the player to the right of the previous dealer" (teaching
 * guide 7.2). Players keep their places at the table; seat numbers count from East, so in
 * game g player p sits at seat (p - g) mod n and player g mod n is East.
 *
 * The tournament (standardized tournament rules 3, 20, 21; senior games: "multiple tables",
 * "the host is in the East seat"): tables of four; a round is four games at one table, East
 * rotating to the right so that each player is East once ("each player rotates roll of dice
 * and breaking of wall", 3); after a round, the players move (20): the "A" (East) seat up 1
 * table, "B" down 1, "C" up 2, "D" down 2, each keeping her letter; totals are every game's
 * tournament points added, and the standings rank them highest first.
 */

/** The players (0..n-1) in seat order, East first, for game `game` (0-based) of a match. */
export function matchSeating(players: number, game: number): number[] {
  if (!Number.isInteger(players) || players < 2) throw new TilemateError('TM_BAD_INPUT', `a match of ${players} players`);
  return Array.from({ length: players }, (_, seat) => (seat + game) % players);
}

/** Adds one game's scores (by seat) to the running totals (by player), given the game's seating. */
export function addGame(totals: readonly number[], seating: readonly number[], scores: readonly number[]): number[] {
  if (seating.length !== totals.length || scores.length !== totals.length) throw new TilemateError('TM_BAD_INPUT', 'one seat and one score per player');
  const next = [...totals];
  seating.forEach((player, seat) => {
    next[player] += scores[seat];
  });
  return next;
}

/** Games in a tournament round, and players at a table (tournament 20: "after four (4) games (a round)"). */
export const ROUND_GAMES = 4;
export const TABLE_SEATS = 4;
/** Tables moved after a round by the seat letters A, B, C, D (tournament 20). */
export const TABLE_MOVES = [1, -1, 2, -2];

/**
 * Who sits where in each round: `tables[t][k]` is the player in seat letter k (A-D) of table t,
 * or -1 for an empty seat. Round 0 fills the tables in player order (the senior games' random
 * slots are the caller's shuffle), leaving the D seat of the last tables empty when the players
 * do not fill every table (tournament 3.1: tables of three); each later round applies the moves
 * of tournament 20, round the tables, so the empty D seats move down 2 tables together.
 */
export function roundTables(tables: number, round: number, players = tables * TABLE_SEATS): number[][] {
  if (!Number.isInteger(tables) || tables < 1) throw new TilemateError('TM_BAD_INPUT', `a tournament of ${tables} tables`);
  if (!Number.isInteger(players) || players < tables * (TABLE_SEATS - 1) || players > tables * TABLE_SEATS) {
    throw new TilemateError('TM_BAD_INPUT', `${players} players cannot sit at ${tables} tables of 3 or 4`);
  }
  const empty = tables * TABLE_SEATS - players; // D seats left empty, on the last tables
  let next = 0;
  const out = Array.from({ length: tables }, (_, t) => Array.from({ length: TABLE_SEATS }, (_, k) => (k === TABLE_SEATS - 1 && t >= tables - empty ? -1 : next++)));
  for (let r = 0; r < round; r++) {
    const moved = out.map((row) => [...row]);
    out.forEach((row, t) =>
      row.forEach((player, k) => {
        moved[(((t + TABLE_MOVES[k]) % tables) + tables) % tables][k] = player;
      }),
    );
    out.splice(0, out.length, ...moved);
  }
  return out;
}

/**
 * Tournament 3.1: at a table of three, "on the fourth (4th)- and-last-game in the round, each
 * player at the table will roll the dice once again to determine who is EAST": two dice each,
 * the highest is East, those tied for highest roll again. Returns the table position (0-based).
 */
export function rollForEast(seed: number, players: number): number {
  const rng = seedRng(seed);
  let rolling = Array.from({ length: players }, (_, p) => p);
  for (;;) {
    const rolls = rolling.map(() => 2 + nextInt(rng, 6) + nextInt(rng, 6));
    const best = Math.max(...rolls);
    rolling = rolling.filter((_, i) => rolls[i] === best);
    if (rolling.length === 1) return rolling[0];
  }
}

export interface Standing {
  player: number;
  total: number;
  games: number;
}

/**
 * The standings: each player's total over every game played, highest first. A tie keeps the
 * lower player number first (a reading: the documents give no tie-break).
 */
export function standings(totals: readonly number[], games: readonly number[]): Standing[] {
  return totals.map((total, player) => ({ player, total, games: games[player] })).sort((a, b) => b.total - a.total || a.player - b.player);
}
