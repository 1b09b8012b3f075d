/**
 * `npm run study:oracle -- [deals] [seed] [card] [--compare hard,medium] [--seeds 1] [--passes 6] [--discards 0] [--log FILE] [--threads K]`:
 * the ceiling (issue 61). A seat that sees every rack and the wall order (lab/oracle.ts: each
 * candidate played out from the true state, the seat by the strong habits and the others as
 * medium, the best mean score taken) against three medium bots on `deals` duplicate deals, each
 * deal once per seat (four games a deal, as lab/paired-study.ts seats a bot), and beside it
 * the same deals for each `--compare` bot (its games are the ones paired-study plays with the
 * same seed and card) and the paired differences, deal by deal. Prints one JSON line: win share
 * and mean score with 95% intervals for each, the paired differences oracle − bot, and the
 * oracle's work (decisions valued a game, candidates a decision, playouts and seconds a game,
 * and the decisions where continuation seeds disagreed, which --seeds above 1 checks).
 *
 * With --log, each finished deal is appended to FILE (one JSON line a player and deal) and a run
 * started again with the same FILE (and the same seed, card and oracle options) plays only the
 * deals not there yet. --threads: worker threads (default 1; the oracle takes a few seconds a
 * game, hard a tenth of that, medium little).
 */
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import './bots/registry.js'; // a compared bot may be one of the lab's
import { interval } from '../training/arena.js';
import { JsonLog } from '../training/arena-log.js';
import { ORACLE_DEFAULTS, type OracleOptions, type OracleWork } from './oracle.js';
import run, { type OracleDeal, type OracleTask } from './oracle.worker.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    compare: { type: 'string', default: 'hard,medium' },
    seeds: { type: 'string', default: String(ORACLE_DEFAULTS.seeds) },
    passes: { type: 'string', default: String(ORACLE_DEFAULTS.passes) },
    discards: { type: 'string', default: String(ORACLE_DEFAULTS.discards) },
    log: { type: 'string' },
    threads: { type: 'string', default: '1' },
  },
});

function whole(name: string, text: string, least: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < least) {
    process.stderr.write(`oracle-arena: ${name} must be a whole number of at least ${least}, not "${text}"\n`);
    process.exit(2);
  }
  return n;
}

if (positionals.length > 3) {
  process.stderr.write(`oracle-arena: at most deals, seed and card, not "${positionals.slice(3).join(' ')}"\n`);
  process.exit(2);
}
const deals = whole('deals', positionals[0] ?? '1000', 1),
  seed = whole('seed', positionals[1] ?? '31', 0),
  card = positionals[2];
const opts: OracleOptions = { seeds: whole('--seeds', values.seeds!, 1), passes: whole('--passes', values.passes!, 0), discards: whole('--discards', values.discards!, 0) };
const threads = whole('--threads', values.threads!, 1);
const compare = values
  .compare!.split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '' && s !== 'oracle');
const players = ['oracle', ...compare];

interface DealRow {
  agent: string;
  deal: number;
  /** A quarter for each of the four games the player won (medium: the mean of its four seats). */
  wins: number;
  /** The mean of its four games' scores. */
  score: number;
  /** The oracle's work over the deal's four games, and their milliseconds. */
  work?: OracleWork;
  ms: number;
}

const key = (agent: string, deal: number) => `${agent}:${deal}`;
const done = new Map<string, DealRow>();
// a line cut off by a kill is dropped (JsonLog.open) and its deal played again
const logged =
  values.log === undefined
    ? null
    : JsonLog.open(values.log, { study: 'oracle-arena', seed, card: card ?? 'practice', ...opts }, `${values.log} is the log of another study (or of other oracle options); give another --log`);
for (const l of logged?.lines ?? []) {
  const r = JSON.parse(l) as DealRow;
  done.set(key(r.agent, r.deal), r);
}

