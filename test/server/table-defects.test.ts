import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Limits } from '../../api/shared/limits.js';
import { build } from '../../api/http/app.js';
import { openDb, type Db } from '../../api/store/db.js';
import { GameStore } from '../../api/store/games.js';
import { TableStore } from '../../api/store/tables.js';
import { auth, call, dataDir, databaseOf, newJar, type Answer, type Jar } from './helpers.js';

/**
 * Defects of the live tables and their neighbours, each pinned by a rule: two tabs on one seat
 * keep the server's presence write whole; one socket registers once; sign-in attempts are
 * counted by the database, whichever server is asked; an action's unknown field is refused and
 * changes nothing; a finished game's token still opens its end after a restart.
 */

const apps: FastifyInstance[] = [];
const dbs: Db[] = [];
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => {});
  for (const d of dbs) await d.close().catch(() => {});
});

/** A server on a database this test also holds (to read it, or to build a second server on it). */
async function serverOn(dir: string, db: Db, tableTimes?: { sweepMs?: number; secondMs?: number; beatMs?: number }, limits: Partial<Limits> = {}): Promise<FastifyInstance> {
  // the database is the test's: the server's close must not end it under the other server
  const shared: Db = { ...db, close: async () => {} };
  const app = await build({ dataDir: dir, db: shared, limits: { ratePerMinute: 0, threads: 1, ...limits }, webDir: null, tableTimes });
  apps.push(app);
  return app;
}

async function database(dir: string): Promise<Db> {
  const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
  dbs.push(db);
  return db;
}

/** Waits until `test` holds (asked again every few ms), or `ms` have passed: true when it held. */
async function until(test: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await test()) return true;
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 20));
  }
  return test();
}

interface Person {
  jar: Jar;
  token: string;
  seat: number | null;
}

async function openTable(app: FastifyInstance, body: Record<string, unknown>): Promise<{ code: string; host: Person }> {
  const jar = newJar();
  const r = await call(app, { method: 'POST', url: '/api/tables', payload: body }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { code: r.body.code, host: { jar, token: r.body.token, seat: r.body.seat } };
}

/** A WebSocket to the table, keeping every message (hello is the caller's to send). */
async function socket(app: FastifyInstance, code: string) {
  if (app.server.address() === null) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/tables/${code}/ws`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const seen: any[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  ws.on('message', (d) => {
    seen.push(JSON.parse(d.toString()));
    for (const w of [...waiters])
      if (w.test()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  return {
    seen,
    send: (m: unknown) => ws.send(JSON.stringify(m)),
    hello: (token: string) => ws.send(JSON.stringify({ type: 'hello', token })),
    close: async () => {
      ws.close();
      await closed;
    },
    /** Resolves once `test` holds of the messages seen (or rejects after `ms`). */
    wait(test: () => boolean, ms = 10_000): Promise<void> {
      if (test()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not seen in ${ms} ms; messages: ${JSON.stringify(seen).slice(0, 400)}`)), ms);
        waiters.push({
          test,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

/** When each (table, seat) was last seen, in ms since the epoch. */
async function seenAt(db: Db, tableId: string, seat: number): Promise<number | null> {
  const [r] = await db.query<{ at: number }>('SELECT (extract(epoch FROM seen_at) * 1000)::float8 AS at FROM table_presence WHERE table_id = $1 AND seat = $2', [tableId, seat]);
  return r === undefined ? null : Number(r.at);
}

const tableId = async (db: Db, code: string): Promise<string> => (await db.query<{ id: string }>('SELECT id FROM tables WHERE code = $1', [code]))[0].id;

describe('presence: two tabs on one seat', () => {
  it('the presence write takes every connection, two for one seat among them, in one statement that succeeds', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const app = await serverOn(dir, db); // migrates
    const a = await openTable(app, { game: 'mexican-train', players: 2, name: 'Ruth' });
    const b = await openTable(app, { game: 'mexican-train', players: 2, name: 'Edna' });
    const [idA, idB] = [await tableId(db, a.code), await tableId(db, b.code)];
    const store = new TableStore(db, new GameStore(db));
    // what the heartbeat writes: Ruth's seat twice (two tabs), Edna's once
    await store.seen([
      { tableId: idA, seat: 0 },
      { tableId: idA, seat: 0 },
      { tableId: idB, seat: 0 },
    ]);
    expect(await store.presence(idA)).toEqual(new Map([[0, expect.any(Number)]]));
  });

  it('with two sockets on one seat, the heartbeat still marks every connected seat present, at that table and at others', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const app = await serverOn(dir, db, { sweepMs: 40, secondMs: 10, beatMs: 50 });
    const a = await openTable(app, { game: 'mexican-train', players: 2, name: 'Ruth' });
    const b = await openTable(app, { game: 'mexican-train', players: 2, name: 'Edna' });
    const tab1 = await socket(app, a.code);
    const tab2 = await socket(app, a.code);
    const other = await socket(app, b.code);
    for (const [ws, token] of [
      [tab1, a.host.token],
      [tab2, a.host.token],
      [other, b.host.token],
    ] as const) {
      ws.hello(token);
      await ws.wait(() => ws.seen.some((m) => m.type === 'table'));
    }
    const idB = await tableId(db, b.code);
    const idA = await tableId(db, a.code);
    const since = Math.max((await seenAt(db, idB, 0))!, (await seenAt(db, idA, 0))!);
    // the heartbeat (every 50 ms here) writes both tables' seats again
    const written = await until(async () => (await seenAt(db, idB, 0))! > since && (await seenAt(db, idA, 0))! > since);
    expect(written, 'the heartbeat wrote the presence of every connected seat').toBe(true);
    for (const ws of [tab1, tab2, other]) await ws.close();
  }, 30_000);
});

