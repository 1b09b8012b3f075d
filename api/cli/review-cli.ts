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

/** One decision in a line or two, as the page words it. */
function decisionLines(d: ReviewedDecisionJson, i: number): string[] {
  const when = `${i + 1}. ${PHASE_WORDS[d.phase]} (move ${d.index})`;
  if (d.agreed) return [`${when}: you chose to ${d.chosen}. Good: that is what the coach would do.`];
  // the advice's own figures call the two about equally good: no cost, not a mistake (as the page says it)
  if (d.asGood) return [`${when}: you chose to ${d.chosen}, about as good as the coach's choice to ${d.suggested}.`];
  const cost = d.loss > 0 ? ` It cost about ${Math.round(d.loss)} points.` : d.tilesLost > 0 ? ` It left you ${d.tilesLost} tile${d.tilesLost === 1 ? '' : 's'} further from a hand.` : '';
  return [`${when}: you chose to ${d.chosen}; better was to ${d.suggested}.${cost}`, `   ${d.why}`, ...(d.details ? [`   Details: ${d.details}`] : [])];
}

export function reviewText(r: ReviewJson, file: string): string {
  const s = r.summary;
  return (
    [
      `${printable(file)}: review of seat ${r.seat} (${r.ruleset}, card ${printable(r.card)}, ${r.worlds} sampled deals per decision)`,
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
    .option('--worlds <n>', `sampled deals per decision (default ${DEFAULT_LIMITS.reviewWorlds}, as the hint's and the server's review)`, positiveInt)
    .option('--seed <n>', "seed of the Charleston's choices (discards and calls draw theirs from each decision, as the hint does)", wholeNumber)
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
