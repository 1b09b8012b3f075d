import { createRequire } from 'node:module';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import sharp from 'sharp';
import { asPrinted, type Colour, type PrintedCard, type PrintedLine } from '../../engine/mah-jongg/printed-card.js';
import { allFontFiles, faceAttributes, measure, type Face } from './fonts.js';

/**
 * A family of card layouts unlike Tilemate's own drawing (issue 62, "Test material you did not
 * tune on"): any card drawn as other printers might set it, so the photo import can be measured
 * on pages it was not tuned on. Test material only, so it lives in lab/ (the product never
 * draws these; api/shared/card-picture.ts is Tilemate's own drawing, and the one the reader was
 * tuned on).
 *
 * A layout is a set of choices (LayoutChoices): the typeface (DejaVu serif, sans, condensed
 * sans or condensed serif, from the renderer's own font package), X/C and the value near the
 * groups or in columns of their own at the far right after a wide gap, the note in
 * parentheses on the same row or on a row below, headings in capitals over a rule or in a
 * shaded band, one panel or two, a line too long for its row wrapped onto a second row or set
 * smaller to fit, and a few lesser ones (the groups' weight, the three suit colours, rules
 * between lines, how "or" is printed). LAYOUTS names six, three to tune the reader on and three
 * held out (`use`): report the held-out ones separately, and never tune on them.
 *
 * Drawing is pure and deterministic: the same card and layout give the same SVG and the same
 * PNG bytes. Every piece of text is kept with its box (measured from the font files), so a
 * harness knows where each group, note, X/C and value was drawn, and `panels` gives each
 * panel's box for photos of one panel.
 */

export type Typeface = 'serif' | 'sans' | 'condensed' | 'serif-condensed';

export interface LayoutChoices {
  typeface: Typeface;
  /** near: "X 25" right after the line's groups (and its note); far: X/C and the value each in a column of its own at the panel's right, after a wide gap. */
  values: 'near' | 'far';
  /** beside: on the groups' row, after them; below: on a row of its own under them. */
  note: 'beside' | 'below';
  /** The note in parentheses (beside, always). */
  noteParens: boolean;
  noteItalic: boolean;
  /** ruled: the heading's words over a rule across the panel; band: in a shaded band. */
  headings: 'ruled' | 'band';
  headingCase: 'upper' | 'as-printed';
  panels: 1 | 2;
  /** A line too long for its row: wrapped onto a second row at a group (true), or set smaller to fit one row (false). */
  wrap: boolean;
  groupWeight: 'bold' | 'regular';
  palette: keyof typeof PALETTES;
  /** A thin rule between the lines of a section. */
  lineRules: boolean;
  /** How the word between two ways of making a line is printed. */
  orWord: 'OR' | 'or';
  /** The panel's width relative to the usual (narrower panels wrap more lines). */
  panelScale: number;
}

export interface CardStyle {
  name: string;
  /** tune: the reader may be tuned on it; held-out: measured only, never tuned on. */
  use: 'tune' | 'held-out';
  about: string;
  choices: LayoutChoices;
}

/** Suit colours: three greens, reds and blues a printer might use. */
export const PALETTES = {
  bright: { green: '#00843d', red: '#d2232a', blue: '#1f4fd1' },
  deep: { green: '#17673a', red: '#a81e28', blue: '#1b3a8f' },
  warm: { green: '#3a8a3f', red: '#cf3a1e', blue: '#2667b8' },
} as const satisfies Record<string, Record<Colour, string>>;

