import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { freshSeed } from '../../api/http/tables.js';
import { seedRng, nextU32 } from '../../engine/rng.js';
import { auth, call, databaseOf, dataDir, firstChoice, playThrough, server, type Answer } from './helpers.js';

/** Every answer has a TM code; bodies, seats, seeds and tokens are checked at the door. */

const HAND14 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N';
const newGame = async (app: Awaited<ReturnType<typeof server>>, payload: object = { level: 'random' }) => (await call(app, { method: 'POST', url: '/api/games', payload })).body as Answer;

describe('error contract', () => {
  it('an uploaded record nested thousands deep is 400 TM_BAD_RECORD, not a crash', async () => {
    const app = await server();
    const nested = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const r = await call(app, { method: 'POST', url: '/api/review', payload: { seat: 0, record: `{"format":"tilemate-record","version":${nested}}\n` } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'TM_BAD_RECORD', message: expect.stringMatching(/unknown record version a value nested too deeply/) });
  });

  it('a damaged record file in a data folder from before the database is not read in: its id is 404 like any other, never 500', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'records'), { recursive: true });
    writeFileSync(join(dir, 'records', 'broken.jsonl'), 'garbage\n{');
    const app = await server({}, dir);
    expect((await call(app, { method: 'GET', url: '/api/records' })).body.records).toEqual([]);
    for (const url of ['/api/records/broken', '/api/records/broken?format=jsonl']) {
      const r = await call(app, { method: 'GET', url });
      expect(r.status, url).toBe(404);
      expect(r.body, url).toMatchObject({ code: 'TM_NOT_FOUND' });
    }
    expect((await call(app, { method: 'POST', url: '/api/review', payload: { recordId: 'broken', seat: 0 } })).body.code).toBe('TM_NOT_FOUND');
  });

  it('a malformed URL and an over-long id have TM codes', async () => {
    const app = await server();
    const bad = await call(app, { method: 'GET', url: '/api/records/%E0%A4%A' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'TM_BAD_INPUT', message: expect.stringMatching(/not a valid URL/) });
    const long = await call(app, { method: 'GET', url: `/api/games/${'a'.repeat(200)}` });
    expect(long.status).toBe(404);
    expect(long.body.code).toBe('TM_NOT_FOUND');
  });

  it('headers too large are 431 TM_HEADERS_TOO_LARGE over a real socket', async () => {
    const app = await server();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/health', headers: { 'x-big': 'a'.repeat(40_000) } }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    await app.close();
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'TM_HEADERS_TOO_LARGE' });
  });

  it('discard advice for a hand with every tile exposed is TM_HAND_SIZE in plain words', async () => {
    const app = await server();
    const r = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: '', exposed: '1B 1B 1B; 2B 2B 2B; 3B 3B 3B 3B; 4B 4B 4B 4B' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'TM_HAND_SIZE', message: expect.stringMatching(/no concealed tile/) });
  });

  it("every route's schemas compile (the server compiles each on its route's first use; compiled at start here), and a lazily compiled one refuses as the eager one does", async () => {
    const dir = dataDir();
    const eager = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), logger: false, webDir: null, eagerSchemas: true });
    const lazy = await server();
    try {
      await eager.ready();
      const bad = { method: 'POST', url: '/api/analyze', payload: { hand: 7, extra: 1 } } as const;
      const [a, b] = [await eager.inject(bad), await lazy.inject(bad)];
      expect(a.statusCode).toBe(400);
      expect([b.statusCode, b.json()]).toEqual([a.statusCode, a.json()]);
      // and the answer written by a lazily compiled serializer is the eager one's
      const good = { method: 'POST', url: '/api/analyze', payload: { hand: HAND14 } } as const;
      const [c, d] = [await eager.inject(good), await lazy.inject(good)];
      expect(c.statusCode).toBe(200);
      expect(d.body).toBe(c.body);
    } finally {
      await eager.close();
    }
  });

  it('the server refuses to start on a data folder it cannot write', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'file'), '');
    await expect(build({ dataDir: join(dir, 'file'), webDir: null })).rejects.toMatchObject({ code: 'TM_FILE', message: expect.stringMatching(/cannot write in the data folder/) });
  });
});

