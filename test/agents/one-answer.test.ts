import { describe, expect, it } from 'vitest';
import { ADVICE_WORLDS, callAdvice, discardAdvice } from '../../agents/mah-jongg/advice.js';
import { DEFAULT_LIMITS } from '../../api/shared/limits.js';
import { JUDGE_WORLDS, MISTAKE_POINTS } from '../../agents/mah-jongg/judge.js';
import { hintFor, situationOf } from '../../agents/coach/hint.js';
import { reviewRecord, type ReviewedDecision } from '../../agents/coach/review.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { playRecorded } from '../../agents/table.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { encodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import { loadCard } from '../../io/cards.js';
import { captureOutput, run } from '../api/capture.js';

/**
 * One answer per decision (issue 29): at every decision of recorded self-play games the hint
 * (agents/coach/hint.ts), the review (agents/coach/review.ts) and the advice asked from the
 * situation as a person types it (agents/mah-jongg/advice.ts, as `tilemate advise` and Which hand? ask
 * it) give the same answer, word for word, with the same figures. The shared budget is
 * lowered (every way of asking is given the same smaller number) to keep the test short: the
 * agreement does not depend on its size, and every default is the one ADVICE_WORLDS.
 */

const cc = loadCard();
const rules = loadRuleset('nmjl-4p');
const game = mahJonggGame(rules, cc);
const compile = (text: string) => compileCard(parseCard(text));
const WORLDS = 2;
let out = '';

captureOutput(
  (stream, chunk) => {
    if (stream === 'out') out += chunk;
  },
  () => {
    out = '';
  },
);

/** A self-play game's record: the medium bots at every seat (they call, discard and pass as a steady player does). */
function record(seed: number): string {
  const names = ['medium', 'medium', 'medium', 'medium'];
  const agents = names.map((n) => makeAgent(n, cc, rules));
  return playRecorded(game, seed, { names, agents }, seedRng(seed)).record!;
}

const json = (a: unknown) => JSON.stringify(encodeAction(a as never));

describe('one answer per decision', () => {
  it("the hint and the server default to the one budget; the review's judge samples up to its own", () => {
    expect(DEFAULT_LIMITS.hintWorlds).toBe(ADVICE_WORLDS);
    expect(DEFAULT_LIMITS.reviewWorlds).toBe(JUDGE_WORLDS);
  });

  it('hint, review and advice from the typed situation agree at every decision of recorded games', async () => {
    let checked = 0,
      playedOut = 0,
      viaCli = 0;
    const kinds = new Map<string, number>();
    for (let seed = 1; playedOut < 300; seed++) {
      expect(seed).toBeLessThan(40); // enough games give 300 decisions long before this
      const text = record(seed);
      for (const seat of [0, 2]) {
        const review = reviewRecord(text, compile, { seat, worlds: WORLDS });
        expect(review.worlds).toBe(WORLDS);
        for (const d of review.decisions as ReviewedDecision[]) {
          const { view: v, legal } = d.moment;
          const hint = hintFor(cc, v, legal, { worlds: WORLDS });
          expect(json(hint.action), `decision ${d.index} of game ${seed}, seat ${seat}`).toBe(json(d.suggestedAction));
          expect(hint.text).toBe(d.why);
          expect(hint.details).toBe(d.details);
          kinds.set(d.phase, (kinds.get(d.phase) ?? 0) + 1);
          checked++;
          if (d.phase !== 'discard' && d.phase !== 'claims') continue;
          // the situation as a person types it: tiles in the usual notation, the others by where they sit
          const typed = situationOf(v);
          const advice = d.phase === 'discard' ? discardAdvice(cc, typed, { worlds: WORLDS }) : callAdvice(cc, { ...typed, tile: typed.tile!, from: typed.from }, { worlds: WORLDS });
          expect(advice.plain).toBe(hint.text);
          expect(advice.details).toBe(hint.details);
          expect(advice.worlds).toBe(WORLDS);
          // the suggestion is the top of the figures shown (Mah Jongg, when there, first of all)
          const values = advice.alternatives.filter((a) => a.move.type !== 'declare' && a.move.type !== 'callMahJongg').map((a) => a.value);
          expect(values).toEqual([...values].sort((a, b) => b - a));
          // only a mistake is charged a cost, and the judge's cost makes it one unless a rule does
          if (d.verdict !== 'mistake') expect(d.loss).toBe(0);
          else if (d.rule !== 'joker-thrown' && d.rule !== 'mahjongg-missed') expect(d.loss).toBeGreaterThanOrEqual(MISTAKE_POINTS);
          playedOut++;
          // a few through the command line itself, as a person types them
          if (viaCli < 6 && d.phase === 'discard') {
            const flags = ['--hand', typed.hand, '--wall', String(typed.wall), '--ruleset', typed.ruleset!, '--worlds', String(WORLDS), '--json'];
            if (typed.exposed) flags.push('--exposed', typed.exposed);
            if (typed.seen) flags.push('--seen', typed.seen);
            for (const [dir, groups] of Object.entries(typed.others ?? {})) if (groups) flags.push(`--${dir}`, groups);
            out = '';
            expect(await run('advise', 'discard', ...flags)).toBe(0);
            const cli = JSON.parse(out) as { plain: string; details: string };
            expect(cli.plain).toBe(hint.text);
            expect(cli.details).toBe(hint.details);
            viaCli++;
          }
        }
      }
    }
    // the figures of the run, for the report
    console.info(
      `one answer per decision: ${checked} decisions compared (${playedOut} discards and calls played out, ${viaCli} through tilemate advise); by phase ${JSON.stringify(Object.fromEntries(kinds))}`,
    );
    expect(playedOut).toBeGreaterThanOrEqual(300);
    expect(viaCli).toBe(6);
  }, 600_000);
});
