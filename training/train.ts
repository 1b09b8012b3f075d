import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { FEATURE_NAMES, FEATURE_VERSION, FEATURES } from '../agents/features.js';
import { modelFromJson, modelToJson, type ValueModel } from '../agents/model.js';
import { TilemateError } from '../engine/errors.js';
import runWorkerTask, { type AgreementResult, type AgreementTask, type DealResult, type EvalTask, type SelfPlayResult, type SelfPlayTask, type Subject } from './train.worker.js';
import { buildNet, HIDDEN, setWeights, toValueModel, valueLoss } from './net.js';
import { plotLog } from './plot.js';
import { fileErrorWords } from '../engine/errors.js';
import { loadTf } from './tf.js';
import type { PlaySettings } from './selfplay.js';
import { interval } from './arena.js';
import { writeFileAtomic } from '../io/files.js';
// loaded only for a run through Redis: BullMQ and its Redis client take most of every command's start-up
import type { QueueSettings } from './queue.js';

/**
 * `tilemate train`: generations of self-play, each fitting the value model to how the games
 * the last model played went (approximate policy iteration: the policy is greedy in the value
 * of what each choice leads to, the value is refitted to its games' outcomes by TD(λ)).
 *
 * A generation: self-play in worker threads (piscina) with the latest model (the strong habits
 * before there is one), the examples written to the run's folder; the network (TF.js) trained
 * on the last few generations' examples, starting from the latest weights; the candidate measured
 * on duplicate deals against the best and against the strong habits, three medium bots at the
 * table; the candidate becomes the best only when its paired win-share difference's 95%
 * interval lies above zero: the best is what ships, the latest what plays on. Then the checkpoint (written to a temporary file and renamed), the
 * CSV log and its plot. `--resume` starts after the last generation the checkpoint holds; a
 * generation cut off by a kill is played again from its seeds, with the same games.
 */
export interface TrainOptions {
  out: string;
  generations: number;
  /** Self-play games per generation. */
  games: number;
  workers: number;
  seed: number;
  resume: boolean;
  cardText: string;
  ruleset: string;
  /** Duplicate deals per evaluation (each played once per seat by each agent compared). */
  evalDeals: number;
  /** Generations of examples the network trains on. */
  window: number;
  epochs: number;
  /** Adam's step size. */
  learningRate: number;
  /**
   * A model to start a new run from (its file's text): the first generation's self-play plays
   * it, training starts from its weights and it is the best to beat, so a shipped model can
   * be trained on further, on another card among others.
   */
  from?: string;
  /** Where `from` was read (its file), to name it when it is refused. */
  fromName?: string;
  /** How self-play plays and labels its games. */
  play: PlaySettings;
  /** Games whose discards are put to the Monte Carlo search each generation, for the log's agreement (default AGREEMENT_GAMES). */
  agreementGames?: number;
  /** The command line, kept in the checkpoint and the model's info. */
  command: string;
  /**
   * Hand the tasks to actor processes through this Redis (training/queue.ts) instead of this
   * machine's worker threads; the run's results are the same either way.
   */
  queue?: QueueSettings;
}

export const TRAIN_DEFAULTS = {
  generations: 10, games: 4000, seed: 1, ruleset: 'nmjl-4p', evalDeals: 1000, window: 3, epochs: 2, learningRate: 1e-3,
  play: { explore: 0.1, scoreWeight: 0, allLearned: 0.25, lambda: 0.9 },
} as const;

export interface LogRow {
  generation: number;
  examples: number;
  trainLoss: number;
  valLoss: number;
  /** Share of the candidate's discards that match the Monte Carlo search's (the hard bot's) at the same positions (absent: not measured). */
  searchAgreement?: number;
  /** Share of the candidate's discards that match the strong habits' first choice. */
  habitsAgreement: number;
  /** Candidate's win share against three medium bots, and the paired differences with their 95% intervals. */
  winShare: number;
  vsBest: number;
  vsBestLow: number;
  vsBestHigh: number;
  vsHabits: number;
  vsHabitsLow: number;
  vsHabitsHigh: number;
  meanScore: number;
  promoted: boolean;
  seconds: number;
  /** The generation's new self-play examples per second of its self-play phase (absent in older logs). */
  selfPlayPerSecond?: number;
}

