import { describe, expect, it } from 'vitest';
import { openDb } from '../../api/store/db.js';
import { migrate } from '../../api/store/migrations.js';
import { PlayerStore } from '../../api/store/players.js';
import { call, databaseOf, dataDir, newJar, server, type Jar } from './helpers.js';

/**
 * The card she chose follows her account (issue 62): signed in, her choice (her own card, a
 * shared one on her list, or the practice card) is kept with her account, and a second browser
 * signed in to it reads it; only she reads or changes it; a choice of a card she has not got,
 * or one out of bounds, is refused in one sentence. On the embedded database, and on the
 * PostgreSQL server with TILEMATE_TEST_DATABASE_URL (.ci/run).
 */

type App = Awaited<ReturnType<typeof server>>;

/** A small original card (never a published League card). */
const CLUB = "card: Ruth's club card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";
const SIGN_IN = 'Sign in first: only then is the card you choose kept with your account for your other devices.';

const ok = async (app: App, jar: Jar, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const r = await call(app, { method, url, ...(payload !== undefined && { payload }) }, jar);
  expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
};
const choose = (app: App, jar: Jar, card: unknown) => call(app, { method: 'PUT', url: '/api/chosen-card', payload: { card } }, jar);
const chosen = async (app: App, jar: Jar) => (await call(app, { method: 'GET', url: '/api/chosen-card' }, jar)).body.card;

/** Ruth saves and shares her club card; its code. */
async function ruthShares(app: App, ruth: Jar): Promise<string> {
  await ok(app, ruth, 'POST', '/api/account', { name: 'Ruth', password: 'a long password' });
  await ok(app, ruth, 'PUT', '/api/cards/club', { text: CLUB });
  return (await ok(app, ruth, 'POST', '/api/cards/club/share')).code;
}

