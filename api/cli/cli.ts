import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Presets, SingleBar } from 'cli-progress';
import { Command, CommanderError } from 'commander';
import { AGENT_NAMES, makeAgent } from '../../agents/levels.js';
import { runArena } from '../../training/run-arena.js';
import { summarize } from '../../training/arena.js';
import { arenaLogHeader, openArenaLog } from '../../training/arena-log.js';
import { analysisInput, Analyzer, reason, type LineResult } from '../../engine/analyzer.js';
import type { CompiledCard } from '../../engine/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { RULESETS } from '../../engine/rulesets.js';
import { replayRecord } from '../../engine/record.js';
import { formatTiles, tileName } from '../../engine/tiles.js';
import { ByteOut, resultJsonWriter } from './byte-out.js';
import { simulateForAnalyze, simulationJson, type SimulateFlags } from '../shared/simulate.js';
import { CLI_MAX_DEALS, registerAdvise, SIMULATE_HELP, simulationColumns, wholeOption } from './advise.js';
import { loadCard, readCardText } from '../../training/cards.js';
import { MAX_FILE_BYTES, printable, readTextFile } from '../../training/text-files.js';
import { registerDomino } from './domino-cli.js';
import { registerTrain } from './train-cli.js';
import { registerReview } from './review-cli.js';
import { registerTournament } from './tournament-cli.js';
import { play } from './play.js';
import { DEFAULT_DATA_DIR } from '../http/limits.js';
import { parseBots, playRecordedGame, readRecordFile, rulesetByName, writeFileAtomic } from '../shared/records.js';
import { positiveInt, wholeNumber } from './options.js';

/** A result as the CLI and (later) the HTTP API print it: tile names, never ids. */
export function resultJson(r: LineResult) {
  return {
    id: r.id,
    section: r.section,
    value: r.value,
    concealed: r.concealed,
    tilesAway: r.tilesAway,
    need: r.need.map(tileName),
    possible: r.possible,
    form: r.form,
    jokerSlots: r.jokerSlots,
    outs: r.outs,
    reason: reason(r),
  };
}

const RULESET_NAMES = Object.keys(RULESETS).join(', ');


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
  const input = analysisInput(hand, flags.exposed, flags.seen, others(flags));
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
  counts.forEach((n, t) => { for (let i = 0; i < n; i++) out.push(t); });
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
    const input = analysisInput(flags.hand, flags.exposed, flags.seen, others(flags));
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
      const input = analysisInput(hand, flags.exposed, flags.seen, others(flags));
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

interface SelfPlayFlags {
  ruleset: string;
  games: number;
  seed: number;
  bots: string;
  card?: string;
  out?: string;
  json?: boolean;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function selfplayCommand(f: SelfPlayFlags): number {
  const rules = rulesetByName(f.ruleset);
  const cc = loadCard(f.card);
  const cardText = readCardText(f.card);
  const names = parseBots(f.bots, rules.players, cc, rules).names; // refuses unknown bots before any game
  const wins = new Array<number>(rules.players).fill(0);
  const scoreSum = new Array<number>(rules.players).fill(0);
  let wallGames = 0, deadHandGames = 0, discards = 0;
  // Mah Jonggs per card line: a balanced card has every line made sometimes, none too often
  const byLine = new Array<number>(cc.lineCount).fill(0);
  const progress = process.stderr.isTTY === true;
  for (let i = 0; i < f.games; i++) {
    const seed = f.seed + i;
    // fresh bots every game, so no game depends on the ones before it
    const { state, record } = playRecordedGame({ rules, cc, cardText, seed, bots: parseBots(f.bots, rules.players, cc, rules) }, f.out !== undefined);
    const r = state.result!;
    // a game is won by the first to declare (Siamese games can hold more Mah Jonggs)
    if (r.winners.length > 0) wins[r.winners[0]]++;
    else if (r.wallGame) wallGames++;
    else deadHandGames++; // Siamese 12-13: a player dead on both racks ends the game
    r.scores.forEach((x, s) => { scoreSum[s] += x; });
    for (const p of state.players) for (const m of p.mahJonggs) byLine[m.line]++;
    discards += state.discardCount;
    if (f.out !== undefined) writeFileAtomic(join(f.out, `game-${seed}.jsonl`), record!);
    if (progress) process.stderr.write(`\rgame ${i + 1}/${f.games}`);
  }
  if (progress) process.stderr.write('\n');
  const summary = {
    games: f.games,
    wins,
    wallGames,
    deadHandGames,
    meanTurns: round3(discards / f.games),
    meanScore: scoreSum.map((x) => round3(x / f.games)),
    ruleset: rules.name,
    // the lines made, with how often (a line not listed was never made)
    mahJonggsByLine: Object.fromEntries(cc.card.lines.flatMap((l, i) => (byLine[i] > 0 ? [[l.id, byLine[i]]] : []))),
  };
  const made = byLine.filter((n) => n > 0).length;
  if (f.json) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return 0;
  }
  const lines = [
    `${rules.name}: ${f.games} game${f.games === 1 ? '' : 's'} (seeds ${f.seed}-${f.seed + f.games - 1}), card ${cc.card.name}`,
    'seat  bot      wins  mean score',
    ...names.map((name, s) => `${String(s).padStart(4)}  ${name.padEnd(7)}  ${String(wins[s]).padStart(4)}  ${String(summary.meanScore[s]).padStart(10)}`),
    `wall games ${wallGames}${deadHandGames ? `, ended by dead hands ${deadHandGames}` : ''}; ${summary.meanTurns} discards a game`,
    `card lines made: ${made} of ${cc.lineCount}`,
    ...(f.out !== undefined ? [`records in ${f.out}/game-<seed>.jsonl`] : []),
  ];
  process.stdout.write(printable(lines.join('\n')) + '\n');
  return 0;
}

