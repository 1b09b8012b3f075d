import * as fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { auth, call, dataDir, firstChoice, playThrough, server, type Answer } from './helpers.js';

// Watch the writes the server makes (the real ones still happen).
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, openSync: vi.fn(real.openSync), fsyncSync: vi.fn(real.fsyncSync), writeFileSync: vi.fn(real.writeFileSync), renameSync: vi.fn(real.renameSync) };
});

async function finishedGame(dir: string, seed: number) {
  const app = await server({}, dir);
  const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed } })).body;
  const end = (await playThrough(app, g, firstChoice)).pop()!;
  return { app, g, end };
}

describe('server records', () => {
  it('a finished game\'s record is written to a temporary file in the records folder, then renamed into place', async () => {
    const dir = dataDir();
    vi.mocked(fs.openSync).mockClear();
    vi.mocked(fs.fsyncSync).mockClear();
    vi.mocked(fs.renameSync).mockClear();
    const { g, end } = await finishedGame(dir, 12);
    const final = join(dir, 'records', `${g.id}.jsonl`);
    expect(end.recordId).toBe(g.id);
    const renames = vi.mocked(fs.renameSync).mock.calls.filter(([, to]) => to === final);
    expect(renames).toHaveLength(1);
    const tmp = String(renames[0][0]);
    expect(dirname(tmp)).toBe(dirname(final)); // same folder: the rename is atomic
    expect(basename(tmp)).toMatch(/^\..*\.tmp$/);
    const opens = vi.mocked(fs.openSync).mock.calls.filter(([path]) => path === tmp || path === final || path === dirname(final));
    expect(opens.map(([path, flags]) => [path, flags])).toEqual([[tmp, 'w'], [dirname(final), 'r']]); // never written in place; the folder opened to flush the rename
    expect(vi.mocked(fs.fsyncSync).mock.calls.length).toBeGreaterThanOrEqual(2); // the file before the rename, the folder after
    expect(fs.existsSync(tmp)).toBe(false);
  });

  it('a finished record survives a new server on the same data folder; a half-written temporary file is not listed', async () => {
    const dir = dataDir();
    const { app, g, end } = await finishedGame(dir, 13);
    const text = (await call(app, { method: 'GET', url: `/api/records/${g.id}` })).body.text;
    await app.close();
    // a server killed while writing leaves at most a temporary file behind
    fs.writeFileSync(join(dir, 'records', `.${g.id}x.jsonl.999.tmp`), text.slice(0, 100));
    const again = await server({}, dir);
    const list = (await call(again, { method: 'GET', url: '/api/records' })).body.records;
    expect(list.map((r: any) => r.id)).toEqual([g.id]);
    expect(list[0].scores).toEqual(end.view.result.scores);
    expect((await call(again, { method: 'GET', url: `/api/records/${g.id}` })).body.text).toBe(text);
    const review = await call(again, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 1 } });
    expect(review.status).toBe(200);
    // the live game itself is gone with the old server
    expect((await call(again, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).status).toBe(404);
  });

  it('a live game is not saved: a server stopped mid-game leaves no record of it', async () => {
    const dir = dataDir();
    const app = await server({}, dir);
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 14 } })).body;
    await playThrough(app, g, firstChoice, 3);
    await app.close();
    const again = await server({}, dir);
    expect((await call(again, { method: 'GET', url: '/api/records' })).body.records).toEqual([]);
  });

  it('unknown, malformed and path-like record ids are 404; a bad uploaded record is 400 TM_BAD_RECORD', async () => {
    const app = await server();
    for (const id of ['nope', '..%2F..%2Fetc%2Fpasswd', '.hidden', 'a'.repeat(65)]) {
      const r = await call(app, { method: 'GET', url: `/api/records/${id}` });
      expect(r.status, id).toBeGreaterThanOrEqual(400);
      expect(r.status, id).toBeLessThan(500);
      expect(r.body.code).toMatch(/^TM_(NOT_FOUND|BAD_INPUT)$/);
    }
    const bad = await call(app, { method: 'POST', url: '/api/review', payload: { record: '{"format":"tilemate-record","version":1}\n{"n":1', seat: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_BAD_RECORD');
    const both = await call(app, { method: 'POST', url: '/api/review', payload: { record: 'x', recordId: 'y', seat: 0 } });
    expect(both.body.code).toBe('TM_BAD_INPUT');
  });
});
