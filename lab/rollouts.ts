/**
 * Value targets from the true world (issue 30, eighth round): a teacher that sees the hidden
 * tiles during training only.
 *
 * `node dist/lab/rollouts.js play OUT.bin [--model M] [--card FILE] [--games N] [--first S] [--keep Q] [--keep-charleston Q]`
 * plays self-play games as `tilemate train` does (a quarter with every seat learned, the rest
 * one learned seat among three medium bots). At a share of the learned seats' decisions, every
 * row the model rates is played on in the game's own true state (the other racks, the wall's
 * order: what no player sees), the seat by the model without exploring and the others as they
 * sit, to the end of the game. Each row is labelled with how that went for the seat: won (0/1)
 * and score / 100. The same world and the same players for every row of a decision, so their
 * differences are the choice's alone, not the deal's luck.
 *
 * The labels are outcomes of a player that does not peek (the model's own play), so over the
 * worlds a seat cannot tell apart they average to the worth of each choice as the seat sees it:
 * knowing the world makes them less noisy, not biased. Every choice at a decision gets one,
 * where self-play labels only the one taken.
 *
 * `node dist/lab/rollouts.js fit OUT.json DATA.bin... [--from M] [--epochs E] [--lr L] [--seed S] [--centered]`
 * fits a model (from the shipped one by default) to those labels with the value loss, as
 * lab/distill.ts fits a student. `--centered` teaches only each decision's differences:
 * each row's target is the model's own mean over the decision's rows plus how far the row's
 * outcome was from the decision's mean outcome, taking out what every row of the decision shares.
 *
 * `node dist/lab/rollouts.js choices OUT.json DATA.bin... [--from M] [--tau T] [--keep-near K] [--epochs E] [--lr L] [--seed S]`
 * fits the choices instead of the ratings (fitChoices). docs/training.md, "Value targets from
 * the true world", has what each measured.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Agent, Turn } from '../agents/agent.js';
import { DEFAULT_MODEL_FILE, readModelFile } from '../agents/mah-jongg/default-model.js';
import { featureWidth } from '../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { forward, modelToJson, type ValueModel } from '../agents/mah-jongg/model.js';
import { playOut, tableTurns } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { TilemateError } from '../engine/errors.js';
import { apply, beforePlay, cloneState, newGame, nextToAct, type Action, type GameState } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { nextU32, seedRng } from '../engine/rng.js';
import { loadRuleset, type Ruleset } from '../engine/mah-jongg/rulesets.js';
import type { TileId } from '../engine/mah-jongg/tiles.js';
import { loadCard } from '../io/cards.js';
import { fitRows } from './distill.js';
import { buildNet, setWeights, toValueModel } from '../training/net.js';
import { loadTf } from '../training/tf.js';
import { selfPlaySeats } from '../training/selfplay.js';
import { shuffled, TRAIN_DEFAULTS } from '../training/train.js';
import { paired } from '../agents/mah-jongg/montecarlo.js';

type Tensor = import('@tensorflow/tfjs').Tensor;
type Scalar = import('@tensorflow/tfjs').Scalar;

/** Whole decisions' rows (x, rows x width), their labels (y, rows x 2: won, score / 100), where each decision begins (one more: the end). */
export interface Labelled {
  width: number;
  x: Float32Array;
  y: Float32Array;
  rows: number;
  starts: number[];
}

/**
 * The seat's player in a rollout: the model, with the discard a call row stands for made as the
 * seat's next action when that is its discard after the call (teaching guide 4.3: expose, then
 * discard). A call another seat's claim overrules leaves the seat's next action to the model.
 */
class Then implements Agent {
  readonly name = 'rollout';
  private pending: TileId | undefined;
  constructor(private readonly player: Agent) {}
  set(tile: TileId | undefined): void {
    this.pending = tile;
  }
  act(turn: Turn): Action {
    const tile = this.pending;
    this.pending = undefined;
    if (tile !== undefined && turn.phase === 'discard' && turn.view().concealed[tile] > 0) return { type: 'discard', seat: turn.seat, tile };
    return this.player.act(turn);
  }
}

export interface RolloutOptions {
  ruleset: Ruleset;
  cc: CompiledCard;
  model: ValueModel;
  seeds: readonly number[];
  /** Share of the learned seats' discards and answers to discards labelled. */
  keep: number;
  /** The same at Charleston passes, the vote and the courtesy offer (their rows are many and their rollouts whole games). */
  keepCharleston: number;
  seed: number;
  /** The game's learned player's exploring (default self-play's). */
  explore?: number;
}

