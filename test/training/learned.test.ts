import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCard, readCardText } from '../../io/cards.js';
import { Encoder, featureNames, featureWidth, FEATURE_VERSION, FEATURE_VERSIONS, type Afterstate } from '../../agents/mah-jongg/features.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import { forward, modelFromJson, modelToJson, type ValueModel } from '../../agents/mah-jongg/model.js';
import { playOut } from '../../agents/table.js';
import { HeuristicAgent, MEDIUM_HABITS, myExposures } from '../../agents/mah-jongg/heuristic.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { newGame, validate, view, waitingOn, type Action } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { JOKER, KINDS } from '../../engine/mah-jongg/tiles.js';
import { loadRuleset, RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { buildNet, HIDDEN, toValueModel, withFeatureVersion } from '../../training/net.js';
import { loadTf } from '../../training/tf.js';
import { readCheckpoint, train, type TrainOptions } from '../../training/train.js';
import { searchAgreement } from '../../training/train.worker.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { readSeat } from '../../engine/mah-jongg/reading.js';

const FEATURES = featureWidth(FEATURE_VERSION);

/** A model with small random weights (deterministic). */
function randomModel(seed = 1, version = FEATURE_VERSION): ValueModel {
  const rng = seedRng(seed);
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((rng[0] = (rng[0] * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.4);
  const widths = [featureWidth(version), 16, 8, 2];
  return {
    featureVersion: version,
    layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < widths.length - 2, kernel: rand(widths[i] * m), bias: rand(m) })),
    info: {},
  };
}

