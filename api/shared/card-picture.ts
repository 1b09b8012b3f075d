import { TilemateError } from '../../engine/errors.js';
import { asPrinted, PRINTED_LIMITS, type Colour, type PrintedCard, type PrintedLine } from '../../engine/mah-jongg/printed-card.js';

/**
 * A card drawn as a card prints it (issue 44, `tilemate card render`): the title at the top,
 * each section a heading band, each line its groups left to right in its suits' colours (one
 * colour, one suit; winds, flowers, Soap and the decoration in near-black, never blue), its note
 * in smaller type and "X 25" or "C 50" at the right, in one or two columns like the printed
 * card's panels.
 *
 * The layout is plain data and comes first: every piece of text with its box, so the photo
 * import knows where each group, note and value was drawn (its ground truth), and every
 * renderer (this file's SVG; PNG and PDF in io/card-image.ts) draws the same boxes. Text is
 * measured with DejaVu Sans's own advance widths (below) and drawn without kerning, so a box is
 * the drawn text's width exactly wherever that font is used (resvg and the PDF embed it).
 *
 * No node:* imports and no I/O: a page could lay a card out and draw it in the browser.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One row of text as drawn: its box (the ink's extent, approximately), where it starts and its baseline. */
export interface PictureText extends Box {
  text: string;
  /** Font size (px). */
  size: number;
  bold: boolean;
  /** The baseline's y; the text starts at x. */
  baseline: number;
  /** The ink colour (#rrggbb). */
  fill: string;
}

/** Text that may wrap onto several rows: the box holds them all. */
export interface PictureBlock extends Box {
  text: string;
  rows: PictureText[];
}

export interface PictureGroup extends PictureText {
  /** A group of tiles (`FF`, `2026`, `1111/9999`), the card's decoration between groups (`+`, `=`), or the `OR` between two ways of making the line. */
  kind: 'tiles' | 'decoration' | 'or';
  /** Its suit colour; null for winds, flowers, Soap, decoration and OR. */
  colour: Colour | null;
  /** The row of the line it is drawn on (a long line wraps), from 0. */
  row: number;
}

export interface PictureLine {
  /** The section's title, its place among the sections (from 0), the line's place in it (from 0). */
  section: string;
  sectionIndex: number;
  index: number;
  /** The line's id as the analyzer names it (`2468 #3`). */
  id: string;
  page: number;
  /** The line's whole band, padding included: from one rule between lines to the next. */
  box: Box;
  /** The line as drawn (asPrinted: its note filled in, any wind or dragon as one group). */
  printed: PrintedLine;
  groups: PictureGroup[];
  /** The note; null when the line has none. */
  note: PictureBlock | null;
  /** "X 25" or "C 50", right-aligned. */
  value: PictureText;
}

export interface PictureHeading extends PictureText {
  section: string;
  sectionIndex: number;
  page: number;
  /** The grey band behind the heading. */
  band: Box;
  /** A section carried on into the next column or page repeats its heading, marked so here. */
  continued: boolean;
}

export interface CardLayout {
  name: string;
  /** Page size (px); a layout without pages is one page as tall as the card needs. */
  width: number;
  height: number;
  pages: number;
  columns: 1 | 2;
  /** On page 0. */
  title: PictureBlock;
  headings: PictureHeading[];
  lines: PictureLine[];
}

export interface PictureOptions {
  /** 1, or 2 side by side like the printed card's panels (default 2). */
  columns?: 1 | 2;
  /** Page width in px (default 1700: the group text is 30 px, a letter page at 200 dpi). */
  width?: number;
  /** Pages of this height (px), a section never split from its first line; default: one page as tall as needed. */
  pageHeight?: number;
}

export const PICTURE_DEFAULTS = { columns: 2, width: 1700 } as const;
/** Widths a picture may be drawn at (px). */
export const PICTURE_WIDTHS = { min: 600, max: 4000 } as const;