/** The labelled decisions of the games of `seeds` (see the file's head). */
export function rolloutDecisions(o: RolloutOptions): Labelled {
  const width = featureWidth(o.model.featureVersion);
  const game = mahJonggGame(o.ruleset, o.cc);
  const players = o.ruleset.players;
  // the game's players (the learned one explores, as in self-play), and the rollouts' (it does not)
  const learned = new LearnedAgent(o.cc, o.model, { explore: o.explore ?? TRAIN_DEFAULTS.play.explore });
  const medium = new HeuristicAgent(o.cc, MEDIUM_HABITS, 'medium');
  const labeller = new LearnedAgent(o.cc, o.model, {}, 'rollout');
  const own = new Then(labeller);
  const rolloutMedium = new HeuristicAgent(o.cc, MEDIUM_HABITS, 'medium');
  const pick = seedRng(o.seed ^ 0x61c88647);
  let x = new Float32Array(1 << 16);
  const y: number[] = [];
  const starts: number[] = [];
  let rows = 0;
  for (const s of o.seeds) {
    const { rng, learnedSeats } = selfPlaySeats(s, players, TRAIN_DEFAULTS.play.allLearned);
    const agents: Agent[] = learnedSeats.map((l) => (l ? learned : medium));
    const state = newGame(o.ruleset, o.cc, s);
    const turns = tableTurns(game, state, rng);
    for (;;) {
      const seat = nextToAct(state);
      if (seat < 0) break;
      const turn = turns[seat];
      const phase = game.phase(state);
      turn.phase = phase;
      const share = beforePlay(phase) ? o.keepCharleston : phase === 'discard' || phase === 'claims' ? o.keep : 0;
      if (learnedSeats[seat] && share > 0 && nextU32(pick) / 0x100000000 < share) {
        // the rows, as the seat's player would rate them (its own random draws left alone)
        const c = labeller.candidateRows({ ...turn, rng: seedRng(nextU32(pick)) });
        if (c !== null && c.candidates.length >= 2) {
          const n = c.candidates.length;
          const rollers: Agent[] = learnedSeats.map((l, k) => (k === seat ? own : l ? labeller : rolloutMedium));
          const common = nextU32(pick);
          if ((rows + n) * width > x.length) {
            const grown = new Float32Array(2 * Math.max(x.length, (rows + n) * width));
            grown.set(x);
            x = grown;
          }
          x.set(c.rows, rows * width);
          starts.push(rows);
          rows += n;
          for (const { action, then } of c.candidates) {
            const w = playOn(state, action, then, own, rollers, common);
            y.push(w.result!.winners.includes(seat) ? 1 : 0, w.result!.scores[seat] / 100);
          }
        }
      }
      apply(state, agents[seat].act(turn));
    }
  }
  starts.push(rows);
  return { width, x: x.slice(0, rows * width), y: Float32Array.from(y), rows, starts };
}

/** The true state played on from `action` (and the discard `then` after a call) to the end. */
function playOn(state: GameState, action: Action, then: TileId | undefined, own: Then, players: readonly Agent[], seed: number): GameState {
  const w = cloneState(state);
  apply(w, action);
  own.set(then);
  playOut(mahJonggGame(w.rules, w.cc), w, players, seedRng(seed));
  own.set(undefined);
  return w;
}

// ------------------------------------------------------------------ on disk

const MAGIC = 0x4c52_4d54; // "TMRL"

export function writeLabelled(path: string, d: Labelled): void {
  const head = new Uint32Array([MAGIC, d.width, d.rows, d.starts.length]);
  const starts = Uint32Array.from(d.starts);
  writeFileSync(path, Buffer.concat([head, d.x, d.y, starts].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
}

export function readLabelled(path: string): Labelled {
  const buf = readFileSync(path);
  const u = (at: number, n: number) => new Uint32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + 4 * n));
  const [magic, width, rows, nStarts] = buf.length >= 16 ? u(0, 4) : [0, 0, 0, 0];
  if (magic !== MAGIC || buf.length !== 16 + 4 * (rows * width + rows * 2 + nStarts)) throw new TilemateError('TM_BAD_INPUT', `${path} is not a whole rollouts file (cut off or another kind)`);
  const f = (at: number, n: number) => new Float32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + 4 * n));
  return { width, rows, x: f(16, rows * width), y: f(16 + 4 * rows * width, rows * 2), starts: [...u(16 + 4 * rows * (width + 2), nStarts)] };
}