describe('the value model', () => {
  it('the typed-array forward pass gives what TF.js gives, to 1e-5', async () => {
    const { tf } = await loadTf();
    const net = buildNet(tf, 7, HIDDEN, FEATURES);
    const model = toValueModel(net, FEATURE_VERSION, {});
    const rows = 32;
    const x = Float32Array.from({ length: rows * FEATURES }, (_, i) => ((i * 7919) % 101) / 100);
    // rows like a decision's candidates: the first row's inputs with a few changed
    for (let r = 16; r < rows; r++) for (let i = 0; i < FEATURES; i++) x[r * FEATURES + i] = i % 16 === r % 16 ? 0.25 : x[i];
    const expected = (net.predict(tf.tensor2d(x, [rows, FEATURES])) as import('@tensorflow/tfjs').Tensor).dataSync();
    const got = forward(model, x, rows);
    expect(got.length).toBe(rows * 2);
    for (let i = 0; i < got.length; i++) expect(Math.abs(got[i] - expected[i])).toBeLessThan(1e-5);
    // and through the file format
    const again = forward(modelFromJson(modelToJson(model)), x, rows);
    expect(Array.from(again)).toEqual(Array.from(got));
    // a caller's output buffer is filled in place, and other passes in between (fewer rows,
    // the layers' scratch reused) change neither an earlier result nor the next one
    const kept = Array.from(got);
    forward(model, x.subarray(0, 3 * FEATURES), 3);
    const buffer = new Float64Array(2 * rows + 6).fill(Number.NaN);
    expect(forward(model, x, rows, buffer)).toBe(buffer);
    expect(Array.from(buffer.subarray(0, 2 * rows))).toEqual(kept);
    expect(Array.from(got)).toEqual(kept);
  });

  it('a cut-off, foreign or mismatched model file is refused with a one-line reason', () => {
    const text = modelToJson(randomModel());
    const refuse = (t: string) => {
      try {
        modelFromJson(t, 'm.json');
      } catch (e) {
        return e as { code: string; message: string };
      }
      throw new Error('accepted');
    };
    expect(refuse(text.slice(0, text.length / 2))).toMatchObject({ code: 'TM_BAD_MODEL', message: 'm.json is not JSON (cut off or not a model file)' });
    expect(refuse('{"hello": 1}').message).toBe('m.json is not a Tilemate value model');
    const doc = JSON.parse(text);
    expect(refuse(JSON.stringify({ ...doc, featureVersion: 5 })).message).toBe('m.json was trained on feature version 5; this Tilemate encodes versions 2 and 4: train a new model');
    // the retired versions (1, the model shipped before version 2; 3, measured and not shipped) are refused alike
    for (const old of [1, 3])
      expect(refuse(JSON.stringify({ ...doc, featureVersion: old })).message).toBe(`m.json was trained on feature version ${old}; this Tilemate encodes versions 2 and 4: train a new model`);
    doc.layers[1].kernel = doc.layers[1].kernel.slice(0, 40);
    expect(refuse(JSON.stringify(doc)).message).toMatch(/layer 2's kernel holds \d+ numbers; expected 128/);
  });
});

describe('features', () => {
  it('describe a hand through the card, so the same encoder reads any card, in every feature version', () => {
    const own = compileCard(parseCard('[Test]\n222a 444a 6666a 8888a ; x 25\nNNNN EEE 2222a 333a ; c 30\n'));
    for (const version of FEATURE_VERSIONS) {
      const width = featureWidth(version),
        names = featureNames(version);
      for (const cc of [loadCard(), own]) {
        const state = newGame(loadRuleset('nmjl-4p'), cc, 3);
        const enc = new Encoder(cc, { version });
        expect(enc.width).toBe(width);
        const v = view(state, 1);
        enc.begin(v);
        const out = new Float32Array(width + 2).fill(-9);
        enc.encode({ concealed: v.concealed, exposures: [], unknown: 3, charlestonLeft: 5, kind: 'pass' }, out, 1);
        expect(out[0]).toBe(-9);
        expect(out[width + 1]).toBe(-9);
        for (let i = 1; i <= width; i++) {
          expect(out[i]).toBeGreaterThanOrEqual(0);
          expect(out[i]).toBeLessThanOrEqual(1.5);
        }
        expect(out[1 + names.indexOf('tiles to come')]).toBe(1);
        expect(out[1 + names.indexOf('line 1 present')]).toBe(1);
        // version 4 reads no opponent before play: nothing has been shown
        if (version === 4) expect(Array.from(out.subarray(1 + featureWidth(2), 1 + width))).toEqual(new Array(width - featureWidth(2)).fill(0));
      }
      expect(names).toHaveLength(width);
      expect(new Set(names).size).toBe(width);
    }
    expect(FEATURE_VERSIONS).toEqual([2, 4]);
    expect(FEATURE_VERSION).toBe(2);
    // version 4 begins with version 2's names, in order
    expect(featureNames(4).slice(0, featureWidth(2))).toEqual(featureNames(2));
    expect(() => featureWidth(1)).toThrow('feature version 1 is not one this Tilemate encodes (2, 4)');
    expect(() => featureNames(3)).toThrow('feature version 3 is not one this Tilemate encodes (2, 4)');
  });

  it("read an afterstate the same whether its tiles are mended from the decision's hand or placed afresh, and say what the table shows", () => {
    const cc = loadCard();
    const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
    const W2 = featureWidth(2),
      names = featureNames(2);
    const at = (name: string) => names.indexOf(name);
    const mended = new Encoder(cc, { version: 2 }),
      plain = new Encoder(cc, { version: 2, mend: false }),
      v4 = new Encoder(cc, { version: 4 });
    const a = new Float32Array(W2),
      b = new Float32Array(W2),
      e4 = new Float32Array(featureWidth(4));
    const at4 = (name: string) => featureNames(4).indexOf(name);
    let checked = 0,
      exposed = 0,
      opponentsExposed = 0,
      jokersOnTable = 0,
      dangerous = 0,
      readNeeds = 0,
      readSure = 0,
      readLines = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      playOut(mahJonggGame(loadRuleset('nmjl-4p'), cc), newGame(loadRuleset('nmjl-4p'), cc, seed), medium, seedRng(seed), (_action, s) => {
        if (s.phase.kind !== 'discard' && s.phase.kind !== 'claims') return;
        const seat = waitingOn(s)[0];
        if (seat === undefined) return;
        const v = view(s, seat);
        const mine = myExposures(v);
        for (const e of [mended, plain, v4]) e.begin(v);
        // version 4: each opponent's reading, from the seat's view alone
        const readings = [1, 2, 3].map((k) => (v.dead[(seat + k) % 4].every((x) => x) ? null : readSeat(cc, v, (seat + k) % 4)));
        const afterstates: Afterstate[] = [{ concealed: v.concealed, exposures: mine, unknown: 0, charlestonLeft: 0, kind: 'decline' }];
        for (let t = 0; t < KINDS; t++) {
          if (v.concealed[t] === 0) continue;
          const less = [...v.concealed];
          less[t]--;
          afterstates.push({ concealed: less, exposures: mine, unknown: 0, charlestonLeft: 0, kind: 'discard', discard: t, worth: 1, rank: 2 });
          // a call's afterstate: one more tile of the kind and a pung of it exposed
          if (t !== JOKER && v.concealed[t] >= 2) {
            const call = [...v.concealed];
            call[t] -= 2;
            const exposures = [...mine, { tile: t, size: 3, jokers: 0 }];
            afterstates.push({ concealed: call, exposures, unknown: 0, charlestonLeft: 0, kind: 'call' });
            // each discard after that call, as a call's rows come (the same exposures row after row; a joker discarded changes the jokers)
            for (let u = 0; u < KINDS; u++) {
              if (call[u] === 0) continue;
              const after = [...call];
              after[u]--;
              afterstates.push({ concealed: after, exposures, unknown: 0, charlestonLeft: 0, kind: 'call', discard: u, worth: 1, rank: 0 });
            }
          }
        }
        // what the table shows, for version 2's table numbers
        let onTable = 0;
        for (const list of v.exposures) for (const x of list) if (x.exchangeable) onTable += x.jokers;
        for (const x of afterstates) {
          mended.encode(x, a, 0);
          plain.encode(x, b, 0);
          v4.encode(x, e4, 0);
          expect(Array.from(a)).toEqual(Array.from(b));
          expect(Array.from(e4.subarray(0, W2))).toEqual(Array.from(a));
          for (let k = 1; k < 4; k++) {
            const r = readings[k - 1];
            const needs = r === null || r.noLine || x.discard === undefined ? 0 : r.needs[x.discard];
            expect(e4[at4(`opponent ${k} read needs the discard`)]).toBeCloseTo(needs, 6);
            expect(e4[at4(`opponent ${k} read family chance`)]).toBeCloseTo(r === null || r.noLine ? 0 : Math.max(...r.families), 6);
            expect(e4[at4(`opponent ${k} read no line`)]).toBe(r !== null && r.noLine ? 1 : 0);
            if (needs > 0) readNeeds++;
            if (r !== null && !r.noLine && Math.max(...r.families) > 0.5) readSure++;
            if (e4[at4(`line ${k} kinds opponents read for`)] > 0) readLines++;
            const list = v.exposures[(seat + k) % 4];
            expect(a[at(`opponent ${k} exposures`)]).toBeCloseTo(Math.min(list.length, 4) / 4, 6);
            expect(a[at(`opponent ${k} tiles exposed`)]).toBeCloseTo(
              Math.min(
                list.reduce((n, g) => n + g.size, 0),
                14,
              ) / 14,
              6,
            );
            if (list.length > 0) opponentsExposed++;
            if (a[at(`opponent ${k} discard danger`)] > 0) {
              dangerous++;
              expect(x.discard).toBeDefined();
              expect(a[at('discard danger')]).toBeGreaterThan(0);
            }
          }
          expect(a[at('jokers to take on the table')]).toBeCloseTo(Math.min(onTable, 8) / 8, 6);
          if (onTable > 0) jokersOnTable++;
          checked++;
        }
        if (mine.length > 0) exposed++;
      });
    }
    expect(checked).toBeGreaterThan(1000);
    expect(exposed).toBeGreaterThan(10);
    expect(opponentsExposed).toBeGreaterThan(100);
    expect(dangerous).toBeGreaterThan(10);
    expect(jokersOnTable).toBeGreaterThan(0);
    expect(readNeeds).toBeGreaterThan(1000);
    expect(readSure).toBeGreaterThan(100);
    expect(readLines).toBeGreaterThan(1000);
  });

  it('read a hand that gives up two or three tiles (a Charleston pass), or takes one, the same whether mended or placed afresh', () => {
    // the mended encoder summarizes afresh only the lines holding a kind that differs: the rows must not show it
    const cc = loadCard();
    const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
    const mended = new Encoder(cc, { version: 2 }),
      plain = new Encoder(cc, { version: 2, mend: false });
    const a = new Float32Array(mended.width),
      b = new Float32Array(plain.width);
    let passes = 0,
      taken = 0;
    for (const seed of [11, 12, 13]) {
      playOut(mahJonggGame(loadRuleset('nmjl-4p'), cc), newGame(loadRuleset('nmjl-4p'), cc, seed), medium, seedRng(seed), (_action, s) => {
        const seat = waitingOn(s)[0];
        if (seat === undefined || (s.phase.kind !== 'charleston' && s.phase.kind !== 'discard')) return;
        const v = view(s, seat);
        mended.begin(v);
        plain.begin(v);
        const held: number[] = [];
        for (let t = 0; t < JOKER; t++) for (let c = 0; c < v.concealed[t] && c < 2; c++) held.push(t);
        const afterstates: Afterstate[] = [];
        // every pass of three (and of two, a blind pass: k === j) from the first eight tiles held, copies included
        const n = Math.min(held.length, 8);
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            for (let k = j; k < n; k++) {
              const hand = [...v.concealed];
              hand[held[i]]--;
              hand[held[j]]--;
              if (k > j) hand[held[k]]--;
              afterstates.push({ concealed: hand, exposures: [], unknown: 3, charlestonLeft: 2, kind: 'pass' });
            }
          }
        }
        // a hand that takes a tile (none of the bots' afterstates does, but the encoder must not assume it)
        for (let t = 0; t < JOKER; t += 5) {
          const hand = [...v.concealed];
          hand[t]++;
          hand[held[0]]--;
          afterstates.push({ concealed: hand, exposures: myExposures(v), unknown: 0, charlestonLeft: 0, kind: 'decline' });
          taken++;
        }
        for (const x of afterstates) {
          mended.encode(x, a, 0);
          plain.encode(x, b, 0);
          expect(Array.from(a)).toEqual(Array.from(b));
          if (x.kind === 'pass') passes++;
        }
      });
    }
    expect(passes).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThan(100);
  });
});

