/**
 * Expert iteration for the policy over every legal choice (issue 30):
 *
 *   node dist/lab/exit.js --out runs/exit/gens --from models/value-model.json \
 *     --generations 2 --games 600 --workers 2 --seed 1 [--worlds 8 --candidates 3] [--window 2]
 *
 * Generation g plays `games` self-play games (lab/exit.worker.ts: one seat plays the
 * latest model's policy with its short search among three medium bots), keeps every searched
 * decision (all candidates' rows and the search's choice: the policy's target) and every chosen
 * afterstate (the game's outcome: the value's target), and trains the network from the latest
 * weights on the last `window` generations' examples: cross-entropy of the policy's softmax over
 * each decision's candidates against the search's choice, plus the value's loss of
 * training/net.ts. Generation 0 is the `--from` model given a policy head that copies its win
 * log-odds (lab/bots/policy-model.ts withPolicyHead), so the policy starts as the value's choice.
 *
 * Each generation writes examples-NNN.bin, model-NNN.json, log.csv and checkpoint.json (each
 * by a temporary file and a rename), with the TrainConfig beside them; --resume goes on after
 * the last finished generation. No gate here: a generation is measured afterwards on duplicate
 * deals (npm run study:paired with --a policy-file and TILEMATE_POLICY_MODEL), never by its loss.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { featureWidth } from '../agents/mah-jongg/features.js';
import type { ValueModel } from '../agents/mah-jongg/model.js';
import { policyModelToJson, readPolicyModel, withPolicyHead } from './bots/policy-model.js';
import type { PolicySearchBudget } from './bots/policy.js';
import { HIDDEN, valueLoss } from '../training/net.js';
import type { TF } from '../training/tf.js';
import type { ExitExamples, ExitTask } from './exit.worker.js';
import { exitSelfPlay } from './exit.worker.js';

type LayersModel = import('@tensorflow/tfjs').LayersModel;
type Tensor = import('@tensorflow/tfjs').Tensor;

export interface TrainConfig {
  out: string;
  from: string;
  generations: number;
  games: number;
  workers: number;
  seed: number;
  budget: PolicySearchBudget;
  window: number;
  epochs: number;
  learningRate: number;
  /** Weight of the policy's cross-entropy beside the value's loss. */
  policyWeight: number;
  ruleset: string;
  cardText: string;
}

/** The value network of training/net.ts with the policy head: `width` inputs (a feature version's), the same hidden layers, three outputs. */
export function buildPolicyNet(tf: TF, seed: number, width: number): LayersModel {
  const model = tf.sequential();
  HIDDEN.forEach((units, i) =>
    model.add(
      tf.layers.dense({
        ...(i === 0 ? { inputShape: [width] } : {}),
        units,
        activation: 'relu',
        kernelInitializer: tf.initializers.heNormal({ seed: seed + i }),
      }),
    ),
  );
  model.add(tf.layers.dense({ units: 3, kernelInitializer: tf.initializers.glorotNormal({ seed: seed + 99 }) }));
  return model;
}

/** Loads a model's weights (with the head) into the network. */
export function setPolicyWeights(tf: TF, net: LayersModel, model: ValueModel): void {
  net.layers.forEach((layer, i) => {
    const l = model.layers[i];
    const [k] = layer.getWeights();
    if (!l || k.shape[0] !== l.inputs || k.shape[1] !== l.outputs)
      throw new Error(`the model's layers (${model.layers.map((x) => x.outputs).join('-')}) do not match the network (${HIDDEN.join('-')}-3)`);
    layer.setWeights([tf.tensor2d(l.kernel, [l.inputs, l.outputs]), tf.tensor1d(l.bias)]);
  });
}

export function netToModel(net: LayersModel, info: Record<string, unknown>, featureVersion: number): ValueModel {
  const dense = net.layers;
  return {
    featureVersion,
    layers: dense.map((layer, i) => {
      const [kernel, bias] = layer.getWeights();
      const [inputs, outputs] = kernel.shape as [number, number];
      return { inputs, outputs, relu: i < dense.length - 1, kernel: Float32Array.from(kernel.dataSync()), bias: Float32Array.from(bias.dataSync()) };
    }),
    info,
  };
}