/** Several files' decisions as one (of one width). */
export function joined(parts: readonly Labelled[]): Labelled {
  const width = parts[0].width;
  for (const p of parts) if (p.width !== width) throw new TilemateError('TM_BAD_INPUT', `rollouts files of ${width} and ${p.width} numbers a row: give files of one feature version`);
  const rows = parts.reduce((n, p) => n + p.rows, 0);
  const x = new Float32Array(rows * width),
    y = new Float32Array(rows * 2),
    starts: number[] = [];
  let at = 0;
  for (const p of parts) {
    x.set(p.x, at * width);
    y.set(p.y, at * 2);
    for (let i = 0; i + 1 < p.starts.length; i++) starts.push(at + p.starts[i]);
    at += p.rows;
  }
  starts.push(at);
  return { width, x, y, rows, starts };
}

// ------------------------------------------------------------------ the fit

/** The decisions in an order of `seed`'s, each kept whole, with their labels. */
function shuffledDecisions(d: Labelled, seed: number): Labelled {
  const order = shuffled(d.starts.length - 1, seed);
  const x = new Float32Array(d.rows * d.width),
    y = new Float32Array(d.rows * 2),
    starts: number[] = [];
  let at = 0;
  for (const k of order) {
    const a = d.starts[k],
      b = d.starts[k + 1];
    starts.push(at);
    x.set(d.x.subarray(a * d.width, b * d.width), at * d.width);
    y.set(d.y.subarray(2 * a, 2 * b), 2 * at);
    at += b - a;
  }
  starts.push(at);
  return { width: d.width, x, y, rows: d.rows, starts };
}

/**
 * Centred labels: each row's the model's mean over its decision plus the row's label less the
 * decision's mean label (the chance of winning kept within 0 and 1).
 */
function centredLabels(d: Labelled, model: ValueModel): Float32Array {
  const out = forward(model, d.x, d.rows, new Float64Array(2 * d.rows));
  const y = new Float32Array(d.rows * 2);
  for (let k = 0; k + 1 < d.starts.length; k++) {
    const a = d.starts[k],
      b = d.starts[k + 1],
      n = b - a;
    let mw = 0,
      ms = 0,
      pw = 0,
      ps = 0;
    for (let i = a; i < b; i++) {
      mw += d.y[2 * i] / n;
      ms += d.y[2 * i + 1] / n;
      pw += 1 / (1 + Math.exp(-out[2 * i])) / n;
      ps += out[2 * i + 1] / n;
    }
    for (let i = a; i < b; i++) {
      y[2 * i] = Math.min(1, Math.max(0, pw + d.y[2 * i] - mw));
      y[2 * i + 1] = ps + d.y[2 * i + 1] - ms;
    }
  }
  return y;
}

/** The decisions in an order of `seed`'s (whole), and their targets: the labels, or with `centered` the centred ones (centredLabels). */
export function targets(d: Labelled, model: ValueModel, centered: boolean, seed: number): Labelled {
  const s = shuffledDecisions(d, seed);
  return centered ? { ...s, y: centredLabels(s, model) } : s;
}

/** The row a model rates highest (by the win log-odds, the first among equals) in each decision from .. to, as an index into d's rows. */
function picks(model: ValueModel, d: Labelled, from: number, to: number): Int32Array {
  const a0 = d.starts[from],
    b0 = d.starts[to];
  return picksOf(forward(model, d.x.subarray(a0 * d.width, b0 * d.width), b0 - a0, new Float64Array(2 * (b0 - a0))), d, from, to);
}

/** picks() from a model's outputs already made for the rows of decisions from .. to (out[0] is decision from's first row). */
function picksOf(out: Float64Array, d: Labelled, from: number, to: number): Int32Array {
  const a0 = d.starts[from];
  const pick = new Int32Array(to - from);
  for (let k = from; k < to; k++) {
    const a = d.starts[k] - a0,
      b = d.starts[k + 1] - a0;
    let p = a;
    for (let i = a + 1; i < b; i++) if (out[2 * i] > out[2 * p]) p = i;
    pick[k - from] = p + a0;
  }
  return pick;
}

