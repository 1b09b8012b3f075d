import { performance } from 'node:perf_hooks';
import sharp, { type Metadata } from 'sharp';
import { TilemateError } from '../engine/errors.js';

/**
 * A photo of a printed card made ready to be read (io/card-photo.ts): opened within bounds,
 * turned upright by its camera's orientation, evened out (a lamp on one side, a shadow, a
 * dim room: each pixel's ink measured against the paper around it), straightened (the
 * angle at which the rows of print line up best), and scaled so that the print is the
 * height the OCR reads best. The same picture is kept in colour, pixel for pixel, so that a
 * group's colour is read where its letters are.
 */

import { PHOTO_LIMITS, type PhotoLimits } from './card-photo-limits.js';
export { PHOTO_LIMITS, type PhotoLimits };

/** A picture ready for the OCR, with its colours at the same places. */
export interface PreparedPhoto {
  width: number;
  height: number;
  /** The picture evened out, grey, ink dark on white: what the OCR reads (PNG). */
  ocrPng: Buffer;
  /** Ink (0) to paper (255) at each pixel, evened out. */
  gray: Uint8Array;
  /** The colour picture, RGB, white-balanced against the paper. */
  rgb: Uint8Array;
  /** The angle the photo was turned by to straighten it (degrees). */
  angle: number;
  /** How much it was scaled by, from its working size (at most 3000 pixels a side). */
  scale: number;
  /** The usual height of a letter or digit, after scaling (px). */
  letterHeight: number;
}

/** The height of a letter the OCR reads best at (px; tesseract's own advice is a capital of 20 to 40). */
const LETTER_TARGET = 32;

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Opens a photo within the limits: PNG or JPEG, at most so many bytes and pixels; a clear error otherwise. */
export async function openPhoto(bytes: Buffer, limits: PhotoLimits = PHOTO_LIMITS): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  if (bytes.length === 0) throw new TilemateError('TM_BAD_INPUT', 'the photo is empty');
  if (bytes.length > limits.maxBytes) {
    throw new TilemateError('TM_BODY_TOO_LARGE', `the photo is ${(bytes.length / 1048576).toFixed(1)} MB; a photo of a card may be at most ${Math.round(limits.maxBytes / 1048576)} MB`);
  }
  const png = bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) throw new TilemateError('TM_BAD_INPUT', 'the file is not a PNG or JPEG picture');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new TilemateError('TM_BAD_INPUT', `the ${png ? 'PNG' : 'JPEG'} picture is damaged and cannot be opened`);
  }
  const w = meta.autoOrient?.width ?? meta.width ?? 0,
    h = meta.autoOrient?.height ?? meta.height ?? 0;
  if (w * h > limits.maxInputPixels) {
    throw new TilemateError('TM_BAD_INPUT', `the picture is ${w} by ${h} pixels; a photo of a card may have at most ${Math.round(limits.maxInputPixels / 1e6)} million pixels`);
  }
  if (w < 200 || h < 100) throw new TilemateError('TM_BAD_INPUT', `the picture is only ${w} by ${h} pixels, too small to read a card from`);
  // a first cut to the working size (JPEG shrinks as it decodes): the letters are measured there
  const side = limits.maxSide;
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: limits.maxInputPixels, failOn: 'error' })
      .autoOrient()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    throw new TilemateError('TM_BAD_INPUT', `the ${png ? 'PNG' : 'JPEG'} picture is damaged and cannot be opened`);
  }
}

/** The paper's colour: each channel's brightest common value (its 90th percentile). */
function paperColour(rgb: Uint8Array): [number, number, number] {
  const out: number[] = [];
  const step = Math.max(1, Math.floor(rgb.length / 3 / 200_000));
  for (let c = 0; c < 3; c++) {
    const hist = new Uint32Array(256);
    let n = 0;
    for (let i = c; i < rgb.length; i += 3 * step) {
      hist[rgb[i]]++;
      n++;
    }
    let acc = 0,
      v = 255;
    for (; v > 0; v--) {
      acc += hist[v];
      if (acc >= n * 0.1) break;
    }
    out.push(Math.max(v, 40));
  }
  return out as [number, number, number];
}

/**
 * Gives the event loop a turn every few milliseconds of work, so that a server reading a photo
 * goes on answering other requests meanwhile (the OCR itself runs in a thread of its own).
 */
export class Pause {
  private since = performance.now();
  async turn(): Promise<void> {
    if (performance.now() - this.since < 10) return;
    await tick();
    this.since = performance.now();
  }
}

/** White balance against the paper: paper becomes white, and a coloured lamp no longer tints the inks. */
async function whiteBalance(rgb: Uint8Array, pause = new Pause()): Promise<Uint8Array> {
  const paper = paperColour(rgb);
  const gain = paper.map((p) => 250 / p);
  const out = new Uint8Array(rgb.length);
  const chunk = 3 * 65536;
  for (let start = 0; start < rgb.length; start += chunk) {
    const end = Math.min(rgb.length, start + chunk);
    for (let i = start; i < end; i += 3) {
      out[i] = Math.min(255, rgb[i] * gain[0]);
      out[i + 1] = Math.min(255, rgb[i + 1] * gain[1]);
      out[i + 2] = Math.min(255, rgb[i + 2] * gain[2]);
    }
    await pause.turn();
  }
  return out;
}

