/**
 * `npm run study:chances -- [games] [seed] [--card FILE]... [--check FILE]... [--write | --out FILE]`:
 * fits the calibration of the chances players are shown (lab/chances.ts) on `games`
 * full-table games on each `--card` (default: the practice card), and checks it on as many other
 * games on each of those cards and on each `--check` card it was not fitted on: by decile of the
 * chance shown, how often the line came true with its 95% interval, for the solo model alone,
 * the shipped calibration (models/chance-calibration.json, when there is one) and the new fit.
 * Prints the tables (docs/training.md has them); writes models/chance-calibration.json only
 * with `--write` (`--out FILE` writes elsewhere). Anything else on the command line is refused,
 * never ignored.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { calibrated, CHANCE_INPUTS_VERSION, type ChanceCalibration } from '../agents/mah-jongg/chance.js';
import { CHANCE_CALIBRATION_FILE, CHANCE_CALIBRATION_FORMAT, readChanceCalibration } from '../agents/mah-jongg/default-model.js';
import { loadCard } from '../io/cards.js';
import { calibrationTable, chanceExamples, fitCalibration, type ChanceExample, type DecileRow } from './chances.js';
import { writeFileAtomic } from '../io/files.js';

const usage = 'usage: npm run study:chances -- [games] [seed] [--card FILE]... [--check FILE]... [--write | --out FILE]';
let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { card: { type: 'string', multiple: true }, check: { type: 'string', multiple: true }, write: { type: 'boolean' }, out: { type: 'string' } },
  });
}
try {
  args = parse();
  if (args.positionals.length > 2) throw new Error(`one games count and one seed at most, not "${args.positionals.slice(2).join(' ')}"`);
  if (args.values.write && args.values.out !== undefined) throw new Error('--write writes the shipped file and --out another: one of them, not both');
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}\n`);
  process.exit(2);
}
const number = (text: string | undefined, fallback: number, what: string): number => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`${what} must be a whole number above 0, not "${text}"\n${usage}\n`);
    process.exit(2);
  }
  return n;
};
const games = number(args.positionals[0], 2000, 'games');
const seed = number(args.positionals[1], 1, 'seed');
const fitFiles: (string | undefined)[] = args.values.card ?? [undefined];
const checkFiles = args.values.check ?? [];
const named = (file: string | undefined) => ({ file, cc: loadCard(file) });
const fitCards = fitFiles.map(named);
const checkCards = checkFiles.map(named);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// the calibration shipped now, to compare with (read before anything is written)
let shipped: ChanceCalibration | null = null;
try {
  shipped = readChanceCalibration(readFileSync(join(root, CHANCE_CALIBRATION_FILE), 'utf8'), CHANCE_CALIBRATION_FILE);
} catch {
  shipped = null;
}
const t0 = Date.now();
const fitSet: ChanceExample[] = [];
// one by one: spreading some 170,000 examples into push overflows the stack
for (const [i, c] of fitCards.entries()) for (const e of chanceExamples(c.cc, games, seed + 7919 * i)) fitSet.push(e);
const calib = fitCalibration(fitSet);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const show = (title: string, rows: DecileRow[]) => {
  process.stdout.write(`\n${title}\n| chance shown | lines | mean shown | came true (95% interval) | gap (points) | within 3 points | within its interval |\n|---|---:|---:|---:|---:|:-:|:-:|\n`);
  for (const r of rows) {
    const gap = (r.cameTrue - r.shown) * 100;
    const yes = (b: boolean) => (b ? 'yes' : 'no');
    process.stdout.write(
      `| ${r.bin} | ${r.lines} | ${pct(r.shown)} | ${pct(r.cameTrue)} (${pct(r.cameTrue - r.interval)} to ${pct(r.cameTrue + r.interval)}) | ${gap.toFixed(1)} | ${yes(Math.abs(gap) <= 3)} | ${yes(Math.abs(gap) <= r.interval * 100)} |\n`,
    );
  }
  const big = rows.filter((r) => r.lines >= 30);
  const worst = big.reduce((m, r) => Math.max(m, Math.abs(r.cameTrue - r.shown) * 100), 0);
  const beyond = big.reduce((m, r) => Math.max(m, (Math.abs(r.cameTrue - r.shown) - r.interval) * 100), 0);
  process.stdout.write(`widest gap over deciles of 30 lines or more: ${worst.toFixed(1)} points; widest beyond its interval: ${beyond.toFixed(1)}\n`);
};
process.stdout.write(`${games} games a card to fit (${fitSet.length} lines on ${fitCards.map((c) => c.cc.card.name).join(', ')}), seed ${seed}; ${Math.round((Date.now() - t0) / 1000)} s\n`);
process.stdout.write(`calibration: weights ${calib.weights.map((w) => w.toFixed(4)).join(', ')}; bias ${calib.bias.toFixed(4)}\n`);
for (const [i, c] of [...fitCards, ...checkCards].entries()) {
  const testSet = chanceExamples(c.cc, games, seed + 1_000_003 + 7919 * i);
  const fitted = i < fitCards.length ? 'fitted on' : 'not fitted on';
  show(
    `${c.cc.card.name} (${fitted}), the solo model alone: ${games} other games, ${testSet.length} lines`,
    calibrationTable(testSet, (e) => e.solo),
  );
  if (shipped !== null)
    show(
      `${c.cc.card.name}, the shipped calibration (${CHANCE_CALIBRATION_FILE}, ${shipped.weights.length} inputs)`,
      calibrationTable(testSet, (e) => calibrated(shipped!, e.inputs)),
    );
  show(
    `${c.cc.card.name} (${fitted}), the new calibration`,
    calibrationTable(testSet, (e) => calibrated(calib, e.inputs)),
  );
}
const command = ['npm run study:chances --', games, seed, ...fitFiles.flatMap((f) => (f ? ['--card', f] : [])), ...checkFiles.flatMap((f) => ['--check', f]), '--write'].join(' ');
const out = args.values.out !== undefined ? resolve(args.values.out) : args.values.write ? join(root, CHANCE_CALIBRATION_FILE) : null;
if (out === null) {
  process.stdout.write(`\nnothing written (--write writes ${CHANCE_CALIBRATION_FILE}, --out FILE another file)\n`);
  process.exit(0);
}
mkdirSync(dirname(out), { recursive: true });
writeFileAtomic(
  out,
  `${JSON.stringify({ format: CHANCE_CALIBRATION_FORMAT, inputs: CHANCE_INPUTS_VERSION, ...calib, games, seed, card: fitCards.map((c) => c.cc.card.name).join(', '), command }, null, 1)}\n`,
);
process.stdout.write(`\nwritten: ${out}\n`);
