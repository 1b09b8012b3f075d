import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { lineForms } from '../../engine/mah-jongg/compile.js';
import { readCardText } from '../../io/cards.js';
import { captureOutput, run } from './capture.js';

/** `tilemate card check` and `tilemate card export`: the editor's model at the terminal. */

let out = '';
let err = '';
captureOutput(
  (stream, chunk) => {
    if (stream === 'out') out += chunk;
    else err += chunk;
  },
  () => {
    out = '';
    err = '';
  },
);
const dir = mkdtempSync(join(tmpdir(), 'tilemate-card-cli-'));
const forms = (t: string) =>
  parseCard(t).lines.map((l) => [
    l.id,
    lineForms(l)
      .map((f) => f.text)
      .sort(),
  ]);

describe('tilemate card check', () => {
  it('a good card: how many lines, and exit 0', async () => {
    expect(await run('card', 'check')).toBe(0);
    expect(out).toBe('the practice card: Tilemate Practice Card 2026, 51 lines read; 0 lines need mending, 0 lines ask a question.\n');
  });

  it('every mistake and every question at once, each on its own line, in line order; exit 1', async () => {
    const file = join(dir, 'mine.card');
    writeFileSync(file, 'card: Mine\n[Year]\n22a 44q 6666a 888a FF ; x 25\nFF 2026 2222 2222 ; x 25\n22a 444a 6666a ; x 25\n');
    expect(await run('card', 'check', file)).toBe(1);
    expect(out.split('\n')).toEqual([
      'mine.card: Mine, 1 line read; 2 lines need mending, 1 line asks a question.',
      'line 3 (at "44q"): "q" is not a tile symbol (symbols are 1-9, 0 and upper-case D, R, G, F, N, E, W, S; the only lower-case letter is the suit letter a, b or c, last)',
      'line 4: are 2026, 2222 and 2222 all in one suit? Without suit letters Tilemate would read them as one suit: add a, b or c to each (the same letter for the same colour on your card).',
      'line 5: the line holds 9 tiles; every line holds exactly 14',
      '',
    ]);
  });

  it("the editor's card file: each open line with its question and the answers offered", async () => {
    const file = join(dir, 'club.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Club',
        sections: [
          {
            title: 'Runs',
            lines: [
              {
                groups: [
                  { text: '11', colour: 'green' },
                  { text: '222', colour: 'green' },
                  { text: '3333', colour: 'green' },
                  { text: '444', colour: 'green' },
                  { text: '55', colour: 'green' },
                ],
                note: '',
                concealed: false,
                value: 25,
              },
              {
                groups: [
                  { text: '11', colour: 'green' },
                  { text: '222', colour: 'red' },
                  { text: '3333', colour: 'blue' },
                  { text: '444', colour: 'red' },
                  { text: '55', colour: 'green' },
                ],
                note: 'Any 5 Consec. Nos.',
                concealed: false,
                value: 30,
              },
            ],
          },
        ],
      }),
    );
    expect(await run('card', 'check', file)).toBe(1);
    expect(out).toBe(
      [
        'club.json: Club, 2 lines; 1 ready, 1 line waits for an answer or a mend.',
        'Runs #1: May these numbers move up or down together (any consecutive numbers), or are they only the numbers printed? (Only the numbers printed; They may move together; Only the numbers printed, for every line of Runs whose note says nothing; They may move, for every line of Runs whose note says nothing; Each different number may be any number, as long as they stay different)',
        '',
      ].join('\n'),
    );
    writeFileSync(file, '{"name": "Club", ');
    expect(await run('card', 'check', file)).toBe(2);
    expect(err).toMatch(/^error TM_BAD_INPUT: club.json starts like the editor's card file but is not well-formed JSON/);
  });
});

describe('tilemate card export', () => {
  it("the notation, the editor's JSON and the card in words round-trip: the same lines with the same forms", async () => {
    const json = join(dir, 'practice.json');
    expect(await run('card', 'export', '--format', 'json', '--out', json)).toBe(0);
    const card = join(dir, 'practice.card');
    expect(await run('card', 'export', '--card', json, '--out', card)).toBe(0);
    expect(forms(readFileSync(card, 'utf8'))).toEqual(forms(readCardText()));
    out = '';
    expect(await run('card', 'export', '--format', 'printed')).toBe(0);
    expect(out.split('\n').slice(0, 4)).toEqual(['Tilemate Practice Card 2026', '', '2026', 'FF  2026 (green)  2222 (red)  6666 (red)   Any 2 Suits, These Nos. Only   X 25']);
    expect(await run('card', 'export', '--format', 'pdf')).toBe(2);
    expect(err).toBe('error TM_BAD_INPUT: --format must be card, json or printed, not pdf\n');
  });
});