/**
 * Ink against paper, evened out: each pixel's darkest channel (coloured inks are dark in at
 * least one channel, paper in none) divided by the paper's brightness around it (the
 * brightest pixel of each block, smoothed), then stretched so that ink is black.
 */
export async function evenOut(rgb: Uint8Array, width: number, height: number, pause = new Pause()): Promise<Uint8Array> {
  const n = width * height;
  const dark = new Uint8Array(n);
  for (let y = 0; y < height; y++) {
    for (let p = y * width, i = p * 3, end = p + width; p < end; p++, i += 3) dark[p] = Math.min(rgb[i], rgb[i + 1], rgb[i + 2]);
    await pause.turn();
  }
  const B = 32;
  const gw = Math.ceil(width / B),
    gh = Math.ceil(height / B);
  const grid = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let mx = 0;
      const y1 = Math.min(height, (gy + 1) * B),
        x1 = Math.min(width, (gx + 1) * B);
      for (let y = gy * B; y < y1; y++) for (let x = gx * B, p = y * width + x; x < x1; x++, p++) if (dark[p] > mx) mx = dark[p];
      grid[gy * gw + gx] = mx;
    }
    await pause.turn();
  }
  // a block all of ink (a thick rule, a shaded band) takes its neighbours' paper: the median of 3 by 3
  const smooth = new Float32Array(gw * gh);
  const win: number[] = [];
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      win.length = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = gy + dy,
            xx = gx + dx;
          if (yy >= 0 && yy < gh && xx >= 0 && xx < gw) win.push(grid[yy * gw + xx]);
        }
      win.sort((a, b) => a - b);
      smooth[gy * gw + gx] = Math.max(24, win[Math.floor(win.length / 2)], grid[gy * gw + gx] * 0.9);
    }
  }
  // the paper's brightness at each pixel: the blocks' values interpolated, the columns' weights worked out once
  const cx0 = new Int32Array(width),
    cx1 = new Int32Array(width),
    ctx = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / B - 0.5));
    cx0[x] = Math.floor(fx);
    cx1[x] = Math.min(gw - 1, cx0[x] + 1);
    ctx[x] = fx - cx0[x];
  }
  const out = new Uint8Array(n);
  const hist = new Uint32Array(256);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / B - 0.5));
    const y0 = Math.floor(fy),
      y1 = Math.min(gh - 1, y0 + 1),
      ty = fy - y0;
    const r0 = y0 * gw,
      r1 = y1 * gw;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const a = cx0[x],
        b = cx1[x],
        tx = ctx[x];
      const bg = (smooth[r0 + a] * (1 - tx) + smooth[r0 + b] * tx) * (1 - ty) + (smooth[r1 + a] * (1 - tx) + smooth[r1 + b] * tx) * ty;
      const v = Math.min(255, Math.round((dark[p] / bg) * 255));
      out[p] = v;
      hist[v]++;
    }
    await pause.turn();
  }
  // stretch: the ink's level (the darkest 5% of what is not paper) to black, the paper's to white
  let inkCount = 0;
  for (let v = 0; v < 200; v++) inkCount += hist[v];
  let acc = 0,
    ink = 0;
  for (; ink < 200; ink++) {
    acc += hist[ink];
    if (acc >= Math.max(1, inkCount * 0.05)) break;
  }
  const white = 235;
  const span = Math.max(40, white - ink);
  const level = new Uint8Array(256);
  for (let v = 0; v < 256; v++) level[v] = Math.max(0, Math.min(255, Math.round(((v - ink) / span) * 255)));
  for (let p = 0; p < n; p++) out[p] = level[out[p]];
  return out;
}

/** The angle (degrees) that lines the print's rows up best: the one whose rows of ink are the sharpest. */
export async function skewAngle(gray: Uint8Array, width: number, height: number, pause = new Pause()): Promise<number> {
  // ink pixels of a thinned-out copy, as points
  const step = Math.max(1, Math.round(Math.max(width, height) / 1200));
  const xs: number[] = [],
    ys: number[] = [];
  for (let y = 0; y < height; y += step)
    for (let x = 0; x < width; x += step)
      if (gray[y * width + x] < 110) {
        xs.push(x / step);
        ys.push(y / step);
      }
  if (xs.length < 200) return 0;
  // rows of y cos t - x sin t, for |t| up to 8 degrees
  const off = Math.ceil((width / step) * 0.15) + 2;
  const size = Math.ceil(height / step + 2 * off);
  const bins = new Float64Array(size);
  const score = (deg: number): number => {
    const t = (deg * Math.PI) / 180,
      s = Math.sin(t),
      c = Math.cos(t);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i] * c - xs[i] * s + off)]++;
    let sum = 0;
    for (let i = 0; i < size; i++) sum += bins[i] * bins[i];
    return sum;
  };
  let best = 0,
    bestScore = score(0);
  for (let d = -8; d <= 8.001; d += 0.25) {
    const s = score(d);
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
    await pause.turn();
  }
  const coarse = best;
  for (let d = coarse - 0.25; d <= coarse + 0.25; d += 0.05) {
    const s = score(d);
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
    await pause.turn();
  }
  return Math.round(best * 100) / 100;
}

