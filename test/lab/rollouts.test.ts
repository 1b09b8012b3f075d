import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.js';
import { defaultModel } from '../../agents/mah-jongg/default-model.js';
import { featureWidth } from '../../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { forward, type ValueModel } from '../../agents/mah-jongg/model.js';
import { playOut } from '../../agents/table.js';
import { newGame } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
import { fitChoices, fitRollouts, joined, readLabelled, regret, rolloutDecisions, targets, writeLabelled, type Labelled } from '../../lab/rollouts.js';
import { selfPlaySeats } from '../../training/selfplay.js';
import { TRAIN_DEFAULTS } from '../../training/train.js';

const ruleset = loadRuleset('nmjl-4p');
const cc = loadCard();
const model = defaultModel()!;
const dir = mkdtempSync(join(tmpdir(), 'tm-rollouts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const play = (seeds: number[], keep = 1, keepCharleston = 1, explore?: number) => rolloutDecisions({ ruleset, cc, model, seeds, keep, keepCharleston, seed: 3, explore });

describe('value targets from the true world', () => {
  it('labels every row of a decision by playing the true state on: the row the seat took ends as its game did', () => {
    // with no exploring, the seat takes the row its model rates highest, and the rollouts' players are the game's
    // games with one learned seat, so that every decision is hers
    const seeds = [11, 12, 13, 14, 15, 16, 17, 18].filter((s) => selfPlaySeats(s, ruleset.players, TRAIN_DEFAULTS.play.allLearned).learnedSeats.filter(Boolean).length === 1).slice(0, 4);
    expect(seeds.length).toBe(4);
    let decisions = 0,
      differ = 0;
    for (const s of seeds) {
      const d = play([s], 1, 1, 0);
      const { rng, learnedSeats } = selfPlaySeats(s, ruleset.players, TRAIN_DEFAULTS.play.allLearned);
      const learned = new LearnedAgent(cc, model);
      const medium = new HeuristicAgent(cc, MEDIUM_HABITS);
      const state = newGame(ruleset, cc, s);
      playOut(
        mahJonggGame(ruleset, cc),
        state,
        learnedSeats.map((l): Agent => (l ? learned : medium)),
        rng,
      );
      const seat = learnedSeats.indexOf(true),
        r = state.result!;
      const out = forward(model, d.x, d.rows);
      expect(d.starts.length).toBeGreaterThan(5);
      for (let k = 0; k + 1 < d.starts.length; k++) {
        const a = d.starts[k],
          b = d.starts[k + 1];
        expect(b - a).toBeGreaterThanOrEqual(2);
        let best = a;
        for (let i = a + 1; i < b; i++) if (out[2 * i] > out[2 * best]) best = i;
        expect([d.y[2 * best], d.y[2 * best + 1]]).toEqual([r.winners.includes(seat) ? 1 : 0, Math.fround(r.scores[seat] / 100)]);
        decisions++;
        for (let i = a; i < b; i++)
          if (d.y[2 * i + 1] !== d.y[2 * a + 1]) {
            differ++;
            break;
          }
      }
    }
    // and the other rows are games of their own: some end otherwise
    expect(differ).toBeGreaterThan(0);
    expect(differ).toBeLessThan(decisions);
  });

  it('plays the same decisions again from the same seeds, and keeps them whole on disk', () => {
    const a = play([21, 22], 0.3, 0.2),
      b = play([21, 22], 0.3, 0.2);
    expect(a.starts.length).toBeGreaterThan(3);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect(Array.from(b.y)).toEqual(Array.from(a.y));
    expect(a.x.length).toBe(a.rows * featureWidth(model.featureVersion));
    for (let i = 0; i < a.rows; i++) expect([0, 1]).toContain(a.y[2 * i]);
    const file = join(dir, 'a.bin');
    writeLabelled(file, a);
    const back = readLabelled(file);
    expect(back.starts).toEqual(a.starts);
    expect(Array.from(back.x)).toEqual(Array.from(a.x));
    expect(Array.from(back.y)).toEqual(Array.from(a.y));
    // two files as one: the second's decisions after the first's
    const both = joined([a, back]);
    expect(both.starts).toEqual([...a.starts.slice(0, -1), ...a.starts.map((s) => s + a.rows)]);
    // a file cut off is refused, naming it
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, readFileSync(file).subarray(0, 1000));
    expect(() => readLabelled(cut)).toThrow(/cut\.bin is not a whole rollouts file/);
  }, 60_000);

  it("centred targets keep the model's mean over a decision and the labels' differences within it", () => {
    const d = play([31], 1, 0.5);
    const t = targets(d, model, true, 5);
    const plain = targets(d, model, false, 5);
    const out = forward(model, t.x, t.rows);
    expect(t.starts).toEqual(plain.starts);
    for (let k = 0; k + 1 < t.starts.length; k++) {
      const a = t.starts[k],
        b = t.starts[k + 1],
        n = b - a;
      let model = 0,
        target = 0;
      for (let i = a; i < b; i++) {
        model += out[2 * i + 1] / n;
        target += t.y[2 * i + 1] / n;
      }
      expect(target).toBeCloseTo(model, 5);
      for (let i = a + 1; i < b; i++) expect(t.y[2 * i + 1] - t.y[2 * a + 1]).toBeCloseTo(plain.y[2 * i + 1] - plain.y[2 * a + 1], 5);
      for (let i = a; i < b; i++) expect(t.y[2 * i]).toBeGreaterThanOrEqual(0);
      for (let i = a; i < b; i++) expect(t.y[2 * i]).toBeLessThanOrEqual(1);
    }
  });

  it("counts what a model's choices give up against the best row of each decision", () => {
    // a one-input model rating rows by their input: two decisions, rows 0-2 and 3-4
    const w = featureWidth(model.featureVersion);
    const m: ValueModel = {
      featureVersion: model.featureVersion,
      info: {},
      layers: [{ inputs: w, outputs: 2, relu: false, kernel: Float32Array.from({ length: 2 * w }, (_, i) => (i === 0 ? 1 : 0)), bias: new Float32Array(2) }],
    };
    const x = new Float32Array(5 * w);
    [0.9, 0.1, 0.5, 0.2, 0.8].forEach((v, r) => {
      x[r * w] = v;
    });
    const d: Labelled = { width: w, x, rows: 5, starts: [0, 3, 5], y: Float32Array.from([0, -0.5, 1, 0.25, 0, 0, 0, 0.1, 0, -0.1]) };
    // first: takes row 0 (lost, -0.5) where row 1 won (0.25); second: takes row 4 (-0.1) where row 3 had 0.1
    const r = regret(m, d);
    expect(r.win).toBeCloseTo(0.5, 6);
    expect(r.score).toBeCloseTo((0.75 + 0.2) / 2, 6);
  });

  it('fits a model towards the labels, keeping its shape', async () => {
    const d = play([41, 42, 43], 1, 1);
    const before = model;
    const lines: string[] = [];
    const after = await fitRollouts({ data: d, from: before, centered: false, epochs: 8, learningRate: 3e-3, seed: 2, command: 'test', log: (l) => lines.push(l) });
    expect(after.layers.map((l) => [l.inputs, l.outputs])).toEqual(before.layers.map((l) => [l.inputs, l.outputs]));
    const loss = (m: ValueModel) => {
      const out = forward(m, d.x, d.rows);
      let sum = 0;
      for (let i = 0; i < d.rows; i++) sum += (1 / (1 + Math.exp(-out[2 * i])) - d.y[2 * i]) ** 2;
      return sum / d.rows;
    };
    expect(loss(after)).toBeLessThan(loss(before));
    expect(lines[0]).toMatch(/decisions, \d+ rows; held out \d+; regret before/);
    expect(lines.filter((l) => l.startsWith('epoch '))).toHaveLength(8);
    expect((after.info.rollouts as Record<string, number>).decisions).toBe(d.starts.length - 1);
  }, 120_000);

  it('fits the choices: a row that always wins comes to be chosen', async () => {
    // synthetic decisions of three rows; the row with the largest first input wins its game
    const w = featureWidth(model.featureVersion),
      decisions = 1500;
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const x = new Float32Array(decisions * 3 * w),
      y = new Float32Array(decisions * 3 * 2),
      starts: number[] = [];
    for (let k = 0; k < decisions; k++) {
      starts.push(3 * k);
      let best = 0;
      for (let i = 0; i < 3; i++) {
        // the rows of a decision differ only in the first input
        x[(3 * k + i) * w] = rand();
        for (let j = 1; j < w; j++) x[(3 * k + i) * w + j] = i === 0 ? rand() : x[3 * k * w + j];
        if (x[(3 * k + i) * w] > x[(3 * k + best) * w]) best = i;
      }
      y[2 * (3 * k + best)] = 1;
    }
    starts.push(3 * decisions);
    const data: Labelled = { width: w, x, y, rows: 3 * decisions, starts };
    const after = await fitChoices({ data, from: model, tau: 0.05, keepNear: 0.01, epochs: 8, learningRate: 3e-3, seed: 1, command: 'test' });
    const f = after.info.rollouts as Record<string, number>;
    expect(after.layers.map((l) => [l.inputs, l.outputs])).toEqual(model.layers.map((l) => [l.inputs, l.outputs]));
    expect(f.chosenWonAfter).toBeGreaterThan(f.chosenWonBefore + 0.2);
  }, 120_000);
});
