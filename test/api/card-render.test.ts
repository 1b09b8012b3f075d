import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { drawCard, drawingMs } from '../../api/shared/card-drawing.js';
import { MAX_PNG_PIXELS } from '../../io/card-image.js';
import { drawable, INK, layoutCard, pictureFileName, PRINT_COLOURS, textWidth, type Box, type CardLayout, type PictureLine } from '../../api/shared/card-picture.js';
import { asPrinted, printedFromText, type Colour } from '../../engine/mah-jongg/printed-card.js';
import { captureOutput, run } from './capture.js';

/** `tilemate card render`: a card drawn as printed, its boxes the photo import's ground truth. */

const PRACTICE = readFileSync(new URL('../../cards/practice-2026.card', import.meta.url), 'utf8');
const practice = printedFromText(PRACTICE);
const layout = layoutCard(practice);
const lineById = (l: CardLayout, id: string): PictureLine => l.lines.find((x) => x.id === id)!;

let out = '',
  err = '';
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
const dir = mkdtempSync(join(tmpdir(), 'tilemate-render-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The SVG's text elements, in order. */
function svgTexts(svg: string): { x: number; y: number; bold: boolean; fill: string; text: string }[] {
  const unescaped = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" font-size="[\d.]+"( font-weight="bold")? fill="(#[0-9a-f]{6})">([^<]*)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    bold: m[3] !== undefined,
    fill: m[4],
    text: unescaped(m[5]),
  }));
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (inner: Box, outer: Box, slack = 0.01) =>
  inner.x >= outer.x - slack && inner.y >= outer.y - slack && inner.x + inner.w <= outer.x + outer.w + slack && inner.y + inner.h <= outer.y + outer.h + slack;

describe('card picture - the layout', () => {
  it('the practice card: every line once, ids as the analyzer names them, in two columns', () => {
    expect(layout.lines.length).toBe(51);
    expect(layout.headings.map((h) => h.text)).toEqual(practice.sections.map((s) => s.title));
    expect(layout.lines.map((l) => l.id)).toContain('Consecutive Run #7');
    expect(new Set(layout.lines.map((l) => l.box.x)).size).toBe(2);
    expect(layout.pages).toBe(1);
    const oneColumn = layoutCard(practice, { columns: 1 });
    expect(new Set(oneColumn.lines.map((l) => l.box.x)).size).toBe(1);
    expect(oneColumn.height).toBeGreaterThan(layout.height * 1.6);
  });

  it('each line holds its groups as printed, a note, and X or C with its value', () => {
    const l = lineById(layout, '2026 #1'); // FF 2026a 2222b 6666b ; x 25
    expect(l.groups.map((g) => [g.text, g.colour, g.fill])).toEqual([
      ['FF', null, INK],
      ['2026', 'green', PRINT_COLOURS.green],
      ['2222', 'red', PRINT_COLOURS.red],
      ['6666', 'red', PRINT_COLOURS.red],
    ]);
    expect(l.note?.text).toBe('Any 2 Suits, These Nos. Only');
    expect(l.value.text).toBe('X 25');
    const wd = lineById(layout, 'Winds and Dragons #6'); // NN EE WW SS RRR|GGG|000 FFF ; c 40: any dragon, drawn DDD without a colour
    expect(wd.groups.map((g) => [g.text, g.colour])).toEqual([
      ['NN', null],
      ['EE', null],
      ['WW', null],
      ['SS', null],
      ['DDD', null],
      ['FFF', null],
    ]);
    expect(wd.note?.text).toBe('Any Dragon');
    expect(wd.value.text).toBe('C 40');
    const blue = lineById(layout, '2468 #3'); // FF 222a 444b 666c 888a
    expect(blue.groups.map((g) => g.colour)).toEqual([null, 'green', 'red', 'blue', 'green']);
  });

  it('boxes: inside the page and their line, none overlapping, values right-aligned in their column, groups left to right with clear gaps', () => {
    const all: Box[] = [...layout.title.rows, ...layout.headings.map((h) => h.band)];
    for (const l of layout.lines) {
      const parts: Box[] = [...l.groups, ...(l.note?.rows ?? []), l.value];
      for (const p of parts) expect(inside(p, l.box), l.id).toBe(true);
      expect(l.value.x + l.value.w).toBeCloseTo(l.box.x + l.box.w, 6);
      const row0 = l.groups.filter((g) => g.row === 0);
      for (let i = 1; i < row0.length; i++) expect(row0[i].x - (row0[i - 1].x + row0[i - 1].w), l.id).toBeGreaterThan(20);
      for (const g of l.groups) expect(g.h).toBeGreaterThan(0);
      all.push(...parts);
    }
    for (const b of all) expect(inside(b, { x: 0, y: 0, w: layout.width, h: layout.height })).toBe(true);
    const overlapping: string[] = [];
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) if (overlaps(all[i], all[j])) overlapping.push(`${i} ${j}`);
    expect(overlapping).toEqual([]);
  });

  it('group text is bold and large enough to read in a phone photo: 30 px at 1700 px, in proportion at other widths', () => {
    const g = layout.lines[0].groups[0];
    expect(g.bold).toBe(true);
    expect(g.size).toBe(30);
    expect(layoutCard(practice, { width: 850 }).lines[0].groups[0].size).toBe(15);
  });

  it('a line too long for one row starts each way of making it (OR) on a row of its own', () => {
    const add = lineById(layout, 'Addition #1'); // FF 1111a + 5555b = 6666c or FF 2222a ... or FF 3333a ...
    const rows = [0, 1, 2].map((r) =>
      add.groups
        .filter((g) => g.row === r)
        .map((g) => g.text)
        .join(' '),
    );
    expect(rows).toEqual(['FF 1111 + 5555 = 6666', 'OR FF 2222 + 5555 = 7777', 'OR FF 3333 + 5555 = 8888']);
    expect(add.groups.filter((g) => g.kind === 'decoration').every((g) => g.fill === INK && g.colour === null)).toBe(true);
  });

  it('measured widths are DejaVu Sans\'s: digits 0.696 em in bold; text outside the font is drawn as "?"', () => {
    expect(textWidth('2222', 100, true)).toBeCloseTo(((4 * 1425) / 2048) * 100, 6);
    expect(drawable(' Any\t3  Suits ')).toBe('Any 3 Suits');
    expect(drawable('Crak 中')).toBe('Crak ?');
    expect(drawable('Café')).toBe('Café');
  });

  it('on pages, a section is never split from its first line, and a section carried on repeats its heading', () => {
    const long = `card: Long\n[Evens]\n${'22a 444a 6666a 888a FF ; x 25\n'.repeat(60)}[Odds]\n${'11a 333a 5555a 777a 99a ; x 30\n'.repeat(3)}`;
    const paged = layoutCard(printedFromText(long), { pageHeight: 2200 });
    expect(paged.pages).toBeGreaterThan(1);
    for (const h of paged.headings) {
      const first = paged.lines.find((l) => l.sectionIndex === h.sectionIndex && l.page === h.page && l.box.x === h.band.x && l.box.y >= h.band.y);
      expect(first, h.text).toBeDefined();
      expect(first!.box.y - (h.band.y + h.band.h)).toBeLessThan(10);
    }
    expect(paged.headings.some((h) => h.continued && h.text === 'Evens (continued)')).toBe(true);
    for (const l of paged.lines) expect(l.box.y + l.box.h).toBeLessThanOrEqual(2200);
  });

  it('one page in two columns: a section longer than half the card is carried on into the second column', () => {
    const one = layoutCard(printedFromText(`card: One\n[Evens]\n${'22a 444a 6666a 888a FF ; x 25\n'.repeat(40)}`));
    expect(one.pages).toBe(1);
    expect(one.headings.map((h) => [h.text, h.continued])).toEqual([
      ['Evens', false],
      ['Evens (continued)', true],
    ]);
    const [left, right] = [one.lines.filter((l) => l.box.x === one.lines[0].box.x).length, one.lines.filter((l) => l.box.x !== one.lines[0].box.x).length];
    expect(left + right).toBe(40);
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1);
  });

  it('bad options are refused in plain words', () => {
    expect(() => layoutCard(practice, { columns: 3 as 2 })).toThrow(/1 or 2 columns, not 3/);
    expect(() => layoutCard(practice, { width: 100 })).toThrow(/from 600 to 4000 pixels wide/);
  });

  it("a picture's file name is made from the card's name", () => {
    expect(pictureFileName('Tilemate Practice Card 2026', 'png')).toBe('tilemate-practice-card-2026.png');
    expect(pictureFileName('  Café  &  Co.  ', 'pdf')).toBe('cafe-co.pdf');
    expect(pictureFileName('!!!', 'svg')).toBe('card.svg');
  });
});

