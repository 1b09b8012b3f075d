import { describe, expect, it } from 'vitest';
import { csvCell } from '../../api/http/routes/events.js';
import { call, newJar, server, signUp } from './helpers.js';

/**
 * Issue 63: every text from outside passes one check before any route (api/http/sanitise.ts):
 * a NUL, a control character or half a character is refused with 400 and the field's name,
 * where it was a storage failure (503) before; the standings CSV runs no formula; a score
 * card's lists name each seat once.
 */

const NUL = 'Ro\u0000se';
const HALF = 'Rose \ud83d'; // the first half of an emoji, alone
const LOW_HALF = '\udc00Rose';
const BELL = 'Ro\u0007se';
const C1 = 'Ro\u0085se';

describe('texts from outside', () => {
  it('refuses a NUL, half a character or a control character with 400, naming the field, and keeps nothing', async () => {
    const app = await server();
    // sign-in and sign-up names
    for (const name of [NUL, HALF, LOW_HALF, BELL, C1]) {
      const r = await call(app, { method: 'POST', url: '/api/session', payload: { name, password: 'a long password' } }, newJar());
      expect([r.status, r.body.code]).toEqual([400, 'TM_BAD_INPUT']);
      expect(r.body.message).toMatch(/^the field "name" holds .*; please type it again without it\.$/);
    }
    const half = await call(app, { method: 'POST', url: '/api/account', payload: { name: HALF, password: 'a long password' } }, newJar());
    expect([half.status, half.body.message]).toEqual([400, 'the field "name" holds half of a character (a broken emoji or symbol); please type it again without it.']);
    const nul = await call(app, { method: 'POST', url: '/api/account', payload: { name: NUL, password: 'a long password' } }, newJar());
    expect([nul.status, nul.body.message]).toEqual([400, 'the field "name" holds an empty character (NUL); please type it again without it.']);
    const line = await call(app, { method: 'POST', url: '/api/account', payload: { name: 'Ro\nse', password: 'a long password' } }, newJar());
    expect([line.status, line.body.message]).toEqual([400, 'the field "name" holds a line break, and it must be one line of text; please type it again without it.']);

    // an event's name, a reason, a player's name
    const director = newJar();
    expect((await signUp(app, director, 'Director Dot')).status).toBe(201);
    const badEvent = await call(app, { method: 'POST', url: '/api/events', payload: { name: `Spring ${HALF}` } }, director);
    expect([badEvent.status, badEvent.body.message]).toEqual([400, 'the field "name" holds half of a character (a broken emoji or symbol); please type it again without it.']);
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Spring' } }, director)).body.code as string;
    const ev = `/api/events/${code}`;
    let desk: any;
    for (let i = 1; i <= 4; i++) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: `P${i}` } }, director)).body;
    const badPlayer = await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: BELL } }, director);
    expect([badPlayer.status, badPlayer.body.message]).toEqual([400, 'the field "name" holds a hidden control character (number 7); please type it again without it.']);
    const badReason = await call(app, { method: 'POST', url: `${ev}/adjustments`, payload: { player: desk.players[0].id, points: -10, reason: `late${NUL}` } }, director);
    expect([badReason.status, badReason.body.message]).toEqual([400, 'the field "reason" holds an empty character (NUL); please type it again without it.']);
    // in the query and the address
    const badQuery = await call(app, { method: 'GET', url: `${ev}/card?card=AB%00CDEFG` });
    expect([badQuery.status, badQuery.body.message]).toEqual([400, 'the field "card" holds an empty character (NUL); please type it again without it.']);
    const badParam = await call(app, { method: 'GET', url: '/api/events/AB%00CD/standings' });
    expect([badParam.status, badParam.body.message]).toEqual([400, 'the field "code" holds an empty character (NUL); please type it again without it.']);
    // nothing refused was kept
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes;
    expect(log.map((l: { change: { type: string } }) => l.change.type)).toEqual(['create', 'register', 'register', 'register', 'register']);

    // a card: a NUL in its text (its title line), a tab in a printed card's heading, a field's name
    const card = await call(app, { method: 'PUT', url: '/api/cards/mine', payload: { text: `card: My${NUL}\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n` } }, director);
    expect([card.status, card.body.message]).toEqual([400, 'the field "text" holds an empty character (NUL); please type it again without it.']);
    const printed = await call(app, { method: 'POST', url: '/api/cards/read', payload: { card: { name: 'Mine', sections: [{ title: 'Ev\tens', lines: [] }] } } }, director);
    expect([printed.status, printed.body.message]).toEqual([400, 'the field "card.sections[0].title" holds a tab, and it must be one line of text; please type it again without it.']);
    const key = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'x', [`n${NUL}`]: 1 } }, director);
    expect([key.status, key.body.message]).toEqual([400, "a field's name in the request holds an empty character (NUL); please send it again without it."]);
    expect((await call(app, { method: 'GET', url: '/api/cards/mine' }, director)).status).toBe(404);
  }, 60_000);

  it('takes ordinary text: accents, emoji (whole), and the lines and tabs of a card', async () => {
    const app = await server();
    const jar = newJar();
    const name = 'Zoë Renée'; // an account's name is letters (its own pattern); emoji are signed in with as any unknown name
    const up = await signUp(app, jar, name);
    expect([up.status, up.body.name]).toEqual([201, name]);
    const again = await call(app, { method: 'POST', url: '/api/session', payload: { name, password: 'a long password' } }, newJar());
    expect(again.status).toBe(200);
    const emoji = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Zoë 🀄', password: 'a long password' } }, newJar());
    expect([emoji.status, emoji.body.code]).toEqual([401, 'TM_BAD_SIGN_IN']);
    const ev = await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Printemps à l’école 🌸' } }, jar);
    expect(ev.status).toBe(200);
    const code = ev.body.code as string;
    const p = await call(app, { method: 'POST', url: `/api/events/${code}/players`, payload: { name: 'José 👵🏽' } }, jar);
    expect(p.status).toBe(200);
    expect(p.body.players[0].name).toBe('José 👵🏽');
    const card = await call(app, { method: 'PUT', url: '/api/cards/mine', payload: { text: 'card: Mon café ☕\r\n[Evens]\n22a 444a\t6666a 888a FF ; x 25\n' } }, jar);
    expect(card.status).toBe(200);
    expect(card.body.title).toBe('Mon café ☕');
  }, 60_000);
});

