import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Agent, Turn } from '../../agents/agent.js';
import { defaultModel } from '../../agents/mah-jongg/default-model.js';
import { featureWidth, FEATURE_VERSION } from '../../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { forward, modelFromJson, type ValueModel } from '../../agents/mah-jongg/model.js';
import { PolicyAgent } from '../../lab/bots/policy.js';
import { hasPolicyHead, policyModelToJson, readPolicyModel, withPolicyHead } from '../../lab/bots/policy-model.js';
import { playOut } from '../../agents/table.js';
import { newGame, validate, type Action } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { loadCard } from '../../io/cards.js';
import { buildPolicyNet, joinExamples, netToModel, policyAgreement, trainOnExamples } from '../../lab/exit.js';
import { exitSelfPlay } from '../../lab/exit.worker.js';
import { loadTf } from '../../training/tf.js';

const SHIPPED = 'models/value-model.json';
const rules = loadRuleset('nmjl-4p');
const FEATURES = featureWidth(FEATURE_VERSION);

/** A model with small random weights and the policy head (deterministic). */
function randomPolicyModel(seed = 1): ValueModel {
  const rng = seedRng(seed);
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((rng[0] = (rng[0] * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.6);
  const widths = [FEATURES, 16, 8, 3];
  return {
    featureVersion: FEATURE_VERSION,
    layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < widths.length - 2, kernel: rand(widths[i] * m), bias: rand(m) })),
    info: {},
  };
}

/** The actions of a game of one `make()` player (seat 0) among three medium bots. */
function game(seed: number, make: () => Agent): string {
  const state = newGame(rules, loadCard(), seed);
  const actions: Action[] = [];
  playOut(mahJonggGame(rules, loadCard()), state, [make(), ...[1, 2, 3].map(() => new HeuristicAgent(loadCard(), MEDIUM_HABITS))], seedRng(seed), (a) => actions.push(a));
  return JSON.stringify(actions);
}

const norm = (a: Action) => JSON.stringify({ ...a, ...('tiles' in a ? { tiles: [...a.tiles].sort((p, q) => p - q) } : {}), ...('blind' in a ? { blind: a.blind ?? 0 } : {}) });

describe('the policy head', () => {
  it("an old two-output model file loads as it always has, and the learned player's choices are unchanged", () => {
    const text = readFileSync(SHIPPED, 'utf8');
    const old = readPolicyModel(text, SHIPPED);
    const plain = modelFromJson(text, SHIPPED);
    expect(hasPolicyHead(old)).toBe(false);
    expect(old.layers.map((l) => [l.inputs, l.outputs, l.relu, Array.from(l.kernel), Array.from(l.bias)])).toEqual(
      plain.layers.map((l) => [l.inputs, l.outputs, l.relu, Array.from(l.kernel), Array.from(l.bias)]),
    );
    for (const seed of [1, 2]) expect(game(seed, () => new LearnedAgent(loadCard(), old))).toBe(game(seed, () => new LearnedAgent(loadCard(), defaultModel())));
  });

  it('without a head the policy is the value; a head copied from the win log-odds chooses as the value does', () => {
    const old = readPolicyModel(readFileSync(SHIPPED, 'utf8'));
    const headed = withPolicyHead(old);
    expect(hasPolicyHead(headed)).toBe(true);
    // the file keeps the head, and an older reader refuses it with its own one-line reason
    const text = policyModelToJson(headed);
    expect(hasPolicyHead(readPolicyModel(text))).toBe(true);
    expect(() => modelFromJson(text, 'p.json')).toThrow('p.json gives 3 outputs; expected 2');
    for (const seed of [3, 4]) expect(game(seed, () => new PolicyAgent(loadCard(), headed))).toBe(game(seed, () => new PolicyAgent(loadCard(), old)));
  });

  it('the forward pass with the third output gives what TF.js gives, to 1e-5', async () => {
    const { tf } = await loadTf();
    const net = buildPolicyNet(tf, 11, FEATURES);
    const model = netToModel(net, {}, FEATURE_VERSION);
    const rows = 24;
    const x = Float32Array.from({ length: rows * FEATURES }, (_, i) => ((i * 7919) % 97) / 96);
    for (let r = 12; r < rows; r++) for (let i = 0; i < FEATURES; i++) x[r * FEATURES + i] = i % 12 === r % 12 ? 0.5 : x[i];
    const expected = (net.predict(tf.tensor2d(x, [rows, FEATURES])) as import('@tensorflow/tfjs').Tensor).dataSync();
    const got = forward(model, x, rows);
    expect(got.length).toBe(rows * 3);
    for (let i = 0; i < got.length; i++) expect(Math.abs(got[i] - expected[i])).toBeLessThan(1e-5);
    expect(Array.from(forward(readPolicyModel(policyModelToJson(model)), x, rows))).toEqual(Array.from(got));
  });
});

