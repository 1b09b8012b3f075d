import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { MAX_TOKENS_A_SEAT, MAX_WATCHERS } from '../../api/shared/limits.js';
import { initialise, openDb } from '../../api/store/db.js';
import { MAX_CARD_CHANGES } from '../../api/store/events.js';
import { migrate, MIGRATIONS } from '../../api/store/migrations.js';
import type { Change } from '../../engine/tournament/event.js';
import { call, databaseOf, dataDir, newJar, server, signUp } from './helpers.js';

const built: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(built.map((a) => a.close()));
});

/**
 * Seats belong to the people seated (issue 63): watchers are counted apart from the seats, so a
 * table full of watchers still seats its players; a card code mints a few tokens for its seat,
 * not the table's room; a card's changes to an event are bounded on their own, so one card can
 * neither use up the Director's room nor another card's; a phone's entry id is its card's own.
 */

interface Desk {
  code: string;
  players: { id: string; name: string; card: string }[];
  rounds: { tables: { table: number; games: { game: number; code: string }[]; seats: { seat: string; player: string }[] }[] }[];
}

describe("an event's seats and changes belong to its players", () => {
  it('an online table full of watchers still seats its four players; one card asking again and again gets a few tokens, and the others still sit', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Wren');
    const made = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Watched online', online: { level: 'easy', awayAfter: 600 } } }, director);
    expect(made.status).toBe(200);
    const ev = `/api/events/${made.body.code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) expect((await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director)).status).toBe(200);
    const desk: Desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const table = desk.rounds[0].tables[0].games[0].code;
    // the room fills with watchers (anyone with the table's code), each a browser of her own
    for (let i = 0; i < MAX_WATCHERS; i++) {
      const w = await call(app, { method: 'POST', url: `/api/tables/${table}/join`, payload: { name: `Watcher ${i}`, watch: true } }, newJar());
      expect([i, w.status]).toEqual([i, 200]);
    }
    const more = await call(app, { method: 'POST', url: `/api/tables/${table}/join`, payload: { name: 'One more', watch: true } }, newJar());
    expect([more.status, more.body.code, more.body.message]).toEqual([409, 'TM_SEAT_TAKEN', `this table has ${MAX_WATCHERS} people watching, as many as it takes: its seats are kept for its players`]);
    // a watcher never takes a seat: every seated player still gets hers
    const ruth = desk.players[0];
    for (const p of desk.players.slice(1)) {
      const seat = await call(app, { method: 'POST', url: `${ev}/card/play`, payload: { card: p.card } });
      expect([p.name, seat.status, seat.body.code]).toEqual([p.name, 200, table]);
    }
    // one card asking again and again: a few tokens for her own seat, then a refusal in words
    for (let i = 0; i < MAX_TOKENS_A_SEAT; i++) expect((await call(app, { method: 'POST', url: `${ev}/card/play`, payload: { card: ruth.card } })).status).toBe(200);
    const again = await call(app, { method: 'POST', url: `${ev}/card/play`, payload: { card: ruth.card } });
    expect([again.status, again.body.message]).toEqual([409, `this seat has been opened on ${MAX_TOKENS_A_SEAT} phones already, as many as it takes: go back to one of them`]);
    // the other players' seats are theirs still
    for (const p of desk.players.slice(1)) expect((await call(app, { method: 'POST', url: `${ev}/card/play`, payload: { card: p.card } })).status).toBe(200);
  }, 120_000);

  it("one card's changes are bounded on their own: it cannot use up the event's room, another card still enters, her checks still go through, and the Director's clock, rulings, accept and finish are never refused for it", async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Fern');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Busy card' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director);
    const desk: Desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const [ruth, edna] = desk.players;
    // a fresh entry id each time: each one a change, until her card's bound
    for (let i = 0; i < MAX_CARD_CHANGES; i++) {
      const put = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: ruth.card, game: 1 + (i % 4), result: { winner: null }, entry: `flood-${i}-abcdef` } });
      expect([i, put.status]).toEqual([i, 200]);
    }
    const log = async () => (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as unknown[];
    const kept = (await log()).length;
    const refused = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: ruth.card, game: 1, result: { winner: null }, entry: 'flood-one-more' } });
    expect([refused.status, refused.body.message]).toEqual([400, `your card has made ${MAX_CARD_CHANGES} changes to this event, as many as a card makes: ask the Director to enter the rest`]);
    expect((await log()).length).toBe(kept);
    // another card is hers to fill, and the Director's desk goes on
    expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: edna.card, game: 1, result: { winner: null }, entry: 'edna-game-1' } })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'pause' } }, director)).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'end' } }, director)).status).toBe(200);
    // the Director enters the round at the desk (her ruling on each game settles it on every card)
    for (let g = 1; g <= 4; g++)
      expect((await call(app, { method: 'POST', url: `${ev}/corrections`, payload: { round: 1, table: 1, game: g, result: { winner: null }, reason: 'entered at the desk' } }, director)).status).toBe(
        200,
      );
    const seats = new Map(desk.rounds[0].tables[0].seats.map((s) => [s.seat, s.player]));
    const cardOf = (id: string) => desk.players.find((p) => p.id === id)!.card;
    const partner: Record<string, string> = { A: 'C', C: 'A', B: 'D', D: 'B' };
    const checks = [...seats].map(([seat, id]) => ({ checker: seats.get(partner[seat])!, id }));
    // her checks have room beyond her entries: the table checks as usual, and sending a check again adds nothing
    for (const c of checks) expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: cardOf(c.checker), player: c.id } })).status).toBe(200);
    const before = (await log()).length;
    const twice = checks.find((c) => c.checker === ruth.id)!;
    expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: ruth.card, player: twice.id } })).status).toBe(200);
    expect((await log()).length).toBe(before);
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/finish` }, director)).status).toBe(200);
  }, 180_000);

  it("an entry id is its card's own: the same id from another card is that card's game, never dropped; a repeat from the same card is kept once", async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Ivy');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Same ids' } }, director)).body.code;
    const ev = `/api/events/${code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director);
    const desk: Desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const [ruth, edna] = desk.players;
    const entry = 'phone-entry-0001';
    const first = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: ruth.card, game: 1, result: { winner: null }, entry } });
    expect(first.body.games[0]).toEqual({ winner: null });
    // Edna's phone happens on the same id: her game is kept, on her card
    const hers = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: edna.card, game: 1, result: { winner: null, dead: ['A'] }, entry } });
    expect([hers.status, hers.body.games[0]]).toEqual([200, { winner: null, dead: ['A'] }]);
    // Ruth's phone sends hers again (its answer lost): kept once, and Ruth's card as it was
    const repeat = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: ruth.card, game: 1, result: { winner: null }, entry } });
    expect([repeat.status, repeat.body.games[0]]).toEqual([200, { winner: null }]);
    const enters = ((await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as { change: { type: string; player: string } }[]).filter((l) => l.change.type === 'enter');
    expect(enters.map((l) => l.change.player)).toEqual([ruth.id, edna.id]);
  }, 60_000);

  it('an entry kept before entry ids were per card: sent again after the upgrade, still kept once; the same id from another card is that card’s own', async () => {
    const dir = dataDir();
    const url = await databaseOf(dir);
    // the database as the Tilemate before this change left it
    if (url === undefined) await initialise(join(dir, 'db'), join(dir, 'no-template'));
    const db = await openDb({ dataDir: dir, url });
    const before = MIGRATIONS.findIndex((m) => m.name === "an event's changes by the card that made them");
    expect(before).toBeGreaterThan(0);
    expect(await migrate(db, before)).toBe(before);
    await db.query("INSERT INTO players (id, name, name_key) VALUES ('d-old', 'Director Old', 'director old')");
    await db.query("INSERT INTO events (code, director_id, name) VALUES ('OLDEVT', 'd-old', 'Old night')");
    const changes: Change[] = [
      { type: 'create', name: 'Old night', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 },
      ...[1, 2, 3, 4].map((i): Change => ({ type: 'register', id: `p${i}`, name: `P${i}`, code: `CARD000${i}` })),
      { type: 'seat', seed: 7, at: Date.now() },
      { type: 'enter', player: 'p1', game: 1, result: { winner: null } },
    ];
    for (const [i, c] of changes.entries())
      await db.query('INSERT INTO event_changes (event_code, n, change, by_whom, entry) VALUES ($1, $2, $3::text::jsonb, $4, $5)', [
        'OLDEVT',
        i + 1,
        JSON.stringify(c),
        'then',
        c.type === 'enter' ? 'old-entry-0001' : null,
      ]);
    const app = await build({ dataDir: dir, db, limits: { ratePerMinute: 0, threads: 1 }, webDir: null });
    built.push(app);
    const count = async () => Number((await db.query("SELECT count(*) AS k FROM event_changes WHERE event_code = 'OLDEVT'"))[0].k);
    const repeat = await call(app, { method: 'PUT', url: '/api/events/OLDEVT/card', payload: { card: 'CARD0001', game: 1, result: { winner: null }, entry: 'old-entry-0001' } });
    expect([repeat.status, await count()]).toEqual([200, changes.length]);
    const other = await call(app, { method: 'PUT', url: '/api/events/OLDEVT/card', payload: { card: 'CARD0002', game: 1, result: { winner: null }, entry: 'old-entry-0001' } });
    expect([other.status, other.body.games[0], await count()]).toEqual([200, { winner: null }, changes.length + 1]);
  }, 120_000);
});