/** The family: six layouts, each choice's every value among the three to tune on and among the three held out. */
export const LAYOUTS: readonly CardStyle[] = [
  {
    name: 'ledger',
    use: 'tune',
    about: 'serif; X/C and value in far-right columns; note in parentheses beside the groups; capital headings over a rule; two panels; long lines wrapped',
    choices: {
      typeface: 'serif',
      values: 'far',
      note: 'beside',
      noteParens: true,
      noteItalic: false,
      headings: 'ruled',
      headingCase: 'upper',
      panels: 2,
      wrap: true,
      groupWeight: 'bold',
      palette: 'deep',
      lineRules: false,
      orWord: 'or',
      panelScale: 1,
    },
  },
  {
    name: 'pamphlet',
    use: 'tune',
    about: 'sans; "X 25" near the groups; note in parentheses on a row below; capital headings in a grey band; one panel; long lines set smaller',
    choices: {
      typeface: 'sans',
      values: 'near',
      note: 'below',
      noteParens: true,
      noteItalic: false,
      headings: 'band',
      headingCase: 'upper',
      panels: 1,
      wrap: false,
      groupWeight: 'bold',
      palette: 'bright',
      lineRules: true,
      orWord: 'OR',
      panelScale: 1,
    },
  },
  {
    name: 'column',
    use: 'tune',
    about: 'condensed sans; X/C and value in far-right columns; italic note below; capital headings over a rule; two panels; long lines wrapped',
    choices: {
      typeface: 'condensed',
      values: 'far',
      note: 'below',
      noteParens: false,
      noteItalic: true,
      headings: 'ruled',
      headingCase: 'upper',
      panels: 2,
      wrap: true,
      groupWeight: 'bold',
      palette: 'warm',
      lineRules: true,
      orWord: 'OR',
      panelScale: 0.9,
    },
  },
  {
    name: 'almanac',
    use: 'held-out',
    about: 'condensed serif, groups in regular weight; "X 25" near the groups; italic note in parentheses beside them; headings as printed in a tinted band; two panels; long lines wrapped',
    choices: {
      typeface: 'serif-condensed',
      values: 'near',
      note: 'beside',
      noteParens: true,
      noteItalic: true,
      headings: 'band',
      headingCase: 'as-printed',
      panels: 2,
      wrap: true,
      groupWeight: 'regular',
      palette: 'warm',
      lineRules: false,
      orWord: 'or',
      panelScale: 1,
    },
  },
  {
    name: 'broadside',
    use: 'held-out',
    about: 'sans; X/C and value in far-right columns after a wide gap; note in parentheses beside the groups; capital headings in a grey band; one panel; long lines set smaller',
    choices: {
      typeface: 'sans',
      values: 'far',
      note: 'beside',
      noteParens: true,
      noteItalic: false,
      headings: 'band',
      headingCase: 'upper',
      panels: 1,
      wrap: false,
      groupWeight: 'bold',
      palette: 'deep',
      lineRules: true,
      orWord: 'OR',
      panelScale: 1.25,
    },
  },
  {
    name: 'primer',
    use: 'held-out',
    about: 'serif; "X 25" near the groups; note in parentheses on a row below; capital headings over a rule; one narrow panel; long lines wrapped',
    choices: {
      typeface: 'serif',
      values: 'near',
      note: 'below',
      noteParens: true,
      noteItalic: false,
      headings: 'ruled',
      headingCase: 'upper',
      panels: 1,
      wrap: true,
      groupWeight: 'bold',
      palette: 'bright',
      lineRules: false,
      orWord: 'OR',
      panelScale: 0.8,
    },
  },
];

/** A layout by name. */
export function layoutNamed(name: string): CardStyle {
  const s = LAYOUTS.find((l) => l.name === name);
  if (s === undefined) throw new Error(`no card layout named ${name}; there are ${LAYOUTS.map((l) => l.name).join(', ')}`);
  return s;
}

// ------------------------------------------------------------------ drawn pieces

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface DrawnText extends Box {
  text: string;
  /** The text starts at x, on this baseline. */
  baseline: number;
  size: number;
  face: Face;
  fill: string;
}

export interface DrawnGroup extends DrawnText {
  kind: 'tiles' | 'decoration' | 'or';
  colour: Colour | null;
  /** The row of the line it is on (a long line wraps), from 0. */
  row: number;
}

export interface DrawnLine {
  /** The line's id as the analyzer names it (`2468 #3`). */
  id: string;
  section: string;
  panel: number;
  /** The line's band, from its top to the next line's. */
  box: Box;
  /** The line as drawn (asPrinted: its note filled in). */
  printed: PrintedLine;
  groups: DrawnGroup[];
  /** The note's rows (none when the line has no note). */
  note: DrawnText[];
  /** "X" or "C" in the far layouts; in the near layouts the value's text holds both. */
  xc: DrawnText | null;
  value: DrawnText;
}

export interface DrawnHeading extends DrawnText {
  section: string;
  panel: number;
  /** The band behind it, or the rule under it. */
  mark: Box;
}

export interface DrawnCard {
  style: CardStyle;
  name: string;
  width: number;
  height: number;
  title: DrawnText;
  headings: DrawnHeading[];
  lines: DrawnLine[];
  /** Each panel's box, a margin of paper around its headings and lines (the title is outside). */
  panels: Box[];
  /** Rectangles drawn under the text: bands, rules. */
  rects: { box: Box; fill: string }[];
}

export interface DrawOptions {
  /** One panel's width in px before the layout's panelScale (default 1000). */
  panelWidth?: number;
}

const INK = '#181818';
const NOTE_INK = '#333333';
const BAND = '#dedede';
const TINT = '#e9efe2';
const RULE = '#9a9a9a';
const LINE_RULE = '#d2d2d2';
const PAPER = '#fffdf8';

