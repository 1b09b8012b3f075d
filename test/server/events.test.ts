import { describe, expect, it } from 'vitest';
import { runEvent } from './event-run.js';
import { call, newJar, server, signUp } from './helpers.js';

/** Club events over HTTP (issue 47): the event run whole (test/server/event-run.ts), and what is refused. */

interface Desk {
  players: { id: string; card: string }[];
}

describe('club events over HTTP', () => {
  it('the issue’s event: 52 players at 13 tables, 4 rounds, entered as people would: wrong cards caught, a late arrival, a withdrawal from each seat, every kind of game the rules score, two split tables resolved (by the players, by the Director), a Director’s change; standings as the rules count; the rotation as rule 20 says', async () => {
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
    // paper: the round's score sheets for the director, the standings for anyone
    const sheets = await call(app, { method: 'GET', url: `${ev}/sheets.pdf` }, director);
    expect([sheets.status, sheets.headers['content-type'], String(sheets.body).slice(0, 5)]).toEqual([200, 'application/pdf', '%PDF-']);
    expect((await call(app, { method: 'GET', url: `${ev}/sheets.pdf` }, newJar())).status).toBe(401);
    const printed = await call(app, { method: 'GET', url: `${ev}/standings.pdf` }, newJar());
    expect([printed.status, String(printed.body).slice(0, 5)]).toEqual([200, '%PDF-']);
    // nothing refused was kept
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes;
    expect(log.map((l: { change: { type: string } }) => l.change.type)).toEqual(['create', 'register', 'register', 'register', 'register', 'seat']);
  }, 60_000);

  it('a player registered with her account, once she accepts the event, has a club rating once a round of hers is accepted; an unknown account is refused', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Rae');
    const players = ['Ruth', 'Edna', 'Pearl', 'Ida'].map((name) => ({ name, jar: newJar() }));
    for (const p of players) await signUp(app, p.jar, p.name);
    const ruth = players[0].jar;
    const before = await call(app, { method: 'GET', url: '/api/ratings/me' }, ruth);
    expect(before.body).toMatchObject({ rated: false });
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Rated night' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    const unknown = await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: 'Zed', account: 'Nobody Here' } }, director);
    expect([unknown.status, unknown.body.message]).toEqual([404, 'no Tilemate account is named Nobody Here']);
    let desk: any;
    for (const p of players) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: p.name, account: p.name } }, director)).body;
    // each account is asked, not taken (issue 63): its owner accepts the event
    expect(desk.players.map((p: { rated: boolean; asked: boolean }) => [p.rated, p.asked])).toEqual(players.map(() => [false, true]));
    for (const p of players) {
      const ask = (await call(app, { method: 'GET', url: '/api/events/asks' }, p.jar)).body.asks[0];
      expect((await call(app, { method: 'POST', url: `${ev}/consent`, payload: { player: ask.player, accept: true } }, p.jar)).body.joined).toBe(true);
    }
    desk = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body;
    expect(desk.players.every((p: { rated: boolean }) => p.rated)).toBe(true);
    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const seats = new Map<string, string>(desk.rounds[0].tables[0].seats.map((x: { seat: string; player: string }) => [x.seat, x.player]));
    const card = (seat: string) => desk.players.find((p: { id: string }) => p.id === seats.get(seat)).card;
    const games = [{ winner: 'A', value: 50, thrower: 'B' }, { winner: 'A', value: 25, selfPicked: true }, { winner: null }, { winner: 'C', value: 25, thrower: 'B' }];
    for (const seat of ['A', 'B', 'C', 'D'])
      for (const [i, g] of games.entries()) await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(seat), game: i + 1, result: g, entry: `e-${seat}-${i}-rating` } });
    const partner: Record<string, string> = { A: 'C', C: 'A', B: 'D', D: 'B' };
    for (const seat of ['A', 'B', 'C', 'D']) expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(partner[seat]), player: seats.get(seat) } })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
    // East won twice: her rating is above a new player's; North threw twice: below
    const nameAt = (seat: string) => desk.players.find((p: { id: string }) => p.id === seats.get(seat)).name as string;
    const ratingOf = async (seat: string) => (await call(app, { method: 'GET', url: '/api/ratings/me' }, players.find((p) => p.name === nameAt(seat))!.jar)).body;
    const east = await ratingOf('A');
    const north = await ratingOf('B');
    expect(east).toMatchObject({ rated: true, tables: 1 });
    expect(east.mu).toBeGreaterThan(25);
    expect(north.mu).toBeLessThan(25);
    expect(east.words).toMatch(/^Your club rating is \d+, give or take \d+ \(still a rough guess\), from 1 table at club events/);
    // Mexican Train's rating is her own apart: none yet
    expect(east.mexicanTrain).toMatchObject({ rated: false, words: expect.stringMatching(/^You have no Mexican Train club rating yet/) });
  }, 60_000);

  it('the senior games’ Mexican Train day over HTTP: a qualifying game of 6 hands, the lowest at each table to the championship, the two lowest totals win', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Mae');
    const made = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Train day', game: 'mexican-train', ruleset: 'sun-lakes', tableSize: 4 } }, director);
    expect(made.status).toBe(200);
    const ev = `/api/events/${made.body.code}`;
    let desk: any;
    for (let i = 1; i <= 12; i++) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: `Rider ${i}` } }, director)).body;
    const cardOf = (id: string) => desk.players.find((p: { id: string }) => p.id === id).card as string;
    const totals = new Map<string, number>();
    let seed = 1;
    let entry = 0;
    const playGame = async () => {
      const g = desk.rounds.at(-1);
      for (const t of g.tables) {
        const ids: string[] = t.seats.map((x: { player: string }) => x.player);
        // each hand: one player goes out (0), the others keep pips
        const sheet = Array.from({ length: g.hands }, (_, h) => ids.map((_, s) => (s === (h + seed) % ids.length ? 0 : 3 + ((s * 7 + h * 5 + seed) % 40))));
        seed++;
        ids.forEach((id, s) => totals.set(id, (totals.get(id) ?? 0) + sheet.reduce((a, h) => a + h[s], 0)));
        for (const id of ids)
          for (const [h, points] of sheet.entries()) {
            const put = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: cardOf(id), hand: h + 1, points, entry: `train-${++entry}-abc` } });
            expect(put.status).toBe(200);
          }
        // each player checks the card of the player before her
        for (const [s, id] of ids.entries()) {
          const before = ids[(s - 1 + ids.length) % ids.length];
          const check = await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: cardOf(id), player: before } });
          expect(check.status).toBe(200);
        }
      }
      desk = (await call(app, { method: 'POST', url: `${ev}/accept` }, director)).body;
    };
    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    expect(desk.rounds[0].tables.map((t: { seats: unknown[] }) => t.seats.length)).toEqual([4, 4, 4]);
    expect(desk.rounds[0].hands).toBe(6);
    // the game's sheets to print, a table a page, for a club that keeps paper
    const sheets = await call(app, { method: 'GET', url: `${ev}/sheets.pdf` }, director);
    expect([sheets.status, sheets.headers['content-type'], String(sheets.body).slice(0, 5)]).toEqual([200, 'application/pdf', '%PDF-']);
    expect(String(sheets.body).match(/\/Type \/Page\b/g)).toHaveLength(3);
    await playGame();
    const qualifying = new Map(totals);
    const lowest = desk.rounds[0].tables.map((t: { seats: { player: string }[] }) => t.seats.map((x) => x.player).sort((a, b) => qualifying.get(a)! - qualifying.get(b)!)[0]);
    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    expect(desk.rounds[1].championship).toBe(true);
    expect(desk.rounds[1].tables.flatMap((t: { seats: { player: string }[] }) => t.seats.map((x) => x.player)).sort()).toEqual([...lowest].sort());
    await playGame();
    expect((await call(app, { method: 'POST', url: `${ev}/finish` }, director)).status).toBe(200);
    const standings = (await call(app, { method: 'GET', url: `${ev}/standings` }, newJar())).body;
    const nameOf = (id: string) => desk.players.find((p: { id: string }) => p.id === id).name;
    const byTotal = [...lowest].sort((a, b) => totals.get(a)! - totals.get(b)!);
    expect(standings.winners).toEqual(byTotal.slice(0, 2).map(nameOf));
    expect(standings.columns).toEqual(['Game 1', 'Championship']);
    for (const row of standings.rows as { name: string; total: number }[]) expect(row.total).toBe(totals.get(desk.players.find((p: { name: string }) => p.name === row.name).id));
    const csv = await call(app, { method: 'GET', url: `${ev}/standings.csv` }, newJar());
    expect(String(csv.body).split('\n')[0]).toBe('Place,Player,Game 1,Championship,Adjustments,Total');
    // the Mah Jongg round clock is no part of it
    expect((await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'pause' } }, director)).body.message).toMatch(/a Mexican Train event has no round clock/);
  }, 120_000);
});
