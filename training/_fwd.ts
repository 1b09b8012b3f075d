import { readFileSync } from 'node:fs';
import { FEATURES } from '../agents/features.js';
import { forward, modelFromJson } from '../agents/model.js';
const model = modelFromJson(readFileSync(process.argv[2], 'utf8'));
const rows = 8;
const x = Float32Array.from({ length: rows * FEATURES }, (_, i) => (i % 7 === 0 ? 0 : ((i * 7919) % 101) / 100));
// f64 variant
const layers64 = model.layers.map((l) => ({ ...l, k: Float64Array.from(l.kernel), b: Float64Array.from(l.bias) }));
function fwd64(input: Float32Array, rows: number): Float64Array {
  let xx: Float64Array | Float32Array = input;
  let y = new Float64Array(0);
  for (const l of layers64) {
    const n = l.inputs, m = l.outputs, k = l.k, b = l.b;
    y = new Float64Array(rows * m);
    for (let r = 0; r < rows; r++) {
      const xo = r * n, yo = r * m;
      for (let j = 0; j < m; j++) y[yo + j] = b[j];
      for (let i = 0; i < n; i++) { const v = xx[xo + i]; if (v === 0) continue; const ko = i * m; for (let j = 0; j < m; j++) y[yo + j] += v * k[ko + j]; }
      if (l.relu) for (let j = 0; j < m; j++) if (y[yo + j] < 0) y[yo + j] = 0;
    }
    xx = y;
  }
  return y;
}
function fwdU(input: Float32Array, rows: number): Float64Array {
  let xx: Float64Array | Float32Array = input;
  let y = new Float64Array(0);
  for (const l of layers64) {
    const n = l.inputs, m = l.outputs, k = l.k, b = l.b;
    y = new Float64Array(rows * m);
    for (let r = 0; r < rows; r++) {
      const xo = r * n, yo = r * m;
      for (let j = 0; j < m; j++) y[yo + j] = b[j];
      for (let i = 0; i < n; i++) {
        const v = xx[xo + i]; if (v === 0) continue; const ko = i * m;
        let j = 0;
        for (; j + 3 < m; j += 4) { y[yo + j] += v * k[ko + j]; y[yo + j + 1] += v * k[ko + j + 1]; y[yo + j + 2] += v * k[ko + j + 2]; y[yo + j + 3] += v * k[ko + j + 3]; }
        for (; j < m; j++) y[yo + j] += v * k[ko + j];
      }
      if (l.relu) for (let j = 0; j < m; j++) if (y[yo + j] < 0) y[yo + j] = 0;
    }
    xx = y;
  }
  return y;
}
for (let rep = 0; rep < 3; rep++) {
  let t = process.hrtime.bigint(); for (let i = 0; i < 2000; i++) forward(model, x, rows); const a = Number(process.hrtime.bigint() - t) / 2000 / rows;
  t = process.hrtime.bigint(); for (let i = 0; i < 2000; i++) fwd64(x, rows); const b = Number(process.hrtime.bigint() - t) / 2000 / rows;
  t = process.hrtime.bigint(); for (let i = 0; i < 2000; i++) fwdU(x, rows); const c = Number(process.hrtime.bigint() - t) / 2000 / rows;
  console.log(`f32 ${(a / 1000).toFixed(2)} µs/row, f64 ${(b / 1000).toFixed(2)} µs/row, unrolled ${(c / 1000).toFixed(2)}`);
}
const o1 = forward(model, x, rows), o2 = fwd64(x, rows); console.log(Math.max(...Array.from(o1).map((v, i) => Math.abs(v - o2[i]))));