describe('retries are safe: an action carries the action number it was written after', () => {
  it('the same action posted twice with "after" is applied once; the retry is 409 TM_STALE_ACTION and changes nothing', async () => {
    const app = await server();
    const g = await newGame(app, { level: 'random', seed: 3 });
    const action = { ...firstChoice(g), after: g.at };
    const first = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: action });
    expect(first.status).toBe(200);
    expect(first.body.at).toBeGreaterThan(g.at);
    const retry = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: action });
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'TM_STALE_ACTION', message: expect.stringMatching(new RegExp(`after action ${g.at}, but the game is at action ${first.body.at}`)) });
    const now = (await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body;
    expect(now.at).toBe(first.body.at);
    expect(now.view).toEqual(first.body.view);
  });
});

describe('retries are safe in Mexican Train too', () => {
  it('a retried action with "after" is 409 TM_STALE_ACTION', async () => {
    const app = await server();
    const g = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { seed: 4 } })).body;
    const action = { ...g.legal[0], after: g.at };
    const first = await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: action });
    expect(first.status).toBe(200);
    const retry = await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: action });
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('TM_STALE_ACTION');
    expect((await call(app, { method: 'GET', url: `/api/domino/games/${g.id}`, headers: auth(g.token) })).body.at).toBe(first.body.at);
  });
});

describe('smaller holes', () => {
  it('Mah Jongg in error is offered in legal, marked inError, and declaring it kills the hand', async () => {
    const app = await server();
    const g = await newGame(app, { level: 'random', seed: 5 });
    let a = g;
    for (let i = 0; i < 200 && a.view.phase !== 'discard'; i++) {
      a = (await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: firstChoice(a) })).body;
    }
    expect(a.view.phase).toBe('discard');
    const inError = a.legal.filter((l) => l.inError);
    expect(inError).toEqual([{ type: 'declare', seat: 0, inError: true }]);
    const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: inError[0] });
    expect(r.status).toBe(200);
    expect(r.body.view.seats[0].dead[0]).toBe(true);
  });

  it('unknown fields are refused, never dropped: others.rigth, a typo at the top level', async () => {
    const app = await server();
    const typo = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HAND14, others: { rigth: '5B 5B 5B' } } });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ code: 'TM_BAD_INPUT', message: expect.stringMatching(/additional properties/i) });
    expect((await call(app, { method: 'POST', url: '/api/games', payload: { levl: 'hard' } })).body.code).toBe('TM_BAD_INPUT');
    expect((await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HAND14, tpo: 3 } })).body.code).toBe('TM_BAD_INPUT');
  });

  it('bots must name one bot per other seat', async () => {
    const app = await server();
    const r = await call(app, { method: 'POST', url: '/api/games', payload: { bots: ['easy'] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'TM_BAD_INPUT', message: expect.stringMatching(/names 1 bot for the 3 other seats/) });
    expect((await call(app, { method: 'POST', url: '/api/games', payload: { bots: ['easy', 'random', 'medium'] } })).status).toBe(201);
  });

  it('fresh seeds have 48 bits, and seeds past 32 bits give their own deals (seeds below keep theirs)', () => {
    expect(Array.from({ length: 64 }, freshSeed).some((s) => s >= 2 ** 32)).toBe(true);
    const first = (seed: number) => nextU32(seedRng(seed));
    expect(first(7 + 2 ** 40)).not.toBe(first(7));
    expect(first(7)).toBe(4244348465);
  });

  it('records are listed a page at a time with the total', async () => {
    const dir = dataDir();
    const app = await server({}, dir);
    for (const seed of [1, 2, 3]) await playThrough(app, await newGame(app, { level: 'random', seed }), firstChoice);
    const all = (await call(app, { method: 'GET', url: '/api/records' })).body;
    expect(all.total).toBe(3);
    const page = (await call(app, { method: 'GET', url: '/api/records?offset=1&limit=1' })).body;
    expect(page).toEqual({ records: [all.records[1]], total: 3 });
    expect((await call(app, { method: 'GET', url: '/api/records?limit=501' })).body.code).toBe('TM_BAD_INPUT');
    await playThrough(app, await newGame(app, { level: 'random', seed: 4 }), firstChoice);
    expect((await call(app, { method: 'GET', url: '/api/records' })).body.total).toBe(4);
  });
});
