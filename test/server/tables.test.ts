import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { build } from '../../api/http/app.js';
import { MAX_WATCHERS } from '../../api/shared/limits.js';
import { auth, call, dataDir, databaseOf, newJar, type Jar } from './helpers.js';

/**
 * Tables together (docs/tables.md): people join by code, each sees her own seat only, bots
 * fill the empty seats, every action goes through the rules with `after`, pushes arrive over
 * the WebSocket, a teaching table's coach (and only she) sees every rack, absent people's
 * seats are played by a bot, and each person keeps her record.
 */

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function tableServer(): Promise<FastifyInstance> {
  const dir = dataDir();
  const app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 0, threads: 1 }, webDir: null, tableTimes: { sweepMs: 40, secondMs: 10 } });
  apps.push(app);
  return app;
}

interface Person {
  jar: Jar;
  token: string;
  seat: number | null;
  role: string;
}

async function open(app: FastifyInstance, body: Record<string, unknown>): Promise<{ code: string; host: Person }> {
  const jar = newJar();
  const r = await call(app, { method: 'POST', url: '/api/tables', payload: body }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
  return { code: r.body.code, host: { jar, token: r.body.token, seat: r.body.seat, role: r.body.role } };
}

async function join(app: FastifyInstance, code: string, body: Record<string, unknown>): Promise<Person> {
  const jar = newJar();
  const r = await call(app, { method: 'POST', url: `/api/tables/${code}/join`, payload: body }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { jar, token: r.body.token, seat: r.body.seat, role: r.body.role };
}

const state = async (app: FastifyInstance, code: string, p: Person) => (await call(app, { method: 'GET', url: `/api/tables/${code}/state`, headers: auth(p.token) }, p.jar)).body;

/** A simple choice from a seat's message: the first legal action; passes from the front of the rack. */
function choose(m: any): any {
  const l = m.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

/** Plays until the game ends: whoever has something to decide decides, each from her own message, with `after`. */
async function playToEnd(app: FastifyInstance, code: string, people: Person[], max = 3000): Promise<any[]> {
  for (let i = 0; i < max; i++) {
    let acted = false;
    for (const p of people) {
      const m = await state(app, code, p);
      if (m.view.phase === 'ended' || m.view.phase === 'over') return Promise.all(people.map((q) => state(app, code, q)));
      if (m.legal.length === 0) continue;
      const r = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(p.token), payload: { ...choose(m), after: m.at } }, p.jar);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      acted = true;
    }
    if (!acted) await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the game did not end');
}

describe('tables together', () => {
  it('four people at one Mah Jongg table each see their own rack only, play a whole game and each keep the record', async () => {
    const app = await tableServer();
    // the longest absence a table allows (6 s at this server's 10 ms "seconds"): on a busy machine nobody here is played for by a bot
    const { code, host } = await open(app, { game: 'mah-jongg', name: 'Ruth', awayAfter: 600 });
    expect(host).toMatchObject({ seat: 0, role: 'player' });
    const others = [await join(app, code, { name: 'Edna' }), await join(app, code, { name: 'Pearl', seat: 3 }), await join(app, code, { name: 'Dot' })];
    expect(others.map((p) => p.seat)).toEqual([1, 3, 2]);
    const full = await call(app, { method: 'POST', url: `/api/tables/${code}/join`, payload: { name: 'Late' } }, newJar());
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('TM_SEAT_TAKEN');
    const notHost = await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(others[0].token), payload: {} }, others[0].jar);
    expect(notHost.body.code).toBe('TM_NOT_ALLOWED');
    const started = await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(host.token), payload: {} }, host.jar);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.status).toBe('playing');
    const people = [host, ...others];
    const first = await Promise.all(people.map((p) => state(app, code, p)));
    for (const [i, m] of first.entries()) {
      expect(m.seat).toBe(people[i].seat);
      expect(m.view.rack.length).toBeGreaterThanOrEqual(13);
      expect(m.racks).toBeUndefined();
    }
    // no seat's message holds another seat's rack: the racks are all different deals of tiles
    expect(new Set(first.map((m) => m.view.rack.join(' '))).size).toBe(4);
    const ends = await playToEnd(app, code, people);
    const info = (await call(app, { method: 'GET', url: `/api/tables/${code}` })).body;
    expect(info.status).toBe('over');
    for (const [i, p] of people.entries()) {
      expect(ends[i].recordId).toBe(info.recordIds[p.seat!]);
      const mine = await call(app, { method: 'GET', url: `/api/records/${ends[i].recordId}` }, p.jar);
      expect(mine.status).toBe(200);
      // another person's record is hers alone
      const theirs = await call(app, { method: 'GET', url: `/api/records/${ends[(i + 1) % 4].recordId}` }, p.jar);
      expect(theirs.status).toBe(404);
    }
  }, 120_000);

  it("refuses a retry of an action already applied, but not a pass made at the same time as another seat's", async () => {
    const app = await tableServer();
    // the most away time (6 s at this server's 10 ms seconds): on a loaded machine the hint below
    // may take longer than the default's 0.6 s, and nobody here is connected, so her seat's bot
    // would pass for her before she does
    const { code, host } = await open(app, { game: 'mah-jongg', name: 'Ruth', awayAfter: 600 });
    const edna = await join(app, code, { name: 'Edna' });
    await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(host.token), payload: { fill: 'easy' } }, host.jar);
    const [a, b] = [await state(app, code, host), await state(app, code, edna)];
    expect(a.view.phase).toBe('charleston');
    // each player may ask for her own hint and look at the card for her own rack; someone else's hint is the coach's alone
    const own = await call(app, { method: 'POST', url: `/api/tables/${code}/hint`, headers: auth(edna.token), payload: {} }, edna.jar);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.action.type).toBe('pass');
    const others = await call(app, { method: 'POST', url: `/api/tables/${code}/hint`, headers: auth(edna.token), payload: { seat: 0 } }, edna.jar);
    expect(others.status).toBe(403);
    const card = await call(app, { method: 'GET', url: `/api/tables/${code}/card?top=3`, headers: auth(edna.token) }, edna.jar);
    expect(card.status).toBe(200);
    expect(card.body.results).toHaveLength(3);
    const passA = { ...choose(a), after: a.at };
    const first = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: passA }, host.jar);
    expect(first.status).toBe(200);
    const again = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: passA }, host.jar);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TM_STALE_ACTION');
    // Edna chose from the moment before Ruth's pass: hers is applied
    const passB = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(edna.token), payload: { ...choose(b), after: b.at } }, edna.jar);
    expect(passB.status, JSON.stringify(passB.body)).toBe(200);
    // acting for another seat is refused
    const other = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(edna.token), payload: { type: 'draw', seat: 0 } }, edna.jar);
    expect(other.body.code).toBe('TM_NOT_YOUR_TURN');
    // a watcher cannot act
    const watcher = await join(app, code, { name: 'Sam', watch: true });
    const w = await state(app, code, watcher);
    expect(w.seat).toBeNull();
    expect(w.view.rack).toEqual([]);
    expect(w.legal).toEqual([]);
    const act = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(watcher.token), payload: { type: 'draw' } }, watcher.jar);
    expect(act.body.code).toBe('TM_NOT_YOUR_TURN');
  }, 60_000);

  it('a teaching table: joining needs agreement, the coach alone sees every rack, pauses, and sends one student a hint', async () => {
    const app = await tableServer();
    // the most away time (6 s at this server's 10 ms seconds): nobody here acts before the hint, and on a
    // loaded machine the default's 0.6 s may pass first, her seat's bot then passing for her
    const { code, host: coach } = await open(app, { game: 'mah-jongg', name: 'Mrs Kaye', teaching: true, awayAfter: 600 });
    expect(coach).toMatchObject({ seat: null, role: 'coach' });
    const refused = await call(app, { method: 'POST', url: `/api/tables/${code}/join`, payload: { name: 'Edna' } }, newJar());
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Mrs Kaye');
    const edna = await join(app, code, { name: 'Edna', agree: true });
    const pearl = await join(app, code, { name: 'Pearl', agree: true });
    const watcher = await join(app, code, { name: 'Sam', watch: true });
    await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(coach.token), payload: { fill: 'easy' } }, coach.jar);
    const c = await state(app, code, coach);
    expect(Object.keys(c.racks)).toHaveLength(4);
    const e = await state(app, code, edna);
    expect(c.racks[edna.seat!].rack).toEqual(e.view.rack);
    for (const p of [edna, pearl, watcher]) expect((await state(app, code, p)).racks).toBeUndefined();
    // a student cannot pause or ask for another's hint
    for (const url of ['pause', 'hint']) {
      const r = await call(app, { method: 'POST', url: `/api/tables/${code}/${url}`, headers: auth(edna.token), payload: url === 'pause' ? { paused: true } : { seat: pearl.seat } }, edna.jar);
      expect(r.status).toBe(403);
    }
    // the hint reaches Edna's connection, not Pearl's
    const ednaWs = await connect(app, code, edna.token);
    const pearlWs = await connect(app, code, pearl.token);
    const hint = await call(app, { method: 'POST', url: `/api/tables/${code}/hint`, headers: auth(coach.token), payload: { seat: edna.seat } }, coach.jar);
    expect(hint.status, JSON.stringify(hint.body)).toBe(200);
    expect(typeof hint.body.text).toBe('string');
    const got = await ednaWs.next((m) => m.type === 'hint');
    expect(got.hint.text).toBe(hint.body.text);
    await new Promise((r) => setTimeout(r, 100));
    expect(pearlWs.seen.some((m) => m.type === 'hint')).toBe(false);
    // paused: nobody acts
    await call(app, { method: 'POST', url: `/api/tables/${code}/pause`, headers: auth(coach.token), payload: { paused: true } }, coach.jar);
    const m = await state(app, code, edna);
    expect(m.paused).toBe(true);
    expect(m.legal).toEqual([]);
    ednaWs.close();
    pearlWs.close();
    // resumed and played to the end: the coach opens each student's record and review; nobody else can
    await call(app, { method: 'POST', url: `/api/tables/${code}/pause`, headers: auth(coach.token), payload: { paused: false } }, coach.jar);
    await playToEnd(app, code, [edna, pearl]);
    const info = (await call(app, { method: 'GET', url: `/api/tables/${code}` })).body;
    expect(Object.keys(info.recordIds).map(Number).sort()).toEqual([edna.seat, pearl.seat].sort());
    for (const p of [edna, pearl]) {
      const id = info.recordIds[p.seat!];
      expect((await call(app, { method: 'GET', url: `/api/records/${id}` }, coach.jar)).status).toBe(200);
      expect((await call(app, { method: 'GET', url: `/api/records/${id}` }, newJar())).status).toBe(404);
      expect((await call(app, { method: 'GET', url: `/api/records/${id}` }, watcher.jar)).status).toBe(404);
    }
    const review = await call(app, { method: 'POST', url: '/api/review', payload: { recordId: info.recordIds[edna.seat!], seat: edna.seat, worlds: 1, top: 1 } }, coach.jar);
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    expect(review.body.seat).toBe(edna.seat);
  }, 60_000);

  it('pushes each change to every connected seat over the WebSocket, and a seat whose person is gone is played by a bot', async () => {
    const app = await tableServer();
    const { code, host } = await open(app, { game: 'mexican-train', players: 3, name: 'Ruth', awayAfter: 15 });
    const edna = await join(app, code, { name: 'Edna' });
    const ws = await connect(app, code, edna.token);
    const table = await ws.next((m) => m.type === 'table');
    expect(table.you).toEqual({ seat: 1, role: 'player', name: 'Edna', host: false });
    await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(host.token), payload: { fill: 'random' } }, host.jar);
    const g = await ws.next((m) => m.type === 'game');
    expect(g.seat).toBe(1);
    expect(Array.isArray(g.view.hand)).toBe(true);
    // Ruth is never connected: after 15 (short) seconds her seat's bot plays for her, and Edna keeps playing over the socket
    let last = g;
    // she acts over the socket; past its limit of messages a second (a game answered as fast as
    // this one, with nobody thinking, can go quicker) she acts over HTTP until the second is over
    const sent: number[] = [];
    for (let i = 0; i < 400 && last.view.phase !== 'over' && last.view.phase !== 'ended' && !last.recordId; i++) {
      if (last.legal.length > 0) {
        const act = { action: last.legal[0], after: last.at };
        while (sent.length > 0 && sent[0] < Date.now() - 1_000) sent.shift();
        if (sent.length < 40) {
          sent.push(Date.now());
          ws.send({ type: 'act', ...act });
        } else {
          await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(edna.token), payload: { ...act.action, after: act.after } }, edna.jar);
        }
      }
      last = await ws.next((m) => m.type === 'game' && m.at > last.at, 10_000);
    }
    const info = (await call(app, { method: 'GET', url: `/api/tables/${code}` })).body;
    expect(info.seats[0].away).toBe(info.status === 'playing' ? true : undefined);
    expect(last.at).toBeGreaterThan(g.at);
    ws.close();
  }, 120_000);

  it("a turn clock: a person who is here but does not decide in time has her decision made by her seat's bot, once, and a retry of hers is refused", async () => {
    const app = await tableServer();
    const { code, host } = await open(app, { game: 'mexican-train', players: 2, name: 'Ruth', clock: 'tournament' });
    const ws = await connect(app, code, host.token);
    await call(app, { method: 'POST', url: `/api/tables/${code}/start`, headers: auth(host.token), payload: { fill: 'random' } }, host.jar);
    const first = await ws.next((m) => m.type === 'game' && m.legal.length > 0);
    // the clock's end is told with the message: 20 (short) seconds from her turn's start
    expect(first.clock.seats).toEqual([0]);
    expect(first.clock.endsAt).toBeGreaterThan(Date.now() - 1_000);
    // she stays connected and waits: her bot decides for her, and the game goes on
    const after = await ws.next((m) => m.type === 'game' && m.at > first.at, 10_000);
    expect(after.events.some((e: any) => e.action.seat === 0)).toBe(true);
    // her own choice, sent late from the old moment, is not applied on top
    const late = await call(app, { method: 'POST', url: `/api/tables/${code}/actions`, headers: auth(host.token), payload: { ...first.legal[0], after: first.at } }, host.jar);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('TM_STALE_ACTION');
    ws.close();
  }, 60_000);

  it("no token opens another table, and no player, host or watcher is ever sent another seat's rack, the wall or the seed", async () => {
    const app = await tableServer();
    // the most away time (6 s at this server's 10 ms seconds), so that bots do not stand in and end the games (whose end shows the seed) while the test looks
    const x = await open(app, { game: 'mah-jongg', name: 'Ruth', awayAfter: 600 });
    const y = await open(app, { game: 'mah-jongg', name: 'Mrs Kaye', teaching: true, awayAfter: 600 });
    const edna = await join(app, y.code, { name: 'Edna', agree: true });
    const watcher = await join(app, y.code, { name: 'Sam', watch: true });
    await call(app, { method: 'POST', url: `/api/tables/${x.code}/start`, headers: auth(x.host.token), payload: { fill: 'easy' } }, x.host.jar);
    await call(app, { method: 'POST', url: `/api/tables/${y.code}/start`, headers: auth(y.host.token), payload: { fill: 'easy' } }, y.host.jar);
    // a token of one table opens nothing at another: not the coach's, not a player's, over HTTP or the WebSocket
    for (const [code, token] of [
      [x.code, y.host.token],
      [x.code, edna.token],
      [y.code, x.host.token],
    ]) {
      const r = await call(app, { method: 'GET', url: `/api/tables/${code}/state`, headers: auth(token) });
      expect(r.status).toBe(404);
      const ws = await connect(app, code, token);
      const err = await ws.next((m) => m.type === 'error');
      expect(err.code).toBe('TM_NOT_FOUND');
      expect(ws.seen.some((m) => m.type === 'game' || m.type === 'table')).toBe(false);
      ws.close();
    }
    // the host of an ordinary table, a student and a watcher: their own seat (or none), no racks, no seed, others' passes face down
    const keys = (v: unknown, out = new Set<string>()): Set<string> => {
      if (v !== null && typeof v === 'object')
        for (const [k, w] of Object.entries(v)) {
          out.add(k);
          keys(w, out);
        }
      return out;
    };
    for (const [code, p] of [
      [x.code, x.host],
      [y.code, edna],
      [y.code, watcher],
    ] as const) {
      const m = await state(app, code, p);
      const k = keys(m);
      expect(k.has('racks')).toBe(false);
      // the seed is shown once a game is over, never before (a machine slow enough for the away time can end one)
      if ((await call(app, { method: 'GET', url: `/api/tables/${code}` })).body.status !== 'over') expect(k.has('seed')).toBe(false);
      expect(k.has('wall')).toBe(false);
      expect(k.has('hands')).toBe(false);
      for (const e of m.events) if (e.action.type === 'pass' && e.action.seat !== p.seat) expect(e.action.tiles).toBeUndefined();
      const info = (await call(app, { method: 'GET', url: `/api/tables/${code}` })).body;
      expect(keys(info).has('seed')).toBe(false);
    }
    // the coach of Y sees Y's racks, and her token is nobody's at X
    const coach = await state(app, y.code, y.host);
    expect(Object.keys(coach.racks)).toHaveLength(4);
  });

  it('one address opens at most its share of tables, and a table takes at most 32 people watching, apart from its seats', async () => {
    const app = await tableServer();
    for (let i = 0; i < 10; i++) await open(app, { game: 'mexican-train', players: 2, name: `Host ${i}` });
    const more = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'One more' } }, newJar());
    expect(more.status).toBe(429);
    expect(more.body.message).toContain('10 tables open');
    const app2 = await tableServer();
    const { code } = await open(app2, { game: 'mah-jongg', name: 'Ruth' });
    for (let i = 0; i < MAX_WATCHERS; i++) await join(app2, code, { name: `Watcher ${i}`, watch: true });
    const full = await call(app2, { method: 'POST', url: `/api/tables/${code}/join`, payload: { name: 'Late', watch: true } }, newJar());
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('TM_SEAT_TAKEN');
    // the watchers never take a seat's room (issue 63): a player still sits down
    expect((await call(app2, { method: 'POST', url: `/api/tables/${code}/join`, payload: { name: 'Edna' } }, newJar())).status).toBe(200);
  }, 60_000);

  it('refuses bad input in plain words and changes nothing', async () => {
    const app = await tableServer();
    for (const body of [
      { game: 'chess', name: 'A' },
      { game: 'mah-jongg', name: '' },
      { game: 'mah-jongg', name: 'A', ruleset: 'toString' },
      { game: 'mah-jongg', name: 'A', level: '__proto__' },
      { game: 'mexican-train', name: 'A', players: 9 },
    ]) {
      const r = await call(app, { method: 'POST', url: '/api/tables', payload: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message.length).toBeGreaterThan(0);
    }
    expect((await call(app, { method: 'GET', url: '/api/tables/ZZZZZZ' })).status).toBe(404);
    expect((await call(app, { method: 'GET', url: '/api/tables/nope' })).status).toBe(404);
    const { code } = await open(app, { game: 'mah-jongg', name: 'Ruth' });
    const wrong = await call(app, { method: 'GET', url: `/api/tables/${code}/state`, headers: auth('x'.repeat(32)) });
    expect(wrong.status).toBe(404);
    const qr = await app.inject({ method: 'GET', url: `/api/tables/${code}/qr.svg` });
    expect(qr.headers['content-type']).toContain('image/svg+xml');
    expect(qr.body).toContain('<svg');
  });
});

/** A WebSocket to the table, said hello to, keeping every message. */
async function connect(app: FastifyInstance, code: string, token: string) {
  if (app.server.address() === null) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/tables/${code}/ws`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const seen: any[] = [];
  const waiters: { test: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  let read = 0;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    seen.push(m);
    for (const w of [...waiters])
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  ws.send(JSON.stringify({ type: 'hello', token }));
  return {
    seen,
    send: (m: unknown) => ws.send(JSON.stringify(m)),
    close: () => ws.close(),
    /** The first message not yet read that passes the test. */
    next(test: (m: any) => boolean, ms = 10_000): Promise<any> {
      for (let i = read; i < seen.length; i++)
        if (test(seen[i])) {
          read = i + 1;
          return Promise.resolve(seen[i]);
        }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such message in ${ms} ms; last: ${JSON.stringify(seen.at(-1))?.slice(0, 300)}`)), ms);
        waiters.push({
          test,
          resolve: (m) => {
            clearTimeout(timer);
            read = seen.length;
            resolve(m);
          },
        });
      });
    },
  };
}
