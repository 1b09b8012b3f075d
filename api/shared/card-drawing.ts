import { parseCard } from '../../engine/mah-jongg/card.js';
import { TilemateError } from '../../engine/errors.js';
import { printedFromNotation } from '../../engine/mah-jongg/printed-card.js';
import { LETTER, MAX_PNG_PIXELS, pdfFromPages, pngFromSvg } from '../../io/card-image.js';
import { cardSvg, layoutCard, pageShapes, pictureFileName, PICTURE_DEFAULTS, type CardLayout, type PictureOptions } from './card-picture.js';

/**
 * A card in the notation drawn in the printed style, as a file's bytes: the layout of
 * card-picture.ts drawn as SVG, as PNG (resvg) or on letter pages as PDF (pdfkit), for
 * `tilemate card render` and POST /api/cards/picture (in the server's worker pool).
 */

export type PictureFormat = 'png' | 'pdf' | 'svg';
export const PICTURE_FORMATS: readonly PictureFormat[] = ['png', 'pdf', 'svg'];
export const CONTENT_TYPES: Readonly<Record<PictureFormat, string>> = { png: 'image/png', pdf: 'application/pdf', svg: 'image/svg+xml; charset=utf-8' };

export interface DrawnCard {
  /** The card's own name. */
  name: string;
  /** A file name made from it (`tilemate-practice-card-2026.png`). */
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
  /** Lines drawn. */
  lines: number;
  /** Pages (a PDF's letter pages; 1 for a PNG or an SVG), and one page's size in px (a PDF's as laid out, 1700 wide). */
  pages: number;
  width: number;
  height: number;
}

/*
 * What drawing costs a worker, estimated from the layout before anything is drawn, so that the
 * server's pool can refuse a card too long to draw within one request's budget (as
 * api/http/task-cost.ts does for the work that plays deals out). Measured on the project's
 * 2-core machine (Node 20) over the three cards and cards of 200 and 600 lines, each the
 * slowest seen: resvg turns each glyph into outlines (about 0.1 ms a glyph) and fills and
 * compresses the pixels (about 45 ms a million); pdfkit lays out and embeds about 0.03 ms a
 * glyph, after some 30 ms for the font. The practice card (about 2,100 glyphs, 5.5 million
 * pixels) is estimated at 460 ms as a PNG, 90 ms as a PDF.
 */
export const DRAW_COST = { pngMsPerGlyph: 0.1, pngMsPerMegapixel: 45, pdfMsPerGlyph: 0.03, pdfMs: 30 } as const;

/** The estimated milliseconds of drawing a layout in a format (an SVG's is the layout's own, a few ms). */
export function drawingMs(layout: CardLayout, format: PictureFormat): number {
  const texts = [...layout.title.rows, ...layout.headings, ...layout.lines.flatMap((l) => [...l.groups, ...(l.note?.rows ?? []), l.value])];
  const glyphs = texts.reduce((n, t) => n + t.text.replace(/ /g, '').length, 0);
  if (format === 'png') return glyphs * DRAW_COST.pngMsPerGlyph + ((layout.width * layout.height) / 1e6) * DRAW_COST.pngMsPerMegapixel;
  if (format === 'pdf') return DRAW_COST.pdfMs + glyphs * DRAW_COST.pdfMsPerGlyph;
  return 0;
}

const lineCount = (layout: CardLayout): string => `${layout.lines.length} line${layout.lines.length === 1 ? '' : 's'}`;

/**
 * Draws a card's text (the parser's errors for a bad card, TM_BAD_INPUT for bad options,
 * TM_TOO_COSTLY for a PNG too long to be one picture, or a drawing estimated over `budgetMs`
 * when one is given: the server's). A PDF is laid out on letter pages 1700 px to the page's
 * width, `width` applying to the PNG and the SVG.
 */
export function drawCard(text: string, format: PictureFormat, opts: Pick<PictureOptions, 'columns' | 'width'> = {}, budgetMs = 0): DrawnCard {
  const card = printedFromNotation(parseCard(text));
  const about = { name: card.name, fileName: pictureFileName(card.name, format), lines: card.sections.reduce((n, sec) => n + sec.lines.length, 0) };
  if (format === 'pdf') {
    const width = PICTURE_DEFAULTS.width;
    const layout = layoutCard(card, { columns: opts.columns, width, pageHeight: Math.round((width * LETTER.h) / LETTER.w) });
    if (budgetMs > 0 && drawingMs(layout, 'pdf') > budgetMs) {
      throw new TilemateError('TM_TOO_COSTLY', `the card is too long for the server to draw in one request (${lineCount(layout)}); draw it with tilemate card render on your own computer`);
    }
    const pages = Array.from({ length: layout.pages }, (_, p) => pageShapes(layout, p));
    return { ...about, contentType: CONTENT_TYPES.pdf, bytes: pdfFromPages(pages, { width, title: card.name }), pages: layout.pages, width, height: layout.height };
  }
  const layout = layoutCard(card, { columns: opts.columns, width: opts.width });
  const size = { pages: 1, width: layout.width, height: layout.height };
  if (format === 'svg') return { ...about, ...size, contentType: CONTENT_TYPES.svg, bytes: new TextEncoder().encode(cardSvg(layout)) };
  if (layout.width * layout.height > MAX_PNG_PIXELS || (budgetMs > 0 && drawingMs(layout, 'png') > budgetMs)) {
    throw new TilemateError('TM_TOO_COSTLY', `the card is too long to draw as one picture (${lineCount(layout)}); draw it as a PDF, which spreads it over pages`);
  }
  return { ...about, ...size, contentType: CONTENT_TYPES.png, bytes: pngFromSvg(cardSvg(layout), layout.width, layout.height) };
}
