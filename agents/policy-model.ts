import { TilemateError } from '../engine/errors.js';
import { FEATURE_VERSION, FEATURES } from './features.js';
import { MODEL_FORMAT, modelFromJson, type DenseLayer, type ValueModel } from './model.js';

/**
 * A value model with a policy head (expert iteration, training/exit.ts): the same network as
 * agents/model.ts with a third output, a policy logit per afterstate; the softmax of the logits
 * over a decision's candidates is the policy over every legal choice. The file keeps the value
 * model's format name and says the head in `formatVersion` 2 and `heads`, so an older Tilemate
 * refuses it with its own one-line reason ("gives 3 outputs; expected 2") instead of misreading it.
 *
 * `readPolicyModel` reads both: a version-1 file (two outputs) comes back exactly as
 * agents/model.ts reads it, and a player given it rates the policy by the value (hasPolicyHead false).
 */
export const POLICY_FORMAT_VERSION = 2;
export const POLICY_OUTPUTS = ['win log-odds', 'score / 100', 'policy logit'] as const;

/** Whether a model has the policy head (a third output). */
export const hasPolicyHead = (model: ValueModel): boolean => model.layers[model.layers.length - 1].outputs === POLICY_OUTPUTS.length;

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

/** A model with the policy head as a file's text (a version-2 value model). */
export function policyModelToJson(model: ValueModel): string {
  if (!hasPolicyHead(model)) throw new Error('policyModelToJson: the model has no policy head (write it with modelToJson)');
  return JSON.stringify({
    format: MODEL_FORMAT,
    formatVersion: POLICY_FORMAT_VERSION,
    heads: ['value', 'policy'],
    featureVersion: model.featureVersion,
    outputs: POLICY_OUTPUTS,
    layers: model.layers.map((l) => ({ inputs: l.inputs, outputs: l.outputs, relu: l.relu, kernel: b64(l.kernel), bias: b64(l.bias) })),
    info: model.info,
  });
}

/** Reads a value model, with or without the policy head, refusing a foreign, damaged or mismatched one. */
export function readPolicyModel(text: string, source = 'the model file'): ValueModel {
  let o: { format?: unknown; formatVersion?: unknown; featureVersion?: unknown; layers?: unknown; info?: unknown };
  try {
    o = JSON.parse(text);
  } catch {
    throw new TilemateError('TM_BAD_MODEL', `${source} is not JSON (cut off or not a model file)`);
  }
  // a file without the head is read by the value model's own reader, unchanged
  if (o === null || typeof o !== 'object' || o.formatVersion === undefined) return modelFromJson(text, source);
  if (o.format !== MODEL_FORMAT || o.formatVersion !== POLICY_FORMAT_VERSION) throw new TilemateError('TM_BAD_MODEL', `${source} is not a Tilemate value model of format version ${POLICY_FORMAT_VERSION}`);
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
  if (width !== POLICY_OUTPUTS.length) throw new TilemateError('TM_BAD_MODEL', `${source} gives ${width} outputs; expected ${POLICY_OUTPUTS.length}`);
  return { featureVersion: FEATURE_VERSION, layers, info: typeof o.info === 'object' && o.info !== null ? (o.info as Record<string, unknown>) : {} };
}

/**
 * A value model given a policy head that agrees with it: the last layer widened by the win
 * log-odds column times `scale`, so the policy's choice is the value's (at score weight 0) until
 * training moves it. The scale makes the softmax as sure as the value's margins deserve: the
 * win log-odds of one decision's candidates differ by a few hundredths, and unscaled the
 * policy starts nearly uniform, so training's first steps only widen the logits and reorder
 * close candidates on the way (on a sample of searched decisions the cross-entropy to the search's choices was 1.42 unscaled, 0.77 times 10, 0.62 times 20).
 * Expert iteration starts here from the shipped model.
 */
export const POLICY_HEAD_SCALE = 20;

export function withPolicyHead(model: ValueModel, scale = POLICY_HEAD_SCALE): ValueModel {
  if (hasPolicyHead(model)) return model;
  const last = model.layers[model.layers.length - 1];
  const n = last.inputs, m = last.outputs;
  const kernel = new Float32Array(n * (m + 1));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) kernel[i * (m + 1) + j] = last.kernel[i * m + j];
    kernel[i * (m + 1) + m] = scale * last.kernel[i * m];
  }
  const bias = Float32Array.from([...last.bias, scale * last.bias[0]]);
  return { ...model, layers: [...model.layers.slice(0, -1), { inputs: n, outputs: m + 1, relu: last.relu, kernel, bias }], info: { ...model.info, policyHead: `the win log-odds times ${scale}` } };
}