function replayCommand(file: string, f: { json?: boolean }): number {
  const { header, state, actions } = replayRecord(readRecordFile(file));
  const r = state.result!;
  if (f.json) {
    process.stdout.write(JSON.stringify({ ok: true, winner: r.winners[0] ?? null, scores: r.scores, actions }) + '\n');
    return 0;
  }
  const seat = (s: number) => `seat ${s} (${header.seats[s]})`;
  const mahJonggs = state.players.flatMap((p, s) => p.mahJonggs.map((m) => `Mah Jongg by ${seat(s)}: ${state.cc.card.lines[m.line].id} (${m.event.value})`));
  const lines = [
    `${file}: ${actions} actions replayed and checked (${header.ruleset}, seed ${header.seed}, card ${header.card.name})`,
    ...(mahJonggs.length ? mahJonggs : [r.wallGame ? 'a wall game' : 'ended without a Mah Jongg']),
    `scores ${r.scores.map((x, s) => `${seat(s)} ${x}`).join(', ')}`,
  ];
  process.stdout.write(printable(lines.join('\n')) + '\n');
  return 0;
}

interface PlayFlags {
  ruleset: string;
  seed?: number;
  bots: string;
  seat: number;
  card?: string;
  record?: string;
}

async function playCommand(f: PlayFlags): Promise<number> {
  // no seed given: a fresh one (printed at the start, so the game can be played again)
  const seed = f.seed ?? Math.floor(Math.random() * 2 ** 31);
  const { record } = await play({ ruleset: f.ruleset, seed, bots: f.bots, seat: f.seat, card: f.card }, { input: process.stdin, output: process.stdout });
  if (f.record !== undefined) writeFileAtomic(f.record, record);
  return 0;
}

interface ArenaFlags {
  ruleset: string;
  seats: string;
  games: number;
  seed: number;
  card?: string;
  threads?: number;
  json?: boolean;
  log?: string;
}

