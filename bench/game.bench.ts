/**
 * `npm run bench` (second part): complete games with random legal play, per ruleset, and
 * games of four heuristic (medium) bots, on one core, beside a plain baseline measured in
 * the same run: a new game (shuffle, walls, dice, deal) alone, so the ratio says how many
 * deals' worth one whole game costs.
 */
import Benchmark from 'benchmark';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { RandomAgent } from '../agents/mah-jongg/random.js';
import { playOut } from '../agents/table.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { runSuite } from './common.js';

const cc = loadCard();
const random = new RandomAgent();
const actions = new Map<string, number>();
let seed = 0;

const suite = new Benchmark.Suite();
suite.add('baseline: new game (shuffle, walls, deal)', () => {
  newGame(RULESETS['nmjl-4p'], cc, seed++);
});
for (const rules of Object.values(RULESETS)) {
  const agents = Array.from({ length: rules.players }, () => random);
  let played = 0,
    applied = 0;
  suite.add(`random game: ${rules.name}`, () => {
    const s = seed++;
    applied += playOut(mahJonggGame(rules, cc), newGame(rules, cc, s), agents, seedRng(s));
    played++;
    actions.set(rules.name, applied / played);
  });
}
// the heuristic bot (medium) at a four-player table: engine and bot together
{
  const rules = RULESETS['nmjl-4p'];
  const agents = Array.from({ length: rules.players }, () => makeAgent('medium', cc, rules));
  let played = 0,
    applied = 0;
  suite.add('heuristic game: nmjl-4p', () => {
    const s = seed++;
    applied += playOut(mahJonggGame(rules, cc), newGame(rules, cc, s), agents, seedRng(s));
    played++;
    actions.set('heuristic nmjl-4p', applied / played);
  });
}
const results = await runSuite(suite);

const base = results.get('baseline: new game (shuffle, walls, deal)')!;
console.log(`\ncomplete games per second on one core                            ops/s    vs baseline   actions/game   µs/action`);
const perAction = new Map<string, number>();
for (const [name, hz] of results) {
  const key = name.startsWith('random game: ') ? name.slice(13) : name.startsWith('heuristic game: ') ? `heuristic ${name.slice(16)}` : '';
  const per = key ? actions.get(key)! : 0;
  if (key) perAction.set(key, 1e6 / (hz * per));
  console.log(
    `${name.padEnd(60)} ${hz.toFixed(0).padStart(8)}    x${(hz / base).toFixed(4).padEnd(9)} ${key ? per.toFixed(0).padStart(6) : '      '}   ${key ? perAction.get(key)!.toFixed(2).padStart(9) : ''}`,
  );
}
// Siamese games run longer; per action they should cost about what a four-player game's do
const four = perAction.get('nmjl-4p')!;
for (const name of ['siamese-2p', 'royale-siamese-4p']) console.log(`${name}: time per action x${(perAction.get(name)! / four).toFixed(2)} of nmjl-4p's`);