describe('the learned player', () => {
  it('plays whole games of every ruleset, legally and the same from the same seed', () => {
    const cc = loadCard();
    for (const name of Object.keys(RULESETS)) {
      const rules = loadRuleset(name);
      const run = () => {
        const learned = new LearnedAgent(cc, randomModel(3));
        const agents = Array.from({ length: rules.players }, (_, s) => (s % 2 === 0 ? learned : new HeuristicAgent(cc, MEDIUM_HABITS)));
        const state = newGame(rules, cc, 11);
        const actions: Action[] = [];
        playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(4), (a, s) => {
          actions.push(a);
          validate(s);
        });
        return { actions: JSON.stringify(actions), result: state.result };
      };
      const a = run(),
        b = run();
      expect(a.result, name).not.toBeNull();
      expect(a.actions).toBe(b.actions);
    }
  });

  it("without a model plays the strong habits' moves", () => {
    const cc = loadCard();
    const rules = loadRuleset('nmjl-4p');
    const strong = (seed: number, make: () => import('../../agents/agent.js').Agent) => {
      const state = newGame(rules, cc, seed);
      const actions: Action[] = [];
      playOut(
        mahJonggGame(state.rules, state.cc),
        state,
        [make(), new HeuristicAgent(cc, MEDIUM_HABITS), new HeuristicAgent(cc, MEDIUM_HABITS), new HeuristicAgent(cc, MEDIUM_HABITS)],
        seedRng(seed),
        (a) => actions.push(a),
      );
      return JSON.stringify(actions.map((a) => ({ ...a, ...('blind' in a ? { blind: a.blind ?? 0 } : {}) })));
    };
    for (const seed of [1, 2, 3]) {
      expect(strong(seed, () => new LearnedAgent(cc, null))).toBe(strong(seed, () => new HeuristicAgent(cc, { ...MEDIUM_HABITS, live: true, pairCost: 0.5 })));
    }
  });
});