/** Print colours: a green, a red and a blue far apart from one another and from the near-black ink. */
export const PRINT_COLOURS: Readonly<Record<Colour, string>> = { green: '#00843d', red: '#d2232a', blue: '#1f4fd1' };
/** Everything without a suit colour: winds, flowers, Soap, decoration, the value, the title. */
export const INK = '#161616';
const NOTE_INK = '#3a3a3a';
const BAND = '#e6e6e6';
const RULE = '#cfcfcf';
export const PAPER = '#ffffff';
export const FONT_FAMILY = "'DejaVu Sans', sans-serif";

// ------------------------------------------------------------------ measuring text

/*
 * DejaVu Sans and DejaVu Sans Bold (the font the pictures embed, npm dejavu-fonts-ttf 2.37)
 * advance widths in font units (2048 to the em), read from the font files with fontkit: code
 * points 32-126, then 160-255, then a few typographic marks. Any other character is drawn as
 * "?" so that every box is exact.
 */
const UNITS = 2048;
const REGULAR = [
  '651,821,942,1716,1303,1946,1597,563,799,799,1024,1716,651,739,651,690,1303,1303,1303,1303,1303,1303,1303,1303,1303,1303,690,690,1716,1716,1716,1087,2048,1401,1405,1430,1577,1294,1178,1587,1540,604,604,1343,1141,1767,1532,1612,1235,1612,1423,1300,1251,1499,1401,2025,1403,1251,1403,799,690,799,1716,1024,1024,1255,1300,1126,1300,1260,721,1300,1298,569,569,1186,569,1995,1298,1253,1300,1300,842,1067,803,1298,1212,1675,1212,1212,1075,1303,690,1303,1716',
  '651,821,1303,1303,1303,1303,690,1024,1024,2048,965,1253,1716,739,2048,1024,1024,1716,821,821,1024,1303,1303,651,1024,821,965,1253,1985,1985,1985,1087,1401,1401,1401,1401,1401,1401,1995,1430,1294,1294,1294,1294,604,604,604,604,1587,1532,1612,1612,1612,1612,1612,1716,1612,1499,1499,1499,1499,1251,1239,1290,1255,1255,1255,1255,1255,1255,2011,1126,1260,1260,1260,1260,569,569,569,569,1253,1298,1253,1253,1253,1253,1253,1716,1253,1298,1298,1298,1298,1212,1300,1212',
  '1024,2048,651,651,1061,1061,2048,1208',
];
const BOLD = [
  '713,934,1067,1716,1425,2052,1786,627,936,936,1071,1716,778,850,778,748,1425,1425,1425,1425,1425,1425,1425,1425,1425,1425,819,819,1716,1716,1716,1188,2048,1585,1561,1503,1700,1399,1399,1681,1714,762,762,1587,1305,2038,1714,1741,1501,1741,1577,1475,1397,1663,1585,2259,1579,1483,1485,936,748,936,1716,1024,1024,1382,1466,1214,1466,1389,891,1466,1458,702,702,1362,702,2134,1458,1407,1466,1466,1010,1219,979,1458,1335,1892,1321,1335,1192,1458,748,1458,1716',
  '713,934,1425,1425,1303,1425,748,1024,1024,2048,1155,1323,1716,850,2048,1024,1024,1716,897,897,1024,1507,1303,778,1024,897,1155,1323,2120,2120,2120,1188,1585,1585,1585,1585,1585,1585,2222,1503,1399,1399,1399,1399,762,762,762,762,1716,1714,1741,1741,1741,1741,1741,1716,1741,1663,1663,1663,1663,1483,1511,1473,1382,1382,1382,1382,1382,1382,2146,1214,1389,1389,1389,1389,702,702,702,702,1407,1458,1407,1407,1407,1407,1407,1716,1407,1458,1458,1458,1458,1335,1466,1335',
  '1024,2048,778,778,1346,1346,2048,1309',
];
/** En dash, em dash, the curly quotes, ellipsis, bullet (the third list above). */
const MARKS = [0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026, 0x2022];

