import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { FEATURE_VERSION, featureNames, featureVersionWords, featureWidth, knownFeatureVersion } from '../agents/mah-jongg/features.js';
import { modelFromJson, modelToJson, type ValueModel } from '../agents/mah-jongg/model.js';
import { TilemateError } from '../engine/errors.js';
import runWorkerTask, { type AgreementResult, type AgreementTask, type DealResult, type EvalTask, type SelfPlayResult, type SelfPlayTask, type Subject } from './train.worker.js';
import { buildNet, HIDDEN, setWeights, toValueModel, valueLoss, withFeatureVersion } from './net.js';
import { plotLog } from './plot.js';
import { fileErrorWords } from '../engine/errors.js';
import { parseCard } from '../engine/mah-jongg/card.js';
import { compileCard } from '../engine/mah-jongg/compile.js';
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
 *
 * On several cards (issue 30: a model must play cards it never trained on), self-play game i of
 * a generation is played on card i mod K, so the same command gives the same games; the arena
 * plays its duplicate deals, and the agreement measures their games, on every card, and the gate
 * reads every card's paired differences together (their mean, each card with as many deals).
 */
export interface TrainOptions {
  out: string;
  generations: number;
  /** Self-play games per generation. */
  games: number;
  workers: number;
  seed: number;
  resume: boolean;
  /** The cards to train on, at least one, each once: self-play game i is played on card i mod their number. */
  cards: TrainCard[];
  ruleset: string;
  /** Duplicate deals per evaluation on each card (each played once per seat by each agent compared). */
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
  /**
   * Widths of the network's hidden layers (default: those of the `from` model, else HIDDEN).
   * Kept in the checkpoint: a resumed run keeps its widths.
   */
  hidden?: number[];
  /**
   * The feature version the network reads (agents/mah-jongg/features.ts): default that of the `from`
   * model, else the latest. An older `from` model can start a run of a later version: each
   * version's rows begin with the one before's, so its weights carry over with those of the new
   * inputs at 0 (it plays as it did until training moves them). Kept in the checkpoint.
   */
  featureVersion?: number;
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

/** A card to train on: its text, and what to call it in messages and the log (its file as given). */
export interface TrainCard {
  name: string;
  text: string;
}

export const TRAIN_DEFAULTS = {
  generations: 10,
  games: 4000,
  seed: 1,
  ruleset: 'nmjl-4p',
  evalDeals: 1000,
  window: 3,
  epochs: 2,
  learningRate: 1e-3,
  play: { explore: 0.1, scoreWeight: 0, allLearned: 0.25, lambda: 0.9 },
} as const;

/** How a generation's candidate measured: its agreements, and against three medium bots its win share and the paired differences with their 95% intervals. */
export interface CandidateMeasures {
  /** Share of the candidate's discards that match the Monte Carlo search's (the hard bot's) at the same positions (absent: not measured). */
  searchAgreement?: number;
  /** Share of the candidate's discards that match the strong habits' first choice. */
  habitsAgreement: number;
  winShare: number;
  vsBest: number;
  vsBestLow: number;
  vsBestHigh: number;
  vsHabits: number;
  vsHabitsLow: number;
  vsHabitsHigh: number;
  meanScore: number;
}

export interface LogRow extends CandidateMeasures {
  generation: number;
  examples: number;
  trainLoss: number;
  valLoss: number;
  promoted: boolean;
  seconds: number;
  /** The generation's new self-play examples per second of its self-play phase (absent in older logs). */
  selfPlayPerSecond?: number;
  /** A run on several cards: each card's share of the generation (the figures above are over all of them). */
  cards?: CardLogRow[];
}

/** One card's part of a generation on several cards: its self-play, and the candidate measured on it alone. */
export interface CardLogRow extends CandidateMeasures {
  card: string;
  /** This generation's self-play games and examples on the card. */
  games: number;
  selfPlayExamples: number;
}

interface Checkpoint {
  format: 'tilemate-training';
  version: 1;
  featureVersion: number;
  /**
   * What must not change on resume: the cards, the ruleset, the seed. `cardHash` is the card's
   * hash on one card; on several, the hash of their hashes (an older Tilemate refuses to resume it).
   */
  cardHash: string;
  /** The cards in order, as named when the run began (absent in checkpoints from before runs on several cards). */
  cards?: { name: string; hash: string }[];
  ruleset: string;
  seed: number;
  /** Widths of the network's hidden layers (absent in checkpoints from before they could be chosen: HIDDEN). */
  hidden?: number[];
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
  if (!knownFeatureVersion(c.featureVersion))
    throw new TilemateError('TM_BAD_MODEL', `checkpoint ${path} was made with feature version ${String(c.featureVersion)}; this Tilemate encodes ${featureVersionWords()}`);
  const cardsOk = c.cards === undefined || (Array.isArray(c.cards) && c.cards.every((k) => typeof k?.name === 'string' && typeof k?.hash === 'string'));
  if (!Number.isInteger(c.generation) || !Array.isArray(c.log) || !Array.isArray(c.exampleFiles) || typeof c.cardHash !== 'string' || !cardsOk)
    throw new TilemateError('TM_BAD_MODEL', `checkpoint ${path} is incomplete`);
  if (c.best !== null && c.best !== undefined) modelFromJson(c.best, `the best model in checkpoint ${path}`);
  // rows logged before the search's agreement was measured: their one agreement was the habits'
  for (const row of c.log as (LogRow & { agreement?: number })[])
    if (row.agreement !== undefined) {
      row.habitsAgreement ??= row.agreement;
      delete row.agreement;
    }
  return c as Checkpoint;
}

// ------------------------------------------------------------------ examples on disk

const MAGIC = 0x58454d54; // "TMEX"

function writeExamples(path: string, version: number, x: Float32Array, y: Float32Array, rows: number): void {
  const head = new Uint32Array([MAGIC, version, rows, featureWidth(version)]);
  const buf = new Uint8Array(16 + x.byteLength + y.byteLength);
  buf.set(new Uint8Array(head.buffer), 0);
  buf.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), 16);
  buf.set(new Uint8Array(y.buffer, y.byteOffset, y.byteLength), 16 + x.byteLength);
  writeFileAtomic(path, buf);
}

