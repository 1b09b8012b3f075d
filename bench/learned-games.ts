/**
 * `node dist/bench/learned-games.js [games] [which]`: a small driver for profiling the learned
 * player (`node --cpu-prof dist/bench/learned-games.js 400 learned`). Plays `games` complete
 * 4-player games of four learned players (the shipped model, or random weights of its shape)
 * and the same number of medium games, timed in the same run by the process's CPU time (steadier than the clock on a shared machine), and prints games a second and
 * the ratio, as bench/learned.bench.ts's first lines do. `which`: learned, medium or both (default).
 */
import { defaultModel } from '../agents/mah-jongg/default-model.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { randomModel } from './common.js';

const games = Number(process.argv[2] ?? 300);
const which = process.argv[3] ?? 'both';
const cc = loadCard();
const rules = RULESETS['nmjl-4p'];

const model = defaultModel() ?? randomModel();
const learned = new LearnedAgent(cc, model);
const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));

function rate(agents: LearnedAgent[] | HeuristicAgent[], from: number): number {
  // warm up (the optimizing compiler), then time
  for (let s = 0; s < 50; s++) playOut(mahJonggGame(rules, cc), newGame(rules, cc, from + 1_000_000 + s), agents, seedRng(s));
  const start = process.cpuUsage();
  for (let s = from; s < from + games; s++) playOut(mahJonggGame(rules, cc), newGame(rules, cc, s), agents, seedRng(s));
  const used = process.cpuUsage(start);
  return games / ((used.user + used.system) / 1e6);
}

const m = which === 'learned' ? NaN : rate(medium, 0);
const l = which === 'medium' ? NaN : rate([learned, learned, learned, learned], 0);
console.log(`medium games a second ${m.toFixed(1)}, learned (all four seats) ${l.toFixed(1)}, ratio x${(l / m).toFixed(4)}`);
