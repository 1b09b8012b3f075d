/**
 * `npm run study:chances -- [games] [seed] [--card FILE]... [--check FILE]... [--write]`: fits
 * the calibration of the chances players are shown (training/chances.ts) on `games` full-table
 * games on each `--card` (default: the practice card), and checks it on as many other games on
 * each of those cards and on each `--check` card it was not fitted on: by decile of the chance
 * shown, how often the line came true, before and after. Prints the tables (docs/training.md
 * has them); writes models/chance-calibration.json only with `--write` (`--out FILE` writes
 * elsewhere). Anything else on the command line is refused, never ignored.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { calibrated } from '../agents/chance.js';
import { CHANCE_CALIBRATION_FILE, CHANCE_CALIBRATION_FORMAT } from '../agents/default-model.js';
import { loadCard } from '../io/cards.js';
import { calibrationTable, chanceExamples, fitCalibration, type ChanceExample, type DecileRow } from './chances.js';
import { loadTf } from './tf.js';
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
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}\n`);
  process.exit(2);
}
const number = (text: string | undefined, fallback: number, what: string): number => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) { process.stderr.write(`${what} must be a whole number above 0, not "${text}"\n${usage}\n`); process.exit(2); }
  return n;
};
const games = number(args.positionals[0], 2000, 'games');
const seed = number(args.positionals[1], 1, 'seed');
const fitFiles: (string | undefined)[] = args.values.card ?? [undefined];
const checkFiles = args.values.check ?? [];
const named = (file: string | undefined) => ({ file, cc: loadCard(file) });
const fitCards = fitFiles.map(named);
const checkCards = checkFiles.map(named);
const { tf, backend } = await loadTf();
const t0 = Date.now();
const fitSet: ChanceExample[] = [];
for (const [i, c] of fitCards.entries()) fitSet.push(...chanceExamples(c.cc, games, seed + 7919 * i));
const calib = await fitCalibration(tf, fitSet, seed);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const show = (title: string, rows: DecileRow[]) => {
  process.stdout.write(`\n${title}\n| chance shown | lines | mean shown | came true | gap (points) |\n|---|---:|---:|---:|---:|\n`);
  for (const r of rows) process.stdout.write(`| ${r.bin} | ${r.lines} | ${pct(r.shown)} | ${pct(r.cameTrue)} | ${((r.cameTrue - r.shown) * 100).toFixed(1)} |\n`);
  const worst = rows.filter((r) => r.lines >= 30).reduce((m, r) => Math.max(m, Math.abs(r.cameTrue - r.shown) * 100), 0);
  process.stdout.write(`widest gap over deciles of 30 lines or more: ${worst.toFixed(1)} points\n`);
};
process.stdout.write(`${games} games a card to fit (${fitSet.length} lines on ${fitCards.map((c) => c.cc.card.name).join(', ')}), seed ${seed}; TF.js ${backend}; ${Math.round((Date.now() - t0) / 1000)} s\n`);
process.stdout.write(`calibration: weights ${calib.weights.map((w) => w.toFixed(4)).join(', ')}; bias ${calib.bias.toFixed(4)}\n`);
for (const [i, c] of [...fitCards, ...checkCards].entries()) {
  const testSet = chanceExamples(c.cc, games, seed + 1_000_003 + 7919 * i);
  const fitted = i < fitCards.length ? 'fitted on' : 'not fitted on';
  show(`${c.cc.card.name} (${fitted}), the solo model alone: ${games} other games, ${testSet.length} lines`, calibrationTable(testSet, (e) => e.solo));
  show(`${c.cc.card.name} (${fitted}), calibrated, as shown`, calibrationTable(testSet, (e) => calibrated(calib, e.inputs)));
}
const command = ['npm run study:chances --', games, seed, ...fitFiles.flatMap((f) => (f ? ['--card', f] : [])), ...checkFiles.flatMap((f) => ['--check', f]), '--write'].join(' ');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = args.values.out !== undefined ? resolve(args.values.out) : args.values.write ? join(root, CHANCE_CALIBRATION_FILE) : null;
if (out === null) {
  process.stdout.write(`\nnothing written (--write writes ${CHANCE_CALIBRATION_FILE}, --out FILE another file)\n`);
  process.exit(0);
}
mkdirSync(dirname(out), { recursive: true });
writeFileAtomic(out, `${JSON.stringify({ format: CHANCE_CALIBRATION_FORMAT, ...calib, games, seed, card: fitCards.map((c) => c.cc.card.name).join(', '), command }, null, 1)}\n`);
process.stdout.write(`\nwritten: ${out}\n`);
