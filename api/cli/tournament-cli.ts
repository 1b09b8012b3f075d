import { join } from 'node:path';
import type { Command } from 'commander';
import { AGENT_NAMES } from '../../agents/mah-jongg/levels.js';
import { TilemateError } from '../../engine/errors.js';
import { loadRuleset, RULESETS, type Ruleset } from '../../engine/mah-jongg/rulesets.js';
import { playMatch, playTournament, type OnGame } from '../../training/tournament.js';
import { loadCard } from '../../io/cards.js';
import { RecordWriter } from '../../engine/record.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { writeFileAtomic } from '../../io/files.js';
import { positiveInt, wholeNumber } from './options.js';

/**
 * `tilemate match` (the dealer passing to the right over several games, teaching guide 7.2)
 * and `tilemate tournament` (tables of four, rounds of four games, players moving between
 * rounds, totals and standings: tournament 3, 20, 21), played by bots; as `domino tournament`
 * is for Mexican Train. `--out` writes every game as a record for `tilemate replay`.
 */

function botNames(spec: string): string[] {
  const names = spec.split(',').map((s) => s.trim());
  for (const n of names) if (!AGENT_NAMES.includes(n)) throw new TilemateError('TM_BAD_INPUT', `unknown bot "${n}" (expected ${AGENT_NAMES.join(', ')})`);
  return names;
}

/** Writes each game to DIR/<prefix>-<seed>.jsonl, as selfplay does. */
function recorder(rules: Ruleset, card: string | undefined, out: string | undefined, prefix: string): OnGame | undefined {
  if (out === undefined) return undefined;
  const game = mahJonggGame(rules, loadCard(card));
  return (played, state, actions, names) => {
    const w = new RecordWriter(game, played.seed, names);
    for (const a of actions) w.action(a);
    writeFileAtomic(join(out, `${prefix}-${played.seed}.jsonl`), w.text(state));
  };
}

interface MatchFlags {
  ruleset: string;
  games: number;
  bots: string;
  seed: number;
  card?: string;
  out?: string;
  json?: boolean;
}

