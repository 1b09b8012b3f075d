import { TilemateError } from '../../engine/errors.js';
import { featureVersionWords, featureWidth, knownFeatureVersion } from './features.js';

/**
 * A trained value model as the bots use it: a small multilayer perceptron over the features
 * of agents/mah-jongg/features.ts with two outputs, the log-odds that the seat wins the game and its
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
interface Wide {
  kernel: Float64Array;
  bias: Float64Array;
  scratch: Float64Array;
  firstRow: Float64Array;
  zeros: Float32Array;
}
const WIDE = new WeakMap<DenseLayer, Wide>();

function wide(layer: DenseLayer): Wide {
  let w = WIDE.get(layer);
  if (w === undefined) {
    w = {
      kernel: Float64Array.from(layer.kernel),
      bias: Float64Array.from(layer.bias),
      scratch: new Float64Array(0),
      firstRow: new Float64Array(layer.outputs),
      zeros: new Float32Array(layer.inputs),
    };
    WIDE.set(layer, w);
  }
  return w;
}

const NO_ROWS = new Float64Array(0);

/**
 * Rows of inputs (rows x the model's feature width) to rows of [win log-odds, score / 100]. Inputs that are 0
 * are skipped (many are: absent lines, no discard). The rows of one decision share most of
 * their inputs (the table, the lines a candidate leaves alone), so the first layer of each row
 * after the first starts from the first row's sums and adds only the inputs that differ.
 * The result is written to `out` when it is long enough (a caller's buffer, reused from one
 * decision to the next), else to a new array; hidden layers use the layers' own scratch.
 */
export function forward(model: ValueModel, input: Float32Array, rows: number, out?: Float64Array): Float64Array {
  let x: Float32Array | Float64Array = input;
  let y: Float64Array = NO_ROWS;
  const layers = model.layers,
    last = layers.length - 1;
  for (let index = 0; index <= last; index++) {
    const layer = layers[index];
    const n = layer.inputs,
      m = layer.outputs;
    const w = wide(layer);
    if (NZ_AT.length < n) {
      NZ_AT = new Int32Array(n);
      NZ_V = new Float64Array(n);
    }
    if (index === last) y = out !== undefined && out.length >= rows * m ? out : new Float64Array(rows * m);
    else {
      if (w.scratch.length < rows * m) w.scratch = new Float64Array(2 * rows * m);
      y = w.scratch;
    }
    // a hidden layer's relu is left to the next layer, which reads only its inputs above 0 (the same inputs the relu leaves not 0)
    const relu = layer.relu && index === last;
    if (index === 0) firstLayer(input, rows, n, m, w, y, relu);
    else dense(x as Float64Array, rows, n, m, w.kernel, w.bias, y, relu, layers[index - 1].relu);
    x = y;
  }
  return y;
}

/**
 * The first layer: row 0 from the bias, each later row from row 0's sums plus the inputs that
 * differ from row 0's (the rows of one decision share most of their inputs).
 */
function firstLayer(x: Float32Array, rows: number, n: number, m: number, w: Wide, y: Float64Array, relu: boolean): void {
  const { kernel, bias } = w;
  const first = w.firstRow;
  if (w.zeros.length < n) w.zeros = new Float32Array(n);
  sumsOf(nonZeroDiffs(x, 0, w.zeros, n, m), m, kernel, bias, y, 0); // less 0: each input as it is
  if (rows > 1) for (let j = 0; j < m; j++) first[j] = y[j];
  if (relu) for (let j = 0; j < m; j++) if (y[j] < 0) y[j] = 0;
  for (let r = 1; r < rows; r++) {
    const yo = r * m;
    sumsOf(nonZeroDiffs(x, r * n, x, n, m), m, kernel, first, y, yo);
    if (relu) for (let j = 0; j < m; j++) if (y[yo + j] < 0) y[yo + j] = 0;
  }
}

/** A later layer: each row from the bias, adding the inputs that are not 0 (above 0 after a relu not yet applied: `positive`). */
function dense(x: Float64Array, rows: number, n: number, m: number, kernel: Float64Array, bias: Float64Array, y: Float64Array, relu: boolean, positive: boolean): void {
  for (let r = 0; r < rows; r++) {
    const yo = r * m;
    sumsOf(positive ? positives(x, r * n, n, m) : nonZeros(x, r * n, n, m), m, kernel, bias, y, yo);
    if (relu) for (let j = 0; j < m; j++) if (y[yo + j] < 0) y[yo + j] = 0;
  }
}

/** The inputs of one row that are not 0 (their index times the layer's width, and their value), for sumsOf. */
let NZ_AT = new Int32Array(256);
let NZ_V = new Float64Array(256);