describe('tilemate train', () => {
  it("measures agreement with the search on the policy's own games, which the search does not change", () => {
    const cc = loadCard();
    const model = randomModel(5);
    const every = 5;
    const r = searchAgreement({ ruleset: 'nmjl-4p', cardText: '', model: modelToJson(model), seeds: [21], every }, cc);
    // the same game played by the policy alone: its discards, every fifth put to the search
    let discards = 0;
    const alone = new LearnedAgent(cc, model);
    playOut(mahJonggGame(loadRuleset('nmjl-4p'), cc), newGame(loadRuleset('nmjl-4p'), cc, 21), [alone, alone, alone, alone], seedRng(21), (a) => {
      if (a.type === 'discard') discards++;
    });
    expect(discards).toBeGreaterThan(20);
    expect(r.positions).toBe(Math.ceil(discards / every));
    expect(r.withSearch).toBeGreaterThan(0);
    expect(r.withSearch).toBeLessThanOrEqual(r.positions);
  });

  const base = (out: string): TrainOptions => ({
    out,
    generations: 1,
    games: 12,
    workers: 1,
    seed: 3,
    resume: false,
    cards: [{ name: 'the practice card', text: readCardText() }],
    ruleset: 'nmjl-4p',
    evalDeals: 4,
    window: 2,
    epochs: 1,
    learningRate: 1e-3,
    play: { explore: 0.1, scoreWeight: 0, allLearned: 0.5, lambda: 0.9 },
    agreementGames: 1,
    command: 'test',
  });

  it('trains a generation, logs it, resumes after it, and refuses what it cannot trust', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tm-train-'));
    const first = await train(base(out));
    expect(first.log).toHaveLength(1);
    expect(first.log[0]).toMatchObject({ generation: 1 });
    expect(first.log[0].examples).toBeGreaterThan(100);
    expect(first.log[0].searchAgreement).toBeGreaterThan(0);
    expect(first.log[0].searchAgreement).toBeLessThanOrEqual(1);
    expect(readFileSync(join(out, 'log.csv'), 'utf8').split('\n')[0]).toBe(
      'generation,examples,trainLoss,valLoss,searchAgreement,habitsAgreement,winShare,vsBest,vsBestLow,vsBestHigh,vsHabits,vsHabitsLow,vsHabitsHigh,meanScore,promoted,seconds,selfPlayPerSecond',
    );
    expect(readFileSync(join(out, 'log.svg'), 'utf8')).toMatch(/^<svg/);
    expect(modelFromJson(readFileSync(join(out, 'candidate.json'), 'utf8')).layers).toHaveLength(3);
    // a second run on the same folder needs --resume, and then goes on from generation 2
    await expect(train({ ...base(out), generations: 2 })).rejects.toThrow(/already holds a training run: add --resume/);
    await expect(train({ ...base(out), generations: 2, resume: true, seed: 4 })).rejects.toThrow(/used ruleset nmjl-4p and seed 3/);
    const second = await train({ ...base(out), generations: 2, resume: true });
    expect(second.log.map((r) => r.generation)).toEqual([1, 2]);
    expect(readCheckpoint(join(out, 'checkpoint.json')).generation).toBe(2);
    // a cut-off checkpoint, and one of another feature version
    const ck = readFileSync(join(out, 'checkpoint.json'), 'utf8');
    writeFileSync(join(out, 'checkpoint.json'), ck.slice(0, ck.length - 20));
    await expect(train({ ...base(out), generations: 3, resume: true })).rejects.toThrow(/checkpoint .* is not JSON \(cut off\?\)/);
    writeFileSync(join(out, 'checkpoint.json'), JSON.stringify({ ...JSON.parse(ck), featureVersion: 0 }));
    await expect(train({ ...base(out), generations: 3, resume: true })).rejects.toThrow(/made with feature version 0; this Tilemate encodes versions 2 and 4/);
  });

  it('starts a new run from a model, which is the best to beat, and refuses a bad one', async () => {
    const { tf } = await loadTf();
    const model = modelToJson(toValueModel(buildNet(tf, 9, HIDDEN, FEATURES), FEATURE_VERSION, {}));
    const out = mkdtempSync(join(tmpdir(), 'tm-from-'));
    const run = await train({ ...base(out), from: model });
    expect(run.log).toHaveLength(1);
    const ck = readCheckpoint(join(out, 'checkpoint.json'));
    // measured against the model it started from: promoted only if its interval says so
    expect(ck.best).toBe(run.log[0].promoted ? readFileSync(join(out, 'candidate.json'), 'utf8') : model);
    await expect(train({ ...base(out), generations: 2, resume: true, from: model })).rejects.toThrow(/a model to start from begins a new run/);
    const other = mkdtempSync(join(tmpdir(), 'tm-from-bad-'));
    await expect(train({ ...base(other), from: model.slice(0, 100) })).rejects.toThrow(/the model to start from/);
    // a cut-off file is named, and the refused run leaves no folder behind
    const never = join(other, 'never');
    await expect(train({ ...base(never), from: model.slice(0, 100), fromName: 'model file /tmp/cut.json' })).rejects.toThrow(/model file \/tmp\/cut.json is not JSON/);
    expect(existsSync(never)).toBe(false);
    await expect(train({ ...base(other), from: modelToJson(randomModel(5)), hidden: [64, 32] })).rejects.toThrow(
      /the model to start from has layers of 16-8-2; the network asked for \(--hidden\) has 64-32-2/,
    );
    // without --hidden a run keeps the widths of the model it starts from
    const keeps = mkdtempSync(join(tmpdir(), 'tm-from-widths-'));
    await train({ ...base(keeps), from: modelToJson(randomModel(5)) });
    expect(JSON.parse(readFileSync(join(keeps, 'candidate.json'), 'utf8')).layers.map((l: { outputs: number }) => l.outputs)).toEqual([16, 8, 2]);
  });

  it('a run from a model reads its feature version and keeps it; a resume naming another is refused, and a model cannot be carried to a version this Tilemate does not encode', async () => {
    const m = randomModel(6);
    expect(withFeatureVersion(m, 2, 'm.json')).toBe(m);
    expect(() => withFeatureVersion(m, 3, 'm.json')).toThrow();
    // carried on to version 4, whose row begins with version 2's: the new inputs weigh 0
    const m4 = withFeatureVersion(m, 4, 'm.json');
    expect(m4.featureVersion).toBe(4);
    expect(m4.layers[0].inputs).toBe(featureWidth(4));
    expect(() => withFeatureVersion(m4, 2, 'm4.json')).toThrow('m4.json reads feature version 4; it cannot be carried back to version 2: train a new model');
    const out = mkdtempSync(join(tmpdir(), 'tm-from-v2-'));
    await train({ ...base(out), from: modelToJson(m), featureVersion: 2 });
    expect(readCheckpoint(join(out, 'checkpoint.json')).featureVersion).toBe(2);
    const candidate = modelFromJson(readFileSync(join(out, 'candidate.json'), 'utf8'));
    expect(candidate.featureVersion).toBe(2);
    expect(candidate.layers[0].inputs).toBe(featureWidth(2));
    await expect(train({ ...base(out), generations: 2, resume: true, featureVersion: 1 })).rejects.toThrow(`the run in ${out} reads feature version 2; resume it without --features or with the same`);
  });

  it('a run killed with kill -9 mid-generation resumes and finishes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tm-kill-'));
    const args = ['bin/tilemate.js', 'train', '--out', out, '--generations', '2', '--games', '40', '--eval-deals', '10', '--agreement-games', '1', '--workers', '2', '--seed', '5'];
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    // kill it once the first generation's checkpoint is there (the second is under way)
    const ck = join(out, 'checkpoint.json');
    const deadline = Date.now() + 100_000;
    while (!existsSync(ck) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(readCheckpoint(ck).generation).toBe(1);
    const resumed = spawnSync(process.execPath, [...args, '--resume', '--json'], { encoding: 'utf8' });
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expect(summary.log.map((r: { generation: number }) => r.generation)).toEqual([1, 2]);
    expect(summary.backend).toMatch(/^(wasm|tensorflow): /);
    expect(readCheckpoint(ck).generation).toBe(2);
  });
});
