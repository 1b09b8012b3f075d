import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { TilemateError } from '../../engine/errors.js';
import { readCardText } from '../../io/cards.js';
import { printable, writeFileAtomic } from '../../io/files.js';
import { drawCard, PICTURE_FORMATS, type PictureFormat } from '../shared/card-drawing.js';
import { PICTURE_DEFAULTS, PICTURE_WIDTHS } from '../shared/card-picture.js';

/**
 * `tilemate card render`: a card drawn as it is printed (api/shared/card-picture.ts), to print
 * and to photograph: PNG, PDF (letter pages) or SVG, chosen by the file's extension.
 */

interface RenderFlags {
  card?: string;
  out: string;
  columns?: string;
  width?: string;
}

const bad = (words: string): never => {
  throw new TilemateError('TM_BAD_INPUT', words);
};

function formatOf(out: string): PictureFormat {
  const ext = extname(out).slice(1).toLowerCase();
  if ((PICTURE_FORMATS as readonly string[]).includes(ext)) return ext as PictureFormat;
  return bad(`--out must name a .png, .pdf or .svg file, and ${printable(out)} does not.`);
}

function columnsOf(text: string | undefined): 1 | 2 | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === '1' || text.trim() === '2') return Number(text) as 1 | 2;
  return bad(`--columns must be 1 or 2, not ${printable(text)}.`);
}

function widthOf(text: string | undefined, format: PictureFormat): number | undefined {
  if (text === undefined) return undefined;
  if (format === 'pdf') bad('--width sets the width of a PNG or an SVG; a PDF is always drawn on letter pages, so leave --width out.');
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || n < PICTURE_WIDTHS.min || n > PICTURE_WIDTHS.max) {
    bad(`--width must be a whole number of pixels from ${PICTURE_WIDTHS.min} to ${PICTURE_WIDTHS.max}, not ${printable(text)}.`);
  }
  return n;
}

export function registerCardRender(card: Command, exit: (code: number) => void): void {
  card
    .command('render')
    .description("draw a card as it is printed (groups in their suits' colours, notes, X or C and values) as a PNG, a PDF or an SVG, to print or photograph")
    .option('--card <file>', 'the card file to draw (default: the built-in practice card)')
    .requiredOption('--out <file>', 'the file to write: its extension chooses the kind, .png, .pdf (letter pages) or .svg')
    .option('--columns <n>', `1, or 2 side by side like a printed card (default ${PICTURE_DEFAULTS.columns})`)
    .option('--width <px>', `a PNG's or SVG's width in pixels, ${PICTURE_WIDTHS.min} to ${PICTURE_WIDTHS.max} (default ${PICTURE_DEFAULTS.width})`)
    .action((f: RenderFlags) => {
      const format = formatOf(f.out);
      const columns = columnsOf(f.columns);
      const width = widthOf(f.width, format);
      const drawn = drawCard(readCardText(f.card), format, { columns, width });
      const path = resolve(f.out);
      writeFileAtomic(path, drawn.bytes);
      const size = format === 'pdf' ? `${drawn.pages} letter page${drawn.pages === 1 ? '' : 's'}` : `${drawn.width} by ${drawn.height} pixels`;
      process.stdout.write(`${printable(`Wrote ${path} (${format.toUpperCase()}, ${size}): ${drawn.name}, ${drawn.lines} line${drawn.lines === 1 ? '' : 's'}.`)}\n`);
      exit(0);
    });
}