describe('the standings CSV', () => {
  it('turns a formula into text and keeps numbers numbers', () => {
    expect(csvCell('=HYPERLINK("http://x","win")')).toBe(`"'=HYPERLINK(""http://x"",""win"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tTab')).toBe("'\tTab");
    expect(csvCell('\rCR')).toBe(`"'\rCR"`);
    expect(csvCell(-25)).toBe('-25');
    expect(csvCell('-25')).toBe('-25');
    expect(csvCell(null)).toBe('');
    expect(csvCell('Rose, North')).toBe('"Rose, North"');
    expect(csvCell('Rose')).toBe('Rose');
  });

  it('over HTTP: a player named as a formula is written as text, a negative adjustment as a number', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Dot');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Formula night' } }, director)).body.code as string;
    const ev = `/api/events/${code}`;
    let desk: any;
    for (const name of ['=HYPERLINK("http://evil.example","Win")', '+Pearl', 'Ida', '@Edna']) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name } }, director)).body;
    const ida = desk.players.find((p: { name: string }) => p.name === 'Ida').id;
    expect((await call(app, { method: 'POST', url: `${ev}/adjustments`, payload: { player: ida, points: -25, reason: 'late' } }, director)).status).toBe(200);
    const csv = await call(app, { method: 'GET', url: `${ev}/standings.csv` });
    expect(csv.status).toBe(200);
    const text = String(csv.body);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Win"")"`);
    expect(text).toContain("'+Pearl");
    expect(text).toContain("'@Edna");
    const idaLine = text.split('\n').find((l) => l.includes('Ida'))!;
    expect(idaLine.split(',')).toContain('-25');
    expect(idaLine).not.toContain("'-25");
    for (const line of text.split('\n').slice(1)) for (const cellText of line.split(',')) expect(cellText).not.toMatch(/^"?[=+@]/);
  }, 60_000);
});

describe('lists name each seat once', () => {
  it('a score card with dead: ["B", "B"] is refused in words and kept nowhere', async () => {
    const app = await server();
    const director = newJar();
    await signUp(app, director, 'Director Dot');
    const code = (await call(app, { method: 'POST', url: '/api/events', payload: { name: 'Small' } }, director)).body.code as string;
    const ev = `/api/events/${code}`;
    let desk: any;
    for (let i = 1; i <= 4; i++) desk = (await call(app, { method: 'POST', url: `${ev}/players`, payload: { name: `P${i}` } }, director)).body;
    await call(app, { method: 'POST', url: `${ev}/rounds` }, director);
    const mine = desk.players[0].card as string;
    const twice = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: mine, game: 1, result: { winner: null, dead: ['B', 'B'] }, entry: 'abcdefgh1' } });
    expect([twice.status, twice.body.code, twice.body.message]).toEqual([400, 'TM_BAD_INPUT', 'seat B is named twice among the dead hands: name each seat once.']);
    const once = await call(app, { method: 'PUT', url: `${ev}/card`, payload: { card: mine, game: 1, result: { winner: null, dead: ['B', 'D'] }, entry: 'abcdefgh2' } });
    expect(once.status).toBe(200);
    const log = (await call(app, { method: 'GET', url: `${ev}/log` }, director)).body.changes;
    expect(log.filter((l: { change: { type: string } }) => l.change.type === 'enter')).toHaveLength(1);
  }, 60_000);

  it("a Mexican Train table's marked trains and open doubles name each train once", async () => {
    const app = await server();
    const r = await call(app, {
      method: 'POST',
      url: '/api/domino/advise',
      payload: { hand: '5-3 3-3 3-9 9-1 11-11 0-4', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' }, marked: [2, 2], handCounts: [6, 8, 9, 10] } },
    });
    expect([r.status, r.body.code]).toEqual([400, 'TM_BAD_INPUT']);
    expect(r.body.message).toMatch(/marked names train 2 twice: name each train once/);
  }, 60_000);
});