/** Several batches' examples as one. */
export function joinExamples(parts: readonly ExitExamples[]): ExitExamples {
  const cat = (xs: Float32Array[]) => {
    const out = new Float32Array(xs.reduce((a, x) => a + x.length, 0));
    let o = 0;
    for (const x of xs) {
      out.set(x, o);
      o += x.length;
    }
    return out;
  };
  const starts: number[] = [0];
  const targets: number[] = [];
  for (const p of parts) {
    const base = starts[starts.length - 1];
    for (let d = 0; d < p.policyTarget.length; d++) {
      starts.push(base + p.policyStart[d + 1]);
      targets.push(p.policyTarget[d]);
    }
  }
  return {
    width: parts[0]?.width ?? featureWidth(1),
    valueX: cat(parts.map((p) => p.valueX)),
    valueY: cat(parts.map((p) => p.valueY)),
    policyX: cat(parts.map((p) => p.policyX)),
    policyStart: Int32Array.from(starts),
    policyTarget: Int32Array.from(targets),
    overruled: parts.reduce((a, p) => a + p.overruled, 0),
    games: parts.reduce((a, p) => a + p.games, 0),
    wins: parts.reduce((a, p) => a + p.wins, 0),
  };
}

/** A small deterministic shuffle (xorshift), so a generation's training is repeatable. */
function shuffled(n: number, seed: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = seed >>> 0 || 1;
  for (let i = n - 1; i > 0; i--) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** The policy's loss on a set of decisions: mean cross-entropy over each decision's candidates, and how often its best is the target. */
function policyLoss(tf: TF, net: LayersModel, ex: ExitExamples, decisions: readonly number[]): { loss: () => Tensor; rows: number } {
  let rows = 0;
  for (const d of decisions) rows += ex.policyStart[d + 1] - ex.policyStart[d];
  const W = ex.width;
  const x = new Float32Array(rows * W);
  const seg = new Float32Array(decisions.length * rows);
  const target = new Float32Array(rows);
  let r = 0;
  decisions.forEach((d, k) => {
    const a = ex.policyStart[d],
      b = ex.policyStart[d + 1];
    x.set(ex.policyX.subarray(a * W, b * W), r * W);
    for (let i = 0; i < b - a; i++) seg[k * rows + r + i] = 1;
    target[r + ex.policyTarget[d]] = 1;
    r += b - a;
  });
  const n = decisions.length;
  return {
    rows,
    loss: () => {
      const z = net.apply(tf.tensor2d(x, [rows, W])) as Tensor;
      const logit = tf.slice(z, [0, 2], [rows, 1]);
      const S = tf.tensor2d(seg, [n, rows]);
      // log-sum-exp over each decision, shifted by its largest logit (the head starts at twenty
      // times the win log-odds: exp of -120 is 0 in float32)
      const masked = tf.add(tf.mul(S, tf.transpose(logit)), tf.mul(tf.sub(1, S), -1e9));
      const top = tf.max(masked, 1, true);
      const shift = tf.matMul(S, top, true, false);
      const lse = tf.add(tf.log(tf.matMul(S, tf.exp(tf.sub(logit, shift)))), top);
      const picked = tf.matMul(S, tf.mul(tf.tensor2d(target, [rows, 1]), logit));
      return tf.mean(tf.sub(lse, picked));
    },
  };
}

/** Share of decisions where the policy's best candidate is the target row. */
export function policyAgreement(model: ValueModel, ex: ExitExamples, decisions: readonly number[], forward: (m: ValueModel, x: Float32Array, rows: number) => Float64Array): number {
  let hit = 0;
  for (const d of decisions) {
    const a = ex.policyStart[d],
      b = ex.policyStart[d + 1];
    const out = forward(model, ex.policyX.subarray(a * ex.width, b * ex.width), b - a);
    let best = 0;
    for (let i = 1; i < b - a; i++) if (out[3 * i + 2] > out[3 * best + 2]) best = i;
    if (best === ex.policyTarget[d]) hit++;
  }
  return decisions.length === 0 ? 0 : hit / decisions.length;
}

/**
 * Trains the network from `model`'s weights on the examples: `epochs` passes over the policy's
 * decisions in batches of 64, each step with an equal batch of value rows.
 */
export async function trainOnExamples(
  tf: TF,
  model: ValueModel,
  ex: ExitExamples,
  opts: { epochs: number; learningRate: number; policyWeight: number; seed: number; decisions?: readonly number[]; valueWeight?: number; headOnly?: boolean },
): Promise<{ model: ValueModel; loss: number }> {
  const net = buildPolicyNet(tf, opts.seed, ex.width);
  const W = ex.width;
  setPolicyWeights(tf, net, withPolicyHead(model));
  const optimizer = tf.train.adam(opts.learningRate);
  const vloss = valueLoss(tf);
  const decisions = opts.decisions ?? Array.from({ length: ex.policyTarget.length }, (_, i) => i);
  const valueRows = ex.valueY.length / 2;
  const BATCH = 64;
  // headOnly: only the last layer learns (with valueWeight 0, only the policy's column moves:
  // the value's columns get no gradient, and Adam leaves a weight with none where it was)
  const varList = opts.headOnly ? net.layers[net.layers.length - 1].trainableWeights.map((w) => (w as unknown as { val: import('@tensorflow/tfjs').Variable }).val) : undefined;
  let last = 0;
  for (let e = 0; e < opts.epochs; e++) {
    const order = shuffled(decisions.length, opts.seed * 7919 + e);
    const vorder = shuffled(valueRows, opts.seed * 104729 + e);
    let sum = 0,
      steps = 0;
    for (let b = 0; b < order.length; b += BATCH) {
      const batch = order.slice(b, b + BATCH).map((i) => decisions[i]);
      const p = policyLoss(tf, net, ex, batch);
      const vb = Math.min(4 * BATCH, valueRows);
      const vx = new Float32Array(vb * W),
        vy = new Float32Array(vb * 2);
      for (let k = 0; k < vb; k++) {
        const i = vorder[(steps * vb + k) % valueRows];
        vx.set(ex.valueX.subarray(i * W, (i + 1) * W), k * W);
        vy[2 * k] = ex.valueY[2 * i];
        vy[2 * k + 1] = ex.valueY[2 * i + 1];
      }
      const cost = optimizer.minimize(
        () =>
          tf.tidy(() => {
            const z = net.apply(tf.tensor2d(vx, [vb, W])) as Tensor;
            const v = vloss(tf.tensor2d(vy, [vb, 2]), tf.slice(z, [0, 0], [vb, 2]));
            return tf.add(tf.mul(p.loss(), opts.policyWeight), tf.mul(v, opts.valueWeight ?? 1)) as import('@tensorflow/tfjs').Scalar;
          }),
        true,
        varList,
      );
      const c = cost!.dataSync()[0];
      if (!Number.isFinite(c)) throw new Error(`exit: the training loss is not finite (epoch ${e + 1}, step ${steps + 1}); no model written`);
      sum += c;
      cost!.dispose();
      steps++;
    }
    last = steps === 0 ? 0 : sum / steps;
  }
  const out = netToModel(net, { ...model.info }, model.featureVersion);
  net.dispose();
  optimizer.dispose();
  return { model: out, loss: last };
}

// ---- the loop ----

function writeAtomic(path: string, data: string | Uint8Array): void {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

function saveExamples(path: string, ex: ExitExamples): void {
  const parts = [ex.valueX, ex.valueY, ex.policyX, ex.policyStart, ex.policyTarget];
  const head = Buffer.from(JSON.stringify({ width: ex.width, lengths: parts.map((p) => p.length), overruled: ex.overruled, games: ex.games, wins: ex.wins }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  writeAtomic(path, Buffer.concat([len, head, ...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))]));
}

export function loadExamples(path: string): ExitExamples {
  const buf = readFileSync(path);
  const n = buf.readUInt32LE(0);
  const head = JSON.parse(buf.subarray(4, 4 + n).toString()) as { width?: number; lengths: number[]; overruled: number; games: number; wins: number };
  let o = 4 + n;
  const take = <T>(k: number, make: (b: ArrayBuffer) => T) => {
    const bytes = head.lengths[k] * 4;
    const b = buf.buffer.slice(buf.byteOffset + o, buf.byteOffset + o + bytes);
    o += bytes;
    return make(b);
  };
  return {
    width: head.width ?? featureWidth(1), // files from before feature version 2 hold version 1's rows
    valueX: take(0, (b) => new Float32Array(b)),
    valueY: take(1, (b) => new Float32Array(b)),
    policyX: take(2, (b) => new Float32Array(b)),
    policyStart: take(3, (b) => new Int32Array(b)),
    policyTarget: take(4, (b) => new Int32Array(b)),
    overruled: head.overruled,
    games: head.games,
    wins: head.wins,
  };
}

const pad = (g: number) => String(g).padStart(3, '0');

export async function exitLoop(cfg: TrainConfig, resume: boolean): Promise<void> {
  mkdirSync(cfg.out, { recursive: true });
  const cpPath = join(cfg.out, 'checkpoint.json');
  let generation = 0;
  let model: ValueModel;
  if (resume && existsSync(cpPath)) {
    const cp = JSON.parse(readFileSync(cpPath, 'utf8')) as { generation: number; model: string };
    generation = cp.generation;
    model = readPolicyModel(readFileSync(join(cfg.out, cp.model), 'utf8'), cp.model);
  } else {
    model = withPolicyHead(readPolicyModel(readFileSync(cfg.from, 'utf8'), cfg.from));
    writeAtomic(join(cfg.out, 'model-000.json'), policyModelToJson(model));
    writeAtomic(join(cfg.out, 'config.json'), JSON.stringify(cfg, null, 2));
    writeAtomic(join(cfg.out, 'log.csv'), 'generation,games,wins,decisions,policyRows,overruled,valueRows,trainLoss,heldOutAgreementBefore,heldOutAgreementAfter,selfPlaySeconds,trainSeconds\n');
    writeAtomic(cpPath, JSON.stringify({ generation: 0, model: 'model-000.json' }));
  }
  const { loadTf } = await import('../training/tf.js');
  const { tf, why } = await loadTf();
  const { forward } = await import('../agents/mah-jongg/model.js');
  process.stderr.write(`exit: TensorFlow.js ${why}\n`);
  const pool = cfg.workers > 0 ? new Piscina({ filename: new URL('./exit.worker.js', import.meta.url).href, minThreads: cfg.workers, maxThreads: cfg.workers }) : null;
  try {
    while (generation < cfg.generations) {
      const g = generation + 1;
      const t0 = Date.now();
      const text = policyModelToJson(model);
      const seeds = Array.from({ length: cfg.games }, (_, i) => (cfg.seed * 1_000_003 + g * 100_003 + i) >>> 0);
      const chunks: number[][] = [];
      for (let i = 0; i < seeds.length; i += 10) chunks.push(seeds.slice(i, i + 10));
      let doneGames = 0;
      // a generation cut off after its self-play keeps its games (resume)
      const exPath = join(cfg.out, `examples-${pad(g)}.bin`);
      const parts = existsSync(exPath)
        ? [loadExamples(exPath)]
        : await Promise.all(
            chunks.map(async (s) => {
              const task: ExitTask = { ruleset: cfg.ruleset, cardText: cfg.cardText, model: text, budget: cfg.budget, seeds: s };
              const r = (pool ? await pool.run(task) : exitSelfPlay(task)) as ExitExamples;
              doneGames += s.length;
              if (doneGames % 100 === 0) process.stderr.write(`exit: generation ${g}: ${doneGames} of ${cfg.games} games, ${Math.round((Date.now() - t0) / 1000)} s\n`);
              return r;
            }),
          );
      const fresh = joinExamples(parts);
      if (!existsSync(exPath)) saveExamples(exPath, fresh);
      const t1 = Date.now();
      const window = [];
      for (let k = Math.max(1, g - cfg.window + 1); k <= g; k++) window.push(k === g ? fresh : loadExamples(join(cfg.out, `examples-${pad(k)}.bin`)));
      const ex = joinExamples(window);
      // a tenth of this generation's decisions held out, to see the policy learn the search's choices
      const all = shuffled(ex.policyTarget.length, cfg.seed + g);
      const freshStart = ex.policyTarget.length - fresh.policyTarget.length;
      const heldOut = all.filter((d) => d >= freshStart && d % 10 === 0);
      const trainOn = all.filter((d) => !(d >= freshStart && d % 10 === 0));
      const before = policyAgreement(withPolicyHead(model), ex, heldOut, forward);
      const trained = await trainOnExamples(tf, model, ex, { epochs: cfg.epochs, learningRate: cfg.learningRate, policyWeight: cfg.policyWeight, seed: cfg.seed + g, decisions: trainOn });
      model = { ...trained.model, info: { ...model.info, generation: g, games: cfg.games * g, command: process.argv.slice(1).join(' ') } };
      const after = policyAgreement(model, ex, heldOut, forward);
      const t2 = Date.now();
      writeAtomic(join(cfg.out, `model-${pad(g)}.json`), policyModelToJson(model));
      const line = [
        g,
        fresh.games,
        fresh.wins,
        fresh.policyTarget.length,
        fresh.policyX.length / fresh.width,
        fresh.overruled,
        fresh.valueY.length / 2,
        trained.loss.toFixed(4),
        before.toFixed(4),
        after.toFixed(4),
        ((t1 - t0) / 1000).toFixed(0),
        ((t2 - t1) / 1000).toFixed(0),
      ].join(',');
      writeFileSync(join(cfg.out, 'log.csv'), `${readFileSync(join(cfg.out, 'log.csv'), 'utf8')}${line}\n`);
      writeAtomic(cpPath, JSON.stringify({ generation: g, model: `model-${pad(g)}.json` }));
      process.stderr.write(`exit: generation ${g} done: ${line}\n`);
      generation = g;
    }
  } finally {
    await pool?.destroy();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'runs/exit/gens' },
      from: { type: 'string', default: 'models/value-model.json' },
      generations: { type: 'string', default: '2' },
      games: { type: 'string', default: '600' },
      workers: { type: 'string', default: '2' },
      seed: { type: 'string', default: '1' },
      worlds: { type: 'string', default: '8' },
      candidates: { type: 'string', default: '3' },
      'pass-pool': { type: 'string', default: '5' },
      window: { type: 'string', default: '2' },
      epochs: { type: 'string', default: '3' },
      lr: { type: 'string', default: '0.0003' },
      'policy-weight': { type: 'string', default: '1' },
      resume: { type: 'boolean', default: false },
      card: { type: 'string' },
    },
  });
  const cfg: TrainConfig = {
    out: values.out!,
    from: values.from!,
    generations: Number(values.generations),
    games: Number(values.games),
    workers: Number(values.workers),
    seed: Number(values.seed),
    budget: { worlds: Number(values.worlds), candidates: Number(values.candidates), ...(values['pass-pool'] === 'all' ? {} : { passPool: Number(values['pass-pool']) }) },
    window: Number(values.window),
    epochs: Number(values.epochs),
    learningRate: Number(values.lr),
    policyWeight: Number(values['policy-weight']),
    ruleset: 'nmjl-4p',
    cardText: values.card === undefined ? '' : readFileSync(values.card, 'utf8'),
  };
  await exitLoop(cfg, values.resume!);
}
