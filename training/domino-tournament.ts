import { botRng, makeBot } from '../agents/bots.js';
import { playOut } from '../agents/table.js';
import { TilemateError } from '../engine/errors.js';
import { mexicanTrainGame } from '../engine/domino/mexican-train.js';
import { loadDominoRuleset } from '../engine/domino/rulesets.js';
import { championshipStandings, tableAdvancers, type Standing, type TableTotals } from '../engine/domino/tournament.js';

/**
 * The senior games tournament played by bots (SG 10, 39): tables of bots each play a game of
 * six rounds; the lowest at each table go on to a championship game (split into tables of at
 * most 8); qualifying and championship totals are added and the two lowest place.
 */
export interface TournamentSpec {
  ruleset: string;
  /** Qualifying tables, each of `players` bots. */
  tables: number;
  players: number;
  /** Bot names, repeated round each table. */
  bots: string[];
  seed: number;
}

export interface TournamentResult {
  qualifying: TableTotals[];
  advancers: string[];
  championship: TableTotals[];
  standings: Standing[];
  places: Standing[];
}

function playTable(ruleset: string, players: string[], seed: number): TableTotals {
  const game = mexicanTrainGame(loadDominoRuleset(ruleset), players.length);
  const state = game.newGame(seed);
  // a player's name ends in its bot: "t1s2 greedy"
  playOut(
    game,
    state,
    players.map((p) => makeBot(game, p.split(' ')[1])),
    botRng(seed),
  );
  return { players, totals: state.result!.totals };
}

export function playTournament(spec: TournamentSpec): TournamentResult {
  const rules = loadDominoRuleset(spec.ruleset);
  if (!rules.tournament) throw new TilemateError('TM_BAD_INPUT', `${rules.name} has no tournament format`);
  if (!Number.isInteger(spec.tables) || spec.tables < 2) throw new TilemateError('TM_BAD_INPUT', 'a tournament needs 2 tables or more (the lowest of each meet in the championship)');
  const qualifying: TableTotals[] = [];
  for (let t = 0; t < spec.tables; t++) {
    const players = Array.from({ length: spec.players }, (_, s) => `t${t + 1}s${s} ${spec.bots[s % spec.bots.length]}`);
    qualifying.push(playTable(rules.name, players, (spec.seed + t * 104729) >>> 0));
  }
  const advancers = qualifying.flatMap((t) => tableAdvancers(rules, t));
  const tableCount = Math.ceil(advancers.length / 8);
  const championship: TableTotals[] = [];
  for (let c = 0; c < tableCount; c++) {
    const players = advancers.filter((_, i) => i % tableCount === c);
    if (players.length < 2) throw new TilemateError('TM_BAD_INPUT', 'the championship needs at least 2 players at each table');
    championship.push(playTable(rules.name, players, (spec.seed + 7 + c * 15485863) >>> 0));
  }
  return { qualifying, advancers, championship, ...championshipStandings(rules, qualifying, championship) };
}
