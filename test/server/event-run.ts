import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { nextInt, seedRng, type RngState } from '../../engine/rng.js';
import { rotated, SEATS, type Seat } from '../../engine/tournament/seating.js';
import { call, newJar, signUp } from './helpers.js';

/**
 * A club event run over HTTP (issue 47), entered as people would: the director at her desk,
 * each player at her own score card with her card code. A whole event of `players` at tables
 * of four, `rounds` rounds, with two wrong cards caught by their verifiers, a late arrival, a
 * withdrawal from each of the four seats and a Director's change; every kind of game the rules
 * score (4.4, 11, 14.4) is entered on the cards: the standings equal the points counted here from
 * the games by the tournament rules, and every player moves as rule 20 says (test/server/events.test.ts).
 * Two tables split (issue 63): North and South enter game 3 otherwise than East and West, each
 * pair checked; in round 2 North reopens her card and the pair enters it again, in round 3 the
 * Director settles the game.
 */

type Result = {
  winner: Seat | null;
  value?: number;
  selfPicked?: boolean;
  thrower?: Seat;
  exposures?: number;
  jokerless?: boolean;
  singlesAndPairs?: boolean;
  misnamed?: boolean;
  heavenly?: boolean;
  dead?: Seat[];
  incomplete?: boolean;
  intact?: Seat[];
};

/** The kinds of game a score card takes (rules 4, 11, 14), each entered at least once in the event. */
const KINDS = ['wall', 'wall-dead', 'incomplete', 'error-intact', 'self', 'self-jokerless', 'thrown', 'thrown-jokerless', 'pairs-jokerless', 'misnamed', 'heavenly'] as const;
type Kind = (typeof KINDS)[number];

/** A game at a table of `seats`, of `kind` (East's dealt hand needs East at the table; without her it is a self-picked one). */
function gameOf(kind: Kind, rng: RngState, seats: readonly Seat[]): Result {
  const pick = (from: readonly Seat[]) => from[nextInt(rng, from.length)];
  const winner = pick(seats);
  const value = [25, 30, 35, 50][nextInt(rng, 4)];
  const thrower = pick(seats.filter((s) => s !== winner));
  const exposures = nextInt(rng, 5);
  switch (kind) {
    case 'wall':
      return { winner: null };
    case 'wall-dead':
      return { winner: null, dead: [pick(seats)] };
    case 'incomplete':
      return { winner: null, incomplete: true };
    case 'error-intact':
      return { winner: null, intact: [pick(seats)] };
    case 'self':
      return { winner, value, selfPicked: true };
    case 'self-jokerless':
      return { winner, value, selfPicked: true, jokerless: true };
    case 'thrown':
      return { winner, value, thrower, exposures };
    case 'thrown-jokerless':
      return { winner, value, thrower, exposures, jokerless: true };
    case 'pairs-jokerless':
      return { winner, value: 50, thrower, exposures: 0, jokerless: true, singlesAndPairs: true };
    case 'misnamed':
      return { winner, value, thrower, exposures, misnamed: true };
    case 'heavenly':
      return seats.includes('A') ? { winner: 'A', value, heavenly: true } : { winner, value, selfPicked: true };
  }
}

/** Mostly the common games, now and then a rare one. */
function randomGame(rng: RngState, seats: readonly Seat[]): Result {
  const common: Kind[] = ['wall', 'self', 'thrown', 'thrown', 'thrown', 'self-jokerless', 'thrown-jokerless'];
  return gameOf(nextInt(rng, 6) === 0 ? KINDS[nextInt(rng, KINDS.length)] : common[nextInt(rng, common.length)], rng, seats);
}

/**
 * Standardized tournament rules 11 (and 4.4, 14.4), written out: +10 a self-picked Mah Jongg (not East's dealt hand, 11.10),
 * +20 without jokers (not a Singles and Pairs hand, 11.2), +10 to each live hand in a wall game and -10 to a dead one (11.3,
 * 11.4, 11.8), zero for all in a game not finished (11.4), the thrower -10/-20/-25 by the winner's exposures (11.5-11.7) or -25
 * for a misnamed tile (11.9), and after a Mah Jongg in error the one hand left intact 10, the others zero (14.4).
 */
