import { TilemateError } from '../engine/errors.js';
import { FEATURE_VERSION, FEATURES } from './features.js';

/**
 * A trained value model as the bots use it: a small multilayer perceptron over the features
 * of agents/features.ts with two outputs, the log-odds that the seat wins the game and its
 * expected score / 100. Inference is a plain typed-array forward pass (a decision scores a
 * dozen rows; TensorFlow.js costs more to call than this costs to run); training builds the
 * same network in TensorFlow.js (training/net.ts), and a test holds the two to 1e-5.
 *
 * The file is JSON: the format, the feature version it was trained on, each dense layer's
 * kernel ([in][out], row-major) and bias as base64 little-endian float32, and how it was made.
 */
export const MODEL_FORMAT = 'tilemate-value-model';
export const MODEL_OUTPUTS = ['win log-odds', 'score / 100'] as const;

export interface DenseLayer {
  inputs: number;
  outputs: number;
  relu: boolean;
  /** [inputs][outputs], row-major. */
  kernel: Float32Array;
  bias: Float32Array;
}

export interface ValueModel {
  featureVersion: number;
  layers: DenseLayer[];
  /** How it was made: the command, the generation, the games it learned from. */
  info: Record<string, unknown>;
}

/**
 * Each layer's weights widened to float64 once, for the forward pass (no conversion in the inner
 * loop), and scratch for its outputs inside one pass and for the first row's sums (reused: a decision
 * allocates none).
 */
interface Wide { kernel: Float64Array; bias: Float64Array; scratch: Float64Array; firstRow: Float64Array }
const WIDE = new WeakMap<DenseLayer, Wide>();

function wide(layer: DenseLayer): Wide {
  let w = WIDE.get(layer);
  if (w === undefined) { w = { kernel: Float64Array.from(layer.kernel), bias: Float64Array.from(layer.bias), scratch: new Float64Array(0), firstRow: new Float64Array(layer.outputs) }; WIDE.set(layer, w); }
  return w;
}

const NO_ROWS = new Float64Array(0);

/**
 * Rows of inputs (rows x FEATURES) to rows of [win log-odds, score / 100]. Inputs that are 0
 * are skipped (many are: absent lines, no discard). The rows of one decision share most of
 * their inputs (the table, the lines a candidate leaves alone), so the first layer of each row
 * after the first starts from the first row's sums and adds only the inputs that differ.
 * The result is written to `out` when it is long enough (a caller's buffer, reused from one
 * decision to the next), else to a new array; hidden layers use the layers' own scratch.
 */
export function forward(model: ValueModel, input: Float32Array, rows: number, out?: Float64Array): Float64Array {
  let x: Float32Array | Float64Array = input;
  let y: Float64Array = NO_ROWS;
  const last = model.layers.length - 1;
  model.layers.forEach((layer, index) => {
    const { inputs: n, outputs: m, relu } = layer;
    const w = wide(layer);
    const { kernel, bias } = w;
    if (index === last) y = out !== undefined && out.length >= rows * m ? out : new Float64Array(rows * m);
    else {
      if (w.scratch.length < rows * m) w.scratch = new Float64Array(2 * rows * m);
      y = w.scratch;
    }
    // the first row's first-layer sums, before the activation
    const first = index === 0 && rows > 1 ? w.firstRow : null;
    for (let r = 0; r < rows; r++) {
      const xo = r * n, yo = r * m;
      if (first !== null && r > 0) {
        for (let j = 0; j < m; j++) y[yo + j] = first[j];
        for (let i = 0; i < n; i++) {
          const v = x[xo + i] - x[i];
          if (v !== 0) addRow(y, yo, v, kernel, i * m, m);
        }
      } else {
        for (let j = 0; j < m; j++) y[yo + j] = bias[j];
        for (let i = 0; i < n; i++) {
          const v = x[xo + i];
          if (v !== 0) addRow(y, yo, v, kernel, i * m, m);
        }
        if (first !== null) for (let j = 0; j < m; j++) first[j] = y[j];
      }
      if (relu) for (let j = 0; j < m; j++) if (y[yo + j] < 0) y[yo + j] = 0;
    }
    x = y;
  });
  return y;
}

