import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { analysisInput, Analyzer, reason, type LineResult } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { COPIES, formatTiles, tileName } from '../../engine/mah-jongg/tiles.js';
import { ByteOut, resultJsonWriter } from './byte-out.js';
import { simulateForAnalyze, simulationJson, type SimulateFlags } from '../shared/simulate.js';
import { CLI_MAX_DEALS, registerAdvise, SIMULATE_HELP, simulationColumns, wholeOption } from './advise.js';
import { loadCard } from '../../io/cards.js';
import { MAX_FILE_BYTES, printable, readTextFile } from '../../io/files.js';
import { MEXICAN_TRAIN_CLI, registerDomino } from './domino-cli.js';
import { registerGameCommands, type GameCli } from './game-commands.js';
import { MAH_JONGG_CLI } from './mah-jongg-cli.js';
import type { GameSpec } from '../../engine/games.js';
import { registerActor, registerTrain } from './train-cli.js';
import { registerReview } from './review-cli.js';
import { registerTournament } from './tournament-cli.js';
import { DEFAULT_DATA_DIR, type Limits } from '../shared/limits.js';
import { databaseUrl, positiveInt, wholeNumber } from './options.js';
import { registerExport } from './export-cli.js';
import { registerCard } from './card-cli.js';
import { resultJson } from '../shared/wire.js';
import { startingLine, startLines, type Started } from './serve-lines.js';

interface AnalyzeFlags extends SimulateFlags {
  hand?: string;
  hands?: string;
  card?: string;
  exposed?: string;
  seen?: string;
  right?: string;
  across?: string;
  left?: string;
  top: number;
  all?: boolean;
  json?: boolean;
}

const others = (f: AnalyzeFlags) => ({ right: f.right, across: f.across, left: f.left });

