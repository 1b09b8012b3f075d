import { describe, expect, it } from 'vitest';
import { EventTables } from '../../api/http/event-tables.js';
import type { EventStore } from '../../api/store/events.js';
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
