import { groupsFromText, readNote, type Colour, type PrintedCard, type PrintedGroup, type PrintedLine, type PrintedSection } from '../engine/mah-jongg/printed-card.js';
import type { OcrBox, OcrWord } from './card-photo-ocr.js';
import { Pause, type PreparedPhoto } from './card-photo-image.js';

/**
 * The words the OCR found on a photo of a printed card, read into a draft card: the columns
 * (each line ends in X or C and its value, so their right edges mark the columns), the rows,
 * each row a heading or a line, each line's groups (the print's own alphabet: 1 to 9, 0, N E W
 * S, F, D, R, G), each group's colour from the photo's pixels where its letters are, the
 * note, X or C and the value. What the reading is unsure of is said on the line, for the
 * player to check; nothing is silently guessed.
 */

/** The colour of a group as the photo shows it, and whether that is clear. */
export interface InkColour {
  colour: Colour | null;
  clear: boolean;
}

/** Sentences a player reads beside a line (PrintedLine.unsure), most important first. */
export const UNSURE = {
  noGroups: 'The photo shows something here that did not read as a card line: check this line against your card.',
  merged: 'This row of the photo seems to hold more than one line of your card: check the lines here against your card.',
  noValue: 'The X or C and the value at the end of this line could not be read: type them as your card prints them.',
  valueUnsure: 'The X or C and the value at the end of this line were hard to read: check them against your card.',
  tiles: (n: number) => `The groups read here hold ${n} tiles, not 14: check them against your card.`,
  blurred: 'The photo was hard to read here: check the groups against your card.',
  colour: (g: string) => `The colour of ${g} was unclear in the photo: check which colour your card prints it in.`,
  note: 'The note of this line was hard to read: check it against your card.',
  value: 'The value read here is unusual for a card: check it against your card.',
  problem: 'This line as read does not make a card line: check its groups, colours and note against your card.',
} as const;

/** Confidence (tesseract's, 0 to 100) under which a word is taken as hard to read. */
const SURE_WORD = 80;

const HUE_OF: { colour: Colour; from: number; to: number }[] = [
  { colour: 'red', from: -35, to: 28 },
  { colour: 'green', from: 75, to: 175 },
  { colour: 'blue', from: 185, to: 265 },
];

/** The colour of the ink inside a box: its dark pixels' hues, white-balanced (black, or red, green or blue). */
export function inkColour(photo: PreparedPhoto, box: OcrBox): InkColour {
  const { width, height, gray, rgb } = photo;
  const x0 = Math.max(0, Math.floor(box.x0)),
    x1 = Math.min(width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0)),
    y1 = Math.min(height, Math.ceil(box.y1));
  let ink = 0,
    saturated = 0;
  const votes = { red: 0, green: 0, blue: 0, other: 0 };
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const p = y * width + x;
      if (gray[p] > 110) continue;
      ink++;
      const r = rgb[p * 3],
        g = rgb[p * 3 + 1],
        b = rgb[p * 3 + 2];
      const mx = Math.max(r, g, b),
        mn = Math.min(r, g, b),
        c = mx - mn;
      if (c < 45 || c < mx * 0.35) continue;
      saturated++;
      let hue: number;
      if (mx === r) hue = ((g - b) / c) * 60;
      else if (mx === g) hue = ((b - r) / c) * 60 + 120;
      else hue = ((r - g) / c) * 60 + 240;
      if (hue > 300) hue -= 360;
      const k = HUE_OF.find((h) => hue >= h.from && hue <= h.to);
      if (k) votes[k.colour]++;
      else votes.other++;
    }
  }
  if (ink < 8) return { colour: null, clear: false };
  const share = saturated / ink;
  if (share < 0.12) return { colour: null, clear: true };
  const [best, n] = (Object.entries(votes) as [keyof typeof votes, number][]).sort((a, b) => b[1] - a[1])[0];
  const colour = best === 'other' ? null : best;
  if (share < 0.3) return { colour, clear: false };
  return { colour, clear: colour !== null && n >= saturated * 0.75 };
}

// ------------------------------------------------------------------ rows and columns

interface Word extends OcrWord {
  xc: number;
  yc: number;
  h: number;
}

const word = (w: OcrWord): Word => ({ ...w, xc: (w.box.x0 + w.box.x1) / 2, yc: (w.box.y0 + w.box.y1) / 2, h: w.box.y1 - w.box.y0 });

