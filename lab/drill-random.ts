/**
 * `node dist/lab/drill-random.js [positions] [--card FILE]`: how often a random answer is
 * right in each kind of drill (agents/coach/drills.ts), graded as the page grades it (the
 * drills' own worlds): at `positions` drills of each kind (default 60, levels in turn, numbers
 * from 5000), the share of her possible answers the coach calls right (the chance a random
 * answer is right there), averaged, with a 95% interval over positions. A Charleston
 * position has hundreds of passes: every 7th is weighed.
 */
import { parseArgs } from 'node:util';
import { DRILL_KINDS, drillHint, drillPosition, gradeDrill } from '../agents/coach/drills.js';
import { loadCard } from '../io/cards.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { card: { type: 'string' } } });
const positions = Number(positionals[0] ?? 60);
if (!Number.isInteger(positions) || positions < 2) throw new Error('usage: node dist/lab/drill-random.js [positions] [--card FILE]');
const cc = loadCard(values.card);
for (const kind of DRILL_KINDS) {
  const shares: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < positions; i++) {
    const pos = drillPosition(cc, { kind, level: ((i % 3) + 1) as 1 | 2 | 3, seed: 5000 + i });
    const hint = drillHint(cc, pos);
    let options = pos.legal.filter((a) => a.type !== 'callDead');
    if (kind === 'charleston') options = options.filter((_, j) => j % 7 === 0);
    shares.push(options.filter((a) => gradeDrill(cc, pos, hint, a).right).length / options.length);
  }
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const sd = Math.sqrt(shares.reduce((a, b) => a + (b - mean) ** 2, 0) / (shares.length - 1));
  const half = (1.96 * sd) / Math.sqrt(shares.length);
  console.log(
    `${kind}: a random answer is right ${(100 * mean).toFixed(1)}% of the time [${(100 * (mean - half)).toFixed(1)}, ${(100 * (mean + half)).toFixed(1)}] over ${positions} positions (${((performance.now() - t0) / positions).toFixed(0)} ms a position)`,
  );
}
