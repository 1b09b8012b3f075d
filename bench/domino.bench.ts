/**
 * `npm run bench:domino`: complete Mexican Train rounds with random legal play, per ruleset
 * and table size, on one core, beside a plain baseline measured in the same run: dealing a
 * new round (draw for first player, shuffle, engine, deal) alone. Greedy rounds for scale.
 */
import Benchmark from 'benchmark';
import { GreedyDominoAgent } from '../agents/domino/greedy.js';
import { RandomDominoAgent } from '../agents/domino/random.js';
import { playOut } from '../agents/table.js';
import { mexicanTrainGame } from '../engine/domino/mexican-train.js';
import { newRound } from '../engine/domino/game.js';
import { DOMINO_RULESETS, SUN_LAKES } from '../engine/domino/rulesets.js';
import { seedRng } from '../engine/rng.js';
import { runSuite } from './common.js';

const random = new RandomDominoAgent();
const actions = new Map<string, number>();
let seed = 0;
const BASELINE = 'baseline: deal a new round (sun-lakes, 4 players)';

const suite = new Benchmark.Suite();
suite.add(BASELINE, () => {
  newRound(SUN_LAKES, 4, seed++);
});
for (const rules of Object.values(DOMINO_RULESETS)) {
  for (const players of [2, 4, 8]) {
    const name = `random round: ${rules.name}, ${players} players`;
    const agents = Array.from({ length: players }, () => random);
    let played = 0,
      applied = 0;
    suite.add(name, () => {
      const s = seed++;
      const game = mexicanTrainGame(rules, players, { round: s % rules.engines.length });
      applied += playOut(game, game.newGame(s), agents, seedRng(s));
      actions.set(name, applied / ++played);
    });
  }
}
for (const rules of Object.values(DOMINO_RULESETS)) {
  const name = `greedy round: ${rules.name}, 4 players`;
  const agents = Array.from({ length: 4 }, () => new GreedyDominoAgent(rules.doublerCovers));
  let played = 0,
    applied = 0;
  suite.add(name, () => {
    const s = seed++;
    const game = mexicanTrainGame(rules, 4, { round: s % rules.engines.length });
    applied += playOut(game, game.newGame(s), agents, seedRng(s));
    actions.set(name, applied / ++played);
  });
}
const results = await runSuite(suite);

const base = results.get(BASELINE)!;
console.log(`\ncomplete Mexican Train rounds per second on one core                ops/s    vs baseline   actions/round`);
for (const [name, hz] of results) {
  const per = actions.has(name) ? actions.get(name)!.toFixed(0) : '';
  console.log(`${name.padEnd(62)} ${hz.toFixed(0).padStart(8)}    x${(hz / base).toFixed(4).padEnd(9)} ${per.padStart(6)}`);
}
