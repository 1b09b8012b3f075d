/**
 * `npm run study:chances -- [games] [seed]`: fits the calibration of the chances players are
 * shown (training/chances.ts) on `games` full-table games and checks it on as many others:
 * by decile of the chance shown, how often the line came true, before and after. Writes
 * models/chance-calibration.json and prints the tables (docs/training.md has them).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrated } from '../agents/chance.js';
import { CHANCE_CALIBRATION_FILE, CHANCE_CALIBRATION_FORMAT } from '../agents/default-model.js';
import { loadCard } from '../io/cards.js';
import { calibrationTable, chanceExamples, fitCalibration, type DecileRow } from './chances.js';
import { loadTf } from './tf.js';
import { writeFileAtomic } from '../io/files.js';

const games = Number(process.argv[2] ?? 2000);
const seed = Number(process.argv[3] ?? 1);
const cc = loadCard();
const { tf, backend } = await loadTf();
const t0 = Date.now();
const fitSet = chanceExamples(cc, games, seed);
const testSet = chanceExamples(cc, games, seed + 1_000_003);
const calib = await fitCalibration(tf, fitSet, seed);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const show = (title: string, rows: DecileRow[]) => {
  process.stdout.write(`\n${title}\n| chance shown | lines | mean shown | came true | gap (points) |\n|---|---:|---:|---:|---:|\n`);
  for (const r of rows) process.stdout.write(`| ${r.bin} | ${r.lines} | ${pct(r.shown)} | ${pct(r.cameTrue)} | ${((r.cameTrue - r.shown) * 100).toFixed(1)} |\n`);
};
process.stdout.write(`${games} games to fit (${fitSet.length} lines), ${games} others to check (${testSet.length} lines), seed ${seed}, ${cc.card.name}; TF.js ${backend}; ${Math.round((Date.now() - t0) / 1000)} s\n`);
process.stdout.write(`calibration: weights ${calib.weights.map((w) => w.toFixed(4)).join(', ')}; bias ${calib.bias.toFixed(4)}\n`);
show('The solo model alone (checked games)', calibrationTable(testSet, (e) => e.solo));
show('Calibrated, as shown (checked games)', calibrationTable(testSet, (e) => calibrated(calib, e.inputs)));
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
mkdirSync(join(root, 'models'), { recursive: true });
writeFileAtomic(join(root, CHANCE_CALIBRATION_FILE), `${JSON.stringify({ format: CHANCE_CALIBRATION_FORMAT, ...calib, games, seed, card: cc.card.name, command: `npm run study:chances -- ${games} ${seed}` }, null, 1)}\n`);
process.stdout.write(`\nwritten: ${CHANCE_CALIBRATION_FILE}\n`);
