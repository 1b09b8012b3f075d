import { describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../api/shared/limits.js';
import { auth, call, dataDir, firstChoice, newJar, playThrough, server, type Answer, signUp } from './helpers.js';

/**
 * Accounts: a guest plays at once and keeps her games when she signs up; sign in, sign out,
 * change the password; sign-in attempts limited; and a player's games, cards and records are
 * hers alone: every route is tried with another player's session.
 */

const CARD = "card: Rose's card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n";

describe('accounts', () => {
  it('a guest plays at once; signing up keeps her finished game, her game in play and her card; sessions are HttpOnly SameSite cookies', async () => {
    const app = await server();
    const rose = newJar();
    expect((await call(app, { method: 'GET', url: '/api/me' }, rose)).body).toEqual({ signedIn: false, guest: false, name: null });
    const created = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 40 } }, rose);
    expect(created.status).toBe(201);
    const cookie = String(created.headers['set-cookie']);
    expect(cookie).toMatch(/tm_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    await playThrough(app, created.body);
    const playing = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { seed: 40 } }, rose)).body;
    expect((await call(app, { method: 'PUT', url: '/api/cards/roses', payload: { text: CARD } }, rose)).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/me' }, rose)).body).toEqual({ signedIn: false, guest: true, name: null });

    const up = await signUp(app, rose, 'Rose');
    expect(up.status).toBe(201);
    expect(up.body).toEqual({ signedIn: true, guest: false, name: 'Rose' });
    const records = (await call(app, { method: 'GET', url: '/api/records' }, rose)).body.records;
    expect(records.map((r: any) => r.id)).toEqual([created.body.id]);
    expect((await call(app, { method: 'GET', url: '/api/cards' }, rose)).body.cards.map((c: any) => c.name)).toEqual(['roses']);
    expect((await call(app, { method: 'GET', url: `/api/domino/games/${playing.id}`, headers: auth(playing.token) }, rose)).status).toBe(200);

    // signed out, this browser sees none of it; signed in again, all of it
    expect((await call(app, { method: 'DELETE', url: '/api/session' }, rose)).body.signedIn).toBe(false);
    expect((await call(app, { method: 'GET', url: '/api/records' }, rose)).body.records).toEqual([]);
    const back = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'rose', password: 'a long password' } }, rose);
    expect(back.status).toBe(200);
    expect(back.body.name).toBe('Rose');
    expect((await call(app, { method: 'GET', url: '/api/records' }, rose)).body.records).toHaveLength(1);
  });

  it('sign in on a device where she played as a guest takes those games in; a taken name, a wrong password and a short password are refused in plain words', async () => {
    const app = await server();
    const first = newJar();
    expect((await signUp(app, first, 'Lily')).status).toBe(201);
    expect((await call(app, { method: 'DELETE', url: '/api/session' }, first)).status).toBe(200);
    const taken = await signUp(app, newJar(), 'LILY');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'TM_NAME_TAKEN', message: expect.stringMatching(/taken/) });
    const short = await call(app, { method: 'POST', url: '/api/account', payload: { name: 'Iris', password: 'short' } }, newJar());
    expect(short.status).toBe(400);
    const wrong = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Lily', password: 'not the password' } }, newJar());
    const unknown = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Nobody', password: 'not the password' } }, newJar());
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body); // the answer does not say which names exist

    // a guest's game on another device, then she signs in there
    const tablet = newJar();
    const g = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 41 } }, tablet)).body as Answer;
    await playThrough(app, g);
    expect((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Lily', password: 'a long password' } }, tablet)).status).toBe(200);
    const mine = newJar();
    expect((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Lily', password: 'a long password' } }, mine)).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/records' }, mine)).body.records.map((r: any) => r.id)).toEqual([g.id]);
  });

  it('changing the password needs the old one and signs out her other browsers', async () => {
    const app = await server();
    const phone = newJar(),
      desk = newJar();
    await signUp(app, phone, 'Daisy');
    expect((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Daisy', password: 'a long password' } }, desk)).status).toBe(200);
    const bad = await call(app, { method: 'PUT', url: '/api/account/password', payload: { old: 'wrong password', password: 'a newer password' } }, phone);
    expect(bad.status).toBe(401);
    const ok = await call(app, { method: 'PUT', url: '/api/account/password', payload: { old: 'a long password', password: 'a newer password' } }, phone);
    expect(ok.status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/me' }, phone)).body.name).toBe('Daisy');
    expect((await call(app, { method: 'GET', url: '/api/me' }, desk)).body.signedIn).toBe(false);
    expect((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Daisy', password: 'a long password' } }, newJar())).status).toBe(401);
    expect((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Daisy', password: 'a newer password' } }, newJar())).status).toBe(200);
    const guest = await call(app, { method: 'PUT', url: '/api/account/password', payload: { old: 'x', password: 'a newer password' } }, newJar());
    expect(guest.status).toBe(401);
  });

  it(`sign-in attempts are limited: ${SIGN_IN_LIMITS.perName} a minute for one name, whatever the address`, async () => {
    const app = await server({ ratePerMinute: 0 });
    await signUp(app, newJar(), 'Violet');
    const tries: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.perName + 1; i++) {
      tries.push((await call(app, { method: 'POST', url: '/api/session', payload: { name: 'VIOLET', password: `guess number ${i}` }, remoteAddress: `10.0.0.${i + 1}` }, newJar())).status);
    }
    expect(tries).toEqual([...new Array<number>(SIGN_IN_LIMITS.perName).fill(401), 429]);
    // the right password is refused too until the minute is over: the limit is on the name
    const right = await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Violet', password: 'a long password' }, remoteAddress: '10.0.1.1' }, newJar());
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/too many sign-in attempts/);
  });
});

describe("a player's games, cards and records are hers", () => {
  it("every route, tried with another player's session, neither reads, changes nor deletes them", async () => {
    const dir = dataDir();
    const app = await server({}, dir);
    const rose = newJar(),
      thief = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, thief, 'Thorn');
    const done = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 42 } }, rose)).body as Answer;
    await playThrough(app, done);
    const live = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 43 } }, rose)).body as Answer;
    const train = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { seed: 43 } }, rose)).body as Answer;
    await call(app, { method: 'PUT', url: '/api/cards/roses', payload: { text: CARD } }, rose);
    const before = {
      records: (await call(app, { method: 'GET', url: '/api/records' }, rose)).body,
      record: (await call(app, { method: 'GET', url: `/api/records/${done.id}` }, rose)).body,
      live: (await call(app, { method: 'GET', url: `/api/games/${live.id}?since=0`, headers: auth(live.token!) }, rose)).body,
      train: (await call(app, { method: 'GET', url: `/api/domino/games/${train.id}?since=0`, headers: auth(train.token!) }, rose)).body,
      cards: (await call(app, { method: 'GET', url: '/api/cards' }, rose)).body,
    };

    // every route of the API, with her ids in its path and the thief's session (no game token)
    const doc = (await call(app, { method: 'GET', url: '/docs/json' })).body as { paths: Record<string, Record<string, unknown>> };
    const tried: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (path === '/api/session' || path === '/api/account') continue; // his own sign-in and sign-up
        const variants = path.includes('{id}') ? [live.id, train.id, done.id].map((id) => path.replace('{id}', id)) : [path.replace('{name}', 'roses')];
        for (const url of variants) {
          const payload =
            method === 'get' || method === 'delete'
              ? undefined
              : path.startsWith('/api/cards/{name}')
                ? { text: "card: Thorn's\n[S]\n22a 444a 6666a 888a FF ; x 25\n" }
                : path.endsWith('/actions')
                  ? { ...firstChoice(before.live), after: before.live.at }
                  : path === '/api/review'
                    ? { recordId: done.id, seat: 0 }
                    : path === '/api/games'
                      ? { card: 'roses' }
                      : {};
          const r = await call(app, { method: method.toUpperCase() as 'GET', url, ...(payload !== undefined ? { payload } : {}) }, thief);
          tried.push(`${method} ${url} ${r.status}`);
          const text = JSON.stringify(r.body);
          // nothing of hers comes back: not her record, her card, her rack or her game
          expect(text.includes(done.id) && r.status < 300, `${method} ${url}`).toBe(false);
          expect(text.includes("Rose's card"), `${method} ${url}`).toBe(false);
        }
      }
    }
    expect(tried.length).toBeGreaterThan(20);
    console.log(`another player's session: ${tried.length} requests over every route, none read, changed or deleted her games, cards or records`);
    // his own card of the same name is his: hers is as it was
    const after = {
      records: (await call(app, { method: 'GET', url: '/api/records' }, rose)).body,
      record: (await call(app, { method: 'GET', url: `/api/records/${done.id}` }, rose)).body,
      live: (await call(app, { method: 'GET', url: `/api/games/${live.id}?since=0`, headers: auth(live.token!) }, rose)).body,
      train: (await call(app, { method: 'GET', url: `/api/domino/games/${train.id}?since=0`, headers: auth(train.token!) }, rose)).body,
      cards: (await call(app, { method: 'GET', url: '/api/cards' }, rose)).body,
    };
    expect(after).toEqual(before);
    // and the lists the thief gets are his own
    expect((await call(app, { method: 'GET', url: '/api/records' }, thief)).body.records).toEqual([]);
    expect((await call(app, { method: 'GET', url: `/api/records/${done.id}?format=jsonl` }, thief)).status).toBe(404);
  });
});
