/**
 * `npm run bench:hints`: how long a hint takes (agents/coach/hint.ts hintFor, as the server
 * answers "what should I do?": the advice's sampled worlds, the defence, the reading of the
 * table), at every decision of seat 0 over whole games of four medium players (4-player
 * tournament rules). Prints mean, p50, p90, p99 and max per phase and over all, the CPU
 * time, and beside them the medium player's own decisions at the same moments (the
 * baseline: a hint is many such decisions) with the ratio of the p99s. One game before them
 * warms the JIT up, untimed (as a server's long-lived workers are).
 *
 *   node dist/bench/hints.js [games=4] [seed=1]
 */
import type { Turn } from '../agents/agent.js';
import { hintFor } from '../agents/coach/hint.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { apply, legalActions, newGame, view, waitingOn } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';

const games = Number(process.argv[2] ?? 4);
const seed0 = Number(process.argv[3] ?? 1);
const cc = loadCard();
const rules = RULESETS['nmjl-4p-tournament'];

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
const sortedOf = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

function line(name: string, times: readonly number[]): string {
  const s = sortedOf(times);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const f = (x: number) => x.toFixed(2).padStart(9);
  return `${name.padEnd(28)} ${String(s.length).padStart(6)} ${f(mean)} ${f(quantile(s, 0.5))} ${f(quantile(s, 0.9))} ${f(quantile(s, 0.99))} ${f(s.at(-1) ?? Number.NaN)}`;
}

const byPhase = new Map<string, number[]>();
const all: number[] = [],
  cpu: number[] = [],
  baseline: number[] = [];
for (let g = -1; g < games; g++) {
  const seed = g < 0 ? seed0 + 100_000 : seed0 + g;
  const agents = [0, 1, 2, 3].map(() => makeAgent('medium', cc, rules));
  const state = newGame(rules, cc, seed);
  const rng = seedRng(seed);
  while (state.phase.kind !== 'ended') {
    const seat = waitingOn(state)[0];
    const turn: Turn = { seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng };
    if (seat === 0) {
      const v = view(state, 0),
        legal = legalActions(state, 0);
      const t0 = performance.now(),
        c0 = process.cpuUsage();
      hintFor(cc, v, legal, {});
      const dt = performance.now() - t0,
        c = process.cpuUsage(c0);
      const t1 = performance.now();
      const action = agents[0].act(turn);
      const base = performance.now() - t1;
      if (g >= 0) {
        all.push(dt);
        cpu.push((c.user + c.system) / 1000);
        baseline.push(base);
        const list = byPhase.get(turn.phase) ?? [];
        list.push(dt);
        byPhase.set(turn.phase, list);
      }
      apply(state, action);
      continue;
    }
    apply(state, agents[seat].act(turn));
  }
}
console.log(`hint times over ${games} whole games of four medium players, seat 0's every decision (ms)`);
console.log(`${'what'.padEnd(28)} ${'n'.padStart(6)} ${'mean'.padStart(9)} ${'p50'.padStart(9)} ${'p90'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}`);
console.log(line('hint: every decision', all));
console.log(line('hint: CPU time', cpu));
for (const [phase, times] of byPhase) console.log(line(`hint: ${phase}`, times));
console.log(line("medium's own decision", baseline));
console.log(`p99 ratio, hint to medium's decision: ${(quantile(sortedOf(all), 0.99) / quantile(sortedOf(baseline), 0.99)).toFixed(0)}x`);