/** The usual height of a mark of ink (a letter, a digit): the median height of the pieces of ink of letter size (0 when there are too few to tell). */
export async function letterHeight(gray: Uint8Array, width: number, height: number, pause = new Pause()): Promise<number> {
  const step = Math.max(1, Math.round(Math.max(width, height) / 1500));
  const w = Math.floor(width / step),
    h = Math.floor(height / step);
  const label = new Int32Array(w * h).fill(-1);
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (gray[y * step * width + x * step] >= 110) continue;
      const up = y > 0 ? label[(y - 1) * w + x] : -1,
        left = x > 0 ? label[y * w + x - 1] : -1;
      let l: number;
      if (up < 0 && left < 0) {
        l = parent.length;
        parent.push(l);
      } else if (up < 0) l = left;
      else if (left < 0) l = up;
      else {
        const a = find(up),
          b = find(left);
        l = Math.min(a, b);
        parent[Math.max(a, b)] = l;
      }
      label[y * w + x] = l;
    }
    await pause.turn();
  }
  const top = new Map<number, number>(),
    bottom = new Map<number, number>(),
    count = new Map<number, number>();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const l0 = label[y * w + x];
      if (l0 < 0) continue;
      const l = find(l0);
      if (!top.has(l)) top.set(l, y);
      bottom.set(l, y);
      count.set(l, (count.get(l) ?? 0) + 1);
    }
    await pause.turn();
  }
  const heights: number[] = [];
  for (const [l, t] of top) {
    const hh = (bottom.get(l)! - t + 1) * step;
    // specks and rules are not letters
    if (hh >= 4 && hh <= height / 8 && count.get(l)! * step * step >= hh * 1.5) heights.push(hh);
  }
  if (heights.length < 10) return 0;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length * 0.6)];
}

/** A raw RGB picture as sharp's input. */
const raw = (rgb: Uint8Array, width: number, height: number) => sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.length), { raw: { width, height, channels: 3 } });

/** Opens, evens out, straightens and scales a photo for the OCR (bounded: see PHOTO_LIMITS). */
export async function preparePhoto(bytes: Buffer, limits: PhotoLimits = PHOTO_LIMITS): Promise<PreparedPhoto> {
  const first = await openPhoto(bytes, limits);
  // measured on a small copy: the slant of the rows and the height of the letters
  const small = Math.min(1, 1600 / Math.max(first.width, first.height));
  const look = await raw(first.rgb, first.width, first.height)
    .resize({ width: Math.max(1, Math.round(first.width * small)), height: Math.max(1, Math.round(first.height * small)) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const lw = look.info.width,
    lh = look.info.height;
  const pause = new Pause();
  const lookGray = await evenOut(await whiteBalance(new Uint8Array(look.data.buffer, look.data.byteOffset, look.data.length), pause), lw, lh, pause);
  const angle = await skewAngle(lookGray, lw, lh, pause);
  const tall = (await letterHeight(lookGray, lw, lh, pause)) / small;
  let scale = tall > 0 ? LETTER_TARGET / tall : 1;
  scale = Math.min(scale, 3, limits.maxSide / Math.max(first.width, first.height), Math.sqrt(limits.maxWorkPixels / (first.width * first.height)));
  if (Math.abs(scale - 1) < 0.1) scale = 1;
  let width = first.width,
    height = first.height;
  let rgbIn = first.rgb;
  if (Math.abs(angle) >= 0.1 || scale !== 1) {
    let img = raw(first.rgb, width, height);
    if (scale !== 1) img = img.resize({ width: Math.round(width * scale), height: Math.round(height * scale), kernel: scale > 1 ? 'cubic' : 'lanczos3' });
    if (Math.abs(angle) >= 0.1) {
      // a second pipeline: sharp turns a picture before it resizes it otherwise
      const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
      img = raw(new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height).rotate(-angle, { background: { r: 255, g: 255, b: 255 } });
    }
    const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    width = info.width;
    height = info.height;
    rgbIn = new Uint8Array(data.buffer, data.byteOffset, data.length);
  }
  const rgb = await whiteBalance(rgbIn, pause);
  const gray = await evenOut(rgb, width, height, pause);
  const ocrPng = await sharp(Buffer.from(gray.buffer, gray.byteOffset, gray.length), { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { width, height, ocrPng, gray, rgb, angle, scale, letterHeight: tall * scale };
}
