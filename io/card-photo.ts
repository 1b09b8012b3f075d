import { PRINTED_LIMITS, readPrintedCard, type CardReading, type PrintedCard } from '../engine/mah-jongg/printed-card.js';
import { TilemateError } from '../engine/errors.js';
import { preparePhoto } from './card-photo-image.js';
import { MAX_PHOTOS, PHOTO_LIMITS, type PhotoLimits } from './card-photo-limits.js';
import sharp from 'sharp';
import { closeOcr, ocrBlock, ocrRow, ocrWords, type OcrBox } from './card-photo-ocr.js';
import { joinReadings, readRows, UNSURE, type PhotoReading } from './card-photo-read.js';

/**
 * A photo of a printed card (or one photo per panel of it) read into a draft card for the
 * editor (issue 44): the text by OCR (tesseract.js, its English model from the registry's
 * package, nothing fetched), the colour of each group from the photo's pixels, the notes
 * and values recognised, under the card's headings. Every line the reading is unsure of
 * carries a plain sentence saying why (PrintedLine.unsure): the OCR was not confident, the
 * tiles do not add up to 14, a colour was unclear, the value could not be read, or the
 * line as read does not make a card line. The draft is read by engine/mah-jongg/printed-card.ts as
 * anything the player types is: the lines that settle make a card at once, the rest wait.
 *
 *   io/card-photo-image.ts  opening the photo within bounds, evening the light, straightening, scaling
 *   io/card-photo-ocr.ts    the OCR's one worker for the process
 *   io/card-photo-read.ts   words into columns, rows, headings and lines; colours; what to check
 */

export { MAX_PHOTOS, PHOTO_LIMITS, type PhotoLimits } from './card-photo-limits.js';

/** A line the player should check, and why. */
export interface UnsureLine {
  section: string;
  /** The line's place in its section, from 1. */
  line: number;
  /** The line's id as the analyzer will name it (`2468 #3`). */
  id: string;
  /** The groups as read, as printed (`FF 2026 2222 2222`). */
  groups: string;
  /** Why, in one plain sentence. */
  reason: string;
}

export interface PhotoDraft {
  /** The draft card: every line as read, its `unsure` set where it should be checked. */
  card: PrintedCard;
  /** The lines to check, in the card's order. */
  unsure: UnsureLine[];
  /** The draft read into the notation (the settled lines make a card; the rest are kept as drafts). */
  reading: CardReading;
  /** Each photo: how much it was turned to straighten it (degrees) and how many words were read. */
  photos: { angle: number; words: number }[];
}

export interface PhotoOptions {
  limits?: PhotoLimits;
  /** The most one photo's OCR may take (ms); then TM_TOO_SLOW. */
  timeoutMs?: number;
  /** The card's name when the photos do not show one. */
  name?: string;
}

/** Reads one photo (PNG or JPEG bytes) into its sections of draft lines. */
async function readOne(bytes: Buffer, opts: PhotoOptions): Promise<{ reading: PhotoReading; angle: number; words: number }> {
  const photo = await preparePhoto(bytes, opts.limits ?? PHOTO_LIMITS);
  const words = await ocrWords(photo.ocrPng, opts.timeoutMs);
  // a piece of the evened-out picture, with a margin of white, read again on its own
  const reread = async (box: OcrBox, whitelist: string) => {
    const left = Math.max(0, Math.floor(box.x0)),
      top = Math.max(0, Math.floor(box.y0));
    const width = Math.min(photo.width, Math.ceil(box.x1)) - left,
      height = Math.min(photo.height, Math.ceil(box.y1)) - top;
    if (width < 8 || height < 8) return null;
    const pad = Math.round(height * 0.5);
    const png = await sharp(Buffer.from(photo.gray.buffer, photo.gray.byteOffset, photo.gray.length), { raw: { width: photo.width, height: photo.height, channels: 1 } })
      .extract({ left, top, width, height })
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 255, g: 255, b: 255 } })
      .png()
      .toBuffer();
    return ocrRow(png, whitelist, opts.timeoutMs);
  };
  // many such pieces stacked one above the other on white and read in one go (one OCR job, not one a row)
  const rereadMany = async (boxes: OcrBox[], whitelist: string) => {
    const pieces = boxes.map((box) => {
      const left = Math.max(0, Math.floor(box.x0)),
        top = Math.max(0, Math.floor(box.y0));
      const width = Math.min(photo.width, Math.ceil(box.x1)) - left,
        height = Math.min(photo.height, Math.ceil(box.y1)) - top;
      return width < 8 || height < 8 ? null : { left, top, width, height, pad: Math.round(height * 0.5), at: 0 };
    });
    const real = pieces.filter((p) => p !== null);
    if (real.length === 0) return boxes.map(() => null);
    const W = Math.max(...real.map((p) => p.width + 2 * p.pad));
    let H = 0;
    for (const p of real) {
      p.at = H + p.pad;
      H += p.height + 2 * p.pad;
    }
    const canvas = new Uint8Array(W * H).fill(255);
    for (const p of real)
      for (let y = 0; y < p.height; y++) {
        const from = (p.top + y) * photo.width + p.left;
        canvas.set(photo.gray.subarray(from, from + p.width), (p.at + y) * W + p.pad);
      }
    const png = await sharp(Buffer.from(canvas.buffer, canvas.byteOffset, canvas.length), { raw: { width: W, height: H, channels: 1 } })
      .png()
      .toBuffer();
    const rows = await ocrBlock(png, whitelist, opts.timeoutMs);
    return pieces.map((p) => {
      if (p === null) return null;
      const mine = rows.filter((r) => (r.y0 + r.y1) / 2 >= p.at - p.pad / 2 && (r.y0 + r.y1) / 2 < p.at + p.height + p.pad / 2);
      return mine.length === 0 ? null : { text: mine.map((r) => r.text).join(' '), confidence: Math.min(...mine.map((r) => r.confidence)) };
    });
  };
  return { reading: await readRows(photo, words, reread, rereadMany), angle: photo.angle, words: words.length };
}

