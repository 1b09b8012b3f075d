import { describe, expect, it } from 'vitest';
import { auth, call, firstChoice, server, type Answer } from './helpers.js';

const app = await server();

/**
 * Royale Siamese plays two full sets without their jokers (Siamese rules, Royale notes): 8
 * copies of each tile, 16 flowers and no joker. The Card panel must count a seat's outs against that set,
 * never against the one 152-tile set with its 8 jokers.
 */

/** Copies of a tile in two sets. */
const twoSets = (t: string) => (t === 'F' ? 16 : 8);

/** Tiles of the set in play that the seat has not seen: two sets' copies, less its rack and everything on the table. */
function unseenOf(a: Answer): Map<string, number> {
  const unseen = new Map<string, number>();
  const take = (t: string) => unseen.set(t, (unseen.get(t) ?? twoSets(t)) - 1);
  for (const t of a.view.rack) take(t);
  for (const s of a.view.seats) {
    for (const t of s.discards) take(t);
    for (const x of s.exposures) for (const t of x.tiles) take(t);
  }
  for (const m of a.view.mahJonggs) for (const t of m.tiles) take(t);
  return unseen;
}

describe('the Card panel on a Royale Siamese table', () => {
  it("counts outs against two sets and shows no joker: every line's outs are the unseen copies of the kinds it lacks", async () => {
    const created = await call(app, { method: 'POST', url: '/api/games', payload: { ruleset: 'royale-siamese-4p', level: 'random', seat: 0, seed: 5 } });
    expect(created.status).toBe(201);
    let a: Answer = created.body;
    const token = created.body.token as string;
    // play on until the table shows plenty: some kinds seen more often than one set holds
    const discards = (x: Answer) => x.view.seats.reduce((n: number, s: any) => n + s.discards.length, 0);
    for (let i = 0; i < 400 && a.view.phase !== 'ended' && discards(a) < 90; i++) {
      const r = await call(app, { method: 'POST', url: `/api/games/${a.id}/actions`, headers: auth(token), payload: firstChoice(a) });
      expect(r.status).toBe(200);
      a = r.body;
    }
    expect(a.view.phase).not.toBe('ended');
    const unseen = unseenOf(a);
    expect(unseen.get('J')).toBeUndefined(); // no joker anywhere at this table
    expect([...unseen.values()].some((n) => n < 4)).toBe(true); // one set's count would go below zero somewhere

    const r = await call(app, { method: 'GET', url: `/api/games/${a.id}/card?top=1000`, headers: auth(token) });
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBeGreaterThan(50);
    let withOuts = 0;
    for (const line of r.body.results) {
      // with no joker in the rack every lacking tile is needed, and a joker is no out
      const expected = [...new Set<string>(line.need)].reduce((n, t) => n + (unseen.get(t) ?? twoSets(t)), 0);
      expect({ id: line.id, outs: line.outs }).toEqual({ id: line.id, outs: expected });
      expect({ id: line.id, jokerSlots: line.jokerSlots }).toEqual({ id: line.id, jokerSlots: 0 });
      expect(line.reason).not.toMatch(/jokers can fill|need \d+ jokers/); // no joker offered to fill a group
      expect(line.groups.flat().filter((g: any) => g.status === 'joker' || g.joker === true)).toEqual([]);
      if (line.outs > 0) withOuts++;
    }
    expect(withOuts).toBeGreaterThan(0);
  });
});
