import { describe, expect, it } from 'vitest';
import { featureWidth } from '../../agents/mah-jongg/features.js';
import { forward, type ValueModel } from '../../agents/mah-jongg/model.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
import { agreement, distill, teacherDecisions } from '../../lab/distill.js';

/** Random weights of a network of these widths (deterministic from the seed). */
function randomModel(seed: number, hidden = [16, 8], version = 2): ValueModel {
  let x = seed;
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.6);
  const widths = [featureWidth(version), ...hidden, 2];
  return { featureVersion: version, layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < widths.length - 2, kernel: rand(widths[i] * m), bias: rand(m) })), info: {} };
}

const ruleset = loadRuleset('nmjl-4p');
const cc = loadCard();

describe('distilling a model from a teacher', () => {
  it("keeps whole decisions of the teacher's games, the same ones again from the same seeds", () => {
    const teacher = randomModel(1, [24, 8]);
    const a = teacherDecisions(ruleset, cc, teacher, [1, 2, 3], 0.5, 7);
    const b = teacherDecisions(ruleset, cc, teacher, [1, 2, 3], 0.5, 7);
    expect(a.starts.length).toBeGreaterThan(10);
    expect(a.starts[0]).toBe(0);
    expect(a.starts.at(-1)).toBe(a.rows);
    for (let d = 0; d + 1 < a.starts.length; d++) expect(a.starts[d + 1] - a.starts[d]).toBeGreaterThanOrEqual(2);
    expect(a.x.length).toBe(a.rows * featureWidth(2));
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    // keeping every decision keeps more of them
    expect(teacherDecisions(ruleset, cc, teacher, [1, 2, 3], 1, 7).starts.length).toBeGreaterThan(a.starts.length);
  });

  it('counts a decision as agreed when both models rate the same row best', () => {
    // two decisions: rows 0-2 and 3-4 (outputs: log-odds, score, row after row)
    const a = Float64Array.from([0.1, 0, 0.5, 0, 0.2, 0, 1, 0, 0, 0]);
    const b = Float64Array.from([0.0, 0, 0.9, 0, 0.3, 0, 0, 0, 2, 0]);
    expect(agreement(a, b, [0, 3, 5])).toBe(0.5);
    expect(agreement(a, a, [0, 3, 5])).toBe(1);
  });

  it("brings the student's ratings toward the teacher's", async () => {
    const teacher = randomModel(3, [32, 16]);
    const from = randomModel(4);
    const games = 20;
    const { model, figures } = await distill({ teacher, from, cards: [cc], ruleset, games, keep: 1, epochs: 20, learningRate: 3e-3, seed: 5, command: 'test' });
    expect(model.layers.map((l) => [l.inputs, l.outputs])).toEqual(from.layers.map((l) => [l.inputs, l.outputs]));
    expect(figures.agreementAfter).toBeGreaterThan(figures.agreementBefore);
    // on rows of other games: the student's win log-odds nearer the teacher's than they were
    const d = teacherDecisions(ruleset, cc, teacher, [101, 102, 103], 1, 9);
    const gap = (m: ValueModel) => {
      const t = forward(teacher, d.x, d.rows),
        s = forward(m, d.x, d.rows);
      let sum = 0;
      for (let i = 0; i < d.rows; i++) sum += (t[2 * i] - s[2 * i]) ** 2;
      return sum / d.rows;
    };
    expect(gap(model)).toBeLessThan(gap(from) / 2);
  }, 60_000);

  it('refuses a teacher of another feature version', async () => {
    await expect(
      distill({ teacher: { ...randomModel(1, [8, 4]), featureVersion: 1 }, from: randomModel(2), cards: [cc], ruleset, games: 1, keep: 1, epochs: 1, learningRate: 1e-3, seed: 1, command: 'test' }),
    ).rejects.toThrow(/feature version 1 .* version 2/);
  });
});