/** Duplicate-deal arena: every deal played once per rotation of the seats, in worker threads. */
async function arenaCommand(f: ArenaFlags): Promise<number> {
  const rules = rulesetByName(f.ruleset);
  const cc = loadCard(f.card);
  const seats = f.seats.split(',').map((x) => x.trim());
  if (seats.length !== rules.players) throw new TilemateError('TM_BAD_INPUT', `--seats lists ${seats.length} bots for ${rules.players} seats`);
  seats.forEach((name) => makeAgent(name, cc, rules)); // refuses unknown names before any game
  const cardText = readCardText(f.card);
  // with a log, the deals it holds in full are not played again (a stopped arena resumes)
  const logged = f.log === undefined ? null : openArenaLog(f.log, arenaLogHeader(rules.name, seats, f.seed, cardText), rules.players);
  const earlier = (logged?.games ?? []).filter((g) => g.deal < f.games);
  const played = new Set(earlier.map((g) => g.deal));
  const dealIds = Array.from({ length: f.games }, (_, d) => d).filter((d) => !played.has(d));
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'arena {bar} {value}/{total} deals | {eta_formatted} left', hideCursor: true }, Presets.shades_classic) : null;
  bar?.start(f.games, played.size);
  const games = await runArena({
    ruleset: rules.name, seats, seed: f.seed, dealIds, cardText, threads: f.threads,
    onProgress: (done) => bar?.update(played.size + done),
    onGames: logged ? (g) => logged.log.append(g) : undefined,
  });
  bar?.stop();
  const summary = summarize({ ruleset: rules, seats, seed: f.seed }, [...earlier, ...games]);
  if (f.json) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return 0;
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `${rules.name}: ${summary.deals} duplicate deals, ${summary.games} games (seats rotated), seed ${f.seed}`,
    `wall games ${summary.wallGames} (${pct(summary.wallGameRate)}); parity win share ${pct(summary.parity)}`,
    'agent        win share  95% interval      mean score  95% interval',
    ...summary.results.map((r) => `${r.agent.padEnd(11)}  ${pct(r.winShare).padStart(9)}  ${`${pct(r.ci95[0])}-${pct(r.ci95[1])}`.padEnd(16)}  ${r.meanScore.toFixed(2).padStart(10)}  ${r.scoreCi95[0].toFixed(2)} to ${r.scoreCi95[1].toFixed(2)}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** The version in package.json: the nearest one above this file (api/cli in the sources, dist/api/cli when built). */
export function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tilemate' && typeof pkg.version === 'string') return pkg.version;
    } catch { /* not here: one folder up */ }
  }
  return 'unknown';
}

/** The command line; `exit` receives the exit code of the command that ran. */
export function program(exit: (code: number) => void = () => {}): Command {
  const cmd = new Command('tilemate')
    .description('A practice partner for American Mah Jongg')
    .version(version(), '-V, --version', 'print the version of tilemate')
    .showHelpAfterError()
    .exitOverride();
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
  registerDomino(cmd, exit);
  registerTrain(cmd, exit);
  registerReview(cmd, exit);
  registerTournament(cmd, exit);
  cmd
    .command('selfplay')
    .description('bots play games; prints a summary and can write each game as a record')
    .option('--ruleset <name>', RULESET_NAMES, 'nmjl-4p')
    .option('--games <n>', 'how many games', positiveInt, 1)
    .option('--seed <n>', 'seed of the first game; game i uses seed + i', wholeNumber, 1)
    .option('--bots <names>', `a bot for every seat (${AGENT_NAMES.join(', ')}), or one per seat: "medium,random,random,random"`, 'random')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--out <dir>', 'write each game to DIR/game-<seed>.jsonl')
    .option('--json', 'print one JSON object')
    .action((flags: SelfPlayFlags) => exit(selfplayCommand(flags)));
  cmd
    .command('replay')
    .description('replay a game record, checking every action and the result')
    .argument('<file>', 'a record (.jsonl) written by selfplay or play (a name starting with "-" goes after "--": replay -- -name.jsonl)')
    .option('--json', 'print one JSON object')
    .action((file: string, flags: { json?: boolean }) => exit(replayCommand(file, flags)));
  cmd
    .command('arena')
    .description('measure bots against each other on duplicate deals, with 95% intervals')
    .option('--ruleset <name>', RULESET_NAMES, 'nmjl-4p')
    .requiredOption('--seats <names>', `one bot per seat: ${AGENT_NAMES.join(', ')}`)
    .option('--games <n>', 'how many deals (each played once per seat rotation)', positiveInt, 100)
    .option('--seed <n>', 'seed of the deals', wholeNumber, 1)
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--threads <n>', 'worker threads (default: one per core)', positiveInt)
    .option('--json', 'print one JSON object')
    .option('--log <file>', 'keep every finished game in FILE; the same command run again resumes: deals already there are not played again')
    .action(async (flags: ArenaFlags) => exit(await arenaCommand(flags)));
  cmd
    .command('play')
    .description('play a game in the terminal against bots')
    .option('--ruleset <name>', RULESET_NAMES, 'nmjl-4p')
    .option('--seed <n>', 'the deal (default: a new one)', wholeNumber)
    .option('--bots <names>', `a bot for every other seat (${AGENT_NAMES.join(', ')}), or one per other seat`, 'medium')
    .option('--seat <n>', 'your seat (0 is East)', wholeNumber, 0)
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--record <file>', 'write the game as a record when it ends')
    .action(async (flags: PlayFlags) => exit(await playCommand(flags)));
  cmd
    .command('serve')
    .description('the practice server: the table page at /, the HTTP API at /api (docs/api.md), its docs at /docs')
    .option('--port <n>', 'the port (default: PORT, else 3000)', wholeNumber)
    .option('--host <host>', 'the address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--data <dir>', 'where finished games\' records are kept (DIR/records/)', DEFAULT_DATA_DIR)
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--max-games <n>', 'live games held at once', positiveInt)
    .option('--games-per-address <n>', 'games in progress one address may hold at once (default 10)', positiveInt)
    .option('--rate-limit <n>', 'requests a minute from one address (0: no limit)', wholeNumber)
    .option('--threads <n>', 'worker threads for advice, hints, reviews and the searching bots (default: one less than the cores)', positiveInt)
    .action(async (f: { port?: number; host: string; data: string; card?: string; maxGames?: number; gamesPerAddress?: number; rateLimit?: number; threads?: number }) => {
      // loaded here, not at start: fastify and the routes take most of the CLI's start-up
      const { serve } = await import('../http/server.js');
      const { url } = await serve({
        port: f.port, host: f.host, dataDir: f.data, card: f.card,
        limits: {
          ...(f.maxGames !== undefined && { maxGames: f.maxGames }),
          ...(f.gamesPerAddress !== undefined && { gamesPerAddress: f.gamesPerAddress }),
          ...(f.rateLimit !== undefined && { ratePerMinute: f.rateLimit }),
          ...(f.threads !== undefined && { threads: f.threads }),
        },
      });
      process.stdout.write(`Tilemate is ready: ${url}\n`);
      // the server keeps the process alive; the exit code is set when it closes
    });
  return cmd;
}

/** Runs the command line and returns its exit code: 0 done, 1 usage or batch errors, 2 bad input. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  try {
    await program((c) => { code = c; }).parseAsync(argv);
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