/** A deal's row for `agent` from its four games, as lab/paired-study.ts counts them. */
function row(agent: string, d: OracleDeal): DealRow {
  const r: DealRow = { agent, deal: d.deal, wins: 0, score: 0, ms: 0 };
  const work: OracleWork = { decisions: 0, candidates: 0, playouts: 0, steps: 0, differed: 0 };
  for (const g of d.games) {
    // medium's own figures: every seat of a table of four medium is hers
    const seats = agent === 'medium' ? g.scores.map((_, s) => s) : [g.seat];
    for (const s of seats) {
      if (g.winners.includes(s)) r.wins += 0.25 / seats.length;
      r.score += g.scores[s] / 4 / seats.length;
    }
    r.ms += g.ms;
    if (g.work) for (const k of Object.keys(work) as (keyof OracleWork)[]) work[k] += g.work[k];
  }
  r.ms = Math.round(r.ms);
  if (agent === 'oracle') r.work = work;
  return r;
}

async function play(agent: string, pool: Piscina | null): Promise<DealRow[]> {
  const todo = Array.from({ length: deals }, (_, d) => d).filter((d) => !done.has(key(agent, d)));
  let finished = deals - todo.length;
  const take = (result: OracleDeal[]) => {
    const rows = result.map((d) => row(agent, d));
    for (const r of rows) done.set(key(r.agent, r.deal), r);
    logged?.log.append(rows);
    for (const _ of rows) if (++finished % 10 === 0 || finished === deals) process.stderr.write(`${agent}: ${finished} of ${deals} deals\n`);
  };
  // the oracle's deals one a task (seconds each), the bots' a few
  const size = agent === 'oracle' ? 1 : 8;
  const tasks: OracleTask[] = [];
  for (let i = 0; i < todo.length; i += size) tasks.push({ card, seed, who: agent, deals: todo.slice(i, i + size), opts });
  if (pool === null) for (const t of tasks) take(run(t));
  else await Promise.all(tasks.map(async (t) => take((await pool.run(t)) as OracleDeal[])));
  return Array.from({ length: deals }, (_, d) => done.get(key(agent, d))!);
}

const pool = threads > 1 ? new Piscina({ filename: new URL('./oracle.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads }) : null;
const rows = new Map<string, DealRow[]>();
try {
  for (const p of players) rows.set(p, await play(p, pool));
} finally {
  await pool?.destroy();
}

const r2 = (x: number) => Math.round(x * 100) / 100,
  r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const summary = (rs: DealRow[]) => {
  const w = interval(rs.map((r) => r.wins)),
    s = interval(rs.map((r) => r.score));
  return { winShare: [w.mean, w.low, w.high].map(r4), meanScore: [s.mean, s.low, s.high].map(r2), secondsPerGame: r2(rs.reduce((a, r) => a + r.ms, 0) / 1000 / (4 * rs.length)) };
};
const oracle = rows.get('oracle')!;
const work = oracle.reduce(
  (a, r) => {
    for (const k of Object.keys(a) as (keyof OracleWork)[]) a[k] += r.work?.[k] ?? 0;
    return a;
  },
  { decisions: 0, candidates: 0, playouts: 0, steps: 0, differed: 0 } satisfies OracleWork,
);
const games = 4 * deals;
const paired = (key: 'wins' | 'score', round: (x: number) => number) =>
  Object.fromEntries(
    compare.map((b) => {
      const other = rows.get(b)!;
      const d = interval(oracle.map((r, i) => r[key] - other[i][key]));
      return [`oracle-${b}`, [d.mean, d.low, d.high].map(round)];
    }),
  );
console.log(
  JSON.stringify({
    deals,
    seed,
    card: card ?? 'practice',
    seats: 'each deal once per seat (four games), against three medium bots',
    options: opts,
    ...Object.fromEntries(players.map((p) => [p, summary(rows.get(p)!)])),
    pairedWinShareDiff: paired('wins', r4),
    pairedMeanScoreDiff: paired('score', r2),
    oracleWork: {
      decisionsPerGame: r2(work.decisions / games),
      candidatesPerDecision: r2(work.candidates / Math.max(1, work.decisions)),
      playoutsPerGame: r2(work.playouts / games),
      stepsPerGame: Math.round(work.steps / games),
      seedsDiffered: work.differed,
    },
  }),
);
