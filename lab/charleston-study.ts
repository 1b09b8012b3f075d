/**
 * `npm run study:charleston -- [deals] [seed]`: which passes leave the hand nearer? On the same
 * deals, seat 0 passes by five policies (random, the heuristic, the lookahead, the open pass and
 * the blend of agents/mah-jongg/charleston.ts; the last three vote on the second Charleston and make the
 * courtesy offer by lookahead, the first two by their own rules)
 * while the other seats play the heuristic; after the Charleston and the courtesy
 * pass, we measure how far seat 0's hand is from its closest line. Paired differences over
 * the same deals, with 95% intervals.
 */
import type { Agent, Turn } from '../agents/agent.js';
import { HeuristicAgent, LOOKAHEAD_HABITS, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { RandomAgent } from '../agents/mah-jongg/random.js';
import { blendPass, linesAway, openPass } from '../agents/mah-jongg/charleston.js';
import { tilesAwayAll } from '../engine/mah-jongg/analyzer.js';
import { apply, legalActions, newGame, view, waitingOn } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';

const deals = Number(process.argv[2] ?? 1000);
const seed0 = Number(process.argv[3] ?? 1);
const cc = loadCard();
const rules = RULESETS['nmjl-4p'];

/** Seat 0's passes, vote and courtesy offer by `passer`; every other seat by the heuristic. */
function afterCharleston(passer: Agent, seed: number): { closest: number; near: number; spread: number } {
  const state = newGame(rules, cc, seed);
  const others = [1, 2, 3].map(() => new HeuristicAgent(cc, MEDIUM_HABITS));
  const rng = seedRng(seed ^ 0x51ed270b);
  while (state.phase.kind !== 'discard' && state.phase.kind !== 'ended') {
    const seat = waitingOn(state)[0];
    const turn: Turn = { seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng };
    const agent = seat === 0 ? passer : others[seat - 1];
    apply(state, agent.act(turn));
  }
  const away = new Uint8Array(cc.lineCount),
    best = new Uint32Array(cc.lineCount);
  tilesAwayAll(cc, state.players[0].concealed, away, best);
  const closest = Math.min(...away);
  return { closest, near: away.filter((a) => a <= closest + 1).length, spread: linesAway(cc, state.players[0].concealed) };
}

/** The lookahead player (vote and courtesy by lookahead) with its passes chosen by `pass`. */
const passingBy = (pass: (turn: Turn) => { tiles: number[]; blind: number }): Agent => {
  const player = new HeuristicAgent(cc, LOOKAHEAD_HABITS);
  return { name: 'pass-method', act: (turn: Turn) => (turn.phase === 'charleston' ? { type: 'pass', seat: turn.seat, ...pass(turn) } : player.act(turn)) };
};
const policies: [string, Agent][] = [
  ['random', new RandomAgent()],
  ['heuristic', new HeuristicAgent(cc, MEDIUM_HABITS)],
  ['lookahead', new HeuristicAgent(cc, LOOKAHEAD_HABITS)],
  ['open', passingBy((turn) => openPass(cc, turn.view()))],
  ['blend', passingBy((turn) => blendPass(cc, turn.view(), turn.rng))],
];
const results = policies.map(() => [] as { closest: number; near: number; spread: number }[]);
for (let d = 0; d < deals; d++) policies.forEach(([, agent], i) => results[i].push(afterCharleston(agent, seed0 + d)));

const stats = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  return { mean: m, half: (1.96 * sd) / Math.sqrt(xs.length) };
};
const show = (s: { mean: number; half: number }) => `${s.mean.toFixed(3)} ± ${s.half.toFixed(3)}`;
console.log(
  `${deals} deals (seeds ${seed0}-${seed0 + deals - 1}), nmjl-4p, seat 0's hand after the Charleston and courtesy pass: tiles away of the closest line, lines within a tile of it, and lines within reach (-log2 of the sum of 2^-tiles away over the lines)`,
);
policies.forEach(([name], i) => {
  console.log(
    `${name.padEnd(10)} closest ${show(stats(results[i].map((r) => r.closest)))}; lines within a tile ${show(stats(results[i].map((r) => r.near)))}; lines within reach ${show(stats(results[i].map((r) => r.spread)))}`,
  );
});
const base = policies.findIndex(([name]) => name === 'lookahead');
policies.forEach(([name], i) => {
  if (i === base) return;
  const s = stats(results[i].map((r, d) => r.closest - results[base][d].closest));
  console.log(`${name} - lookahead: closest ${s.mean.toFixed(3)} tiles (95% interval ${(s.mean - s.half).toFixed(3)} to ${(s.mean + s.half).toFixed(3)})`);
});
