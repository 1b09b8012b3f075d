import { describe, expect, it } from 'vitest';
import { call, newJar, server, signUp } from './helpers.js';

/**
 * An account joins an event only when its owner accepts (issue 63): a director who names any
 * account for a player only asks; until the owner accepts, nothing of the event is hers and her
 * club rating does not move, however the rounds go; she may decline, and nobody else answers for her.
 */

describe('an event asks for an account, and only its owner answers', () => {
  it('a rigged round moves no rating of an account that did not accept; accepted, the same rounds count; declined, they never do', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Sly');
    const people = ['Ruth', 'Edna', 'Pearl', 'Ida'].map((name) => ({ name, jar: newJar() }));
    for (const p of people) await signUp(app, p.jar, p.name);
    const [ruth, edna] = people;
    const stranger = newJar();
    await signUp(app, stranger, 'Stranger Sam');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Rigged night' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    let desk: any;
    for (const p of people) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: p.name, account: p.name } }, director)).body;
    expect(desk.players.map((p: { rated: boolean; asked: boolean }) => [p.rated, p.asked])).toEqual(people.map(() => [false, true]));
    // Ruth is asked, in one sentence; nobody else sees her ask
    const asks = (await call(app, { method: 'GET', url: '/api/events/asks' }, ruth.jar)).body.asks;
    const ruthId = desk.players.find((p: { name: string }) => p.name === 'Ruth').id;
    expect(asks).toEqual([
      { code, event: 'Rigged night', player: ruthId, name: 'Ruth', words: 'Rigged night asks to count your play there, as Ruth, in your club rating: accept it only if that is you.' },
    ]);
    expect((await call(app, { method: 'GET', url: '/api/events/asks' }, stranger)).body.asks).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/events/asks' }, newJar())).status).toBe(401);
    // nobody answers for her: a stranger is refused by name and nothing is kept
    const logLength = async () => (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes.length;
    const kept = await logLength();
    const theirs = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ruthId, accept: true } }, stranger);
    expect([theirs.status, theirs.body.message]).toEqual([400, 'this event has not asked for your account']);
    const nobody = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: 'p-nobody', accept: true } }, ruth.jar);
    expect([nobody.status, nobody.body.message]).toEqual([400, 'this event has no such player']);
    const unsigned = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ruthId, accept: true } }, newJar());
    expect(unsigned.status).toBe(401);
    const bad = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ruthId, accept: 'yes' } }, ruth.jar);
    expect(bad.status).toBe(400);
    expect(await logLength()).toBe(kept);
    // a rigged round: Ruth throws every winning tile
    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const seats = new Map<string, string>(desk.rounds[0].tables[0].seats.map((x: { seat: string; player: string }) => [x.player, x.seat]));
    const ruthSeat = seats.get(ruthId)!;
    const winner = ruthSeat === 'A' ? 'B' : 'A';
    const game = { winner, value: 50, thrower: ruthSeat, exposures: 3 };
    let n = 0;
    for (const p of desk.players) for (let g = 1; g <= 4; g++) await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: p.card, game: g, result: game, entry: `rig-${++n}-abcdef` } });
    const partner: Record<string, string> = { A: 'C', C: 'A', B: 'D', D: 'B' };
    const bySeat = new Map([...seats].map(([id, seat]) => [seat, id]));
    for (const [id, seat] of seats) {
      const checker = desk.players.find((p: { id: string }) => p.id === bySeat.get(partner[seat]));
      expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: checker.card, player: id } })).status).toBe(200);
    }
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
    // not accepted: her rating has not moved
    const rating = async (jar: typeof ruth.jar) => (await call(app, { method: 'GET', url: '/api/ratings/me' }, jar)).body;
    expect(await rating(ruth.jar)).toMatchObject({
      rated: false,
      words: expect.stringMatching(/^You have no club rating yet: it starts once you play a round of an event you accepted for your account\.$/),
    });
    // Edna declines: the account is let go, and asks no more
    const ednaId = desk.players.find((p: { name: string }) => p.name === 'Edna').id;
    const declined = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ednaId, accept: false } }, edna.jar);
    expect(declined.body).toMatchObject({ joined: false, words: 'Your account stays out of Rigged night.' });
    expect((await call(app, { method: 'GET', url: '/api/events/asks' }, edna.jar)).body.asks).toEqual([]);
    expect((await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ednaId, accept: true } }, edna.jar)).body.message).toBe('this event has not asked for your account');
    expect(await rating(edna.jar)).toMatchObject({ rated: false });
    // Ruth accepts (even after the event's rounds), and Pearl: the event is theirs, and its rounds count among them
    const pearlId = desk.players.find((p: { name: string }) => p.name === 'Pearl').id;
    expect((await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: pearlId, accept: true } }, people[2].jar)).body.joined).toBe(true);
    const accepted = await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ruthId, accept: true } }, ruth.jar);
    expect(accepted.body).toMatchObject({ joined: true, words: 'Your account plays Rigged night as Ruth: its rounds count in your club rating.' });
    const hers = await rating(ruth.jar);
    expect(hers).toMatchObject({ rated: true, tables: 1 });
    expect(hers.mu).toBeLessThan(25);
    // the log says who answered, and when
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as { by: string; change: { type: string } }[];
    expect(log.filter((l) => l.change.type === 'consent').map((l) => l.by)).toEqual(['Edna, declining for her account', 'Pearl, accepting for her account', 'Ruth, accepting for her account']);
  }, 90_000);
});
