import type { Agent } from '../agents/agent.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { TilemateError } from '../engine/errors.js';
import { apply, newGame, type Action, type GameState } from '../engine/mah-jongg/game.js';
import { addGame, matchSeating, rollForEast, ROUND_GAMES, roundTables, standings, TABLE_SEATS, type Standing } from '../engine/mah-jongg/match.js';
import { seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';

/**
 * A match and the Mah Jongg tournament, played by bots (engine/mah-jongg/match.ts keeps the books).
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
  /** Time was called before it ended (tournament 11.4: every player scores zero). */
  unfinished: boolean;
  discards: number;
}

export type OnGame = (game: PlayedGame, state: GameState, actions: Action[], seatNames: string[]) => void;

/** The seed of game `game` of a match (or table round) seeded `seed`: distinct, deterministic. */
const gameSeed = (seed: number, game: number): number => (seed + game * 7919) >>> 0;

/** Plays one game; with `discardsLeft`, time is called (tournament 11.4) once that many discards have been made. */
function playGame(rules: Ruleset, cc: CompiledCard, seed: number, seating: number[], bots: string[], discardsLeft: number, onGame?: OnGame): PlayedGame {
  const state = newGame(rules, cc, seed);
  // fresh bots every game: no game depends on the ones before it
  const agents: Agent[] = seating.map((player) => makeAgent(bots[player], cc, rules));
  const actions: Action[] = [];
  let unfinished = false;
  playOut(mahJonggGame(rules, cc), state, agents, seedRng((seed ^ 0x9e3779b9) >>> 0), (a, s) => {
    actions.push(a);
    if (s.phase.kind !== 'ended' && s.discardCount >= discardsLeft) {
      const time: Action = { type: 'timeUp', seat: 0 };
      apply(s, time);
      actions.push(time);
      unfinished = true;
    }
  });
  const r = state.result!;
  const game = { seed, seating, scores: [...r.scores], winners: r.winners.map((s) => seating[s]), wallGame: r.wallGame, unfinished, discards: state.discardCount };
  onGame?.(
    game,
    state,
    actions,
    seating.map((p) => bots[p]),
  );
  return game;
}

export interface MatchOptions {
  /** Discards the whole match may take before time is called (tournament 11.4, 20: a round's time); none by default. */
  timeLimit?: number;
  /** From this game (0-based) on, East is found by a roll of the dice (tournament 3.1: the fourth game at a table of three). */
  eastByDiceFrom?: number;
}

export interface MatchResult {
  games: PlayedGame[];
  /** Totals by player after each game. */
  running: number[][];
  totals: number[];
}

/**
 * A match of `games` games at one table, the dealer passing to the right after each (teaching
 * guide 7.2). `bots[p]` plays player p, who sits at seat p in the first game. When time runs
 * out the game in play ends unfinished and no further game starts.
 */
export function playMatch(rules: Ruleset, cc: CompiledCard, bots: string[], games: number, seed: number, onGame?: OnGame, options: MatchOptions = {}): MatchResult {
  if (bots.length !== rules.players) throw new TilemateError('TM_BAD_INPUT', `${bots.length} players for a ${rules.players}-player ruleset`);
  if (!Number.isInteger(games) || games < 1) throw new TilemateError('TM_BAD_INPUT', 'a match is 1 game or more');
  let totals = new Array<number>(rules.players).fill(0);
  const played: PlayedGame[] = [];
  const running: number[][] = [];
  let clock = options.timeLimit ?? Infinity;
  for (let g = 0; g < games && clock > 0; g++) {
    const byDice = options.eastByDiceFrom !== undefined && g >= options.eastByDiceFrom;
    const seating = matchSeating(rules.players, byDice ? rollForEast(gameSeed(seed, g) ^ 0x2545f491, rules.players) : g);
    const game = playGame(rules, cc, gameSeed(seed, g), seating, bots, clock, onGame);
    clock -= game.discards;
    totals = addGame(totals, seating, game.scores);
    played.push(game);
    running.push(totals);
  }
  return { games: played, running, totals };
}

