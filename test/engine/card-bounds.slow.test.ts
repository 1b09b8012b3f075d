import { describe, expect, it } from 'vitest';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard, FORM_LIMITS } from '../../engine/mah-jongg/compile.js';

/**
 * Card compilation past 65,535 lines: the compiler's line index holds. Slow: it parses and
 * compiles a card of 65,540 lines, about 200,000 forms (seconds of work, up to half a minute on a busy machine); the
 * bounds checked before enumerating are test/engine/card-bounds.test.ts (unit).
 */

describe('card compilation is bounded before it enumerates', () => {
  it('forms of lines past 65,535 belong to their own line', () => {
    const n = 65_540;
    const card = parseCard(`[A]\n${Array(n).fill('FF 2026a 2222a 6666a ; x 25').join('\n')}\n`);
    const cc = compileCard(card, { ...FORM_LIMITS, perCard: 1_000_000 });
    expect(cc.formCount).toBe(n * 3);
    expect(cc.formLine[cc.lineStart[n - 1]]).toBe(n - 1);
    expect(cc.formLine[cc.lineStart[65_536]]).toBe(65_536);
  });
});
