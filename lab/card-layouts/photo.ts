import sharp from 'sharp';
import { nextU32, seedRng, type RngState } from '../../engine/rng.js';

/**
 * A phone's photo of a printed card, seeded and deterministic (issue 62): the page on a table,
 * seen in perspective, bowed, turned 0 to 8 degrees, lit unevenly (a shadow across part of it,
 * a glare spot), a little soft and grainy, 1,200 to 3,000 pixels on its longer side, saved as a JPEG of
 * quality 60 to 85. The same picture and seed always give the same bytes.
 *
 * bench/card-photo.ts has the photo import's older distortions (shear, blur, a light gradient,
 * low resolution) done with sharp; the ones here it lacks (a true perspective, a bowed page,
 * glare and shadow) need a warp of each pixel, done here in one pass over raw pixels: for each
 * pixel of the photo, the point of the page it shows (the inverse of bow, then perspective,
 * then the turn), sampled bilinearly, then the light.
 */

export type Effect = 'perspective' | 'bow' | 'turn' | 'shadow' | 'glare' | 'blur' | 'noise' | 'jpeg';
export const EFFECTS: readonly Effect[] = ['perspective', 'bow', 'turn', 'shadow', 'glare', 'blur', 'noise', 'jpeg'];

export interface PhotoOptions {
  /** The effects applied (default: every one). Without `jpeg` the photo is a PNG. */
  effects?: readonly Effect[];
  /** The photo's longer side in px is drawn from this range (default 1,200 to 3,000). */
  size?: readonly [number, number];
  /** How strong the geometric and light effects are, 0 to 1 (default 1: the full ranges below). */
  strength?: number;
}

export interface Photo {
  bytes: Buffer;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  /** What was done, in words (for a report). */
  note: string;
}

/** A table's colour around the paper. */
const TABLE = [96, 80, 64] as const;

const rand = (rng: RngState): number => nextU32(rng) / 2 ** 32;
const between = (rng: RngState, lo: number, hi: number): number => lo + (hi - lo) * rand(rng);
const sign = (rng: RngState): number => (rand(rng) < 0.5 ? -1 : 1);

type Point = [number, number];
type Mat3 = number[];

/** The homography taking the four points `from` to `to` (8 unknowns, Gaussian elimination). */
function homography(from: Point[], to: Point[]): Mat3 {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i],
      [X, Y] = to[i];
    a.push([x, y, 1, 0, 0, 0, -x * X, -y * X, X]);
    a.push([0, 0, 0, x, y, 1, -x * Y, -y * Y, Y]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = a[r][col] / a[col][col];
      for (let k = col; k < 9; k++) a[r][k] -= f * a[col][k];
    }
  }
  return [...a.map((row, i) => row[8] / row[i]), 1];
}

const apply = (h: Mat3, x: number, y: number): Point => {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
};

/**
 * A phone's photo of `png` (the page, or one panel of it). `seed` decides everything drawn at
 * random; `opts.effects` picks which effects are applied (the others draw their numbers all the
 * same, so one effect's numbers do not depend on which others are on).
 */
