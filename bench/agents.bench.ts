/**
 * `npm run bench` (third part): the bots' speed on one core. Complete 4-player games of
 * heuristic players, beside random players in the same run; and Monte Carlo decisions at
 * the hard and expert budgets, beside the heuristic deciding the same positions.
 */
import Benchmark from 'benchmark';
import { HeuristicAgent } from '../agents/mah-jongg/heuristic.js';
import { EXPERT_BUDGET, HARD_BUDGET, MonteCarloAgent } from '../agents/mah-jongg/montecarlo.js';
import { RandomAgent } from '../agents/mah-jongg/random.js';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { decisions, runSuite } from './common.js';

const cc = loadCard();
const rules = RULESETS['nmjl-4p-tournament'];
const heuristic = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
const random = [0, 1, 2, 3].map(() => new RandomAgent());

// a seat's own turn with a full hand, taken from heuristic games
const decide = decisions(cc, rules, heuristic);
const hard = new MonteCarloAgent(cc, rules, HARD_BUDGET, 'hard');
const expert = new MonteCarloAgent(cc, rules, EXPERT_BUDGET, 'expert');
const policy = new HeuristicAgent(cc);

let seed = 0,
  i = 0;
const results = await runSuite(
  new Benchmark.Suite()
    .add('games: random players (nmjl-4p-tournament)', () => {
      const x = seed++;
      playOut(mahJonggGame(rules, cc), newGame(rules, cc, x), random, seedRng(x));
    })
    .add('games: heuristic players (nmjl-4p-tournament)', () => {
      const x = seed++;
      playOut(mahJonggGame(rules, cc), newGame(rules, cc, x), heuristic, seedRng(x));
    })
    .add('decisions: heuristic', () => decide(policy, i++))
    .add(`decisions: hard (${HARD_BUDGET.worlds} worlds x ${HARD_BUDGET.candidates}+ candidates)`, () => decide(hard, i++))
    .add(`decisions: expert (${EXPERT_BUDGET.worlds} worlds x ${EXPERT_BUDGET.candidates}+ candidates)`, () => decide(expert, i++)),
);

const names = [...results.keys()];
console.log('\nbots on one core                                              ops/s    vs baseline        ms each');
names.forEach((name) => {
  const base = name.startsWith('games') ? results.get(names[0])! : results.get('decisions: heuristic')!;
  const hz = results.get(name)!;
  console.log(`${name.padEnd(60)} ${hz.toFixed(1).padStart(8)}    x${(hz / base).toFixed(4).padEnd(12)} ${(1000 / hz).toFixed(2).padStart(8)}`);
});
