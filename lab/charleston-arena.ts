/**
 * `npm run build && node dist/lab/charleston-arena.js [deals] [seed] [card] [--methods lookahead,open] [--rotations 1] [--log FILE] [--from D]`:
 * does a Charleston method win more? Judged by what it wins (issue #29), not by how close the
 * hand ends: on the same duplicate deals, one seat passes by each method in turn while the
 * other three seats are medium bots; apart from the passes that seat plays the advice's own
 * habits (LOOKAHEAD_HABITS: the strong play, the vote and the courtesy offer by lookahead), so
 * only the passes differ. Each deal is played with the seat at `rotations` seats (1: the seat
 * deal % 4; 4: every seat), each method meeting the same deal, the same seat and the same
 * random stream. Win share and mean points per method, and the paired differences deal by
 * deal, with 95% intervals. With --log each finished deal is appended to FILE, and a run
 * started again with the same FILE plays only the deals not there yet (--from D: only deals D on).
 * Measured results (6,000 deals, seed 29, practice card): docs/training.md, "The Charleston
 * advice, measured"; the strong bot's own pass won most, and the advice passes as it does.
 */
import { parseArgs } from 'node:util';
import type { Agent, Turn } from '../agents/agent.js';
import { blendPass, OPEN_PASS, openPass } from '../agents/mah-jongg/charleston.js';
import { HeuristicAgent, LOOKAHEAD_HABITS, MEDIUM_HABITS, STRONG_HABITS } from '../agents/mah-jongg/heuristic.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import type { Action } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { JsonLog } from '../training/arena-log.js';
import { interval } from '../training/arena.js';

/** The advice's player (LOOKAHEAD_HABITS) with its Charleston passes chosen by `pass`. */
class PassMethodAgent implements Agent {
  private readonly player: HeuristicAgent;
  constructor(
    cc: CompiledCard,
    readonly name: string,
    private readonly pass: ((turn: Turn) => Action) | null,
  ) {
    this.player = new HeuristicAgent(cc, LOOKAHEAD_HABITS, name);
  }
  act(turn: Turn): Action {
    if (turn.phase === 'charleston' && this.pass !== null) return this.pass(turn);
    return this.player.act(turn);
  }
}

/** The methods compared, by name: each makes a fresh player for one game. */
export const PASS_METHODS: Record<string, (cc: CompiledCard) => Agent> = {
  // today's advice: the three tiles whose loss leaves the closest line nearest on sampled returns (searchPass)
  lookahead: (cc) => new PassMethodAgent(cc, 'lookahead', null),
  // keep the most lines within reach, guard pairs in the first Charleston (openPass)
  open: (cc) =>
    new PassMethodAgent(cc, 'open', (turn) => {
      const c = openPass(cc, turn.view());
      return { type: 'pass', seat: turn.seat, tiles: c.tiles, blind: c.blind };
    }),
  // the two together: the lookahead's search over the open pass's candidates, scoring every line within reach (blendPass)
  blend: (cc) =>
    new PassMethodAgent(cc, 'blend', (turn) => {
      const c = blendPass(cc, turn.view(), turn.rng);
      return { type: 'pass', seat: turn.seat, tiles: c.tiles, blind: c.blind };
    }),
  // the strong bot's own pass: what serves none of its closest targets, from the hand alone
  heuristic: (cc) => {
    const strong = new HeuristicAgent(cc, STRONG_HABITS, 'heuristic-pass');
    return new PassMethodAgent(cc, 'heuristic', (turn) => strong.act(turn));
  },
  // the strong bot's pass with pairs guarded in the first Charleston (openPass's pairGuard added to a pair's worth when ordering; which tiles serve no target, and so how many go blind, as the strong bot decides)
  guarded: (cc) => {
    const strong = new HeuristicAgent(cc, STRONG_HABITS, 'guarded-pass');
    return new PassMethodAgent(cc, 'guarded', (turn) => {
      const v = turn.view();
      const ranked = strong.rank(turn);
      const useless = ranked.filter((r) => r.worth <= 0.05).length;
      const guard = (v.pass ?? 0) < 3 ? OPEN_PASS.pairGuard : 0;
      const order = ranked.map((r) => ({ tile: r.tile, worth: r.worth + (v.concealed[r.tile] >= 2 ? guard : 0) })).sort((a, b) => a.worth - b.worth);
      const blind = v.blindAllowed ? Math.max(0, Math.min(3, 3 - useless)) : 0;
      return { type: 'pass', seat: turn.seat, tiles: order.slice(0, 3 - blind).map((r) => r.tile), blind };
    });
  },
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { methods: { type: 'string', default: 'lookahead,open' }, rotations: { type: 'string', default: '1' }, log: { type: 'string' }, from: { type: 'string', default: '0' } },
});
const deals = Number(positionals[0] ?? 2000),
  seed = Number(positionals[1] ?? 29),
  card = positionals[2];
