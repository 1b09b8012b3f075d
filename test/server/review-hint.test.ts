import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../api/shared/limits.js';
import { reviewRecord } from '../../agents/coach/review.js';
import { hintFor } from '../../agents/coach/hint.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { apply, legalActions, view } from '../../engine/mah-jongg/game.js';
import { replayRecord } from '../../engine/record.js';
import { MAH_JONGG, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { captureOutput, run } from '../api/capture.js';

/** The hint and the review of the same decision give the same numbers (same deals, same seed). */

captureOutput(
  () => {},
  () => {},
);

describe('the review and the hint of one decision', () => {
  it("on the server's defaults, a reviewed discard shows the figures the hint gave at that moment", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-review-hint-'));
    expect(await run('selfplay', '--games', '1', '--seed', '5', '--bots', 'random,greedy,greedy,greedy', '--out', dir, '--json')).toBe(0);
    const text = readFileSync(join(dir, 'game-5.jsonl'), 'utf8');
    const card = (t: string) => compileCard(parseCard(t));
    // the review's hint plays the hint's own worlds whatever the judge's budget (lowered here to keep the test short)
    const review = reviewRecord(text, card, { seat: 0, worlds: DEFAULT_LIMITS.hintWorlds });
    const d = review.decisions.find((x) => !x.agreed && x.details !== undefined)!;
    expect(d).toBeDefined();
    // the game as it stood at that decision, and the hint the table would have given (its seed drawn from the decision itself)
    const { header, game, played } = replayRecord(text, { type: MAH_JONGG, cards: card });
    const { cc } = game as MahJonggGame;
    const state = game.newGame(header.seed);
    for (const action of played.slice(0, d.index - 1)) apply(state, action);
    expect(state.actionCount + 1).toBe(d.index);
    const hint = hintFor(cc, view(state, 0), legalActions(state, 0), { worlds: DEFAULT_LIMITS.hintWorlds });
    expect(hint.details).toBe(d.details);
    expect(hint.text).toBe(d.why);
  }, 120_000);
});