describe('card picture - SVG', () => {
  const svg = new TextDecoder().decode(drawCard(PRACTICE, 'svg').bytes);
  const texts = svgTexts(svg);

  it("holds every line's groups in their colours, its note and its X or C value, in order", () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1700"')).toBe(true);
    expect(svg).toContain('font-family="\'DejaVu Sans\', sans-serif"');
    expect(texts[0].text).toBe('Tilemate Practice Card 2026');
    let at = 0;
    const colourOf = (c: Colour | null) => (c === null ? INK : PRINT_COLOURS[c]);
    for (const [si, section] of practice.sections.entries()) {
      for (const [li, line] of section.lines.entries()) {
        const printed = asPrinted(line);
        const expected = [
          ...printed.groups.map((g) => ({ text: g.text.replace(/\|/g, '/'), fill: /^[+=x×-]$|^OR$/.test(g.text) ? INK : colourOf(g.colour) })),
          ...(printed.note === '' ? [] : [{ text: printed.note, fill: '#3a3a3a' }]),
          { text: `${printed.concealed ? 'C' : 'X'} ${printed.value}`, fill: INK },
        ];
        const i = texts.findIndex((t, k) => k >= at && t.text === expected[0].text);
        const got = texts.slice(i, i + expected.length).map((t) => ({ text: t.text, fill: t.fill }));
        expect(got, `${section.title} line ${li + 1} (section ${si})`).toEqual(expected);
        at = i + expected.length;
      }
    }
    expect(texts.filter((t) => t.fill === PRINT_COLOURS.blue).length).toBeGreaterThan(20);
  });

  it('never draws uncoloured groups in blue, and draws them bold', () => {
    const uncoloured = layout.lines.flatMap((l) => l.groups.filter((g) => g.colour === null));
    expect(uncoloured.length).toBeGreaterThan(50);
    for (const g of uncoloured) expect(g.fill).toBe(INK);
    expect(texts.filter((t) => ['NEWS', 'FF', 'FFFF'].includes(t.text)).every((t) => t.bold && t.fill === INK)).toBe(true);
  });

  it("escapes what the card's own words could make of the markup", () => {
    const tricky = drawCard('card: <script>&"x"\n[A & B]\n22a 444a 6666a 888a FF ; x 25 // note: Any 1 Suit <b>\n', 'svg');
    const text = new TextDecoder().decode(tricky.bytes);
    expect(text).not.toContain('<script>');
    expect(text).not.toContain('<b>');
    expect(svgTexts(text).map((t) => t.text)).toEqual(expect.arrayContaining(['<script>&"x"', 'A & B', 'Any 1 Suit <b>']));
  });
});

