/**
 * `node dist/lab/review-study.js [games] [--levels random,easy,medium,hard,expert] [--card FILE] [--log FILE] [--threads K]`:
 * the mistakes the coach's review finds in a game (issue 61), by the level of the player
 * reviewed. For each level, `games` games (default 200) with that level at one seat (East,
 * South, West, North in turn) and medium bots at the others, the same deals for every level;
 * each reviewed as the server reviews it (agents/coach/review.ts with the server's judge worlds
 * within a request's budget). Prints, per level, the mistakes a game found (mean, 95% interval),
 * by phase, the decisions reviewed, the seconds a review took (median, p90); then each level
 * against the next (the same deals, paired by game): the difference in mistakes a game with its
 * 95% interval. Resumable with --log (one JSON line a game).
 */
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { JsonLog } from '../training/arena-log.js';
import run, { type ReviewedGame, type ReviewTask } from './review-study.worker.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { levels: { type: 'string', default: 'random,easy,medium,hard,expert' }, card: { type: 'string' }, log: { type: 'string' }, threads: { type: 'string', default: '1' } },
});
const games = Number(positionals[0] ?? 200);
const levels = values.levels.split(',');
const threads = Number(values.threads);
const done = new Map<string, ReviewedGame>();
const key = (level: string, game: number) => `${level}:${game}`;
const logged = values.log === undefined ? null : JsonLog.open(values.log, { reviewStudy: 1, card: values.card ?? 'practice' }, `${values.log} is the log of another study; give another --log`);
for (const l of logged?.lines ?? []) {
  const r = JSON.parse(l) as ReviewedGame;
  done.set(key(r.level, r.game), r);
}
const todo: ReviewTask[] = [];
// a game of each level at a time: a study stopped part way has every level alike
for (let game = 0; game < games; game++) for (const level of levels) if (!done.has(key(level, game))) todo.push({ ...(values.card !== undefined && { card: values.card }), level, game });
const pool = threads > 1 ? new Piscina({ filename: new URL('./review-study.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads }) : null;
let next = 0;
async function lane(): Promise<void> {
  while (next < todo.length) {
    const task = todo[next++];
    const r = pool ? ((await pool.run(task)) as ReviewedGame) : run(task);
    done.set(key(r.level, r.game), r);
    logged?.log.append([r]);
  }
}
await Promise.all(Array.from({ length: Math.max(1, threads) }, lane));
await pool?.destroy();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ci = (xs: number[]) => {
  const m = mean(xs);
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
  const h = (1.96 * sd) / Math.sqrt(xs.length);
  return `${m.toFixed(2)} [${(m - h).toFixed(2)}, ${(m + h).toFixed(2)}]`;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const of = (level: string) => Array.from({ length: games }, (_, g) => done.get(key(level, g))!).filter((r) => r !== undefined);
console.log('| level | games | mistakes a game | decisions a game | by phase (a game) | review seconds (median, p90) |\n|---|---|---|---|---|---|');
for (const level of levels) {
  const rs = of(level);
  if (rs.length === 0) continue;
  const phases = [...new Set(rs.flatMap((r) => Object.keys(r.byPhase)))].sort();
  const by = phases.map((p) => `${p} ${(rs.reduce((a, r) => a + (r.byPhase[p] ?? 0), 0) / rs.length).toFixed(2)}`).join(', ');
  const secs = rs.map((r) => r.seconds);
  console.log(`| ${level} | ${rs.length} | ${ci(rs.map((r) => r.mistakes))} | ${mean(rs.map((r) => r.decisions)).toFixed(1)} | ${by} | ${pct(secs, 0.5).toFixed(1)}, ${pct(secs, 0.9).toFixed(1)} |`);
}
console.log('\n| levels | mistakes a game, paired by deal |\n|---|---|');
for (let i = 0; i + 1 < levels.length; i++) {
  const a = of(levels[i]),
    b = new Map(of(levels[i + 1]).map((r) => [r.game, r]));
  const diffs = a.filter((r) => b.has(r.game)).map((r) => r.mistakes - b.get(r.game)!.mistakes);
  if (diffs.length > 1) console.log(`| ${levels[i]} − ${levels[i + 1]} | ${ci(diffs)} (${diffs.length} deals) |`);
}
