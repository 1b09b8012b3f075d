import { hintFor } from '../agents/coach/hint.js';
import { judgeChoice, sameChoice, type OutlookPoints, type Verdict } from '../agents/mah-jongg/judge.js';
import { judgeWorlds } from '../api/http/task-cost.js';
import { DEFAULT_LIMITS } from '../api/shared/limits.js';
import { Analyzer } from '../engine/mah-jongg/analyzer.js';
import { decodeAction } from '../engine/mah-jongg/mah-jongg.js';
import { loadCard } from '../io/cards.js';
import type { TruthRow } from '../training/truth-file.js';

/** One decision of the truth set for lab/judge-study.ts, in a worker thread (piscina) or inline. */
export interface JudgeTask {
  decision: TruthRow;
  /** Only the choice the seat played. */
  played: boolean;
  /** The judge's most worlds; 0: the server's for this card (a request's budget, api/http/task-cost.ts judgeWorlds). */
  worlds: number;
  /** How the judge's quick evaluation reads in points (default the judge's own). */
  outlook?: OutlookPoints;
}

/** A choice of the truth set as the judge called it, beside the truth. */
export interface Judged {
  id: string;
  card: string;
  kind: string;
  level: string;
  played: boolean;
  choice: number;
  /** The truth's cost and its standard error. */
  cost: number;
  se: number;
  verdict: Verdict;
  judgedCost: number;
  worlds: number;
  rule?: string;
  ms: number;
  /** The truth's cost of the coach's own choice at this decision, when the truth valued it. */
  coachCost: number | null;
}

/** Every choice of the decision (or the one played) judged against the coach's choice there: the hint's, as the review asks it. */
export default function judgeDecision(task: JudgeTask): Judged[] {
  const d = task.decision;
  const cc = loadCard(`cards/${d.card}-2026.card`);
  const analyzer = new Analyzer(cc);
  const legal = d.legal.map((a) => decodeAction(a));
  const hint = hintFor(cc, d.view, legal, {});
  const played = JSON.stringify(d.played);
  const worlds = task.worlds > 0 ? task.worlds : judgeWorlds(DEFAULT_LIMITS.taskMs, cc);
  const coachAt = d.choices.findIndex((c) => sameChoice(decodeAction(c), hint.action));
  const coachCost = coachAt < 0 ? null : d.truth.choices[coachAt].cost;
  const out: Judged[] = [];
  d.choices.forEach((c, i) => {
    const isPlayed = JSON.stringify(c) === played;
    if (task.played && !isPlayed) return;
    const start = Date.now();
    const j = judgeChoice(cc, analyzer, d.view, legal, decodeAction(c), hint.action, { maxWorlds: worlds, ...(task.outlook !== undefined && { outlook: task.outlook }) });
    const t = d.truth.choices[i];
    out.push({
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
      coachCost,
    });
  });
  return out;
}