/** Row xo's inputs, each less less[i], into NZ_AT / NZ_V where not 0; how many. */
function nonZeroDiffs(x: Float32Array, xo: number, less: Float32Array, n: number, m: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) {
    const v = x[xo + i] - less[i];
    if (v !== 0) {
      NZ_AT[c] = i * m;
      NZ_V[c++] = v;
    }
  }
  return c;
}

/** Row xo's inputs into NZ_AT / NZ_V where not 0; how many. */
function nonZeros(x: Float64Array, xo: number, n: number, m: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) {
    const v = x[xo + i];
    if (v !== 0) {
      NZ_AT[c] = i * m;
      NZ_V[c++] = v;
    }
  }
  return c;
}

/** Row xo's inputs above 0 into NZ_AT / NZ_V; how many (the inputs a relu leaves not 0, as they are). */
function positives(x: Float64Array, xo: number, n: number, m: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) {
    const v = x[xo + i];
    if (v > 0) {
      NZ_AT[c] = i * m;
      NZ_V[c++] = v;
    }
  }
  return c;
}

/**
 * y[yo + j] = start[j] + the sum over the c inputs in NZ_AT / NZ_V, in order, of v * kernel[i][j]
 * (the inputs that are 0 skipped, as always). Eight outputs at a time are summed in locals
 * (registers, not memory), each in the same order as one at a time: the same result to the bit.
 */
function sumsOf(c: number, m: number, kernel: Float64Array, start: Float64Array, y: Float64Array, yo: number): void {
  let j = 0;
  for (; j + 7 < m; j += 8) {
    let a0 = start[j],
      a1 = start[j + 1],
      a2 = start[j + 2],
      a3 = start[j + 3],
      a4 = start[j + 4],
      a5 = start[j + 5],
      a6 = start[j + 6],
      a7 = start[j + 7];
    for (let q = 0; q < c; q++) {
      const v = NZ_V[q],
        k = NZ_AT[q] + j;
      a0 += v * kernel[k];
      a1 += v * kernel[k + 1];
      a2 += v * kernel[k + 2];
      a3 += v * kernel[k + 3];
      a4 += v * kernel[k + 4];
      a5 += v * kernel[k + 5];
      a6 += v * kernel[k + 6];
      a7 += v * kernel[k + 7];
    }
    y[yo + j] = a0;
    y[yo + j + 1] = a1;
    y[yo + j + 2] = a2;
    y[yo + j + 3] = a3;
    y[yo + j + 4] = a4;
    y[yo + j + 5] = a5;
    y[yo + j + 6] = a6;
    y[yo + j + 7] = a7;
  }
  for (; j < m; j++) {
    let a = start[j];
    for (let q = 0; q < c; q++) a += NZ_V[q] * kernel[NZ_AT[q] + j];
    y[yo + j] = a;
  }
}

const b64 = (a: Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

/** A model's layers as a file holds them (weights in base64). */
export const layersJson = (model: ValueModel) => model.layers.map((l) => ({ inputs: l.inputs, outputs: l.outputs, relu: l.relu, kernel: b64(l.kernel), bias: b64(l.bias) }));

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
    layers: layersJson(model),
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
  return modelBody(o, source, MODEL_OUTPUTS.length);
}

/**
 * What a model file holds past its format: the feature version, the layers (each taking the
 * last one's outputs, the first the features) and `outputs` outputs at the end, and its info;
 * refused with a one-line reason naming `source`. Shared with files of other heads (policy-model.ts).
 */
export function modelBody(o: { featureVersion?: unknown; layers?: unknown; info?: unknown }, source: string, outputs: number): ValueModel {
  const version = o.featureVersion;
  if (!knownFeatureVersion(version)) {
    throw new TilemateError('TM_BAD_MODEL', `${source} was trained on feature version ${String(version)}; this Tilemate encodes ${featureVersionWords()}: train a new model`);
  }
  if (!Array.isArray(o.layers) || o.layers.length === 0 || o.layers.length > 8) throw new TilemateError('TM_BAD_MODEL', `${source} has no layers`);
  let width = featureWidth(version);
  const layers = (o.layers as Record<string, unknown>[]).map((l, k): DenseLayer => {
    const inputs = l.inputs,
      out = l.outputs;
    if (inputs !== width || typeof out !== 'number' || !Number.isInteger(out) || out < 1 || out > 4096) {
      throw new TilemateError('TM_BAD_MODEL', `${source}: layer ${k + 1} takes ${String(inputs)} inputs; expected ${width}`);
    }
    width = out;
    return { inputs, outputs: out, relu: l.relu === true, kernel: f32(l.kernel, inputs * out, `layer ${k + 1}'s kernel`), bias: f32(l.bias, out, `layer ${k + 1}'s bias`) };
  });
  if (width !== outputs) throw new TilemateError('TM_BAD_MODEL', `${source} gives ${width} outputs; expected ${outputs}`);
  return { featureVersion: version, layers, info: typeof o.info === 'object' && o.info !== null ? (o.info as Record<string, unknown>) : {} };
}