describe('one registration a socket', () => {
  it('a message that is not one a table accepts (api/shared/table-wire.ts ClientMessage) is refused in words, and the socket goes on', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const app = await serverOn(dir, db, { sweepMs: 40, secondMs: 10, beatMs: 50 });
    const a = await openTable(app, { game: 'mexican-train', players: 2, name: 'Ruth' });
    const ws = await socket(app, a.code);
    const refused = async (m: unknown, words: RegExp, code = 'TM_BAD_INPUT') => {
      const before = ws.seen.length;
      ws.send(m);
      await ws.wait(() => ws.seen.length > before);
      expect(ws.seen[before], JSON.stringify(m)).toEqual({ type: 'error', code, message: expect.stringMatching(words) });
    };
    await refused({ type: 'nap' }, /a message is \{"type":"hello",\.\.\.\} or \{"type":"act",\.\.\.\}/);
    await refused([1, 2], /a message is/);
    await refused({ type: 'hello' }, /say hello with your table token/, 'TM_UNAUTHORIZED');
    await refused({ type: 'hello', token: a.host.token, seat: 1 }, /without "seat"/);
    ws.hello(a.host.token);
    await ws.wait(() => ws.seen.some((m) => m.type === 'table'));
    await refused({ type: 'act', action: { tile: '6-6' } }, /"action" must be an object with its type/);
    await refused({ type: 'act', action: 'draw' }, /"action" must be an object with its type/);
    await refused({ type: 'act', action: { type: 'draw' }, after: -1 }, /"after" must be a whole number/);
    await refused({ type: 'act', action: { type: 'draw' }, after: 1.5 }, /"after" must be a whole number/);
    await refused({ type: 'act', action: { type: 'draw' }, then: 'pass' }, /without "then"/);
    await ws.close();
  }, 60_000);

  it('five hellos sent at once are answered once (the others refused in words), and once closed nothing of the socket is left', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const app = await serverOn(dir, db, { sweepMs: 40, secondMs: 10, beatMs: 50 });
    const a = await openTable(app, { game: 'mexican-train', players: 2, name: 'Ruth' });
    const b = await openTable(app, { game: 'mexican-train', players: 2, name: 'Edna' });
    const ws = await socket(app, a.code);
    for (let i = 0; i < 5; i++) ws.hello(a.host.token);
    await ws.wait(() => ws.seen.length >= 5);
    const tables = ws.seen.filter((m) => m.type === 'table').length;
    const refused = ws.seen.filter((m) => m.type === 'error');
    expect(tables, 'the table was sent once: one registration').toBe(1);
    expect(refused).toHaveLength(4);
    for (const e of refused) expect(e).toEqual({ type: 'error', code: 'TM_BAD_INPUT', message: expect.stringMatching(/already said hello/) });
    await ws.close();
    // nothing left: Ruth's seat is no longer written present, while a seat still connected is
    const idA = await tableId(db, a.code);
    const idB = await tableId(db, b.code);
    const other = await socket(app, b.code);
    other.hello(b.host.token);
    await other.wait(() => other.seen.some((m) => m.type === 'table'));
    // heartbeats for the seat still connected (each writes every registered seat at once): one
    // to be sure none under way at the close is still to land, then two more
    let beats = 0;
    let last = (await seenAt(db, idB, 0))!;
    const beat = async () => {
      const t = (await seenAt(db, idB, 0))!;
      if (t > last) {
        beats++;
        last = t;
      }
      return beats >= 1;
    };
    expect(await until(beat)).toBe(true);
    const gone = (await seenAt(db, idA, 0))!;
    beats = 0;
    expect(
      await until(async () => {
        await beat();
        return beats >= 2;
      }),
    ).toBe(true);
    expect(await seenAt(db, idA, 0), "the closed socket's seat is not written present any more").toBe(gone);
    await other.close();
  }, 30_000);
});