function readExamples(path: string, version: number): { x: Float32Array; y: Float32Array; rows: number } {
  const buf = readFileSync(path);
  const head = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + 16));
  const rows = head[2],
    FEATURES = featureWidth(version);
  if (head[0] !== MAGIC || head[1] !== version || head[3] !== FEATURES || buf.length !== 16 + rows * (FEATURES + 2) * 4) {
    throw new TilemateError('TM_BAD_MODEL', `examples file ${path} is damaged or of another feature version`);
  }
  const body = buf.buffer.slice(buf.byteOffset + 16, buf.byteOffset + buf.length);
  return { x: new Float32Array(body, 0, rows * FEATURES), y: new Float32Array(body, rows * FEATURES * 4, rows * 2), rows };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ------------------------------------------------------------------ the cards

/**
 * The cards checked before anything starts: each parses and compiles (an error names its
 * file), and no card is given twice (the same text under any name: refused, not merged, so
 * that the list a run records is the list it was given).
 */
function checkedCards(cards: readonly TrainCard[], games: number): { name: string; hash: string }[] {
  if (cards.length === 0) throw new TilemateError('TM_BAD_INPUT', 'training needs a card to train on');
  if (games < cards.length) throw new TilemateError('TM_BAD_INPUT', `${games} self-play games a generation cannot be spread over ${cards.length} cards: give at least one game a card`);
  const seen = new Map<string, string>();
  return cards.map((c) => {
    try {
      compileCard(parseCard(c.text));
    } catch (err) {
      if (err instanceof TilemateError) throw new TilemateError(err.code, `${c.name}: ${err.message}`);
      throw err;
    }
    const hash = hashText(c.text);
    const twin = seen.get(hash);
    if (twin !== undefined) throw new TilemateError('TM_BAD_INPUT', twin === c.name ? `${c.name} is given twice: give each card once` : `${twin} and ${c.name} are the same card: give each card once`);
    seen.set(hash, c.name);
    return { name: c.name, hash };
  });
}

/** The checkpoint's hash of a list of cards: one card's own hash (as before runs on several cards), else the hash of their hashes. */
const cardsHash = (cards: readonly { hash: string }[]): string => (cards.length === 1 ? cards[0].hash : hashText(cards.map((c) => c.hash).join('\n')));

