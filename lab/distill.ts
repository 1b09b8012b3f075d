/**
 * `node dist/lab/distill.js OUT --teacher MODEL [--from MODEL] [--card FILE]... [--games N]
 * [--keep Q] [--epochs E] [--lr L] [--seed S]`: one value model of the usual size taught by
 * another (knowledge distillation), for a wide teacher such as an ensemble of several runs
 * (lab/combine-models.ts) that plays better than any one of them but costs their forward
 * passes together (docs/training.md, "An ensemble distilled").
 *
 * The teacher plays self-play games as `tilemate train` does (a quarter of them with every
 * seat learned, the rest one learned seat among three medium bots, exploring 10% of the time);
 * every row it rates at a decision kept (a share `keep` of the decisions) is labelled with the
 * teacher's own rating: its chance of winning and its score. The student starts from `--from`
 * (default the shipped model) and is fitted to those ratings with the value loss of
 * training/net.ts. Rows are whole decisions: the report gives how often the student's choice
 * is the teacher's, on held-out decisions, before and after. Strength is measured after, in
 * paired studies (`learned-file`), never by these figures.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Agent } from '../agents/agent.js';
import { DEFAULT_MODEL_FILE, readModelFile } from '../agents/mah-jongg/default-model.js';
import { featureWidth } from '../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { forward, modelToJson, type ValueModel } from '../agents/mah-jongg/model.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { TilemateError } from '../engine/errors.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { nextU32, seedRng } from '../engine/rng.js';
import { loadRuleset, type Ruleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { buildNet, setWeights, toValueModel, valueLoss } from '../training/net.js';
import { loadTf } from '../training/tf.js';
import { selfPlaySeats } from '../training/selfplay.js';
import { shuffled, TRAIN_DEFAULTS } from '../training/train.js';

/** Rows of whole decisions: x (rows x width), and where each decision's rows begin (one more entry: the end). */
export interface Decisions {
  x: Float32Array;
  rows: number;
  starts: number[];
}

/**
 * Self-play games of `teacher` (seeds `seeds`), and the rows it rated at a share `keep` of its
 * decisions, drawn apart from the game's own draws (the games are those `tilemate train` plays).
 */
export function teacherDecisions(ruleset: Ruleset, cc: CompiledCard, teacher: ValueModel, seeds: readonly number[], keep: number, seed: number): Decisions {
  const width = featureWidth(teacher.featureVersion);
  let x = new Float32Array(4096 * width);
  let rows = 0;
  const starts: number[] = [];
  const pick = seedRng(seed ^ 0x2545f491);
  const rated = (from: Float32Array, n: number) => {
    if (n < 2 || nextU32(pick) / 0x100000000 >= keep) return; // a decision with one choice teaches nothing
    if ((rows + n) * width > x.length) {
      const grown = new Float32Array(2 * Math.max(x.length, (rows + n) * width));
      grown.set(x);
      x = grown;
    }
    x.set(from.subarray(0, n * width), rows * width);
    starts.push(rows);
    rows += n;
  };
  const learned = new LearnedAgent(cc, teacher, { explore: 0.1, rated });
  const medium = new HeuristicAgent(cc, MEDIUM_HABITS, 'medium');
  const players = ruleset.players;
  for (const s of seeds) {
    const { rng, learnedSeats } = selfPlaySeats(s, players, TRAIN_DEFAULTS.play.allLearned);
    const agents: Agent[] = learnedSeats.map((l) => (l ? learned : medium));
    const state = newGame(ruleset, cc, s);
    playOut(mahJonggGame(ruleset, cc), state, agents, rng);
  }
  starts.push(rows);
  return { x: x.slice(0, rows * width), rows, starts };
}

/** A model's outputs for every row: the win log-odds and the score / 100, row after row. */
function ratings(model: ValueModel, d: Decisions): Float64Array {
  return forward(model, d.x, d.rows, new Float64Array(2 * d.rows));
}

