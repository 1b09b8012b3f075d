import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { ruleViolation, TilemateError } from '../engine/errors.js';

/**
 * Pictures as files, in one font everywhere: an SVG drawn as a PNG through resvg, and pages
 * of rectangles and text drawn as a PDF through pdfkit. Both use DejaVu Sans from the npm
 * package dejavu-fonts-ttf and no system font, so a picture is the same on every machine and
 * its text fills exactly the widths DejaVu Sans gives it (the card's layout measures with them:
 * api/shared/card-picture.ts). The two libraries are loaded at first use (pdfkit takes a third
 * of a second to load), so a server that never draws a picture never loads them.
 */

/** A row of text: drawn from x, on its baseline, kerning off. */
export interface ImageText {
  text: string;
  x: number;
  baseline: number;
  size: number;
  bold: boolean;
  fill: string;
}
export type ImageShape = { rect: { x: number; y: number; w: number; h: number }; fill: string } | { text: ImageText };

/** The most pixels one PNG may hold (about 1700 by 14,000). */
export const MAX_PNG_PIXELS = 24_000_000;

/** A letter page (8.5 by 11 inches) in PDF points. */
export const LETTER = { w: 612, h: 792 } as const;

/** The font family the pictures are drawn in. */
export const IMAGE_FONT = 'DejaVu Sans';

const require = createRequire(import.meta.url);
let fonts: { regular: string; bold: string } | null = null;
function fontFiles(): { regular: string; bold: string } {
  fonts ??= {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  };
  return fonts;
}

/** An SVG `width` by `height` pixels as a PNG of that size on white (TM_TOO_COSTLY past MAX_PNG_PIXELS). */
export function pngFromSvg(svg: string, width: number, height: number): Uint8Array {
  if (width * height > MAX_PNG_PIXELS) {
    throw new TilemateError(
      'TM_TOO_COSTLY',
      `a picture of ${Math.round(width)} by ${Math.round(height)} pixels is larger than the ${MAX_PNG_PIXELS.toLocaleString('en-US')} pixels one picture may hold`,
    );
  }
  const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const f = fontFiles();
  const options: ResvgRenderOptions = {
    font: { fontFiles: [f.regular, f.bold], loadSystemFonts: false, defaultFontFamily: IMAGE_FONT, sansSerifFamily: IMAGE_FONT },
    fitTo: { mode: 'original' },
    background: '#ffffff',
    logLevel: 'off',
  };
  return new Uint8Array(new Resvg(svg, options).render().asPng());
}

/**
 * Pages of shapes, measured in pixels of a page `width` wide, as a PDF of letter pages (each
 * page scaled to the letter page's width), the font embedded (the glyphs used).
 */
export function pdfFromPages(pages: readonly (readonly ImageShape[])[], opts: { width: number; title: string }): Uint8Array {
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const f = fontFiles();
  const scale = LETTER.w / opts.width;
  const doc = new PDFDocument({ size: 'LETTER', margin: 0, autoFirstPage: false, info: { Title: opts.title, Creator: 'Tilemate' } });
  doc.registerFont('regular', readFileSync(f.regular));
  doc.registerFont('bold', readFileSync(f.bold));
  // kerning off, as in the PNG (the option's type lists only features to turn on)
  const noKerning = { kern: false } as unknown as PDFKit.Mixins.TextOptions['features'];
  for (const shapes of pages) {
    doc.addPage({ size: 'LETTER', margin: 0 });
    for (const sh of shapes) {
      if ('rect' in sh) {
        doc.rect(sh.rect.x * scale, sh.rect.y * scale, sh.rect.w * scale, sh.rect.h * scale).fill(sh.fill);
        continue;
      }
      const t = sh.text;
      doc
        .font(t.bold ? 'bold' : 'regular')
        .fontSize(t.size * scale)
        .fillColor(t.fill)
        .text(t.text, t.x * scale, t.baseline * scale, { lineBreak: false, baseline: 'alphabetic', features: noKerning });
    }
  }
  doc.end();
  // pdfkit writes the whole document into the stream's buffer by the time end() returns: read out at once, without waiting for events
  const chunks: Buffer[] = [];
  for (let c: Buffer | null; (c = doc.read() as Buffer | null) !== null; ) chunks.push(c);
  const bytes = Buffer.concat(chunks);
  if (!bytes.subarray(-8).toString('latin1').includes('%%EOF')) ruleViolation('pdfkit had not finished the document when end() returned');
  return new Uint8Array(bytes);
}