/** "X 25", "C50", "x 30" as the OCR may read them: X or C (and what the OCR mistakes them for), then digits. */
const VALUE_ONE = /^([XxCc×K%(€]{1,2})[.,:]?([0-9OoSlI|]{2,3})[.,]?$/;
const MARK = /^[XxCc×K%(€]{1,2}[.,:]?$/;
const DIGITS = /^[0-9OoSlI|]{1,3}[.,]?$/;

const digitsOf = (s: string): number => Number(s.replace(/[.,]/g, '').replace(/[Oo]/g, '0').replace(/S/g, '5').replace(/[lI|]/g, '1'));
const concealedOf = (mark: string): boolean => /^[Cc(€]/.test(mark);

/** A line's X or C and value as read; `bare`: the value's number was read without its X or C (to be read again). */
interface ValueRead {
  take: number;
  concealed: boolean;
  value: number;
  sure: boolean;
  bare?: boolean;
}

/** A number standing alone at the end of a row after a wide gap (a card printing X/C and the value in far-right columns, its X or C lost by the OCR). */
function bareValue(row: Word[], i: number, letter: number): number | null {
  const w = row[i],
    before = row[i - 1];
  if (!w || !before || !/^[0-9OoSlI|]{2,3}[.,]?$/.test(w.text) || !/\d/.test(w.text)) return null;
  if (w.box.x0 - before.box.x1 < letter * 2.5) return null;
  const v = digitsOf(w.text);
  return v >= 10 && v <= 200 ? v : null;
}

/** The value at the end of a row: the words it takes (one or two, from the right), X or C, the value. */
function valueAtEnd(row: Word[], letter: number): ValueRead | null {
  const last = row.at(-1);
  if (!last) return null;
  const one = VALUE_ONE.exec(last.text);
  if (one) return { take: 1, concealed: concealedOf(one[1]), value: digitsOf(one[2]), sure: last.confidence >= SURE_WORD - 20 && /^[XxCc]$/.test(one[1]) && /^\d+$/.test(one[2]) };
  const before = row.at(-2);
  if (before && MARK.test(before.text) && DIGITS.test(last.text) && last.box.x0 - before.box.x1 < letter * 2.5) {
    return {
      take: 2,
      concealed: concealedOf(before.text),
      value: digitsOf(last.text),
      sure: Math.min(before.confidence, last.confidence) >= SURE_WORD - 20 && /^[XxCc]/.test(before.text) && /^\d+$/.test(last.text),
    };
  }
  const bare = bareValue(row, row.length - 1, letter);
  if (bare !== null) return { take: 1, concealed: false, value: bare, sure: false, bare: true };
  return null;
}

/** A line x = a + b y through points, by least squares (flat through their mean when they do not spread). */
function fitLine(pts: { x: number; y: number }[]): (y: number) => number {
  const my = pts.reduce((a, p) => a + p.y, 0) / pts.length,
    mx = pts.reduce((a, p) => a + p.x, 0) / pts.length;
  const syy = pts.reduce((a, p) => a + (p.y - my) ** 2, 0);
  const slope = syy === 0 ? 0 : pts.reduce((a, p) => a + (p.y - my) * (p.x - mx), 0) / syy;
  return (y) => mx + slope * (y - my);
}

/**
 * The right edges of the columns: where the lines' values end, grouped, each edge a line
 * through its values' ends (a photo taken at a slant leans the columns).
 */
function columnEdges(words: Word[], letter: number): ((y: number) => number)[] {
  const ends: { x: number; y: number }[] = [];
  const sorted = [...words].sort((a, b) => a.box.x0 - b.box.x0);
  for (const w of sorted) {
    if (VALUE_ONE.test(w.text)) ends.push({ x: w.box.x1, y: w.yc });
    else if (/^\d{2,3}$/.test(w.text) && Number(w.text) % 5 === 0) {
      // a number alone after a wide gap, nothing just right of it: a far-right column of values
      const row = sorted.filter((v) => Math.abs(v.yc - w.yc) < letter * 0.6 && v.box.x0 < w.box.x0 + letter * 4);
      const i = row.indexOf(w);
      if (i === row.length - 1 && bareValue(row, i, letter) !== null) ends.push({ x: w.box.x1, y: w.yc });
    } else if (MARK.test(w.text)) {
      const next = sorted.find((v) => v !== w && v.box.x0 > w.box.x1 - 2 && v.box.x0 - w.box.x1 < letter * 2.5 && Math.abs(v.yc - w.yc) < letter * 0.6 && DIGITS.test(v.text));
      if (next) ends.push({ x: next.box.x1, y: next.yc });
    }
  }
  ends.sort((a, b) => a.x - b.x);
  const clusters: { x: number; y: number }[][] = [];
  for (const e of ends) {
    const c = clusters.at(-1);
    if (c && e.x - c.at(-1)!.x < letter * 6) c.push(e);
    else clusters.push([e]);
  }
  // a column has several lines; a stray reading is not a column
  const real = clusters.filter((c) => c.length >= Math.max(2, Math.min(3, ends.length / 10)));
  return real.map(fitLine);
}

/**
 * Where the columns start, when their values were too poorly read to mark them: every line,
 * note and heading of a column starts at (or just right of) its left edge, so the words'
 * left ends pile up there; a pile far enough from the others starts a column of its own.
 */
function columnStarts(words: Word[], letter: number): number[] {
  const bin = letter / 2;
  const counts = new Map<number, number>();
  for (const w of words) {
    if (VALUE_ONE.test(w.text) || MARK.test(w.text) || DIGITS.test(w.text) || w.h < letter * 0.5) continue;
    const b = Math.round(w.box.x0 / bin);
    for (const k of [b - 1, b, b + 1]) counts.set(k, (counts.get(k) ?? 0) + (k === b ? 2 : 1));
  }
  const peaks = [...counts].sort((a, b) => b[1] - a[1]);
  const top = peaks[0]?.[1] ?? 0;
  const starts: number[] = [];
  for (const [b, n] of peaks) {
    if (n < Math.max(10, top * 0.4)) break;
    // a panel is wider than a line of groups and its note: piles closer than that are a note's or a group's, not a column's
    if (starts.every((x) => Math.abs(x - b * bin) > letter * 22)) starts.push(b * bin);
  }
  return starts.sort((a, b) => a - b);
}

/** The slope of a row's words (down per across), where they spread far enough to tell; at most a gentle one. */
function rowSlope(row: Word[]): number {
  if (row.length < 2) return 0;
  const h = median(row.map((w) => w.h));
  if (row.at(-1)!.xc - row[0].xc < h * 4) return 0;
  const mx = row.reduce((a, w) => a + w.xc, 0) / row.length,
    my = row.reduce((a, w) => a + w.yc, 0) / row.length;
  const sxx = row.reduce((a, w) => a + (w.xc - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : row.reduce((a, w) => a + (w.xc - mx) * (w.yc - my), 0) / sxx;
  return Math.max(-0.08, Math.min(0.08, slope));
}

/** Words into rows, left to right, each row following its own slope (a photo taken at a slant). */
function rowsOf(words: Word[]): Word[][] {
  const rows: Word[][] = [];
  for (const w of [...words].sort((a, b) => a.box.x0 - b.box.x0)) {
    let best: Word[] | null = null,
      bestD = Infinity;
    for (const r of rows) {
      // the row's last word of full height (a "-" or one bar of "=" is no guide to where the row runs)
      const tallest = Math.max(...r.map((v) => v.h));
      const full = r.filter((v) => v.h >= tallest * 0.5);
      const last = full.at(-1)!;
      // a word far along the row is looked for where the row is heading (a page seen in perspective, or bowed, leans its rows)
      const d = Math.abs(last.yc + rowSlope(full) * (w.xc - last.xc) - w.yc);
      if (d < Math.max(last.h, w.h) * 0.55 && d < bestD) {
        best = r;
        bestD = d;
      }
    }
    if (best) best.push(w);
    else rows.push([w]);
  }
  return rows.sort((a, b) => median(a.map((w) => w.yc)) - median(b.map((w) => w.yc)));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)];
}

// ------------------------------------------------------------------ groups

/** Words a note is made of (a card's abbreviations included): a row's note starts at the first of them. */
const NOTE_WORDS = new Set([
  'any',
  'suit',
  'suits',
  'like',
  'nos',
  'no',
  'numbers',
  'number',
  'these',
  'only',
  'consec',
  'consecutive',
  'also',
  'wind',
  'winds',
  'dragon',
  'dragons',
  'matching',
  'match',
  'bams',
  'bam',
  'craks',
  'crak',
  'dots',
  'dot',
  'green',
  'red',
  'blue',
  'jokers',
  'joker',
  'and',
  'run',
  'with',
  'same',
  'kongs',
  'pungs',
  'pairs',
]);

const bare = (t: string): string => t.replace(/^[.,:;'"`‘’“”(]+|[.,:;'"`‘’“”)]+$/g, '');

/** Whether a word reads as a group of the print's alphabet (before its colour sets what its lookalike letters are). */
function looksLikeGroup(t: string): boolean {
  const b = bare(t);
  if (b === '+' || b === '=' || b === '-' || b === 'or' || b === 'OR') return true;
  // tile letters in lower case too ("sss"): the OCR is unsure of the case of bold capitals
  return b !== '' && /^[0-9NEWSFDRGOQBZIl|/]+$/i.test(b) && !/[abchijkmpqtuvxyz]/.test(b);
}

/** A coloured group holds numbers and D: letters the OCR mistakes for digits are read as digits. */
const AS_DIGIT: Record<string, string> = { O: '0', Q: '0', S: '5', G: '6', B: '8', I: '1', L: '1', l: '1', '|': '1', Z: '2', A: '4', T: '7' };
/** An uncoloured group holds winds, flowers, Soap (0) and R, G: digits the OCR mistakes for letters are read as letters. */
const AS_LETTER: Record<string, string> = { O: '0', Q: '0', '5': 'S', '6': 'G', B: 'E', I: '1', l: '1', '|': '1' };

/** A group's text in the print's alphabet, given its colour; and whether anything had to be changed. */
export function groupText(raw: string, colour: Colour | null): { text: string; changed: boolean } {
  const b = bare(raw);
  if (b === '+' || b === '=' || b === '-' || b.toUpperCase() === 'OR') return { text: b.toUpperCase(), changed: false };
  const map = colour === null ? AS_LETTER : AS_DIGIT;
  let text = '';
  let changed = false;
  for (const ch of b) {
    if (ch === '/') {
      text += '/';
      continue;
    }
    const m = map[ch] ?? map[ch.toUpperCase()] ?? ch.toUpperCase();
    if (m !== ch && !(ch === 'O' && m === '0')) changed = true;
    text += m;
  }
  return { text, changed };
}

/** Splits a word the OCR ran together ("1111SS") where its letters' colour changes or a gap opens. */
function splitWord(photo: PreparedPhoto, w: Word, letter: number): Word[] {
  if (w.chars.length < 2 || w.chars.map((c) => c.text).join('') !== w.text) return [w];
  const colours = w.chars.map((c) => inkColour(photo, c.box));
  const parts: Word[] = [];
  let start = 0;
  for (let i = 1; i <= w.chars.length; i++) {
    const gap = i < w.chars.length ? w.chars[i].box.x0 - w.chars[i - 1].box.x1 : 0;
    const change = i < w.chars.length && colours[i].clear && colours[i - 1].clear && colours[i].colour !== colours[i - 1].colour;
    if (i === w.chars.length || change || gap > letter * 0.45) {
      const cs = w.chars.slice(start, i);
      const box = { x0: Math.min(...cs.map((c) => c.box.x0)), y0: Math.min(...cs.map((c) => c.box.y0)), x1: Math.max(...cs.map((c) => c.box.x1)), y1: Math.max(...cs.map((c) => c.box.y1)) };
      parts.push(word({ text: cs.map((c) => c.text).join(''), confidence: Math.min(w.confidence, ...cs.map((c) => c.confidence)), box, chars: cs }));
      start = i;
    }
  }
  return parts;
}

// ------------------------------------------------------------------ rows into a card

/** One row of print as read: its value at the right, its groups from the left, the words after them. */
interface RowParts {
  words: Word[];
  text: string;
  value: ValueRead | null;
  groupWords: Word[];
  noteWords: Word[];
  /** Printed on a shaded band: a section's heading. */
  band: boolean;
  /** Printed over a rule (a section's heading, in some layouts). */
  ruled: boolean;
  /** Its words' usual height. */
  height: number;
}

const tilesIn = (groups: PrintedGroup[]): number => groups.filter((g) => !['+', '=', 'x', 'X', 'OR', '-'].includes(g.text)).reduce((n, g) => n + g.text.split('|')[0].length, 0);

/** The paper's brightness (the photo's own, before evening out) at the pixels that are not ink in a strip. */
function paperLevel(photo: PreparedPhoto, x0: number, x1: number, y0: number, y1: number): number | null {
  const { width, height, gray, rgb } = photo;
  const xa = Math.max(0, Math.floor(x0)),
    xb = Math.min(width, Math.ceil(x1));
  const ya = Math.max(0, Math.floor(y0)),
    yb = Math.min(height, Math.ceil(y1));
  if (xb - xa < 4 || yb - ya < 2) return null;
  const step = Math.max(1, Math.floor((xb - xa) / 300));
  const vals: number[] = [];
  for (let y = ya; y < yb; y += 2)
    for (let x = xa; x < xb; x += step) {
      const p = y * width + x;
      if (gray[p] < 200) continue;
      vals.push(rgb[p * 3] + rgb[p * 3 + 1] + rgb[p * 3 + 2]);
    }
  return vals.length < 20 ? null : median(vals);
}

/** Whether a row is printed on a shaded band (a heading): its paper darker than the paper above and below it. */
function onBand(photo: PreparedPhoto, row: Word[], x0: number, x1: number): boolean {
  const top = Math.min(...row.map((w) => w.box.y0)),
    bottom = Math.max(...row.map((w) => w.box.y1));
  const h = bottom - top;
  const here = paperLevel(photo, x0, x1, top, bottom);
  const above = paperLevel(photo, x0, x1, top - 2.4 * h, top - 1.5 * h);
  const below = paperLevel(photo, x0, x1, bottom + 1.5 * h, bottom + 2.4 * h);
  const paper = Math.max(above ?? 0, below ?? 0);
  return here !== null && paper > 0 && here < paper * 0.95;
}

/** Whether a rule runs under a row (a heading over a rule): a pixel row below its words dark across most of the column. */
function ruledBelow(photo: PreparedPhoto, row: Word[], x0: number, x1: number): boolean {
  const { width, height, gray } = photo;
  const bottom = Math.max(...row.map((w) => w.box.y1)),
    h = median(row.map((w) => w.h));
  const xa = Math.max(0, Math.floor(x0)),
    xb = Math.min(width, Math.ceil(x1));
  if (xb - xa < 20) return false;
  const step = Math.max(1, Math.floor((xb - xa) / 400));
  for (let y = Math.max(0, Math.floor(bottom)); y < Math.min(height, bottom + h * 1.2); y++) {
    let dark = 0,
      all = 0;
    for (let x = xa; x < xb; x += step) {
      all++;
      if (gray[y * width + x] < 170) dark++;
    }
    if (dark > all * 0.6) return true;
  }
  return false;
}

/** A row of words (not tiles) read with confidence: a heading's or a title's. */
function wordy(row: Word[]): boolean {
  const words = row.filter((w) => /^[A-Za-z][A-Za-z&'’.,-]+$/.test(w.text) && !looksLikeGroup(w.text));
  return words.length > 0 && words.length * 2 >= row.length && row.every((w) => w.confidence >= 70);
}

/** A band's or a rule's row whose words read as a heading: words, or a number of three digits or more ("2026", "13579"), read with confidence. */
function headingText(row: Word[]): boolean {
  if (wordy(row)) return true;
  return row.length <= 2 && row.every((w) => /^\d{3,5}$/.test(w.text) && w.confidence >= 60);
}

/** A row under a line that reads as its note: smaller print, in parentheses, or mostly a note's words. */
function noteLike(p: RowParts, small: boolean): boolean {
  if (small || /^\(/.test(p.words[0].text)) return true;
  const known = p.words.filter((w) => NOTE_WORDS.has(bare(w.text).toLowerCase()) || /^\d[.,)]?$/.test(bare(w.text))).length;
  return known * 2 >= p.words.length;
}

const BAR = /^[-—–_=~+]+$/;

/** The card's "=" read as two bars (two words, one above the other) made one "=" again; a lone bar is the card's "-". */
function joinBars(row: Word[]): Word[] {
  const tall = median(row.map((w) => w.h));
  // a bar, or a mark of bars and crosses (a "+" the OCR read as "--") as tall as a cross: decoration
  // (a bar as thin as a bar of "=" is one whatever the OCR made of it: "p—")
  const thin = (w: Word) => (BAR.test(w.text) && (w.h < tall * 0.4 || /^[-—–_~+]{2,}$/.test(w.text))) || (w.h < tall * 0.3 && (/[-—–_=~]/.test(w.text) || w.confidence < 30));
  const out: Word[] = [];
  const used = new Set<Word>();
  for (const w of row) {
    if (used.has(w)) continue;
    if (!thin(w)) {
      out.push(w);
      continue;
    }
    const other = row.find((v) => v !== w && !used.has(v) && thin(v) && Math.min(v.box.x1, w.box.x1) - Math.max(v.box.x0, w.box.x0) > 0.5 * Math.min(v.box.x1 - v.box.x0, w.box.x1 - w.box.x0));
    used.add(w);
    if (other) used.add(other);
    const box = other ? { x0: Math.min(w.box.x0, other.box.x0), y0: Math.min(w.box.y0, other.box.y0), x1: Math.max(w.box.x1, other.box.x1), y1: Math.max(w.box.y1, other.box.y1) } : w.box;
    // the decoration's meaning is nothing (card-notation.md): which mark it was matters only to show it as printed
    const tallMark = !other && w.h >= tall * 0.6;
    out.push(word({ text: tallMark ? '+' : other || w.text.includes('=') ? '=' : '-', confidence: Math.max(w.confidence, other?.confidence ?? 0), box, chars: [] }));
  }
  return out;
}

function rowParts(photo: PreparedPhoto, rowIn: Word[], letter: number, column: { x0: number; x1: number }): RowParts {
  const row = joinBars(rowIn);
  let value = valueAtEnd(row, letter);
  // a number alone on its row, right of the column's middle: a far-right value the row of its groups did not take (a leaning page)
  const only = row.length === 1 ? row[0] : null;
  if (value === null && only !== null && only.xc > (column.x0 + column.x1) / 2 && /^[0-9OoSlI|]{2,3}$/.test(only.text) && /\d/.test(only.text)) {
    const v = digitsOf(only.text);
    if (v >= 10 && v <= 200) value = { take: 1, concealed: false, value: v, sure: false, bare: true };
  }
  const body = value ? row.slice(0, row.length - value.take) : row;
  // the groups: from the left, while the words read as groups and the note has not begun
  const tall = median(body.filter((w) => looksLikeGroup(w.text)).map((w) => w.h));
  let k = 0;
  for (; k < body.length; k++) {
    const w = body[k];
    const b = bare(w.text);
    if (b === 'or' && k > 0 && k + 1 < body.length && looksLikeGroup(body[k + 1].text)) continue;
    const noteWord = NOTE_WORDS.has(b.toLowerCase()) && (/[a-z]/.test(b) || (tall > 0 && w.h < tall * 0.85));
    if (!looksLikeGroup(w.text) || noteWord) break;
  }
  return {
    words: row,
    text: row.map((w) => w.text).join(' '),
    value,
    groupWords: body.slice(0, k).flatMap((w) => splitWord(photo, w, letter)),
    noteWords: body.slice(k),
    band: !value && onBand(photo, row, column.x0, column.x1),
    ruled: !value && ruledBelow(photo, row, column.x0, column.x1),
    height: median(row.map((w) => w.h)),
  };
}

/** A line being read: its rows of groups, its note's words, its value. */
interface LineParts {
  groupWords: Word[];
  noteWords: Word[];
  value: RowParts['value'];
  noteRows: number;
  /** A row that read as neither a line nor a heading, kept as a line to check: no other row goes on with it. */
  loose?: boolean;
}

interface Item {
  heading?: { text: string; band: boolean };
  line?: LineParts;
}

/** The groups of a line as read: their text in the print's alphabet and their colours, with what to check. */
function lineOf(photo: PreparedPhoto, parts: LineParts): { line: PrintedLine; reasons: string[] } {
  const reasons: string[] = [];
  const groups: PrintedGroup[] = [];
  let hard = false;
  for (const w of parts.groupWords) {
    const ink = inkColour(photo, w.box);
    const { text, changed } = groupText(w.text, ink.colour);
    const [g] = groupsFromText(text);
    if (!g) continue;
    const suited = /[1-9D]/.test(g.text);
    if (/^(\+|=|-|OR)$/.test(g.text)) {
      groups.push({ text: g.text, colour: null });
      continue;
    }
    // a coloured group without a number or dragon, or a number without a colour: the colour (or the letters) misread
    if (!ink.clear || (ink.colour !== null && !suited && !/^(\+|=|-|OR)$/.test(g.text)) || (ink.colour === null && /[1-9]/.test(g.text))) {
      reasons.push(UNSURE.colour(g.text));
    }
    if (w.confidence < SURE_WORD || changed) hard = true;
    groups.push({ text: g.text, colour: suited ? ink.colour : null });
  }
  const { value, noteWords } = parts;
  const note = noteWords
    .map((w) => w.text)
    .join(' ')
    .replace(/\s+([,.])/g, '$1')
    .trim();
  const line: PrintedLine = { groups, note, concealed: value ? value.concealed : null, value: value ? value.value : null };
  const n = tilesIn(groups);
  // another line's "X 25" among the words after the groups: rows of the photo ran together
  const merged = noteWords.some((w, i) => VALUE_ONE.test(w.text) || (MARK.test(w.text) && DIGITS.test(noteWords[i + 1]?.text ?? '')));
  if (merged) reasons.unshift(UNSURE.merged);
  else if (groups.length === 0) reasons.unshift(UNSURE.noGroups);
  else if (n !== 14 && !groups.some((g) => g.text === 'OR')) reasons.unshift(UNSURE.tiles(n));
  if (!value) reasons.push(UNSURE.noValue);
  else if (!value.sure) reasons.push(UNSURE.valueUnsure);
  else if (value.value % 5 !== 0 || value.value < 10 || value.value > 200) reasons.push(UNSURE.value);
  if (hard) reasons.push(UNSURE.blurred);
  if (noteWords.some((w) => w.confidence < SURE_WORD) || (note !== '' && readNote(note).unknown !== '')) reasons.push(UNSURE.note);
  return { line, reasons };
}

/** Whether the groups after a line's last OR make fewer than 14 tiles (the line goes on in the next row). */
function unfinished(photo: PreparedPhoto, parts: LineParts): boolean {
  const texts = parts.groupWords.map((w) => groupText(w.text, inkColour(photo, w.box).colour).text);
  const after = texts.slice(texts.lastIndexOf('OR') + 1);
  return tilesIn(after.map((t) => ({ text: t, colour: null }))) < 14;
}

/** Reads a box of the photo again as one row of print, only the characters of `whitelist` allowed (io/card-photo-ocr.ts ocrRow). */
export type Reread = (box: OcrBox, whitelist: string) => Promise<{ text: string; confidence: number } | null>;
/** Reads many boxes of the photo again in one go, each as one row (io/card-photo-ocr.ts ocrBlock): a reading for each box, or null. */
export type RereadMany = (boxes: OcrBox[], whitelist: string) => Promise<({ text: string; confidence: number } | null)[]>;

const VALUE_WHITELIST = 'XC0123456789 ';

const rowTiles = (p: RowParts): number => tilesIn(p.groupWords.map((w) => ({ text: groupText(w.text, null).text, colour: null })));

/** The right edge of the column at a height: the line through the ends of the values read surely (the column's right, where there are too few). */
function rightEdge(parts: RowParts[], fallback: number): (y: number) => number {
  const pts = parts.filter((p) => p.value !== null && p.value.sure && p.value.take > 0).map((p) => ({ y: p.words.at(-1)!.yc, x: p.words.at(-1)!.box.x1 }));
  return pts.length < 3 ? () => fallback : fitLine(pts);
}

/**
 * Where the value of a row that holds a line's groups stands, when the first reading did not
 * find it surely: right of the groups and of any note beside them, up to the column's right
 * edge (or the number read there), to be read again as one row of X, C and digits.
 */
function valueBox(p: RowParts, letter: number, right: number): OcrBox | null {
  const lastGroup = p.groupWords.at(-1);
  // a row of groups, or a number alone at the far right (a value its groups' row did not take)
  if (!lastGroup && !p.value?.bare) return null;
  const top = Math.min(...p.words.map((w) => w.box.y0)),
    bottom = Math.max(...p.words.map((w) => w.box.y1));
  const h = bottom - top;
  // a note beside the groups ends before the value
  const noteEnd = Math.max(-Infinity, ...p.noteWords.filter((w) => w.box.x1 < right - letter * 2.5).map((w) => w.box.x1));
  const box = { x0: Math.max((lastGroup?.box.x1 ?? -Infinity) + letter * 0.4, noteEnd + letter * 0.4, right - letter * 7), x1: right + letter, y0: top - h * 0.3, y1: bottom + h * 0.3 };
  return box.x1 - box.x0 < letter * 2 ? null : box;
}

/** A row's value read again (valueBox): taken where it reads as X or C and digits. */
function takeValue(p: RowParts, box: OcrBox, r: { text: string; confidence: number } | null): boolean {
  const m = r === null ? null : /^([XC])\s*(\d{2,3})$/.exec(r.text.replace(/\s+/g, ' ').trim());
  if (r === null || m === null) return false;
  const concealed = m[1] === 'C',
    value = Number(m[2]);
  // two readings that agree are sure, whatever either thought of itself (a number read alone agrees only in its digits)
  const agree = p.value !== null && p.value.value === value && (p.value.bare ? r.confidence >= 60 : p.value.concealed === concealed);
  p.value = { take: 0, concealed, value, sure: r.confidence >= 70 || agree };
  // what the first reading made of the value is dropped
  p.noteWords = p.noteWords.filter((w) => w.xc < box.x0);
  return true;
}

/**
 * A column's rows into headings and lines. A row that ends in a value starts a line; a row of
 * groups without a value goes on with the line above while that line is unfinished or the row
 * starts with OR (the card wraps a long line there); words after a line are its note; a row on
 * a shaded band, or any other row, is a heading.
 */
async function columnItems(photo: PreparedPhoto, rows: Word[][], letter: number, reread: Reread | null, rereadMany: RereadMany | null): Promise<Item[]> {
  const all = rows.flat();
  const column = { x0: Math.min(...all.map((w) => w.box.x0)), x1: Math.max(...all.map((w) => w.box.x1)) };
  const pause = new Pause();
  const parts: RowParts[] = [];
  for (const r of rows) {
    parts.push(rowParts(photo, r, letter, column));
    await pause.turn();
  }
  if (reread !== null) {
    // where the values end, row by row: a photo taken at a slant leans the column's right edge
    const edge = rightEdge(parts, column.x1);
    const todo: { p: RowParts; box: OcrBox }[] = [];
    for (const p of parts) {
      if ((rowTiles(p) < 7 && !p.value?.bare) || (p.value !== null && p.value.sure)) continue;
      const lastWord = p.words.at(-1)!;
      // a number read alone at the far right says where its value ends; otherwise the column's edge there
      const right = !p.value?.bare && (p.groupWords.includes(lastWord) || lastWord.box.x1 < edge(lastWord.yc) - letter * 4) ? edge(lastWord.yc) : lastWord.box.x1;
      const box = valueBox(p, letter, right);
      if (box !== null) todo.push({ p, box });
    }
    // all of them in one go where the reader can; one at a time where that reading did not give X or C and digits
    const many =
      rereadMany === null
        ? todo.map(() => null)
        : await rereadMany(
            todo.map((t) => t.box),
            VALUE_WHITELIST,
          );
    for (const [i, { p, box }] of todo.entries()) {
      if (!takeValue(p, box, many[i])) takeValue(p, box, await reread(box, VALUE_WHITELIST));
    }
  }
  const groupHeight = median(parts.flatMap((p) => p.groupWords.map((w) => w.h))) || letter;
  const items: Item[] = [];
  let last: LineParts | null = null;
  for (const p of parts) {
    const groupish = p.noteWords.length === 0 && p.groupWords.length > 0;
    const small = p.height < groupHeight * 0.85;
    const lettered = p.words.some((w) => /[a-z]/.test(w.text));
    const tiles = rowTiles(p);
    if (p.value && p.groupWords.length === 0 && last !== null && last.value === null && !last.loose && last.groupWords.length > 0) {
      // a value (and a note) on a row of its own under a line that has none: the line's, its row leaning away from it
      last.value = p.value;
      if (p.noteWords.length > 0) {
        last.noteWords.push(...p.noteWords);
        last.noteRows++;
      }
    } else if (p.value) {
      last = { groupWords: p.groupWords, noteWords: p.noteWords, value: p.value, noteRows: p.noteWords.length > 0 ? 1 : 0 };
      items.push({ line: last });
    } else if (p.band && headingText(p.words)) {
      items.push({ heading: { text: p.text, band: true } });
      last = null;
    } else if (last !== null && !last.loose && last.noteRows === 0 && (bare(p.words[0].text).toUpperCase() === 'OR' || (groupish && unfinished(photo, last)))) {
      // the card wraps a long line before an OR: the row goes on with the line
      last.groupWords.push(...p.groupWords);
      if (p.noteWords.length > 0) {
        last.noteWords.push(...p.noteWords);
        last.noteRows++;
      }
    } else if (tiles >= 7) {
      // a line whose value was not found: its groups are there
      last = { groupWords: p.groupWords, noteWords: p.noteWords, value: null, noteRows: p.noteWords.length > 0 ? 1 : 0 };
      items.push({ line: last });
    } else if (last !== null && !groupish && (small || lettered) && noteLike(p, small)) {
      last.noteWords.push(...p.words);
      last.noteRows++;
    } else if ((p.ruled && headingText(p.words)) || wordy(p.words)) {
      items.push({ heading: { text: p.text, band: false } });
      last = null;
    } else if (/[A-Za-z0-9]/.test(p.text)) {
      // neither a line nor a heading that reads surely: kept as a line for the player to check (never dropped, never a heading made up)
      last = { groupWords: p.groupWords, noteWords: p.noteWords, value: null, noteRows: p.noteWords.length > 0 ? 1 : 0, loose: true };
      items.push({ line: last });
    }
  }
  return items;
}

/** The rows of one photo, in reading order: each column top to bottom, the columns left to right. */
async function photoItems(photo: PreparedPhoto, words: OcrWord[], reread: Reread | null, rereadMany: RereadMany | null): Promise<Item[]> {
  const ws = words.map(word).filter((w) => w.h > 0 && w.box.x1 > w.box.x0);
  if (ws.length === 0) return [];
  const letter = Math.max(8, median(ws.map((w) => w.h)));
  const edges = columnEdges(ws, letter);
  const starts = edges.length > 1 ? [] : columnStarts(ws, letter);
  const columns: Word[][] = edges.length > 1 ? edges.map(() => []) : starts.length > 1 ? starts.map(() => []) : [ws];
  for (const w of columns.length === 1 ? [] : ws) {
    let c = edges.length > 1 ? edges.findIndex((e) => w.xc <= e(w.yc) + letter) : starts.reduce((k, x, i) => (w.box.x0 >= x - letter * 0.5 ? i : k), -1);
    if (c < 0) c = edges.length > 1 ? edges.length - 1 : 0;
    columns[c].push(w);
  }
  const items: Item[] = [];
  for (const col of columns) if (col.length > 0) items.push(...(await columnItems(photo, rowsOf(col), letter, reread, rereadMany)));
  return items;
}

export interface PhotoReading {
  name: string | null;
  sections: PrintedSection[];
}

/** A photo's words read into sections of draft lines (lines before any heading are kept under an empty title, for joinReadings). */
export async function readRows(photo: PreparedPhoto, words: OcrWord[], reread: Reread | null = null, rereadMany: RereadMany | null = null): Promise<PhotoReading> {
  const items = await photoItems(photo, words, reread, rereadMany);
  let name: string | null = null;
  const sections: PrintedSection[] = [];
  const bands = items.some((it) => it.heading?.band);
  items.forEach((it, i) => {
    if (it.heading) {
      const before = items.slice(0, i);
      // the card's name: a heading above everything, not on a band (or, where no band was seen, followed by another heading before any line)
      const first = name === null && before.every((b) => b.heading === undefined && b.line === undefined);
      const nextLine = items.findIndex((x, j) => j > i && x.line !== undefined);
      if (first && (bands ? !it.heading.band : items.slice(i + 1, nextLine < 0 ? undefined : nextLine).some((x) => x.heading))) {
        name = it.heading.text;
        return;
      }
      sections.push({ title: it.heading.text, lines: [] });
      return;
    }
    const { line, reasons } = lineOf(photo, it.line!);
    if (reasons.length > 0) line.unsure = reasons[0];
    if (sections.length === 0) sections.push({ title: '', lines: [] });
    sections.at(-1)!.lines.push(line);
  });
  return { name, sections };
}
/** One card from the photos' readings, in order: a photo's lines before its first heading continue the section before. */
export function joinReadings(readings: PhotoReading[], fallbackName: string): PrintedCard {
  const sections: PrintedSection[] = [];
  let name: string | null = null;
  for (const r of readings) {
    name ??= r.name;
    for (const s of r.sections) {
      if (s.title === '' && sections.length > 0) sections.at(-1)!.lines.push(...s.lines);
      else sections.push({ ...s, lines: [...s.lines] });
    }
  }
  // headings the card's reader accepts: words, unique, never empty (an unread heading is named for the player to type)
  const seen = new Map<string, number>();
  for (const s of sections) {
    let t = s.title
      .replace(/[[\]\n]|\/\//g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60);
    if (t === '') t = 'Heading not read';
    const n = (seen.get(t.toLowerCase()) ?? 0) + 1;
    seen.set(t.toLowerCase(), n);
    s.title = n > 1 ? `${t} (${n})` : t;
  }
  const cleanName = (name ?? '')
    .replace(/\n|\/\//g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return { name: cleanName || fallbackName, sections: sections.filter((s) => s.lines.length > 0) };
}
