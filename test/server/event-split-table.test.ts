import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, newJar, server, signUp, type Jar } from './helpers.js';

/**
 * A split table (issue 63): East and West enter one result, North and South another. Each pair's
 * check passes (standardized rules 3 compares A with C and B with D), so the round could be
 * neither accepted nor corrected. Every player at the table is shown the game that differs, and
 * the table gets out either by its players (a checked card reopened and changed) or by the
 * Director (rules 23: her ruling settles the game on all four cards), the change in the log.
 */

type Seat = 'A' | 'B' | 'C' | 'D';
const SEATS: Seat[] = ['A', 'B', 'C', 'D'];
const partner: Record<Seat, Seat> = { A: 'C', C: 'A', B: 'D', D: 'B' };

const GAMES = [{ winner: 'A', value: 25, thrower: 'B' }, { winner: 'B', value: 30, selfPicked: true }, { winner: null }, { winner: 'C', value: 25, thrower: 'D', exposures: 2 }];
/** What North and South entered for game 1 instead: a wall game. */
const WALL = { winner: null };

/** An event of four players, round 1 seated, with East and West's cards saying one thing and North and South's another, each pair checked. */
async function splitTable(): Promise<{ app: FastifyInstance; director: Jar; ev: string; card: (s: Seat) => string; id: (s: Seat) => string; name: (s: Seat) => string }> {
  const app = await server();
  const director = newJar();
  await signUp(app, director, 'Director Split');
  const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Split night' } }, director)).body.code;
  const ev = `/api/events/${code}`;
  for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) expect((await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director)).status).toBe(200);
  const desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
  const seats = new Map<string, string>(desk.rounds[0].tables[0].seats.map((x: { seat: string; player: string }) => [x.seat, x.player]));
  const player = (s: Seat) => desk.players.find((p: { id: string }) => p.id === seats.get(s));
  const card = (s: Seat) => player(s).card as string;
  let n = 0;
  for (const s of SEATS)
    for (const [i, g] of GAMES.entries()) {
      const result = i === 0 && (s === 'B' || s === 'D') ? WALL : g;
      const put = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card(s), game: i + 1, result, entry: `split-${s}-${i}-${++n}` } });
      expect(put.status).toBe(200);
    }
  for (const s of SEATS) {
    const check = await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(partner[s]), player: seats.get(s) } });
    expect([s, check.status]).toEqual([s, 200]);
  }
  return { app, director, ev, card, id: (s) => seats.get(s)!, name: (s) => player(s).name as string };
}

