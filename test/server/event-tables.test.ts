import { describe, expect, it } from 'vitest';
import { EventTables } from '../../api/http/event-tables.js';
import { EventStore } from '../../api/store/events.js';
import { openDb } from '../../api/store/db.js';
import { databaseOf, dataDir, server } from './helpers.js';
import type { Tables } from '../../api/http/tables.js';

/** An event store that answers every event as a paper one (nothing for EventTables to do) and counts the looks, each held until released. */
function slowStore() {
  let looks = 0;
  const waiting: (() => void)[] = [];
  const store = {
    state: async () => {
      looks++;
      await new Promise<void>((r) => waiting.push(r));
      return { game: 'mah-jongg', state: { online: null, over: false, rounds: [] } };
    },
  } as unknown as EventStore;
  return { store, looks: () => looks, release: () => waiting.splice(0).forEach((r) => r()), waiting: () => waiting.length };
}

describe('an online event looked after on one server', () => {
  it('one look at a time an event: asks that come while one is under way share the next, made once', async () => {
    const s = slowStore();
    const errors: unknown[] = [];
    const t = new EventTables(s.store, {} as Tables, { name: 'x', text: '' }, (e) => errors.push(e));
    const first = t.lookAfter('ABC');
    const more = [t.lookAfter('ABC'), t.lookAfter('ABC'), t.lookAfter('ABC')];
    // another event is looked at beside it
    const other = t.lookAfter('XYZ');
    await expect.poll(() => s.waiting()).toBe(2);
    expect(s.looks()).toBe(2);
    s.release();
    await first;
    // the three asks made while the first look ran share one look after it
    await expect.poll(() => s.waiting()).toBe(1);
    s.release();
    await Promise.all([...more, other]);
    expect(s.looks()).toBe(3);
    expect(new Set(more).size).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('the online events looked after', () => {
  it('are the latest changed: events left unfinished long ago do not crowd out one in play', async () => {
    const dir = dataDir();
    await (await server({}, dir)).close();
    const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
    try {
      await db.query(`INSERT INTO players (id, name) VALUES ('dir', 'Director')`);
      const online = JSON.stringify({ type: 'create', name: 'x', online: { level: 'easy' } });
      // A, B, C made a day apart; B finished; C the newest made; A made first and changed last
      for (const [code, made] of [
        ['AAAAAA', '2026-01-01'],
        ['BBBBBB', '2026-01-02'],
        ['CCCCCC', '2026-01-03'],
        ['DDDDDD', '2026-01-04'],
      ]) {
        await db.query('INSERT INTO events (code, director_id, name, created_at) VALUES ($1, $2, $3, $4)', [code, 'dir', code, made]);
        const first = code === 'DDDDDD' ? JSON.stringify({ type: 'create', name: 'paper' }) : online;
        await db.query('INSERT INTO event_changes (event_code, n, change, by_whom, at) VALUES ($1, 1, $2::text::jsonb, $3, $4)', [code, first, 'the director', made]);
      }
      await db.query(`INSERT INTO event_changes (event_code, n, change, by_whom, at) VALUES ('BBBBBB', 2, '{"type":"finish"}'::jsonb, 'the director', '2026-01-05')`);
      await db.query(`INSERT INTO event_changes (event_code, n, change, by_whom, at) VALUES ('AAAAAA', 2, '{"type":"round"}'::jsonb, 'the director', '2026-01-06')`);
      const store = new EventStore(db);
      expect(await store.liveOnline(1)).toEqual(['AAAAAA']);
      expect(await store.liveOnline(10)).toEqual(['AAAAAA', 'CCCCCC']);
    } finally {
      await db.close();
    }
  });
});
