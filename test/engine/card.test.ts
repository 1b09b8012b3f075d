import { describe, expect, it } from 'vitest';
import { CardError, parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard, lineForms } from '../../engine/mah-jongg/compile.js';
import { readCardText } from '../../io/cards.js';
import { bruteForceFormCount } from '../reference/brute-force.js';

const card = (body: string) => parseCard(`card: Test\n[S]\n${body}\n`);
const line = (body: string) => card(body).lines[0];

/** The error a card body raises (the line is file line 3). */
function refusal(body: string): CardError {
  try {
    card(body);
  } catch (err) {
    if (err instanceof CardError) return err;
    throw err;
  }
  throw new Error(`accepted: ${body}`);
}

describe('card parser', () => {
  it('reads sections, ids, options and the card name', () => {
    const c = parseCard(
      [
        'card: Practice Card 2026',
        '// a comment runs to the end of the line',
        '[2468]',
        '222a 4444a 666a 8888a ; x 25',
        'FF 2222a 44b 66b 8888a ; x 25 // two suits',
        '[Consecutive Run]',
        '11a 222a 3333a 444a 55a ; x 25 consec',
        '[Winds and Dragons]',
        'NEWS DDDa DDDb DDDDc ; c 30',
      ].join('\n'),
    );
    expect(c.name).toBe('Practice Card 2026');
    expect(c.sections).toEqual(['2468', 'Consecutive Run', 'Winds and Dragons']);
    expect(c.lines.map((l) => l.id)).toEqual(['2468 #1', '2468 #2', 'Consecutive Run #1', 'Winds and Dragons #1']);
    expect(c.lines[3]).toMatchObject({ concealed: true, value: 30, fileLine: 9 });
    expect(c.lines[2].shifts).toEqual([0, 1, 2, 3, 4]);
  });

  it('groups versus singles: one repeated symbol is a group, mixed symbols are singles', () => {
    const [ff, kong, news, year, quint] = line('FF 2222a NEWS 2026a ; x 25 nojoker').shapes[0].concat(line('11111a 22222a 3333a ; x 40').shapes[0]);
    expect(ff).toMatchObject({ size: 2, group: false });
    expect(kong).toMatchObject({ size: 4, group: true });
    expect(news).toMatchObject({ size: 4, group: false });
    expect(year).toMatchObject({ size: 4, group: false });
    expect(quint).toMatchObject({ size: 5, group: true });
  });

  it('decoration (+ = x × -) standing alone is ignored', () => {
    expect(line('FF 3333a + 5555b = 8888c ; x 30').shapes[0]).toHaveLength(4);
    expect(line('FF 3333a × 5555b - 8888c x ; x 30').shapes[0]).toHaveLength(4);
  });

  it('numbers and D without a letter belong to suit a', () => {
    const tokens = line('222 DDD 444b DDDb 66 ; x 25').shapes[0];
    expect(tokens.map((t) => t.alternatives[0].suitVar)).toEqual([0, 0, 1, 1, 0]);
  });

  it('options: shift=, pins, nojoker', () => {
    expect(line('111a 3333a 555a 7777a ; x 25 shift=0,2').shifts).toEqual([0, 2]);
    expect(line('111a 3333a 555a 7777a ; x 25 shift=0-2').shifts).toEqual([0, 1, 2]);
    expect(line('333a 666a 9999a FFFF ; x 25 a=C').pins).toEqual([1, null, null]);
    expect(line('NNNN EEE WWW SSSS ; x 35 nojoker').nojoker).toBe(true);
  });

  describe('every malformed line is refused with its line number, the token and what was expected', () => {
    const cases: [string, string, RegExp][] = [
      ['a line with 13 tiles', '222a 4444a 666a 888a ; x 25', /card line 3: the line holds 13 tiles; every line holds exactly 14/],
      ['a line with 15 tiles', '222a 4444a 666a 8888a F ; x 25', /holds 15 tiles/],
      ['an unknown symbol', '222a 44Q4a 666a 8888a ; x 25', /"44Q4a": unknown symbol "Q"/],
      ['no options', '222a 4444a 666a 8888a', /expected ";"/],
      ['no x or c', '222a 4444a 666a 8888a ; 25', /expected x \(exposed\) or c \(concealed\)/],
      ['no value', '222a 4444a 666a 8888a ; x', /expected a value/],
      ['both x and c', '222a 4444a 666a 8888a ; x c 25', /"c": expected only one of x/],
      ['two values', '222a 4444a 666a 8888a ; x 25 30', /"30": expected one value/],
      ['an unknown option', '222a 4444a 666a 8888a ; x 25 fast', /"fast": unknown option/],
      ['alternatives of different lengths', 'NNNN|SSS 222a 4444a 2222b ; x 25', /"NNNN\|SSS": alternatives must have the same length/],
      ['an empty alternative', 'NNNN| 222a 4444a 333b ; x 25', /expected an alternative on each side/],
      ['a suit letter on a token without a suit', 'NNNNa 222a 4444a 333b ; x 25', /"NNNNa": a suit letter needs a number or D/],
      ['a group larger than a sextet', '1111111a 2222222b ; x 25', /"1111111a": a group holds at most 6/],
      ['shift that leaves 1..9', '111a 3333a 555a 7777a ; x 25 shift=0,4', /"shift=4": expected shifts that keep numbers in 1..9 \(7 \+ 4 = 11\)/],
      ['a malformed shift', '111a 3333a 555a 7777a ; x 25 shift=a', /"shift=a": expected shift=N,N/],
      ['consec and shift together', '111a 3333a 555a 7777a ; x 25 consec shift=0,2', /expected one of consec or shift=/],
      ['consec without numbers', 'NNNN EEE WWW SSSS ; x 25 consec', /"consec": the pattern has no numbers to shift/],
      ['a pin of an unused suit letter', '1111a 2222a 333a 444a ; x 25 b=C', /"b=C": the pattern has no suit b to pin/],
      ['two letters pinned to one suit', '1111a 2222b 333a 444b ; x 25 a=C b=C', /"b=C": different suit letters are different suits/],
      ['an "or" with nothing after it', '1111a 2222a 333a 444a or ; x 25', /expected a pattern after "or"/],
      ['a second shape with 12 tiles', '1111a 2222a 333a 444a or 1111a 2222a 4444b ; x 25', /shape 2 of the line holds 12 tiles/],
      // lenient tokens: a typo is an error naming the token, never a guess
      ['a lower-case wind inside a token', '33ea 444a 6666a 888a FF ; x 25', /"33ea": "e" is not a tile symbol/],
      ['a lower-case flower', 'ff 222a 4444a 666a 88a ; x 25', /"ff": "f" is not a tile symbol/],
      ['an upper-case suit letter', '2026B 222a 4444a 6666a ; x 25', /"2026B": the suit letter is lower case a, b or c .*Bams/],
      ['consec on a line whose numbers can never shift', '11111a FFFF 99999b ; x 45 consec', /"consec": the numbers of this line can never shift/],
      ['a malformed line number', '#x 222a 4444a 666a 8888a ; x 25', /"#x": expected a line number from #1 to #999/],
      ['a line number 0', '#0 222a 4444a 666a 8888a ; x 25', /"#0": expected a line number/],
    ];
    for (const [what, body, message] of cases) {
      it(what, () => {
        const err = refusal(body);
        expect(err.code).toBe('TM_CARD_SYNTAX');
        expect(err.line).toBe(3);
        expect(err.message).toMatch(message);
      });
    }

    it('a line before any section', () => {
      expect(() => parseCard('222a 4444a 666a 8888a ; x 25')).toThrow(/card line 1: expected a \[Section\]/);
    });
    it('a malformed section header', () => {
      expect(() => parseCard('[2468\n222a 4444a 666a 8888a ; x 25')).toThrow(/card line 1: "\[2468": expected a section name in brackets/);
    });
    it('a section that appears twice', () => {
      expect(() => parseCard('[A]\n222a 4444a 666a 8888a ; x 25\n[A]\n')).toThrow(/card line 3: "\[A\]": expected a new section/);
    });
    it('a card with no lines', () => {
      expect(() => parseCard('card: Empty\n// nothing\n')).toThrow(/no lines/);
    });
  });
});

describe('card notation traps', () => {
  const texts = (body: string) => lineForms(line(body)).map((f) => f.text);

  it('consec gives each shape its own shift range: a second shape spanning 1..9 no longer pins the first to shift 0', () => {
    const l = line('33333a NNNN 55555b or 11111a FFFF 99999b ; x 45 consec');
    expect(l.shapeShifts).toEqual([[-2, -1, 0, 1, 2, 3, 4], [0]]);
    const forms = texts('33333a NNNN 55555b or 11111a FFFF 99999b ; x 45 consec');
    expect(forms).toContain('44444B NNNN 66666C');
    expect(forms).toContain('11111B NNNN 33333C');
    expect(forms).toContain('11111B FFFF 99999C');
    expect(forms).not.toContain('22222B FFFF 99999C');
    // 7 shifts x 6 suit pairs, and the fixed shape's 6
    expect(forms).toHaveLength(7 * 6 + 6);
  });

  it('consec with alternatives covering 1..9 shifts each alternative within 1..9', () => {
    // before: the token's alternatives spanned 1..9, so only shift 0 was left (6 forms)
    const forms = texts('11111a|99999a NNNN 55555b ; x 45 consec');
    expect(forms).toContain('22222B NNNN 66666C');
    expect(forms).toContain('55555B NNNN 99999C');
    // 99999a shifted down gives the same tiles as 11111a shifted up, suits swapped: 5 runs x 6 suit pairs
    expect(forms).toHaveLength(5 * 6);
  });

  it('a line may carry its number (#5); unnumbered lines count on from the line before', () => {
    const c = parseCard('card: T\n[2468]\n#2 222a 4444a 666a 8888a ; x 25\n#5 FF 2222a 44b 66b 8888a ; x 25\n22a 444a 6666a 888a FF ; x 25\n[Other]\n222a 4444a 666a 8888a ; x 25\n');
    expect(c.lines.map((l) => l.id)).toEqual(['2468 #2', '2468 #5', '2468 #6', 'Other #1']);
    expect(c.lines[1].pattern).toBe('FF 2222a 44b 66b 8888a');
  });

  it('two lines of a section with one number are refused', () => {
    expect(() => parseCard('card: T\n[S]\n#2 222a 4444a 666a 8888a ; x 25\n#1 FF 2222a 44b 66b 8888a ; x 25\n22a 444a 6666a 888a FF ; x 25\n')).toThrow(
      /card line 5: line S #2 appears earlier \(card line 3\)/,
    );
  });
});

describe('card compiler (forms counted exactly)', () => {
  const count = (body: string) => lineForms(line(body)).length;

  it('consec on 11a 222a 3333a 444a 55a gives 5 shifts x 3 suits = 15 forms', () => {
    expect(count('11a 222a 3333a 444a 55a ; x 25 consec')).toBe(15);
  });
  it('two suit letters: 3 x 2 = 6 assignments', () => {
    expect(count('FF 2222a 44b 66b 8888a ; x 25')).toBe(6);
  });
  it('NEWS DDDa DDDb DDDDc: 6 suit assignments but only 3 distinct forms (which dragon is the kong)', () => {
    expect(count('NEWS DDDa DDDb DDDDc ; c 30')).toBe(3);
  });
  it('three suits of one pattern: all 6 assignments give the same tiles', () => {
    expect(count('2026a 2026b 2026c FF ; c 50')).toBe(1);
  });
  it('alternatives multiply: any wind kong x like numbers x suits', () => {
    expect(count('NNNNN|EEEEE|WWWWW|SSSSS 2222a 22222b ; x 45 consec')).toBe(4 * 9 * 6);
  });
  it('a pin leaves one suit for its letter and two for the other', () => {
    expect(count('FF 2222a 44b 66b 8888a ; x 25 a=B')).toBe(2);
  });
  it('shift= counts exactly the shifts given', () => {
    expect(count('FF 1111a 3333b 5555c ; x 25 shift=0,2,4')).toBe(18);
  });
  it('or gives a second shape under one id', () => {
    expect(count('11a 333a 5555a 777a 99a or 11a 333b 5555c 777b 99a ; x 25')).toBe(3 + 6);
  });
  it('matches the independent enumeration on every line of the practice card', () => {
    const practice = parseCard(readCardText());
    const cc = compileCard(practice);
    practice.lines.forEach((l, i) => expect(cc.lineStart[i + 1] - cc.lineStart[i], l.id).toBe(bruteForceFormCount(l)));
    expect(cc.formCount).toBe(881);
  });
});

describe('the practice card', () => {
  const practice = parseCard(readCardText());
  it('has about 50 lines across the usual categories, exposed and concealed, worth 25 to 75', () => {
    expect(practice.lines.length).toBeGreaterThanOrEqual(45);
    expect(practice.sections).toEqual(['2026', '2468', 'Any Like Numbers', 'Addition', 'Quints', 'Consecutive Run', '13579', 'Winds and Dragons', '369', 'Singles and Pairs']);
    expect(practice.lines.some((l) => l.concealed)).toBe(true);
    expect(practice.lines.some((l) => !l.concealed)).toBe(true);
    expect(Math.min(...practice.lines.map((l) => l.value))).toBe(25);
    expect(Math.max(...practice.lines.map((l) => l.value))).toBe(75);
  });
});