export async function phonePhoto(png: Buffer, seed: number, opts: PhotoOptions = {}): Promise<Photo> {
  const on = new Set(opts.effects ?? EFFECTS);
  const k = opts.strength ?? 1;
  const rng = seedRng(seed);
  // every number drawn first, in one order
  const longSide = Math.round(between(rng, opts.size?.[0] ?? 1200, opts.size?.[1] ?? 3000));
  const corners = Array.from({ length: 8 }, () => between(rng, 0, 0.07) * k);
  const bow = sign(rng) * between(rng, 0.006, 0.025) * k;
  const turn = sign(rng) * between(rng, 0, 8) * k;
  const shadowAngle = between(rng, 0, 2 * Math.PI);
  const shadowAt = between(rng, 0.2, 0.7);
  const shadowDepth = between(rng, 0.25, 0.5) * k;
  const shadowSoft = between(rng, 0.05, 0.2);
  const glareX = between(rng, 0.15, 0.85),
    glareY = between(rng, 0.15, 0.85);
  const glareR = between(rng, 0.08, 0.22);
  const glareStrength = between(rng, 0.45, 0.8) * k;
  const sigma = between(rng, 0.5, 1.1);
  const grain = between(rng, 3, 7);
  const quality = Math.round(between(rng, 60, 85));
  const noiseSeed = nextU32(rng);

  // the page scaled so the photo's longer side, a margin of table included, is longSide
  const meta = await sharp(png).metadata();
  const srcW0 = meta.width ?? 1,
    srcH0 = meta.height ?? 1;
  const margin = 0.06;
  const scale = longSide / (Math.max(srcW0, srcH0) + 2 * margin * srcW0);
  const pageW = Math.round(srcW0 * scale),
    pageH = Math.round(srcH0 * scale);
  const { data: src, info } = await sharp(png).resize({ width: pageW, height: pageH, fit: 'fill', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sw = info.width,
    sh = info.height;
  const W = Math.round(sw + 2 * margin * sw),
    H = Math.round(sh + 2 * margin * sw);
  const ox = (W - sw) / 2,
    oy = (H - sh) / 2;

  // page -> photo: bow (each column of the page moved up or down, most in the middle), perspective (the page's corners moved in), turn about the centre
  const persp = on.has('perspective')
    ? homography(
        [
          [0, 0],
          [sw, 0],
          [sw, sh],
          [0, sh],
        ],
        [
          [ox + corners[0] * sw, oy + corners[1] * sh],
          [ox + sw - corners[2] * sw, oy + corners[3] * sh],
          [ox + sw - corners[4] * sw, oy + sh - corners[5] * sh],
          [ox + corners[6] * sw, oy + sh - corners[7] * sh],
        ],
      )
    : [1, 0, ox, 0, 1, oy, 0, 0, 1];
  const inverse = homography(
    [
      [0, 0],
      [sw, 0],
      [sw, sh],
      [0, sh],
    ].map(([x, y]) => apply(persp, x, y)),
    [
      [0, 0],
      [sw, 0],
      [sw, sh],
      [0, sh],
    ],
  );
  const deg = on.has('turn') ? turn : 0;
  const cos = Math.cos((deg * Math.PI) / 180),
    sin = Math.sin((deg * Math.PI) / 180);
  const bowPx = on.has('bow') ? bow * sh : 0;
  const cx = W / 2,
    cy = H / 2;
  // the photo framed around the whole page as turned, bowed and seen in perspective, a margin of table on every side (no part of the card cut off)
  const forward = (x: number, y: number): Point => {
    const t = (2 * x) / sw - 1;
    const [qx, qy] = apply(persp, x, y + bowPx * (1 - t * t));
    return [cx + cos * (qx - cx) - sin * (qy - cy), cy + sin * (qx - cx) + cos * (qy - cy)];
  };
  const edge: Point[] = [];
  for (let i = 0; i <= 32; i++) edge.push(forward((i / 32) * sw, 0), forward((i / 32) * sw, sh), forward(0, (i / 32) * sh), forward(sw, (i / 32) * sh));
  const m = margin * sw * 0.6;
  const left = Math.min(...edge.map((e) => e[0])) - m,
    top = Math.min(...edge.map((e) => e[1])) - m;
  const PW = Math.ceil(Math.max(...edge.map((e) => e[0])) + m - left),
    PH = Math.ceil(Math.max(...edge.map((e) => e[1])) + m - top);

  const out = Buffer.alloc(PW * PH * 3);
  const noise = seedRng(noiseSeed);
  const shadowNx = Math.cos(shadowAngle),
    shadowNy = Math.sin(shadowAngle);
  for (let y = 0; y < PH; y++) {
    for (let x = 0; x < PW; x++) {
      // undo the turn, then the perspective, then the bow
      const dx = x + left - cx,
        dy = y + top - cy;
      const [px, py] = apply(inverse, cx + cos * dx + sin * dy, cy - sin * dx + cos * dy);
      const t = (2 * px) / sw - 1;
      const qx = px,
        qy = py - bowPx * (1 - t * t);
      let r: number, g: number, b: number;
      if (qx < 0 || qy < 0 || qx > sw - 1 || qy > sh - 1) {
        [r, g, b] = TABLE;
      } else {
        const x0 = Math.floor(qx),
          y0 = Math.floor(qy);
        const x1 = Math.min(x0 + 1, sw - 1),
          y1 = Math.min(y0 + 1, sh - 1);
        const fx = qx - x0,
          fy = qy - y0;
        const i00 = (y0 * sw + x0) * 3,
          i10 = (y0 * sw + x1) * 3,
          i01 = (y1 * sw + x0) * 3,
          i11 = (y1 * sw + x1) * 3;
        const mix = (c: number) => (src[i00 + c] * (1 - fx) + src[i10 + c] * fx) * (1 - fy) + (src[i01 + c] * (1 - fx) + src[i11 + c] * fx) * fy;
        r = mix(0);
        g = mix(1);
        b = mix(2);
      }
      // the light, over table and page alike: a shadow's soft edge across the photo, a glare spot
      let light = 1;
      if (on.has('shadow')) {
        const along = ((x / PW - 0.5) * shadowNx + (y / PH - 0.5) * shadowNy) / 0.7 + 0.5;
        const s = Math.min(1, Math.max(0, (along - shadowAt) / shadowSoft + 0.5));
        light = 1 - shadowDepth * s * s * (3 - 2 * s);
      }
      r *= light;
      g *= light * 0.98;
      b *= light * 0.94;
      if (on.has('glare')) {
        const gx = x / PW - glareX,
          gy = (y - glareY * PH) / PW;
        const glow = glareStrength * Math.exp(-(gx * gx + gy * gy) / (glareR * glareR));
        r += (255 - r) * glow;
        g += (255 - g) * glow;
        b += (255 - b) * glow;
      }
      if (on.has('noise')) {
        const e = ((nextU32(noise) / 2 ** 32) * 2 - 1) * grain;
        r += e;
        g += e;
        b += e;
      }
      const i = (y * PW + x) * 3;
      out[i] = r < 0 ? 0 : r > 255 ? 255 : Math.round(r);
      out[i + 1] = g < 0 ? 0 : g > 255 ? 255 : Math.round(g);
      out[i + 2] = b < 0 ? 0 : b > 255 ? 255 : Math.round(b);
    }
  }

  // back to the longer side drawn (the frame grew with the turn and the bow)
  const k2 = longSide / Math.max(PW, PH);
  const width = Math.round(PW * k2),
    height = Math.round(PH * k2);
  let img = sharp(
    await sharp(out, { raw: { width: PW, height: PH, channels: 3 } })
      .resize({ width, height, fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer(),
    { raw: { width, height, channels: 3 } },
  );
  if (on.has('blur')) img = img.blur(sigma);
  const jpeg = on.has('jpeg');
  const bytes = jpeg ? await img.jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer() : await img.png().toBuffer();
  const said = [
    `${width} by ${height} px`,
    on.has('perspective') && `perspective (corners in by up to ${(100 * Math.max(...corners)).toFixed(1)}%)`,
    on.has('bow') && `page bowed ${(100 * bow).toFixed(1)}% of its height`,
    on.has('turn') && `turned ${turn.toFixed(2)}°`,
    on.has('shadow') && `shadow ${(100 * shadowDepth).toFixed(0)}% deep`,
    on.has('glare') && `glare ${(100 * glareStrength).toFixed(0)}% at (${glareX.toFixed(2)}, ${glareY.toFixed(2)})`,
    on.has('blur') && `blur ${sigma.toFixed(2)} px`,
    on.has('noise') && `grain ±${grain.toFixed(1)}`,
    jpeg && `JPEG ${quality}`,
  ].filter((s): s is string => typeof s === 'string');
  return { bytes, format: jpeg ? 'jpeg' : 'png', width, height, note: said.join(', ') };
}
