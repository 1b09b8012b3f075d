import { describe, expect, it } from 'vitest';
import { drillPosition, DRILL_KINDS, gradeDrill, type DrillKind } from '../../agents/coach/drills.js';
import { hintFor } from '../../agents/coach/hint.js';
import { sameAction } from '../../agents/coach/review.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { loadCard } from '../../io/cards.js';

/**
 * Each drill kind's answer key is the hint's answer (issue 46), at 200 generated positions:
 * the hint a player would have had there, asked directly, is graded right; every choice it
 * weighed is graded right exactly when it calls the choice about as good (a discard or a
 * call), or when it keeps her closest line as close as the hint's (a pass, computed here with
 * the analyzer). The positions are all different. Fewer worlds than a drill's keep the check
 * to about a minute: the key is the same function of the hint whatever its worlds (how often a
 * random answer is right at a drill's own worlds: lab/drill-random.ts).
 */

const cc = loadCard();
const analyzer = new Analyzer(cc);
const POSITIONS = 200;
const WORLDS = 8;

/** Tiles away of her closest line after passing `tiles`. */
function awayAfter(concealed: readonly number[], copies: readonly number[], tiles: readonly number[]): number {
  const kept = [...concealed];
  for (const t of tiles) kept[t]--;
  return analyzer.analyze({ concealed: kept, exposures: [], seen: new Array<number>(kept.length).fill(0), copies }, { top: 1 })[0].tilesAway;
}

describe('drill answer keys', () => {
  for (const kind of DRILL_KINDS) {
    it(`${kind}: the key is the hint's answer at ${POSITIONS} positions, all different`, () => {
      const seen = new Set<string>();
      for (let i = 0; i < POSITIONS; i++) {
        const level = ((i % 3) + 1) as 1 | 2 | 3;
        const pos = drillPosition(cc, { kind: kind as DrillKind, level, seed: 1000 + i });
        seen.add(JSON.stringify([pos.deal, pos.seat, pos.view.phase, pos.view.concealed, pos.view.wallLeft, pos.view.claim]));
        const hint = hintFor(cc, pos.view, pos.legal, { worlds: WORLDS });
        expect(gradeDrill(cc, pos, hint, hint.action).right).toBe(true);
        const options: Action[] = pos.legal.filter((a) => a.type !== 'callDead');
        for (const a of kind === 'charleston' ? options.filter((_, j) => j % 11 === 0) : options) {
          const g = gradeDrill(cc, pos, hint, a);
          let expected: boolean;
          if (sameAction(a, hint.action)) expected = true;
          else if (a.type === 'pass' && hint.action.type === 'pass')
            expected = awayAfter(pos.view.concealed, pos.view.copies, a.tiles) <= awayAfter(pos.view.concealed, pos.view.copies, hint.action.tiles);
          else expected = hint.alternatives?.find((x) => x.legal !== null && sameAction(x.legal, a))?.aboutEqual ?? g.asGood;
          expect({ drill: `${kind} ${level} #${1000 + i}`, answer: a, right: g.right }).toEqual({ drill: `${kind} ${level} #${1000 + i}`, answer: a, right: expected });
        }
      }
      expect(seen.size).toBe(POSITIONS);
    }, 600_000);
  }
});