interface Checkpoint {
  format: 'tilemate-training';
  version: 1;
  featureVersion: number;
  /** What must not change on resume: the card, the ruleset, the seed. */
  cardHash: string;
  ruleset: string;
  seed: number;
  generation: number;
  best: string | null;
  bestGeneration: number;
  /** The last generation's model, which the next generation's self-play plays (absent in the first checkpoints: the best). */
  latest?: string | null;
  /** Wins per evaluation deal (of its rotations) of the strong habits and of the best model, kept from the generation that played them. */
  habitsWins?: number[];
  bestWins?: number[];
  exampleFiles: string[];
  log: LogRow[];
  command: string;
}

export interface TrainEvents {
  backend?(name: string): void;
  phase?(what: 'selfplay' | 'train' | 'eval', generation: number, total: number): void;
  tick?(done: number): void;
  generation?(row: LogRow): void;
  /** With a queue: every 10 s, the jobs waiting and the actors connected. */
  queue?(status: { waiting: number; active: number; actors: number }): void;
}

const CHECKPOINT = 'checkpoint.json';
const hashText = (t: string) => createHash('sha256').update(t).digest('hex').slice(0, 16);

/** Reads a checkpoint, refusing a truncated, foreign or mismatched one with one line. */
export function readCheckpoint(path: string): Checkpoint {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw new TilemateError('TM_FILE', `cannot read checkpoint ${path}: ${fileErrorWords(err)}`);
    throw new TilemateError('TM_BAD_MODEL', `checkpoint ${path} is not JSON (cut off?): start again without --resume or restore it`);
  }
  const c = raw as Partial<Checkpoint>;
  if (c === null || typeof c !== 'object' || c.format !== 'tilemate-training' || c.version !== 1) throw new TilemateError('TM_BAD_MODEL', `${path} is not a Tilemate training checkpoint`);
  if (c.featureVersion !== FEATURE_VERSION) throw new TilemateError('TM_BAD_MODEL', `checkpoint ${path} was made with feature version ${String(c.featureVersion)}; this Tilemate encodes version ${FEATURE_VERSION}`);
  if (!Number.isInteger(c.generation) || !Array.isArray(c.log) || !Array.isArray(c.exampleFiles)) throw new TilemateError('TM_BAD_MODEL', `checkpoint ${path} is incomplete`);
  if (c.best !== null && c.best !== undefined) modelFromJson(c.best, `the best model in checkpoint ${path}`);
  // rows logged before the search's agreement was measured: their one agreement was the habits'
  for (const row of c.log as (LogRow & { agreement?: number })[]) if (row.agreement !== undefined) { row.habitsAgreement ??= row.agreement; delete row.agreement; }
  return c as Checkpoint;
}

// ------------------------------------------------------------------ examples on disk

const MAGIC = 0x58454d54; // "TMEX"

function writeExamples(path: string, x: Float32Array, y: Float32Array, rows: number): void {
  const head = new Uint32Array([MAGIC, FEATURE_VERSION, rows, FEATURES]);
  const buf = new Uint8Array(16 + x.byteLength + y.byteLength);
  buf.set(new Uint8Array(head.buffer), 0);
  buf.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), 16);
  buf.set(new Uint8Array(y.buffer, y.byteOffset, y.byteLength), 16 + x.byteLength);
  writeFileAtomic(path, buf);
}

function readExamples(path: string): { x: Float32Array; y: Float32Array; rows: number } {
  const buf = readFileSync(path);
  const head = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + 16));
  const rows = head[2];
  if (head[0] !== MAGIC || head[1] !== FEATURE_VERSION || head[3] !== FEATURES || buf.length !== 16 + rows * (FEATURES + 2) * 4) {
    throw new TilemateError('TM_BAD_MODEL', `examples file ${path} is damaged or of another feature version`);
  }
  const body = buf.buffer.slice(buf.byteOffset + 16, buf.byteOffset + buf.length);
  return { x: new Float32Array(body, 0, rows * FEATURES), y: new Float32Array(body, rows * FEATURES * 4, rows * 2), rows };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

// ------------------------------------------------------------------ the loop