describe('sign-in limits shared by every server on the database', () => {
  it('the sixth wrong guess for one name within the minute is refused, whichever of two servers is asked', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const one = await serverOn(dir, db);
    const two = await serverOn(dir, db);
    const signUp = await call(one, { method: 'POST', url: '/api/account', payload: { name: 'Rose', password: 'a long password' } }, newJar());
    expect(signUp.status).toBe(201);
    const tries: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? one : two;
      tries.push((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Rose', password: `guess ${i}` }, remoteAddress: `10.0.2.${i + 1}` }, newJar())).status);
    }
    expect(tries).toEqual([401, 401, 401, 401, 401, 429]);
    // the right password too, on either server, until the minute is over
    for (const app of [one, two]) {
      const right = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'rose', password: 'a long password' }, remoteAddress: '10.0.3.1' }, newJar());
      expect(right.status).toBe(429);
      expect(right.body.code).toBe('TM_RATE_LIMITED');
      expect(right.body.message).toMatch(/^too many sign-in attempts; please wait \d+ seconds and try again$/);
    }
  });

  it('attempts from one address are counted across servers too, and old attempts are forgotten', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const one = await serverOn(dir, db);
    const two = await serverOn(dir, db);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await call(i % 2 === 0 ? one : two, { method: 'POST', url: '/api/session', payload: { name: `nobody${i}`, password: 'whatever it is' }, remoteAddress: '10.0.4.1' }, newJar())).status,
      );
    }
    expect(statuses).toEqual([...new Array<number>(20).fill(401), 429]);
    // a minute later (the window moved back in the database) the address may try again
    await db.query("UPDATE rate_windows SET window_start = window_start - interval '2 minutes'");
    expect((await call(two, { method: 'POST', url: '/api/session', payload: { name: 'nobody', password: 'whatever it is' }, remoteAddress: '10.0.4.1' }, newJar())).status).toBe(401);
    const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM rate_windows WHERE window_start < now() - interval '1 minute'");
    expect(n, 'old windows are pruned').toBe(0);
  });
});

