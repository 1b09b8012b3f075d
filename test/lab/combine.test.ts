import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { featureWidth } from '../../agents/mah-jongg/features.js';
import { forward, modelFromJson, modelToJson, type ValueModel } from '../../agents/mah-jongg/model.js';
import { averageModels, ensembleModels } from '../../lab/combine-models.js';

/** Random weights of a network of these widths (deterministic from the seed). */
function randomModel(seed: number, hidden = [16, 8], version = 2): ValueModel {
  let x = seed;
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.6);
  const widths = [featureWidth(version), ...hidden, 2];
  return { featureVersion: version, layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < widths.length - 2, kernel: rand(widths[i] * m), bias: rand(m) })), info: {} };
}

const rows = (n: number, width: number, seed: number) => {
  let x = seed;
  return Float32Array.from({ length: n * width }, (_, i) => (i % 3 === 0 ? 0 : (x = (x * 69069 + 1) >>> 0) / 2 ** 32));
};

describe('combining models', () => {
  it("an ensemble gives the mean of its models' outputs, models of other widths included", () => {
    const models = [randomModel(1), randomModel(2), randomModel(3, [24, 4])];
    const ensemble = ensembleModels(models);
    expect(ensemble.layers.map((l) => [l.inputs, l.outputs])).toEqual([
      [featureWidth(2), 56],
      [56, 20],
      [20, 2],
    ]);
    const x = rows(7, featureWidth(2), 5);
    const y = forward(ensemble, x, 7);
    const each = models.map((m) => Array.from(forward(m, x, 7)));
    for (let i = 0; i < 14; i++) expect(y[i]).toBeCloseTo((each[0][i] + each[1][i] + each[2][i]) / 3, 5);
    // a file like any other: read back, it plays the same
    expect(Array.from(forward(modelFromJson(modelToJson(ensemble)), x, 7))).toEqual(Array.from(y));
  });

  it('an average holds the mean of each weight', () => {
    const [a, b] = [randomModel(1), randomModel(2)];
    const mean = averageModels([a, b]);
    for (let k = 0; k < 3; k++) {
      mean.layers[k].kernel.forEach((v, i) => expect(v).toBeCloseTo((a.layers[k].kernel[i] + b.layers[k].kernel[i]) / 2, 6));
      mean.layers[k].bias.forEach((v, i) => expect(v).toBeCloseTo((a.layers[k].bias[i] + b.layers[k].bias[i]) / 2, 6));
    }
    // the same model twice is itself
    const x = rows(4, featureWidth(2), 9);
    expect(Array.from(forward(averageModels([a, a]), x, 4))).toEqual(Array.from(forward(a, x, 4)));
  });

  it('refuses what cannot be combined, naming the model', () => {
    expect(() => averageModels([randomModel(1)])).toThrow('give two models or more');
    expect(() => averageModels([randomModel(1), randomModel(2, [24, 4])], ['a.json', 'b.json'])).toThrow("b.json's layers are not as wide as a.json's");
    expect(() => ensembleModels([randomModel(1), { ...randomModel(2), featureVersion: 1 }], ['a.json', 'b.json'])).toThrow('b.json reads feature version 1, a.json version 2');
    expect(() => ensembleModels([randomModel(1), randomModel(2, [16])], ['a.json', 'b.json'])).toThrow('b.json has 2 layers, a.json 3');
  });

  it('writes a model file from the command line, and says what was wrong in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-combine-'));
    writeFileSync(join(dir, 'a.json'), modelToJson(randomModel(1)));
    writeFileSync(join(dir, 'b.json'), modelToJson(randomModel(2)));
    const run = (...args: string[]) => spawnSync(process.execPath, ['dist/lab/combine-models.js', ...args], { encoding: 'utf8' });
    const ok = run('ensemble', join(dir, 'e.json'), join(dir, 'a.json'), join(dir, 'b.json'));
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('an ensemble of 2 models');
    expect(modelFromJson(readFileSync(join(dir, 'e.json'), 'utf8')).layers[0].outputs).toBe(32);
    writeFileSync(join(dir, 'cut.json'), modelToJson(randomModel(3)).slice(0, 100));
    const bad = run('average', join(dir, 'm.json'), join(dir, 'a.json'), join(dir, 'cut.json'));
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('cut.json');
  });
});
