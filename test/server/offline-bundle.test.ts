import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../api/http/app.js';
import { nextInt, seedRng, shuffle } from '../../engine/rng.js';
import { COPIES, tileName } from '../../engine/mah-jongg/tiles.js';
import { call, databaseOf, dataDir } from './helpers.js';

/**
 * Which hand? with no connection (api/web-src/offline-engine.ts, bundled for the browser by
 * api/http/offline-bundle.ts): the bundle the server serves at /offline-engine.js, run as the
 * ES module it is, gives the same answers as the server's routes on the same hands and cards:
 * the practice card (the server's), the garden card and a player's own card, posted as text.
 */

type Run = (path: string, body: object) => { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** A player's own card, written for this test (an original, as every Tilemate card). */
const PORCH = `card: Porch Test Card
[Porch]
NNN SSS 111a 222a 33a       ; x 25 consec
FF 999a 999b 9999c EE       ; x 25
2468a 2468b 66c 88c FF      ; c 35
[Steps]
11a 22a 333a 444a 5555a     ; x 30 consec
`;
const GARDEN = readFileSync(join(import.meta.dirname, '..', '..', 'cards', 'garden-2026.card'), 'utf8');

let app: FastifyInstance;
let run: Run;
let served: { status: number; headers: Record<string, unknown>; body: string };

beforeAll(async () => {
  const dir = dataDir();
  // the pages' folder is served (the default): the bundle's route comes with it
  app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 0, heavyPerMinute: 0, threads: 1 }, logger: false });
  const res = await app.inject({ method: 'GET', url: '/offline-engine.js' });
  served = { status: res.statusCode, headers: res.headers, body: res.body };
  // the browser's module, run in Node as it is
  run = (await import(`data:text/javascript;base64,${Buffer.from(res.body).toString('base64')}`)).run as Run;
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** `n` hands dealt from the full set by a seeded shuffle: 13 or 14 concealed tiles, some tiles seen on the table, sometimes one exposure. */
function hands(seed: number, n: number): { hand: string; seen?: string; exposed?: string }[] {
  const rng = seedRng(seed);
  const set: number[] = COPIES.flatMap((c, t) => Array<number>(c).fill(t));
  const out: { hand: string; seen?: string; exposed?: string }[] = [];
  for (let i = 0; i < n; i++) {
    const tiles = shuffle(rng, [...set]);
    const kind = i % 4;
    if (kind === 3) {
      // an exposed pung of a tile that is not a joker or flower, the rest concealed
      const t = tiles.find((x) => tiles.filter((y) => y === x).length >= 3 && tileName(x) !== 'J' && tileName(x) !== 'F')!;
      const rest = tiles.filter((x, j) => x !== t || tiles.slice(0, j).filter((y) => y === t).length >= 3);
      out.push({
        exposed: [t, t, t].map(tileName).join(' '),
        hand: rest
          .slice(0, 10 + nextInt(rng, 2))
          .map(tileName)
          .join(' '),
      });
    } else {
      const size = 13 + nextInt(rng, 2);
      const seen =
        kind === 2
          ? tiles
              .slice(size, size + 1 + nextInt(rng, 20))
              .map(tileName)
              .join(' ')
          : undefined;
      out.push({ hand: tiles.slice(0, size).map(tileName).join(' '), ...(seen && { seen }) });
    }
  }
  return out;
}

/** Hands close to lines: where the chances and the advice have something to say. */
const NEAR = ['2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J', '1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B N N', 'F F 2C 4C 4C 4C 6C 6C 8C 8C 8C J RD'];

async function server(path: string, body: object): Promise<{ status: number; body: any }> {
  const r = await call(app, { method: 'POST', url: path, payload: body });
  return { status: r.status, body: r.body };
}

/** Asks both, and expects the same answer, or (`refused`) the same refusal by its code. */
async function same(path: string, body: object, refused = false): Promise<unknown> {
  const online = await server(path, body);
  expect(online.status === 200, `${path} ${JSON.stringify(body)}: ${JSON.stringify(online.body).slice(0, 300)}`).toBe(!refused);
  const offline = run(path, body);
  // a refusal of the server's own (its budget, its queue) would compare nothing
  expect(online.body?.code ?? '', `${path} ${JSON.stringify(body)}`).not.toMatch(/TM_RATE_LIMITED|TM_TOO_COSTLY|TM_TOO_SLOW|TM_BUSY/);
  if (online.status !== 200) {
    expect(offline, `${path} ${JSON.stringify(body)}`).toMatchObject({ ok: false, code: online.body.code });
    return online.body;
  }
  expect(offline, `${path} ${JSON.stringify(body)}`).toEqual({ ok: true, value: online.body });
  return online.body;
}