/** Cuts a draft to what a printed card may hold (a photo of something else can read as anything). */
function bounded(card: PrintedCard): PrintedCard {
  let lines = 0;
  const sections = card.sections.slice(0, PRINTED_LIMITS.sections).map((s) => {
    const keep = s.lines.slice(0, Math.max(0, PRINTED_LIMITS.lines - lines));
    lines += keep.length;
    return {
      ...s,
      lines: keep.map((l) => ({
        ...l,
        groups: l.groups.slice(0, PRINTED_LIMITS.groups).map((g) => ({ ...g, text: g.text.slice(0, PRINTED_LIMITS.groupChars) })),
        note: l.note.replace(/\/\//g, '/').slice(0, PRINTED_LIMITS.noteChars),
      })),
    };
  });
  return { name: card.name, sections: sections.filter((s) => s.lines.length > 0) };
}

/**
 * Photos of a printed card (one, or one per panel, in reading order) read into a draft card.
 * A file that is not a PNG or JPEG picture, too large, or damaged is refused with a clear
 * error; a picture with no card on it gives a draft with no lines, or lines all marked for
 * checking.
 */
export async function readCardPhotos(photos: Buffer[], opts: PhotoOptions = {}): Promise<PhotoDraft> {
  if (photos.length === 0) throw new TilemateError('TM_BAD_INPUT', 'no photo was given');
  if (photos.length > MAX_PHOTOS) throw new TilemateError('TM_BAD_INPUT', `${photos.length} photos were given; one card is read from at most ${MAX_PHOTOS}`);
  const read: Awaited<ReturnType<typeof readOne>>[] = [];
  for (const p of photos) read.push(await readOne(p, opts));
  const card = bounded(
    joinReadings(
      read.map((r) => r.reading),
      opts.name ?? 'Card from a photo',
    ),
  );
  const reading = readPrintedCard(card);
  // a line the card's own reader finds a problem with was misread, whatever the OCR thought of it
  let i = 0;
  const unsure: UnsureLine[] = [];
  for (const s of card.sections) {
    s.lines.forEach((l, k) => {
      const r = reading.lines[i++];
      // and a line that does not settle (a question open) is one to check, whatever the question
      if (l.unsure === undefined && (r.problems.length > 0 || r.questions.some((q) => q.about === 'note') || r.notation === null)) l.unsure = UNSURE.problem;
      if (l.unsure !== undefined) {
        unsure.push({ section: s.title, line: k + 1, id: r.id, groups: l.groups.map((g) => g.text.replace(/\|/g, '/')).join(' '), reason: l.unsure });
      }
    });
  }
  // the notation's drafts carry each line's reason to check it
  return { card, unsure, reading: readPrintedCard(card), photos: read.map((r) => ({ angle: r.angle, words: r.words })) };
}

/**
 * The draft as a card file: readPrintedCard's text (the settled lines in the notation, the
 * others as `// draft:` lines that carry their reason to check), each settled line that is
 * to be checked followed by `// check: <reason>`, so the file itself says what to look at.
 */
export function draftText(draft: PhotoDraft): string {
  const rows = draft.reading.text.split('\n');
  let from = 0;
  const lines = draft.card.sections.flatMap((s) => s.lines);
  draft.reading.lines.forEach((r, i) => {
    if (r.notation === null) return;
    const at = rows.findIndex((row, k) => k >= from && (row.startsWith(r.notation!) || row.replace(/^#\d+ /, '').startsWith(r.notation!)));
    if (at < 0) return;
    from = at + 1;
    const reason = lines[i]?.unsure;
    if (reason !== undefined) rows[at] += ` // check: ${reason}`;
  });
  return rows.join('\n');
}

/** One photo of a printed card read into a draft card (readCardPhotos with one photo). */
export function readCardPhoto(photo: Buffer, opts: PhotoOptions = {}): Promise<PhotoDraft> {
  return readCardPhotos([photo], opts);
}

/** Ends the OCR's worker thread (a command line's or a server's last step; the next photo starts it again). */
export const closeCardPhotoReader = closeOcr;
