import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { fileErrorWords, TilemateError } from '../../engine/errors.js';
import { CHANCE_INPUTS, CHANCE_INPUTS_V1, CHANCE_INPUTS_V2, CHANCE_INPUTS_VERSION, type ChanceCalibration } from './chance.js';
import { modelFromJson, type ValueModel } from './model.js';

/**
 * The best shipped model (models/value-model.json), which the `learned` and `expert` bots,
 * the hints, the advice and the review use. Without it (deleted, or made for other features)
 * the `learned` bot, the hints, the advice and the review play the strong habits instead, and
 * say so once; the `expert` bot is refused (agents/mah-jongg/levels.ts).
 */
export const DEFAULT_MODEL_FILE = join('models', 'value-model.json');

let cached: { model: ValueModel | null; note: string } | undefined;
let told = false;

function projectRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return null;
}

/** Reads a model file, refusing a missing, damaged or mismatched one with a clear error. */
export function readModelFile(path: string): ValueModel {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TilemateError('TM_FILE', `cannot read model file ${path}: ${fileErrorWords(err)}`);
  }
  return modelFromJson(text, `model file ${path}`);
}

/**
 * The shipped model, or null with the reason (told once on standard error, by the main thread
 * only: worker threads that load it too stay quiet, so a run says it once).
 */
export function defaultModel(): ValueModel | null {
  if (cached === undefined) {
    const root = projectRoot();
    const path = root === null ? DEFAULT_MODEL_FILE : join(root, DEFAULT_MODEL_FILE);
    try {
      cached = { model: readModelFile(path), note: '' };
    } catch (err) {
      cached = { model: null, note: `${(err as Error).message}; the learned bot, the hints and the advice play the strong habits instead, and the expert bot is not available` };
    }
  }
  if (cached.model === null && !told && isMainThread) {
    told = true;
    process.stderr.write(`Tilemate: ${cached.note}\n`);
  }
  return cached.model;
}

/** The calibration of the chances players are shown (models/chance-calibration.json), or null without one. */
export const CHANCE_CALIBRATION_FILE = join('models', 'chance-calibration.json');
export const CHANCE_CALIBRATION_FORMAT = 'tilemate-chance-calibration';

let calibration: ChanceCalibration | null | undefined;

export function readChanceCalibration(text: string, source: string): ChanceCalibration {
  let o: { format?: unknown; inputs?: unknown; weights?: unknown; bias?: unknown; knots?: unknown; fittedOn?: unknown };
  try {
    o = JSON.parse(text);
  } catch {
    throw new TilemateError('TM_BAD_MODEL', `${source} is not JSON (cut off?)`);
  }
  // the inputs' version (agents/mah-jongg/chance.ts); a file without one is of the first two, told by its count of weights
  const weightsOf = (v: unknown): number[] => (v === undefined ? [CHANCE_INPUTS_V1, CHANCE_INPUTS_V2] : v === CHANCE_INPUTS_VERSION ? [CHANCE_INPUTS] : []);
  const ok =
    o !== null &&
    typeof o === 'object' &&
    o.format === CHANCE_CALIBRATION_FORMAT &&
    Array.isArray(o.weights) &&
    weightsOf(o.inputs).includes(o.weights.length) &&
    o.weights.every((w) => Number.isFinite(w)) &&
    Number.isFinite(o.bias) &&
    Array.isArray(o.knots) &&
    o.knots.length <= 1000 &&
    o.knots.every((k) => Array.isArray(k) && k.length === 2 && k.every((v) => Number.isFinite(v) && v >= 0 && v <= 1));
  if (!ok) throw new TilemateError('TM_BAD_MODEL', `${source} is not a Tilemate chance calibration of this version`);
  return { weights: o.weights as number[], bias: o.bias as number, knots: o.knots as [number, number][], fittedOn: Number(o.fittedOn) || 0 };
}

export function defaultChanceCalibration(): ChanceCalibration | null {
  if (calibration === undefined) {
    const root = projectRoot();
    const path = root === null ? CHANCE_CALIBRATION_FILE : join(root, CHANCE_CALIBRATION_FILE);
    try {
      calibration = readChanceCalibration(readFileSync(path, 'utf8'), path);
    } catch {
      calibration = null;
    }
  }
  return calibration;
}
