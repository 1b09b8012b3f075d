import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The DejaVu faces of the npm package dejavu-fonts-ttf (the renderer's own fonts, io/card-image.ts)
 * beyond the two the product draws with: serif, condensed, italic. Each face's advance widths are
 * read from its own file (the cmap and hmtx tables), so a layout measures its text exactly as
 * resvg draws it with kerning off, in any of these faces.
 */

export type Family = 'sans' | 'serif';
export interface Face {
  family: Family;
  condensed: boolean;
  bold: boolean;
  italic: boolean;
}

const require = createRequire(import.meta.url);

const FILES: Record<string, string> = {
  'sans--': 'DejaVuSans',
  'sans-b-': 'DejaVuSans-Bold',
  'sans--i': 'DejaVuSans-Oblique',
  'sans-c--': 'DejaVuSansCondensed',
  'sans-c-b-': 'DejaVuSansCondensed-Bold',
  'sans-c--i': 'DejaVuSansCondensed-Oblique',
  'serif--': 'DejaVuSerif',
  'serif-b-': 'DejaVuSerif-Bold',
  'serif--i': 'DejaVuSerif-Italic',
  'serif-c--': 'DejaVuSerifCondensed',
  'serif-c-b-': 'DejaVuSerifCondensed-Bold',
  'serif-c--i': 'DejaVuSerifCondensed-Italic',
};

const keyOf = (f: Face): string => `${f.family}${f.condensed ? '-c' : ''}-${f.bold ? 'b' : ''}-${f.italic && !f.bold ? 'i' : ''}`;

/** The font file of a face (bold italic is drawn bold). */
export function fontFile(f: Face): string {
  return require.resolve(`dejavu-fonts-ttf/ttf/${FILES[keyOf(f)]}.ttf`);
}

/** Every font file a layout may draw with, for resvg. */
export function allFontFiles(): string[] {
  return Object.values(FILES).map((name) => require.resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`));
}

/** The SVG attributes that pick a face. */
export function faceAttributes(f: Face): string {
  return [
    `font-family="${f.family === 'serif' ? 'DejaVu Serif' : 'DejaVu Sans'}"`,
    f.condensed ? 'font-stretch="condensed"' : '',
    f.bold ? 'font-weight="bold"' : '',
    f.italic && !f.bold ? 'font-style="italic"' : '',
  ]
    .filter((a) => a !== '')
    .join(' ');
}

interface Metrics {
  advance: Map<number, number>;
  missing: number;
}
const metrics = new Map<string, Metrics>();

/** Advance widths (in em) of a TrueType file's characters of the Basic Multilingual Plane (cmap format 4). */
function readMetrics(path: string): Metrics {
  const b = readFileSync(path);
  const tables = new Map<string, number>();
  const count = b.readUInt16BE(4);
  for (let i = 0; i < count; i++) tables.set(b.toString('latin1', 12 + 16 * i, 16 + 16 * i), b.readUInt32BE(20 + 16 * i));
  const head = tables.get('head')!,
    hhea = tables.get('hhea')!,
    hmtx = tables.get('hmtx')!,
    cmap = tables.get('cmap')!;
  const unitsPerEm = b.readUInt16BE(head + 18);
  const hMetrics = b.readUInt16BE(hhea + 34);
  const advanceOf = (glyph: number): number => b.readUInt16BE(hmtx + 4 * Math.min(glyph, hMetrics - 1)) / unitsPerEm;
  let sub = -1;
  for (let i = 0, n = b.readUInt16BE(cmap + 2); i < n; i++) {
    const platform = b.readUInt16BE(cmap + 4 + 8 * i),
      encoding = b.readUInt16BE(cmap + 6 + 8 * i);
    const at = cmap + b.readUInt32BE(cmap + 8 + 8 * i);
    if (platform === 3 && encoding === 1 && b.readUInt16BE(at) === 4) sub = at;
  }
  if (sub < 0) throw new Error(`${path} has no Unicode BMP cmap`);
  const segs = b.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14,
    starts = ends + 2 * segs + 2,
    deltas = starts + 2 * segs,
    offsets = deltas + 2 * segs;
  const advance = new Map<number, number>();
  for (let s = 0; s < segs; s++) {
    const end = b.readUInt16BE(ends + 2 * s),
      start = b.readUInt16BE(starts + 2 * s);
    const delta = b.readInt16BE(deltas + 2 * s),
      offset = b.readUInt16BE(offsets + 2 * s);
    // the characters a card prints: ASCII, Latin-1 and a few marks
    for (let c = start; c <= Math.min(end, 0x2100); c++) {
      let glyph: number;
      if (offset === 0) glyph = (c + delta) & 0xffff;
      else {
        glyph = b.readUInt16BE(offsets + 2 * s + offset + 2 * (c - start));
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) advance.set(c, advanceOf(glyph));
    }
  }
  return { advance, missing: advanceOf(0) };
}

/** The width (px) of `text` in a face at `size`, kerning off, as resvg draws it. */
export function measure(text: string, size: number, f: Face): number {
  const key = keyOf(f);
  let m = metrics.get(key);
  if (m === undefined) {
    m = readMetrics(fontFile(f));
    metrics.set(key, m);
  }
  let em = 0;
  for (const c of text) em += m.advance.get(c.codePointAt(0)!) ?? m.missing;
  return em * size;
}