/** `extra` columns (analyze --simulate) go before the last, the why. */
function table(hand: string, flags: AnalyzeFlags, cc: CompiledCard, results: LineResult[], extra?: { head: string[]; rows: string[][] }): string {
  const input = analysisInput(COPIES, hand, flags.exposed, flags.seen, others(flags));
  const rows = results.map((r, i) => [
    String(i + 1),
    r.id,
    String(r.tilesAway),
    r.form,
    r.need.map(tileName).join(' '),
    String(r.jokerSlots),
    String(r.outs),
    `${r.value} ${r.concealed ? 'c' : 'x'}`,
    ...(extra?.rows[i] ?? []),
    reason(r),
  ]);
  const head = ['#', 'line', 'away', 'closest form', 'still needed', 'jokers', 'outs', 'value', ...(extra?.head ?? []), 'why'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const right = new Set([0, 2, 5, 6, ...(extra?.head.map((_, i) => 8 + i) ?? [])]);
  const fmt = (row: string[]) => row.map((cell, c) => (c === row.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  const lines = [
    `Hand     ${formatTiles(tilesOf(input.concealed))}`,
    ...(flags.exposed ? [`Exposed  ${flags.exposed}`] : []),
    ...(flags.seen ? [`Seen     ${flags.seen}`] : []),
    ...(['right', 'across', 'left'] as const).filter((w) => flags[w]).map((w) => `${w[0].toUpperCase()}${w.slice(1).padEnd(8)}${flags[w]}`),
    `Card     ${cc.card.name} (${cc.lineCount} lines, ${cc.formCount} forms)`,
    '',
    fmt(head),
    ...rows.map(fmt),
  ];
  return printable(lines.join('\n'));
}

function tilesOf(counts: number[]): number[] {
  const out: number[] = [];
  counts.forEach((n, t) => {
    for (let i = 0; i < n; i++) out.push(t);
  });
  return out;
}

function analyzeCommand(flags: AnalyzeFlags): number {
  if ((flags.hand === undefined) === (flags.hands === undefined)) {
    throw new TilemateError('TM_BAD_INPUT', 'give one of --hand "<tiles>" or --hands FILE');
  }
  const cc = loadCard(flags.card);
  const analyzer = new Analyzer(cc);
  const top = flags.all ? cc.lineCount : flags.top;

  if (flags.hand !== undefined) {
    const input = analysisInput(COPIES, flags.hand, flags.exposed, flags.seen, others(flags));
    const results = analyzer.analyze(input, { top });
    const sim = simulateForAnalyze(cc, input, results, flags);
    if (flags.json) {
      const json = results.map((r, i) => ({ ...resultJson(r), ...sim?.lines[i] }));
      process.stdout.write(JSON.stringify({ hand: flags.hand, card: cc.card.name, ...(sim && { simulation: simulationJson(sim) }), results: json }) + '\n');
    } else process.stdout.write(table(flags.hand, flags, cc, results, sim ? simulationColumns(sim) : undefined) + '\n');
    return 0;
  }

  // Batch: one hand per line, one JSON object per line, in order. A bad hand gets an error
  // object of its own (and a non-zero exit at the end); the others are still analyzed.
  const text = readTextFile(flags.hands!, MAX_FILE_BYTES.hands, 'hands file');
  let failed = 0;
  const out = new ByteOut((chunk) => process.stdout.write(chunk));
  const writeResult = resultJsonWriter(cc);
  // each answer names its line of the file (blank lines are skipped), so answers line up with hands
  for (const [i, hand] of text.split(/\r?\n/).entries()) {
    if (hand.trim() === '') continue;
    const line = i + 1;
    try {
      const input = analysisInput(COPIES, hand, flags.exposed, flags.seen, others(flags));
      const results = analyzer.analyze(input, { top });
      const sim = simulateForAnalyze(cc, input, results, flags);
      if (sim) out.text(JSON.stringify({ line, hand, results: results.map((r, i) => ({ ...resultJson(r), ...sim.lines[i] })) }));
      else {
        // the same text as JSON.stringify({ line, hand, results: results.map(resultJson) })
        out.text('{"line":');
        out.int(line);
        out.text(`,"hand":${JSON.stringify(hand)},"results":[`);
        for (let k = 0; k < results.length; k++) {
          if (k > 0) out.text(',');
          writeResult(out, results[k]);
        }
        out.text(']}');
      }
    } catch (err) {
      if (!(err instanceof TilemateError)) throw err;
      failed++;
      out.text(JSON.stringify({ line, hand, error: { code: err.code, message: err.message } }));
    }
    out.text('\n');
  }
  out.flush();
  if (failed > 0) {
    process.stderr.write(`${failed} hand(s) could not be analyzed; see the "error" objects\n`);
    return 1;
  }
  return 0;
}

/** Every game's part of the command line. */
const GAME_CLIS = [MAH_JONGG_CLI, MEXICAN_TRAIN_CLI] as unknown as readonly GameCli<GameSpec>[];

/** The version in package.json: the nearest one above this file (api/cli in the sources, dist/api/cli when built). */
export function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tilemate' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      /* not here: one folder up */
    }
  }
  return 'unknown';
}

/** The command line; `exit` receives the exit code of the command that ran. */
/** Starts the practice server (api/http/server.ts serve), given by the one that composes the program (api/tilemate.ts). */
export type Serve = (opts: { port?: number; host: string; allowHosts?: string[]; dataDir: string; databaseUrl?: string; card?: string; limits: Partial<Limits> }) => Promise<Started>;

