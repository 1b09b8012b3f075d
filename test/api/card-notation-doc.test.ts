import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCard } from '../../api/http/routes/cards.js';

/** docs/card-notation.md: every card it shows reads without a mistake, and the mistakes it shows are the ones Tilemate names. */

const doc = readFileSync('docs/card-notation.md', 'utf8');

describe('docs/card-notation.md', () => {
  it('every block marked card is a card Tilemate reads, each line with at least one way to make it', () => {
    const blocks = [...doc.matchAll(/```card\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    for (const text of blocks) {
      const r = checkCard(text);
      expect(r.errors, text).toEqual([]);
      expect(r.questions, text).toEqual([]);
      for (const l of r.lines) expect(l.forms, l.id).toBeGreaterThan(0);
    }
  });

  it('the mistakes in its table are named as it says', () => {
    const at = (line: string) => checkCard(`card: X\n[S]\n22a 444a 6666a 888a FF ; x 25\n${line}\n`).errors[0]?.message ?? '';
    expect(at('22a 44q 6666a 888a FF ; x 25')).toMatch(/"44q": "q" is not a tile symbol/);
    expect(at('22a 444a 6666a ; x 25')).toMatch(/the line holds 9 tiles; every line holds exactly 14/);
    expect(at('22a 444a 6666a 888a FF')).toMatch(/expected ";" followed by the options \(x or c, and a value\)/);
    expect(checkCard('card: X\n22a 444a 6666a 888a FF ; x 25\n').errors[0].message).toMatch(/expected a \[Section\] before the first card line/);
  });
});
