/**
 * `node dist/lab/judge-study.js [--truth FILE] [--split tune|held|all] [--played] [--worlds N] [--limit K] [--out FILE]`:
 * the coach's judge (agents/mah-jongg/judge.ts) measured against the truth set (training/truth.ts,
 * lab/truth/). Every choice valued in the truth set is judged as if the seat had made it,
 * against the coach's choice there (the hint's, as the review asks it); `--played` judges only
 * the choice the seat's bot made. Prints, with 95% intervals (Wilson), by kind of decision and
 * by card:
 * - recall: of the choices whose true cost is 10 points or more, the share called a mistake;
 * - false alarms: of the choices within 3 points of the best, the share called a mistake;
 * - agreement: the share whose verdict is the truth's (right: within RIGHT_POINTS of the best;
 *   a mistake: MISTAKE_POINTS or more; about as good between).
 * With --out, each judged choice is written as a JSON line (to tune on without judging again).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { hintFor } from '../agents/coach/hint.js';
import { judgeChoice, JUDGE_WORLDS, MISTAKE_POINTS, RIGHT_POINTS, type Verdict } from '../agents/mah-jongg/judge.js';
import { Analyzer } from '../engine/mah-jongg/analyzer.js';
import { decodeAction } from '../engine/mah-jongg/mah-jongg.js';
import { loadCard } from '../io/cards.js';
import { readTruthSet } from '../training/truth-file.js';

const { values } = parseArgs({
  options: {
    truth: { type: 'string', default: 'lab/truth/truth-set.jsonl' },
    split: { type: 'string', default: 'held' },
    played: { type: 'boolean', default: false },
    worlds: { type: 'string', default: String(JUDGE_WORLDS) },
    limit: { type: 'string', default: '0' },
    out: { type: 'string' },
  },
});

const rows = readTruthSet(values.truth).filter((r) => values.split === 'all' || r.split === values.split);
const limit = Number(values.limit);
const todo = limit > 0 ? rows.slice(0, limit) : rows;

interface Judged {
  id: string;
  card: string;
  kind: string;
  level: string;
  played: boolean;
  choice: number;
  cost: number;
  se: number;
  verdict: Verdict;
  judgedCost: number;
  worlds: number;
  rule?: string;
  ms: number;
}

const truthVerdict = (cost: number): Verdict => (cost >= MISTAKE_POINTS ? 'mistake' : cost < RIGHT_POINTS ? 'right' : 'asGood');

const judged: Judged[] = [];
const t0 = Date.now();
for (const [n, d] of todo.entries()) {
  const cc = loadCard(`cards/${d.card}-2026.card`);
  const analyzer = new Analyzer(cc);
  const legal = d.legal.map((a) => decodeAction(a));
  const hint = hintFor(cc, d.view, legal, {});
  const played = JSON.stringify(d.played);
  d.choices.forEach((c, i) => {
    const isPlayed = JSON.stringify(c) === played;
    if (values.played && !isPlayed) return;
    const start = Date.now();
    const j = judgeChoice(cc, analyzer, d.view, legal, decodeAction(c), hint.action, { maxWorlds: Number(values.worlds) });
    const t = d.truth.choices[i];
    judged.push({
      id: d.id,
      card: d.card,
      kind: d.kind,
      level: d.level,
      played: isPlayed,
      choice: i,
      cost: t.cost,
      se: t.se,
      verdict: j.verdict,
      judgedCost: j.cost,
      worlds: j.worlds,
      ...(j.rule !== undefined && { rule: j.rule }),
      ms: Date.now() - start,
    });
  });
  if ((n + 1) % 25 === 0) console.error(`${n + 1} of ${todo.length} decisions judged in ${Math.round((Date.now() - t0) / 1000)} s`);
}
if (values.out) writeFileSync(values.out, judged.map((j) => JSON.stringify(j)).join('\n') + '\n');

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

function report(label: string, js: readonly Judged[]): string {
  const costly = js.filter((j) => j.cost >= 10);
  const near = js.filter((j) => j.cost <= 3);
  return `| ${label} | ${share(costly.filter((j) => j.verdict === 'mistake').length, costly.length)} | ${share(near.filter((j) => j.verdict === 'mistake').length, near.length)} | ${share(js.filter((j) => j.verdict === truthVerdict(j.cost)).length, js.length)} |`;
}

console.log(
  `Judged ${judged.length} choices of ${todo.length} decisions (${values.split} split${values.played ? ', the choice played only' : ''}), at most ${values.worlds} worlds, in ${Math.round((Date.now() - t0) / 1000)} s.`,
);
console.log('\n| part | recall (cost ≥ 10) | false alarms (cost ≤ 3) | three-way agreement |\n|---|---|---|---|');
console.log(report('all', judged));
for (const kind of [...new Set(judged.map((j) => j.kind))])
  console.log(
    report(
      kind,
      judged.filter((j) => j.kind === kind),
    ),
  );
for (const card of [...new Set(judged.map((j) => j.card))])
  console.log(
    report(
      card,
      judged.filter((j) => j.card === card),
    ),
  );
const ms = judged.map((j) => j.ms).sort((x, y) => x - y);
console.log(
  `\nTime a choice judged: median ${ms[Math.floor(ms.length / 2)]} ms, p90 ${ms[Math.floor(ms.length * 0.9)]} ms; worlds: mean ${(judged.reduce((s, j) => s + j.worlds, 0) / judged.length).toFixed(0)}.`,
);
