import { TilemateError } from '../../engine/errors.js';
import { layersJson, MODEL_FORMAT, modelBody, modelFromJson, type ValueModel } from '../../agents/mah-jongg/model.js';

/**
 * A value model with a policy head (expert iteration, lab/exit.ts): the same network as
 * agents/mah-jongg/model.ts with a third output, a policy logit per afterstate; the softmax of the logits
 * over a decision's candidates is the policy over every legal choice. The file keeps the value
 * model's format name and says the head in `formatVersion` 2 and `heads`, so an older Tilemate
 * refuses it with its own one-line reason ("gives 3 outputs; expected 2") instead of misreading it.
 *
 * `readPolicyModel` reads both: a version-1 file (two outputs) comes back exactly as
 * agents/mah-jongg/model.ts reads it, and a player given it rates the policy by the value (hasPolicyHead false).
 */
export const POLICY_FORMAT_VERSION = 2;
export const POLICY_OUTPUTS = ['win log-odds', 'score / 100', 'policy logit'] as const;

/** Whether a model has the policy head (a third output). */
export const hasPolicyHead = (model: ValueModel): boolean => model.layers[model.layers.length - 1].outputs === POLICY_OUTPUTS.length;

/** A model with the policy head as a file's text (a version-2 value model). */
export function policyModelToJson(model: ValueModel): string {
  if (!hasPolicyHead(model)) throw new Error('policyModelToJson: the model has no policy head (write it with modelToJson)');
  return JSON.stringify({
    format: MODEL_FORMAT,
    formatVersion: POLICY_FORMAT_VERSION,
    heads: ['value', 'policy'],
    featureVersion: model.featureVersion,
    outputs: POLICY_OUTPUTS,
    layers: layersJson(model),
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
  if (o.format !== MODEL_FORMAT || o.formatVersion !== POLICY_FORMAT_VERSION)
    throw new TilemateError('TM_BAD_MODEL', `${source} is not a Tilemate value model of format version ${POLICY_FORMAT_VERSION}`);
  return modelBody(o, source, POLICY_OUTPUTS.length);
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
  const n = last.inputs,
    m = last.outputs;
  const kernel = new Float32Array(n * (m + 1));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) kernel[i * (m + 1) + j] = last.kernel[i * m + j];
    kernel[i * (m + 1) + m] = scale * last.kernel[i * m];
  }
  const bias = Float32Array.from([...last.bias, scale * last.bias[0]]);
  return { ...model, layers: [...model.layers.slice(0, -1), { inputs: n, outputs: m + 1, relu: last.relu, kernel, bias }], info: { ...model.info, policyHead: `the win log-odds times ${scale}` } };
}
