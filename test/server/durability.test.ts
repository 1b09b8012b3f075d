import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { openDb, STORAGE_SENTENCE, type Db } from '../../api/store/db.js';
import { SERVER_URL } from '../databases.js';
import { auth, call, dataDir, databaseOf, firstChoice, postJson, spawnServer, type Answer } from './helpers.js';

/**
 * Nothing acknowledged is lost, and a player is told in one plain sentence when her move
 * could not be kept: a database that refuses writes, a connection dropped in the middle of a
 * request, a full disk, and a server killed while it commits. After each, every action she was
 * told of is there and the game plays on.
 */

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** A server on a database this test also holds, to make it fail. */
async function serverWithDb(): Promise<{ app: FastifyInstance; db: Db; dir: string }> {
  const dir = dataDir();
  const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
  const app = await build({ dataDir: dir, db, limits: { ratePerMinute: 0, threads: 1 }, webDir: null });
  apps.push(app);
  return { app, db, dir };
}

/** A trigger that stops every write to a live game (with pg_sleep first when `sleep` is given): a new game, a request's actions. */
async function refuseWrites(db: Db, sleep = 0): Promise<void> {
  await db.query(`CREATE OR REPLACE FUNCTION tm_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(${sleep}); RAISE EXCEPTION 'could not write: the test refuses it'; END $$`);
  await db.query('CREATE TRIGGER tm_test_refuse BEFORE INSERT OR UPDATE ON tables FOR EACH STATEMENT EXECUTE FUNCTION tm_test_refuse()');
}
const allowWrites = (db: Db) => db.query('DROP TRIGGER IF EXISTS tm_test_refuse ON tables');

const plain = (body: { code: string; message: string }) => {
  expect(body).toEqual({ code: 'TM_STORAGE', message: STORAGE_SENTENCE });
  expect(body.message).not.toMatch(/\/|\\|ENOSPC|postgres|pglite|relation|trigger/i); // no paths, no database words
};

async function mahJongg(app: FastifyInstance, seed: number): Promise<Answer> {
  const g = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'easy', seed } })).body;
  let a = g;
  for (let i = 0; i < 4; i++) a = (await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token), payload: { ...firstChoice(a), after: a.at } })).body;
  return { ...a, token: g.token };
}

describe('a database that refuses writes', () => {
  it('an action is 503 TM_STORAGE in one plain sentence, the game stays at its last acknowledged action, and the same action is taken once writes come back', async () => {
    const { app, db } = await serverWithDb();
    const g = await mahJongg(app, 31);
    await refuseWrites(db);
    const move = { ...firstChoice(g), after: g.at };
    for (let i = 0; i < 2; i++) {
      const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: move });
      expect(r.status).toBe(503);
      plain(r.body);
      const now = (await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body;
      expect(now.at).toBe(g.at);
      expect(now.view).toEqual(g.view);
    }
    // a new game is refused too, never answered 201 for a game that is not kept
    const created = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'easy' } });
    expect(created.status).toBe(503);
    plain(created.body);
    await allowWrites(db);
    const ok = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: move });
    expect(ok.status).toBe(200);
    expect(ok.body.at).toBeGreaterThan(g.at);
    expect((await call(app, { method: 'POST', url: '/api/games', payload: { level: 'easy' } })).status).toBe(201);
  });
});

describe.runIf(SERVER_URL !== undefined)('a connection to the PostgreSQL server dropped in the middle of a request', () => {
  it('the request is 503 TM_STORAGE in one plain sentence, nothing of it kept: the game is where the last answer said, and plays on', async () => {
    const { app, db } = await serverWithDb();
    const g = await mahJongg(app, 32);
    await refuseWrites(db, 1); // hold the commit for a second, then fail: the connection dies first
    const move = { ...firstChoice(g), after: g.at };
    const pending = call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: move });
    await new Promise((r) => setTimeout(r, 300));
    const admin = await openDb({ dataDir: dataDir(), url: SERVER_URL });
    const name = (await db.query<{ d: string }>('SELECT current_database() AS d'))[0].d;
    const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await admin.close();
    expect(killed.length).toBeGreaterThan(0);
    const r = await pending;
    expect(r.status).toBe(503);
    plain(r.body);
    // the kill also ended this pool's idle connections; a query sent on one before the pool
    // heard of its end fails once, so the test's own clean-up is tried again on a fresh one
    for (let tries = 1; ; tries++) {
      try {
        await allowWrites(db);
        break;
      } catch (e) {
        if (tries >= 5) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const now = (await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body;
    expect(now.at).toBe(g.at);
    const ok = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: move });
    expect(ok.status).toBe(200);
  });
});