function pointsByRule(g: Result, seats: readonly Seat[]): Map<Seat, number> {
  const out = new Map<Seat, number>(seats.map((s) => [s, 0]));
  if (g.incomplete) return out;
  if (g.winner === null) {
    if (g.intact?.length) {
      for (const s of g.intact) out.set(s, 10);
      return out;
    }
    for (const s of seats) out.set(s, g.dead?.includes(s) ? -10 : 10);
    return out;
  }
  out.set(g.winner, g.value! + (g.selfPicked ? 10 : 0) + (g.jokerless && !g.singlesAndPairs ? 20 : 0));
  if (g.thrower !== undefined) out.set(g.thrower, g.misnamed ? -25 : (g.exposures ?? 0) >= 3 ? -25 : (g.exposures ?? 0) === 2 ? -20 : -10);
  return out;
}

interface Desk {
  code: string;
  players: { id: string; name: string; card: string; withdrawn: number | null }[];
  rounds: { round: number; rotated: boolean; tables: { table: number; seats: { seat: Seat; player: string }[] }[] }[];
}

export async function runEvent(app: FastifyInstance, players: number, rounds: number): Promise<void> {
  const director = newJar();
  expect((await signUp(app, director, 'Director Dee')).status).toBe(201);
  const desk = (method: 'GET' | 'POST', url: string, payload?: object) => call(app, { method, url, ...(payload ? { payload } : {}) }, director);
  const created = await desk('POST', '/api/events', { name: 'Club Open', roundMinutes: 55 });
  expect(created.status).toBe(200);
  const code = created.body.code as string;
  const ev = `/api/events/${code}`;
  let state: Desk = (await desk('GET', `${ev}/desk`)).body;
  for (let i = 1; i <= players; i++) state = (await desk('POST', `${ev}/players`, { name: `Player ${i}` })).body;
  expect(state.players).toHaveLength(players);
  // nobody else directs it
  const stranger = newJar();
  await signUp(app, stranger, 'Someone Else');
  expect((await call(app, { method: 'POST', url: `${ev}/rounds` }, stranger)).status).toBe(404);

  const rng = seedRng(52);
  const points = new Map<string, number>();
  const add = (id: string, p: number) => points.set(id, (points.get(id) ?? 0) + p);
  const phone = newJar();
  const card = (c: string) => state.players.find((p) => p.id === c)!.card;
  let caught = 0;
  /** The shapes of game entered (which fields each had): every kind of rules 4, 11 and 14 among them. */
  const entered = new Set<string>();
  let entry = 0;
  /** The split table of a round (the 4th, in rounds 2 and 3): its seats, and game 3 as it was played. */
  let split: { table: number; bySeat: Map<Seat, string>; game: Result } | null = null;
  for (let round = 1; round <= rounds; round++) {
    split = null;
    if (round === 2) {
      // East of round 1's table 5 withdraws, and a late arrival takes the seat the rotation leaves empty
      const gone = state.rounds[0].tables[4].seats.find((s) => s.seat === 'A')!.player;
      expect((await desk('POST', `${ev}/players/${gone}/withdraw`)).status).toBe(200);
      state = (await desk('POST', `${ev}/players`, { name: 'Late Lou' })).body;
      const late = state.players.find((p) => p.name === 'Late Lou')!;
      expect((await desk('POST', `${ev}/adjustments`, { player: late.id, points: -10, reason: 'not seated when round 2 began' })).status).toBe(200);
      add(late.id, -10);
    }
    if (round === 3) {
      // one who sat North withdraws with no one to take her place: rule 20 still moves everyone, and a table of three plays with North's seat empty
      const north = state.rounds.at(-1)!.tables[0].seats.find((s) => s.seat === 'B')!.player;
      expect((await desk('POST', `${ev}/players/${north}/withdraw`)).status).toBe(200);
    }
    if (round === 4) {
      // a West and a South withdraw from tables whose empty seats the rotation sends to tables apart: three tables of three
      const last = state.rounds.at(-1)!;
      const tables = last.tables.length;
      const short = last.tables.find((t) => t.seats.length === 3)!;
      const emptyAt = (table: number, seat: Seat) => rotated({ table, seat }, tables).table;
      const taken = [emptyAt(short.table, SEATS.find((x) => !short.seats.some((s) => s.seat === x))!)];
      for (const seat of ['C', 'D'] as const) {
        const t = last.tables.find((t) => t.seats.length === 4 && !taken.includes(emptyAt(t.table, seat)))!;
        taken.push(emptyAt(t.table, seat));
        expect((await desk('POST', `${ev}/players/${t.seats.find((s) => s.seat === seat)!.player}/withdraw`)).status).toBe(200);
      }
    }
    const before = state.rounds.at(-1);
    state = (await desk('POST', `${ev}/rounds`)).body;
    const r = state.rounds.at(-1)!;
    expect(r.round).toBe(round);
    // every seat has lost a player by round 4 (East in round 2, North in 3, West and South in 4): the tables of three keep the rotation, each with the seat of the one who left empty
    if (round === 4)
      expect(
        r.tables
          .filter((t) => t.seats.length === 3)
          .map((t) => SEATS.find((x) => !t.seats.some((s) => s.seat === x)))
          .sort(),
      ).toEqual(['B', 'C', 'D']);
    if (round > 1) expect(r.rotated).toBe(true);
    if (before) {
      const tables = r.tables.length;
      const was = new Map(before.tables.flatMap((t) => t.seats.map((s) => [s.player, { table: t.table, seat: s.seat }] as const)));
      for (const t of r.tables)
        for (const s of t.seats) {
          const w = was.get(s.player);
          if (w) expect({ player: s.player, at: { table: t.table, seat: s.seat } }).toEqual({ player: s.player, at: rotated(w, tables) });
        }
    }
    for (const t of r.tables) {
      const bySeat = new Map(t.seats.map((s) => [s.seat, s.player]));
      const seats = SEATS.filter((s) => bySeat.has(s));
      // round 1: the fourth game of table k is the k-th kind, so every kind of game is entered on the cards
      const games = Array.from({ length: 4 }, (_, g) => (round === 1 && g === 3 && t.table <= KINDS.length ? gameOf(KINDS[t.table - 1], rng, seats) : randomGame(rng, seats)));
      for (const g of games) entered.add(JSON.stringify(Object.keys(g).sort()));
      for (const g of games) for (const [s, p] of pointsByRule(g, seats)) add(bySeat.get(s)!, p);
      if ((round === 2 || round === 3) && t.table === 4 && seats.length === 4) split = { table: t.table, bySeat, game: games[2] };
      const otherwise: Result = games[2].winner === null ? { winner: 'A', value: 25, selfPicked: true } : { winner: null };
      for (const [seat, id] of bySeat) {
        for (let g = 0; g < 4; g++) {
          const result = split?.table === t.table && g === 2 && (seat === 'B' || seat === 'D') ? otherwise : games[g];
          const put = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(id), game: g + 1, result, entry: `entry-${String(++entry).padStart(6, '0')}` } }, phone);
          expect({ status: put.status, body: put.status === 200 ? null : put.body }).toEqual({ status: 200, body: null });
        }
      }
      // round 1, tables 1 and 2: East enters game 2 wrongly; West, checking it, is refused; East corrects it
      if (round === 1 && t.table <= 2) {
        const east = bySeat.get('A')!;
        const wrong = games[1].winner === null ? { winner: 'B', value: 25, thrower: 'A' } : { ...games[1], value: games[1].value! + 5 };
        await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(east), game: 2, result: wrong, entry: `entry-${String(++entry).padStart(6, '0')}` } }, phone);
        const refused = await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(bySeat.get('C')!), player: east } }, phone);
        expect(refused.status).toBe(400);
        expect(refused.body.message).toMatch(/game 2 differs between Player \d+'s card and yours/);
        caught++;
        const fixed = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(east), game: 2, result: games[1], entry: `entry-${String(++entry).padStart(6, '0')}` } }, phone);
        // the phone lost the answer and sends it again: kept once
        const again = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(east), game: 2, result: games[1], entry: `entry-${String(entry).padStart(6, '0')}` } }, phone);
        expect([fixed.status, again.status]).toEqual([200, 200]);
      }
      // rules 3: East and West check each other's cards, North and South each other's; at a table of three the seat without its partner is checked by the first other seat there
      const partner: Record<Seat, Seat> = { A: 'C', C: 'A', B: 'D', D: 'B' };
      const checker = (s: Seat): Seat => (bySeat.has(partner[s]) ? partner[s] : seats.find((x) => x !== s)!);
      for (const [s, id] of bySeat) {
        const check = await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(bySeat.get(checker(s))!), player: id } }, phone);
        expect(check.status).toBe(200);
      }
    }
    // her card on her phone: her seat and her table, by wind
    const first = r.tables[0].seats[0];
    const mine = await call(app, { method: 'GET', url: `${ev}/card?card=${card(first.player)}` }, phone);
    expect(mine.body).toMatchObject({ round, seated: true, table: 1, seat: first.seat, checked: true });
    if (split !== null) {
      // each pair checked, the table split: the accept is refused, and all four phones say where
      const s = split;
      const refused = await desk('POST', `${ev}/accept`);
      expect([refused.status, refused.body.message]).toEqual([400, expect.stringMatching(new RegExp(`^table ${s.table}'s cards differ at game 3: `))]);
      for (const id of s.bySeat.values()) expect((await call(app, { method: 'GET', url: `${ev}/card?card=${card(id)}` }, phone)).body.differences.map((d: { game: number }) => d.game)).toEqual([3]);
      if (round === 2) {
        // the players: North reopens her card, North and South enter game 3 as it was, and check each other again
        const [north, south] = [s.bySeat.get('B')!, s.bySeat.get('D')!];
        expect((await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: card(north) } }, phone)).status).toBe(200);
        for (const id of [north, south])
          expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(id), game: 3, result: s.game, entry: `entry-${String(++entry).padStart(6, '0')}` } }, phone)).status).toBe(
            200,
          );
        for (const [id, by] of [
          [north, south],
          [south, north],
        ])
          expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(by), player: id } }, phone)).status).toBe(200);
      } else {
        // the Director: her ruling settles game 3 on all four cards (standardized rules 23)
        expect((await desk('POST', `${ev}/corrections`, { round, table: s.table, game: 3, result: s.game, reason: 'all four at the desk' })).status).toBe(200);
      }
    }
    expect((await desk('POST', `${ev}/accept`)).status).toBe(200);
  }
  expect(caught).toBe(2);
  for (const kind of KINDS) expect(entered).toContain(JSON.stringify(Object.keys(gameOf(kind, seedRng(1), SEATS)).sort()));
  // the Director changes an accepted card: round 1, table 3, game 1 becomes a wall game
  const r1 = state.rounds[0].tables[2];
  const seats3 = r1.seats.map((s) => s.seat);
  const log0 = (await desk('GET', `${ev}/log`)).body.changes as { change: { type: string; player?: string; game?: number; result?: Result } }[];
  const t3east = r1.seats.find((s) => s.seat === 'A')!.player;
  // her last entry of game 1 in round 1: before the second round was seated
  const round2 = log0.findIndex((l, i) => l.change.type === 'seat' && i > log0.findIndex((x) => x.change.type === 'seat'));
  const was = log0
    .slice(0, round2)
    .filter((l) => l.change.type === 'enter' && l.change.player === t3east && l.change.game === 1)
    .at(-1)!.change.result!;
  for (const [s, p] of pointsByRule(was, seats3)) add(r1.seats.find((x) => x.seat === s)!.player, -p);
  for (const [s, p] of pointsByRule({ winner: null }, seats3)) add(r1.seats.find((x) => x.seat === s)!.player, p);
  expect((await desk('POST', `${ev}/corrections`, { round: 1, table: 3, game: 1, result: { winner: null }, reason: 'the table agreed at the desk it was a wall game' })).status).toBe(200);

  // the standings, open to the room: as the rules count the games
  const standings = await call(app, { method: 'GET', url: `${ev}/standings` }, newJar());
  expect(standings.status).toBe(200);
  // the game the Director changed after round 1 was accepted is marked on the standings (a game settled before its round was accepted is not)
  expect(standings.body.corrected).toEqual([{ round: 1, table: 3, game: 1 }]);
  const byName = new Map(state.players.map((p) => [p.name, p.id]));
  for (const row of standings.body.rows as { name: string; total: number }[]) expect({ name: row.name, total: row.total }).toEqual({ name: row.name, total: points.get(byName.get(row.name)!) ?? 0 });
  expect(JSON.stringify(standings.body)).not.toContain(state.players[0].card);
  const csv = await call(app, { method: 'GET', url: `${ev}/standings.csv` }, newJar());
  expect(csv.headers['content-type']).toMatch(/text\/csv/);
  expect(String(csv.body).split('\n')[0]).toBe(`Place,Player,${Array.from({ length: rounds }, (_, i) => `Round ${i + 1}`).join(',')},Adjustments,Total,Mah Jonggs`);
  // every change in the audit log, with who made it
  const log = (await desk('GET', `${ev}/log`)).body.changes as { by: string; change: { type: string } }[];
  expect(log.filter((l) => l.change.type === 'correct')).toHaveLength(rounds >= 3 ? 2 : 1);
  expect(log.find((l) => l.change.type === 'correct')!.by).toBe('the director, Director Dee');
  expect(log.filter((l) => l.change.type === 'reopen')).toHaveLength(rounds >= 2 ? 1 : 0);
  // every entry sent with an id of its own kept once, the one sent twice too (players * 4 * rounds, less the games of the one who withdrew, and the corrections)
  expect(log.filter((l) => l.change.type === 'enter').length).toBe(entry);
}
