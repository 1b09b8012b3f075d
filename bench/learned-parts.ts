/**
 * `node dist/bench/learned-parts.js`: the learned player's decision split into its parts, for
 * speed work on it: the decisions of a few games of four learned players are kept (each view
 * and the afterstates weighed), then timed part by part: the encoder (begin and one row per
 * afterstate), the forward pass over those rows, and whole decisions (LearnedAgent.act on the
 * same positions). Microseconds per decision, by the process's CPU time.
 *
 * The encoder's figures are read from copies of the views (structuredClone), whose objects V8
 * lays out otherwise than the engine's, so they run slower than in play: compare two builds with
 * it, part against part, and judge a change by whole games (bench/learned-games.ts).
 */
import { defaultModel } from '../agents/mah-jongg/default-model.js';
import type { Turn } from '../agents/agent.js';
import { Encoder, type Afterstate } from '../agents/mah-jongg/features.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { forward } from '../agents/mah-jongg/model.js';
import { playOut } from '../agents/table.js';
import { cloneState, legalActions, newGame, view, waitingOn, type GameState } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { RULESETS } from '../engine/mah-jongg/rulesets.js';
import type { SeatView } from '../engine/mah-jongg/game.js';
import { loadCard } from '../io/cards.js';
import { randomModel } from './common.js';

const only = process.argv[2]; // 'encoder': time only the encoder, many rounds (for a profile)
const cc = loadCard();
const rules = RULESETS['nmjl-4p'];
const model = defaultModel() ?? randomModel();

// the decisions of a few games: each encoder call's view and afterstates, and the positions
const decisions: { view: SeatView; states: Afterstate[] }[] = [];
const positions: { state: GameState; seat: number }[] = [];
const proto = Encoder.prototype as unknown as { begin(v: SeatView): void; encode(a: Afterstate, o: Float32Array, i: number): void };
const begin = proto.begin,
  encode = proto.encode;
// copies: a view may be the engine's shared one, changed as the game goes on
proto.begin = function (this: Encoder, v: SeatView) {
  decisions.push({ view: structuredClone(v), states: [] });
  begin.call(this, v);
};
proto.encode = function (this: Encoder, a: Afterstate, o: Float32Array, i: number) {
  decisions[decisions.length - 1].states.push(structuredClone(a));
  encode.call(this, a, o, i);
};
const player = new LearnedAgent(cc, model);
for (let s = 0; s < 10; s++) {
  const game = newGame(rules, cc, s);
  const kept: GameState[] = [cloneState(game)];
  playOut(mahJonggGame(rules, cc), game, [player, player, player, player], seedRng(s), (_a, st) => {
    if (waitingOn(st).length > 0) kept.push(cloneState(st));
  });
  for (const st of kept) positions.push({ state: st, seat: waitingOn(st)[0] });
}
proto.begin = begin;
proto.encode = encode;
const rowsAll = decisions.reduce((n, d) => n + d.states.length, 0);

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
function time(name: string, per: number, rounds: number, f: () => void): void {
  f(); // warm
  const t = cpu();
  for (let r = 0; r < rounds; r++) f();
  const ms = (cpu() - t) / rounds;
  console.log(`${name.padEnd(34)} ${((1000 * ms) / per).toFixed(2).padStart(9)} us each  (${per} each round)`);
}

const enc = new Encoder(cc, { version: model.featureVersion });
const FEATURES = enc.width;
let rows = new Float32Array(64 * FEATURES);
const encoded: { rows: Float32Array; n: number }[] = [];
for (const d of decisions) {
  enc.begin(d.view);
  const x = new Float32Array(d.states.length * FEATURES);
  d.states.forEach((a, i) => enc.encode(a, x, i * FEATURES));
  encoded.push({ rows: x, n: d.states.length });
}
time('encoder: begin + rows (per row)', rowsAll, only === 'encoder' ? 200 : 20, () => {
  for (const d of decisions) {
    enc.begin(d.view);
    if (rows.length < d.states.length * FEATURES) rows = new Float32Array(2 * d.states.length * FEATURES);
    for (let i = 0; i < d.states.length; i++) enc.encode(d.states[i], rows, i * FEATURES);
  }
});
if (only === 'encoder') process.exit(0);
time('encoder: begin alone (per decision)', decisions.length, 20, () => {
  for (const d of decisions) enc.begin(d.view);
});
const out = new Float64Array(256);
time('forward pass (per row)', rowsAll, 20, () => {
  for (const e of encoded) forward(model, e.rows, e.n, e.n * 2 <= out.length ? out : undefined);
});
const agent = new LearnedAgent(cc, model);
const turnOf = ({ state, seat }: { state: GameState; seat: number }): Turn => ({
  seat,
  phase: state.phase.kind,
  view: () => view(state, seat),
  legal: () => legalActions(state, seat),
  rng: seedRng(7),
});
time('whole decisions (per position)', positions.length, 5, () => {
  for (const p of positions) agent.act(turnOf(p));
});
console.log(`${decisions.length} decisions weighed, ${rowsAll} rows, ${positions.length} positions`);
