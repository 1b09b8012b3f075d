import type { Agent } from '../agents/agent.js';
import { lineChances } from '../agents/advice.js';
import { CHANCE_INPUTS, chanceInputs, logistic, type ChanceCalibration } from '../agents/chance.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from '../agents/heuristic.js';
import { playOut } from '../agents/table.js';
import { Analyzer, type AnalysisInput } from '../engine/analyzer.js';
import type { CompiledCard } from '../engine/compile.js';
import { newGame, view, type SeatView } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/rulesets.js';
import { JOKER, KINDS } from '../engine/tiles.js';
import type { TF } from './tf.js';
import { mahJonggGame } from '../engine/mah-jongg.js';

/**
 * The chances players are shown, made honest: the solo model (agents/chance.ts) ranks lines
 * well but understates them, since it leaves out the calls that help and the other players who
 * keep their jokers. So the chance shown is the solo chance mapped through a calibration fitted
 * to full-table outcomes: games in which seat 0 plays the strong habits against three medium
 * bots; at its turns at several points of the wall, its closest lines as `analyze` lists them,
 * each with its solo chance, labelled 1 when seat 0 went on to win with that line.
 */
export interface ChanceExample {
  inputs: number[];
  solo: number;
  won: number;
  game: number;
}

/** Walls at which a position is taken (the first own turn at or below each). */
const WALLS = [95, 80, 65, 50, 35, 20];
const LINES = 5;

/** The analysis input of a seat's view, as a player would type it: her hand and exposures, the discards, the others' exposures apart. */
export function inputOfView(v: SeatView): AnalysisInput {
  const seen = new Array<number>(KINDS).fill(0);
  for (const d of v.discards) for (const t of d) seen[t]++;
  let othersExposed = 0;
  v.exposures.forEach((list, s) => {
    if (s === v.seat) return;
    for (const x of list) { seen[x.tile] += x.size - x.jokers; seen[JOKER] += x.jokers; othersExposed += x.size; }
  });
  return { concealed: [...v.concealed], exposures: v.exposures[v.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers })), seen, othersExposed, copies: v.copies };
}

export function chanceExamples(cc: CompiledCard, games: number, seed: number, deals = 100): ChanceExample[] {
  const rules = loadRuleset('nmjl-4p');
  const analyzer = new Analyzer(cc);
  const out: ChanceExample[] = [];
  for (let g = 0; g < games; g++) {
    const gameSeed = (seed + g * 7919) >>> 0;
    const state = newGame(rules, cc, gameSeed);
    const agents: Agent[] = [new HeuristicAgent(cc, STRONG_HABITS), ...[1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS))];
    const positions: { line: number; chance: number; inputs: number[] }[][] = [];
    let next = 0;
    playOut(mahJonggGame(rules, cc), state, agents, seedRng(gameSeed), (_, s) => {
      if (next >= WALLS.length || s.phase.kind !== 'discard' || s.turn !== 0) return;
      const v = view(s, 0);
      if (v.wallLeft > WALLS[next] || v.dead[0].every((d) => d)) return;
      while (next < WALLS.length && v.wallLeft <= WALLS[next]) next++;
      const input = inputOfView(v);
      const results = analyzer.analyze(input, { top: LINES });
      const report = lineChances(cc, input, results, { deals, seed: gameSeed ^ v.wallLeft, wall: v.wallLeft, raw: true });
      positions.push(results.map((r, i) => ({ line: r.line, chance: report.lines[i].chance, inputs: chanceInputs(report.lines[i].chance, v.wallLeft, i, r) })));
    });
    const won = state.players[0].mahJonggs[0]?.line ?? -1;
    for (const p of positions) for (const l of p) out.push({ inputs: l.inputs, solo: l.chance, won: l.line === won ? 1 : 0, game: g });
  }
  return out;
}

/** Fits the calibration (a logistic regression on the solo chance's log-odds, the wall, the line's rank and tiles away) with TF.js. */
export async function fitCalibration(tf: TF, examples: readonly ChanceExample[], seed = 1): Promise<ChanceCalibration> {
  // a seeded order, and no shuffling inside TF.js (which draws on Math.random): the same examples give the same fit
  const order = examples.map((_, i) => i);
  let r = seed >>> 0 || 1;
  for (let i = order.length - 1; i > 0; i--) {
    r = (Math.imul(r ^ (r >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = r % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const x = tf.tensor2d(order.map((i) => examples[i].inputs));
  const y = tf.tensor2d(order.map((i) => [examples[i].won]));
  const model = tf.sequential();
  model.add(tf.layers.dense({ inputShape: [CHANCE_INPUTS], units: 1, activation: 'sigmoid', kernelInitializer: tf.initializers.zeros(), biasInitializer: tf.initializers.zeros() }));
  model.compile({ optimizer: tf.train.adam(0.05), loss: 'binaryCrossentropy' });
  await model.fit(x, y, { epochs: 150, batchSize: 1024, shuffle: false, verbose: 0 });
  const [w, b] = model.layers[0].getWeights();
  const line = { weights: Array.from(w.dataSync()), bias: b.dataSync()[0] };
  tf.dispose([x, y]);
  model.dispose();
  return { ...line, knots: isotonic(examples.map((e) => [logistic(line, e.inputs), e.won])), fittedOn: examples.length };
}

/**
 * Isotonic regression of outcomes on scores by pooling adjacent violators, over blocks of at
 * least 1% of the examples: the knots of a monotone piecewise-linear map.
 */
export function isotonic(pairs: [number, number][]): [number, number][] {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const size = Math.max(50, Math.floor(sorted.length / 100));
  const blocks: { x: number; y: number; n: number }[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const part = sorted.slice(i, i + size);
    blocks.push({ x: part.reduce((a, p) => a + p[0], 0) / part.length, y: part.reduce((a, p) => a + p[1], 0) / part.length, n: part.length });
    // pool while the outcomes go down
    while (blocks.length > 1 && blocks[blocks.length - 2].y >= blocks[blocks.length - 1].y) {
      const b2 = blocks.pop()!, b1 = blocks.pop()!;
      const n = b1.n + b2.n;
      blocks.push({ x: (b1.x * b1.n + b2.x * b2.n) / n, y: (b1.y * b1.n + b2.y * b2.n) / n, n });
    }
  }
  return blocks.map((b) => [Math.round(b.x * 1e5) / 1e5, Math.round(b.y * 1e5) / 1e5]);
}

export interface DecileRow {
  /** The decile of shown chances, e.g. "10-20%". */
  bin: string;
  lines: number;
  shown: number;
  cameTrue: number;
}

/** Shown chance against how often the line came true, by decile of the shown chance. */
export function calibrationTable(examples: readonly ChanceExample[], shown: (e: ChanceExample) => number): DecileRow[] {
  const rows: DecileRow[] = [];
  for (let d = 0; d < 10; d++) {
    const inBin = examples.filter((e) => { const p = shown(e); return p >= d / 10 && (p < (d + 1) / 10 || (d === 9 && p <= 1)); });
    if (inBin.length === 0) continue;
    rows.push({
      bin: `${d * 10}-${d * 10 + 10}%`,
      lines: inBin.length,
      shown: inBin.reduce((a, e) => a + shown(e), 0) / inBin.length,
      cameTrue: inBin.reduce((a, e) => a + e.won, 0) / inBin.length,
    });
  }
  return rows;
}
