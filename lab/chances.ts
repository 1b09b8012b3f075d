import type { Agent } from '../agents/agent.js';
import { lineChances } from '../agents/mah-jongg/advice.js';
import { chanceHand, chanceInputs, logistic, type ChanceCalibration } from '../agents/mah-jongg/chance.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from '../agents/mah-jongg/heuristic.js';
import { playOut } from '../agents/table.js';
import { Analyzer, type AnalysisInput } from '../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { newGame, view, type SeatView } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { JOKER, KINDS } from '../engine/mah-jongg/tiles.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';

/**
 * The chances players are shown, made honest: the solo model (agents/mah-jongg/chance.ts) ranks lines
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
    for (const x of list) {
      seen[x.tile] += x.size - x.jokers;
      seen[JOKER] += x.jokers;
      othersExposed += x.size;
    }
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
      const solos = report.lines.map((l) => l.chance);
      const hand = chanceHand(results, solos, input.concealed[JOKER], input.exposures.length, input.othersExposed ?? 0);
      positions.push(results.map((r, i) => ({ line: r.line, chance: solos[i], inputs: chanceInputs(solos[i], v.wallLeft, i, r, hand) })));
    });
    const won = state.players[0].mahJonggs[0]?.line ?? -1;
    for (const p of positions) for (const l of p) out.push({ inputs: l.inputs, solo: l.chance, won: l.line === won ? 1 : 0, game: g });
  }
  return out;
}

/**
 * Fits the calibration: a logistic regression of the outcomes on the inputs by Newton's method
 * (a few dozen inputs and some 100,000 examples: exact, deterministic and quick, where plain
 * gradient steps left the logistic short of its optimum and the isotonic correction after it
 * doing the work), then the isotonic correction of what it leaves.
 */
export function fitCalibration(examples: readonly ChanceExample[]): ChanceCalibration {
  if (examples.length === 0) throw new Error('rule violation: a calibration needs examples');
  const line = logisticFit(
    examples.map((e) => e.inputs),
    examples.map((e) => e.won),
  );
  return { ...line, knots: isotonic(examples.map((e) => [logistic(line, e.inputs), e.won])), fittedOn: examples.length };
}

/** Newton's method on the log-loss, with a ridge too small to bias the fit (it keeps the steps solvable when an input never varies). */
export function logisticFit(x: readonly (readonly number[])[], y: readonly number[], ridge = 1e-6, rounds = 50): { weights: number[]; bias: number } {
  const n = x.length,
    d = x[0].length + 1;
  const w = new Float64Array(d);
  const row = new Float64Array(d);
  for (let round = 0; round < rounds; round++) {
    const g = new Float64Array(d),
      hess = new Float64Array(d * d);
    for (let i = 0; i < n; i++) {
      row[0] = 1;
      for (let k = 1; k < d; k++) row[k] = x[i][k - 1];
      let s = 0;
      for (let k = 0; k < d; k++) s += w[k] * row[k];
      const p = 1 / (1 + Math.exp(-s)),
        q = p * (1 - p);
      for (let a = 0; a < d; a++) {
        g[a] += (p - y[i]) * row[a];
        for (let b = 0; b <= a; b++) hess[a * d + b] += q * row[a] * row[b];
      }
    }
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < a; b++) hess[b * d + a] = hess[a * d + b];
      hess[a * d + a] += ridge * n;
      g[a] += ridge * n * w[a];
    }
    const step = solve(hess, g, d);
    let largest = 0;
    for (let k = 0; k < d; k++) {
      w[k] -= step[k];
      largest = Math.max(largest, Math.abs(step[k]));
    }
    if (largest < 1e-9) break;
  }
  return { weights: Array.from(w.subarray(1)), bias: w[0] };
}

/** Solves a x = b (Gaussian elimination with partial pivoting). */
function solve(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const m = Float64Array.from(a),
    v = Float64Array.from(b);
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(m[r * d + c]) > Math.abs(m[p * d + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < d; k++) {
        const t = m[c * d + k];
        m[c * d + k] = m[p * d + k];
        m[p * d + k] = t;
      }
      const t = v[c];
      v[c] = v[p];
      v[p] = t;
    }
    for (let r = c + 1; r < d; r++) {
      const f = m[r * d + c] / m[c * d + c];
      if (f === 0) continue;
      for (let k = c; k < d; k++) m[r * d + k] -= f * m[c * d + k];
      v[r] -= f * v[c];
    }
  }
  const out = new Float64Array(d);
  for (let r = d - 1; r >= 0; r--) {
    let s = v[r];
    for (let k = r + 1; k < d; k++) s -= m[r * d + k] * out[k];
    out[r] = s / m[r * d + r];
  }
  return out;
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
      const b2 = blocks.pop()!,
        b1 = blocks.pop()!;
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
  /**
   * Half the width of the 95% interval of `cameTrue`, with the lines of one game counted
   * together (a game's lines share its outcome: one win at most): 1.96 times the root of the
   * sum over games of the squared sum of their lines' residuals, over the lines.
   */
  interval: number;
}

/** Shown chance against how often the line came true, by decile of the shown chance. */
export function calibrationTable(examples: readonly ChanceExample[], shown: (e: ChanceExample) => number): DecileRow[] {
  const rows: DecileRow[] = [];
  for (let d = 0; d < 10; d++) {
    const inBin = examples.filter((e) => {
      const p = shown(e);
      return p >= d / 10 && (p < (d + 1) / 10 || (d === 9 && p <= 1));
    });
    if (inBin.length === 0) continue;
    const won = inBin.reduce((a, e) => a + e.won, 0);
    const cameTrue = won / inBin.length;
    // the spread about the share with two wins and two losses added (Agresti-Coull), so a decile that always came true still has an interval
    const centre = (won + 2) / (inBin.length + 4);
    const byGame = new Map<number, number>();
    for (const e of inBin) byGame.set(e.game, (byGame.get(e.game) ?? 0) + e.won - centre);
    let spread = 0;
    for (const r of byGame.values()) spread += r * r;
    rows.push({
      bin: `${d * 10}-${d * 10 + 10}%`,
      lines: inBin.length,
      shown: inBin.reduce((a, e) => a + shown(e), 0) / inBin.length,
      cameTrue,
      interval: (1.96 * Math.sqrt(spread)) / inBin.length,
    });
  }
  return rows;
}
