import { describe, expect, it } from 'vitest';
import type { PreparedPhoto } from '../../io/card-photo-image.js';
import type { OcrBox, OcrWord } from '../../io/card-photo-ocr.js';
import { readRows, type Reread, type RereadMany } from '../../io/card-photo-read.js';

/**
 * The reading of a page's rows and their parts (io/card-photo-read.ts) on word boxes made up
 * here, as the OCR would give them for card layouts unlike Tilemate's own drawing: the X/C
 * and the value in far-right columns after a wide gap (the OCR losing the lone X), a note in
 * parentheses beside the groups, two panels side by side. The page is painted where the words are
 * (numbers green), so each group's colour is seen.
 */

const H = 28;
/** A page of paper with the words' ink on it: numbers in green, everything else black (so each group's colour can be seen). */
function page(width: number, height: number, words: OcrWord[], rules: { x0: number; x1: number; y: number }[] = []): PreparedPhoto {
  const gray = new Uint8Array(width * height).fill(255);
  const rgb = new Uint8Array(width * height * 3).fill(250);
  for (const r of rules)
    for (let y = r.y; y < r.y + 3; y++)
      for (let x = r.x0; x < r.x1; x++) {
        gray[y * width + x] = 90;
        rgb.fill(140, (y * width + x) * 3, (y * width + x) * 3 + 3);
      }
  for (const w of words) {
    const ink = /\d/.test(w.text) && !/[a-z]/i.test(w.text) ? [0, 130, 60] : [20, 20, 20];
    for (let y = w.box.y0 + 4; y < w.box.y1 - 4; y++)
      for (let x = w.box.x0 + 2; x < w.box.x1 - 2; x += 2) {
        const p = y * width + x;
        gray[p] = 40;
        rgb.set(ink, p * 3);
      }
  }
  return { width, height, ocrPng: Buffer.alloc(0), gray, rgb, angle: 0, scale: 1, letterHeight: H };
}

/** Words of one row at a height: each [text, x], about 26 px a character. */
function row(y: number, words: [string, number][]): OcrWord[] {
  return words.map(([text, x]) => ({ text, confidence: 95, box: { x0: x, y0: y, x1: x + text.length * 26, y1: y + H }, chars: [] }));
}

/** The far-right X/C column read again: the value box's row read as the test says. */
function rereadingAs(text: (box: OcrBox) => string | null): { reread: Reread; many: RereadMany; boxes: OcrBox[] } {
  const boxes: OcrBox[] = [];
  const one: Reread = async (box) => {
    boxes.push(box);
    const t = text(box);
    return t === null ? null : { text: t, confidence: 90 };
  };
  return { reread: one, many: async (bs) => Promise.all(bs.map((b) => one(b, ''))), boxes };
}

const ledgerRows = (x: number, y: number): OcrWord[] => [
  ...row(y, [['2026', x]]),
  ...row(y + 80, [
    ['FF', x],
    ['2026', x + 90],
    ['2222', x + 230],
    ['6666', x + 370],
    ['25', x + 960],
  ]),
  ...row(y + 140, [
    ['(Any', x + 40],
    ['2', x + 160],
    ['Suits)', x + 200],
  ]),
  ...row(y + 220, [
    ['NNN', x],
    ['2026', x + 110],
    ['SSS', x + 250],
    ['2026', x + 360],
    ['(Any', x + 520],
    ['2', x + 640],
    ['Suits)', x + 680],
    ['30', x + 960],
  ]),
];

/** The rule under each panel's heading. */
const ledgerRules = (x: number, y: number) => [{ x0: x, x1: x + 1010, y: y + 36 }];

