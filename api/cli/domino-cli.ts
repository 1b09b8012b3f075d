import type { Command } from 'commander';
import { seatBots } from '../../agents/bots.js';
import { adviseDomino } from '../../agents/domino/advise.js';
import { DOMINO_AGENT_NAMES } from '../../agents/domino/levels.js';
import type { DominoAction, DominoView } from '../../engine/domino/game.js';
import { MEXICAN_TRAIN, mexicanTrainGame, type MexicanTrainGame, type MexicanTrainSpec } from '../../engine/domino/mexican-train.js';
import { DOMINO_RULESETS, loadDominoRuleset } from '../../engine/domino/rulesets.js';
import { parseTableInput, viewFromTable } from '../../engine/domino/table-state.js';
import { dominoName, formatDominoes, parseDominoes, PIPS } from '../../engine/domino/tiles.js';
import { TilemateError } from '../../engine/errors.js';
import type { GameSpec } from '../../engine/games.js';
import { MAX_FILE_BYTES, readTextFile } from '../../io/files.js';
import { playTournament } from '../../training/domino-tournament.js';
import { adviceJson } from '../shared/domino-wire.js';
import { CLI_MAX_WORLDS, wholeOption } from './advise.js';
import { registerGameCommands, type GameCli } from './game-commands.js';
import { positiveInt, wholeNumber } from './options.js';
import { seating, type TerminalWords } from './play.js';

/**
 * `tilemate domino ...`: Mexican Train at the command line. Play, selfplay, arena and replay
 * are every game's commands (api/cli/game-commands.ts); this file gives them Mexican Train's
 * options and words, and adds its own: advice on a described table, and the senior games
 * tournament.
 */

/** A play in words: `12-5 on the Mexican train`; a draw or a pass by its name. */
export function describeAction(a: DominoAction, players: number, me = -1): string {
  if (a.type !== 'play') return a.type;
  const where = a.train === players ? 'the Mexican train' : a.train === me ? 'your train' : `seat ${a.train}'s train`;
  return `${dominoName(a.tile)} on ${where}`;
}

/** The table as text for the person at the view's seat. */
export function tableText(v: DominoView): string {
  const me = v.seat;
  const lines = [`--- round ${v.roundNo}/${v.roundsInGame}, engine ${dominoName(v.engine)} · boneyard ${v.boneyard} · seat ${v.turn} to play ---`];
  v.trains.forEach((t, i) => {
    const who = i === v.players ? 'mexican ' : i === me ? 'yours   ' : `seat ${i}  `;
    const open = v.openDoubles.includes(i) ? '  (double to cover)' : '';
    const marker = i < v.players && t.marked ? ' [marked]' : '';
    const hand = i < v.players && i !== me ? `  (${v.handCounts[i]} tiles)` : '';
    lines.push(`${who}${marker.padEnd(10)} ${t.tiles.length ? formatDominoes(t.tiles) : '-'}  → ${t.end}${open}${hand}`);
  });
  lines.push(`your hand ${formatDominoes(v.hand)}  (${v.hand.reduce((a, t) => a + PIPS[t], 0)} pips)`);
  return lines.join('\n');
}

