import { featureWidth } from '../agents/mah-jongg/features.js';
import { TilemateError } from '../engine/errors.js';
import type { DenseLayer, ValueModel } from '../agents/mah-jongg/model.js';
import type { TF } from './tf.js';

type LayersModel = import('@tensorflow/tfjs').LayersModel;
type Tensor = import('@tensorflow/tfjs').Tensor;

/** Hidden layer widths of the value network. */
export const HIDDEN = [64, 32] as const;

/**
 * The value network in TensorFlow.js: `inputs` inputs (a feature version's width), ReLU hidden layers (`hidden` wide, by
 * default HIDDEN), two outputs (the win log-odds and the score / 100), the same network
 * agents/mah-jongg/model.ts runs without TF.js, whatever its widths.
 */
export function buildNet(tf: TF, seed: number, hidden: readonly number[], inputs: number): LayersModel {
  const model = tf.sequential();
  hidden.forEach((units, i) =>
    model.add(
      tf.layers.dense({
        ...(i === 0 ? { inputShape: [inputs] } : {}),
        units,
        activation: 'relu',
        kernelInitializer: tf.initializers.heNormal({ seed: seed + i }),
      }),
    ),
  );
  model.add(tf.layers.dense({ units: 2, kernelInitializer: tf.initializers.glorotNormal({ seed: seed + 99 }) }));
  return model;
}

/** Weight of the score's squared error beside the win's cross-entropy. */
export const SCORE_LOSS_WEIGHT = 0.5;

/** Cross-entropy of the win log-odds plus the score's squared error (labels: won 0/1, score / 100). */
export function valueLoss(tf: TF) {
  return (yTrue: Tensor, yPred: Tensor): Tensor =>
    tf.tidy(() => {
      const [won, score] = tf.split(yTrue, 2, 1);
      const [logit, predicted] = tf.split(yPred, 2, 1);
      const ce = tf.losses.sigmoidCrossEntropy(won, logit);
      const se = tf.losses.meanSquaredError(score, predicted);
      return tf.add(ce, tf.mul(se, SCORE_LOSS_WEIGHT));
    });
}

/** The network's weights as the bots' model. */
export function toValueModel(net: LayersModel, featureVersion: number, info: Record<string, unknown>): ValueModel {
  const layers: DenseLayer[] = [];
  const dense = net.layers;
  dense.forEach((layer, i) => {
    const [kernel, bias] = layer.getWeights();
    const [inputs, outputs] = kernel.shape as [number, number];
    layers.push({ inputs, outputs, relu: i < dense.length - 1, kernel: Float32Array.from(kernel.dataSync()), bias: Float32Array.from(bias.dataSync()) });
  });
  return { featureVersion, layers, info };
}

/** Loads a model's weights into a network of the same shape. */
export function setWeights(tf: TF, net: LayersModel, model: ValueModel): void {
  const shapes = net.layers.map((l) => l.getWeights()[0].shape);
  const fits = model.layers.length === shapes.length && model.layers.every((l, i) => l.inputs === shapes[i][0] && l.outputs === shapes[i][1]);
  if (!fits) throw new Error(`the model's layers (${model.layers.map((l) => l.outputs).join('-')}) do not match the network (${shapes.map((s) => s[1]).join('-')})`);
  net.layers.forEach((layer, i) => {
    const l = model.layers[i];
    layer.setWeights([tf.tensor2d(l.kernel, [l.inputs, l.outputs]), tf.tensor1d(l.bias)]);
  });
}

/**
 * A model read at a later feature version: each version's row begins with the version before's
 * numbers, so an older model's first layer is kept for them and given weights of 0 for the rest;
 * it rates every afterstate as before until training moves them. Carrying a model back to an
 * earlier version is refused, naming `source`.
 */
export function withFeatureVersion(model: ValueModel, version: number, source: string): ValueModel {
  if (model.featureVersion === version) return model;
  if (model.featureVersion > version) {
    throw new TilemateError('TM_BAD_MODEL', `${source} reads feature version ${model.featureVersion}; it cannot be carried back to version ${version}: train a new model`);
  }
  const [first, ...rest] = model.layers;
  const inputs = featureWidth(version);
  const kernel = new Float32Array(inputs * first.outputs);
  kernel.set(first.kernel); // [inputs][outputs], row-major: the old inputs' rows first
  return { ...model, featureVersion: version, layers: [{ ...first, inputs, kernel }, ...rest], info: { ...model.info, featureVersionFrom: model.featureVersion } };
}
