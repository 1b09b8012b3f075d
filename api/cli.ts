import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { analysisInput, Analyzer, reason, type LineResult } from '../engine/analyzer.js';
import type { CompiledCard } from '../engine/compile.js';
import { TilemateError } from '../engine/errors.js';
import { formatTiles, tileName } from '../engine/tiles.js';
import { loadCard } from './cards.js';

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

function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

interface AnalyzeFlags {
  hand?: string;
  hands?: string;
  card?: string;
  exposed?: string;
  seen?: string;
  top: number;
  all?: boolean;
  json?: boolean;
}

function table(hand: string, flags: AnalyzeFlags, cc: CompiledCard, results: LineResult[]): string {
  const input = analysisInput(hand, flags.exposed, flags.seen);
  const rows = results.map((r, i) => [
    String(i + 1),
    r.id,
    String(r.tilesAway),
    r.form,
    r.need.map(tileName).join(' '),
    String(r.jokerSlots),
    String(r.outs),
    `${r.value} ${r.concealed ? 'c' : 'x'}`,
    reason(r),
  ]);
  const head = ['#', 'line', 'away', 'closest form', 'still needed', 'jokers', 'outs', 'value', 'why'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const right = new Set([0, 2, 5, 6]);
  const fmt = (row: string[]) => row.map((cell, c) => (c === row.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  const lines = [
    `Hand     ${formatTiles(tilesOf(input.concealed))}`,
    ...(flags.exposed ? [`Exposed  ${flags.exposed}`] : []),
    ...(flags.seen ? [`Seen     ${flags.seen}`] : []),
    `Card     ${cc.card.name} (${cc.lineCount} lines, ${cc.formCount} forms)`,
    '',
    fmt(head),
    ...rows.map(fmt),
  ];
  return lines.join('\n');
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
    const results = analyzer.analyze(analysisInput(flags.hand, flags.exposed, flags.seen), { top });
    if (flags.json) process.stdout.write(JSON.stringify({ hand: flags.hand, card: cc.card.name, results: results.map(resultJson) }) + '\n');
    else process.stdout.write(table(flags.hand, flags, cc, results) + '\n');
    return 0;
  }

  // Batch: one hand per line, one JSON object per line, in order. A bad hand gets an error
  // object of its own (and a non-zero exit at the end); the others are still analyzed.
  let text: string;
  try {
    text = readFileSync(flags.hands!, 'utf8');
  } catch (err) {
    throw new TilemateError('TM_FILE', `cannot read hands file ${flags.hands}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let failed = 0;
  let out: string[] = [];
  const flush = () => { if (out.length) { process.stdout.write(out.join('\n') + '\n'); out = []; } };
  for (const hand of text.split(/\r?\n/)) {
    if (hand.trim() === '') continue;
    try {
      const results = analyzer.analyze(analysisInput(hand, flags.exposed, flags.seen), { top });
      out.push(JSON.stringify({ hand, results: results.map(resultJson) }));
    } catch (err) {
      if (!(err instanceof TilemateError)) throw err;
      failed++;
      out.push(JSON.stringify({ hand, error: { code: err.code, message: err.message } }));
    }
    if (out.length >= 2000) flush();
  }
  flush();
  if (failed > 0) {
    process.stderr.write(`${failed} hand(s) could not be analyzed; see the "error" objects\n`);
    return 1;
  }
  return 0;
}

/** The command line; `exit` receives the exit code of the command that ran. */
export function program(exit: (code: number) => void = () => {}): Command {
  const cmd = new Command('tilemate')
    .description('A practice partner for American Mah Jongg')
    .showHelpAfterError()
    .exitOverride();
  cmd
    .command('analyze')
    .description('which card lines a hand should chase: tiles away, tiles needed, jokers, outs, value')
    .option('--hand <tiles>', 'your 13 or 14 tiles (concealed), e.g. "1B 1B 2C 3D N RD F J"')
    .option('--hands <file>', 'batch: one hand per line; prints one JSON object per line')
    .option('--card <file>', 'your card file (default: the built-in practice card)')
    .option('--exposed <groups>', 'groups already exposed on your rack, separated by ";", e.g. "2B 2B J; F F F"')
    .option('--seen <tiles>', 'tiles visible elsewhere on the table (discards, other exposures)')
    .option('--top <n>', 'how many lines to show', positiveInt, 5)
    .option('--all', 'show every line of the card')
    .option('--json', 'print one JSON object')
    .action((flags: AnalyzeFlags) => exit(analyzeCommand(flags)));
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
