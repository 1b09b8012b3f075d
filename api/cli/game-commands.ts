import { join } from 'node:path';
import type { Command } from 'commander';
import { botNames, botRng, makeBot, seatBots } from '../../agents/bots.js';
import { playRecorded } from '../../agents/table.js';
import type { Game, GameSpec, GameType } from '../../engine/games.js';
import { gameTypeOfRecord } from '../../engine/registry.js';
import { replayRecord, type Replay } from '../../engine/record.js';
import { printable, readRecordFile, writeFileAtomic } from '../../io/files.js';
import { summarize } from '../../training/arena.js';
import { arenaLogHeader, openArenaLog } from '../../training/arena-log.js';
import { positiveInt, wholeNumber } from './options.js';
import { playInTerminal, type PlayEnd, type PlayIo, type TerminalWords } from './play.js';

/**
 * The commands every game has, written once: `play` in the terminal, `selfplay` (bots play
 * recorded games), `replay` (a record checked action by action) and `arena` (bots measured on
 * duplicate deals). Mah Jongg registers them at the top level, Mexican Train under `domino`;
 * each game gives only what is its own (`GameCli`): the options that choose its parameters,
 * its words at the terminal and the statistics its summaries print.
 */

/** What one of a game's commands printed: JSON for programs, lines for people. */
export interface Printed {
  json: unknown;
  lines: string[];
}

export interface GameCli<G extends GameSpec> {
  type: GameType<G>;
  /** Adds the options that choose the game's parameters (ruleset, players, card...). */
  options(c: Command, command: 'play' | 'selfplay' | 'arena'): Command;
  /** The game the options name; unknown names are refused (TM_BAD_INPUT). */
  game(flags: Record<string, unknown>): Game<G>;
  /** The bots a command seats when none are named. */
  defaultBots: { play: string; selfplay: string };
  /** Record files are `<prefix>-<seed>.jsonl`. */
  recordPrefix: string;
  words(game: Game<G>, seed: number, names: readonly string[]): TerminalWords<G>;
  /** The statistics of a selfplay run. */
  selfplaySummary(game: Game<G>, states: readonly G['state'][], names: readonly string[], first: number): Printed;
  /** What a replayed record says (the outcome in the game's words). */
  replayed(replay: Replay<G>, file: string): Printed;
  /** What the arena calls a game nobody won (Mah Jongg: a wall game), or null when every game has a winner. */
  noWinnerWords: string | null;
}

const write = (p: Printed, json: boolean | undefined): number => {
  process.stdout.write(json ? `${JSON.stringify(p.json)}\n` : `${printable(p.lines.join('\n'))}\n`);
  return 0;
};

// ------------------------------------------------------------------ the commands

export interface PlayFlags {
  seed?: number;
  bots?: string;
  seat: number;
  record?: string;
  [option: string]: unknown;
}

/** One game in the terminal, as `play` plays it: the game and bots the flags name, a person at --seat. */
export async function playGame<G extends GameSpec>(cli: GameCli<G>, f: PlayFlags & { seed: number }, io: PlayIo): Promise<{ state: G['state']; record: string; end: PlayEnd }> {
  const game = cli.game(f);
  const { names: botsNames } = seatBots(game, f.bots ?? cli.defaultBots.play, game.players - 1); // refuses unknown names
  // a person waits on these bots: with the clock's safety valve, as the server's games against bots
  const bots = { names: botsNames, agents: botsNames.map((name) => makeBot(game, name, { valve: true })) };
  const names = [...bots.names];
  names.splice(f.seat, 0, 'human');
  return playInTerminal(game, f.seed, f.seat, bots, cli.words(game, f.seed, names), io);
}

/** The line said when the person leaves before the end: the game so far is kept when --record names a file. */
export function leftWords(end: 'quit' | 'interrupted', record: string | undefined, seed: number): string {
  const how = end === 'quit' ? 'You left the game' : 'Stopped (Ctrl-C)';
  return record === undefined ? `${how}; to play this deal again, use --seed ${seed}.` : `${how}; the game so far is saved in ${record}.`;
}

