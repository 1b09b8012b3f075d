import { reviewRecord } from '../agents/coach/review.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { playRecorded } from '../agents/table.js';
import { judgeWorlds } from '../api/http/task-cost.js';
import { DEFAULT_LIMITS } from '../api/shared/limits.js';
import { parseCard } from '../engine/mah-jongg/card.js';
import { compileCard } from '../engine/mah-jongg/compile.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { seedOfText, seedRng } from '../engine/rng.js';
import { loadCard } from '../io/cards.js';

/** One game of lab/review-study.ts: a level's seat among three medium bots, played and reviewed as the server reviews it. */
export interface ReviewTask {
  card?: string;
  level: string;
  game: number;
}

export interface ReviewedGame {
  level: string;
  game: number;
  seat: number;
  decisions: number;
  mistakes: number;
  /** Mistakes by the decision's phase. */
  byPhase: Record<string, number>;
  cost: number;
  seconds: number;
}

export default function run(task: ReviewTask): ReviewedGame {
  const cc = loadCard(task.card);
  const rules = loadRuleset('nmjl-4p');
  const seat = task.game % 4;
  const seed = seedOfText(`review-study:${task.game}`);
  const names = [0, 1, 2, 3].map((s) => (s === seat ? task.level : 'medium'));
  const agents = names.map((n) => makeAgent(n, cc, rules));
  const { record } = playRecorded(mahJonggGame(rules, cc), seed, { names, agents }, seedRng(seed));
  const t0 = performance.now();
  // the server's review: its default worlds, within a request's budget on this card
  const review = reviewRecord(record!, (text) => compileCard(parseCard(text)), { seat, worlds: DEFAULT_LIMITS.reviewWorlds, fit: (c, w) => judgeWorlds(DEFAULT_LIMITS.taskMs, c, w) });
  const seconds = (performance.now() - t0) / 1000;
  const byPhase: Record<string, number> = {};
  for (const d of review.decisions) if (d.verdict === 'mistake') byPhase[d.phase] = (byPhase[d.phase] ?? 0) + 1;
  return { level: task.level, game: task.game, seat, decisions: review.summary.decisions, mistakes: review.summary.mistakes, byPhase, cost: review.summary.totalLoss, seconds };
}