const methods = values.methods!.split(',');
for (const m of methods) if (!Object.hasOwn(PASS_METHODS, m)) throw new Error(`unknown method "${m}" (expected ${Object.keys(PASS_METHODS).join(', ')})`);
const rotations = Number(values.rotations);
if (![1, 4].includes(rotations)) throw new Error('--rotations is 1 or 4');
const cc = loadCard(card);
const game = mahJonggGame(loadRuleset('nmjl-4p'), cc);

/** One deal's result for one method: its seat's mean win share and points over the rotations played. */
interface DealRow {
  method: string;
  deal: number;
  win: number;
  score: number;
  wall: number;
}
const done = new Map<string, DealRow>();
const key = (m: string, d: number) => `${m}:${d}`;
const logged =
  values.log === undefined ? null : JsonLog.open(values.log, { charlestonArena: 1, seed, card: card ?? 'practice', rotations }, `${values.log} is the log of another run; give another --log`);
for (const l of logged?.lines ?? []) {
  const r = JSON.parse(l) as DealRow;
  done.set(key(r.method, r.deal), r);
}

const dealSeed = (d: number): number => (seed + d * 7919) >>> 0;

function play(method: string, d: number): DealRow {
  const row: DealRow = { method, deal: d, win: 0, score: 0, wall: 0 };
  const seats = rotations === 1 ? [d % 4] : [0, 1, 2, 3];
  for (const s of seats) {
    const agents: Agent[] = [0, 1, 2, 3].map((i) => (i === s ? PASS_METHODS[method](cc) : new HeuristicAgent(cc, MEDIUM_HABITS, 'medium')));
    const state = game.newGame(dealSeed(d));
    playOut(game, state, agents, seedRng(dealSeed(d) ^ Math.imul(0x9e3779b9, s + 1)));
    const r = game.outcome(state)!;
    row.win += r.winShare[s] / seats.length;
    row.score += r.scores[s] / seats.length;
    if (r.winners.length === 0) row.wall += 1 / seats.length;
  }
  return row;
}

const start = Date.now();
const from = Number(values.from);
for (let d = from; d < deals; d++) {
  const rows: DealRow[] = [];
  for (const m of methods)
    if (!done.has(key(m, d))) {
      const r = play(m, d);
      done.set(key(m, d), r);
      rows.push(r);
    }
  logged?.log.append(rows);
  if ((d + 1) % 50 === 0) process.stderr.write(`${d + 1 - from} of ${deals - from} deals, ${Math.round((Date.now() - start) / 1000)} s\n`);
}

const f = (x: number, k: number) => x.toFixed(k);
const pct = (i: { mean: number; low: number; high: number }) => `${f(100 * i.mean, 2)}% (${f(100 * i.low, 2)} to ${f(100 * i.high, 2)})`;
const pts = (i: { mean: number; low: number; high: number }) => `${f(i.mean, 2)} (${f(i.low, 2)} to ${f(i.high, 2)})`;
// the deals every method has played (a run with --from beside another on the same log sees only what was logged when it began)
const dealIds = Array.from({ length: deals }, (_, d) => d).filter((d) => methods.every((m) => done.has(key(m, d))));
const n = dealIds.length;
const rowsOf = (m: string) => dealIds.map((d) => done.get(key(m, d))!);
console.log(
  `${n} duplicate deals (seed ${seed}, card ${card ?? 'practice'}, nmjl-4p), ${rotations === 1 ? "the method's seat at seat deal % 4" : 'the method at every seat in turn'}, three medium bots; 95% intervals`,
);
for (const m of methods) {
  const rows = rowsOf(m);
  console.log(
    `${m.padEnd(10)} win share ${pct(interval(rows.map((r) => r.win)))}, mean points ${pts(interval(rows.map((r) => r.score)))}, wall games ${f((100 * rows.reduce((a, r) => a + r.wall, 0)) / n, 1)}%`,
  );
}
for (let i = 1; i < methods.length; i++) {
  const a = rowsOf(methods[i]),
    b = rowsOf(methods[0]);
  console.log(`${methods[i]} - ${methods[0]}: win share ${pct(interval(a.map((r, d) => r.win - b[d].win)))}, points ${pts(interval(a.map((r, d) => r.score - b[d].score)))}`);
}
