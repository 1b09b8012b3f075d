/**
 * `node dist/lab/judge-study.js [--truth FILE] [--split tune|held|all] [--played] [--worlds N] [--limit K] [--kinds vote,pass] [--threads K] [--out FILE] [--from FILE]`:
 * the coach's judge (agents/mah-jongg/judge.ts) measured against the truth set (training/truth.ts,
 * lab/truth/). Every choice valued in the truth set is judged as if the seat had made it,
 * against the coach's choice there (the hint's, as the review asks it); `--played` judges only
 * the choice the seat's bot made. Prints, with 95% intervals (Wilson), by kind of decision and
 * by card:
 * - recall: of the choices whose true cost is 10 points or more, the share called a mistake;
 * - false alarms: of the choices within 3 points of the best, the share called a mistake;
 * - agreement: the share whose verdict is the truth's (right: less than RIGHT_POINTS from the
 *   best; a mistake: MISTAKE_POINTS or more; about as good between); then the same where the
 *   truth is sure (its 95% interval within one band), and the share a judge that knew every cost
 *   exactly would agree on, the truth's own noise being what it is (the ceiling).
 * With --out, each judged choice is written as a JSON line; --from FILE prints the tables of such a file again, judging nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { MISTAKE_POINTS, RIGHT_POINTS, type OutlookPoints, type Verdict } from '../agents/mah-jongg/judge.js';
import { readTruthSet } from '../training/truth-file.js';
import judgeDecision, { type Judged, type JudgeTask } from './judge-study.worker.js';

const { values } = parseArgs({
  options: {
    truth: { type: 'string', default: 'lab/truth/truth-set.jsonl' },
    split: { type: 'string', default: 'held' },
    played: { type: 'boolean', default: false },
    // 0: the server's worlds for each card (a request's budget), as the review is made
    worlds: { type: 'string', default: '0' },
    limit: { type: 'string', default: '0' },
    kinds: { type: 'string' },
    threads: { type: 'string', default: '1' },
    out: { type: 'string' },
    from: { type: 'string' },
    // studies only: the quick evaluation's points as JSON ({"play":{"win":0,"score":0.4,"sd":4},"charleston":{...}})
    outlook: { type: 'string' },
  },
});

const truthVerdict = (cost: number): Verdict => (cost >= MISTAKE_POINTS ? 'mistake' : cost < RIGHT_POINTS ? 'right' : 'asGood');

const t0 = Date.now();
let judged: Judged[];
let decisions: number;
if (values.from !== undefined) {
  // the tables again from a study's --out, judging nothing
  judged = readFileSync(values.from, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Judged);
  decisions = new Set(judged.map((j) => j.id)).size;
} else {
  const kinds = values.kinds?.split(',');
  const rows = readTruthSet(values.truth).filter((r) => (values.split === 'all' || r.split === values.split) && (kinds === undefined || kinds.includes(r.kind)));
  const limit = Number(values.limit);
  const todo = limit > 0 ? rows.slice(0, limit) : rows;
  decisions = todo.length;
  const threads = Number(values.threads);
  const pool = threads > 1 ? new Piscina({ filename: new URL('./judge-study.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads }) : null;
  const out: Judged[][] = new Array(todo.length);
  let next = 0,
    done = 0;
  const lane = async (): Promise<void> => {
    while (next < todo.length) {
      const i = next++;
      const task: JudgeTask = {
        decision: todo[i],
        played: values.played,
        worlds: Number(values.worlds),
        ...(values.outlook !== undefined && { outlook: JSON.parse(values.outlook) as OutlookPoints }),
      };
      out[i] = pool ? ((await pool.run(task)) as Judged[]) : judgeDecision(task);
      if (++done % 25 === 0) console.error(`${done} of ${todo.length} decisions judged in ${Math.round((Date.now() - t0) / 1000)} s`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, threads) }, lane));
  await pool?.destroy();
  judged = out.flat();
  if (values.out) writeFileSync(values.out, judged.map((j) => JSON.stringify(j)).join('\n') + '\n');
}

/** Wilson's 95% interval of k in n, in percent. */
function share(k: number, n: number): string {
  if (n === 0) return 'n/a (0)';
  const z = 1.96,
    p = k / n;
  const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  const pct = (x: number) => (100 * x).toFixed(1);
  return `${pct(p)}% [${pct(mid - half)}, ${pct(mid + half)}] (${k}/${n})`;
}