describe('the card she chose, with her account', () => {
  it('chosen on one browser, a second browser signed in to her account reads it; signed out, none is kept', async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar(),
      ednaPhone = newJar();
    const code = await ruthShares(app, ruth);

    // Edna signs up, keeps Ruth's card on her list and chooses it, typed in small letters
    await ok(app, edna, 'POST', '/api/account', { name: 'Edna', password: 'a long password' });
    expect(await chosen(app, edna)).toBeNull(); // never chosen signed in
    expect((await ok(app, edna, 'GET', '/api/cards')).chosen).toBeNull();
    await ok(app, edna, 'POST', `/api/shared-cards/${code}/keep`);
    const r = await choose(app, edna, `shared:${code.toLowerCase()}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ card: `shared:${code}`, kept: true });

    // her phone, signed in to the same account, starts on it
    expect((await call(app, { method: 'GET', url: '/api/cards' }, ednaPhone)).body.chosen).toBeUndefined(); // not signed in yet
    await ok(app, ednaPhone, 'POST', '/api/session', { name: 'Edna', password: 'a long password' });
    expect(await chosen(app, ednaPhone)).toBe(`shared:${code}`);
    const listed = await ok(app, ednaPhone, 'GET', '/api/cards');
    expect(listed.chosen).toBe(`shared:${code}`);
    expect(listed.cards.map((c: { name: string }) => c.name)).toContain(`shared:${code}`);

    // the phone goes back to the practice card: the first browser reads that
    expect((await choose(app, ednaPhone, '')).body).toEqual({ card: '', kept: true });
    expect(await chosen(app, edna)).toBe('');

    // signed out, the phone's choice stays on the phone: nothing is read or kept (sent, it is kept nowhere)
    await ok(app, ednaPhone, 'DELETE', '/api/session');
    expect((await call(app, { method: 'GET', url: '/api/chosen-card' }, ednaPhone)).body).toEqual({ code: 'TM_UNAUTHORIZED', message: SIGN_IN });
    expect((await choose(app, ednaPhone, `shared:${code}`)).body).toEqual({ card: `shared:${code}`, kept: false });
    expect((await call(app, { method: 'GET', url: '/api/cards' }, ednaPhone)).body.chosen).toBeUndefined();
    expect(await chosen(app, edna)).toBe('');
  });

  it('only she reads or changes her choice: each account answers for itself, and a guest keeps none', async () => {
    const app = await server();
    const ruth = newJar(),
      bea = newJar(),
      guest = newJar();
    await ruthShares(app, ruth);
    expect((await choose(app, ruth, 'club')).body).toEqual({ card: 'club', kept: true });
    await ok(app, bea, 'POST', '/api/account', { name: 'Bea', password: 'a long password' });
    // Bea reads her own (none), and her choosing changes hers alone
    expect(await chosen(app, bea)).toBeNull();
    expect((await choose(app, bea, 'club')).body).toEqual({ code: 'TM_NOT_FOUND', message: 'You have no saved card named club.' });
    expect((await choose(app, bea, '')).body).toEqual({ card: '', kept: true });
    expect(await chosen(app, ruth)).toBe('club');
    // no route names another player: a query or a field naming one is not taken
    expect((await call(app, { method: 'GET', url: '/api/chosen-card?student=Ruth' }, bea)).body.card).toBe('');
    expect((await call(app, { method: 'PUT', url: '/api/chosen-card', payload: { card: '', player: 'Ruth' } }, bea)).status).toBe(400);
    expect(await chosen(app, ruth)).toBe('club');
    // a guest (a session made by saving a card, no account) keeps her choice on her device only
    await ok(app, guest, 'PUT', '/api/cards/mine', { text: CLUB });
    expect((await choose(app, guest, 'mine')).body).toEqual({ card: 'mine', kept: false });
    expect((await call(app, { method: 'GET', url: '/api/chosen-card' }, guest)).body).toEqual({ code: 'TM_UNAUTHORIZED', message: SIGN_IN });
    // out of bounds signed out too
    expect((await choose(app, newJar(), 'x'.repeat(49))).status).toBe(400);
    expect((await ok(app, guest, 'GET', '/api/cards')).chosen).toBeUndefined();
  });

  it('a card she has not got, or a choice out of bounds, is refused in one sentence and changes nothing', async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar();
    const code = await ruthShares(app, ruth);
    await ok(app, edna, 'POST', '/api/account', { name: 'Edna', password: 'a long password' });
    await ok(app, edna, 'PUT', '/api/cards/mine', { text: CLUB });
    expect((await choose(app, edna, 'mine')).body).toEqual({ card: 'mine', kept: true });

    // a shared card not on her list, a code that opens nothing, a card she has not saved
    expect((await choose(app, edna, `shared:${code}`)).body).toEqual({ code: 'TM_NOT_FOUND', message: 'That shared card is not on your list of cards yet, so open it by its code first.' });
    expect((await choose(app, edna, 'shared:ZZZZZZZZ')).body).toEqual({ code: 'TM_NOT_FOUND', message: 'No shared card has the code ZZZZZZZZ; check the code with the person who gave it.' });
    expect((await choose(app, edna, 'nope')).body).toEqual({ code: 'TM_NOT_FOUND', message: 'You have no saved card named nope.' });
    // out of bounds: too long, not a name, not a string, a field too many, no body
    for (const card of ['x'.repeat(49), 'Not A Name', 'shared:', `shared:${'A'.repeat(21)}`, '../mine', 7, null, ['mine']]) {
      const r = await choose(app, edna, card);
      expect(r.status, JSON.stringify(card)).toBe(400);
      expect(r.body.code).toBe('TM_BAD_INPUT');
    }
    expect((await call(app, { method: 'PUT', url: '/api/chosen-card', payload: { card: 'mine', more: 1 } }, edna)).status).toBe(400);
    expect((await call(app, { method: 'PUT', url: '/api/chosen-card' }, edna)).status).toBe(400);
    expect(await chosen(app, edna)).toBe('mine');

    // her own shared card, chosen by its code, is kept by its own name
    expect((await choose(app, ruth, `shared:${code}`)).body).toEqual({ card: 'club', kept: true });
  });
});

describe('the chosen card in the store', () => {
  it('null until chosen, then the choice; each player her own (both databases, through the migrations)', async () => {
    const dir = dataDir();
    const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
    try {
      await migrate(db);
      const players = new PlayerStore(db);
      const [a, b] = [await players.guest(), await players.guest()];
      expect(await players.chosenCard(a.id)).toBeNull();
      await players.chooseCard(a.id, 'shared:K7MQ2PXR');
      await players.chooseCard(b.id, '');
      expect(await players.chosenCard(a.id)).toBe('shared:K7MQ2PXR');
      expect(await players.chosenCard(b.id)).toBe('');
      expect(await players.chosenCard('no-such-player')).toBeNull();
    } finally {
      await db.close();
    }
  });
});
