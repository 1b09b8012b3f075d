import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { replayRecord } from '../../engine/record.js';
import { SERVER_URL } from '../databases.js';
import { dataDir, postJson, spawnServer } from './helpers.js';

/**
 * Two server processes on one PostgreSQL database (TILEMATE_TEST_DATABASE_URL, as .ci/run
 * sets it): people at one table connected to different servers play a whole game of each
 * kind; one server is killed with kill -9 mid-game and its people reconnect through the other
 * and finish. Every action anyone was told of is in the record, in the same place, and the
 * record replays: no bot acted twice, no acknowledged action was lost.
 */

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** A simple choice: the first legal action; passes from the front of the rack. */
function choose(m: any): any {
  const l = m.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

/** One person's page: connected to a server's WebSocket, acting whenever her message offers something, reconnecting where she is told to. */
class Person {
  events = new Map<number, { type: string; seat: number }>();
  last: any = null;
  ended = false;
  private ws: WebSocket | null = null;
  private sentAt = -1;
  /** Like a page: one action in flight at a time, until her own move is told back (or refused). */
  private pending = false;
  constructor(
    readonly name: string,
    readonly code: string,
    readonly token: string,
    public base: string,
  ) {}

  connect(base = this.base): Promise<void> {
    this.base = base;
    this.sentAt = -1;
    this.pending = false;
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/tables/${this.code}/ws`);
    this.ws = ws;
    ws.on('message', (d) => this.heard(JSON.parse(d.toString())));
    ws.on('error', () => {});
    ws.on('close', (code) => {
      if (process.env.DEBUG_TABLES) console.log(this.name, 'closed', code);
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.send(JSON.stringify({ type: 'hello', token: this.token }));
        resolve();
      });
      ws.once('error', reject);
    });
  }

  private heard(m: any): void {
    if (m.type === 'error') {
      if (process.env.DEBUG_TABLES) console.log(this.name, 'error', m.code, m.message);
      // a stale or early action: look again
      this.sentAt = -1;
      this.pending = false;
      setTimeout(() => {
        fetch(`${this.base}/api/tables/${this.code}/state`, { headers: { authorization: `Bearer ${this.token}` } })
          .then((r) => r.json())
          .then(
            (s) => this.heard(s),
            () => {},
          );
      }, 200);
      return;
    }
    if (m.type !== 'game') return;
    if (process.env.DEBUG_TABLES) console.log(this.name, 'game at', m.at, 'legal', m.legal.length, m.view.phase);
    for (const e of m.events) this.events.set(e.n, { type: e.action.type, seat: e.action.seat });
    if (this.pending && m.events.some((e: any) => e.action.seat === m.seat && e.n > this.sentAt)) this.pending = false;
    if (this.last === null || m.at >= this.last.at) this.last = m;
    if (m.recordId !== null) {
      this.ended = true;
      return;
    }
    if (m.legal.length > 0 && m.at !== this.sentAt && !this.pending && this.ws?.readyState === WebSocket.OPEN) {
      this.sentAt = m.at;
      this.pending = true;
      if (process.env.DEBUG_TABLES) console.log(this.name, 'sends at', m.at);
      this.ws.send(JSON.stringify({ type: 'act', action: choose(m), after: m.at }));
    }
  }

  close(): void {
    this.ws?.terminate();
  }
}

async function until(test: () => boolean, ms: number, what: string, where: () => string = () => ''): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (process.env.DEBUG_TABLES && Date.now() % 2000 < 50) console.log('waiting', what);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${where()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function recordText(base: string, id: string, cookie: string | undefined): Promise<string> {
  const r = await fetch(`${base}/api/records/${id}`, { headers: cookie ? { cookie } : {} });
  expect(r.status).toBe(200);
  return ((await r.json()) as { text: string }).text;
}

async function recordActions(base: string, id: string, cookie: string | undefined): Promise<{ type: string; seat: number }[]> {
  const text = await recordText(base, id, cookie);
  const lines = text
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l));
  return lines.filter((l) => l.end === undefined).map((l) => ({ type: (l.action ?? l).type, seat: (l.action ?? l).seat }));
}

describe.skipIf(SERVER_URL === undefined)('two servers on one PostgreSQL database', () => {
  for (const game of [{ game: 'mah-jongg' }, { game: 'mexican-train', players: 4 }]) {
    it(`${game.game}: two people on each server play a whole game; one server killed mid-game, its people finish through the other`, async () => {
      const dir = dataDir();
      const a = await spawnServer(dir);
      const b = await spawnServer(dir);
      children.push(a.child, b.child);
      const opened = await postJson(`${a.url}/api/tables`, { ...game, name: 'Ruth' });
      expect(opened.status).toBe(201);
      const { code } = opened.body;
      const seats = [{ token: opened.body.token as string, cookie: opened.cookie, base: a.url }];
      for (const [i, name] of ['Edna', 'Pearl', 'Dot'].entries()) {
        const base = i === 0 ? a.url : b.url;
        const j = await postJson(`${base}/api/tables/${code}/join`, { name });
        expect(j.status).toBe(200);
        seats.push({ token: j.body.token, cookie: j.cookie, base });
      }
      const people = seats.map((s, i) => new Person(['Ruth', 'Edna', 'Pearl', 'Dot'][i], code, s.token, s.base));
      for (const p of people) await p.connect();
      expect((await postJson(`${b.url}/api/tables/${code}/start`, {}, seats[0].token)).status).toBe(200);
      // a fair way in, server A dies without a word; its two people come back through B
      await until(() => people.every((p) => p.last !== null && p.last.at >= 40), 60_000, 'the game to get going');
      a.child.kill('SIGKILL');
      await a.exited;
      const toldBefore = Math.max(...people.map((p) => p.last.at));
      for (const p of people.slice(0, 2)) {
        p.close();
        await p.connect(b.url);
      }
      await until(
        () => people.every((p) => p.ended),
        240_000,
        'the game to end',
        () => people.map((p) => `${p.name}: at ${p.last?.at} ${p.last?.view?.phase} legal ${p.last?.legal?.length} record ${p.last?.recordId}`).join('; '),
      );
      const recordId = people[0].last.recordId as string;
      const record = await recordActions(b.url, recordId, seats[0].cookie);
      expect(record.length).toBe(people[0].last.at);
      expect(record.length).toBeGreaterThan(toldBefore);
      // every action anyone was told of is in the record at its place
      let told = 0;
      for (const p of people) {
        for (const [n, e] of p.events) {
          expect(record[n - 1], `${p.name} was told of action ${n}`).toEqual(e);
          told++;
        }
      }
      expect(told).toBeGreaterThan(record.length);
      // the record replays action by action, each checked by the rules (a bot's move applied twice would not)
      const { played } = replayRecord(await recordText(b.url, recordId, seats[0].cookie));
      expect(played.length).toBe(record.length);
      console.log(`${game.game}: ${record.length} actions in the record, ${toldBefore} told before the kill -9, ${told} events told to the four people all found in place, the record replays`);
      for (const p of people) p.close();
    }, 300_000);
  }
});
