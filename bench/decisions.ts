/**
 * `npm run bench:decisions`: how long the searching bots take a decision, over whole games.
 * Each game seats the bot at seat 0 against three medium players (4-player tournament
 * rules); every decision the bot makes is timed (all phases), and its discards and its
 * answers to discards (the searched ones) apart. Prints mean, p50, p90, p99 and max per bot, beside
 * the medium player's own decisions timed in the same games; one game before them warms the
 * JIT up, untimed (as a server's long-lived workers are) (the baseline: a search is many
 * medium playouts). The machine is shared: the process's CPU time per decision is printed
 * too, which other loads disturb far less than the clock.
 *
 *   node dist/bench/decisions.js [games=6] [bots=montecarlo,hard,expert] [seed=1]
 *
 * A bot named with "+valve" (montecarlo+valve) plays as on the practice server, with the clock's
 * safety valve (agents/mah-jongg/levels.ts VALVE_MS).
 */
import type { Agent, Turn } from '../agents/agent.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { apply, legalActions, newGame, view, waitingOn } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';

const games = Number(process.argv[2] ?? 6);
const bots = (process.argv[3] ?? 'montecarlo,hard,expert').split(',');
const seed0 = Number(process.argv[4] ?? 1);
const cc = loadCard();
const rules = RULESETS['nmjl-4p-tournament'];

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function line(name: string, times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const f = (x: number) => x.toFixed(2).padStart(8);
  return `${name.padEnd(36)} ${String(s.length).padStart(6)} ${f(mean)} ${f(quantile(s, 0.5))} ${f(quantile(s, 0.9))} ${f(quantile(s, 0.99))} ${f(s[s.length - 1])}`;
}

console.log(`decision times over ${games} whole games, bot at seat 0 against 3 medium (ms)`);
console.log(`${'who'.padEnd(36)} ${'n'.padStart(6)} ${'mean'.padStart(8)} ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
for (const bot of bots) {
  const all: number[] = [],
    discards: number[] = [],
    claims: number[] = [],
    medium: number[] = [],
    cpu: number[] = [];
  // game -1 warms the JIT up and is not counted: a server's workers play on warm
  for (let g = -1; g < games; g++) {
    const seed = g < 0 ? seed0 + 100_000 : seed0 + g;
    // "montecarlo+valve": as the practice server plays it, with the clock's valve (agents/mah-jongg/levels.ts VALVE_MS)
    const [name, valve] = bot.split('+');
    const agents: Agent[] = [makeAgent(name, cc, rules, { valve: valve === 'valve' }), ...[1, 2, 3].map(() => makeAgent('medium', cc, rules))];
    const state = newGame(rules, cc, seed);
    const rng = seedRng(seed);
    while (state.phase.kind !== 'ended') {
      const seat = waitingOn(state)[0];
      const turn: Turn = { seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng };
      const t0 = performance.now(),
        c0 = process.cpuUsage();
      const action = agents[seat].act(turn);
      const dt = performance.now() - t0,
        c = process.cpuUsage(c0);
      if (g < 0) {
        apply(state, action);
        continue;
      }
      if (seat === 0) {
        all.push(dt);
        cpu.push((c.user + c.system) / 1000);
        if (turn.phase === 'discard') discards.push(dt);
        if (turn.phase === 'claims') claims.push(dt);
      } else medium.push(dt);
      apply(state, action);
    }
  }
  console.log(line(`${bot}: every decision`, all));
  console.log(line(`${bot}: every, CPU time`, cpu));
  console.log(line(`${bot}: discards`, discards));
  console.log(line(`${bot}: answers to discards`, claims));
  console.log(line(`medium (same games)`, medium));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`${bot}: ${(sum(all) / games).toFixed(1)} ms of its own decisions a game (CPU ${(sum(cpu) / games).toFixed(1)} ms), medium ${(sum(medium) / 3 / games).toFixed(1)} ms a seat`);
}