// the ink above and below the baseline, in em
const ASCENT = 0.76;
const DESCENT = 0.24;

function faceFor(t: Typeface, bold: boolean, italic: boolean): Face {
  return { family: t === 'serif' || t === 'serif-condensed' ? 'serif' : 'sans', condensed: t === 'condensed' || t === 'serif-condensed', bold, italic };
}

function textAt(text: string, x: number, baseline: number, size: number, face: Face, fill: string): DrawnText {
  return { text, x, baseline, size, face, fill, y: baseline - ASCENT * size, w: measure(text, size, face), h: (ASCENT + DESCENT) * size };
}

const moved = <T extends Box & { baseline: number }>(t: T, dx: number, dy: number): T => ({ ...t, x: t.x + dx, y: t.y + dy, baseline: t.baseline + dy });

const kindOf = (text: string): DrawnGroup['kind'] => (text.toUpperCase() === 'OR' ? 'or' : /^[+=x×-]$/.test(text) ? 'decoration' : 'tiles');

function wrapWords(text: string, size: number, face: Face, maxW: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const next = row === '' ? word : `${row} ${word}`;
    if (row !== '' && measure(next, size, face) > maxW) {
      rows.push(row);
      row = word;
    } else row = next;
  }
  if (row !== '') rows.push(row);
  return rows;
}

/** A line laid out at (0, 0) in a panel `w` wide. */
interface Piece {
  h: number;
  groups: DrawnGroup[];
  note: DrawnText[];
  xc: DrawnText | null;
  value: DrawnText;
}

/**
 * Draws a card in one of the family's layouts: pure, the same card and layout always the same
 * pieces. Sections go whole into the panels, the two panels as even as the sections allow.
 */