/**
 * How much a model's choices give up on decisions, by their rollouts: the mean over decisions of
 * the best row's outcome less the outcome of the row it rates highest (wins, and score / 100).
 */
export function regret(model: ValueModel, d: Labelled, from = 0, to = d.starts.length - 1): { win: number; score: number } {
  return regretOf(picks(model, d, from, to), d, from, to);
}

/** The regret of the rows picked (picks(), for decisions from .. to). */
function regretOf(pick: Int32Array, d: Labelled, from: number, to: number): { win: number; score: number } {
  let win = 0,
    score = 0;
  for (let k = from; k < to; k++) {
    let bestWin = -1,
      bestScore = -Infinity;
    for (let i = d.starts[k]; i < d.starts[k + 1]; i++) {
      bestWin = Math.max(bestWin, d.y[2 * i]);
      bestScore = Math.max(bestScore, d.y[2 * i + 1]);
    }
    const p = pick[k - from];
    win += bestWin - d.y[2 * p];
    score += bestScore - d.y[2 * p + 1];
  }
  return { win: win / Math.max(1, to - from), score: score / Math.max(1, to - from) };
}

/** Refuses a model that reads rows of another width than the rollouts'. */
function checkWidth(model: ValueModel, d: Labelled): void {
  if (featureWidth(model.featureVersion) !== d.width) throw new TilemateError('TM_BAD_MODEL', `the model reads ${featureWidth(model.featureVersion)} numbers a row and the rollouts hold ${d.width}`);
}

export async function fitRollouts(o: {
  data: Labelled;
  from: ValueModel;
  centered: boolean;
  epochs: number;
  learningRate: number;
  seed: number;
  command: string;
  log?: (line: string) => void;
}): Promise<ValueModel> {
  const log = o.log ?? (() => {});
  checkWidth(o.from, o.data);
  // the decisions shuffled once; the fit's targets, and their own labels for the regret
  const plain = shuffledDecisions(o.data, o.seed * 17 + 3);
  const d = o.centered ? { ...plain, y: centredLabels(plain, o.from) } : plain;
  const decisions = d.starts.length - 1,
    held = Math.max(1, Math.floor(decisions * 0.05)),
    firstHeld = decisions - held;
  const picked = picks(o.from, plain, firstHeld, decisions);
  const r0 = regretOf(picked, plain, firstHeld, decisions);
  log(`${decisions} decisions, ${d.rows} rows; held out ${held}; regret before: ${(100 * r0.win).toFixed(2)} wins in 100, ${(100 * r0.score).toFixed(2)} points`);
  const figures: Record<string, number> = { decisions, rows: d.rows, heldOut: held, regretBefore: r0.win, centered: o.centered ? 1 : 0 };
  const model = await fitRows({
    from: o.from,
    x: d.x,
    y: d.y,
    heldRow: d.starts[firstHeld],
    epochs: o.epochs,
    learningRate: o.learningRate,
    seed: o.seed,
    onEpoch: (e, student, loss, valLoss) => {
      const now = picks(student, plain, firstHeld, decisions);
      const r = regretOf(now, plain, firstHeld, decisions);
      figures.regretAfter = r.win;
      figures.agreesWithBefore = now.filter((p, i) => p === picked[i]).length / held;
      log(
        `epoch ${e + 1}: train loss ${loss.toFixed(5)}, held-out loss ${valLoss.toFixed(5)}, regret ${(100 * r.win).toFixed(2)} wins in 100, ${(100 * r.score).toFixed(2)} points; same choice as before on ${(100 * figures.agreesWithBefore).toFixed(1)}%`,
      );
    },
  });
  model.info = { rollouts: { from: o.from.info, ...figures }, command: o.command };
  return model;
}

/**
 * Fitted to the choices, not the ratings: from `from`'s weights, each decision's rows weighed by
 * a softmax of the win log-odds at temperature `tau`, and the expected gain of that choice over
 * the decision's mean outcome (the labels' wins) made as large as it can be, while both outputs
 * are kept near `from`'s own (`keepNear`, the mean squared distance's weight): the rows' labels
 * teach which choice of a decision did better in its world, and nothing about the decision's level.
 */
