import { describe, expect, it } from 'vitest';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { checkFormCounts, compileCard, countLineForms, lineForms } from '../../engine/mah-jongg/compile.js';
import { readCardText } from '../../io/cards.js';
import { explosiveCard } from './explosive-card.js';

describe('card compilation is bounded before it enumerates', () => {
  it("counts a line's forms from the parsed line: the practice card's counts bound its real forms", () => {
    const card = parseCard(readCardText());
    for (const l of card.lines) expect(countLineForms(l), l.id).toBeGreaterThanOrEqual(lineForms(l).length);
    expect(Math.max(...card.lines.map(countLineForms))).toBe(216);
  });

  it('counts repeated alternatives once (and enumerates them once)', () => {
    const card = parseCard(`[A]\n${Array(7).fill('1a|1a|1a|1a|1a|1a|1a|1a|1a|1a').join(' ')} 1a 1a 1a 1a 1a 1a 1a ; x 25\n`);
    expect(countLineForms(card.lines[0])).toBe(3);
    expect(compileCard(card).formCount).toBe(3);
  });

  for (const k of [6, 7]) {
    it(`the ${k}-token card is refused with TM_CARD_SYNTAX naming its line`, () => {
      const card = parseCard(explosiveCard(k));
      expect(countLineForms(card.lines[0])).toBe(3 * 9 ** k);
      expect(() => compileCard(card)).toThrow(expect.objectContaining({ code: 'TM_CARD_SYNTAX', message: expect.stringMatching(/^card line 3: Boom #1 makes [\d,]+ concrete forms .*at most 5,000/) }));
    });
  }

  it('a card of many modest lines is refused once the whole card passes its limit, naming the line', () => {
    const line = 'FF 1111a 3333b 5555c ; x 25 consec'; // 5 shifts x 6 suits = 30 forms
    const card = parseCard(`[A]\n${Array(700).fill(line).join('\n')}\n`);
    expect(() => checkFormCounts(card)).toThrow(/card line 668: with A #667 the card makes more than 20,000 concrete forms/);
  });
});