/** y[yo .. yo + m) += v * kernel[ko .. ko + m), unrolled by four. */
function addRow(y: Float64Array, yo: number, v: number, kernel: Float64Array, ko: number, m: number): void {
  let j = 0;
  for (; j + 3 < m; j += 4) {
    y[yo + j] += v * kernel[ko + j];
    y[yo + j + 1] += v * kernel[ko + j + 1];
    y[yo + j + 2] += v * kernel[ko + j + 2];
    y[yo + j + 3] += v * kernel[ko + j + 3];
  }
  for (; j < m; j++) y[yo + j] += v * kernel[ko + j];
}

const b64 = (a: Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function f32(text: unknown, length: number, what: string): Float32Array {
  if (typeof text !== 'string') throw new TilemateError('TM_BAD_MODEL', `${what} is missing`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== length * 4) throw new TilemateError('TM_BAD_MODEL', `${what} holds ${Math.floor(bytes.length / 4)} numbers; expected ${length} (the file is cut off or damaged)`);
  const out = new Float32Array(length);
  new Uint8Array(out.buffer).set(bytes);
  for (const v of out) if (!Number.isFinite(v)) throw new TilemateError('TM_BAD_MODEL', `${what} holds a number that is not finite`);
  return out;
}

export function modelToJson(model: ValueModel): string {
  return JSON.stringify({
    format: MODEL_FORMAT,
    featureVersion: model.featureVersion,
    outputs: MODEL_OUTPUTS,
    layers: model.layers.map((l) => ({ inputs: l.inputs, outputs: l.outputs, relu: l.relu, kernel: b64(l.kernel), bias: b64(l.bias) })),
    info: model.info,
  });
}

/** Reads a model file's text, refusing a foreign, damaged or mismatched one with a one-line reason. */
export function modelFromJson(text: string, source = 'the model file'): ValueModel {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new TilemateError('TM_BAD_MODEL', `${source} is not JSON (cut off or not a model file)`);
  }
  const o = raw as { format?: unknown; featureVersion?: unknown; layers?: unknown; info?: unknown };
  if (o === null || typeof o !== 'object' || o.format !== MODEL_FORMAT) throw new TilemateError('TM_BAD_MODEL', `${source} is not a Tilemate value model`);
  if (o.featureVersion !== FEATURE_VERSION) {
    throw new TilemateError('TM_BAD_MODEL', `${source} was trained on feature version ${String(o.featureVersion)}; this Tilemate encodes version ${FEATURE_VERSION}: train a new model`);
  }
  if (!Array.isArray(o.layers) || o.layers.length === 0 || o.layers.length > 8) throw new TilemateError('TM_BAD_MODEL', `${source} has no layers`);
  let width = FEATURES;
  const layers = (o.layers as Record<string, unknown>[]).map((l, k): DenseLayer => {
    const inputs = l.inputs, outputs = l.outputs;
    if (inputs !== width || typeof outputs !== 'number' || !Number.isInteger(outputs) || outputs < 1 || outputs > 4096) {
      throw new TilemateError('TM_BAD_MODEL', `${source}: layer ${k + 1} takes ${String(inputs)} inputs; expected ${width}`);
    }
    width = outputs;
    return { inputs, outputs, relu: l.relu === true, kernel: f32(l.kernel, inputs * outputs, `layer ${k + 1}'s kernel`), bias: f32(l.bias, outputs, `layer ${k + 1}'s bias`) };
  });
  if (width !== MODEL_OUTPUTS.length) throw new TilemateError('TM_BAD_MODEL', `${source} gives ${width} outputs; expected ${MODEL_OUTPUTS.length}`);
  return { featureVersion: FEATURE_VERSION, layers, info: typeof o.info === 'object' && o.info !== null ? (o.info as Record<string, unknown>) : {} };
}
