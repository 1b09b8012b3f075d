import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_URL } from '../databases.js';
import { dataDir, postJson, spawnServer } from './helpers.js';

/**
 * Club events (issue 47) where servers fail: a server killed with kill -9 while the phones are
 * entering their cards loses no entry it acknowledged, and the phones sending everything again
 * (their answers lost) enter nothing twice; two server processes on one PostgreSQL database
 * (TILEMATE_TEST_DATABASE_URL) taking one table's cards at once keep every entry once, in one
 * order both agree on.
 */

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

async function send(url: string, method: string, body: unknown, cookie?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

/** A director signed in, an event of four players seated: its code, her cookie, the players' card codes by seat. */
async function seatedEvent(base: string): Promise<{ code: string; cookie: string; cards: Map<string, string> }> {
  const made = await postJson(`${base}/api/account`, { name: 'Director Kay', password: 'a long password' });
  expect(made.status).toBe(201);
  const cookie = made.cookie!;
  const code = (await postJson(`${base}/api/events`, { name: 'Power cut', roundMinutes: 55 }, undefined, cookie)).body.code as string;
  for (const name of ['Ann', 'Bea', 'Cat', 'Dot']) await postJson(`${base}/api/events/${code}/players`, { name }, undefined, cookie);
  const desk = (await postJson(`${base}/api/events/${code}/rounds`, {}, undefined, cookie)).body;
  const cardOf = new Map<string, string>(desk.players.map((p: { id: string; card: string }) => [p.id, p.card]));
  const cards = new Map<string, string>(desk.rounds[0].tables[0].seats.map((s: { seat: string; player: string }) => [s.seat, cardOf.get(s.player)!]));
  return { code, cookie, cards };
}

/** The four cards' entries: every player enters the same four games (16 entries, each with its own id). */
function entries(cards: Map<string, string>) {
  const games = [{ winner: 'A', value: 25, thrower: 'B' }, { winner: null }, { winner: 'C', value: 30, selfPicked: true }, { winner: 'D', value: 35, thrower: 'A', exposures: 2 }];
  return [...cards].flatMap(([seat, card]) => games.map((result, i) => ({ card, game: i + 1, result, entry: `entry-${seat}-${i + 1}-abcdef` })));
}

describe('club events when servers fail', () => {
  it('kill -9 during score entry: every acknowledged entry kept; the phones send all again and nothing is entered twice', async () => {
    const dir = dataDir();
    let server = await spawnServer(dir);
    children.push(server.child);
    const { code, cookie, cards } = await seatedEvent(server.url);
    const all = entries(cards);
    // the phones send at once; the server is killed after the first few answers
    const acknowledged: string[] = [];
    let killed = false;
    await Promise.all(
      all.map(async (e, i) => {
        try {
          const r = await send(`${server.url}/api/events/${code}/card`, 'PUT', e);
          if (r.status === 200) acknowledged.push(e.entry);
        } catch {
          // the connection died with the server: this phone keeps its entry and sends it again
        }
        if (i === 5 && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      }),
    );
    await server.exited;
    expect(acknowledged.length).toBeGreaterThan(0);
    server = await spawnServer(dir);
    children.push(server.child);
    const log = async () => (await send(`${server.url}/api/events/${code}/log`, 'GET', undefined, cookie)).body.changes as { change: { type: string } }[];
    const before = (await log()).filter((l) => l.change.type === 'enter').length;
    // every entry the server answered is there
    expect(before).toBeGreaterThanOrEqual(acknowledged.length);
    for (const e of all) expect((await send(`${server.url}/api/events/${code}/card`, 'PUT', e)).status).toBe(200);
    for (const e of all) expect((await send(`${server.url}/api/events/${code}/card`, 'PUT', e)).status).toBe(200);
    expect((await log()).filter((l) => l.change.type === 'enter')).toHaveLength(16);
    server.child.kill('SIGKILL');
  }, 120_000);

  it.skipIf(SERVER_URL === undefined)(
    'two servers on one PostgreSQL database take one table’s cards at once: each entry kept once, in one order',
    async () => {
      const dir = dataDir();
      const a = await spawnServer(dir);
      const b = await spawnServer(dir);
      children.push(a.child, b.child);
      const { code, cookie, cards } = await seatedEvent(a.url);
      const all = entries(cards);
      // every entry sent to both servers at once
      const answers = await Promise.all(all.flatMap((e) => [a.url, b.url].map((url) => send(`${url}/api/events/${code}/card`, 'PUT', e))));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      const logA = (await send(`${a.url}/api/events/${code}/log`, 'GET', undefined, cookie)).body.changes;
      const logB = (await send(`${b.url}/api/events/${code}/log`, 'GET', undefined, cookie)).body.changes;
      expect(logB).toEqual(logA);
      expect(logA.filter((l: { change: { type: string } }) => l.change.type === 'enter')).toHaveLength(16);
      // both servers read the same standings once the cards are checked and accepted
      const partner: Record<string, string> = { A: 'C', C: 'A', B: 'D', D: 'B' };
      const desk = (await send(`${b.url}/api/events/${code}/desk`, 'GET', undefined, cookie)).body;
      const seatOf = new Map<string, string>(desk.rounds[0].tables[0].seats.map((s: { seat: string; player: string }) => [s.seat, s.player]));
      for (const [seat, id] of seatOf) expect((await postJson(`${[a.url, b.url][id.length % 2]}/api/events/${code}/card/check`, { card: cards.get(partner[seat]), player: id })).status).toBe(200);
      expect((await postJson(`${b.url}/api/events/${code}/accept`, {}, undefined, cookie)).status).toBe(200);
      const sa = (await send(`${a.url}/api/events/${code}/standings`, 'GET', undefined)).body.rows;
      const sb = (await send(`${b.url}/api/events/${code}/standings`, 'GET', undefined)).body.rows;
      expect(sa).toEqual(sb);
      expect(sa.map((r: { total: number }) => r.total).sort((x: number, y: number) => x - y)).toEqual([0, 15, 45, 50]);
    },
    120_000,
  );

  it.skipIf(SERVER_URL === undefined)(
    'an online event on two servers, one killed with kill -9 after seating the round: the other plays its table on (bots for the absent), scores each game once, and stops the rest at the clock',
    async () => {
      const dir = dataDir();
      const a = await spawnServer(dir);
      const b = await spawnServer(dir);
      children.push(a.child, b.child);
      const made = await postJson(`${a.url}/api/account`, { name: 'Director Lu', password: 'a long password' });
      const cookie = made.cookie!;
      const code = (await postJson(`${a.url}/api/events`, { name: 'Online power cut', online: { level: 'easy', awayAfter: 15 } }, undefined, cookie)).body.code as string;
      for (const name of ['Ann', 'Bea', 'Cat', 'Dot']) await postJson(`${a.url}/api/events/${code}/players`, { name }, undefined, cookie);
      const seated = await postJson(`${a.url}/api/events/${code}/rounds`, {}, undefined, cookie);
      expect(seated.body.rounds[0].tables[0].games).toHaveLength(1);
      a.child.kill('SIGKILL');
      await a.exited;
      // nobody comes: after 15 s the bots play game 1 for them, on server b; b scores it and opens game 2
      const desk = async () => (await send(`${b.url}/api/events/${code}/desk`, 'GET', undefined, cookie)).body;
      let d = await desk();
      for (let i = 0; i < 600 && d.rounds[0].tables[0].games.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        d = await desk();
      }
      expect(d.rounds[0].tables[0].games).toHaveLength(2);
      expect((await postJson(`${b.url}/api/events/${code}/clock`, { action: 'end' }, undefined, cookie)).status).toBe(200);
      for (let i = 0; i < 300 && !d.rounds[0].accepted; i++) {
        await new Promise((r) => setTimeout(r, 100));
        d = await desk();
      }
      expect(d.rounds[0].accepted).toBe(true);
      const log = (await send(`${b.url}/api/events/${code}/log`, 'GET', undefined, cookie)).body.changes as { change: { type: string; game?: number; result?: { incomplete?: boolean } } }[];
      const played = log.filter((l) => l.change.type === 'played');
      expect(played.map((l) => l.change.game).sort()).toEqual([1, 2, 3, 4]);
      expect(played.map((l) => l.change.result?.incomplete === true)).toEqual([false, true, true, true]);
      expect(log.filter((l) => l.change.type === 'open-game')).toHaveLength(2);
      expect(log.filter((l) => l.change.type === 'accept')).toHaveLength(1);
      b.child.kill('SIGKILL');
    },
    120_000,
  );
});
