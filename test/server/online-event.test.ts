import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import { scoreResult, seatsOf, type GameResult } from '../../engine/tournament/score-card.js';
import { auth, call, databaseOf, dataDir, newJar, signUp, type Jar } from './helpers.js';

/**
 * An online event (issue 47): 8 people at two Tilemate tables, the event's bot playing for one
 * who leaves, every game scored by its table with no typing, the round accepted by itself, the
 * standings those games' points; and a round whose time runs out: its games stopped, zero each.
 */

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** A server whose tables count a "second" as 100 ms: a player gone 15 such seconds is played for after 1.5 s. */
async function eventServer(): Promise<FastifyInstance> {
  const dir = dataDir();
  const app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 0, threads: 1 }, webDir: null, tableTimes: { sweepMs: 40, secondMs: 100, beatMs: 200 } });
  apps.push(app);
  return app;
}

interface Player {
  name: string;
  card: string;
  id: string;
  jar: Jar;
  /** Her seat at the table of her game now. */
  at: { code: string; token: string; game: number } | null;
  /** She has left: she no longer acts. */
  gone: boolean;
}

/** A plain choice from her seat's message: Mah Jongg when offered, else the first legal action; passes from the front of the rack. */
function choose(m: any): any {
  const mj = m.legal.find((l: any) => l.type === 'mahjong');
  if (mj !== undefined) return mj;
  const l = m.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

describe('an online event at Tilemate tables', () => {
  it('8 people at two tables, a bot for one who leaves: each game scored by its table, the round accepted, standings from the games; then a round stopped by its clock', async () => {
    const app = await eventServer();
    const director = newJar();
    await signUp(app, director, 'Director Ona');
    const made = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Thursday Online', online: { level: 'medium', awayAfter: 15 } } }, director);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const ev = `/api/events/${made.body.code}`;
    const names = ['Ruth', 'Edna', 'Pearl', 'Ida', 'Dot', 'Fay', 'Gert', 'Hazel'];
    let desk: any;
    for (const name of names) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director)).body;
    expect(desk.online).toMatchObject({ level: 'medium', awayAfter: 15 });
    const people: Player[] = desk.players.map((p: any) => ({ name: p.name, card: p.card, id: p.id, jar: newJar(), at: null, gone: false }));
    // nobody types a game at an online event
    const typed = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: people[0].card, game: 1, result: { winner: null }, entry: 'typed-00001' } }, people[0].jar);
    expect(typed.status).toBe(400);

    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    expect(desk.rounds[0].tables.map((t: any) => t.games.length)).toEqual([1, 1]);
    expect(typed.body.message).toMatch(/no round|tables score the games/);

    // Hazel plays the first game's opening, then leaves
    const leaver = people.find((p) => p.name === 'Hazel')!;
    const seatOf = async (p: Player) => {
      const r = await call(app, { method: 'POST', url: `${ev}/card/play`, payload: { card: p.card } }, p.jar);
      if (r.status !== 200) return null;
      return { code: r.body.code as string, token: r.body.token as string, game: r.body.game as number };
    };
    const games = new Map<string, { table: number; game: number }>();
    let actedByLeaver = 0;
    const actions = new Map<string, number>();
    for (let step = 0; step < 20_000; step++) {
      const round = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body.rounds[0];
      if (round.accepted) break;
      let acted = false;
      for (const p of people) {
        if (p.gone) continue;
        const card = (await call(app, { method: 'GET', url: `${ev}/card?card=${p.card}` }, p.jar)).body;
        if (!card.playing) continue;
        if (p.at?.code !== card.playing.code) p.at = await seatOf(p);
        if (p.at === null) continue;
        games.set(p.at.code, { table: card.table, game: p.at.game });
        const m = (await call(app, { method: 'GET', url: `/api/tables/${p.at.code}/state`, headers: auth(p.at.token) }, p.jar)).body;
        if (m?.legal === undefined || m.legal.length === 0) continue;
        const r = await call(app, { method: 'POST', url: `/api/tables/${p.at.code}/actions`, headers: auth(p.at.token), payload: { ...choose(m), after: m.at } }, p.jar);
        // a game the round's look-after just finished, or her seat played meanwhile by the bot
        expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
        acted = true;
        if (r.status === 200) actions.set(p.name, (actions.get(p.name) ?? 0) + 1);
        if (p === leaver && ++actedByLeaver === 3) p.gone = true;
      }
      if (!acted) await new Promise((r) => setTimeout(r, 50));
    }
    expect(actedByLeaver).toBe(3);
    // the seven who stayed played their own games, all four of them
    for (const p of people) if (p !== leaver) expect(actions.get(p.name) ?? 0, p.name).toBeGreaterThan(20);

    desk = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body;
    const round = desk.rounds[0];
    expect(round.accepted).toBe(true);
    expect(round.tables.map((t: any) => t.games.length)).toEqual([4, 4]);
    expect(games.size).toBe(8);
    // every card at a table holds the table's four games, agreed; each game's points as the tables scored them
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as { by: string; change: any }[];
    const played = log.filter((l) => l.change.type === 'played');
    expect(played).toHaveLength(8);
    expect(played.every((l) => l.by === 'Tilemate, from the tables' && !l.change.result.incomplete)).toBe(true);
    expect(log.filter((l) => l.change.type === 'accept')).toHaveLength(1);
    // the standings, counted here from the games the tables reported
    const points = new Map<string, number>();
    for (const t of round.tables) {
      const bySeat = new Map<string, string>(t.seats.map((s: any) => [s.seat, s.name]));
      for (const l of played.filter((x) => x.change.table === t.table)) {
        for (const [seat, p] of scoreResult(l.change.result as GameResult, seatsOf(bySeat.size), TOURNAMENT)) points.set(bySeat.get(seat)!, (points.get(bySeat.get(seat)!) ?? 0) + p);
      }
    }
    const standings = (await call(app, { method: 'GET', url: `${ev}/standings` }, newJar())).body;
    expect(new Map(standings.rows.map((r: any) => [r.name, r.total]))).toEqual(points);
    // each table's games were the ones its people were seated at: seat A East in game 1, and East passing on
    const table = (await call(app, { method: 'GET', url: `/api/tables/${round.tables[0].games[1].code}` })).body;
    const a = round.tables[0].seats.find((s: any) => s.seat === 'A').name;
    const d = round.tables[0].seats.find((s: any) => s.seat === 'D').name;
    expect(table.seats[0].name).toBe(d);
    expect(table.seats[3].name).toBe(a);

    // round 2: the clock ends it before its games are done; nothing is typed, everything scores zero
    desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    expect(desk.rounds[1].tables.every((t: any) => t.games.length === 1)).toBe(true);
    // the round's clock paused: every table of the round waits (a posted action is refused), and goes on with it
    const codes: string[] = desk.rounds[1].tables.map((t: any) => t.games[0].code);
    const statuses = async () => Promise.all(codes.map(async (c) => (await call(app, { method: 'GET', url: `/api/tables/${c}` })).body.status));
    const until = async (want: string) => {
      for (let i = 0; i < 200 && (await statuses()).some((x) => x !== want); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await statuses()).toEqual(codes.map(() => want));
    };
    await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'pause' } }, director);
    await until('paused');
    const ruth = people.find((p) => p.name === 'Ruth')!;
    const seat = await seatOf(ruth);
    const held = await call(app, { method: 'POST', url: `/api/tables/${seat!.code}/actions`, headers: auth(seat!.token), payload: { type: 'pass', tiles: [], blind: 0 } }, ruth.jar);
    expect(held.body.message).toMatch(/paused/);
    const card = (await call(app, { method: 'GET', url: `${ev}/card?card=${ruth.card}` }, ruth.jar)).body;
    expect(card).toMatchObject({ paused: true, online: true });
    await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'resume' } }, director);
    await until('playing');
    await call(app, { method: 'POST', url: `${ev}/clock`, payload: { action: 'end' } }, director);
    for (let i = 0; i < 400; i++) {
      desk = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body;
      if (desk.rounds[1].accepted) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(desk.rounds[1].accepted).toBe(true);
    const after = (await call(app, { method: 'GET', url: `${ev}/standings` }, newJar())).body;
    expect(after.rows.map((r: any) => r.rounds[1])).toEqual(new Array(8).fill(0));
    const stopped = desk.rounds[1].tables[0].games[0].code;
    const late = await call(app, { method: 'GET', url: `/api/tables/${stopped}` });
    expect(late.body.status).toBe('over');
  }, 300_000);
});