export async function fitChoices(o: {
  data: Labelled;
  from: ValueModel;
  tau: number;
  keepNear: number;
  epochs: number;
  learningRate: number;
  seed: number;
  command: string;
  log?: (line: string) => void;
}): Promise<ValueModel> {
  const log = o.log ?? (() => {});
  checkWidth(o.from, o.data);
  const d = shuffledDecisions(o.data, o.seed * 17 + 3);
  const W = d.width,
    decisions = d.starts.length - 1,
    held = Math.max(1, Math.floor(decisions * 0.1)),
    firstHeld = decisions - held;
  // the model's outputs before, once: the targets to stay near, and its own picks held out and in sample
  const before = forward(o.from, d.x, d.rows, new Float64Array(2 * d.rows));
  const won = (m: ValueModel) => chosenWins(picks(m, d, firstHeld, decisions), d);
  const w0 = chosenWins(picksOf(before.subarray(2 * d.starts[firstHeld]), d, firstHeld, decisions), d);
  const inSample0 = chosenWins(picksOf(before, d, 0, firstHeld), d).mean;
  log(`${decisions} decisions, ${d.rows} rows; held out ${held}; the rows chosen won ${(100 * w0.mean).toFixed(2)}% before`);
  const { tf } = await loadTf();
  const net = buildNet(
    tf,
    o.seed,
    o.from.layers.slice(0, -1).map((l) => l.outputs),
    W,
  );
  setWeights(tf, net, o.from);
  const optimizer = tf.train.adam(o.learningRate);
  const BATCH = 128;
  const figures: Record<string, number> = { decisions, rows: d.rows, heldOut: held, tau: o.tau, keepNear: o.keepNear, chosenWonBefore: w0.mean };
  for (let e = 0; e < o.epochs; e++) {
    const order = shuffled(firstHeld, o.seed * 7919 + e);
    let sum = 0,
      steps = 0;
    for (let b = 0; b < order.length; b += BATCH) {
      const batch = Array.from(order.subarray(b, Math.min(order.length, b + BATCH)));
      let rows = 0;
      for (const k of batch) rows += d.starts[k + 1] - d.starts[k];
      const x = new Float32Array(rows * W),
        seg = new Float32Array(batch.length * rows),
        adv = new Float32Array(rows),
        near = new Float32Array(rows * 2);
      let r = 0;
      batch.forEach((k, j) => {
        const a = d.starts[k],
          n = d.starts[k + 1] - a;
        x.set(d.x.subarray(a * W, (a + n) * W), r * W);
        let mean = 0;
        for (let i = 0; i < n; i++) mean += d.y[2 * (a + i)] / n;
        for (let i = 0; i < n; i++) {
          seg[j * rows + r + i] = 1;
          adv[r + i] = d.y[2 * (a + i)] - mean;
          near[2 * (r + i)] = before[2 * (a + i)];
          near[2 * (r + i) + 1] = before[2 * (a + i) + 1];
        }
        r += n;
      });
      const cost = optimizer.minimize(
        () =>
          tf.tidy(() => {
            const z = net.apply(tf.tensor2d(x, [rows, W])) as Tensor;
            const u = tf.div(tf.slice(z, [0, 0], [rows, 1]), o.tau);
            const S = tf.tensor2d(seg, [batch.length, rows]);
            // each decision's softmax, shifted by its largest value
            const top = tf.max(tf.add(tf.mul(S, tf.transpose(u)), tf.mul(tf.sub(1, S), -1e9)), 1, true);
            const ex = tf.exp(tf.sub(u, tf.matMul(S, top, true, false)));
            const p = tf.div(ex, tf.matMul(S, tf.matMul(S, ex), true, false));
            const gain = tf.div(tf.sum(tf.mul(p, tf.tensor2d(adv, [rows, 1]))), batch.length);
            const stay = tf.mean(tf.square(tf.sub(z, tf.tensor2d(near, [rows, 2]))));
            return tf.add(tf.neg(gain), tf.mul(stay, o.keepNear)) as Scalar;
          }),
        true,
      );
      sum += cost!.dataSync()[0];
      cost!.dispose();
      steps++;
    }
    const student = toValueModel(net, o.from.featureVersion, {});
    const w = won(student);
    figures.chosenWonAfter = w.mean;
    figures.gainHeldOut = w.mean - w0.mean;
    log(
      `epoch ${e + 1}: loss ${(sum / Math.max(1, steps)).toFixed(5)}; the held-out rows chosen won ${(100 * w.mean).toFixed(2)}%, ${(100 * (w.mean - w0.mean)).toFixed(2)} ± ${(196 * paired(Array.from(w.per, (v, i) => v - w0.per[i])).se).toFixed(2)} against before; in-sample ${(100 * (chosenWins(picks(student, d, 0, firstHeld), d).mean - inSample0)).toFixed(2)}`,
    );
  }
  optimizer.dispose();
  const model = toValueModel(net, o.from.featureVersion, { rollouts: { from: o.from.info, ...figures }, command: o.command });
  net.dispose();
  return model;
}