function matchCommand(f: MatchFlags): number {
  const rules = loadRuleset(f.ruleset);
  const given = botNames(f.bots);
  const bots = given.length === 1 ? new Array<string>(rules.players).fill(given[0]) : given;
  if (bots.length !== rules.players) throw new TilemateError('TM_BAD_INPUT', `--bots lists ${bots.length} bots for ${rules.players} players (give one name, or one per player)`);
  if (f.games > 64) throw new TilemateError('TM_BAD_INPUT', 'a match of at most 64 games');
  const cc = loadCard(f.card);
  const r = playMatch(rules, cc, bots, f.games, f.seed, recorder(rules, f.card, f.out, 'match'));
  if (f.json) {
    process.stdout.write(JSON.stringify({ ruleset: rules.name, players: bots, ...r }) + '\n');
    return 0;
  }
  const who = (p: number) => `player ${p + 1} (${bots[p]})`;
  const lines = [
    `${rules.name}: a match of ${f.games} game${f.games === 1 ? '' : 's'}, the deal passing to the right (seed ${f.seed}), card ${cc.card.name}`,
    ...r.games.map(
      (g, i) =>
        `game ${i + 1}: East ${who(g.seating[0])}; ${g.winners.length ? `Mah Jongg by ${g.winners.map(who).join(', ')}` : g.wallGame ? 'a wall game' : 'no Mah Jongg'}; totals ${r.running[i].join(' ')}`,
    ),
    `totals: ${r.totals.map((t, p) => `${who(p)} ${t}`).join(', ')}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

interface TournamentFlags {
  ruleset: string;
  tables: number;
  players?: number;
  threeRuleset: string;
  rounds: number;
  timeLimit?: number;
  bots: string;
  seed: number;
  card?: string;
  out?: string;
  json?: boolean;
}

function tournamentCommand(f: TournamentFlags): number {
  const rules = loadRuleset(f.ruleset);
  const bots = botNames(f.bots);
  const cc = loadCard(f.card);
  const players = f.players ?? f.tables * 4;
  const threePlayer = players < f.tables * 4 ? loadRuleset(f.threeRuleset) : undefined;
  const write = recorder(rules, f.card, f.out, 'tournament');
  const writeThree = threePlayer && recorder(threePlayer, f.card, f.out, 'tournament');
  // a game of three players is recorded under the 3-player ruleset
  const onGame: OnGame | undefined = write && ((g, s, a, names) => (names.length === 3 ? writeThree! : write)(g, s, a, names));
  const r = playTournament(rules, cc, { tables: f.tables, players, threePlayer, rounds: f.rounds, timeLimit: f.timeLimit, bots, seed: f.seed }, onGame);
  if (f.json) {
    process.stdout.write(JSON.stringify({ ruleset: rules.name, ...r }) + '\n');
    return 0;
  }
  const lines = [
    `${rules.name} tournament: ${players} players at ${f.tables} table${f.tables === 1 ? '' : 's'}, ${f.rounds} round${f.rounds === 1 ? '' : 's'} of 4 games, the players moving between rounds (seed ${f.seed})`,
    ...r.tables.map((t) => {
      const unfinished = t.games.filter((g) => g.unfinished).length;
      const time = unfinished > 0 || t.games.length < 4 ? ` (time called: ${t.games.length} game${t.games.length === 1 ? '' : 's'} started, ${unfinished} unfinished)` : '';
      return `round ${t.round + 1}, table ${t.table + 1}: ${t.players.map((p, k) => `${'ABCD'[k]} ${r.players[p]} ${t.totals[k]}`).join(', ')}${time}`;
    }),
    'place  player        games  total',
    ...r.standings.map((s, i) => `${String(i + 1).padStart(5)}  ${r.players[s.player].padEnd(12)}  ${String(s.games).padStart(5)}  ${String(s.total).padStart(5)}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export function registerTournament(cmd: Command, exit: (code: number) => void): void {
  cmd
    .command('match')
    .description('bots play several games at one table, the deal passing to the right after each; running totals')
    .option('--ruleset <name>', Object.keys(RULESETS).join(', '), 'nmjl-4p-tournament')
    .option('--games <n>', 'games in the match (at most 64)', positiveInt, 4)
    .option('--bots <names>', `a bot for every player (${AGENT_NAMES.join(', ')}), or one per player`, 'medium')
    .option('--seed <n>', 'seed of the match', wholeNumber, 1)
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--out <dir>', 'write each game to DIR/match-<seed>.jsonl')
    .option('--json', 'print one JSON object')
    .action((flags: MatchFlags) => exit(matchCommand(flags)));
  cmd
    .command('tournament')
    .description('the Mah Jongg tournament played by bots: tables of four, rounds of four games, players moving tables between rounds, standings')
    .option('--ruleset <name>', 'a 4-player ruleset (nmjl-4p-tournament)', 'nmjl-4p-tournament')
    .option('--tables <n>', 'tables (1 to 64)', positiveInt, 2)
    .option('--players <n>', 'players (default 4 a table; fewer leave tables of three, tournament 3.1)', positiveInt)
    .option('--three-ruleset <name>', 'the ruleset of a table of three', 'nmjl-3p')
    .option('--time-limit <discards>', "a table's time for a round, in discards: the game in play when it runs out scores zero (tournament 11.4)", positiveInt)
    .option('--rounds <n>', 'rounds of four games (1 to 16)', positiveInt, 2)
    .option('--bots <names>', `bots (${AGENT_NAMES.join(', ')}), repeated over the players`, 'medium,greedy')
    .option('--seed <n>', 'seed of the tournament', wholeNumber, 1)
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--out <dir>', 'write each game to DIR/tournament-<seed>.jsonl')
    .option('--json', 'print one JSON object')
    .action((flags: TournamentFlags) => exit(tournamentCommand(flags)));
}