describe('a split table over HTTP', () => {
  it('every player at the table sees the game that differs, in one sentence naming who entered what; the accept is refused saying how to get out', async () => {
    const { app, director, ev, card, name } = await splitTable();
    const refused = await call(app, { method: 'POST', url: `${ev}/accept` }, director);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/table 1's cards differ at game 1: .*reopening a checked one.*the Director settles the game/);
    const words = `Game 1: ${name('A')} (East) and ${name('C')} (West) entered a Mah Jongg by ${name('A')} (East) for 25 points on a discard by ${name('B')} (North); ${name('B')} (North) and ${name('D')} (South) entered a wall game.`;
    for (const s of SEATS) {
      const mine = (await call(app, { method: 'GET', url: `${ev}/card?card=${card(s)}` })).body;
      expect(mine.differences.map((d: { game: number; words: string }) => [d.game, d.words])).toEqual([[1, words]]);
      expect(mine.whatNow).toBe('If your card is wrong, reopen it and change the game, or ask the Director to settle it.');
    }
    const desk = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body;
    expect(desk.rounds[0].tables[0].differences.map((d: { words: string }) => d.words)).toEqual([words]);
    // the refusal changed nothing: the round waits
    expect(desk.rounds[0].accepted).toBe(false);
  }, 60_000);

  it('the players get out: North reopens her checked card, North and South change game 1, check each other again; the round is accepted and scored as agreed', async () => {
    const { app, director, ev, card, id, name } = await splitTable();
    // a checked card is not changed by a stray entry (a phone's queued one): it is reopened first
    const stray = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card('B'), game: 1, result: GAMES[0], entry: 'split-stray-0001' } });
    expect([stray.status, stray.body.message]).toEqual([400, 'your card has been checked already: reopen it to change a game, and it will be checked again']);
    const reopenedB = await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: card('B') } });
    expect(reopenedB.status).toBe(200);
    // her card and the card she checked against it wait to be checked again
    expect(reopenedB.body.checked).toBe(false);
    expect(reopenedB.body.checks).toEqual([expect.objectContaining({ player: id('D'), checked: false })]);
    // a card not checked has nothing to reopen
    const again = await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: card('B') } });
    expect([again.status, again.body.message]).toEqual([400, 'your card is not checked: change its games as they are']);
    expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card('B'), game: 1, result: GAMES[0], entry: 'split-fix-B-0001' } })).status).toBe(200);
    // South's card, checked by North, still says a wall game: North cannot check it, South must change hers too
    const mismatch = await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card('B'), player: id('D') } });
    expect([mismatch.status, mismatch.body.message]).toEqual([400, expect.stringMatching(/^game 1 differs between/)]);
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).body.message).toMatch(/waits for 2 cards to be checked/);
    // South's card was checked against North's: reopening North's undid that check, so South changes hers as it is
    expect((await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: card('D') } })).body.message).toBe('your card is not checked: change its games as they are');
    expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card('D'), game: 1, result: GAMES[0], entry: 'split-fix-D-0001' } })).status).toBe(200);
    // the table agrees now: no difference shown to anyone
    expect((await call(app, { method: 'GET', url: `${ev}/card?card=${card('A')}` })).body.differences).toEqual([]);
    for (const s of ['B', 'D'] as Seat[]) expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card(partner[s]), player: id(s) } })).status).toBe(200);
    const accepted = await call(app, { method: 'POST', url: `${ev}/accept` }, director);
    expect(accepted.status).toBe(200);
    // scored as the table agreed (rules 11): East's 25 on North's discard (-10), North's self-picked 30 (+10), a wall game (10 each), West's 25 on South's discard after 2 exposures (-20)
    const rows = (await call(app, { method: 'GET', url: `${ev}/standings` })).body.rows;
    const total = (s: Seat) => rows.find((r: { name: string }) => r.name === accepted.body.players.find((p: { id: string }) => p.id === id(s)).name).total;
    expect(SEATS.map(total)).toEqual([25 + 10, -10 + 40 + 10, 10 + 25, 10 - 20]);
    // the next round can be seated
    expect((await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).status).toBe(200);
    // the log says who reopened and changed what, and when
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as { by: string; at: string; change: { type: string; player?: string; game?: number } }[];
    const from = log.findIndex((l) => l.change.type === 'reopen');
    expect(log[from]).toEqual({ n: expect.any(Number), by: `${name('B')}, reopening her card`, at: expect.any(String), change: { type: 'reopen', player: id('B') } });
    expect(Number.isNaN(Date.parse(log[from].at))).toBe(false);
    const changed = log.slice(from).filter((l) => l.change.type === 'enter');
    expect(changed.map((l) => [l.by, l.change])).toEqual((['B', 'D'] as Seat[]).map((s) => [`${name(s)}'s card`, { type: 'enter', player: id(s), game: 1, result: GAMES[0] }]));
  }, 60_000);

  it('the Director gets out: her ruling, with its reason and who was present (rule 22), settles game 1 on all four cards before the round is accepted; the players cannot change it; the log keeps it', async () => {
    const { app, director, ev, card, id, name } = await splitTable();
    const correct = (payload: object) => call(app, { method: 'POST', url: `${ev}/corrections`, payload }, director);
    // bad rulings are refused by name and change nothing
    expect((await correct({ round: 1, table: 1, game: 1, result: { winner: null }, reason: ' ' })).body.message).toBe("a change to a table's cards needs the Director's reason");
    expect((await correct({ round: 1, table: 2, game: 1, result: { winner: null }, reason: 'x' })).body.message).toBe('round 1 has no table 2');
    expect((await correct({ round: 1, table: 1, game: 1, result: { winner: 'A', value: 25 }, reason: 'x' })).body.message).toMatch(/the thrower/);
    expect((await correct({ round: 2, table: 1, game: 1, result: { winner: null }, reason: 'x' })).body.message).toBe('no round 2');
    expect((await correct({ round: 1, table: 1, game: 1, result: { winner: null }, reason: 'x', present: ['p-nobody'] })).body.message).toBe(
      'that player did not sit at table 1 in round 1: name only its players as present',
    );
    expect((await correct({ round: 1, table: 1, game: 1, result: { winner: null }, reason: 'x', present: [id('A'), id('A')] })).body.message).toBe(
      `${name('A')} is named twice among those present: name each once`,
    );
    // who was at the desk is kept with the ruling (standardized rules 22)
    const present = SEATS.map(id);
    const ruled = await correct({ round: 1, table: 1, game: 1, result: { winner: null }, reason: 'all four at the desk: nobody went out', present });
    expect(ruled.status).toBe(200);
    expect(ruled.body.rounds[0].tables[0].differences).toEqual([]);
    const ruling = { game: 1, reason: 'all four at the desk: nobody went out', present: SEATS.map(name) };
    expect(ruled.body.rounds[0].tables[0].settled).toEqual([ruling]);
    for (const s of SEATS) {
      const mine = (await call(app, { method: 'GET', url: `${ev}/card?card=${card(s)}` })).body;
      expect([s, mine.games[0], mine.checked, mine.settled]).toEqual([s, { winner: null }, true, [ruling]]);
    }
    // a player who reopens her card cannot undo the ruling
    expect((await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: card('A') } })).status).toBe(200);
    const undo = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: card('A'), game: 1, result: GAMES[0], entry: 'split-undo-A-001' } });
    expect([undo.status, undo.body.message]).toEqual([400, 'the Director settled game 1 at your table: ask her if it should change']);
    expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card('C'), player: id('A') } })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: card('A'), player: id('C') } })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
    // game 1 scored as ruled, a wall game (10 each), not as either pair entered it
    const rows = (await call(app, { method: 'GET', url: `${ev}/standings` })).body.rows;
    const desk = (await call(app, { method: 'GET', url: `${ev}/desk` }, director)).body;
    const total = (s: Seat) => rows.find((r: { name: string }) => r.name === desk.players.find((p: { id: string }) => p.id === id(s)).name).total;
    expect(SEATS.map(total)).toEqual([10 + 10, 10 + 40 + 10, 10 + 10 + 25, 10 + 10 - 20]);
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes as { by: string; change: { type: string; reason?: string } }[];
    const settle = log.filter((l) => l.change.type === 'correct');
    expect(settle).toEqual([
      expect.objectContaining({
        by: 'the director, Director Split',
        change: expect.objectContaining({ round: 1, table: 1, game: 1, result: { winner: null }, reason: 'all four at the desk: nobody went out', present }),
      }),
    ]);
  }, 60_000);

  it('a Mexican Train table: a wrong card checked would hold it (each card is checked against the one before); its player reopens it from her phone and the game is accepted', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Rail');
    const made = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Train split', game: 'mexican-train', ruleset: 'sun-lakes', tableSize: 4 } }, director);
    const ev = `/api/events/${made.body.code}`;
    for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director);
    const desk = (await call(app, { method: 'POST', url: `${ev}/rounds` }, director)).body;
    const ids: string[] = desk.rounds[0].tables[0].seats.map((x: { player: string }) => x.player);
    const cardOf = (id: string) => desk.players.find((p: { id: string }) => p.id === id).card as string;
    const hands = desk.rounds[0].hands as number;
    const right = Array.from({ length: hands }, (_, h) => ids.map((_, s) => (s === h % ids.length ? 0 : 5 + s)));
    const wrong = right.map((h, i) => (i === 0 ? h.map((x) => x + 1) : h));
    let n = 0;
    // the first two players entered hand 1 wrongly, and the second checked the first's card
    for (const [s, id] of ids.entries())
      for (const [h, points] of (s <= 1 ? wrong : right).entries())
        expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: cardOf(id), hand: h + 1, points, entry: `train-split-${++n}` } })).status).toBe(200);
    const check = (by: string, player: string) => call(app, { method: 'POST', url: `${ev}/card/check`, payload: { card: cardOf(by), player } });
    expect((await check(ids[1], ids[0])).status).toBe(200);
    expect((await check(ids[0], ids[3])).body.message).toMatch(/^hand 1 differs between/);
    const stuck = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: cardOf(ids[0]), hand: 1, points: right[0], entry: 'train-split-stuck' } });
    expect(stuck.body.message).toBe('your card has been checked already: reopen it to change a hand, and it will be checked again');
    const reopened = await call(app, { method: 'POST', url: `${ev}/card/reopen`, payload: { card: cardOf(ids[0]) } });
    expect([reopened.status, reopened.body.checked]).toEqual([200, false]);
    for (const id of ids.slice(0, 2))
      expect((await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: cardOf(id), hand: 1, points: right[0], entry: `train-split-fix-${id}` } })).status).toBe(200);
    for (const [s, id] of ids.entries()) expect((await check(ids[(s + 1) % ids.length], id)).status).toBe(200);
    expect((await call(app, { method: 'POST', url: `${ev}/accept` }, director)).status).toBe(200);
  }, 60_000);
});
