import { describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { auth, call, databaseOf, dataDir, server } from './helpers.js';

/** One heavy budget per person (four to an address), heavy requests counted in the general limit, fair tables. */

const HAND13 = '1B 1B 2C 3D N RD F J 5D 5D 7C 8C 9C';
const from = (remoteAddress: string) => ({ remoteAddress });
const DOMINO_TABLE = { hand: '5-3 3-3 9-1 3-8 8-8 1-1 12-7', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' } } };

describe('one heavy budget per person, across both games, and four per address', () => {
  /** A person: her session (the cookie a browser sends with every request), at an address. */
  const person = (session: string, remoteAddress = '10.0.0.1') => ({ remoteAddress, headers: { cookie: `tm_session=${session.padEnd(24, 'x')}` } });

  it('Mah Jongg and Mexican Train advice, hints and simulations spend one budget; another person at her address, and another address, are unaffected', async () => {
    const app = await server({ ratePerMinute: 1000, heavyPerMinute: 4 });
    const her = person('her');
    const mj = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random' }, ...her })).body;
    const mt = (await call(app, { method: 'POST', url: '/api/domino/games', payload: {}, ...her })).body;
    const heavy = [
      { method: 'POST', url: '/api/charleston', payload: { hand: HAND13, direction: 'right' } },
      { method: 'POST', url: '/api/analyze', payload: { hand: HAND13, simulate: 5 } },
      { method: 'POST', url: '/api/domino/advise', payload: DOMINO_TABLE },
      { method: 'POST', url: `/api/domino/games/${mt.id}/hint`, payload: {}, headers: { ...auth(mt.token), ...her.headers } },
    ] as const;
    for (const r of heavy) expect((await call(app, { ...her, ...r })).status, r.url).toBe(200);
    const over = await call(app, { method: 'POST', url: `/api/games/${mj.id}/hint`, payload: {}, ...her, headers: { ...auth(mj.token), ...her.headers } });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'TM_RATE_LIMITED', message: expect.stringMatching(/more than 4 requests a minute from you \(or 16 from your address\) that play deals out/) });
    // light routes still answer; another person at her address (a club's tablet), and another address, have their own budgets
    expect((await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HAND13 }, ...her })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/domino/advise', payload: DOMINO_TABLE, ...person('friend') })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/domino/advise', payload: DOMINO_TABLE, ...from('10.0.0.2') })).status).toBe(200);
  });

  it("an address has four people's budget, whoever its requests name: a fifth person there is refused", async () => {
    const app = await server({ ratePerMinute: 1000, heavyPerMinute: 1 });
    const advise = (who: ReturnType<typeof person> | ReturnType<typeof from>) => call(app, { method: 'POST', url: '/api/domino/advise', payload: DOMINO_TABLE, ...who });
    const statuses = [];
    for (const name of ['ann', 'bea', 'cat', 'dot', 'eve']) statuses.push((await advise(person(name))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // a request with no session is its address's own person; another address is unaffected
    expect((await advise(from('10.0.0.1'))).status).toBe(429);
    expect((await advise(from('10.0.0.3'))).status).toBe(200);
  });

  it('heavy requests count in the general limit too', async () => {
    const app = await server({ ratePerMinute: 3, heavyPerMinute: 100 });
    expect((await call(app, { method: 'POST', url: '/api/charleston', payload: { hand: HAND13, direction: 'right' } })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/review', payload: { record: 'x', seat: 0 } })).status).toBe(400);
    expect((await call(app, { method: 'POST', url: '/api/domino/advise', payload: DOMINO_TABLE })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.code).toBe('TM_RATE_LIMITED');
  });

  it("the pages' own files are not counted: a tablet fetching every file to install leaves the table its moves", async () => {
    const dir = dataDir();
    const app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 3, threads: 1 }, logger: false });
    try {
      const files = (await app.inject({ method: 'GET', url: '/offline-files.json' })).json().files as string[];
      expect(files.length).toBeGreaterThan(20);
      for (const f of files.filter((x) => x !== '/offline-engine.js')) expect((await app.inject({ method: 'GET', url: f })).statusCode, f).toBe(200);
      for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).json().code).toBe('TM_RATE_LIMITED');
    } finally {
      await app.close();
    }
  });
});

describe('tables are fair', () => {
  for (const [name, url] of [
    ['Mah Jongg', '/api/games'],
    ['Mexican Train', '/api/domino/games'],
  ] as const) {
    it(`${name}: one address may hold only so many games in progress; others may still start theirs`, async () => {
      const app = await server({ gamesPerAddress: 2 });
      for (let i = 0; i < 2; i++) expect((await call(app, { method: 'POST', url, payload: {}, ...from('10.0.0.1') })).status).toBe(201);
      const third = await call(app, { method: 'POST', url, payload: {}, ...from('10.0.0.1') });
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ code: 'TM_TOO_MANY_GAMES', message: expect.stringMatching(/this address already has 2 games in progress/) });
      expect((await call(app, { method: 'POST', url, payload: {}, ...from('10.0.0.2') })).status).toBe(201);
    });

    it(`${name}: a full table refuses a new game and never evicts one in progress`, async () => {
      const app = await server({ maxGames: 2 });
      const games = [];
      for (const ip of ['10.0.0.1', '10.0.0.2']) games.push((await call(app, { method: 'POST', url, payload: {}, ...from(ip) })).body);
      const full = await call(app, { method: 'POST', url, payload: {}, ...from('10.0.0.3') });
      expect(full.status).toBe(429);
      expect(full.body.code).toBe('TM_TOO_MANY_GAMES');
      for (const g of games) expect((await call(app, { method: 'GET', url: `${url}/${g.id}`, headers: auth(g.token) })).status).toBe(200);
    });

    it(`${name}: a game untouched past the idle limit is dropped and frees its place`, async () => {
      const app = await server({ maxGames: 1, idleMs: 40 });
      const old = (await call(app, { method: 'POST', url, payload: {} })).body;
      await new Promise((r) => setTimeout(r, 80));
      expect((await call(app, { method: 'POST', url, payload: {}, ...from('10.0.0.9') })).status).toBe(201);
      expect((await call(app, { method: 'GET', url: `${url}/${old.id}`, headers: auth(old.token) })).body.code).toBe('TM_NOT_FOUND');
    });
  }
});