describe('the policy over every legal choice', () => {
  it('only ever returns a legal action (many positions from self-play, with and without a head)', () => {
    const cc = loadCard();
    let checked = 0,
      beyondShortlist = 0;
    for (const model of [defaultModel(), randomPolicyModel(5)]) {
      const player = new PolicyAgent(cc, model);
      const watched: Agent = {
        name: 'watched',
        act(turn: Turn): Action {
          const a = player.act(turn);
          const legal = turn.legal().map(norm);
          expect(legal).toContain(norm(a));
          checked++;
          if (legal.length > 6) beyondShortlist++;
          return a;
        },
      };
      for (const seed of [11, 12, 13, 14, 15, 16]) {
        const state = newGame(rules, cc, seed);
        // two seats play the policy, so it meets calls and exposures from both sides
        playOut(mahJonggGame(rules, cc), state, [watched, new HeuristicAgent(cc, MEDIUM_HABITS), watched, new HeuristicAgent(cc, MEDIUM_HABITS)], seedRng(seed), (_a, s) => validate(s));
        expect(state.result).not.toBeNull();
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(beyondShortlist).toBeGreaterThan(100);
  });
});

describe("the policy's Charleston held to the habits' pool", () => {
  it("passes and offers only tiles among the strong habits' five cheapest (copies up to two)", () => {
    const cc = loadCard();
    const player = new PolicyAgent(cc, defaultModel(), { passPool: 5 });
    const habits = new HeuristicAgent(cc, STRONG_HABITS);
    let passes = 0;
    const watched: Agent = {
      name: 'watched',
      act(turn: Turn): Action {
        const a = player.act(turn);
        if (a.type === 'pass' || a.type === 'courtesy') {
          const view = turn.view();
          const pool = new Map<number, number>();
          let n = 0;
          for (const { tile } of habits.rankView(view, seedRng(1)))
            for (let c = 0; c < view.concealed[tile] && c < 2 && n < 5; c++) {
              pool.set(tile, (pool.get(tile) ?? 0) + 1);
              n++;
            }
          for (const t of a.tiles) {
            expect(pool.get(t) ?? 0).toBeGreaterThan(0);
            pool.set(t, pool.get(t)! - 1);
          }
          passes++;
        }
        return a;
      },
    };
    for (const seed of [21, 22, 23]) playOut(mahJonggGame(rules, cc), newGame(rules, cc, seed), [watched, ...[1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS))], seedRng(seed));
    expect(passes).toBeGreaterThan(10);
  });
});

describe('expert iteration', () => {
  const model = policyModelToJson(withPolicyHead(readPolicyModel(readFileSync(SHIPPED, 'utf8'))));
  const task = { ruleset: 'nmjl-4p', cardText: '', model, budget: { worlds: 3, candidates: 3 }, seeds: [5, 6] };

  it('records the same targets from the same seeds, each a row of its own decision', () => {
    const a = exitSelfPlay(task),
      b = exitSelfPlay(task);
    expect(Array.from(a.policyTarget)).toEqual(Array.from(b.policyTarget));
    expect(Array.from(a.policyStart)).toEqual(Array.from(b.policyStart));
    expect(Buffer.from(a.policyX.buffer).equals(Buffer.from(b.policyX.buffer))).toBe(true);
    expect(Array.from(a.valueY)).toEqual(Array.from(b.valueY));
    const decisions = a.policyTarget.length;
    expect(decisions).toBeGreaterThan(10);
    expect(a.width).toBe(featureWidth(readPolicyModel(readFileSync(SHIPPED, 'utf8')).featureVersion)); // the shipped model's rows
    expect(a.policyStart[decisions] * a.width).toBe(a.policyX.length);
    for (let d = 0; d < decisions; d++) {
      expect(a.policyTarget[d]).toBeGreaterThanOrEqual(0);
      expect(a.policyTarget[d]).toBeLessThan(a.policyStart[d + 1] - a.policyStart[d]);
    }
    // value targets: the seat's outcome on every row of a game
    for (let i = 0; i < a.valueY.length; i += 2) expect([0, 1]).toContain(a.valueY[i]);
    expect(a.valueX.length).toBe((a.valueY.length / 2) * a.width);
    // another seed, other games
    expect(Array.from(exitSelfPlay({ ...task, seeds: [7, 8] }).policyStart)).not.toEqual(Array.from(a.policyStart));
  });

  it("training fits the search's choices it is given: agreement on its own examples does not fall", async () => {
    const { tf } = await loadTf();
    const ex = joinExamples([exitSelfPlay(task)]);
    const start = readPolicyModel(model);
    const all = Array.from({ length: ex.policyTarget.length }, (_, i) => i);
    const before = policyAgreement(start, ex, all, forward);
    // the policy alone (the value's loss weighed 0), long enough to fit 60-odd decisions
    const { model: trained } = await trainOnExamples(tf, start, ex, { epochs: 100, learningRate: 3e-3, policyWeight: 1, valueWeight: 0, seed: 1 });
    expect(hasPolicyHead(trained)).toBe(true);
    expect(policyAgreement(trained, ex, all, forward)).toBeGreaterThanOrEqual(before);
  }, 60_000);
});