async function playCommand<G extends GameSpec>(cli: GameCli<G>, f: PlayFlags): Promise<number> {
  // no seed given: a fresh one (printed at the start, so the game can be played again)
  const seed = f.seed ?? Math.floor(Math.random() * 2 ** 31);
  const { record, end } = await playGame(cli, { ...f, seed }, { input: process.stdin, output: process.stdout, signals: true });
  if (f.record !== undefined) writeFileAtomic(f.record, record);
  if (end === 'over') {
    if (f.record !== undefined) process.stdout.write(`${printable(`The game is saved in ${f.record}.`)}\n`);
    return 0;
  }
  process.stdout.write(`${printable(leftWords(end, f.record, seed))}\n`);
  // 130: the exit code of a program stopped by Ctrl-C, as shells report it
  return end === 'interrupted' ? 130 : 0;
}

interface SelfplayFlags {
  games: number;
  seed: number;
  bots?: string;
  out?: string;
  json?: boolean;
  [option: string]: unknown;
}

function selfplayCommand<G extends GameSpec>(cli: GameCli<G>, f: SelfplayFlags): number {
  const game = cli.game(f);
  const spec = f.bots ?? cli.defaultBots.selfplay;
  const { names } = seatBots(game, spec, game.players); // refuses unknown bots before any game
  const states: G['state'][] = [];
  const progress = process.stderr.isTTY === true;
  for (let i = 0; i < f.games; i++) {
    const seed = f.seed + i;
    // fresh bots every game, so no game depends on the ones before it
    const { state, record } = playRecorded(game, seed, seatBots(game, spec, game.players), botRng(seed), f.out !== undefined);
    states.push(state);
    if (f.out !== undefined) writeFileAtomic(join(f.out, `${cli.recordPrefix}-${seed}.jsonl`), record!);
    if (progress) process.stderr.write(`\rgame ${i + 1}/${f.games}`);
  }
  if (progress) process.stderr.write('\n');
  const printed = cli.selfplaySummary(game, states, names, f.seed);
  if (f.out !== undefined) printed.lines.push(`records in ${f.out}/${cli.recordPrefix}-<seed>.jsonl`);
  return write(printed, f.json);
}

/** Replays a record of any game (its format says which), checking every action and the end. */
function replayCommand(clis: readonly GameCli<GameSpec>[], file: string, f: { json?: boolean }): number {
  const text = readRecordFile(file);
  const replay = replayRecord(text);
  const cli = clis.find((c) => c.type === gameTypeOfRecord(replay.header.format))!;
  return write(cli.replayed(replay, file), f.json);
}

interface ArenaFlags {
  seats: string;
  games: number;
  seed: number;
  threads?: number;
  json?: boolean;
  log?: string;
  [option: string]: unknown;
}

/** Duplicate-deal arena: every deal played once per rotation of the seats, in worker threads. */
async function arenaCommand<G extends GameSpec>(cli: GameCli<G>, f: ArenaFlags): Promise<number> {
  const game = cli.game(f);
  const { names: seats } = seatBots(game, f.seats, game.players, '--seats'); // refuses unknown names before any game
  // with a log, the deals it holds in full are not played again (a stopped arena resumes)
  const logged = f.log === undefined ? null : openArenaLog(f.log, arenaLogHeader(game, seats, f.seed), game.players);
  const earlier = (logged?.games ?? []).filter((g) => g.deal < f.games);
  const played = new Set(earlier.map((g) => g.deal));
  const dealIds = Array.from({ length: f.games }, (_, d) => d).filter((d) => !played.has(d));
  const { Presets, SingleBar } = await import('cli-progress');
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'arena {bar} {value}/{total} deals | {eta_formatted} left', hideCursor: true }, Presets.shades_classic) : null;
  bar?.start(f.games, played.size);
  // without a terminal (a log file, a CI job): a plain line at every tenth of the deals, or a minute
  const started = Date.now();
  let toldAt = started,
    toldTenth = Math.floor((10 * played.size) / f.games);
  const tell = (done: number): void => {
    if (bar) {
      bar.update(done);
      return;
    }
    const tenth = Math.floor((10 * done) / f.games),
      now = Date.now();
    if (done < f.games && tenth === toldTenth && now - toldAt < 60_000) return;
    toldTenth = tenth;
    toldAt = now;
    const fresh = done - played.size,
      perDeal = fresh > 0 ? (now - started) / fresh : 0;
    const left = Math.round((perDeal * (f.games - done)) / 60_000);
    process.stderr.write(`arena: ${done} of ${f.games} deals played${done < f.games && fresh > 0 ? `, ${left < 1 ? 'under a minute' : `about ${left} min`} left` : ''}\n`);
  };
  // the worker pool is loaded only for an arena, not at every command's start
  const { runArena } = await import('../../training/run-arena.js');
  const games = await runArena({
    game,
    seats,
    seed: f.seed,
    dealIds,
    threads: f.threads,
    onProgress: (done) => tell(played.size + done),
    onGames: logged ? (g) => logged.log.append(g) : undefined,
  });
  bar?.stop();
  const summary = summarize({ seats, seed: f.seed }, [...earlier, ...games]);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const unit = cli.type.score;
  return write(
    {
      json: { game: cli.type.name, ruleset: game.params.ruleset, players: game.players, seats, ...summary },
      lines: [
        `${game.params.ruleset}, ${game.players} players: ${summary.deals} duplicate deals, ${summary.games} games (seats rotated), seed ${f.seed}`,
        `${cli.noWinnerWords === null ? '' : `${cli.noWinnerWords} ${summary.noWinner} (${pct(summary.noWinnerRate)}); `}parity win share ${pct(summary.parity)}`,
        `agent        win share  95% interval      ${`mean ${unit.name}`.padStart(14)}  95% interval (${unit.better} is better)`,
        ...summary.results.map(
          (r) =>
            `${r.agent.padEnd(11)}  ${pct(r.winShare).padStart(9)}  ${`${pct(r.ci95[0])}-${pct(r.ci95[1])}`.padEnd(16)}  ${r.meanScore.toFixed(2).padStart(14)}  ${r.scoreCi95[0].toFixed(2)} to ${r.scoreCi95[1].toFixed(2)}`,
        ),
      ],
    },
    f.json,
  );
}

