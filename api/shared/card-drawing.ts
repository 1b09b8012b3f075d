import { parseCard } from '../../engine/card.js';
import { TilemateError } from '../../engine/errors.js';
import { printedFromNotation } from '../../engine/printed-card.js';
import { LETTER, MAX_PNG_PIXELS, pdfFromPages, pngFromSvg } from '../../io/card-image.js';
import { cardSvg, layoutCard, pageShapes, pictureFileName, PICTURE_DEFAULTS, type PictureOptions } from './card-picture.js';

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

/**
 * Draws a card's text (the parser's errors for a bad card, TM_BAD_INPUT for bad options,
 * TM_TOO_COSTLY for a PNG too long to be one picture). A PDF is laid out on letter pages
 * 1700 px to the page's width, `width` applying to the PNG and the SVG.
 */
export function drawCard(text: string, format: PictureFormat, opts: Pick<PictureOptions, 'columns' | 'width'> = {}): DrawnCard {
  const card = printedFromNotation(parseCard(text));
  const about = { name: card.name, fileName: pictureFileName(card.name, format), lines: card.sections.reduce((n, sec) => n + sec.lines.length, 0) };
  if (format === 'pdf') {
    const width = PICTURE_DEFAULTS.width;
    const layout = layoutCard(card, { columns: opts.columns, width, pageHeight: Math.round(width * LETTER.h / LETTER.w) });
    const pages = Array.from({ length: layout.pages }, (_, p) => pageShapes(layout, p));
    return { ...about, contentType: CONTENT_TYPES.pdf, bytes: pdfFromPages(pages, { width, title: card.name }), pages: layout.pages, width, height: layout.height };
  }
  const layout = layoutCard(card, { columns: opts.columns, width: opts.width });
  const size = { pages: 1, width: layout.width, height: layout.height };
  if (format === 'svg') return { ...about, ...size, contentType: CONTENT_TYPES.svg, bytes: new TextEncoder().encode(cardSvg(layout)) };
  if (layout.width * layout.height > MAX_PNG_PIXELS) {
    throw new TilemateError('TM_TOO_COSTLY', `the card is too long to draw as one picture (${layout.lines.length} lines); draw it as a PDF, which spreads it over pages`);
  }
  return { ...about, ...size, contentType: CONTENT_TYPES.png, bytes: pngFromSvg(cardSvg(layout), layout.width, layout.height) };
}
