import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { lineForms } from '../../engine/mah-jongg/compile.js';
import { groupsFromText, printedFromText, type Colour, type PrintedCard } from '../../engine/mah-jongg/printed-card.js';
import { call, server } from './helpers.js';

/** The card editor's routes: a card as printed read line by line, the notation read back, the notes offered. */

const app = await server();
const PRACTICE = readFileSync(new URL('../../cards/practice-2026.card', import.meta.url), 'utf8');

const line = (groups: string, colours: (Colour | null)[], note: string, concealed: boolean | null, value: number | null) => ({
  groups: groupsFromText(groups).map((g, i) => ({ ...g, colour: colours[i] ?? null })),
  note,
  concealed,
  value,
});

describe('POST /api/cards/read', () => {
  it('each line read on its own: the settled ones in the notation with example hands, the others with their question or problems', async () => {
    const card = {
      name: 'Club card',
      sections: [
        {
          title: 'Evens',
          lines: [
            line('FF 2222 44 66 8888', [null, 'green', 'red', 'red', 'green'], 'These Nos. Only', false, 25),
            line('FF 2026 2222 2222', [], 'These Nos. Only', false, 25),
            line('22 444 6666', ['green', 'green', 'green'], '', null, null),
            line('2468 2468 22 44 FF', ['green', 'red', 'blue', 'blue'], 'These Nos. Only', true, 50),
          ],
        },
      ],
    };
    const r = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card } });
    expect(r.status).toBe(200);
    expect(r.body.ready).toBe(2);
    expect(r.body.lines.map((l: any) => [l.id, l.notation])).toEqual([
      ['Evens #1', 'FF 2222a 44b 66b 8888a ; x 25'],
      ['Evens #2', null],
      ['Evens #3', null],
      ['Evens #4', '2468a 2468b 22c 44c FF ; c 50'],
    ]);
    expect(r.body.lines[1].questions[0].text).toMatch(/^Are 2026, 2222 and 2222 in different suits, as the card's colours show\?/);
    expect(r.body.lines[2].problems).toEqual([
      'This line holds 9 tiles; every line of a card holds 14. Check its groups against the card.',
      'Choose X (exposed) or C (concealed), as the card prints at the end of the line.',
      'Type the value printed at the end of the line.',
    ]);
    // two or three example hands of 14 tiles, in different ways of making the line
    const ex = r.body.lines[0].examples as string[];
    expect(ex.length).toBeGreaterThanOrEqual(2);
    for (const e of ex) expect(e.split(' ')).toHaveLength(14);
    expect(new Set(ex).size).toBe(ex.length);
    // the usable card: the settled lines, under the ids the editor shows; the others kept as drafts
    const parsed = parseCard(r.body.text);
    expect(parsed.lines.map((l) => l.id)).toEqual(['Evens #1', 'Evens #4']);
    expect(r.body.text).toMatch(/\/\/ draft: \{"groups":\[\{"text":"FF"/);
    // and the text saves: the ready lines are the saved card's
    const put = await call(app, { method: 'PUT', url: '/api/cards/club', payload: { text: r.body.text } });
    expect(put.status).toBe(200);
    expect(put.body.lines).toBe(2);
  });

  it('the practice card, through the editor and back, makes the same lines and forms', async () => {
    const printed = await call(app, { method: 'POST', url: '/api/cards/printed', payload: { text: PRACTICE } });
    expect(printed.status).toBe(200);
    const r = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card: printed.body.card } });
    expect(r.body.ready).toBe(parseCard(PRACTICE).lines.length);
    const forms = (t: string) =>
      parseCard(t).lines.map((l) =>
        lineForms(l)
          .map((f) => f.text)
          .sort(),
      );
    expect(forms(r.body.text)).toEqual(forms(PRACTICE));
  });

  it('bad input is refused in words, before any work: a shape the schema does not take, too many lines, a bad notation text', async () => {
    const bad = await call(app, {
      method: 'POST',
      url: '/api/cards/read',
      payload: { card: { name: 'x', sections: [{ title: 'S', lines: [{ groups: 'FF', note: '', concealed: false, value: 25 }] }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_BAD_INPUT');
    const one = line('22 444 6666 888 FF', ['green', 'green', 'green', 'green'], '', false, 25);
    const big: PrintedCard = { name: 'Big', sections: [{ title: 'S', lines: Array.from({ length: 201 }, () => one) }] };
    const tooBig = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card: big } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.code).toBe('TM_BAD_INPUT');
    const notation = await call(app, { method: 'POST', url: '/api/cards/printed', payload: { text: 'card: X\n[S]\n22a 44q 6666a 888a FF ; x 25\n' } });
    expect(notation.status).toBe(400);
    expect(notation.body.code).toBe('TM_CARD_SYNTAX');
  });

  it('a line no set of tiles can make is never ready, nor saved from the notation, and says why in one sentence (issue 62: thirteen 2 Bam)', async () => {
    const card = { name: 'Mine', sections: [{ title: 'Quints', lines: [line('22222 2222 2222 F', ['green', 'green', 'green'], 'These Nos. Only', false, 40)] }] };
    const r = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card } });
    expect(r.body.ready).toBe(0);
    expect(r.body.lines[0].notation).toBeNull();
    expect(r.body.lines[0].examples).toEqual([]);
    expect(r.body.lines[0].problems).toEqual(['No hand can make this line: it needs 13 tiles of one kind (such as 2 Bam), and a set has only 4 of each and 8 jokers.']);
    const text = 'card: Mine\n[Quints]\n22222a 2222a 2222a F ; x 40\n';
    const check = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text } });
    expect(check.body.ok).toBe(false);
    expect(check.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'card line 3: No hand can make this line: it needs 13 tiles of one kind (such as 2 Bam), and a set has only 4 of each and 8 jokers.',
    ]);
    expect((await call(app, { method: 'PUT', url: '/api/cards/mine', payload: { text } })).status).toBe(400);
  });

  it('typed as printed (issue 62): "or" between groups, an answer of different numbers, and a line of many ways are taken', async () => {
    const many = [1, 2, 3, 4, 5, 6, 7].map((k) => `${String(k).repeat(5)} ${String(k + 1).repeat(4)} ${String(k + 2).repeat(5)}`).join(' or ');
    const card = {
      name: 'Mine',
      sections: [
        {
          title: 'Typed',
          lines: [
            line('2026 DDD 2222 or 6666 DDD', ['green', 'green', 'red', null, 'red', 'red'], 'These Nos. Only', false, 25),
            { ...line('11111 NNNN 22222', ['green', null, 'red'], 'Any No.', false, 45), answers: { numbers: 'other' } },
            line(
              many,
              groupsFromText(many).map((g) => (g.text === 'OR' ? null : 'green')),
              'These Nos. Only',
              false,
              45,
            ),
          ],
        },
      ],
    };
    const r = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card } });
    expect(r.status).toBe(200);
    expect(r.body.lines.map((l: { notation: string | null }) => l.notation)).toEqual([
      '2026a DDDa 2222b|6666b DDDb ; x 25',
      '11111a NNNN 22222b ; x 45 other',
      `${[1, 2, 3, 4, 5, 6, 7].map((k) => `${String(k).repeat(5)}a ${String(k + 1).repeat(4)}a ${String(k + 2).repeat(5)}a`).join(' or ')} ; x 45`,
    ]);
    expect(r.body.ready).toBe(3);
  });

  it('GET /api/cards/phrases offers the notes the editor understands', async () => {
    const r = await call(app, { method: 'GET', url: '/api/cards/phrases' });
    expect(r.body.phrases).toContain('Any 3 Suits');
    expect(r.body.phrases).toContain('These Nos. Only');
  });
});

