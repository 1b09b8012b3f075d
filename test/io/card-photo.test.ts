import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { cardSvg, layoutCard, type CardLayout } from '../../api/shared/card-picture.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { TilemateError } from '../../engine/errors.js';
import { printedFromText } from '../../engine/mah-jongg/printed-card.js';
import { pngFromSvg } from '../../io/card-image.js';
import { closeCardPhotoReader, PHOTO_LIMITS, readCardPhoto } from '../../io/card-photo.js';
import { checkDraft } from '../../io/card-photo-check.js';
import { captureOutput, run } from '../api/capture.js';

/**
 * The photo import (io/card-photo.ts) on pictures drawn by the card renderer: the practice
 * card's first three sections in one column, as a photo of one panel. The OCR is slow on a
 * small machine, so the tests are few and share one OCR worker.
 */

const PRACTICE = readFileSync(new URL('../../cards/practice-2026.card', import.meta.url), 'utf8');
/** The card's name and its first three sections (2026, 2468, Any Like Numbers: 16 lines). */
const PANEL = PRACTICE.slice(0, PRACTICE.indexOf('[Addition]'));

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
const dir = mkdtempSync(join(tmpdir(), 'tilemate-photo-'));
afterAll(async () => {
  await closeCardPhotoReader();
  rmSync(dir, { recursive: true, force: true });
});

function drawn(text: string): { layout: CardLayout; png: Buffer } {
  const layout = layoutCard(printedFromText(text), { columns: 1, width: 1700 });
  return { layout, png: Buffer.from(pngFromSvg(cardSvg(layout), layout.width, layout.height)) };
}

/** The picture with one line's "X 25" painted over in white, as if a thumb had covered it. */
async function valueCovered(layout: CardLayout, png: Buffer, id: string): Promise<Buffer> {
  const v = layout.lines.find((l) => l.id === id)!.value;
  const pad = 6;
  const cover = await sharp({ create: { width: Math.ceil(v.w) + 2 * pad, height: Math.ceil(v.h) + 2 * pad, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return sharp(png)
    .composite([{ input: cover, left: Math.floor(v.x) - pad, top: Math.floor(v.y) - pad }])
    .png()
    .toBuffer();
}

const errorOf = async (p: Promise<unknown>): Promise<TilemateError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof TilemateError) return e;
    throw e;
  }
  throw new Error('expected a TilemateError');
};

describe('card photo - reading a printed card', () => {
  it('a clean photo of one panel reads back its lines, and every line it misses is marked for checking', async () => {
    const { png } = drawn(PANEL);
    const draft = await readCardPhoto(png);
    const check = checkDraft(PANEL, draft);
    expect(check.lines.length).toBe(16);
    const exact = check.lines.filter((l) => l.outcome === 'exact').length;
    expect(exact).toBeGreaterThanOrEqual(14);
    // a line read wrong is never left unmarked, and none is lost
    expect(check.lines.filter((l) => l.outcome === 'wrong' || l.outcome === 'missing')).toEqual([]);
    expect(check.extra.sure).toBe(0);
    expect(check.headings.exact).toBeGreaterThanOrEqual(2);
    // the lines that settle make a card the parser reads
    expect(draft.reading.ready).toBeGreaterThanOrEqual(14);
    expect(parseCard(draft.reading.text).lines.length).toBe(draft.reading.ready);
    // the colours were read from the pixels: 2026 #1 is FF 2026a 2222b 6666b, green then red
    const first = draft.card.sections.flatMap((s) => s.lines).find((l) => l.groups.map((g) => g.text).join(' ') === 'FF 2026 2222 6666');
    expect(first?.groups.map((g) => g.colour)).toEqual([null, 'green', 'red', 'red']);
  });

  it('a photo that is not of a card gives a clear error or lines all marked to check, never a crash', async () => {
    // noise: seeded, so the test reads the same picture every run
    let s = 12345;
    const noise = Buffer.alloc(640 * 420 * 3);
    for (let i = 0; i < noise.length; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      noise[i] = s >>> 24;
    }
    const png = await sharp(noise, { raw: { width: 640, height: 420, channels: 3 } })
      .png()
      .toBuffer();
    try {
      const draft = await readCardPhoto(png);
      expect(draft.unsure.length).toBe(draft.reading.lines.length);
    } catch (e) {
      expect(e).toBeInstanceOf(TilemateError);
    }

    const text = await errorOf(readCardPhoto(Buffer.from('card: not a picture\n[2026]\nFF 2026a 2222b 6666b ; x 25\n')));
    expect([text.code, text.message]).toEqual(['TM_BAD_INPUT', 'the file is not a PNG or JPEG picture']);

    const cut = await errorOf(readCardPhoto(png.subarray(0, 200)));
    expect(cut.code).toBe('TM_BAD_INPUT');
    expect(cut.message).toMatch(/damaged/);

    const big = await errorOf(readCardPhoto(Buffer.concat([png, Buffer.alloc(PHOTO_LIMITS.maxBytes)])));
    expect(big.code).toBe('TM_BODY_TOO_LARGE');
    expect(big.message).toMatch(/at most 10 MB/);

    // pixels are counted from the picture's header, before it is decoded
    const wide = await sharp({ create: { width: 1500, height: 1000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const many = await errorOf(readCardPhoto(wide, { limits: { ...PHOTO_LIMITS, maxInputPixels: 1_000_000 } }));
    expect(many.message).toBe('the picture is 1500 by 1000 pixels; a photo of a card may have at most 1 million pixels');
  });

  it('card import - writes the draft card and names each line to check on standard error', async () => {
    const { layout, png } = drawn(PANEL);
    const photo = join(dir, 'panel.png');
    writeFileSync(photo, await valueCovered(layout, png, '2468 #2'));
    const file = join(dir, 'mine.card');
    expect(await run('card', 'import', '--photo', photo, '--out', file)).toBe(0);
    const written = readFileSync(file, 'utf8');
    // the settled lines are a card; the line whose value was covered waits as a draft, marked
    expect(parseCard(written).lines.length).toBeGreaterThanOrEqual(13);
    expect(written).toMatch(/\/\/ draft: .*"FFF".*"2468".*"unsure":"The X or C and the value at the end of this line could not be read/);
    expect(err).toContain('Check 2468 #2 (FFF 2468 4444 888): The X or C and the value at the end of this line could not be read: type them as your card prints them.');
    expect(out).toMatch(/^Wrote .*mine\.card: Tilemate Practice Card 2026, 16 lines in 3 sections read from 1 photo; \d+ settled in the notation/);

    expect(await run('card', 'import', '--photo', join(dir, 'none.png'), '--out', file)).toBe(2);
    expect(err).toMatch(/error TM_FILE: cannot read the photo .*none\.png: no such file/);
  });
});
