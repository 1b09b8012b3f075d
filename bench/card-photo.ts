import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { parseCard } from '../engine/mah-jongg/card.js';
import { printedFromNotation } from '../engine/mah-jongg/printed-card.js';
import { nextU32, seedRng, type RngState } from '../engine/rng.js';
import { cardSvg, layoutCard, type CardLayout } from '../api/shared/card-picture.js';
import { pngFromSvg } from '../io/card-image.js';
import { closeCardPhotoReader, readCardPhotos } from '../io/card-photo.js';
import type { LineOutcome } from '../io/card-photo-check.js';
import { addDraft, median, merge, row, table, tally, type Tally } from './card-photo-tally.js';

/**
 * The photo import measured (issue 44): each of the project's three original cards drawn in
 * the printed style (api/shared/card-picture.ts, two columns), each column cut out as a photo
 * of one panel, made to look like a phone's photo (blurred, turned, sheared, badly lit, of low
 * resolution, saved as a poor JPEG; several seeded photos of each), read back with
 * io/card-photo.ts and held line by line to the card it was drawn from (io/card-photo-check.ts).
 *
 * Printed per card and per distortion: the share of lines recovered exactly with its 95%
 * Wilson interval, the lines marked unsure, the false-sure share (lines read wrong, or lost,
 * and not marked: the reading that matters most to avoid), and seconds per photo.
 *
 *   npm run bench:card-photo                 every card, every distortion, 3 photos of each (and of the whole card in one photo: clean, phone, small phone, lowres)
 *   npm run bench:card-photo -- --seeds 1 --cards practice --distortions clean,blur
 *   ... -- --json out.json                   the per-line results too
 *   ... -- --save DIR                        the photos made, to look at
 *   ... -- --panels-only                     no photos of the whole card
 */

const CARDS = { practice: 'cards/practice-2026.card', garden: 'cards/garden-2026.card', orchard: 'cards/orchard-2026.card' } as const;
type CardName = keyof typeof CARDS;

/** Drawn at twice the default width: a panel about 1,650 pixels wide, as a phone's photo of one panel is at least. */
const DRAW_WIDTH = 3400;
/** A table's colour around the card's paper, where the photo shows more than the card. */
const TABLE = { r: 92, g: 78, b: 64 };

const rand = (rng: RngState): number => nextU32(rng) / 2 ** 32;
const between = (rng: RngState, lo: number, hi: number): number => lo + (hi - lo) * rand(rng);
const sign = (rng: RngState): number => (rand(rng) < 0.5 ? -1 : 1);

interface Photo {
  bytes: Buffer;
  note: string;
}
/** `across`: how many panels the picture holds side by side (a phone's photo of the whole card has as many pixels per letter at twice the width). */
type Distort = (panel: Buffer, rng: RngState, across: number) => Promise<Photo>;

async function size(img: Buffer): Promise<{ width: number; height: number }> {
  const m = await sharp(img).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0 };
}

/** The panel on a table, a margin of it showing on every side. */
async function onTable(panel: Buffer, share = 0.05): Promise<Buffer> {
  const { width, height } = await size(panel);
  const m = Math.round(Math.max(width, height) * share);
  return sharp(panel).extend({ top: m, bottom: m, left: m, right: m, background: TABLE }).png().toBuffer();
}

/** Light falling off across the photo (a lamp to one side), the whole a little darker, contrast lower. */
async function badLight(img: Buffer, rng: RngState, strength: number): Promise<{ bytes: Buffer; note: string }> {
  const { width, height } = await size(img);
  const angle = between(rng, 0, 360);
  const dark = 1 - between(rng, 0.35, 0.5) * strength;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" gradientTransform="rotate(${angle.toFixed(0)} 0.5 0.5)"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="rgb(${Math.round(255 * dark)},${Math.round(250 * dark)},${Math.round(240 * dark)})"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const level = 1 - between(rng, 0.2, 0.35) * strength;
  const contrast = 1 - between(rng, 0.25, 0.4) * strength;
  const bytes = await sharp(img)
    .composite([{ input: Buffer.from(svg), blend: 'multiply' }])
    // lower contrast around the middle grey, then darker as a whole
    .linear(contrast * level, (1 - contrast) * 128 * level)
    .png()
    .toBuffer();
  return { bytes, note: `light falling to ${dark.toFixed(2)} at ${angle.toFixed(0)}°, level ${level.toFixed(2)}, contrast ${contrast.toFixed(2)}` };
}

/**
 * The distortions also tried on a photo of the whole card, both columns in one picture: a
 * phone's photo with as many pixels per letter as a panel's (twice as wide); the same at a
 * panel's width, half as many pixels per letter (where reading gives out); and the whole card
 * down to 1,000 to 1,200 pixels and back.
 */
