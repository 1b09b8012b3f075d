/**
 * `node dist/lab/drill-random.js [positions] [--card FILE] [--kinds a,b]`: how often a random answer is
 * right in each kind of drill (agents/coach/drills.ts), graded as the page grades it (the
 * drills' own worlds): at `positions` drills of each kind (default 60, levels in turn, numbers
 * from 5000), the share of her possible answers the coach calls right (the chance a random
 * answer is right there), averaged, with a 95% interval over positions. A Charleston
 * position has hundreds of passes: every 7th is weighed. An exchange drill asks take the joker
 * or not: a random answer takes one of the jokers half the time, and discards any tile else. A choice drill has one right answer
 * among its choices: the share is one over their number, and how often each answer is the right
 * one is printed too (a balanced drill: about as often each). Numbers far apart for the kinds
 * that look through many deals (different deals).
 */
import { parseArgs } from 'node:util';
import { CHOICE_KINDS, DRILL_KINDS, drillHint, drillPosition, gradeDrill } from '../agents/coach/drills.js';
import { loadCard } from '../io/cards.js';
import { judgeWorlds } from '../api/http/task-cost.js';
import { DEFAULT_LIMITS } from '../api/shared/limits.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { card: { type: 'string' }, kinds: { type: 'string' } } });
const positions = Number(positionals[0] ?? 60);
if (!Number.isInteger(positions) || positions < 2) throw new Error('usage: node dist/lab/drill-random.js [positions] [--card FILE]');
const cc = loadCard(values.card);
const kinds = values.kinds === undefined ? DRILL_KINDS : DRILL_KINDS.filter((k) => values.kinds!.split(',').includes(k));
for (const kind of kinds) {
  const shares: number[] = [];
  const t0 = performance.now();
  const rights = new Map<string, number>();
  let moments = 0;
  for (let i = 0; i < positions; i++) {
    const far = CHOICE_KINDS.includes(kind) || kind === 'exchange';
    const pos = drillPosition(cc, { kind, level: ((i % 3) + 1) as 1 | 2 | 3, seed: far ? 5000 + 211 * i : 5000 + i });
    moments += pos.moments;
    if (pos.choices !== undefined) {
      shares.push(1 / pos.choices.length);
      const right = kind === 'hand' || kind === 'score' ? `choice ${pos.choices.findIndex((c) => c.id === pos.key!.right) + 1}` : pos.key!.right;
      rights.set(right, (rights.get(right) ?? 0) + 1);
      continue;
    }
    const hint = drillHint(cc, pos);
    let options = pos.legal.filter((a) => a.type !== 'callDead');
    if (kind === 'charleston') options = options.filter((_, j) => j % 7 === 0);
    // judged as the server grades an answer: the judge's worlds within a request's budget
    const worlds = judgeWorlds(DEFAULT_LIMITS.taskMs, cc);
    const share = (xs: typeof options) => xs.filter((a) => gradeDrill(cc, pos, hint, a, worlds).right).length / xs.length;
    // the exchange drill asks take the joker or not: a random answer takes it half the time (one of the exchanges), else discards
    shares.push(kind === 'exchange' ? 0.5 * share(options.filter((a) => a.type === 'exchange')) + 0.5 * share(options.filter((a) => a.type !== 'exchange')) : share(options));
  }
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const sd = Math.sqrt(shares.reduce((a, b) => a + (b - mean) ** 2, 0) / (shares.length - 1));
  const half = (1.96 * sd) / Math.sqrt(shares.length);
  const answers = [...rights].sort().map(([k, n]) => `${k} ${n}`);
  console.log(
    `${kind}: ${answers.length > 0 ? `the right answer: ${answers.join(', ')}; ` : ''}a random answer is right ${(100 * mean).toFixed(1)}% of the time [${(100 * (mean - half)).toFixed(1)}, ${(100 * (mean + half)).toFixed(1)}] over ${positions} positions (${((performance.now() - t0) / positions).toFixed(0)} ms a position); a deal offers ${(moments / positions).toFixed(1)} such decisions`,
  );
}
