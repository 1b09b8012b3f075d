/**
 * `node dist/lab/defence-study.js [deals] [seed] [--a medium] [--b guarded] [--card FILE]`:
 * the defence rule measured (issue 29). Two bots, each against three medium bots on the same
 * duplicate deals (each deal once per seat, the same bots' random streams), and per bot: its
 * win share, its mean score, how often its discard was the tile another player called for
 * Mah Jongg, and the points it gave away so (what a discarder whose discard was called for
 * Mah Jongg paid in that game), each with a 95% interval over deals, and the paired
 * differences deal by deal. One thread: run it with `nice`.
 */
import { parseArgs } from 'node:util';
import { makeBot } from '../agents/bots.js';
import './bots/registry.js'; // guarded and the lab's other bots beside the product's
import type { Agent } from '../agents/agent.js';
import { GUARDED_HABITS, HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { playOut } from '../agents/table.js';
import type { GameState } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { dealSeed, interval } from '../training/arena.js';

/**
 * A bot by name; `guarded:M[:wall=W][:hidden=H]` is medium with the defence rule at margin M
 * (Habits.guard, guardWall, guardHidden), to try settings; `medium-read:W` is medium with the
 * reading's danger at weight W (Habits.readDanger).
 */
function botFor(game: ReturnType<typeof mahJonggGame>, name: string): Agent {
  const read = /^medium-read:([0-9.]+)$/.exec(name);
  if (read) return new HeuristicAgent(game.cc, { ...MEDIUM_HABITS, readDanger: Number(read[1]) }, name);
  const m = /^guarded:([0-9.]+)((?::(?:wall|hidden)=[0-9]+)*)$/.exec(name);
  if (!m) return makeBot(game, name);
  const opt = (k: string) => {
    const o = new RegExp(`:${k}=([0-9]+)`).exec(m[2]);
    return o ? Number(o[1]) : undefined;
  };
  return new HeuristicAgent(game.cc, { ...GUARDED_HABITS, guard: Number(m[1]), guardWall: opt('wall'), guardHidden: opt('hidden') }, name);
}

/** One bot's figures on one deal, averaged over its four seats. */
export interface DealFigures {
  wins: number;
  score: number;
  dealtIn: number;
  givenAway: number;
}

/**
 * Plays deal `deal` four times, `bot` at each seat in turn and medium bots at the others; the
 * deal and the bots' random streams are those of the arenas (training/arena.ts), so two bots
 * measured on the same deals meet the same tiles.
 */
export function playDefenceDeal(game: ReturnType<typeof mahJonggGame>, bot: string, seed: number, deal: number): DealFigures {
  const spec = { seats: [bot, 'medium', 'medium', 'medium'], seed };
  const out: DealFigures = { wins: 0, score: 0, dealtIn: 0, givenAway: 0 };
  const n = spec.seats.length;
  for (let rotation = 0; rotation < n; rotation++) {
    const names = spec.seats.map((_, s) => spec.seats[(s + rotation) % n]);
    const agents = names.map((name) => botFor(game, name));
    const dealt = dealSeed(spec, deal);
    const state = game.newGame(dealt) as GameState;
    playOut(game, state, agents, seedRng(dealt ^ Math.imul(0x9e3779b9, rotation + 1)));
    const seat = (n - rotation) % n; // where the first name sits this rotation
    const r = state.result!;
    if (r.winners.includes(seat)) out.wins += 1 / r.winners.length / n;
    out.score += r.scores[seat] / n;
    // standardized tournament rules 11.5-11.7: the discarder of the winning tile pays the most
    const fed = r.outcome.mahJonggs.some((m) => m.discarder === seat);
    if (fed) {
      out.dealtIn += 1 / n;
      out.givenAway += -r.scores[seat] / n;
    }
  }
  return out;
}

const r2 = (x: number) => Math.round(x * 100) / 100,
  r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function summary(rows: readonly DealFigures[]) {
  const f = (pick: (d: DealFigures) => number, round: (x: number) => number) => {
    const i = interval(rows.map(pick));
    return [i.mean, i.low, i.high].map(round);
  };
  return { winShare: f((d) => d.wins, r4), meanScore: f((d) => d.score, r2), dealtInRate: f((d) => d.dealtIn, r4), givenAwayByDiscards: f((d) => d.givenAway, r2) };
}

function paired(a: readonly DealFigures[], b: readonly DealFigures[]) {
  const f = (pick: (d: DealFigures) => number, round: (x: number) => number) => {
    const i = interval(a.map((x, k) => pick(x) - pick(b[k])));
    return [i.mean, i.low, i.high].map(round);
  };
  return { winShare: f((d) => d.wins, r4), meanScore: f((d) => d.score, r2), dealtInRate: f((d) => d.dealtIn, r4), givenAwayByDiscards: f((d) => d.givenAway, r2) };
}

const isMain = process.argv[1] !== undefined && /defence-study\.(c|m)?[jt]s$/.test(process.argv[1]);
if (isMain) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { a: { type: 'string', default: 'medium' }, b: { type: 'string', default: 'guarded' }, card: { type: 'string' } },
  });
  const deals = Number(positionals[0] ?? 1000),
    seed = Number(positionals[1] ?? 29);
  const game = mahJonggGame(loadRuleset('nmjl-4p'), loadCard(values.card));
  const a: DealFigures[] = [],
    b: DealFigures[] = [];
  for (let d = 0; d < deals; d++) {
    a.push(playDefenceDeal(game, values.a!, seed, d));
    b.push(playDefenceDeal(game, values.b!, seed, d));
    if ((d + 1) % 50 === 0) process.stderr.write(`${d + 1} of ${deals} deals\n`);
  }
  console.log(
    JSON.stringify({
      deals,
      seed,
      card: values.card ?? 'practice',
      seatGames: deals * 4,
      [values.a!]: summary(a),
      [values.b!]: summary(b),
      [`paired ${values.b} - ${values.a}`]: paired(b, a),
    }),
  );
}