/** Why a run on `had` cannot be resumed with `now`, in one line (null: the same cards in the same order). */
function cardsDiffer(out: string, had: readonly { name?: string; hash: string }[], now: readonly { name: string; hash: string }[]): string | null {
  if (had.length === now.length && had.every((c, i) => c.hash === now[i].hash)) return null;
  const named = (c: { name?: string; hash: string }) => (c.name === undefined ? `a card of hash ${c.hash}` : `${c.name} (${c.hash})`);
  const list = (cs: readonly { name?: string; hash: string }[]) => cs.map(named).join(', ');
  const missing = had.filter((c) => !now.some((n) => n.hash === c.hash));
  const added = now.filter((c) => !had.some((h) => h.hash === c.hash));
  const what = [
    ...(missing.length > 0 ? [`not given: ${list(missing)}`] : []),
    ...(added.length > 0 ? [`not in the run: ${list(added)}`] : []),
    ...(missing.length === 0 && added.length === 0 ? ['the same cards in another order (game i is played on card i mod their number)'] : []),
  ].join('; ');
  return `the run in ${out} was trained on ${list(had)}; this command gives ${list(now)}: ${what}. Give the same --card files in the same order to resume it`;
}

// ------------------------------------------------------------------ the loop

export async function train(opts: TrainOptions, events: TrainEvents = {}): Promise<{ log: LogRow[]; best: ValueModel | null; backend: string }> {
  const ckPath = join(opts.out, CHECKPOINT);
  const cards = checkedCards(opts.cards, opts.games);
  const K = cards.length;
  const cardHash = cardsHash(cards);
  let ck: Checkpoint;
  if (existsSync(ckPath)) {
    if (!opts.resume) throw new TilemateError('TM_BAD_INPUT', `${opts.out} already holds a training run: add --resume to go on with it, or choose another --out`);
    if (opts.from !== undefined) throw new TilemateError('TM_BAD_INPUT', `a model to start from begins a new run; ${opts.out} already holds one (leave out the model to resume it)`);
    ck = readCheckpoint(ckPath);
    const differ = cardsDiffer(opts.out, ck.cards ?? [{ hash: ck.cardHash }], cards);
    if (differ !== null) throw new TilemateError('TM_BAD_INPUT', differ);
    if (ck.ruleset !== opts.ruleset || ck.seed !== opts.seed) throw new TilemateError('TM_BAD_INPUT', `the run in ${opts.out} used ruleset ${ck.ruleset} and seed ${ck.seed}; resume it with the same`);
    const had = ck.hidden ?? [...HIDDEN];
    if (opts.hidden !== undefined && opts.hidden.join('-') !== had.join('-'))
      throw new TilemateError('TM_BAD_INPUT', `the run in ${opts.out} has hidden layers ${had.join('-')}; resume it without --hidden or with the same`);
    if (opts.featureVersion !== undefined && opts.featureVersion !== ck.featureVersion)
      throw new TilemateError('TM_BAD_INPUT', `the run in ${opts.out} reads feature version ${ck.featureVersion}; resume it without --features or with the same`);
  } else {
    ck = {
      format: 'tilemate-training',
      version: 1,
      featureVersion: opts.featureVersion ?? FEATURE_VERSION,
      cardHash,
      cards,
      ruleset: opts.ruleset,
      seed: opts.seed,
      generation: 0,
      best: null,
      bestGeneration: 0,
      exampleFiles: [],
      log: [],
      command: opts.command,
    };
    if (opts.from !== undefined) {
      // refused here, not a generation later
      const fromName = opts.fromName ?? 'the model to start from';
      const read = modelFromJson(opts.from, fromName);
      // a run from a model keeps its feature version and widths unless told others
      ck.featureVersion = opts.featureVersion ?? read.featureVersion;
      const start = withFeatureVersion(read, ck.featureVersion, fromName); // the model itself when the versions agree
      ck.hidden = opts.hidden ?? start.layers.slice(0, -1).map((l) => l.outputs);
      const widths = [featureWidth(ck.featureVersion), ...ck.hidden, 2];
      if (start.layers.length !== widths.length - 1 || start.layers.some((l, i) => l.inputs !== widths[i] || l.outputs !== widths[i + 1])) {
        throw new TilemateError('TM_BAD_MODEL', `${fromName} has layers of ${start.layers.map((l) => l.outputs).join('-')}; the network asked for (--hidden) has ${widths.slice(1).join('-')}`);
      }
      ck.best = start === read ? opts.from : modelToJson(start);
      ck.latest = ck.best;
    } else ck.hidden = opts.hidden ?? [...HIDDEN];
  }
  const hidden = ck.hidden ?? [...HIDDEN];
  const version = ck.featureVersion,
    FEATURES = featureWidth(version);
  // TF.js loaded once all that is refused has been
  const { tf, backend, why } = await loadTf();
  events.backend?.(why);
  mkdirSync(opts.out, { recursive: true }); // once all that is refused has been: a refused run leaves no folder behind
  const workers = Math.max(1, opts.workers);
  const inline = import.meta.url.endsWith('.ts');
  const runner = opts.queue ? await (await import('./queue.js')).queueRunner(opts.queue) : null;
  const pool = inline || runner ? null : new Piscina({ filename: new URL('./train.worker.js', import.meta.url).href, minThreads: workers, maxThreads: workers });
  // from TypeScript sources (tests) the worker file is not compiled: its tasks run in this thread
  const runTask = async <R>(task: SelfPlayTask | EvalTask | AgreementTask): Promise<R> => (runner ? await runner.runTask<R>(task) : pool ? await pool.run(task) : runWorkerTask(task)) as R;
  const watch =
    runner && events.queue
      ? setInterval(() => {
          runner.status().then(events.queue, () => undefined);
        }, 10_000)
      : null;
  watch?.unref();
  try {
    for (let g = ck.generation + 1; g <= opts.generations; g++) {
      const started = Date.now();
      // 1. self-play with the latest model (the strong habits before there is one)
      events.phase?.('selfplay', g, opts.games);
      const seeds = Array.from({ length: opts.games }, (_, i) => (opts.seed * 1_000_003 + g * 100_003 + i) >>> 0);
      // game i on card i mod K; each card's games in batches of 25, card after card
      const batches: { card: number; seeds: number[] }[] = [];
      for (let c = 0; c < K; c++) {
        const mine = seeds.filter((_, i) => i % K === c);
        for (let i = 0; i < mine.length; i += 25) batches.push({ card: c, seeds: mine.slice(i, i + 25) });
      }
      let played = 0;
      const parts = await Promise.all(
        batches.map(async (b) => {
          const r = await runTask<SelfPlayResult>({
            kind: 'selfplay',
            ruleset: opts.ruleset,
            cardText: opts.cards[b.card].text,
            model: ck.latest ?? ck.best,
            featureVersion: version,
            settings: opts.play,
            seeds: b.seeds,
          });
          played += b.seeds.length;
          events.tick?.(played);
          return r;
        }),
      );
      const rows = parts.reduce((n, p) => n + p.rows, 0);
      const selfPlayPerSecond = Math.round(rows / Math.max(1e-3, (Date.now() - started) / 1000));
      const x = new Float32Array(rows * FEATURES),
        y = new Float32Array(rows * 2);
      let at = 0;
      for (const p of parts) {
        x.set(p.x, at * FEATURES);
        y.set(p.y, at * 2);
        at += p.rows;
      }
      const file = `examples-${String(g).padStart(3, '0')}.bin`;
      writeExamples(join(opts.out, file), version, x, y, rows);
      const files = [...ck.exampleFiles, file].slice(-opts.window);

      // 2. train on the window, from the latest weights
      const data = files.map((f) => (f === file ? { x, y, rows } : readExamples(join(opts.out, f), version)));
      const total = data.reduce((n, d) => n + d.rows, 0);
      const order = shuffled(total, (opts.seed * 31 + g) >>> 0);
      const X = new Float32Array(total * FEATURES),
        Y = new Float32Array(total * 2);
      const flatX = concat(data.map((d) => d.x)),
        flatY = concat(data.map((d) => d.y));
      order.forEach((src, dst) => {
        X.set(flatX.subarray(src * FEATURES, (src + 1) * FEATURES), dst * FEATURES);
        Y[dst * 2] = flatY[src * 2];
        Y[dst * 2 + 1] = flatY[src * 2 + 1];
      });
      const valRows = Math.max(1, Math.floor(total * 0.05));
      const trainRows = total - valRows;
      const net = buildNet(tf, opts.seed + g, hidden, FEATURES);
      const from = ck.latest ?? ck.best;
      if (from !== null) setWeights(tf, net, modelFromJson(from));
      net.compile({ optimizer: tf.train.adam(opts.learningRate), loss: valueLoss(tf) });
      const batch = 1024;
      const steps = Math.ceil(trainRows / batch) * opts.epochs;
      events.phase?.('train', g, steps);
      let step = 0;
      const vx = tf.tensor2d(X.subarray(trainRows * FEATURES), [valRows, FEATURES]);
      const vy = tf.tensor2d(Y.subarray(trainRows * 2), [valRows, 2]);
      // Each epoch in an order of its own from the run's seed, never TF.js's own shuffle (it
      // draws from Math.random): the same command trains the same model.
      let trainLoss = NaN,
        valLoss = NaN;
      // the first epoch in the order drawn above; each later one reorders it into EX, EY
      const EX = opts.epochs > 1 ? new Float32Array(trainRows * FEATURES) : null,
        EY = opts.epochs > 1 ? new Float32Array(trainRows * 2) : null;
      for (let e = 0; e < opts.epochs; e++) {
        if (e > 0)
          shuffled(trainRows, (opts.seed * 131 + g * 17 + e) >>> 0).forEach((src, dst) => {
            EX!.set(X.subarray(src * FEATURES, (src + 1) * FEATURES), dst * FEATURES);
            EY![dst * 2] = Y[src * 2];
            EY![dst * 2 + 1] = Y[src * 2 + 1];
          });
        const xs = tf.tensor2d(e === 0 ? X.subarray(0, trainRows * FEATURES) : EX!, [trainRows, FEATURES]);
        const ys = tf.tensor2d(e === 0 ? Y.subarray(0, trainRows * 2) : EY!, [trainRows, 2]);
        const hist = await net.fit(xs, ys, {
          batchSize: batch,
          epochs: 1,
          shuffle: false,
          validationData: [vx, vy],
          verbose: 0,
          callbacks: {
            onBatchEnd: async () => {
              events.tick?.(++step);
            },
          },
        });
        tf.dispose([xs, ys]);
        trainLoss = Number(hist.history.loss.at(-1));
        valLoss = Number(hist.history.val_loss.at(-1));
      }
      tf.dispose([vx, vy]);
      // one card's model says as before which card it was trained on; several cards' list them
      const trainedOn = K === 1 ? { ruleset: opts.ruleset, cardHash } : { ruleset: opts.ruleset, cardHashes: cards.map((c) => c.hash) };
      const candidate = toValueModel(net, version, { generation: g, examples: total, command: opts.command, trainedOn });
      net.dispose();
      const candidateJson = modelToJson(candidate);

      // 3. evaluate on duplicate deals against three medium bots: the same deals every generation,
      // so the strong habits' and the best model's results are played once and kept (the same
      // deals on every card, each card's kept after the one before)
      const evalSeed = (opts.seed * 7_777_777 + 1_000_003) >>> 0;
      if (ck.habitsWins?.length !== opts.evalDeals * K) {
        ck.habitsWins = undefined;
        ck.bestWins = undefined;
      }
      const subjects: Subject[] = [{ name: 'candidate', model: candidateJson }];
      if (ck.habitsWins === undefined) subjects.push({ name: 'strong', level: 'strong' });
      if (ck.best !== null && ck.bestWins === undefined) subjects.push({ name: 'best', model: ck.best });
      events.phase?.('eval', g, opts.evalDeals * K);
      const dealIds = Array.from({ length: opts.evalDeals }, (_, i) => i);
      const dealBatches: { card: number; deals: number[] }[] = [];
      for (let c = 0; c < K; c++) for (let i = 0; i < dealIds.length; i += 5) dealBatches.push({ card: c, deals: dealIds.slice(i, i + 5) });
      let dealsDone = 0;
      const results = (
        await Promise.all(
          dealBatches.map(async ({ card, deals }) => {
            const r = await runTask<DealResult[]>({ kind: 'eval', ruleset: opts.ruleset, cardText: opts.cards[card].text, subjects, opponents: 'medium', seed: evalSeed, deals });
            dealsDone += deals.length;
            events.tick?.(dealsDone);
            return r;
          }),
        )
      ).flat();
      const seats = results[0].seats;
      const winsOf = (name: string) => results.map((d) => d.wins[subjects.findIndex((x) => x.name === name)]);
      const wins = winsOf('candidate');
      ck.habitsWins ??= winsOf('strong');
      if (ck.best !== null) ck.bestWins ??= winsOf('best');
      // every card's deals together: the mean over the cards (each has as many deals), its interval over all the deals
      const versus = (other: readonly number[], from = 0, to = wins.length) => interval(wins.slice(from, to).map((w, d) => (w - other[from + d]) / seats));
      const vsHabits = versus(ck.habitsWins);
      const vsBest = ck.best !== null ? versus(ck.bestWins!) : vsHabits;
      const promoted = vsBest.low > 0;
      const habitsAgreements = await discardAgreement(runTask, opts, candidateJson, version);
      const searchAgreements = (opts.agreementGames ?? AGREEMENT_GAMES) > 0 ? await searchAgreementOf(runTask, opts, candidateJson, workers) : undefined;
      const searchAgreement = searchAgreements === undefined ? undefined : r4(mean(searchAgreements));
      const winShareOf = (ws: readonly number[]) => r4(ws.reduce((a, b) => a + b, 0) / (ws.length * seats));
      const meanScoreOf = (rs: readonly DealResult[]) => r4(rs.reduce((s, d) => s + d.scores[0] / d.seats, 0) / rs.length);
      const row: LogRow = {
        generation: g,
        examples: total,
        trainLoss: r4(trainLoss),
        valLoss: r4(valLoss),
        ...(searchAgreement === undefined ? {} : { searchAgreement }),
        habitsAgreement: r4(mean(habitsAgreements)),
        winShare: winShareOf(wins),
        vsBest: r4(vsBest.mean),
        vsBestLow: r4(vsBest.low),
        vsBestHigh: r4(vsBest.high),
        vsHabits: r4(vsHabits.mean),
        vsHabitsLow: r4(vsHabits.low),
        vsHabitsHigh: r4(vsHabits.high),
        meanScore: meanScoreOf(results),
        promoted,
        seconds: Math.round((Date.now() - started) / 1000),
        selfPlayPerSecond,
      };
      if (K > 1) {
        row.cards = cards.map((card, c): CardLogRow => {
          const from = c * opts.evalDeals,
            to = from + opts.evalDeals;
          const mine = parts.filter((_, i) => batches[i].card === c);
          const h = versus(ck.habitsWins!, from, to);
          const b = ck.best !== null ? versus(ck.bestWins!, from, to) : h;
          return {
            card: card.name,
            games: mine.reduce((n, p) => n + p.stats.games, 0),
            selfPlayExamples: mine.reduce((n, p) => n + p.rows, 0),
            ...(searchAgreements === undefined ? {} : { searchAgreement: r4(searchAgreements[c]) }),
            habitsAgreement: r4(habitsAgreements[c]),
            winShare: winShareOf(wins.slice(from, to)),
            vsBest: r4(b.mean),
            vsBestLow: r4(b.low),
            vsBestHigh: r4(b.high),
            vsHabits: r4(h.mean),
            vsHabitsLow: r4(h.low),
            vsHabitsHigh: r4(h.high),
            meanScore: meanScoreOf(results.slice(from, to)),
          };
        });
      }

      // 4. the checkpoint, the best model, the log and its plot
      if (promoted) {
        ck.best = candidateJson;
        ck.bestGeneration = g;
        ck.bestWins = wins;
      }
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
 * a few self-play games (no exploration): on each card, the same seeds.
 */
async function discardAgreement(runTask: <R>(t: SelfPlayTask | EvalTask | AgreementTask) => Promise<R>, opts: TrainOptions, model: string, version: number): Promise<number[]> {
  const FEATURES = featureWidth(version);
  const seeds = Array.from({ length: 20 }, (_, i) => (opts.seed * 999_983 + i) >>> 0);
  // the encoder's "discard rank" is 0 when the discard is the habits' first choice
  const [isDiscard, rank, call] = ['discard', 'discard rank', 'call'].map((n) => featureNames(version).indexOf(n));
  return Promise.all(
    opts.cards.map(async (card) => {
      const r = await runTask<SelfPlayResult>({
        kind: 'selfplay',
        ruleset: opts.ruleset,
        cardText: card.text,
        model,
        featureVersion: version,
        settings: { ...opts.play, explore: 0, allLearned: 1 },
        seeds,
      });
      let discards = 0,
        same = 0;
      for (let i = 0; i < r.rows; i++) {
        if (r.x[i * FEATURES + isDiscard] !== 1 || r.x[i * FEATURES + call] === 1) continue; // discards in play, not after a call
        discards++;
        if (r.x[i * FEATURES + rank] === 0) same++;
      }
      return discards === 0 ? 0 : same / discards;
    }),
  );
}

/** Games whose discards are put to the Monte Carlo search (every AGREEMENT_EVERY-th), split among the workers. */
export const AGREEMENT_GAMES = 8;
const AGREEMENT_EVERY = 4;

/** How often the candidate discards what the Monte Carlo search discards in the same positions (the same games every generation), on each card. */
async function searchAgreementOf(runTask: <R>(t: SelfPlayTask | EvalTask | AgreementTask) => Promise<R>, opts: TrainOptions, model: string, workers: number): Promise<number[]> {
  const seeds = Array.from({ length: opts.agreementGames ?? AGREEMENT_GAMES }, (_, i) => (opts.seed * 999_979 + i) >>> 0);
  const parts = Array.from({ length: Math.min(workers, seeds.length) }, (_, w) => seeds.filter((_, i) => i % workers === w));
  return Promise.all(
    opts.cards.map(async (card) => {
      const results = await Promise.all(parts.map((p) => runTask<AgreementResult>({ kind: 'agreement', ruleset: opts.ruleset, cardText: card.text, model, seeds: p, every: AGREEMENT_EVERY })));
      const positions = results.reduce((n, r) => n + r.positions, 0);
      return positions === 0 ? 0 : results.reduce((n, r) => n + r.withSearch, 0) / positions;
    }),
  );
}

/** 0..n-1 in an order drawn from `seed` (never Math.random: the same command trains the same model). */
export function shuffled(n: number, seed: number): Uint32Array {
  const out = Uint32Array.from({ length: n }, (_, i) => i);
  let s = seed || 1;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = s % (i + 1);
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const COLUMNS: (keyof LogRow)[] = [
  'generation',
  'examples',
  'trainLoss',
  'valLoss',
  'searchAgreement',
  'habitsAgreement',
  'winShare',
  'vsBest',
  'vsBestLow',
  'vsBestHigh',
  'vsHabits',
  'vsHabitsLow',
  'vsHabitsHigh',
  'meanScore',
  'promoted',
  'seconds',
  'selfPlayPerSecond',
];

const CARD_COLUMNS: Exclude<keyof CardLogRow, 'card'>[] = [
  'games',
  'selfPlayExamples',
  'searchAgreement',
  'habitsAgreement',
  'winShare',
  'vsBest',
  'vsBestLow',
  'vsBestHigh',
  'vsHabits',
  'vsHabitsLow',
  'vsHabitsHigh',
  'meanScore',
];

/** The log as CSV; a run on several cards adds each card's columns (card1Games, …, in the order of its --card files). */
export function logCsv(log: readonly LogRow[]): string {
  const cards = log.reduce((n, r) => Math.max(n, r.cards?.length ?? 0), 0);
  const perCard = Array.from({ length: cards }, (_, k) => CARD_COLUMNS.map((c) => ({ k, c, name: `card${k + 1}${c[0].toUpperCase()}${c.slice(1)}` }))).flat();
  const header = [...COLUMNS, ...perCard.map((p) => p.name)].join(',');
  return [header, ...log.map((r) => [...COLUMNS.map((c) => String(r[c] ?? '')), ...perCard.map(({ k, c }) => String(r.cards?.[k]?.[c] ?? ''))].join(','))].join('\n') + '\n';
}

export const defaultWorkers = (): number => availableParallelism();
