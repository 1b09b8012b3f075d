/**
 * `npm run bench` (second part): complete games with random legal play, per ruleset, on one
 * core, beside a plain baseline measured in the same run: a new game (shuffle, walls,
 * dice, deal) alone, so the ratio says how many deals' worth one whole game costs.
 */
import Benchmark from 'benchmark';
import { RandomAgent } from '../agents/random.js';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/rulesets.js';
import { loadCard } from '../training/cards.js';

const cc = loadCard();
const random = new RandomAgent();
const results = new Map<string, number>();
const actions = new Map<string, number>();
let seed = 0;

const suite = new Benchmark.Suite();
suite.add('baseline: new game (shuffle, walls, deal)', () => { newGame(RULESETS['nmjl-4p'], cc, seed++); });
for (const rules of Object.values(RULESETS)) {
  const agents = Array.from({ length: rules.players }, () => random);
  let played = 0, applied = 0;
  suite.add(`random game: ${rules.name}`, () => {
    const s = seed++;
    applied += playOut(newGame(rules, cc, s), agents, seedRng(s));
    played++;
    actions.set(rules.name, applied / played);
  });
}
await new Promise<void>((resolve) => {
  suite
    .on('cycle', (event: Benchmark.Event) => {
      const b = event.target as { name?: string; hz?: number };
      results.set(String(b.name), b.hz ?? 0);
    })
    .on('complete', () => resolve())
    .run();
});

const base = results.get('baseline: new game (shuffle, walls, deal)')!;
console.log(`\ncomplete games per second on one core (random legal play)      ops/s    vs baseline   actions/game`);
for (const [name, hz] of results) {
  const ruleset = name.startsWith('random game: ') ? name.slice(13) : '';
  const per = ruleset ? actions.get(ruleset)!.toFixed(0) : '';
  console.log(`${name.padEnd(60)} ${hz.toFixed(0).padStart(8)}    x${(hz / base).toFixed(4).padEnd(9)} ${per.padStart(6)}`);
}
