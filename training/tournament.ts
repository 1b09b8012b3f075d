import type { Agent } from '../agents/agent.js';
import { makeAgent } from '../agents/levels.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/compile.js';
import { TilemateError } from '../engine/errors.js';
import { newGame, type Action, type GameState } from '../engine/game.js';
import { addGame, matchSeating, ROUND_GAMES, roundTables, standings, TABLE_SEATS, type Standing } from '../engine/match.js';
import { seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/rulesets.js';

/**
 * A match and the Mah Jongg tournament, played by bots (engine/match.ts keeps the books).
 * Every game is an ordinary game from its own seed, so `onGame` can write it as a record that
 * `tilemate replay` checks like any other.
 */

/** One game of a match or tournament: who sat where (players by seat, East first), its seed and scores by seat. */
export interface PlayedGame {
  seed: number;
  seating: number[];
  scores: number[];
  winners: number[];
  wallGame: boolean;
}

export type OnGame = (game: PlayedGame, state: GameState, actions: Action[], seatNames: string[]) => void;

/** The seed of game `game` of a match (or table round) seeded `seed`: distinct, deterministic. */
const gameSeed = (seed: number, game: number): number => (seed + game * 7919) >>> 0;

function playGame(rules: Ruleset, cc: CompiledCard, seed: number, seating: number[], bots: string[], onGame?: OnGame): PlayedGame {
  const state = newGame(rules, cc, seed);
  // fresh bots every game: no game depends on the ones before it
  const agents: Agent[] = seating.map((player) => makeAgent(bots[player], cc, rules));
  const actions: Action[] = [];
  playOut(state, agents, seedRng((seed ^ 0x9e3779b9) >>> 0), (a) => actions.push(a));
  const r = state.result!;
  const game = { seed, seating, scores: [...r.scores], winners: r.winners.map((s) => seating[s]), wallGame: r.wallGame };
  onGame?.(game, state, actions, seating.map((p) => bots[p]));
  return game;
}

export interface MatchResult {
  games: PlayedGame[];
  /** Totals by player after each game. */
  running: number[][];
  totals: number[];
}

/**
 * A match of `games` games at one table, the dealer passing to the right after each (teaching
 * guide 7.2). `bots[p]` plays player p, who sits at seat p in the first game.
 */
export function playMatch(rules: Ruleset, cc: CompiledCard, bots: string[], games: number, seed: number, onGame?: OnGame): MatchResult {
  if (bots.length !== rules.players) throw new TilemateError('TM_BAD_INPUT', `${bots.length} players for a ${rules.players}-player ruleset`);
  if (!Number.isInteger(games) || games < 1) throw new TilemateError('TM_BAD_INPUT', 'a match is 1 game or more');
  let totals = new Array<number>(rules.players).fill(0);
  const played: PlayedGame[] = [];
  const running: number[][] = [];
  for (let g = 0; g < games; g++) {
    const seating = matchSeating(rules.players, g);
    const game = playGame(rules, cc, gameSeed(seed, g), seating, bots, onGame);
    totals = addGame(totals, seating, game.scores);
    played.push(game);
    running.push(totals);
  }
  return { games: played, running, totals };
}

export interface TournamentTable { round: number; table: number; players: number[]; games: PlayedGame[]; totals: number[] }

export interface TournamentResult {
  players: string[];
  tables: TournamentTable[];
  standings: Standing[];
}

/**
 * The Mah Jongg tournament (tournament 3, 20, 21; senior games): `tables` tables of four play
 * `rounds` rounds of four games, East rotating within a round, the players moving between
 * rounds; every game's points are added. Player p is `bots[p % bots.length]`.
 */
export function playTournament(rules: Ruleset, cc: CompiledCard, spec: { tables: number; rounds: number; bots: string[]; seed: number }, onGame?: OnGame): TournamentResult {
  if (rules.players !== TABLE_SEATS || rules.racks !== 1) throw new TilemateError('TM_BAD_INPUT', `the tournament is played at tables of ${TABLE_SEATS} (${rules.name} seats ${rules.players})`);
  if (!Number.isInteger(spec.tables) || spec.tables < 1 || spec.tables > 64) throw new TilemateError('TM_BAD_INPUT', 'a tournament of 1 to 64 tables');
  if (!Number.isInteger(spec.rounds) || spec.rounds < 1 || spec.rounds > 16) throw new TilemateError('TM_BAD_INPUT', 'a tournament of 1 to 16 rounds');
  const n = spec.tables * TABLE_SEATS;
  const players = Array.from({ length: n }, (_, p) => `p${p + 1} ${spec.bots[p % spec.bots.length]}`);
  const bots = Array.from({ length: n }, (_, p) => spec.bots[p % spec.bots.length]);
  const totals = new Array<number>(n).fill(0);
  const gamesPlayed = new Array<number>(n).fill(0);
  const tables: TournamentTable[] = [];
  for (let round = 0; round < spec.rounds; round++) {
    roundTables(spec.tables, round).forEach((letters, t) => {
      const seed = (spec.seed + round * 104729 + t * 1299709) >>> 0;
      // seat letters A-D (0-3) to the tournament's players
      const global = (g: PlayedGame): PlayedGame => ({ ...g, seating: g.seating.map((k) => letters[k]), winners: g.winners.map((k) => letters[k]) });
      // the four play a match of one round: each East once, the deal passing to the right
      const m = playMatch(rules, cc, letters.map((p) => bots[p]), ROUND_GAMES, seed, onGame && ((g, s, a, names) => onGame(global(g), s, a, names)));
      const games = m.games.map(global);
      for (const g of games) g.seating.forEach((p, seat) => { totals[p] += g.scores[seat]; gamesPlayed[p]++; });
      tables.push({ round, table: t, players: letters, games, totals: m.totals });
    });
  }
  return { players, tables, standings: standings(totals, gamesPlayed) };
}