export async function train(opts: TrainOptions, events: TrainEvents = {}): Promise<{ log: LogRow[]; best: ValueModel | null; backend: string }> {
  const { tf, backend, why } = await loadTf();
  events.backend?.(why);
  const ckPath = join(opts.out, CHECKPOINT);
  const cardHash = hashText(opts.cardText);
  let ck: Checkpoint;
  if (existsSync(ckPath)) {
    if (!opts.resume) throw new TilemateError('TM_BAD_INPUT', `${opts.out} already holds a training run: add --resume to go on with it, or choose another --out`);
    if (opts.from !== undefined) throw new TilemateError('TM_BAD_INPUT', `a model to start from begins a new run; ${opts.out} already holds one (leave out the model to resume it)`);
    ck = readCheckpoint(ckPath);
    if (ck.cardHash !== cardHash) throw new TilemateError('TM_BAD_INPUT', `the run in ${opts.out} was trained on another card; give the same --card to resume it`);
    if (ck.ruleset !== opts.ruleset || ck.seed !== opts.seed) throw new TilemateError('TM_BAD_INPUT', `the run in ${opts.out} used ruleset ${ck.ruleset} and seed ${ck.seed}; resume it with the same`);
  } else {
    ck = { format: 'tilemate-training', version: 1, featureVersion: FEATURE_VERSION, cardHash, ruleset: opts.ruleset, seed: opts.seed, generation: 0, best: null, bestGeneration: 0, exampleFiles: [], log: [], command: opts.command };
    if (opts.from !== undefined) {
      // refused here, not a generation later
      const start = modelFromJson(opts.from, opts.fromName ?? 'the model to start from');
      const widths = [FEATURES, ...HIDDEN, 2];
      if (start.layers.length !== widths.length - 1 || start.layers.some((l, i) => l.inputs !== widths[i] || l.outputs !== widths[i + 1])) {
        throw new TilemateError('TM_BAD_MODEL', `the model to start from has layers of ${start.layers.map((l) => l.outputs).join('-')}; this network's are ${widths.slice(1).join('-')}`);
      }
      ck.best = opts.from;
      ck.latest = opts.from;
    }
  }
  mkdirSync(opts.out, { recursive: true }); // once all that is refused has been: a refused run leaves no folder behind
  const workers = Math.max(1, opts.workers);
  const inline = import.meta.url.endsWith('.ts');
  const runner = opts.queue ? await (await import('./queue.js')).queueRunner(opts.queue) : null;
  const pool = inline || runner ? null : new Piscina({ filename: new URL('./train.worker.js', import.meta.url).href, minThreads: workers, maxThreads: workers });
  // from TypeScript sources (tests) the worker file is not compiled: its tasks run in this thread
  const runTask = async <R>(task: SelfPlayTask | EvalTask | AgreementTask): Promise<R> =>
    (runner ? await runner.runTask<R>(task) : pool ? await pool.run(task) : runWorkerTask(task)) as R;
  const watch = runner && events.queue ? setInterval(() => { runner.status().then(events.queue, () => undefined); }, 10_000) : null;
  watch?.unref();
  try {
    for (let g = ck.generation + 1; g <= opts.generations; g++) {
      const started = Date.now();
      // 1. self-play with the latest model (the strong habits before there is one)
      events.phase?.('selfplay', g, opts.games);
      const seeds = Array.from({ length: opts.games }, (_, i) => (opts.seed * 1_000_003 + g * 100_003 + i) >>> 0);
      const batches: number[][] = [];
      for (let i = 0; i < seeds.length; i += 25) batches.push(seeds.slice(i, i + 25));
      let played = 0;
      const parts = await Promise.all(batches.map(async (b) => {
        const r = await runTask<SelfPlayResult>({ kind: 'selfplay', ruleset: opts.ruleset, cardText: opts.cardText, model: ck.latest ?? ck.best, settings: opts.play, seeds: b });
        played += b.length;
        events.tick?.(played);
        return r;
      }));
      const rows = parts.reduce((n, p) => n + p.rows, 0);
      const selfPlayPerSecond = Math.round(rows / Math.max(1e-3, (Date.now() - started) / 1000));
      const x = new Float32Array(rows * FEATURES), y = new Float32Array(rows * 2);
      let at = 0;
      for (const p of parts) { x.set(p.x, at * FEATURES); y.set(p.y, at * 2); at += p.rows; }
      const file = `examples-${String(g).padStart(3, '0')}.bin`;
      writeExamples(join(opts.out, file), x, y, rows);
      const files = [...ck.exampleFiles, file].slice(-opts.window);

      // 2. train on the window, from the latest weights
      const data = files.map((f) => (f === file ? { x, y, rows } : readExamples(join(opts.out, f))));
      const total = data.reduce((n, d) => n + d.rows, 0);
      const order = shuffled(total, (opts.seed * 31 + g) >>> 0);
      const X = new Float32Array(total * FEATURES), Y = new Float32Array(total * 2);
      const flatX = concat(data.map((d) => d.x)), flatY = concat(data.map((d) => d.y));
      order.forEach((src, dst) => { X.set(flatX.subarray(src * FEATURES, (src + 1) * FEATURES), dst * FEATURES); Y[dst * 2] = flatY[src * 2]; Y[dst * 2 + 1] = flatY[src * 2 + 1]; });
      const valRows = Math.max(1, Math.floor(total * 0.05));
      const trainRows = total - valRows;
      const net = buildNet(tf, opts.seed + g);
      const from = ck.latest ?? ck.best;
      if (from !== null) setWeights(tf, net, modelFromJson(from));
      net.compile({ optimizer: tf.train.adam(opts.learningRate), loss: valueLoss(tf) });
      const batch = 1024;
      const steps = Math.ceil(trainRows / batch) * opts.epochs;
      events.phase?.('train', g, steps);
      let step = 0;
      const xs = tf.tensor2d(X.subarray(0, trainRows * FEATURES), [trainRows, FEATURES]);
      const ys = tf.tensor2d(Y.subarray(0, trainRows * 2), [trainRows, 2]);
      const vx = tf.tensor2d(X.subarray(trainRows * FEATURES), [valRows, FEATURES]);
      const vy = tf.tensor2d(Y.subarray(trainRows * 2), [valRows, 2]);
      const hist = await net.fit(xs, ys, {
        batchSize: batch, epochs: opts.epochs, shuffle: true, validationData: [vx, vy], verbose: 0,
        callbacks: { onBatchEnd: async () => { events.tick?.(++step); } },
      });
      tf.dispose([xs, ys, vx, vy]);
      const trainLoss = Number(hist.history.loss.at(-1));
      const valLoss = Number(hist.history.val_loss.at(-1));
      const candidate = toValueModel(net, { generation: g, examples: total, command: opts.command, trainedOn: { ruleset: opts.ruleset, cardHash } });
      net.dispose();
      const candidateJson = modelToJson(candidate);

      // 3. evaluate on duplicate deals against three medium bots: the same deals every generation,
      // so the strong habits' and the best model's results are played once and kept
      const evalSeed = (opts.seed * 7_777_777 + 1_000_003) >>> 0;
      if (ck.habitsWins?.length !== opts.evalDeals) { ck.habitsWins = undefined; ck.bestWins = undefined; }
      const subjects: Subject[] = [{ name: 'candidate', model: candidateJson }];
      if (ck.habitsWins === undefined) subjects.push({ name: 'strong', level: 'strong' });
      if (ck.best !== null && ck.bestWins === undefined) subjects.push({ name: 'best', model: ck.best });
      events.phase?.('eval', g, opts.evalDeals);
      const dealIds = Array.from({ length: opts.evalDeals }, (_, i) => i);
      const dealBatches: number[][] = [];
      for (let i = 0; i < dealIds.length; i += 5) dealBatches.push(dealIds.slice(i, i + 5));
      let dealsDone = 0;
      const results = (await Promise.all(dealBatches.map(async (deals) => {
        const r = await runTask<DealResult[]>({ kind: 'eval', ruleset: opts.ruleset, cardText: opts.cardText, subjects, opponents: 'medium', seed: evalSeed, deals });
        dealsDone += deals.length;
        events.tick?.(dealsDone);
        return r;
      }))).flat();
      const seats = results[0].seats;
      const winsOf = (name: string) => results.map((d) => d.wins[subjects.findIndex((x) => x.name === name)]);
      const wins = winsOf('candidate');
      ck.habitsWins ??= winsOf('strong');
      if (ck.best !== null) ck.bestWins ??= winsOf('best');
      const versus = (other: readonly number[]) => interval(wins.map((w, d) => (w - other[d]) / seats));
      const vsHabits = versus(ck.habitsWins);
      const vsBest = ck.best !== null ? versus(ck.bestWins!) : vsHabits;
      const promoted = vsBest.low > 0;
      const habitsAgreement = await discardAgreement(runTask, opts, candidateJson);
      const searchAgreement = (opts.agreementGames ?? AGREEMENT_GAMES) > 0 ? r4(await searchAgreementOf(runTask, opts, candidateJson, workers)) : undefined;
      const row: LogRow = {
        generation: g, examples: total, trainLoss: r4(trainLoss), valLoss: r4(valLoss), ...(searchAgreement === undefined ? {} : { searchAgreement }), habitsAgreement: r4(habitsAgreement),
        winShare: r4(wins.reduce((a, b) => a + b, 0) / (wins.length * seats)),
        vsBest: r4(vsBest.mean), vsBestLow: r4(vsBest.low), vsBestHigh: r4(vsBest.high),
        vsHabits: r4(vsHabits.mean), vsHabitsLow: r4(vsHabits.low), vsHabitsHigh: r4(vsHabits.high),
        meanScore: r4(results.reduce((s, d) => s + d.scores[0] / d.seats, 0) / results.length),
        promoted, seconds: Math.round((Date.now() - started) / 1000), selfPlayPerSecond,
      };

      // 4. the checkpoint, the best model, the log and its plot
      if (promoted) { ck.best = candidateJson; ck.bestGeneration = g; ck.bestWins = wins; }
      ck.latest = candidateJson;
      ck.generation = g;
      ck.exampleFiles = files;
      ck.log.push(row);
      if (ck.best !== null) writeFileAtomic(join(opts.out, 'model.json'), ck.best);
      writeFileAtomic(join(opts.out, 'candidate.json'), candidateJson);
      writeFileAtomic(join(opts.out, 'log.csv'), logCsv(ck.log));
      writeFileAtomic(join(opts.out, 'log.svg'), await plotLog(ck.log));
      writeFileAtomic(ckPath, JSON.stringify(ck));
      events.generation?.(row);
    }
  } finally {
    if (watch) clearInterval(watch);
    await pool?.destroy();
    await runner?.close();
  }
  return { log: ck.log, best: ck.best === null ? null : modelFromJson(ck.best), backend: `${backend}: ${why}` };
}