/** Answers by number, or as `12-5 mexican`, `12-5 2` (a seat's train; your own when left out), `draw`, `pass`. */
export function mexicanTrainWords(game: MexicanTrainGame, seed: number, names: readonly string[]): TerminalWords<MexicanTrainSpec> {
  let roundsSeen = 0;
  return {
    intro: () => [
      `${game.rules.name}: ${game.rules.description}. Seed ${seed}, ${game.players} players.`,
      seating(names, names.indexOf('human')),
      'At any question, type "hint" for advice; "help" lists what you can type and "quit" leaves the game.',
    ],
    narrate: (a, after, drawn) => {
      const me = after.seat;
      const said: string[] = [];
      if (a.seat !== me) said.push(`seat ${a.seat}: ${describeAction(a, game.players)}`);
      else if (drawn !== null) said.push(`You draw ${drawn}.`);
      else if (a.type === 'pass') said.push('You pass: your train is marked.');
      for (; roundsSeen < after.rounds.length; roundsSeen++) {
        const r = after.rounds[roundsSeen];
        said.push(`round over (engine ${r.engine}-${r.engine}): ${r.outBy >= 0 ? `seat ${r.outBy} went out` : 'blocked'}; pips left ${r.pipsLeft.join(', ')}`);
      }
      return said.length > 0 ? said.join('\n') : null;
    },
    table: (v) => tableText(v),
    ask: (answer, v) => (/^hint$/i.test(answer) ? `hint: ${hintWords(v, game.players)}` : null),
    prompt: (v, legal) => legal.map((a, i) => `  ${i + 1}. ${describeAction(a, game.players, v.seat)}`).join('\n'),
    read: (answer, v, legal) => {
      if (/^\d+$/.test(answer) && Number(answer) >= 1 && Number(answer) <= legal.length) return legal[Number(answer) - 1];
      const [word, train] = answer.replace(/^play\s+/i, '').split(/\s+/);
      const tile = word?.toLowerCase();
      if (tile === 'draw' || tile === 'pass') return { type: tile, seat: v.seat };
      if (tile === undefined || tile === '') throw new TilemateError('TM_BAD_INPUT', `choose a number from 1 to ${legal.length}, or type a domino and a train (12-5 mexican)`);
      return game.decodeAction({ type: 'play', seat: v.seat, tile, train: train ?? String(v.seat) });
    },
    help: (v, legal) => {
      const plays = legal.filter((a) => a.type === 'play');
      const example = plays.length > 0 ? dominoName(plays[0].tile) : '12-5';
      const other = (v.seat + 1) % game.players;
      return [
        `a number from 1 to ${legal.length}: that choice from the list`,
        ...(plays.length > 0 ? [`a domino and a train: "${example} mexican", "${example} ${other}" (seat ${other}'s train), or "${example}" for your own train`] : []),
        ...(legal.some((a) => a.type === 'draw') ? ['draw: take a domino from the boneyard'] : []),
        ...(legal.some((a) => a.type === 'pass') ? ['pass: nothing plays and the boneyard is empty (your train is marked)'] : []),
        'hint: advice for this move',
      ];
    },
    result: (end) => {
      const r = end.result!;
      const me = end.seat;
      return [`game over: totals ${r.totals.map((t, s) => `seat ${s} ${t}`).join(', ')}; lowest ${r.winners.map((s) => (s === me ? 'you' : `seat ${s}`)).join(' and ')}`];
    },
  };
}

/**
 * The hint at the terminal, as the page gives it (api/web/domino.js): the move the advice
 * suggests, and the plan for her own train.
 */
function hintWords(v: DominoView, players: number): string {
  const advice = adviseDomino(v);
  const a = advice.action;
  const what = a.type === 'play' ? `play ${describeAction(a, players, v.seat)}` : a.type === 'draw' ? 'draw a domino: nothing in your hand fits' : 'pass: nothing fits (a marker goes on your train)';
  const end = v.trains[v.seat].end;
  const n = advice.path.length;
  const plan = n
    ? `Plan for your train, from its open ${end}: ${formatDominoes(advice.path)} (${n} domino${n === 1 ? '' : 'es'}); dominoes off this path are best played on other trains.`
    : `None of your dominoes can start a path from your train's open ${end} yet.`;
  return `${what}. ${plan}`;
}

// ------------------------------------------------------------------ advise

interface AdviseFlags {
  hand: string;
  state: string;
  worlds?: number;
  seed: number;
  json?: boolean;
}

function readState(arg: string): string {
  if (arg.trim().startsWith('{')) return arg;
  return readTextFile(arg, MAX_FILE_BYTES.state, 'state file');
}

