import { describe, expect, it } from 'vitest';
import { call, newJar, server, signUp } from './helpers.js';

/**
 * The rare games a score card enters (issue 63), each scored as the tournament rules say
 * (standardized rules 4.4 and 11.10, 11.9 and 12.3, 14.4), entered through the HTTP API as a
 * phone enters them; and her points after every game on her card.
 */

type Seat = 'A' | 'B' | 'C' | 'D';
const SEATS: Seat[] = ['A', 'B', 'C', 'D'];

/** Rules 11 and 14.4 written out for the four games below: each seat's points. */
const EXPECTED: Record<Seat, number>[] = [
  // East's dealt hand of 30: no thrower, and no +10 for a self-pick (rules 4.4, 11.10)
  { A: 30, B: 0, C: 0, D: 0 },
  // Ruth (A) wins 25 on a tile North misnamed, with 3 exposures: North pays 25 (rules 11.9), not by exposures
  { A: 25, B: -25, C: 0, D: 0 },
  // a Mah Jongg in error left West's hand alone intact: she scores 10, everyone else zero (rules 14.4)
  { A: 0, B: 0, C: 10, D: 0 },
  // the same tile thrown, not misnamed, at 3 exposures: -25 by rules 11.7 anyway; at 1 exposure -10
  { A: 0, B: 0, C: 25, D: -10 },
];
const GAMES = [
  { winner: 'A', value: 30, heavenly: true },
  { winner: 'A', value: 25, thrower: 'B', exposures: 3, misnamed: true },
  { winner: null, intact: ['C'] },
  { winner: 'C', value: 25, thrower: 'D', exposures: 1 },
];

describe('rare games on a score card', () => {
  it("East's dealt hand, a misnamed winning tile and a Mah Jongg in error are entered and scored as the rules say; her card shows her points after every game", async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Rare');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Rare night' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director);
    const desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const seatOf = new Map<string, Seat>(desk.rounds[0].tables[0].seats.map((x: { seat: Seat; player: string }) => [x.player, x.seat]));
    const cardOf = (s: Seat) => desk.players.find((p: { id: string }) => seatOf.get(p.id) === s).card as string;
    for (const s of SEATS) {
      for (const [i, result] of GAMES.entries()) {
        const put = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: cardOf(s), game: i + 1, result, entry: `rare-${s}-${i}` } });
        expect([s, i + 1, put.status, put.body.message]).toEqual([s, i + 1, 200, undefined]);
        // her points after every game, as the rules count them
        expect(put.body.myPoints.slice(0, i + 1)).toEqual(EXPECTED.slice(0, i + 1).map((g) => g[s]));
      }
    }
    const partner: Record<Seat, Seat> = { A: 'C', C: 'A', B: 'D', D: 'B' };
    for (const s of SEATS) {
      const player = [...seatOf].find(([, x]) => x === s)![0];
      expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: cardOf(partner[s]), player } })).status).toBe(200);
    }
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
    const standings = (await call(app, { method: 'GET', url: `${ev}/standings` })).body;
    const nameOf = (s: Seat) => desk.players.find((p: { id: string }) => seatOf.get(p.id) === s).name as string;
    for (const s of SEATS) {
      const row = standings.rows.find((r: { name: string }) => r.name === nameOf(s));
      expect([s, row.total]).toEqual([s, EXPECTED.reduce((a, g) => a + g[s], 0)]);
    }
  });

  it('refuses what cannot be: a misnamed tile with no thrower, a dealt hand with a thrower, a seat left intact twice, in words, keeping nothing', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Odd');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Odd night' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director);
    const desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const card = desk.players[0].card as string;
    const cases: [object, RegExp][] = [
      [{ winner: 'A', value: 25, selfPicked: true, misnamed: true }, /only a thrown tile can be misnamed/],
      [{ winner: 'A', value: 25, heavenly: true, thrower: 'B' }, /East's dealt Mah Jongg has no thrower/],
      [{ winner: null, intact: ['C', 'C'] }, /seat C is named twice/],
      [{ winner: null, misnamed: true }, /a wall game has no winner/],
    ];
    for (const [i, [result, why]] of cases.entries()) {
      const r = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card, game: 1, result, entry: `odd-entry-${i}` } });
      expect([r.status, r.body.code], JSON.stringify(result)).toEqual([400, 'TM_BAD_INPUT']);
      expect(r.body.message).toMatch(why);
    }
    const mine = (await call(app, { method: 'GET', url: `${ev}/card?card=${card}` })).body;
    expect(mine.games).toEqual([null, null, null, null]);
  });
});