/** The share of decisions where `a`'s best row is `b`'s (by the chance of winning, as the learned player chooses). */
export function agreement(a: Float64Array, b: Float64Array, starts: readonly number[], from = 0, to = starts.length - 1): number {
  let same = 0;
  const best = (out: Float64Array, lo: number, hi: number) => {
    let k = lo;
    for (let i = lo + 1; i < hi; i++) if (out[2 * i] > out[2 * k]) k = i;
    return k;
  };
  for (let d = from; d < to; d++) if (best(a, starts[d], starts[d + 1]) === best(b, starts[d], starts[d + 1])) same++;
  return to > from ? same / (to - from) : NaN;
}

/**
 * A model of `from`'s shape, from its weights, fitted to rows `x` (rows x its width) and their
 * labels `y` (won or a chance of winning, score / 100) with the value loss; the rows from
 * `heldRow` on are held out. Rows come in an order of the run's own each epoch (TF.js's shuffle
 * draws from Math.random); `onEpoch` sees the model after each.
 */
export async function fitRows(o: {
  from: ValueModel;
  x: Float32Array;
  y: Float32Array;
  heldRow: number;
  epochs: number;
  learningRate: number;
  seed: number;
  onEpoch?: (epoch: number, model: ValueModel, loss: number, valLoss: number) => void;
}): Promise<ValueModel> {
  const width = featureWidth(o.from.featureVersion),
    rows = o.y.length / 2,
    heldRow = o.heldRow;
  const { tf } = await loadTf();
  const net = buildNet(
    tf,
    o.seed,
    o.from.layers.slice(0, -1).map((l) => l.outputs),
    width,
  );
  setWeights(tf, net, o.from);
  net.compile({ optimizer: tf.train.adam(o.learningRate), loss: valueLoss(tf) });
  const vx = tf.tensor2d(o.x.subarray(heldRow * width), [rows - heldRow, width]);
  const vy = tf.tensor2d(o.y.subarray(heldRow * 2), [rows - heldRow, 2]);
  const EX = new Float32Array(heldRow * width),
    EY = new Float32Array(heldRow * 2);
  for (let e = 0; e < o.epochs; e++) {
    shuffled(heldRow, o.seed * 131 + e).forEach((src, dst) => {
      EX.set(o.x.subarray(src * width, (src + 1) * width), dst * width);
      EY[2 * dst] = o.y[2 * src];
      EY[2 * dst + 1] = o.y[2 * src + 1];
    });
    const xs = tf.tensor2d(EX, [heldRow, width]),
      ys = tf.tensor2d(EY, [heldRow, 2]);
    const hist = await net.fit(xs, ys, { batchSize: 1024, epochs: 1, shuffle: false, validationData: [vx, vy], verbose: 0 });
    tf.dispose([xs, ys]);
    o.onEpoch?.(e, toValueModel(net, o.from.featureVersion, {}), Number(hist.history.loss.at(-1)), Number(hist.history.val_loss.at(-1)));
  }
  tf.dispose([vx, vy]);
  const model = toValueModel(net, o.from.featureVersion, {});
  net.dispose();
  return model;
}

export interface DistillOptions {
  teacher: ValueModel;
  from: ValueModel;
  cards: CompiledCard[];
  ruleset: Ruleset;
  games: number;
  keep: number;
  epochs: number;
  learningRate: number;
  seed: number;
  command: string;
  log?: (line: string) => void;
}