function widthTable(parts: string[]): Map<string, number> {
  const [ascii, latin, marks] = parts.map((p) => p.split(',').map(Number));
  const m = new Map<string, number>();
  ascii.forEach((w, i) => m.set(String.fromCharCode(32 + i), w / UNITS));
  latin.forEach((w, i) => m.set(String.fromCharCode(160 + i), w / UNITS));
  marks.forEach((w, i) => m.set(String.fromCharCode(MARKS[i]), w / UNITS));
  return m;
}
const WIDTHS = { regular: widthTable(REGULAR), bold: widthTable(BOLD) };

/** Text as it will be drawn: one line, composed characters, anything the width table lacks as "?". */
export function drawable(text: string): string {
  return [...text.normalize('NFC').replace(/\s+/g, ' ').trim()].map((c) => (WIDTHS.regular.has(c) && c !== '\u00a0' && c !== '\u00ad' ? c : c === '\u00a0' ? ' ' : '?')).join('');
}

/** The width (px) of drawable text in DejaVu Sans at `size`, without kerning. */
export function textWidth(text: string, size: number, bold: boolean): number {
  const table = bold ? WIDTHS.bold : WIDTHS.regular;
  let em = 0;
  for (const c of text) em += table.get(c) ?? table.get('?')!;
  return em * size;
}

// the ink above and below the baseline, in em: capitals and digits reach 0.742, accents and "/" a little further
const ASCENT = 0.76;
const DESCENT = 0.24;
/** A group's ink: digits and capitals, "/" dipping below the baseline. */
const GROUP_DESCENT = 0.1;

// ------------------------------------------------------------------ sizes (px at a page 1700 wide)

const BASE = {
  margin: 64,
  columnGap: 56,
  title: 44,
  titleGap: 30,
  heading: 28,
  band: 50,
  afterBand: 4,
  sectionGap: 26,
  group: 30,
  groupGap: 26,
  groupRow: 48,
  note: 21,
  noteRow: 30,
  value: 27,
  valueGap: 24,
  padTop: 10,
  padBottom: 10,
};

function wrap(text: string, size: number, bold: boolean, maxW: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const tryRow = row === '' ? word : `${row} ${word}`;
    if (textWidth(tryRow, size, bold) <= maxW) {
      row = tryRow;
      continue;
    }
    if (row !== '') rows.push(row);
    // a word wider than the room is cut where it fills it
    let rest = word;
    while (textWidth(rest, size, bold) > maxW && rest.length > 1) {
      let n = rest.length - 1;
      while (n > 1 && textWidth(rest.slice(0, n), size, bold) > maxW) n--;
      rows.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    row = rest;
  }
  if (row !== '') rows.push(row);
  return rows;
}

function textAt(text: string, x: number, baseline: number, size: number, bold: boolean, fill: string, descent = DESCENT): PictureText {
  return { text, x, y: baseline - ASCENT * size, w: textWidth(text, size, bold), h: (ASCENT + descent) * size, size, bold, baseline, fill };
}

