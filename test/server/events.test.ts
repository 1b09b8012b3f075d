import { describe, expect, it } from 'vitest';
import { runEvent } from './event-run.js';
import { call, newJar, server, signUp } from './helpers.js';

/** Club events over HTTP (issue 47): the event run whole (test/server/event-run.ts), and what is refused. */

interface Desk {
  players: { id: string; card: string }[];
}

describe('club events over HTTP', () => {
  it('the issue’s event: 52 players at 13 tables, 4 rounds, entered as people would: wrong cards caught, a late arrival, a withdrawal, a Director’s change; standings as the rules count; the rotation as rule 20 says', async () => {
    await runEvent(await server(), 52, 4);
  }, 300_000);

  it('refuses by name: a card code that opens nothing, a result that cannot be, an accept before the cards are checked', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Dot');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Small' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    let desk: Desk | undefined;
    for (let i = 1; i <= 4; i++) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: `P${i}` } }, director)).body;
    await call(app, { method: 'POST', url: `${ev}/rounds` }, director);
    const bad = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => {
      const r = await call(app, { method, url, ...(payload ? { payload } : {}) }, director);
      expect(r.status).toBeGreaterThanOrEqual(400);
      return r.body.message as string;
    };
    await expect(bad('GET', `${ev}/card?card=NOPE1234`)).resolves.toMatch(/no player of this event has that card code/);
    const mine = desk!.players[0].card;
    await expect(bad('PUT', `${ev}/card`, { card: mine, game: 1, result: { winner: 'A', value: 25 }, entry: 'abcdefgh1' })).resolves.toMatch(/the thrower/);
    await expect(bad('PUT', `${ev}/card`, { card: mine, game: 9, result: { winner: null }, entry: 'abcdefgh2' })).resolves.toMatch(/game/);
    await expect(bad('PUT', `${ev}/card`, { card: mine, game: 1, result: { winner: 'E' }, entry: 'abcdefgh3' })).resolves.toMatch(/winner/);
    await expect(bad('POST', `${ev}/accept`)).resolves.toMatch(/waits for 4 cards to be checked/);
    await expect(bad('POST', `${ev}/adjustments`, { player: desk!.players[0].id, points: 5 })).resolves.toMatch(/reason/);
    await expect(bad('POST', '/api/events', { name: 'x', ruleset: 'nmjl-4p' })).resolves.toMatch(/ruleset/);
    // nothing refused was kept
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes;
    expect(log.map((l: { change: { type: string } }) => l.change.type)).toEqual(['create', 'register', 'register', 'register', 'register', 'seat']);
  }, 60_000);
});