/**
 * How often the candidate's discard is the strong habits' first choice, over the decisions of
 * a few self-play games (no exploration).
 */
async function discardAgreement(runTask: <R>(t: SelfPlayTask | EvalTask | AgreementTask) => Promise<R>, opts: TrainOptions, model: string): Promise<number> {
  const seeds = Array.from({ length: 20 }, (_, i) => (opts.seed * 999_983 + i) >>> 0);
  const r = await runTask<SelfPlayResult>({ kind: 'selfplay', ruleset: opts.ruleset, cardText: opts.cardText, model, settings: { ...opts.play, explore: 0, allLearned: 1 }, seeds });
  // the encoder's "discard rank" is 0 when the discard is the habits' first choice
  const [isDiscard, rank, call] = ['discard', 'discard rank', 'call'].map((n) => FEATURE_NAMES.indexOf(n));
  let discards = 0, same = 0;
  for (let i = 0; i < r.rows; i++) {
    if (r.x[i * FEATURES + isDiscard] !== 1 || r.x[i * FEATURES + call] === 1) continue; // discards in play, not after a call
    discards++;
    if (r.x[i * FEATURES + rank] === 0) same++;
  }
  return discards === 0 ? 0 : same / discards;
}

/** Games whose discards are put to the Monte Carlo search (every AGREEMENT_EVERY-th), split among the workers. */
export const AGREEMENT_GAMES = 8;
const AGREEMENT_EVERY = 4;

