/**
 * `npm run bench:learned`: the learned bots' speed. On one core: complete 4-player games of
 * learned players beside heuristic players in the same run, and single decisions (the learned
 * policy, the expert's search) beside the strong habits deciding the same positions. Then
 * self-play examples and games a second (and games a second per worker) through the
 * training's worker pool with 1 and 2 workers.
 * Uses the shipped model (models/value-model.json), or random weights of the same shape when
 * there is none (same speed: the work does not depend on the weights).
 */
import { availableParallelism } from 'node:os';
import Benchmark from 'benchmark';
import { Piscina } from 'piscina';
import { defaultModel } from '../agents/mah-jongg/default-model.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from '../agents/mah-jongg/lookahead.js';
import { modelFromJson, modelToJson } from '../agents/mah-jongg/model.js';
import { readFileSync } from 'node:fs';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard, readCardText } from '../io/cards.js';
import type { SelfPlayResult, SelfPlayTask } from '../training/train.worker.js';
import { TRAIN_DEFAULTS } from '../training/train.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { decisions, randomModel, runSuite } from './common.js';

const cc = loadCard();
const rules = RULESETS['nmjl-4p'];

// TILEMATE_BENCH_MODEL names another model file (one of another feature version, say) to time beside the shipped one
const other = process.env.TILEMATE_BENCH_MODEL;
const shipped = other ? modelFromJson(readFileSync(other, 'utf8'), other) : defaultModel();
const model = shipped ?? randomModel();
console.log(`model: ${other ?? (shipped ? 'models/value-model.json' : 'random weights (no shipped model)')}, feature version ${model.featureVersion}`);

const strong = new HeuristicAgent(cc, STRONG_HABITS);
const medium = [0, 1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
const learned = new LearnedAgent(cc, model);
const expert = new LookaheadAgent(cc, rules, model, EXPERT_LOOKAHEAD);

// a seat's own turn with a full hand, taken from medium games
const decide = decisions(cc, rules, medium);

let seed = 0,
  i = 0;
const results = await runSuite(
  new Benchmark.Suite()
    .add('games: medium players', () => {
      const x = seed++;
      playOut(mahJonggGame(rules, cc), newGame(rules, cc, x), medium, seedRng(x));
    })
    .add('games: learned players (all four seats)', () => {
      const x = seed++;
      playOut(mahJonggGame(rules, cc), newGame(rules, cc, x), [learned, learned, learned, learned], seedRng(x));
    })
    .add('games: one learned player, three medium', () => {
      const x = seed++;
      playOut(mahJonggGame(rules, cc), newGame(rules, cc, x), [learned, medium[1], medium[2], medium[3]], seedRng(x));
    })
    .add('decisions: strong habits', () => decide(strong, i++))
    .add('decisions: learned policy', () => decide(learned, i++))
    .add(`decisions: expert (${EXPERT_LOOKAHEAD.worlds} worlds x ${EXPERT_LOOKAHEAD.candidates} choices, ${EXPERT_LOOKAHEAD.ms} ms cap)`, () => decide(expert, i++)),
);

const names = [...results.keys()];
console.log('\nlearned bots on one core                                        ops/s    vs baseline        ms each');
names.forEach((name) => {
  const base = name.startsWith('games') ? results.get(names[0])! : results.get('decisions: strong habits')!;
  const hz = results.get(name)!;
  console.log(`${name.padEnd(62)} ${hz.toFixed(1).padStart(8)}    x${(hz / base).toFixed(4).padEnd(12)} ${(1000 / hz).toFixed(3).padStart(8)}`);
});

// Self-play through the training's worker pool: examples and games a second with 1 and 2 workers
// (the games `tilemate train` plays: TRAIN_DEFAULTS.play.allLearned of them all learned, the rest
// one learned player among medium ones).
// Steady state, as in training (a pool lives for a whole run): each worker first plays WARM
// games, since a fresh worker's first few hundred games also pay for V8's optimizing
// compiler, on background threads that use the idle core when there is one worker.
const games = 800,
  WARM = 100;
const task = (seeds: number[]): SelfPlayTask => ({
  kind: 'selfplay',
  ruleset: 'nmjl-4p',
  cardText: readCardText(),
  model: modelToJson(model),
  featureVersion: model.featureVersion,
  settings: TRAIN_DEFAULTS.play,
  seeds,
});
async function selfPlayRate(workers: number): Promise<{ examples: number; games: number }> {
  const pool = new Piscina({ filename: new URL('../training/train.worker.js', import.meta.url).href, minThreads: workers, maxThreads: workers });
  // warm up every worker (module load, card compile, the optimizing compiler)
  await Promise.all(Array.from({ length: workers }, (_, w) => pool.run(task(Array.from({ length: WARM }, (_, k) => 900_000 + w * WARM + k)))));
  const start = process.hrtime.bigint();
  const batches = Array.from({ length: games / 20 }, (_, b) => Array.from({ length: 20 }, (_, k) => b * 20 + k));
  const parts = (await Promise.all(batches.map((s) => pool.run(task(s))))) as SelfPlayResult[];
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.destroy();
  return { examples: parts.reduce((n, p) => n + p.rows, 0) / seconds, games: games / seconds };
}
const one = await selfPlayRate(1);
const workers = Math.min(2, availableParallelism());
const two = await selfPlayRate(workers);
console.log(`\nself-play (${games} games after ${WARM} a worker to warm up, ${TRAIN_DEFAULTS.play.allLearned * 100}% of them all learned)`);
console.log('             examples/s            games/s   games/s a worker');
const line = (name: string, r: { examples: number; games: number }, n: number) =>
  console.log(
    `${name.padEnd(10)} ${r.examples.toFixed(0).padStart(8)}    x${(r.examples / one.examples).toFixed(2).padEnd(6)} ${r.games.toFixed(1).padStart(8)}    ${(r.games / n).toFixed(1).padStart(8)}`,
  );
line('1 worker', one, 1);
line(`${workers} workers`, two, workers);