function block(text: string, rows: PictureText[]): PictureBlock {
  const x = Math.min(...rows.map((r) => r.x)),
    y = Math.min(...rows.map((r) => r.y));
  const right = Math.max(...rows.map((r) => r.x + r.w)),
    bottom = Math.max(...rows.map((r) => r.y + r.h));
  return { text, x, y, w: right - x, h: bottom - y, rows };
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const valueText = (l: PrintedLine): string => [l.concealed === null ? '' : l.concealed ? 'C' : 'X', l.value === null ? '' : String(l.value)].filter((s) => s !== '').join(' ');

const kindOf = (text: string): PictureGroup['kind'] => (text.toUpperCase() === 'OR' ? 'or' : /^[+=x×-]$/.test(text) ? 'decoration' : 'tiles');

/** A line laid out at (0, 0) in a column `w` wide; placed later by moving its boxes. */
interface Piece {
  h: number;
  groups: PictureGroup[];
  note: PictureBlock | null;
  value: PictureText;
}

function layoutLine(line: PrintedLine, w: number, valueRoom: number, s: typeof BASE): Piece {
  const room = w - valueRoom;
  const groups = line.groups.map((g) => ({ text: drawable(g.text), colour: kindOf(g.text) === 'tiles' ? g.colour : null, kind: kindOf(g.text) })).filter((g) => g.text !== '');
  // a group wider than the room (a long list of choices) makes the line's type smaller, so no group is ever cut
  const widest = Math.max(0, ...groups.map((g) => textWidth(g.text, s.group, true)));
  const size = widest > room ? s.group * (room / widest) : s.group;
  const gap = s.groupGap * (size / s.group);
  const rowH = s.groupRow * Math.max(0.6, size / s.group);
  const baselineOf = (row: number) => s.padTop + row * rowH + rowH / 2 + 0.37 * size;
  const placed: PictureGroup[] = [];
  // a line too long for one row starts each other way of making it (OR) on a row of its own
  const oneRow = groups.reduce((sum, g) => sum + textWidth(g.text, size, true) + gap, -gap) <= room;
  let row = 0,
    x = 0;
  for (const g of groups) {
    const gw = textWidth(g.text, size, true);
    if (x > 0 && (x + gw > room || (!oneRow && g.kind === 'or'))) {
      row++;
      x = 0;
    }
    placed.push({ ...textAt(g.text, x, baselineOf(row), size, true, g.colour === null ? INK : PRINT_COLOURS[g.colour], GROUP_DESCENT), kind: g.kind, colour: g.colour, row });
    x += gw + gap;
  }
  let bottom = s.padTop + (row + 1) * rowH;
  const v = drawable(valueText(line));
  const value = textAt(v, w - textWidth(v, s.value, true), baselineOf(0), s.value, true, INK);

  // the note always under the groups, in smaller grey type: every line reads the same way, in a picture and in a photo
  let note: PictureBlock | null = null;
  const text = drawable(cut(line.note, PRINTED_LIMITS.noteChars));
  if (text !== '') {
    const rows = wrap(text, s.note, false, room).map((r, i) => textAt(r, 0, bottom + i * s.noteRow + s.noteRow * 0.72, s.note, false, NOTE_INK));
    note = block(text, rows);
    bottom += rows.length * s.noteRow;
  }
  return { h: bottom + s.padBottom, groups: placed, note, value };
}

const moveText = <T extends Box & { baseline?: number }>(t: T, dx: number, dy: number): T => ({ ...t, x: t.x + dx, y: t.y + dy, ...(t.baseline !== undefined && { baseline: t.baseline + dy }) });
const moveBlock = (b: PictureBlock, dx: number, dy: number): PictureBlock => ({ ...moveText(b, dx, dy), rows: b.rows.map((r) => moveText(r, dx, dy)) });

/**
 * A card laid out as printed: every group, note, value and heading with its box, on one page
 * as tall as the card needs or on pages of `pageHeight`. A section goes whole into the next
 * column when it does not fit where it would start, and one taller than a column is carried on
 * with its heading repeated, never leaving a heading without its first line; on one page in
 * two columns, the columns are as short as that allows.
 */
export function layoutCard(card: PrintedCard, opts: PictureOptions = {}): CardLayout {
  const columns = opts.columns ?? PICTURE_DEFAULTS.columns;
  const width = opts.width ?? PICTURE_DEFAULTS.width;
  if (columns !== 1 && columns !== 2) throw new TilemateError('TM_BAD_INPUT', `a card is drawn in 1 or 2 columns, not ${String(columns)}`);
  if (!Number.isInteger(width) || width < PICTURE_WIDTHS.min || width > PICTURE_WIDTHS.max) {
    throw new TilemateError('TM_BAD_INPUT', `a card picture is from ${PICTURE_WIDTHS.min} to ${PICTURE_WIDTHS.max} pixels wide, not ${String(width)}`);
  }
  const k = width / 1700;
  const s = Object.fromEntries(Object.entries(BASE).map(([key, v]) => [key, v * k])) as typeof BASE;
  const paged = opts.pageHeight !== undefined;
  const pageHeight = opts.pageHeight ?? Infinity;
  if (paged && !(pageHeight >= width / 2)) throw new TilemateError('TM_BAD_INPUT', 'a page must be at least half as tall as it is wide');

  const colW = (width - 2 * s.margin - (columns - 1) * s.columnGap) / columns;
  const colX = (c: number) => s.margin + c * (colW + s.columnGap);

  const titleRows = wrap(drawable(cut(card.name, PRINTED_LIMITS.nameChars)) || 'Card', s.title, true, width - 2 * s.margin).map((r, i) =>
    textAt(r, (width - textWidth(r, s.title, true)) / 2, s.margin + ASCENT * s.title + i * s.title * 1.2, s.title, true, INK),
  );
  const title = block(card.name, titleRows);
  const top0 = title.y + title.h + s.titleGap;

  // every line laid out once, in its column's width; the value's room is the card's widest value
  const printed = card.sections.map((sec) => sec.lines.map(asPrinted));
  const valueRoom = Math.max(textWidth('X 25', s.value, true), ...printed.flat().map((l) => textWidth(drawable(valueText(l)), s.value, true))) + s.valueGap;
  const pieces = printed.map((lines) => lines.map((l) => layoutLine(l, colW, valueRoom, s)));
  const headText = card.sections.map((sec) => drawable(cut(sec.title, PRINTED_LIMITS.nameChars)));
  const headH = s.band + s.afterBand;
  const sectionH = pieces.map((ps) => headH + ps.reduce((n, p) => n + p.h, 0) + s.sectionGap);

  /**
   * The sections poured into columns whose text ends at `bottom`, column after column, page
   * after page: a section that does not fit where it would start goes whole to the next
   * column when it fits in one, and one taller than a column is carried on with its heading
   * repeated, a heading never left without its first line.
   */
  const flow = (bottom: number, build = true) => {
    const headings: PictureHeading[] = [];
    const lines: PictureLine[] = [];
    let page = 0,
      col = 0,
      y = top0,
      used = false,
      bottomMost = top0;
    const freshColumn = bottom - (paged ? s.margin : top0);
    const nextColumn = () => {
      if (col + 1 < columns) col++;
      else {
        col = 0;
        page++;
      }
      y = page === 0 ? top0 : s.margin;
      used = false;
    };
    const heading = (i: number, continued: boolean) => {
      if (build) {
        const text = continued ? `${headText[i]} (continued)` : headText[i];
        const band: Box = { x: colX(col), y, w: colW, h: s.band };
        // a heading wider than its band is drawn smaller, never cut
        const room = colW - 32 * k;
        const size = Math.min(s.heading, (s.heading * room) / textWidth(text, s.heading, true));
        const t = textAt(text, colX(col) + 16 * k, y + s.band / 2 + 0.37 * size, size, true, INK);
        headings.push({ ...t, section: card.sections[i].title, sectionIndex: i, page, band, continued });
      }
      y += headH;
      used = true;
    };
    card.sections.forEach((sec, i) => {
      const whole = sectionH[i] - s.sectionGap;
      const first = headH + (pieces[i][0]?.h ?? 0);
      if (used && y + whole > bottom && (whole <= freshColumn || y + first > bottom)) nextColumn();
      heading(i, false);
      let n = 0;
      sec.lines.forEach((line, j) => {
        const p = pieces[i][j];
        if (j > 0 && y + p.h > bottom) {
          nextColumn();
          heading(i, true);
        }
        n = line.number ?? n + 1;
        const x = colX(col);
        if (build)
          lines.push({
            section: sec.title,
            sectionIndex: i,
            index: j,
            id: `${sec.title.trim()} #${n}`,
            page,
            box: { x, y, w: colW, h: p.h },
            printed: printed[i][j],
            groups: p.groups.map((g) => moveText(g, x, y)),
            note: p.note === null ? null : moveBlock(p.note, x, y),
            value: moveText(p.value, x, y),
          });
        y += p.h;
        bottomMost = Math.max(bottomMost, y);
      });
      bottomMost = Math.max(bottomMost, y);
      y += s.sectionGap;
    });
    return { headings, lines, pages: page + 1, bottomMost };
  };

  let placed: ReturnType<typeof flow>;
  if (paged) placed = flow(pageHeight - s.margin);
  else if (columns === 1) placed = flow(Infinity);
  else {
    // one page in two columns: the shortest columns that hold the whole card, found by halving
    let lo = top0,
      hi = top0 + sectionH.reduce((a, b) => a + b, 0);
    for (let step = 0; step < 40 && hi - lo > 1; step++) {
      const mid = (lo + hi) / 2;
      if (flow(mid, false).pages === 1) hi = mid;
      else lo = mid;
    }
    placed = flow(hi);
  }
  const height = paged ? pageHeight : Math.ceil(placed.bottomMost + s.margin);
  return { name: card.name, width, height, pages: placed.pages, columns, title, headings: placed.headings, lines: placed.lines };
}

// ------------------------------------------------------------------ SVG

const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number): string => String(Math.round(v * 100) / 100);