export function drawCard(card: PrintedCard, style: CardStyle, opts: DrawOptions = {}): DrawnCard {
  const c = style.choices;
  const panelW = Math.round((opts.panelWidth ?? 1000) * c.panelScale);
  const u = (opts.panelWidth ?? 1000) / 760;
  const sz = {
    margin: 56 * u,
    panelGap: 64 * u,
    title: 42 * u,
    heading: 25 * u,
    group: 29 * u,
    groupGap: 22 * u,
    row: 44 * u,
    note: 21 * u,
    noteRow: 29 * u,
    value: 25 * u,
    pad: 8 * u,
    sectionGap: 20 * u,
    band: 42 * u,
    wideGap: 80 * u,
  };
  const groupFace = faceFor(c.typeface, c.groupWeight === 'bold', false);
  const noteFace = faceFor(c.typeface, false, c.noteItalic);
  const boldFace = faceFor(c.typeface, true, false);
  const colours = PALETTES[c.palette];

  const printed = card.sections.map((s) => s.lines.map(asPrinted));
  const xcOf = (l: PrintedLine) => (l.concealed === null ? '' : l.concealed ? 'C' : 'X');
  const valueWords = (l: PrintedLine) => (l.value === null ? '' : String(l.value));
  // the far columns: X/C centred in its own column, the value right-aligned in the last
  const xcColW = measure('C', sz.value, boldFace) * 1.6;
  const valueColW = Math.max(...printed.flat().map((l) => measure(valueWords(l), sz.value, boldFace)), measure('55', sz.value, boldFace));
  const farRoom = xcColW + sz.groupGap * 1.5 + valueColW;
  const nearW = Math.max(...printed.flat().map((l) => measure(`${xcOf(l)} ${valueWords(l)}`, sz.value, boldFace)));
  const valueGap = sz.groupGap * 1.6;
  const limit = c.values === 'far' ? panelW - farRoom - sz.wideGap : panelW - nearW - valueGap;

  const layoutLine = (line: PrintedLine): Piece => {
    const items = line.groups
      .map((g) => {
        const kind = kindOf(g.text);
        return { text: kind === 'or' ? c.orWord : g.text, kind, colour: kind === 'tiles' ? g.colour : null };
      })
      .filter((g) => g.text !== '');
    const total = (size: number) => items.reduce((s, g) => s + measure(g.text, size, groupFace) + sz.groupGap * (size / sz.group), -sz.groupGap * (size / sz.group));
    // set smaller to fit one row when the layout does not wrap (never below half; past that it wraps anyway)
    const size = !c.wrap && total(sz.group) > limit ? Math.max(0.5 * sz.group, (sz.group * limit) / total(sz.group)) : sz.group;
    const gap = sz.groupGap * (size / sz.group);
    const indent = c.wrap ? 28 * u : 0;
    const baselineOf = (row: number) => sz.pad + row * sz.row + sz.row / 2 + 0.37 * sz.group;
    const groups: DrawnGroup[] = [];
    let row = 0,
      x = 0;
    for (const g of items) {
      const w = measure(g.text, size, groupFace);
      if (x > indent && x + w > limit) {
        row++;
        x = indent;
      }
      groups.push({ ...textAt(g.text, x, baselineOf(row), size, groupFace, g.colour === null ? INK : colours[g.colour]), kind: g.kind, colour: g.colour, row });
      x += w + gap;
    }
    let end = x - gap;
    let bottom = sz.pad + (row + 1) * sz.row;
    const note: DrawnText[] = [];
    const noteText = line.note.trim();
    if (noteText !== '') {
      const text = c.noteParens || c.note === 'beside' ? `(${noteText})` : noteText;
      const w = measure(text, sz.note, noteFace);
      // a note beside the groups may run into the wide gap before the far columns, never up to them
      const noteLimit = c.values === 'far' ? limit + 0.6 * sz.wideGap : limit;
      if (c.note === 'beside' && end + sz.groupGap * 1.5 + w <= noteLimit) {
        note.push(textAt(text, end + sz.groupGap * 1.5, baselineOf(row), sz.note, noteFace, NOTE_INK));
        end += sz.groupGap * 1.5 + w;
      } else if (c.note === 'beside') {
        // no room left on the row: on the next, after the indent, as a wrapped line's
        row++;
        note.push(textAt(text, indent, baselineOf(row), sz.note, noteFace, NOTE_INK));
        end = indent + w;
        bottom += sz.row;
      } else {
        for (const r of wrapWords(text, sz.note, noteFace, limit)) {
          note.push(textAt(r, 0, bottom + sz.noteRow * 0.72, sz.note, noteFace, NOTE_INK));
          bottom += sz.noteRow;
        }
      }
    }
    let xc: DrawnText | null = null,
      value: DrawnText;
    if (c.values === 'far') {
      const b = baselineOf(0);
      const xcText = xcOf(line);
      xc = textAt(xcText, panelW - valueColW - sz.groupGap * 1.5 - xcColW / 2 - measure(xcText, sz.value, boldFace) / 2, b, sz.value, boldFace, INK);
      const v = valueWords(line);
      value = textAt(v, panelW - measure(v, sz.value, boldFace), b, sz.value, boldFace, INK);
    } else {
      // after the groups (and a note beside them), on their last row
      const lastRow = c.note === 'beside' || note.length === 0 ? row : groups[groups.length - 1].row;
      const after = c.note === 'beside' || note.length === 0 ? end : Math.max(...groups.filter((g) => g.row === lastRow).map((g) => g.x + g.w));
      value = textAt([xcOf(line), valueWords(line)].filter((s) => s !== '').join(' '), after + valueGap, baselineOf(lastRow), sz.value, boldFace, INK);
    }
    return { h: bottom + sz.pad, groups, note, xc, value };
  };

  const pieces = printed.map((lines) => lines.map(layoutLine));
  const headingH = c.headings === 'band' ? sz.band + 6 * u : sz.heading * 1.9;
  const sectionH = pieces.map((ps) => headingH + ps.reduce((n, p) => n + p.h, 0) + sz.sectionGap);

  // the sections split between the panels where the taller panel is shortest
  let split = card.sections.length;
  if (c.panels === 2) {
    let best = Infinity;
    for (let k = 1; k < card.sections.length; k++) {
      const left = sectionH.slice(0, k).reduce((a, b) => a + b, 0),
        right = sectionH.slice(k).reduce((a, b) => a + b, 0);
      if (Math.max(left, right) < best) {
        best = Math.max(left, right);
        split = k;
      }
    }
  }

  const width = Math.round(2 * sz.margin + c.panels * panelW + (c.panels - 1) * sz.panelGap);
  const titleText = card.name;
  const titleW = measure(titleText, sz.title, boldFace);
  const title = textAt(titleText, (width - titleW) / 2, sz.margin + ASCENT * sz.title, sz.title, boldFace, INK);
  const top = title.y + title.h + sz.title * 0.8;

  const headings: DrawnHeading[] = [];
  const lines: DrawnLine[] = [];
  const rects: { box: Box; fill: string }[] = [];
  const panels: Box[] = [];
  let bottomMost = top;
  for (let p = 0; p < c.panels; p++) {
    const x0 = sz.margin + p * (panelW + sz.panelGap);
    let y = top;
    const from = p === 0 ? 0 : split,
      to = p === 0 ? split : card.sections.length;
    for (let i = from; i < to; i++) {
      const sec = card.sections[i];
      const text = c.headingCase === 'upper' ? sec.title.toUpperCase() : sec.title;
      let t: DrawnText, mark: Box;
      if (c.headings === 'band') {
        mark = { x: x0, y, w: panelW, h: sz.band };
        rects.push({ box: mark, fill: c.headingCase === 'upper' ? BAND : TINT });
        const tw = measure(text, sz.heading, boldFace);
        t = textAt(text, c.headingCase === 'upper' ? x0 + (panelW - tw) / 2 : x0 + 14 * u, y + sz.band / 2 + 0.37 * sz.heading, sz.heading, boldFace, INK);
      } else {
        t = textAt(text, x0, y + sz.heading * 1.1, sz.heading, boldFace, INK);
        mark = { x: x0, y: y + sz.heading * 1.45, w: panelW, h: Math.max(1.5, 2.2 * u) };
        rects.push({ box: mark, fill: RULE });
      }
      headings.push({ ...t, section: sec.title, panel: p, mark });
      y += headingH;
      let n = 0;
      sec.lines.forEach((line, j) => {
        const piece = pieces[i][j];
        n = line.number ?? n + 1;
        if (c.lineRules && j > 0) rects.push({ box: { x: x0, y: y - 0.5, w: panelW, h: Math.max(1, u) }, fill: LINE_RULE });
        lines.push({
          id: `${sec.title.trim()} #${n}`,
          section: sec.title,
          panel: p,
          box: { x: x0, y, w: panelW, h: piece.h },
          printed: printed[i][j],
          groups: piece.groups.map((g) => moved(g, x0, y)),
          note: piece.note.map((r) => moved(r, x0, y)),
          xc: piece.xc === null ? null : moved(piece.xc, x0, y),
          value: moved(piece.value, x0, y),
        });
        y += piece.h;
      });
      y += sz.sectionGap;
    }
    const m = sz.margin * 0.5;
    panels.push({ x: Math.round(x0 - m), y: Math.round(top - m), w: Math.round(panelW + 2 * m), h: Math.round(y - sz.sectionGap - top + 2 * m) });
    bottomMost = Math.max(bottomMost, y);
  }
  const height = Math.ceil(bottomMost - sz.sectionGap + sz.margin);
  return { style, name: card.name, width, height, title, headings, lines, panels, rects };
}