export function program(exit: (code: number) => void = () => {}, serve?: Serve): Command {
  const cmd = new Command('tilemate').description('A practice partner for American Mah Jongg').version(version(), '-V, --version', 'print the version of tilemate').showHelpAfterError().exitOverride();
  cmd
    .command('analyze')
    .description('which card lines a hand should chase: tiles away, tiles needed, jokers, outs, value')
    .option('--hand <tiles>', 'your 13 or 14 tiles (concealed), e.g. "1B 1B 2C 3D N RD F J"')
    .option('--hands <file>', 'batch: one hand per line; prints one JSON object per line')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--exposed <groups>', 'groups already exposed on your rack, separated by ";", e.g. "2B 2B J; F F F"')
    .option('--seen <tiles>', 'tiles discarded on the table (they count as gone)')
    .option('--right <groups>', 'exposures on the rack of the player to your right (seen, and still part of her 13)')
    .option('--across <groups>', 'exposures on the rack of the player across')
    .option('--left <groups>', 'exposures on the rack of the player to your left')
    .option('--top <n>', 'how many lines to show', positiveInt, 5)
    .option('--all', 'show every line of the card')
    .option('--json', 'print one JSON object')
    .option('--simulate [deals]', SIMULATE_HELP, wholeOption('--simulate', 1, CLI_MAX_DEALS))
    .option('--seed <n>', 'with --simulate: seed of the simulated deals', wholeOption('--seed', 0), 1)
    .option('--wall <n>', 'with --simulate: tiles left in the wall (default 99 less the discards)', wholeOption('--wall', 0))
    .action((flags: AnalyzeFlags) => exit(analyzeCommand(flags)));
  registerAdvise(cmd, exit);
  registerGameCommands(cmd, MAH_JONGG_CLI, GAME_CLIS, exit);
  registerDomino(cmd, GAME_CLIS, exit);
  registerTrain(cmd, exit);
  registerActor(cmd, exit);
  registerReview(cmd, exit);
  registerTournament(cmd, exit);
  registerExport(cmd, exit);
  registerCard(cmd, exit);
  cmd
    .command('serve')
    .description('the practice server: the table page at /, the HTTP API at /api (docs/api.md), its docs at /docs')
    .option('--port <n>', 'the port (default: PORT, else 3000)', wholeNumber)
    .option('--host <host>', 'the address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option(
      '--allow-host <names>',
      'more names the server answers to, comma-separated (a name your network or proxy gives it; also TILEMATE_ALLOW_HOSTS); others are refused',
      (v: string, prev: string[] = []) => [
        ...prev,
        ...v
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== ''),
      ],
    )
    .option('--data <dir>', 'the data folder: the embedded database (DIR/db) and saved cards', DEFAULT_DATA_DIR)
    .option('--database <url>', 'keep games on this PostgreSQL server instead of the embedded database (default: DATABASE_URL)')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--max-games <n>', 'live games held at once', positiveInt)
    .option('--games-per-address <n>', 'games in progress one address may hold at once (default 10)', positiveInt)
    .option('--rate-limit <n>', 'requests a minute from one address (0: no limit)', wholeNumber)
    .option('--threads <n>', 'worker threads for advice, hints and reviews (default: one less than the cores; the searching bots have one of their own)', positiveInt)
    .action(
      async (f: {
        port?: number;
        host: string;
        allowHost?: string[];
        data: string;
        database?: string;
        card?: string;
        maxGames?: number;
        gamesPerAddress?: number;
        rateLimit?: number;
        threads?: number;
      }) => {
        if (serve === undefined) throw new TilemateError('TM_BAD_INPUT', 'this command line was built without the server: run bin/tilemate.js serve');
        // opening the embedded database, the worker threads and the card take a few seconds (more on a busy machine)
        process.stdout.write(`${startingLine(f.data, databaseUrl(f.database))}\n`);
        const started = await serve({
          port: f.port,
          host: f.host,
          allowHosts: f.allowHost,
          dataDir: f.data,
          databaseUrl: databaseUrl(f.database),
          card: f.card,
          limits: {
            ...(f.maxGames !== undefined && { maxGames: f.maxGames }),
            ...(f.gamesPerAddress !== undefined && { gamesPerAddress: f.gamesPerAddress }),
            ...(f.rateLimit !== undefined && { ratePerMinute: f.rateLimit }),
            ...(f.threads !== undefined && { threads: f.threads }),
          },
        });
        process.stdout.write(`${startLines(started).join('\n')}\n`);
        // the server keeps the process alive; the exit code is set when it closes
      },
    );
  return cmd;
}

/** Runs the command line and returns its exit code: 0 done, 1 usage or batch errors, 2 bad input. */
export async function main(argv: string[], serve?: Serve): Promise<number> {
  let code = 0;
  try {
    await program((c) => {
      code = c;
    }, serve).parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof TilemateError) {
      process.stderr.write(`error ${err.code}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof CommanderError) return err.exitCode; // commander has printed its message
    throw err;
  }
}