describe('the offline engine as served', () => {
  it('is an ES module for the browser, served with its type, an ETag and no stale copy', async () => {
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/javascript/);
    expect(served.headers['cache-control']).toBe('no-cache');
    expect(served.headers.etag).toMatch(/^"[\w-]{22}"$/);
    // nothing of node's is left in it: its imports were replaced by stand-ins over the bundled files
    expect(served.body).not.toMatch(/from\s*["']node:/);
    // the files the advice and the chances read come with it, as the server has them
    const model = (file: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'models', file), 'utf8'));
    expect(served.body).toContain(model('value-model.json').layers[0].kernel.slice(0, 200));
    for (const w of model('chance-calibration.json').weights as number[]) expect(served.body).toContain(String(w));
    const again = await app.inject({ method: 'GET', url: '/offline-engine.js', headers: { 'if-none-match': String(served.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('lists the files the service worker keeps: every page, the manifest, the icons and the bundle', async () => {
    const r = await app.inject({ method: 'GET', url: '/offline-files.json' });
    expect(r.statusCode).toBe(200);
    const { files } = JSON.parse(r.body) as { files: string[] };
    for (const f of [
      '/',
      '/chase.html',
      '/chase.js',
      '/offline.js',
      '/client.js',
      '/lines.js',
      '/tiles.js',
      '/style.css',
      '/pages.css',
      '/index.html',
      '/manifest.webmanifest',
      '/icons/icon-192.png',
      '/icons/icon-512.png',
      '/offline-engine.js',
    ]) {
      expect(files).toContain(f);
    }
    expect(files).not.toContain('/sw.js');
  });
});

describe('the offline engine answers as the server', () => {
  it("analyzes 60 dealt hands and the near ones on the practice card (the server's) alike", async () => {
    const all = [...hands(1, 60), ...NEAR.map((hand) => ({ hand }))];
    let possible = 0;
    for (const [i, h] of all.entries()) {
      const a = (await same('/api/analyze', { ...h, ...(i % 5 === 0 ? { all: true } : { top: 8 }) })) as { results: { possible: boolean }[] };
      possible += a.results.filter((r) => r.possible).length;
    }
    expect(possible).toBeGreaterThan(0);
  }, 120_000);

  it("analyzes on the garden card and a player's own card, posted as text, alike", async () => {
    for (const [card, seed] of [
      [GARDEN, 2],
      [PORCH, 3],
    ] as const) {
      for (const h of [...hands(seed, 25), ...NEAR.map((hand) => ({ hand }))]) await same('/api/analyze', { ...h, card, top: 8 });
    }
  }, 120_000);

  it("works out each line's chance over simulated deals alike (the calibrated chances come with the bundle)", async () => {
    for (const [i, hand] of NEAR.entries()) {
      const a = (await same('/api/analyze', { hand, top: 8, simulate: 200, seed: i + 1 })) as { simulation: { model: string }; results: { chance: number }[] };
      expect(a.results.every((r) => typeof r.chance === 'number')).toBe(true);
      expect(a.simulation.model).toMatch(/calibrated/);
    }
    await same('/api/analyze', { hand: NEAR[0], card: GARDEN, top: 5, simulate: 100 });
  }, 120_000);

  it('gives the same Charleston, vote, courtesy, discard and call advice (the learned model comes with the bundle)', async () => {
    const [h13] = hands(4, 1).filter((h) => !h.exposed);
    await same('/api/charleston', { hand: NEAR[0], direction: 'left', blind: true });
    await same('/api/charleston', { hand: h13.hand, direction: 'across', card: PORCH });
    await same('/api/vote', { hand: NEAR[1] });
    await same('/api/courtesy', { hand: NEAR[2], card: GARDEN });
    const d = (await same('/api/advice', { question: 'discard', hand: NEAR[0].replace('J J', 'J N'), worlds: 6, seed: 1 })) as { alternatives: unknown[] };
    expect(d.alternatives.length).toBeGreaterThan(1);
    await same('/api/advice', { question: 'call', hand: NEAR[1], tile: '4B', from: 'left', worlds: 6, seed: 2 });
    // as the page asks: no worlds and no seed (the one budget, the seed drawn from the moment)
    await same('/api/advice', { question: 'discard', hand: NEAR[2].replace('RD', 'RD N'), exposed: '', seen: '' });
  }, 180_000);

  it('refuses the same bad input with the same code', async () => {
    await same('/api/analyze', { hand: '1B 2B ZZ' }, true);
    await same('/api/analyze', { hand: '1B 1B 1B 1B 1B' }, true);
    await same('/api/analyze', { hand: '1B 2B 3B', card: 'card: nothing\n[A]\n1a ; x 25\n' }, true);
    await same('/api/advice', { question: 'call', hand: NEAR[1] }, true);
    expect(run('/api/analyze', { hand: 'x'.repeat(2001) })).toMatchObject({ ok: false, code: 'TM_BAD_INPUT' });
    expect(run('/api/games', {})).toMatchObject({ ok: false, code: 'TM_NOT_FOUND' });
  });
});