export interface TournamentTable {
  round: number;
  table: number;
  players: number[];
  games: PlayedGame[];
  totals: number[];
}

export interface TournamentResult {
  players: string[];
  tables: TournamentTable[];
  standings: Standing[];
}

export interface TournamentSpec {
  tables: number;
  rounds: number;
  bots: string[];
  seed: number;
  /** Players (default 4 a table); fewer leave tables of three, which play `threePlayer` (tournament 3.1). */
  players?: number;
  threePlayer?: Ruleset;
  /** Discards a table's round may take before time is called (tournament 11.4, 20). */
  timeLimit?: number;
}

/**
 * The Mah Jongg tournament (tournament 3, 20, 21; senior games): tables of four (or three)
 * play `rounds` rounds of four games, East rotating within a round (at a table of three the
 * fourth East by the dice, 3.1), the players moving between rounds; every game's points are
 * added. Player p is `bots[p % bots.length]`.
 */
export function playTournament(rules: Ruleset, cc: CompiledCard, spec: TournamentSpec, onGame?: OnGame): TournamentResult {
  if (rules.players !== TABLE_SEATS || rules.racks !== 1) throw new TilemateError('TM_BAD_INPUT', `the tournament is played at tables of ${TABLE_SEATS} (${rules.name} seats ${rules.players})`);
  if (!Number.isInteger(spec.tables) || spec.tables < 1 || spec.tables > 64) throw new TilemateError('TM_BAD_INPUT', 'a tournament of 1 to 64 tables');
  if (!Number.isInteger(spec.rounds) || spec.rounds < 1 || spec.rounds > 16) throw new TilemateError('TM_BAD_INPUT', 'a tournament of 1 to 16 rounds');
  const n = spec.players ?? spec.tables * TABLE_SEATS;
  if (n < spec.tables * TABLE_SEATS && (!spec.threePlayer || spec.threePlayer.players !== TABLE_SEATS - 1 || spec.threePlayer.racks !== 1)) {
    throw new TilemateError('TM_BAD_INPUT', `${n} players leave tables of three: give a 3-player ruleset for them`);
  }
  const players = Array.from({ length: n }, (_, p) => `p${p + 1} ${spec.bots[p % spec.bots.length]}`);
  const bots = Array.from({ length: n }, (_, p) => spec.bots[p % spec.bots.length]);
  const totals = new Array<number>(n).fill(0);
  const gamesPlayed = new Array<number>(n).fill(0);
  const tables: TournamentTable[] = [];
  for (let round = 0; round < spec.rounds; round++) {
    roundTables(spec.tables, round, n).forEach((letters, t) => {
      const seed = (spec.seed + round * 104729 + t * 1299709) >>> 0;
      const seated = letters.filter((p) => p >= 0);
      const three = seated.length < TABLE_SEATS;
      const tableRules = three ? spec.threePlayer! : rules;
      // table positions (seat letters A-D, the empty one left out) to the tournament's players
      const global = (g: PlayedGame): PlayedGame => ({ ...g, seating: g.seating.map((k) => seated[k]), winners: g.winners.map((k) => seated[k]) });
      // the table plays a match of one round: East passing to the right (at a table of three the fourth East by the dice)
      const m = playMatch(
        tableRules,
        cc,
        seated.map((p) => bots[p]),
        ROUND_GAMES,
        seed,
        onGame && ((g, s, a, names) => onGame(global(g), s, a, names)),
        { timeLimit: spec.timeLimit, eastByDiceFrom: three ? TABLE_SEATS - 1 : undefined },
      );
      const games = m.games.map(global);
      for (const g of games)
        g.seating.forEach((p, seat) => {
          totals[p] += g.scores[seat];
          gamesPlayed[p]++;
        });
      tables.push({ round, table: t, players: seated, games, totals: m.totals });
    });
  }
  return { players, tables, standings: standings(totals, gamesPlayed) };
}
