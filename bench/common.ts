import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type Benchmark from 'benchmark';
import type { Agent, Turn } from '../agents/agent.js';
import { featureWidth } from '../agents/mah-jongg/features.js';
import type { ValueModel } from '../agents/mah-jongg/model.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { apply, cloneState, legalActions, newGame, view, waitingOn, type GameState } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng, shuffle } from '../engine/rng.js';
import type { Ruleset } from '../engine/mah-jongg/rulesets.js';
import { fullSet, KINDS, tileName } from '../engine/mah-jongg/tiles.js';
import { HIDDEN } from '../training/net.js';

/** What the benches share: hands, positions to decide, running a suite, a server to load. */

/** Seeded random 14-tile hands drawn from the full set, as counts. */
export function randomHands(n: number, seed = 1, size = 14): number[][] {
  const rng = seedRng(seed);
  const set = fullSet();
  return Array.from({ length: n }, () => {
    const counts = new Array<number>(KINDS).fill(0);
    for (const t of shuffle(rng, set).slice(0, size)) counts[t]++;
    return counts;
  });
}

export const handText = (counts: number[]): string => counts.flatMap((n, t) => Array<string>(n).fill(tileName(t))).join(' ');

/** Runs a suite to its end: each benchmark's operations per second, by name. */
export function runSuite(suite: Benchmark.Suite): Promise<Map<string, number>> {
  const results = new Map<string, number>();
  return new Promise((resolve) => {
    suite
      .on('cycle', (event: Benchmark.Event) => {
        const b = event.target as { name?: string; hz?: number };
        results.set(String(b.name), b.hz ?? 0);
      })
      .on('complete', () => resolve(results))
      .run();
  });
}

/**
 * Positions to decide, and a decision on one: a seat's own turn with a full hand, taken from
 * the games of `players` (every ninth discard after the eighth).
 */
export function decisions(cc: CompiledCard, rules: Ruleset, players: readonly Agent[], count = 64): (agent: Agent, i: number) => void {
  const positions: GameState[] = [];
  for (let g = 0; positions.length < count; g++) {
    const s = newGame(rules, cc, 1000 + g);
    playOut(mahJonggGame(rules, cc), s, players, seedRng(g), (_a, st) => {
      if (st.phase.kind === 'discard' && st.discardCount > 8 && st.discardCount % 9 === 0 && positions.length < count) positions.push(cloneState(st));
    });
  }
  const turnOf = (s: GameState): Turn => {
    const seat = waitingOn(s)[0];
    return { seat, phase: s.phase.kind, view: () => view(s, seat), legal: () => legalActions(s, seat), rng: seedRng(7) };
  };
  return (agent, i) => {
    const s = positions[i % positions.length];
    apply(cloneState(s), agent.act(turnOf(s)));
  };
}

/** A port free on this machine now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The value below which a share `q` of `xs` lies (NaN for none). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

/** The practice server in a process of its own (as a user starts it), once it says it is ready. */
export async function startServer(port: number, data: string, more: readonly string[], cwd = process.cwd()): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/tilemate.js', 'serve', '--port', String(port), '--data', data, '--rate-limit', '100000000', ...more], { stdio: ['ignore', 'pipe', 'inherit'], cwd });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Tilemate is ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready: ${out}`)));
  });
  return child;
}

/** A game's answer as the load benchmarks read it (POST /api/games and its actions). */
export interface Answer {
  id: string;
  token?: string;
  at: number;
  view: { phase: string; rack: string[] };
  legal: { type: string }[];
}

/** The load benchmarks' player: the first legal choice (a Charleston pass: the first three tiles that are not jokers; no courtesy). */
export function firstChoice(a: Answer): object {
  const l = a.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: a.view.rack.filter((t) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

/**
 * Random weights of the shipped model's shape (its feature version 1, or `version`), for the learned players' benches when no model is
 * installed (the same speed: the work does not depend on the weights); the same every run.
 */
export function randomModel(version = 1): ValueModel {
  let x = 1;
  const rand = (n: number) => Float32Array.from({ length: n }, () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.2);
  const widths = [featureWidth(version), ...HIDDEN, 2];
  return { featureVersion: version, layers: widths.slice(1).map((m, i) => ({ inputs: widths[i], outputs: m, relu: i < 2, kernel: rand(widths[i] * m), bias: rand(m) })), info: {} };
}