/** How often the candidate discards what the Monte Carlo search discards in the same positions (the same games every generation). */
async function searchAgreementOf(runTask: <R>(t: SelfPlayTask | EvalTask | AgreementTask) => Promise<R>, opts: TrainOptions, model: string, workers: number): Promise<number> {
  const seeds = Array.from({ length: opts.agreementGames ?? AGREEMENT_GAMES }, (_, i) => (opts.seed * 999_979 + i) >>> 0);
  const parts = Array.from({ length: Math.min(workers, seeds.length) }, (_, w) => seeds.filter((_, i) => i % workers === w));
  const results = await Promise.all(parts.map((p) => runTask<AgreementResult>({ kind: 'agreement', ruleset: opts.ruleset, cardText: opts.cardText, model, seeds: p, every: AGREEMENT_EVERY })));
  const positions = results.reduce((n, r) => n + r.positions, 0);
  return positions === 0 ? 0 : results.reduce((n, r) => n + r.withSearch, 0) / positions;
}

function shuffled(n: number, seed: number): Uint32Array {
  const out = Uint32Array.from({ length: n }, (_, i) => i);
  let s = seed || 1;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = s % (i + 1);
    const t = out[i]; out[i] = out[j]; out[j] = t;
  }
  return out;
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const COLUMNS: (keyof LogRow)[] = ['generation', 'examples', 'trainLoss', 'valLoss', 'searchAgreement', 'habitsAgreement', 'winShare', 'vsBest', 'vsBestLow', 'vsBestHigh', 'vsHabits', 'vsHabitsLow', 'vsHabitsHigh', 'meanScore', 'promoted', 'seconds', 'selfPlayPerSecond'];

export function logCsv(log: readonly LogRow[]): string {
  return [COLUMNS.join(','), ...log.map((r) => COLUMNS.map((c) => String(r[c] ?? '')).join(','))].join('\n') + '\n';
}

export const defaultWorkers = (): number => availableParallelism();