// ------------------------------------------------------------------ registering them

/**
 * Registers a game's play, selfplay, arena and replay commands on `cmd` (the program, or its
 * `domino` command). `replay` reads every game's records.
 */
export function registerGameCommands<G extends GameSpec>(cmd: Command, cli: GameCli<G>, clis: readonly GameCli<GameSpec>[], exit: (code: number) => void): void {
  const bots = botNames(cli.type.name).join(', ');
  cli
    .options(cmd.command('play').description('play a game in the terminal against bots (at any question, "help" lists what you can type and "quit" leaves)'), 'play')
    .option('--seed <n>', 'the deal (default: a new one)', wholeNumber)
    .option('--bots <names>', `a bot for every other seat (${bots}), one per other seat, or a list repeated round the table`, cli.defaultBots.play)
    .option('--seat <n>', 'your seat (0 is the first to play)', wholeNumber, 0)
    .option('--record <file>', 'write the game as a record when it ends (or the game so far, when you leave it)')
    .action(async (flags: PlayFlags) => exit(await playCommand(cli, flags)));
  cli
    .options(cmd.command('selfplay').description('bots play games; prints a summary and can write each game as a record'), 'selfplay')
    .option('--games <n>', 'how many games', positiveInt, 1)
    .option('--seed <n>', 'seed of the first game; game i uses seed + i', wholeNumber, 1)
    .option('--bots <names>', `a bot for every seat (${bots}), one per seat, or a list repeated round the table`, cli.defaultBots.selfplay)
    .option('--out <dir>', `write each game to DIR/${cli.recordPrefix}-<seed>.jsonl`)
    .option('--json', 'print one JSON object')
    .action((flags: SelfplayFlags) => exit(selfplayCommand(cli, flags)));
  cli
    .options(cmd.command('arena').description('measure bots against each other on duplicate deals (seats rotated), with 95% intervals'), 'arena')
    .requiredOption('--seats <names>', `one bot per seat (${bots}), or a list repeated round the table`)
    .option('--games <n>', 'how many deals (each played once per seat rotation)', positiveInt, 100)
    .option('--seed <n>', 'seed of the deals', wholeNumber, 1)
    .option('--threads <n>', 'worker threads (default: one per core)', positiveInt)
    .option('--json', 'print one JSON object')
    .option('--log <file>', 'keep every finished game in FILE; the same command run again resumes: deals already there are not played again')
    .action(async (flags: ArenaFlags) => exit(await arenaCommand(cli, flags)));
  cmd
    .command('replay')
    .description('replay a game record (Mah Jongg or Mexican Train), checking every action and the result')
    .argument('<file>', 'a record (.jsonl) written by selfplay, play or the server (a name starting with "-" goes after "--": replay -- -name.jsonl)')
    .option('--json', 'print one JSON object')
    .action((file: string, flags: { json?: boolean }) => exit(replayCommand(clis, file, flags)));
}