/** Whether each row picked (picks()) won, and the mean. */
function chosenWins(pick: Int32Array, d: Labelled): { mean: number; per: Float64Array } {
  const per = Float64Array.from(pick, (p) => d.y[2 * p]);
  return { mean: per.reduce((s, v) => s + v, 0) / Math.max(1, per.length), per };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      model: { type: 'string', default: DEFAULT_MODEL_FILE },
      from: { type: 'string', default: DEFAULT_MODEL_FILE },
      card: { type: 'string' },
      games: { type: 'string', default: '1000' },
      first: { type: 'string', default: '1' },
      keep: { type: 'string', default: '0.25' },
      'keep-charleston': { type: 'string', default: '0.05' },
      epochs: { type: 'string', default: '3' },
      lr: { type: 'string', default: '0.0003' },
      seed: { type: 'string', default: '1' },
      centered: { type: 'boolean', default: false },
      tau: { type: 'string', default: '0.05' },
      'keep-near': { type: 'string', default: '1' },
    },
  });
  const [mode, out, ...files] = positionals;
  const num = (name: string, v: string, lo: number, hi: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < lo || n > hi) {
      console.error(`--${name} must be a number from ${lo} to ${hi}; it was ${v}`);
      process.exit(2);
    }
    return n;
  };
  try {
    if (mode === 'play' && out !== undefined) {
      const games = num('games', values.games, 1, 10_000_000),
        first = num('first', values.first, 0, 2 ** 31);
      const t0 = Date.now();
      const d = rolloutDecisions({
        ruleset: loadRuleset('nmjl-4p'),
        cc: loadCard(values.card),
        model: readModelFile(values.model),
        seeds: Array.from({ length: games }, (_, i) => first + i),
        keep: num('keep', values.keep, 0, 1),
        keepCharleston: num('keep-charleston', values['keep-charleston'], 0, 1),
        seed: first,
      });
      writeLabelled(out, d);
      console.log(`${out}: ${games} games, ${d.starts.length - 1} decisions, ${d.rows} rows (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    } else if (mode === 'choices' && out !== undefined && files.length > 0) {
      const model = await fitChoices({
        data: joined(files.map(readLabelled)),
        from: readModelFile(values.from),
        tau: num('tau', values.tau, 1e-4, 100),
        keepNear: num('keep-near', values['keep-near'], 0, 1e6),
        epochs: num('epochs', values.epochs, 1, 100),
        learningRate: num('lr', values.lr, 1e-6, 1),
        seed: num('seed', values.seed, 0, 2 ** 31),
        command: `node dist/lab/rollouts.js ${process.argv.slice(2).join(' ')}`,
        log: (l) => console.log(l),
      });
      writeFileSync(out, modelToJson(model));
      console.log(`${out}: written`);
    } else if (mode === 'fit' && out !== undefined && files.length > 0) {
      const model = await fitRollouts({
        data: joined(files.map(readLabelled)),
        from: readModelFile(values.from),
        centered: values.centered,
        epochs: num('epochs', values.epochs, 1, 100),
        learningRate: num('lr', values.lr, 1e-6, 1),
        seed: num('seed', values.seed, 0, 2 ** 31),
        command: `node dist/lab/rollouts.js ${process.argv.slice(2).join(' ')}`,
        log: (l) => console.log(l),
      });
      writeFileSync(out, modelToJson(model));
      console.log(`${out}: written`);
    } else {
      console.error(
        'usage: node dist/lab/rollouts.js play OUT.bin [--model M] [--card FILE] [--games N] [--first S] [--keep Q] [--keep-charleston Q]\n       node dist/lab/rollouts.js fit OUT.json DATA.bin... [--from M] [--epochs E] [--lr L] [--seed S] [--centered]\n       node dist/lab/rollouts.js choices OUT.json DATA.bin... [--from M] [--tau T] [--keep-near K] [--epochs E] [--lr L] [--seed S]',
      );
      process.exit(2);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
