import type { Command } from 'commander';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { DEFAULT_LIMITS } from '../shared/limits.js';
import { reviewRecord } from '../../agents/coach/review.js';
import { reviewJson, type ReviewJson, type ReviewedDecisionJson } from '../shared/wire.js';
import { printable, readRecordFile } from '../../io/files.js';
import { positiveInt, wholeNumber } from './options.js';

/**
 * `tilemate review RECORD --seat N`: the review the page shows at the end of a game, for
 * coaches in the terminal. The same function (api/http/review.ts) with the server's default
 * deals and seeds, so the terminal and the page give the same review of the same record.
 */

interface ReviewFlags {
  seat: number;
  worlds?: number;
  seed?: number;
  top?: number;
  json?: boolean;
}

const PHASE_WORDS: Record<ReviewedDecisionJson['phase'], string> = {
  charleston: 'Charleston pass',
  vote: 'Second Charleston vote',
  courtesy: 'Courtesy pass',
  discard: 'Discard',
  claims: 'Call window',
};

/** One decision in a line or two, as the page words it: the one judge's verdict (agents/mah-jongg/judge.ts), its cost and its reason. */
function decisionLines(d: ReviewedDecisionJson, i: number): string[] {
  const when = `${i + 1}. ${PHASE_WORDS[d.phase]} (move ${d.index})`;
  if (d.agreed) return [`${when}: you chose to ${d.chosen}. Good: that is what the coach would do.`];
  if (d.verdict === 'right') return [`${when}: you chose to ${d.chosen}, as good as the coach's choice to ${d.suggested}.`];
  if (d.verdict === 'asGood') return [`${when}: you chose to ${d.chosen}, about as good as the coach's choice to ${d.suggested}.`, `   ${d.reason}`];
  const cost = d.loss >= 0.5 ? ` It cost about ${Math.round(d.loss)} points a game.` : '';
  return [`${when}: a mistake: you chose to ${d.chosen}; better was to ${d.suggested}.${cost}`, `   ${d.reason}`, ...(d.details ? [`   Details: ${d.details}`] : [])];
}

export function reviewText(r: ReviewJson, file: string): string {
  const s = r.summary;
  return (
    [
      `${printable(file)}: review of seat ${r.seat} (${r.ruleset}, card ${printable(r.card)}, up to ${r.worlds} sampled deals per decision)`,
      s.text,
      ...(r.dead ? [`Move ${r.dead.index}: ${r.dead.why}.`] : []),
      '',
      ...r.decisions.flatMap(decisionLines),
    ].join('\n') + '\n'
  );
}

export function registerReview(cmd: Command, exit: (code: number) => void): void {
  cmd
    .command('review')
    .description("a seat's decisions in a recorded game against the engine's, every disagreement first by cost (the page's review)")
    .argument('<file>', 'a record (.jsonl) written by play, selfplay or the server')
    .requiredOption('--seat <n>', 'the seat to review (0 is East)', wholeNumber)
    .option('--worlds <n>', `the most sampled deals the judge plays for one decision (default ${DEFAULT_LIMITS.reviewWorlds}; fewer where the verdict is plain)`, positiveInt)
    .option('--seed <n>', 'not used: every decision draws its seed from the moment itself, as the hint does', wholeNumber)
    .option('--top <n>', 'print only the first N decisions (the summary still counts them all)', positiveInt)
    .option('--json', 'print the review as the server answers POST /api/review')
    .action((file: string, f: ReviewFlags) => {
      const review = reviewJson(
        reviewRecord(readRecordFile(file), (text) => compileCard(parseCard(text)), { seat: f.seat, worlds: f.worlds ?? DEFAULT_LIMITS.reviewWorlds, ...(f.seed !== undefined && { seed: f.seed }) }),
      );
      if (f.top !== undefined) review.decisions = review.decisions.slice(0, f.top);
      process.stdout.write(f.json ? JSON.stringify(review) + '\n' : reviewText(review, file));
      exit(0);
    });
}
