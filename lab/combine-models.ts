/**
 * `node dist/lab/combine-models.js average|ensemble OUT MODEL...`: one value model from
 * several, for measuring (docs/training.md, "Averages, ensembles and TD(λ)"):
 * - `average`: each weight the mean of the models' (stochastic weight averaging: for
 *   generations of one run, which share their hidden units' roles);
 * - `ensemble`: the models side by side in one wider network whose outputs are the mean of
 *   theirs (any models of one feature version and depth, from any runs); it costs their forward
 *   passes together.
 * The result is an ordinary model file: `learned-file` and `expert-file` play it
 * (TILEMATE_POLICY_MODEL).
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TilemateError } from '../engine/errors.js';
import { readModelFile } from '../agents/mah-jongg/default-model.js';
import { modelToJson, type DenseLayer, type ValueModel } from '../agents/mah-jongg/model.js';

function sameKind(models: readonly ValueModel[], names: readonly string[], shapes: boolean): void {
  if (models.length < 2) throw new TilemateError('TM_BAD_MODEL', 'give two models or more to combine');
  const first = models[0];
  models.forEach((m, i) => {
    if (m.featureVersion !== first.featureVersion)
      throw new TilemateError('TM_BAD_MODEL', `${names[i]} reads feature version ${m.featureVersion}, ${names[0]} version ${first.featureVersion}: combine models of one version`);
    if (m.layers.length !== first.layers.length) throw new TilemateError('TM_BAD_MODEL', `${names[i]} has ${m.layers.length} layers, ${names[0]} ${first.layers.length}: combine models of one depth`);
    if (shapes && m.layers.some((l, k) => l.outputs !== first.layers[k].outputs))
      throw new TilemateError('TM_BAD_MODEL', `${names[i]}'s layers are not as wide as ${names[0]}'s: average the generations of one run`);
    if (m.layers.some((l, k) => l.relu !== first.layers[k].relu)) throw new TilemateError('TM_BAD_MODEL', `${names[i]}'s layers do not match ${names[0]}'s`);
  });
}

/** Each weight the mean of the models' (same shape and feature version). */
export function averageModels(models: readonly ValueModel[], names: readonly string[] = models.map((_, i) => `model ${i + 1}`)): ValueModel {
  sameKind(models, names, true);
  // summed in double precision, then divided
  const mean = (pick: (m: ValueModel) => Float32Array) => {
    const sum = new Float64Array(pick(models[0]).length);
    for (const m of models)
      pick(m).forEach((v, i) => {
        sum[i] += v;
      });
    return Float32Array.from(sum, (v) => v / models.length);
  };
  const layers = models[0].layers.map((l, k): DenseLayer => ({ ...l, kernel: mean((m) => m.layers[k].kernel), bias: mean((m) => m.layers[k].bias) }));
  return { featureVersion: models[0].featureVersion, layers, info: { averaged: names } };
}

/**
 * The models side by side: the first layer's outputs of all of them, each later hidden layer
 * block by block (a model's units read only its own), and the last layer the mean of theirs.
 */
export function ensembleModels(models: readonly ValueModel[], names: readonly string[] = models.map((_, i) => `model ${i + 1}`)): ValueModel {
  sameKind(models, names, false);
  const depth = models[0].layers.length;
  const layers: DenseLayer[] = [];
  for (let k = 0; k < depth; k++) {
    const first = k === 0,
      last = k === depth - 1;
    const parts = models.map((m) => m.layers[k]);
    const inputs = first ? parts[0].inputs : parts.reduce((n, l) => n + l.inputs, 0);
    const outputs = last ? parts[0].outputs : parts.reduce((n, l) => n + l.outputs, 0);
    const kernel = new Float32Array(inputs * outputs),
      bias = new Float32Array(outputs);
    let row0 = 0,
      col0 = 0;
    for (const l of parts) {
      for (let a = 0; a < l.inputs; a++) {
        for (let b = 0; b < l.outputs; b++) {
          const at = ((first ? 0 : row0) + a) * outputs + (last ? 0 : col0) + b;
          kernel[at] += last ? l.kernel[a * l.outputs + b] / parts.length : l.kernel[a * l.outputs + b];
        }
      }
      for (let b = 0; b < l.outputs; b++) bias[(last ? 0 : col0) + b] += last ? l.bias[b] / parts.length : l.bias[b];
      row0 += l.inputs;
      col0 += l.outputs;
    }
    layers.push({ inputs, outputs, relu: parts[0].relu, kernel, bias });
  }
  return { featureVersion: models[0].featureVersion, layers, info: { ensemble: names } };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [how, out, ...files] = process.argv.slice(2);
  if ((how !== 'average' && how !== 'ensemble') || out === undefined || files.length < 2) {
    console.error('usage: node dist/lab/combine-models.js average|ensemble OUT MODEL MODEL...');
    process.exit(2);
  }
  try {
    const models = files.map(readModelFile);
    const model = how === 'average' ? averageModels(models, files) : ensembleModels(models, files);
    writeFileSync(out, modelToJson(model));
    console.log(`${out}: ${how === 'average' ? 'the average' : 'an ensemble'} of ${files.length} models, layers ${model.layers.map((l) => `${l.inputs}x${l.outputs}`).join(', ')}`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