describe('kill -9 while a commit is under way', () => {
  it('the game comes back at its last acknowledged action, with nothing of the cut request, and plays on', async () => {
    const dir = dataDir();
    const url = await databaseOf(dir);
    let server = await spawnServer(dir);
    const created = await postJson(`${server.url}/api/games`, { level: 'easy', seed: 33 });
    expect(created.status).toBe(201);
    const g: Answer = created.body;
    server.child.kill('SIGKILL');
    await server.exited;
    // from now on the server's commits wait 2 s (and then fail) while the trigger is there
    const db = await openDb({ dataDir: dir, url });
    await refuseWrites(db, 2);
    if (url === undefined) await db.close(); // the embedded database is the server's alone while it runs
    server = await spawnServer(dir);
    const cut = postJson(`${server.url}/api/games/${g.id}/actions`, { ...firstChoice(g), after: g.at }, g.token).catch(() => null);
    await new Promise((r) => setTimeout(r, 500));
    server.child.kill('SIGKILL');
    expect(await cut).toBeNull(); // never answered
    await server.exited;
    const again = url === undefined ? await openDb({ dataDir: dir }) : db;
    await allowWrites(again);
    await again.close();
    server = await spawnServer(dir);
    try {
      const r = await fetch(`${server.url}/api/games/${g.id}`, { headers: auth(g.token!) });
      const now = (await r.json()) as Answer;
      expect(r.status).toBe(200);
      expect(now.at).toBe(g.at);
      expect(now.view).toEqual(g.view);
      const ok = await postJson(`${server.url}/api/games/${g.id}/actions`, { ...firstChoice(now), after: now.at }, g.token);
      expect(ok.status).toBe(200);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });
});

/** A small disk of its own for the data folder (root only: CI runs as root). */
function mountSmallDisk(dir: string, mib: number): boolean {
  mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir]).status === 0;
}

const canMount = SERVER_URL === undefined && process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

describe.runIf(canMount)('a full disk under the embedded database', () => {
  it('moves and new games are 503 in one plain sentence while the disk is full, nothing acknowledged is lost, and play goes on once space is freed', async () => {
    const disk = join(dataDir(), 'disk');
    expect(mountSmallDisk(disk, 96)).toBe(true);
    try {
      let server = await spawnServer(join(disk, 'data'));
      const mj = (await postJson(`${server.url}/api/games`, { level: 'easy', seed: 34 })).body as Answer;
      const mt = (await postJson(`${server.url}/api/domino/games`, { players: 3, seed: 34 })).body as Answer;
      const filler = join(disk, 'filler');
      const fd = openSync(filler, 'w');
      try {
        const block = Buffer.alloc(1 << 20);
        for (;;) writeSync(fd, block);
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        closeSync(fd);
      }
      // on a full disk a commit that fits in space the database already holds still goes
      // through, and is acknowledged; one that needs more is refused in plain words
      let refused = 0;
      for (let i = 0; i < 30 && refused < 3; i++) {
        const r =
          i % 3 === 0
            ? await postJson(`${server.url}/api/games`, { level: 'easy' })
            : i % 3 === 1
              ? await postJson(`${server.url}/api/games/${mj.id}/actions`, { ...firstChoice(mj), after: mj.at }, mj.token)
              : await postJson(`${server.url}/api/domino/games/${mt.id}/actions`, { ...mt.legal[0], after: mt.at }, mt.token);
        if (r.status === 503) {
          plain(r.body);
          refused++;
        } else {
          expect(r.status).toBeLessThan(300);
          if (i % 3 === 1) Object.assign(mj, r.body);
          if (i % 3 === 2) Object.assign(mt, r.body);
        }
      }
      expect(refused).toBeGreaterThan(0);
      console.log(`full disk: ${refused} requests refused in plain words ("${STORAGE_SENTENCE}"), the rest acknowledged`);
      rmSync(filler);
      const mj2 = await postJson(`${server.url}/api/games/${mj.id}/actions`, { ...firstChoice(mj), after: mj.at }, mj.token);
      const mt2 = await postJson(`${server.url}/api/domino/games/${mt.id}/actions`, { ...mt.legal[0], after: mt.at }, mt.token);
      expect([mj2.status, mt2.status]).toEqual([200, 200]);
      server.child.kill('SIGKILL');
      await server.exited;
      server = await spawnServer(join(disk, 'data'));
      const a = (await (await fetch(`${server.url}/api/games/${mj.id}`, { headers: auth(mj.token!) })).json()) as Answer;
      const b = (await (await fetch(`${server.url}/api/domino/games/${mt.id}`, { headers: auth(mt.token!) })).json()) as Answer;
      expect([a.at, b.at]).toEqual([mj2.body.at, mt2.body.at]);
      server.child.kill('SIGKILL');
      await server.exited;
    } finally {
      spawnSync('umount', ['-l', disk]);
    }
  });
});