/** The truth is sure of a choice's class when its 95% interval lies within one band (right, about as good, a mistake). */
const sure = (j: Judged): boolean => truthVerdict(j.cost - 1.96 * j.se) === truthVerdict(j.cost + 1.96 * j.se);

/** The share a judge that knew every cost exactly would agree with the truth on, given the truth's own noise (its costs taken as exact). */
function ceiling(js: readonly Judged[]): number {
  const cdf = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));
  const band = (c: number): [number, number] => (c >= MISTAKE_POINTS ? [MISTAKE_POINTS, Infinity] : c < RIGHT_POINTS ? [-Infinity, RIGHT_POINTS] : [RIGHT_POINTS, MISTAKE_POINTS]);
  return (
    js.reduce((s, j) => {
      const [lo, hi] = band(j.cost);
      const se = Math.max(j.se, 1e-6);
      return s + cdf((hi - j.cost) / se) - cdf((lo - j.cost) / se);
    }, 0) / js.length
  );
}

/** Abramowitz and Stegun 7.1.26. */
function erf(x: number): number {
  if (!Number.isFinite(x)) return Math.sign(x);
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

function report(label: string, js: readonly Judged[]): string {
  const costly = js.filter((j) => j.cost >= 10);
  const near = js.filter((j) => j.cost <= 3);
  const certain = js.filter(sure);
  const agree = (xs: readonly Judged[]) => share(xs.filter((j) => j.verdict === truthVerdict(j.cost)).length, xs.length);
  return `| ${label} | ${share(costly.filter((j) => j.verdict === 'mistake').length, costly.length)} | ${share(near.filter((j) => j.verdict === 'mistake').length, near.length)} | ${agree(js)} | ${agree(certain)} | ${(100 * ceiling(js)).toFixed(1)}% |`;
}

console.log(
  `Judged ${judged.length} choices of ${decisions} decisions (${values.split} split${values.played ? ', the choice played only' : ''}), ${Number(values.worlds) > 0 ? `at most ${values.worlds} worlds` : "the server's worlds for each card"}, in ${Math.round((Date.now() - t0) / 1000)} s.`,
);
/** One table: every part of `js` by kind of decision, by card and by the level that played the seat. */
function table(title: string, js: readonly Judged[]): void {
  console.log(`\n${title}\n\n| part | recall (cost ≥ 10) | false alarms (cost ≤ 3) | three-way agreement | where the truth is sure | a perfect judge would agree |\n|---|---|---|---|---|---|`);
  console.log(report('all', js));
  for (const [field, label] of [
    ['kind', 'kind'],
    ['card', 'card'],
    ['level', 'level'],
  ] as const)
    for (const v of [...new Set(js.map((j) => j[field]))])
      console.log(
        report(
          `${label}: ${v}`,
          js.filter((j) => j[field] === v),
        ),
      );
}
table('Every choice valued, judged as if the seat had made it:', judged);
// the coach's own choice is right by definition: where the truth finds it costly, so are the choices like it
const sound = judged.filter((j) => j.coachCost !== null && j.coachCost < MISTAKE_POINTS);
const costlyCoach = new Set(judged.filter((j) => j.coachCost !== null && j.coachCost >= MISTAKE_POINTS).map((j) => j.id)).size;
console.log(
  `\nAt ${costlyCoach} of ${decisions} decisions the truth finds the coach's own choice ${MISTAKE_POINTS} points or more behind its best. Where the coach's choice is within that (and valued): recall ${share(sound.filter((j) => j.cost >= 10 && j.verdict === 'mistake').length, sound.filter((j) => j.cost >= 10).length)}, false alarms ${share(sound.filter((j) => j.cost <= 3 && j.verdict === 'mistake').length, sound.filter((j) => j.cost <= 3).length)}.`,
);
if (!values.played)
  table(
    'The choices the seats played:',
    judged.filter((j) => j.played),
  );
const ms = judged.map((j) => j.ms).sort((x, y) => x - y);
console.log(
  `\nTime a choice judged: median ${ms[Math.floor(ms.length / 2)]} ms, p90 ${ms[Math.floor(ms.length * 0.9)]} ms; worlds: mean ${(judged.reduce((s, j) => s + j.worlds, 0) / judged.length).toFixed(0)}.`,
);