function svgText(t: PictureText): string {
  return `<text x="${n(t.x)}" y="${n(t.baseline)}" font-size="${n(t.size)}"${t.bold ? ' font-weight="bold"' : ''} fill="${t.fill}">${esc(t.text)}</text>`;
}

/**
 * One page of a layout as an SVG document, in DejaVu Sans (sans-serif where it is missing),
 * kerning off so the text fills exactly the boxes the layout measured.
 */
export function cardSvg(layout: CardLayout, page = 0): string {
  const { width: w, height: h } = layout;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(w)} ${n(h)}">`,
    `<title>${esc(drawable(layout.name))}</title>`,
    `<rect x="0" y="0" width="${n(w)}" height="${n(h)}" fill="${PAPER}"/>`,
    `<g font-family="${FONT_FAMILY}" style="font-kerning:none">`,
  ];
  for (const sh of pageShapes(layout, page)) {
    out.push('rect' in sh ? `<rect x="${n(sh.rect.x)}" y="${n(sh.rect.y)}" width="${n(sh.rect.w)}" height="${n(sh.rect.h)}" fill="${sh.fill}"/>` : svgText(sh.text));
  }
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}

/** What every renderer draws on a page: rectangles (bands, rules) and text, in order. */
export function pageShapes(layout: CardLayout, page: number): ({ rect: Box; fill: string } | { text: PictureText })[] {
  const shapes: ({ rect: Box; fill: string } | { text: PictureText })[] = [];
  if (page === 0) shapes.push(...layout.title.rows.map((text) => ({ text })));
  for (const hd of layout.headings.filter((x) => x.page === page)) shapes.push({ rect: hd.band, fill: BAND }, { text: hd });
  const onPage = layout.lines.filter((l) => l.page === page);
  onPage.forEach((l, i) => {
    const next = onPage[i + 1];
    if (next !== undefined && next.sectionIndex === l.sectionIndex && next.box.x === l.box.x) shapes.push({ rect: { x: l.box.x, y: l.box.y + l.box.h - 0.5, w: l.box.w, h: 1 }, fill: RULE });
    shapes.push(...l.groups.map((text) => ({ text })), ...(l.note?.rows.map((text) => ({ text })) ?? []), { text: l.value });
  });
  return shapes;
}

/** A file name for a card's picture, from the card's name: `tilemate-practice-card-2026.png`. */
export function pictureFileName(cardName: string, ext: 'png' | 'pdf' | 'svg'): string {
  const base = cardName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${base || 'card'}.${ext}`;
}