describe('rows and their parts, wherever they stand', () => {
  it('takes a number alone at the far right as the value and reads its X or C again, the note beside kept a note', async () => {
    const { reread, many, boxes } = rereadingAs(() => 'X 25');
    const r = await readRows(page(1100, 500, ledgerRows(40, 40), ledgerRules(40, 40)), ledgerRows(40, 40), reread, many);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines).toHaveLength(2);
    expect(lines[0].groups.map((g) => g.text)).toEqual(['FF', '2026', '2222', '6666']);
    expect(lines[0].value).toBe(25);
    expect(lines[0].concealed).toBe(false);
    expect(lines[0].note).toBe('(Any 2 Suits)');
    expect(lines[1].groups.map((g) => g.text)).toEqual(['NNN', '2026', 'SSS', '2026']);
    expect(lines[1].note).toBe('(Any 2 Suits)');
    // the second line's box read again lies right of the note beside its groups
    expect(boxes).toHaveLength(2);
    expect(boxes[1].x0).toBeGreaterThan(40 + 680 + 6 * 26);
    expect(lines[0].unsure).toBeUndefined();
  });

  it('marks a line whose X or C could not be read again, never settling a guess', async () => {
    const { reread, many } = rereadingAs(() => null);
    const r = await readRows(page(1100, 500, ledgerRows(40, 40), ledgerRules(40, 40)), ledgerRows(40, 40), reread, many);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.unsure).toBeDefined();
    expect(lines[0].groups.map((g) => g.text)).toEqual(['FF', '2026', '2222', '6666']);
  });

  it('does not take a group for a value: a number right after the groups stays a group', async () => {
    const words = row(100, [
      ['222', 40],
      ['000', 150],
      ['222', 260],
      ['666', 370],
      ['FF', 480],
    ]);
    const r = await readRows(page(1100, 300, words), words);
    const [line] = r.sections.flatMap((s) => s.lines);
    expect(line.groups.map((g) => g.text)).toEqual(['222', '000', '222', '666', 'FF']);
    expect(line.value).toBeNull();
    expect(line.unsure).toBeDefined();
  });

  it('keeps a number with no rule under it as a line to check, not a heading', async () => {
    const { reread, many } = rereadingAs(() => 'X 25');
    const r = await readRows(page(1100, 500, ledgerRows(40, 40)), ledgerRows(40, 40), reread, many);
    expect(r.sections.map((s) => s.title)).toEqual(['']);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines).toHaveLength(3);
    expect(lines[0].unsure).toBeDefined();
  });

  it('reads two panels side by side, each with its far-right column of values, as two columns in order', async () => {
    const { reread, many } = rereadingAs(() => 'X 25');
    const words = [...ledgerRows(40, 40), ...ledgerRows(1200, 40)];
    const r = await readRows(page(2300, 500, words, [...ledgerRules(40, 40), ...ledgerRules(1200, 40)]), words, reread, many);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines.map((l) => l.groups.map((g) => g.text).join(' '))).toEqual(['FF 2026 2222 6666', 'NNN 2026 SSS 2026', 'FF 2026 2222 6666', 'NNN 2026 SSS 2026']);
    expect(lines.every((l) => l.value === 25 || l.value === 30)).toBe(true);
  });

  it('takes a number over a rule for a heading, and keeps a row that reads as nothing as a line to check, never a heading', async () => {
    const { reread, many } = rereadingAs(() => 'X 25');
    const words = [
      ...ledgerRows(40, 40),
      // a smudge the OCR read as letters, unsure of them
      ...row(340, [['ay', 300]]).map((w) => ({ ...w, confidence: 30 })),
      ...row(420, [['2468', 40]]),
    ];
    const rules = [...ledgerRules(40, 40), { x0: 40, x1: 1050, y: 455 }];
    const r = await readRows(page(1100, 600, words, rules), words, reread, many);
    expect(r.sections.map((s) => s.title)).toEqual(['2026', '2468']);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines).toHaveLength(3);
    expect(lines[2].groups).toEqual([]);
    expect(lines[2].unsure).toBeDefined();
  });

  it('gives a value left on a row of its own (a leaning page) to the line above that has none', async () => {
    // the value is read again only where it is
    const { reread, many } = rereadingAs((box) => (box.y0 < 179 && box.y1 > 179 ? 'C 50' : null));
    const words = [
      ...row(40, [['2026', 40]]),
      ...row(120, [
        ['2026', 40],
        ['NNN', 180],
        ['2026', 300],
        ['FFF', 440],
      ]),
      // the value sits lower than its groups, nearer the note's row
      ...row(165, [['50', 1000]]),
      ...row(200, [
        ['(Any', 80],
        ['2', 200],
        ['Suits)', 240],
      ]),
    ];
    const r = await readRows(page(1100, 300, words, ledgerRules(40, 40)), words, reread, many);
    const lines = r.sections.flatMap((s) => s.lines);
    expect(lines).toHaveLength(1);
    expect(lines[0].value).toBe(50);
    expect(lines[0].concealed).toBe(true);
    expect(lines[0].note).toBe('(Any 2 Suits)');
  });
});
