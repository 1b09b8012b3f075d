/**
 * `npm run study:charleston -- [deals] [seed]`: does looking ahead pass better? On the same
 * deals, seat 0 passes by three policies (random, the heuristic, the lookahead the advice
 * uses; the same policy also votes on the second Charleston and makes the courtesy offer)
 * while the other seats play the heuristic; after the Charleston and the courtesy
 * pass, we measure how far seat 0's hand is from its closest line. Paired differences over
 * the same deals, with 95% intervals.
 */
import type { Agent, Turn } from '../agents/agent.js';
import { HeuristicAgent, LOOKAHEAD_HABITS, MEDIUM_HABITS } from '../agents/heuristic.js';
import { RandomAgent } from '../agents/random.js';
import { tilesAwayAll } from '../engine/analyzer.js';
import { apply, legalActions, newGame, view, waitingOn } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/rulesets.js';
import { loadCard } from '../io/cards.js';

const deals = Number(process.argv[2] ?? 1000);
const seed0 = Number(process.argv[3] ?? 1);
const cc = loadCard();
const rules = RULESETS['nmjl-4p'];

/** Seat 0's passes, vote and courtesy offer by `passer`; every other seat by the heuristic. */
function afterCharleston(passer: Agent, seed: number): number {
  const state = newGame(rules, cc, seed);
  const others = [1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
  const rng = seedRng(seed ^ 0x51ed270b);
  while (state.phase.kind !== 'discard' && state.phase.kind !== 'ended') {
    const seat = waitingOn(state)[0];
    const turn: Turn = { seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng };
    const agent = seat === 0 ? passer : others[seat - 1];
    apply(state, agent.act(turn));
  }
  const away = new Uint8Array(cc.lineCount), best = new Uint32Array(cc.lineCount);
  tilesAwayAll(cc, state.players[0].concealed, away, best);
  return Math.min(...away);
}

const policies: [string, Agent][] = [
  ['random', new RandomAgent()],
  ['heuristic', new HeuristicAgent(cc, MEDIUM_HABITS)],
  ['lookahead (advice)', new HeuristicAgent(cc, LOOKAHEAD_HABITS)],
];
const results = policies.map(() => [] as number[]);
for (let d = 0; d < deals; d++) policies.forEach(([, agent], i) => results[i].push(afterCharleston(agent, seed0 + d)));

const stats = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  return { mean: m, half: (1.96 * sd) / Math.sqrt(xs.length) };
};
console.log(`${deals} deals (seeds ${seed0}-${seed0 + deals - 1}), nmjl-4p, seat 0's closest line after the Charleston and courtesy pass`);
policies.forEach(([name], i) => {
  const s = stats(results[i]);
  console.log(`${name.padEnd(20)} mean tiles away ${s.mean.toFixed(3)} ± ${s.half.toFixed(3)}`);
});
const look = results[2];
for (const i of [0, 1]) {
  const s = stats(look.map((x, d) => x - results[i][d]));
  console.log(`lookahead - ${policies[i][0].padEnd(10)} ${s.mean.toFixed(3)} tiles (95% interval ${(s.mean - s.half).toFixed(3)} to ${(s.mean + s.half).toFixed(3)})`);
}