/** The student fitted to the teacher's ratings, and the figures of the fit. */
export async function distill(o: DistillOptions): Promise<{ model: ValueModel; figures: Record<string, number> }> {
  const log = o.log ?? (() => {});
  if (o.teacher.featureVersion !== o.from.featureVersion) {
    throw new TilemateError('TM_BAD_MODEL', `the teacher reads feature version ${o.teacher.featureVersion} and the student version ${o.from.featureVersion}: give models of one version`);
  }
  const width = featureWidth(o.from.featureVersion);
  // each card's games, then every decision together
  const parts: Decisions[] = o.cards.map((c, k) => {
    const seeds = Array.from({ length: o.games }, (_, i) => (o.seed * 1_000_003 + k * 7_919_993 + i) >>> 0);
    const t0 = Date.now();
    const d = teacherDecisions(o.ruleset, c, o.teacher, seeds, o.keep, o.seed + k);
    log(`card ${k + 1}: ${o.games} games, ${d.starts.length - 1} decisions, ${d.rows} rows (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    return d;
  });
  // decisions shuffled whole, the last 5% held out
  const all: number[][] = [];
  for (const [p, d] of parts.entries()) for (let i = 0; i + 1 < d.starts.length; i++) all.push([p, d.starts[i], d.starts[i + 1]]);
  const order = shuffled(all.length, o.seed * 17 + 3);
  const held = Math.max(1, Math.floor(all.length * 0.05));
  const rows = all.reduce((n, [, a, b]) => n + b - a, 0);
  const x = new Float32Array(rows * width);
  const starts: number[] = [];
  let at = 0;
  for (const i of order) {
    const [p, a, b] = all[i];
    starts.push(at);
    x.set(parts[p].x.subarray(a * width, b * width), at * width);
    at += b - a;
  }
  starts.push(at);
  const data: Decisions = { x, rows, starts };
  const firstHeld = all.length - held,
    heldRow = starts[firstHeld];
  const teacherOut = ratings(o.teacher, data);
  const y = new Float32Array(rows * 2);
  for (let i = 0; i < rows; i++) {
    y[2 * i] = 1 / (1 + Math.exp(-teacherOut[2 * i]));
    y[2 * i + 1] = teacherOut[2 * i + 1];
  }
  const before = agreement(ratings(o.from, data), teacherOut, starts, firstHeld);
  log(`${all.length} decisions, ${rows} rows; held out ${held}; the student agrees with the teacher on ${(100 * before).toFixed(1)}% of them before`);

  const figures: Record<string, number> = { decisions: all.length, rows, heldOut: held, agreementBefore: before };
  const student = await fitRows({
    from: o.from,
    x,
    y,
    heldRow,
    epochs: o.epochs,
    learningRate: o.learningRate,
    seed: o.seed,
    onEpoch: (e, model, loss, valLoss) => {
      figures.agreementAfter = agreement(ratings(model, data), teacherOut, starts, firstHeld);
      figures.valLoss = valLoss;
      log(`epoch ${e + 1}: train loss ${loss.toFixed(5)}, held-out loss ${valLoss.toFixed(5)}, agrees on ${(100 * figures.agreementAfter).toFixed(1)}%`);
    },
  });
  const model: ValueModel = { ...student, info: { distilled: { teacher: o.teacher.info, from: o.from.info, ...figures }, command: o.command } };
  return { model, figures };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      teacher: { type: 'string' },
      from: { type: 'string', default: DEFAULT_MODEL_FILE },
      card: { type: 'string', multiple: true },
      games: { type: 'string', default: '4000' },
      keep: { type: 'string', default: '0.5' },
      epochs: { type: 'string', default: '4' },
      lr: { type: 'string', default: '0.0003' },
      seed: { type: 'string', default: '1' },
    },
  });
  const out = positionals[0];
  const num = (name: string, v: string, lo: number, hi: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < lo || n > hi) {
      console.error(`--${name} must be a number from ${lo} to ${hi}; it was ${v}`);
      process.exit(2);
    }
    return n;
  };
  if (out === undefined || values.teacher === undefined) {
    console.error('usage: node dist/lab/distill.js OUT --teacher MODEL [--from MODEL] [--card FILE]... [--games N] [--keep Q] [--epochs E] [--lr L] [--seed S]');
    process.exit(2);
  }
  const opts = {
    games: num('games', values.games, 1, 1_000_000),
    keep: num('keep', values.keep, 0.001, 1),
    epochs: num('epochs', values.epochs, 1, 100),
    learningRate: num('lr', values.lr, 1e-6, 1),
    seed: num('seed', values.seed, 0, 2 ** 31),
  };
  try {
    const files = values.card ?? [undefined];
    const { model } = await distill({
      ...opts,
      teacher: readModelFile(values.teacher),
      from: readModelFile(values.from),
      ruleset: loadRuleset('nmjl-4p'),
      cards: files.map((file) => loadCard(file)),
      command: `node dist/lab/distill.js ${process.argv.slice(2).join(' ')}`,
      log: (l) => console.log(l),
    });
    writeFileSync(out, modelToJson(model));
    console.log(`${out}: written`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