describe('the budget of requests that play deals out, shared by every server on the database', () => {
  it('two servers allow an address its budget once, not once each', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const one = await serverOn(dir, db, undefined, { heavyPerMinute: 3 });
    const two = await serverOn(dir, db, undefined, { heavyPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(i % 2 === 0 ? one : two, { method: 'POST', url: '/api/charleston', payload: { hand: '1B 2B 3B 4C 5C 6C 7D 8D 9D N E W S', direction: 'right' }, remoteAddress: '10.0.6.1' });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // another address has its own budget
    expect((await call(two, { method: 'POST', url: '/api/charleston', payload: { hand: '1B 2B 3B 4C 5C 6C 7D 8D 9D N E W S', direction: 'right' }, remoteAddress: '10.0.6.2' })).status).toBe(200);
  });
});

describe('an action with a field the rules do not know', () => {
  const hack = (body: { code: string; message: string }) => {
    expect(body.code).toBe('TM_BAD_INPUT');
    expect(body.message).toMatch(/"hack"/);
  };

  it('is refused over HTTP at a Mah Jongg game against bots, and the game stays where it was', async () => {
    const dir = dataDir();
    const app = await serverOn(dir, await database(dir));
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'easy', seed: 5 } })).body;
    const move = g.legal[0].type === 'pass' ? { type: 'pass', tiles: g.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 } : g.legal[0];
    const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...move, hack: 1 } });
    expect(r.status, `answered ${JSON.stringify(r.body).slice(0, 80)}…`).toBe(400);
    hack(r.body);
    expect((await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body.at).toBe(g.at);
    // the legal entry posted back unchanged (its describing fields) is still taken
    expect((await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...move, after: g.at } })).status).toBe(200);
  });

  it('is refused over HTTP at a Mexican Train game against bots, and the game stays where it was', async () => {
    const dir = dataDir();
    const app = await serverOn(dir, await database(dir));
    const g: Answer = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { players: 2, seed: 3 } })).body;
    const r = await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...g.legal[0], hack: 1 } });
    expect(r.status, `answered ${JSON.stringify(r.body).slice(0, 80)}…`).toBe(400);
    hack(r.body);
    expect((await call(app, { method: 'GET', url: `/api/domino/games/${g.id}`, headers: auth(g.token!) })).body.at).toBe(g.at);
  });

  it('is refused at a table over HTTP and over the WebSocket, for both games, and the table stays where it was', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const app = await serverOn(dir, db);
    for (const game of ['mah-jongg', 'mexican-train']) {
      const { code, host } = await openTable(app, { game, name: 'Ruth', ...(game === 'mexican-train' ? { players: 2 } : {}) });
      expect((await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(host.token), payload: { fill: game === 'mah-jongg' ? 'easy' : 'random' } }, host.jar)).status).toBe(
        200,
      );
      const m = (await call(app, { method: 'GET', url: `/api/tables/${code}/state`, headers: auth(host.token) }, host.jar)).body;
      expect(m.legal.length, `${game}: Ruth has a decision`).toBeGreaterThan(0);
      const move = m.legal[0].type === 'pass' ? { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 } : m.legal[0];
      const r = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: { ...move, hack: 1, after: m.at } }, host.jar);
      expect(r.status, `${game}: answered ${JSON.stringify(r.body).slice(0, 80)}…`).toBe(400);
      hack(r.body);
      // a field of the other game is unknown to this one
      const other = await call(
        app,
        { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: { ...move, ...(game === 'mah-jongg' ? { train: 0 } : { tiles: ['1B'] }), after: m.at } },
        host.jar,
      );
      expect(other.status, `${game}: ${JSON.stringify(other.body)}`).toBe(400);
      const ws = await socket(app, code);
      ws.hello(host.token);
      await ws.wait(() => ws.seen.some((x) => x.type === 'game'));
      ws.send({ type: 'act', action: { ...move, hack: 1 }, after: m.at });
      await ws.wait(() => ws.seen.some((x) => x.type === 'error' || (x.type === 'game' && x.at > m.at)));
      const answer = ws.seen.find((x) => x.type === 'error' || (x.type === 'game' && x.at > m.at));
      expect(answer.type, `${game}: ${JSON.stringify(answer).slice(0, 200)}`).toBe('error');
      hack(answer);
      // a NUL in a message is refused in words naming the field, like a route's (issue 63)
      const before = ws.seen.length;
      ws.send({ type: 'act', action: { ...move, type: `${move.type}\u0000` }, after: m.at });
      await ws.wait(() => ws.seen.length > before);
      expect(ws.seen[before], `${game}: ${JSON.stringify(ws.seen[before])}`).toMatchObject({ type: 'error', code: 'TM_BAD_INPUT' });
      expect(ws.seen[before].message).toMatch(/"action\.type" holds an empty character \(NUL\)/);
      await ws.close();
      expect((await call(app, { method: 'GET', url: `/api/tables/${code}/state`, headers: auth(host.token) }, host.jar)).body.at, `${game}: nothing applied`).toBe(m.at);
      // and the move without it is taken
      expect((await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: { ...move, after: m.at } }, host.jar)).status).toBe(200);
    }
  }, 60_000);
});

describe('a finished game after a restart', () => {
  it('its token still opens the end (read-only) on a new server on the same data, not 404', async () => {
    const dir = dataDir();
    const db = await database(dir);
    const first = await serverOn(dir, db);
    const g: Answer = (await call(first, { method: 'POST', url: '/api/domino/games', payload: { players: 2, round: 0, bots: ['random'], seed: 8 } })).body;
    let a = g;
    for (let i = 0; i < 500 && a.recordId === null; i++) {
      const r = await call(first, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...a.legal[0], after: a.at } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      a = r.body;
    }
    expect(a.recordId).toBe(g.id);
    // the server goes away without a word (as after kill -9: nothing in memory is kept), a new one starts on the same data
    const second = await serverOn(dir, db);
    const r = await call(second, { method: 'GET', url: `/api/domino/games/${g.id}`, headers: auth(g.token!) });
    expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
    expect(r.body.at).toBe(a.at);
    expect(r.body.recordId).toBe(g.id);
    expect(r.body.legal).toEqual([]);
    expect(r.body.view).toEqual(a.view);
    // read-only: an action is refused; another token opens nothing
    const act = await call(second, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token!), payload: { type: 'draw' } });
    expect(act.status).toBe(409);
    expect(act.body.code).toBe('TM_GAME_OVER');
    expect((await call(second, { method: 'GET', url: `/api/domino/games/${g.id}`, headers: auth('x'.repeat(32)) })).status).toBe(404);
    expect((await call(second, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).status).toBe(404);
  }, 60_000);
});