const WHOLE = [
  { d: 'clean', across: 1, label: 'whole card, clean' },
  { d: 'phone', across: 2, label: 'whole card, phone' },
  { d: 'phone', across: 1, label: 'whole card, small phone' },
  { d: 'lowres', across: 1, label: 'whole card, lowres' },
];

export const DISTORTIONS: Record<string, Distort> = {
  clean: async (panel) => ({ bytes: panel, note: 'as drawn' }),
  blur: async (panel, rng) => {
    const sigma = between(rng, 1.5, 2);
    return { bytes: await sharp(panel).blur(sigma).png().toBuffer(), note: `gaussian blur ${sigma.toFixed(2)} px` };
  },
  rotate: async (panel, rng) => {
    const deg = sign(rng) * between(rng, 2, 4);
    return {
      bytes: await sharp(await onTable(panel))
        .rotate(deg, { background: TABLE })
        .png()
        .toBuffer(),
      note: `turned ${deg.toFixed(2)}°`,
    };
  },
  skew: async (panel, rng) => {
    const kx = sign(rng) * between(rng, 0.03, 0.06),
      ky = sign(rng) * between(rng, 0.02, 0.04);
    return {
      bytes: await sharp(await onTable(panel))
        .affine(
          [
            [1, kx],
            [ky, 1],
          ],
          { background: TABLE, interpolator: 'bicubic' },
        )
        .png()
        .toBuffer(),
      note: `sheared ${kx.toFixed(3)} across, ${ky.toFixed(3)} down`,
    };
  },
  lighting: async (panel, rng) => badLight(panel, rng, 1),
  lowres: async (panel, rng) => {
    const { width, height } = await size(panel);
    const w = Math.round(between(rng, 1000, 1200));
    const small = await sharp(panel).resize({ width: w }).png().toBuffer();
    return { bytes: await sharp(small).resize({ width, height, fit: 'fill' }).png().toBuffer(), note: `down to ${w} px wide and back` };
  },
  jpeg: async (panel, rng) => {
    const q = Math.round(between(rng, 55, 65));
    return { bytes: await sharp(panel).jpeg({ quality: q, chromaSubsampling: '4:2:0' }).toBuffer(), note: `JPEG quality ${q}` };
  },
  /** All of them at once, each milder: what a phone in a club room gives. */
  phone: async (panel, rng, across) => {
    const deg = sign(rng) * between(rng, 1, 2.5);
    const kx = sign(rng) * between(rng, 0.01, 0.03);
    const sigma = between(rng, 0.8, 1.3);
    let img = await sharp(await onTable(panel))
      .rotate(deg, { background: TABLE })
      .png()
      .toBuffer();
    img = await sharp(img)
      .affine(
        [
          [1, kx],
          [0, 1],
        ],
        { background: TABLE },
      )
      .png()
      .toBuffer();
    const lit = await badLight(img, rng, 0.6);
    const { width } = await size(lit.bytes);
    const w = Math.round(between(rng, 1100, 1400) * across);
    const small = await sharp(lit.bytes)
      .blur(sigma)
      .resize({ width: Math.min(width, w) })
      .png()
      .toBuffer();
    const q = Math.round(between(rng, 60, 75));
    return { bytes: await sharp(small).jpeg({ quality: q }).toBuffer(), note: `turned ${deg.toFixed(2)}°, sheared ${kx.toFixed(3)}, blur ${sigma.toFixed(2)}, ${lit.note}, ${w} px wide, JPEG ${q}` };
  },
};

