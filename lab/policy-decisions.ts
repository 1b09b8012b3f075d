/**
 * `node dist/lab/policy-decisions.js [games] [seed] [model file]`: the time of each decision
 * of the learned player (the habits' shortlist), the same model over every legal choice, and a
 * model with the policy head (when a file is given; its Charleston as the policy-file bot's, among
 * the habits' five cheapest tiles), in the same run on the same games (each
 * one seat among three medium bots, the players taking turns game by game so a busy machine
 * slows them alike; the first tenth of the games untimed). Prints milliseconds per decision: mean, p50, p99 and the slowest, overall and by phase.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Agent, Turn } from '../agents/agent.js';
import { defaultModel } from '../agents/mah-jongg/default-model.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { PolicyAgent } from './bots/policy.js';
import { readPolicyModel } from './bots/policy-model.js';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';

const games = Number(process.argv[2] ?? 200),
  seed = Number(process.argv[3] ?? 1),
  file = process.argv[4];
const cc = loadCard();
const rules = loadRuleset('nmjl-4p');
const game = mahJonggGame(rules, cc);
const players: { name: string; make: () => Agent }[] = [
  { name: 'learned', make: () => new LearnedAgent(cc, defaultModel(), {}, 'learned') },
  { name: 'learned-all', make: () => new PolicyAgent(cc, defaultModel(), {}, 'learned-all') },
  ...(file ? [{ name: 'policy-file', make: () => new PolicyAgent(cc, readPolicyModel(readFileSync(file, 'utf8'), file), { passPool: 5 }, 'policy-file') }] : []),
];
// the first tenth of the games warm the compiler up and are not timed
const warm = Math.floor(games / 10);
const times = new Map<string, Map<string, number[]>>(players.map((p) => [p.name, new Map()]));
for (let g = 0; g < games; g++) {
  for (const p of players) {
    const inner = p.make();
    const byPhase = times.get(p.name)!;
    const timed: Agent = {
      name: p.name,
      act(turn: Turn) {
        const t = performance.now();
        const a = inner.act(turn);
        const ms = performance.now() - t;
        if (g < warm) return a;
        const list = byPhase.get(turn.phase) ?? [];
        list.push(ms);
        byPhase.set(turn.phase, list);
        return a;
      },
    };
    const seat = g % 4;
    const agents = Array.from({ length: 4 }, (_, s) => (s === seat ? timed : new HeuristicAgent(cc, MEDIUM_HABITS)));
    playOut(game, newGame(rules, cc, seed + g), agents, seedRng((seed + g) ^ 0x5bd1e995));
  }
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { decisions: s.length, meanMs: r(s.reduce((a, b) => a + b, 0) / s.length), p50Ms: r(q(0.5)), p99Ms: r(q(0.99)), maxMs: r(s[s.length - 1]) };
};
for (const [name, byPhase] of times) {
  const all = [...byPhase.values()].flat();
  console.log(JSON.stringify({ player: name, games, timed: games - warm, all: stat(all), ...Object.fromEntries([...byPhase].map(([ph, xs]) => [ph, stat(xs)])) }));
}