describe('card picture - PNG', () => {
  const drawn = drawCard(PRACTICE, 'png');
  const png = PNG.sync.read(Buffer.from(drawn.bytes));
  const px = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return [png.data[i], png.data[i + 1], png.data[i + 2]] as const;
  };
  type Hue = Colour | 'ink' | null;
  /** A pixel's colour as a reader of the card would name it; null for paper, the bands and the rules. */
  const hue = ([r, g, b]: readonly [number, number, number]): Hue => {
    if (Math.min(r, g, b) >= 200) return null;
    if (g > r + 40 && g > b + 20) return 'green';
    if (r > g + 60 && r > b + 60) return 'red';
    if (b > r + 60 && b > g + 40) return 'blue';
    return Math.max(r, g, b) - Math.min(r, g, b) < 30 ? 'ink' : null;
  };
  const hues = (box: Box) => {
    const counts = new Map<Hue, number>();
    for (let y = Math.floor(box.y); y < Math.ceil(box.y + box.h); y++)
      for (let x = Math.floor(box.x); x < Math.ceil(box.x + box.w); x++) {
        const h = hue(px(x, y));
        if (h !== null) counts.set(h, (counts.get(h) ?? 0) + 1);
      }
    return counts;
  };

  it("is the layout's size, on white", () => {
    expect([png.width, png.height]).toEqual([layout.width, layout.height]);
    expect([drawn.width, drawn.height]).toEqual([layout.width, layout.height]);
    expect(px(2, 2)).toEqual([255, 255, 255]);
  });

  it("each group's box is inked in its colour and no other: green, red, blue, or near-black", () => {
    let seen = 0;
    for (const l of layout.lines) {
      for (const g of l.groups) {
        const counts = hues(g);
        const want: Hue = g.colour ?? 'ink';
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        expect(counts.get(want) ?? 0, `${l.id} ${g.text}`).toBeGreaterThan(total * 0.97);
        expect(total, `${l.id} ${g.text}`).toBeGreaterThan(20);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(250);
  });

  it('every mark in a line lies in one of its boxes: the boxes are where the text is drawn', () => {
    const stray: string[] = [];
    let marks = 0;
    for (const l of layout.lines) {
      const boxes = [...l.groups, ...(l.note?.rows ?? []), l.value].map((b) => ({ x: b.x - 2, y: b.y - 2, w: b.w + 4, h: b.h + 4 }));
      for (let y = Math.ceil(l.box.y); y < Math.floor(l.box.y + l.box.h) - 1; y++) {
        for (let x = Math.ceil(l.box.x); x < Math.floor(l.box.x + l.box.w); x++) {
          if (hue(px(x, y)) === null) continue;
          marks++;
          if (!boxes.some((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)) stray.push(`${l.id}: ${x},${y}`);
        }
      }
    }
    expect(marks).toBeGreaterThan(100_000);
    expect(stray.slice(0, 10)).toEqual([]);
  });

  it("a group's ink fills its box's width (no kerning, the font measured)", () => {
    for (const id of ['2026 #1', 'Winds and Dragons #1', '13579 #4']) {
      for (const g of lineById(layout, id).groups) {
        let left = Infinity,
          right = -Infinity;
        for (let y = Math.floor(g.y); y < Math.ceil(g.y + g.h); y++)
          for (let x = Math.floor(g.x) - 10; x < Math.ceil(g.x + g.w) + 10; x++) {
            if (hue(px(x, y)) !== null) {
              left = Math.min(left, x);
              right = Math.max(right, x);
            }
          }
        // a glyph's side bearings leave a few pixels between the ink and the advance width
        expect(left - g.x, `${id} ${g.text}`).toBeGreaterThanOrEqual(-1);
        expect(left - g.x, `${id} ${g.text}`).toBeLessThan(5);
        expect(g.x + g.w - right, `${id} ${g.text}`).toBeGreaterThanOrEqual(-1);
        expect(g.x + g.w - right, `${id} ${g.text}`).toBeLessThan(5);
      }
    }
  });

  it("with a budget (the server's), a drawing estimated over it is refused before anything is drawn", () => {
    const text = `card: Long\n[Evens]\n${'22a 444a 6666a 888a FF ; x 25\n'.repeat(150)}`;
    const l = layoutCard(printedFromText(text));
    expect(l.width * l.height).toBeLessThan(MAX_PNG_PIXELS);
    expect(drawingMs(l, 'png')).toBeGreaterThan(1000);
    expect(() => drawCard(text, 'png', {}, 1000)).toThrow(/too long to draw as one picture \(150 lines\); draw it as a PDF/);
    expect(drawingMs(layout, 'png')).toBeLessThan(1000); // the practice card is drawn
    expect(drawCard(text, 'pdf', {}, 1000).pages).toBeGreaterThan(2);
    expect(() => drawCard(text, 'pdf', {}, 50)).toThrow(/too long for the server to draw in one request \(150 lines\); draw it with tilemate card render/);
  });

  it('a card too long for one picture is refused, and drawn as a PDF over pages', () => {
    const long = `card: Long\n[Evens]\n${'22a 444a 6666a 888a FF ; x 25\n'.repeat(300)}`;
    expect(() => drawCard(long, 'png', { columns: 1 })).toThrow(/too long to draw as one picture \(300 lines\); draw it as a PDF/);
    const pdf = drawCard(long, 'pdf', { columns: 1 });
    expect(pdf.pages).toBeGreaterThan(10);
  });
});

describe('card picture - PDF', () => {
  it('is a PDF of letter pages with DejaVu Sans embedded, as many pages as its layout', () => {
    const drawn = drawCard(PRACTICE, 'pdf');
    const text = Buffer.from(drawn.bytes).toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(drawn.pages).toBe(2);
    expect(text.match(/\/Type \/Page\b(?!s)/g)?.length).toBe(drawn.pages);
    expect(text).toMatch(/\/MediaBox \[0 0 612 792\]/);
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold/);
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(drawn.fileName).toBe('tilemate-practice-card-2026.pdf');
    expect(drawn.contentType).toBe('application/pdf');
  });
});

describe('tilemate card render', () => {
  it('writes the practice card as PNG, PDF and SVG and says what it wrote', async () => {
    for (const ext of ['png', 'pdf', 'svg']) {
      const file = join(dir, `practice.${ext}`);
      expect(await run('card', 'render', '--out', file), err).toBe(0);
      expect(out).toMatch(new RegExp(`^Wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${ext.toUpperCase()}, .*\\): Tilemate Practice Card 2026, 51 lines\\.\\n$`));
      out = '';
      const bytes = readFileSync(file);
      if (ext === 'png') expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      if (ext === 'pdf') expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      if (ext === 'svg') expect(bytes.toString()).toContain('Tilemate Practice Card 2026');
    }
  });

  it('draws another card, in one column and another width', async () => {
    const file = join(dir, 'garden.png');
    expect(await run('card', 'render', '--card', 'cards/garden-2026.card', '--out', file, '--columns', '1', '--width', '1000'), err).toBe(0);
    expect(out).toMatch(/\(PNG, 1000 by \d+ pixels\): Tilemate Garden Card 2026, 29 lines\.\n$/);
    const png = PNG.sync.read(readFileSync(file));
    expect(png.width).toBe(1000);
  });

  it('refuses a bad extension, bad columns and a bad width in plain words, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--out', join(dir, 'card.jpg')], /^error TM_BAD_INPUT: --out must name a \.png, \.pdf or \.svg file, and .*card\.jpg does not\.\n$/],
      [['--out', join(dir, 'card')], /--out must name a \.png, \.pdf or \.svg file/],
      [['--out', join(dir, 'c.svg'), '--columns', '3'], /^error TM_BAD_INPUT: --columns must be 1 or 2, not 3\.\n$/],
      [['--out', join(dir, 'c.svg'), '--width', 'wide'], /^error TM_BAD_INPUT: --width must be a whole number of pixels from 600 to 4000, not wide\.\n$/],
      [['--out', join(dir, 'c.pdf'), '--width', '1000'], /a PDF is always drawn on letter pages, so leave --width out\.\n$/],
    ];
    for (const [args, message] of cases) {
      err = '';
      expect(await run('card', 'render', ...args)).toBe(2);
      expect(err).toMatch(message);
    }
    expect(existsSync(join(dir, 'card.jpg')) || existsSync(join(dir, 'c.svg')) || existsSync(join(dir, 'c.pdf'))).toBe(false);
  });

  it('a card that does not read is refused with its line, as analyze refuses it', async () => {
    const bad = join(dir, 'bad.card');
    writeFileSync(bad, 'card: Mine\n[Evens]\n22a 444a ; x 25\n');
    expect(await run('card', 'render', '--card', bad, '--out', join(dir, 'bad.svg'))).toBe(2);
    expect(err).toMatch(/^error TM_CARD_SYNTAX: card line 3: /);
    expect(existsSync(join(dir, 'bad.svg'))).toBe(false);
  });
});