function adviseCommand(f: AdviseFlags): number {
  const hand = parseDominoes(f.hand);
  const v = viewFromTable(parseTableInput(readState(f.state)), hand);
  const advice = adviseDomino(v, { worlds: f.worlds, seed: f.seed });
  const own = v.trains[v.seat];
  if (f.json) {
    process.stdout.write(JSON.stringify(adviceJson(mexicanTrainGame(loadDominoRuleset(v.ruleset), v.players), v, advice)) + '\n');
    return 0;
  }
  const lines = [
    `Hand     ${formatDominoes(hand)}`,
    `Suggest  ${advice.action.type === 'play' ? `play ${describeAction(advice.action, v.players, v.seat)}` : advice.action.type === 'draw' ? 'draw: nothing in hand plays' : 'pass: nothing plays and the boneyard is empty (your train is marked)'}`,
    `Plan     ${advice.path.length ? formatDominoes(advice.path) : '(nothing)'}  on your train, from its end ${own.end} (${advice.path.length} tile${advice.path.length === 1 ? '' : 's'})`,
  ];
  if (advice.candidates) {
    lines.push('', `#  play                           value (playouts in ${f.worlds} sampled worlds: win share + pips edge)`);
    advice.candidates.forEach((c, i) => lines.push(`${String(i + 1).padEnd(2)} ${describeAction(c.action, v.players, v.seat).padEnd(30)} ${c.value.toFixed(3)}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ tournament

interface TournamentFlags {
  ruleset: string;
  players: number;
  tables: number;
  bots: string;
  seed: number;
  json?: boolean;
}

function tournamentCommand(f: TournamentFlags): number {
  const rules = loadDominoRuleset(f.ruleset);
  const { names } = seatBots(mexicanTrainGame(rules, f.players), f.bots, f.players);
  const r = playTournament({ ruleset: rules.name, tables: f.tables, players: f.players, bots: names, seed: f.seed });
  if (f.json) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  }
  const lines = [
    `${rules.name} tournament: ${f.tables} tables of ${f.players}, ${rules.tournament!.tableRounds} rounds each, then a ${rules.tournament!.championshipRounds}-round championship (seed ${f.seed})`,
    ...r.qualifying.map((t, i) => `table ${i + 1}: ${t.players.map((p, s) => `${p} ${t.totals[s]}`).join(', ')}`),
    `championship: ${r.advancers.join(', ')}`,
    'place  player              qualifying  championship  total',
    ...r.standings.map(
      (s, i) =>
        `${String(i + 1).padStart(5)}  ${s.player.padEnd(18)}  ${String(s.qualifying).padStart(10)}  ${String(s.championship).padStart(12)}  ${String(s.total).padStart(5)}${i < r.places.length ? '  *' : ''}`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

// ------------------------------------------------------------------ the commands' Mexican Train part

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const RULESET_HELP = `${Object.keys(DOMINO_RULESETS).join(' or ')} (docs/mexican-train.md)`;

export const MEXICAN_TRAIN_CLI: GameCli<MexicanTrainSpec> = {
  type: MEXICAN_TRAIN,
  options: (c, command) => {
    c.option('--ruleset <name>', RULESET_HELP, 'sun-lakes').option('--players <n>', 'players at the table, 2 to 8', positiveInt, 4);
    return command === 'play' ? c.option('--round <n>', 'play one round (0 = the first engine) instead of the whole game', wholeNumber) : c;
  },
  game: (f) => mexicanTrainGame(loadDominoRuleset(String(f.ruleset)), f.players as number, f.round === undefined ? 'match' : { round: f.round as number }),
  defaultBots: { play: 'greedy', selfplay: 'random' },
  recordPrefix: 'domino',
  words: (game, seed, names) => mexicanTrainWords(game as MexicanTrainGame, seed, names),
  selfplaySummary: (game, states, names, first) => {
    const { rules, players } = game as MexicanTrainGame;
    const wins = new Array<number>(players).fill(0);
    const pips = new Array<number>(players).fill(0);
    let rounds = 0,
      outs = 0;
    for (const state of states) {
      // a game is won by the lowest total; a tie counts for each tied seat
      for (const w of state.result!.winners) wins[w]++;
      for (const r of state.rounds) {
        rounds++;
        if (r.outBy >= 0) outs++;
        r.pipsLeft.forEach((p, s) => {
          pips[s] += p;
        });
      }
    }
    const games = states.length;
    const summary = { games, rounds, wins, meanPipsLeft: pips.map((p) => round3(p / rounds)), ruleset: rules.name, players, roundsGoneOut: outs };
    return {
      json: summary,
      lines: [
        `${rules.name}: ${games} game${games === 1 ? '' : 's'} of ${rules.engines.length} rounds, ${players} players (seeds ${first}-${first + games - 1})`,
        'seat  bot         wins  mean pips left a round',
        ...names.map((name, s) => `${String(s).padStart(4)}  ${name.padEnd(10)}  ${String(wins[s]).padStart(4)}  ${String(summary.meanPipsLeft[s]).padStart(10)}`),
        `${rounds} rounds: ${outs} won by going out, ${rounds - outs} blocked`,
      ],
    };
  },
  replayed: ({ header, game, state, actions }, file) => {
    const r = state.result!;
    return {
      json: { ok: true, game: MEXICAN_TRAIN.name, actions, winners: r.winners, scores: r.totals },
      lines: [
        `${file}: ${actions} actions replayed and checked (${header.ruleset}, ${game.players} players, seed ${header.seed})`,
        ...state.rounds.map(
          (x, i) => `round ${i + 1} (engine ${x.engine}-${x.engine}): ${x.outBy >= 0 ? `seat ${x.outBy} (${header.seats[x.outBy]}) went out` : 'blocked'}; pips left ${x.pipsLeft.join(', ')}`,
        ),
        `totals ${r.totals.map((t, s) => `seat ${s} (${header.seats[s]}) ${t}`).join(', ')}`,
      ],
    };
  },
  noWinnerWords: null,
};

// ------------------------------------------------------------------ the commands

export function registerDomino(cmd: Command, clis: readonly GameCli<GameSpec>[], exit: (code: number) => void): void {
  const domino = cmd.command('domino').description('Mexican Train dominoes: advice, play, self-play, arena, replay, tournament');
  registerGameCommands(domino, MEXICAN_TRAIN_CLI, clis, exit);
  domino
    .command('advise')
    .description('the suggested play and the planned path for your own train')
    .requiredOption('--hand <tiles>', 'your dominoes, e.g. "12-5 5-3 3-3 9-1"')
    .requiredOption('--state <json|file>', 'the table as JSON (or a file of it): {"players":4,"trains":{"0":"12-5","mexican":"12-1"},"marked":[2]}; see docs/mexican-train.md')
    .option(
      '--worlds <n>',
      `also value every legal play by greedy playouts in N sampled worlds (the Monte Carlo player; at most ${CLI_MAX_WORLDS.toLocaleString('en-US')})`,
      wholeOption('--worlds', 1, CLI_MAX_WORLDS),
    )
    .option('--seed <n>', 'with --worlds: seed of the sampled worlds', wholeNumber, 1)
    .option('--json', 'print one JSON object')
    .action((flags: AdviseFlags) => exit(adviseCommand(flags)));
  domino
    .command('tournament')
    .description('the senior games tournament played by bots: six rounds a table, the lowest of each to a six-round championship, totals added')
    .option('--ruleset <name>', 'a ruleset with a tournament format (sun-lakes)', 'sun-lakes')
    .option('--players <n>', 'players at each qualifying table, 2 to 8', positiveInt, 4)
    .option('--tables <n>', 'qualifying tables (2 or more)', positiveInt, 4)
    .option('--bots <names>', `bots (${DOMINO_AGENT_NAMES.join(', ')}), repeated round each table`, 'greedy,random')
    .option('--seed <n>', 'seed of the games', wholeNumber, 1)
    .option('--json', 'print one JSON object')
    .action((flags: TournamentFlags) => exit(tournamentCommand(flags)));
}