describe('the notation asks too', () => {
  it('a line of several number words without suit letters is asked about, not read as one suit, and not saved until answered', async () => {
    const text = 'card: Mine\n[Year]\nFF 2026 2222 2222 ; x 25\n';
    const r = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text } });
    expect(r.body.ok).toBe(false);
    expect(r.body.errors).toEqual([]);
    expect(r.body.questions).toEqual([
      {
        code: 'TM_CARD_SYNTAX',
        line: 3,
        token: null,
        message: 'are 2026, 2222 and 2222 all in one suit? Without suit letters Tilemate would read them as one suit: add a, b or c to each (the same letter for the same colour on your card).',
      },
    ]);
    const put = await call(app, { method: 'PUT', url: '/api/cards/mine', payload: { text } });
    expect(put.status).toBe(400);
    expect(put.body.message).toMatch(/all in one suit\?/);
    const answered = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text: 'card: Mine\n[Year]\nFF 2026a 2222b 2222c ; x 25\n' } });
    expect(answered.body.ok).toBe(true);
    // the editor's model reads the same line as printed: uncoloured, so it asks too
    expect(printedFromText('card: Mine\n[Year]\nFF 2026 2222 2222 ; x 25\n').sections[0].lines[0].groups.map((g) => g.colour)).toEqual([null, null, null, null]);
    expect(printedFromText('card: Mine\n[Year]\nFF 2026a 2222a 2222a ; x 25\n').sections[0].lines[0].groups.map((g) => g.colour)).toEqual([null, 'green', 'green', 'green']);
  });
});