/** The card drawn in two columns, and each column cut out as a panel with a margin of paper (the title above is another panel's). */
export async function panelsOf(layout: CardLayout, png: Uint8Array): Promise<Buffer[]> {
  const xs = [...new Set(layout.headings.map((h) => Math.round(h.band.x)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  const margin = Math.round(layout.width * 0.025);
  for (const x of xs) {
    const heads = layout.headings.filter((h) => Math.round(h.band.x) === x);
    const lines = layout.lines.filter((l) => Math.round(l.box.x) === x);
    const w = heads[0].band.w;
    const top = Math.min(...heads.map((h) => h.band.y)) - margin;
    const bottom = Math.max(...lines.map((l) => l.box.y + l.box.h)) + margin;
    const left = Math.max(0, Math.round(x - margin)),
      right = Math.min(layout.width, Math.round(x + w + margin));
    out.push(
      await sharp(Buffer.from(png))
        .extract({ left, top: Math.max(0, Math.round(top)), width: right - left, height: Math.round(Math.min(layout.height, bottom) - Math.max(0, top)) })
        .png()
        .toBuffer(),
    );
  }
  return out;
}

// ------------------------------------------------------------------ the run

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const seeds = Number(arg('seeds') ?? 3);
  const cards = (arg('cards')?.split(',') ?? Object.keys(CARDS)) as CardName[];
  const distortions = arg('distortions')?.split(',') ?? Object.keys(DISTORTIONS);
  const save = arg('save');
  const json = arg('json');
  const wholeToo = !process.argv.includes('--panels-only');
  const results: { card: string; distortion: string; seed: number; note: string; seconds: number; lines: { id: string; outcome: LineOutcome; read: string | null }[] }[] = [];
  const byCell = new Map<string, Tally>();
  const started = performance.now();
  for (const name of cards) {
    const text = readFileSync(CARDS[name], 'utf8');
    const layout = layoutCard(printedFromNotation(parseCard(text)), { columns: 2, width: DRAW_WIDTH });
    const whole = Buffer.from(pngFromSvg(cardSvg(layout), layout.width, layout.height));
    const panels = await panelsOf(layout, whole);
    const runs = [...distortions.map((d) => ({ d, whole: false, across: 1, label: d })), ...(wholeToo ? WHOLE.filter((w) => distortions.includes(w.d)).map((w) => ({ ...w, whole: true })) : [])];
    for (const { d, whole: asWhole, across, label } of runs) {
      const distort = DISTORTIONS[d];
      if (!distort) throw new Error(`no distortion named ${d}; there are ${Object.keys(DISTORTIONS).join(', ')}`);
      const cell = tally();
      byCell.set(`${name}/${label}`, cell);
      for (let seed = 1; seed <= (d === 'clean' ? 1 : seeds); seed++) {
        const rng = seedRng(1000 * seed + name.length * 7 + d.length);
        // one panel after the other: the seeded draws come in the same order every run
        const photos: Photo[] = [];
        for (const p of asWhole ? [whole] : panels) photos.push(await distort(p, rng, across));
        if (save) photos.forEach((p, i) => writeFileSync(`${save}/${name}-${label.replace(/[^a-z0-9]+/g, '-')}-${seed}-${i + 1}.${p.bytes[0] === 0xff ? 'jpg' : 'png'}`, p.bytes));
        const t0 = performance.now();
        const draft = await readCardPhotos(photos.map((p) => p.bytes));
        const seconds = (performance.now() - t0) / 1000;
        const { check, marked } = addDraft(cell, text, draft, seconds, photos.length);
        results.push({ card: name, distortion: label, seed, note: photos.map((p) => p.note).join('; '), seconds, lines: check.lines.map(({ id, outcome, read }) => ({ id, outcome, read })) });
        const bad = check.lines.filter((l) => l.outcome !== 'exact');
        process.stderr.write(
          `${name} ${label} #${seed}: ${check.lines.length - bad.length}/${check.lines.length} exact, ${marked} marked, ${seconds.toFixed(1)} s${bad.length ? `; not exact: ${bad.map((l) => `${l.id} (${l.outcome}${l.read ? `: ${l.read}` : ''})`).join('; ')}` : ''}\n`,
        );
      }
    }
  }
  await closeCardPhotoReader();
  const rows: string[][] = [];
  const labels = [...new Set([...byCell.keys()].map((k) => k.slice(k.indexOf('/') + 1)))];
  const panelLabels = labels.filter((l) => !l.startsWith('whole'));
  for (const name of cards) for (const l of labels) rows.push(row(`${name} / ${l}`, byCell.get(`${name}/${l}`)!));
  for (const l of labels) rows.push(row(`all cards / ${l}`, merge(cards.map((c) => byCell.get(`${c}/${l}`)!))));
  for (const name of cards) rows.push(row(`${name} / every distortion, panels`, merge(panelLabels.map((l) => byCell.get(`${name}/${l}`)!))));
  const total = merge(cards.flatMap((c) => panelLabels.map((l) => byCell.get(`${c}/${l}`)!)));
  rows.push(row('all cards, every distortion, panels', total));
  console.log(table(rows));
  const all = merge([...byCell.values()]);
  console.log(
    `\n${all.seconds.length} photos (one per panel, ${seeds} seeded photos of each distortion, one clean; and the whole card in one photo: clean, as a phone's at two sizes, and at low resolution), ${((performance.now() - started) / 60000).toFixed(1)} min in all; seconds per photo of a panel: median ${median(total.seconds).toFixed(1)}, mean ${(total.seconds.reduce((a, b) => a + b, 0) / total.seconds.length).toFixed(1)}.`,
  );
  console.log('false-sure: lines read wrong or lost and not marked unsure, of all lines; wrong/lost/extra unmarked: those lines, and lines the draft made up and did not mark.');
  if (json) writeFileSync(json, JSON.stringify(results, null, 1));
}

await main();