// ------------------------------------------------------------------ SVG and PNG

const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (v: number): string => String(Math.round(v * 100) / 100);

function svgText(t: DrawnText): string {
  return `<text x="${num(t.x)}" y="${num(t.baseline)}" font-size="${num(t.size)}" ${faceAttributes(t.face)} fill="${t.fill}">${esc(t.text)}</text>`;
}

/** The drawn card as an SVG document, kerning off so the text fills the boxes measured. */
export function drawnSvg(d: DrawnCard): string {
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${d.width}" height="${d.height}" viewBox="0 0 ${d.width} ${d.height}">`,
    `<rect x="0" y="0" width="${d.width}" height="${d.height}" fill="${PAPER}"/>`,
    ...d.rects.map((r) => `<rect x="${num(r.box.x)}" y="${num(r.box.y)}" width="${num(r.box.w)}" height="${num(r.box.h)}" fill="${r.fill}"/>`),
    '<g style="font-kerning:none">',
    svgText(d.title),
    ...d.headings.map(svgText),
    ...d.lines.flatMap((l) => [...l.groups, ...l.note, ...(l.xc === null ? [] : [l.xc]), l.value].filter((t) => t.text !== '').map(svgText)),
    '</g>',
    '</svg>',
    '',
  ];
  return out.join('\n');
}

const require = createRequire(import.meta.url);

/** The drawn card as a PNG of its own size, through resvg with the DejaVu faces only (no system font). */
export function drawnPng(d: DrawnCard): Buffer {
  const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const options: ResvgRenderOptions = {
    font: { fontFiles: allFontFiles(), loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    fitTo: { mode: 'original' },
    background: PAPER,
    logLevel: 'off',
  };
  return Buffer.from(new Resvg(drawnSvg(d), options).render().asPng());
}

/** Each panel cut out of the card's PNG (the title left out), as a photo of one panel would frame it. */
export async function panelPngs(d: DrawnCard, png: Buffer): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const p of d.panels) {
    const left = Math.max(0, p.x),
      top = Math.max(0, p.y);
    const width = Math.min(d.width, p.x + p.w) - left,
      height = Math.min(d.height, p.y + p.h) - top;
    out.push(await sharp(png).extract({ left, top, width, height }).png().toBuffer());
  }
  return out;
}
