import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TilemateError } from '../engine/errors.js';
import { modelFromJson, type ValueModel } from './model.js';

/**
 * The best shipped model (models/value-model.json), which the `learned` and `expert` bots,
 * the hints, the advice and the review use. Without it (deleted, or made for other features)
 * they play the strong habits instead, and say so once.
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
    const code = (err as NodeJS.ErrnoException).code;
    throw new TilemateError('TM_FILE', `cannot read model file ${path}: ${code === 'ENOENT' ? 'no such file' : code ?? String(err)}`);
  }
  return modelFromJson(text, `model file ${path}`);
}

/** The shipped model, or null with the reason (told once on standard error). */
export function defaultModel(): ValueModel | null {
  if (cached === undefined) {
    const root = projectRoot();
    const path = root === null ? DEFAULT_MODEL_FILE : join(root, DEFAULT_MODEL_FILE);
    try {
      cached = { model: readModelFile(path), note: '' };
    } catch (err) {
      cached = { model: null, note: `${(err as Error).message}; the learned and expert bots play the strong habits instead` };
    }
  }
  if (cached.model === null && !told) {
    told = true;
    process.stderr.write(`Tilemate: ${cached.note}\n`);
  }
  return cached.model;
}
