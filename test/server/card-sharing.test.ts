import { describe, expect, it } from 'vitest';
import { openDb } from '../../api/store/db.js';
import { migrate } from '../../api/store/migrations.js';
import { CardShareStore, newShareCode, SHARE_CODE } from '../../api/store/card-shares.js';
import { PlayerStore } from '../../api/store/players.js';
import { auth, call, databaseOf, dataDir, firstChoice, newJar, server, type Answer, type Jar } from './helpers.js';

/**
 * Share a card (issue 44): a saved card shared read-only by a short code. A second player opens
 * it by its code and plays with it, and cannot change it; she sees its owner's changes; the
 * code stops working when the owner stops sharing; a coach's shared card is offered to her
 * students; a table's host's card is the table's; a bad code is answered in plain words.
 */

type App = Awaited<ReturnType<typeof server>>;

/** Two small original cards (never a published League card). */
const CLUB = "card: Ruth's club card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";
const CLUB_2 = "card: Ruth's club card, spring\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Odds]\n11a 333a 5555a 777a 99a ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";

const signUp = async (app: App, jar: Jar, name: string) => {
  const r = await call(app, { method: 'POST', url: '/api/account', payload: { name, password: 'a long password' } }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};

const saveCard = async (app: App, jar: Jar, name: string, text: string) => {
  const r = await call(app, { method: 'PUT', url: `/api/cards/${name}`, payload: { text } }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

const share = async (app: App, jar: Jar, name: string): Promise<string> => {
  const r = await call(app, { method: 'POST', url: `/api/cards/${name}/share` }, jar);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.code;
};

const cardsOf = async (app: App, jar: Jar) =>
  (await call(app, { method: 'GET', url: '/api/cards' }, jar)).body.cards as { name: string; title: string; owner?: string; coach?: boolean; shared: boolean }[];

const ref = (code: string) => encodeURIComponent(`shared:${code}`);
const notFound = (code: string) => `No shared card has the code ${code}; check the code with the person who gave it.`;

describe('share a card', () => {
  it('a second player opens a shared card by its code and plays a game on it; she cannot change or delete it', async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar();
    await signUp(app, ruth, 'Ruth');
    await saveCard(app, ruth, 'club', CLUB);
    const shared = await call(app, { method: 'POST', url: '/api/cards/club/share' }, ruth);
    expect(shared.status).toBe(200);
    const { code } = shared.body;
    expect(code).toMatch(SHARE_CODE);
    expect(shared.body).toEqual({ code, reference: `shared:${code}`, link: `/shared-card.html?code=${code}`, name: 'club', title: "Ruth's club card" });
    // shared again: the same code
    expect(await share(app, ruth, 'club')).toBe(code);

    // Edna, with no account and no session, opens it by the code as she typed it (small letters, a space)
    const typed = `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`;
    const opened = await call(app, { method: 'GET', url: `/api/shared-cards/${encodeURIComponent(typed)}` }, edna);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({ code, reference: `shared:${code}`, title: "Ruth's club card", owner: 'Ruth', text: CLUB, yours: false, kept: false, coach: false });
    expect(opened.body.lines.map((l: any) => l.id)).toEqual(['Evens #1', 'Winds #1']);
    expect(opened.body.lines[0]).toMatchObject({ pattern: '22a 444a 6666a 888a FF', value: 25, concealed: false });
    expect(opened.body.lines[0].example.split(' ')).toHaveLength(14);
    expect(edna.size).toBe(0); // looking made her nothing

    // she plays a game on it by its reference, and a move in it
    const created = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 5, card: `shared:${code}` } }, edna);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const game = created.body as Answer;
    const panel = await call(app, { method: 'GET', url: `/api/games/${game.id}/card`, headers: auth(game.token!) }, edna);
    expect(panel.body.card).toBe("Ruth's club card");
    expect(panel.body.results.map((r: any) => r.id).sort()).toEqual(['Evens #1', 'Winds #1']);
    const moved = await call(app, { method: 'POST', url: `/api/games/${game.id}/actions`, headers: auth(game.token!), payload: { ...firstChoice(game), after: game.at } }, edna);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.at).toBeGreaterThan(game.at);

    // she reads its text as any saved card's, but cannot change or delete it
    expect((await call(app, { method: 'GET', url: `/api/cards/${ref(code)}` }, edna)).body).toEqual({ name: `shared:${code}`, text: CLUB });
    const put = await call(app, { method: 'PUT', url: `/api/cards/${ref(code)}`, payload: { text: CLUB_2 } }, edna);
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ code: 'TM_NOT_ALLOWED', message: `The card shared:${code} is shared by Ruth, so only she can change or delete it.` });
    const del = await call(app, { method: 'DELETE', url: `/api/cards/${ref(code)}` }, edna);
    expect(del.status).toBe(403);
    expect(del.body.code).toBe('TM_NOT_ALLOWED');
    // nor can she stop sharing it, or share it as hers
    expect((await call(app, { method: 'DELETE', url: '/api/cards/club/share' }, edna)).status).toBe(401);
    // Ruth's card is as she saved it, and still shared
    expect((await call(app, { method: 'GET', url: '/api/cards/club' }, ruth)).body.text).toBe(CLUB);
    expect((await call(app, { method: 'GET', url: '/api/card-shares' }, ruth)).body.shares).toEqual([
      { code, reference: `shared:${code}`, link: `/shared-card.html?code=${code}`, name: 'club', title: "Ruth's club card" },
    ]);
    // nor through the reference does the owner change it: her card is changed by its own name
    expect((await call(app, { method: 'PUT', url: `/api/cards/${ref(code)}`, payload: { text: CLUB_2 } }, ruth)).status).toBe(403);

    // Ruth changes her card: Edna sees the change, and a new game on it plays the new lines
    await saveCard(app, ruth, 'club', CLUB_2);
    const again = await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, edna);
    expect(again.body).toMatchObject({ title: "Ruth's club card, spring", text: CLUB_2 });
    expect(again.body.lines.map((l: any) => l.id)).toEqual(['Evens #1', 'Odds #1', 'Winds #1']);
    expect((await call(app, { method: 'GET', url: `/api/cards/${ref(code)}` }, edna)).body.text).toBe(CLUB_2);
    const second = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 6, card: `shared:${code}` } }, edna)).body as Answer;
    expect((await call(app, { method: 'GET', url: `/api/games/${second.id}/card`, headers: auth(second.token!) }, edna)).body.card).toBe("Ruth's club card, spring");
  });

  it("kept on her list it is chosen like her own cards, with its owner's name; a guest's kept cards stay hers when she signs in", async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar();
    await signUp(app, ruth, 'Ruth');
    await saveCard(app, ruth, 'club', CLUB);
    const code = await share(app, ruth, 'club');

    // Edna, a guest with a card of her own, keeps it
    await saveCard(app, edna, 'mine', CLUB_2);
    const kept = await call(app, { method: 'POST', url: `/api/shared-cards/${code}/keep` }, edna);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toEqual({ reference: `shared:${code}`, title: "Ruth's club card", owner: 'Ruth' });
    expect((await call(app, { method: 'POST', url: `/api/shared-cards/${code}/keep` }, edna)).status).toBe(200); // kept twice: once
    expect((await cardsOf(app, edna)).filter((c) => !c.shared || c.owner)).toEqual([
      { name: 'mine', title: "Ruth's club card, spring", lines: 3, chars: CLUB_2.length, shared: false },
      { name: `shared:${code}`, title: "Ruth's club card", lines: 2, chars: CLUB.length, shared: true, owner: 'Ruth', coach: false },
    ]);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, edna)).body.kept).toBe(true);
    // the owner's list holds her card once, by its name; she shares nothing of Edna's
    expect((await cardsOf(app, ruth)).filter((c) => !c.shared || c.owner).map((c) => c.name)).toEqual(['club']);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, ruth)).body).toMatchObject({ yours: true, name: 'club', kept: false, coach: false });
    expect((await call(app, { method: 'GET', url: '/api/card-shares' }, edna)).body.shares).toEqual([]);

    // Edna signs up on another device, keeps nothing there... then signs in here: the card she kept as a guest is still on her list
    const elsewhere = newJar();
    await signUp(app, elsewhere, 'Edna');
    await call(app, { method: 'POST', url: '/api/session', payload: { name: 'Edna', password: 'a long password' } }, edna);
    expect((await cardsOf(app, edna)).map((c) => c.name)).toContain(`shared:${code}`);
    expect((await cardsOf(app, elsewhere)).map((c) => c.name)).toContain(`shared:${code}`);

    // taken off her list, the card is Ruth's as before
    const off = await call(app, { method: 'DELETE', url: `/api/shared-cards/${code}/keep` }, edna);
    expect(off.body).toEqual({ forgotten: `shared:${code}` });
    expect((await cardsOf(app, edna)).map((c) => c.name)).not.toContain(`shared:${code}`);
    expect((await call(app, { method: 'DELETE', url: `/api/shared-cards/${code}/keep` }, edna)).body).toEqual({ code: 'TM_NOT_FOUND', message: `The shared card shared:${code} is not on your list.` });
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, edna)).status).toBe(200);
  });

  it('stopping sharing makes the code open nothing, and so does deleting the card; sharing again gives a new code', async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar();
    await signUp(app, ruth, 'Ruth');
    await saveCard(app, ruth, 'club', CLUB);
    const code = await share(app, ruth, 'club');
    expect((await call(app, { method: 'POST', url: `/api/shared-cards/${code}/keep` }, edna)).status).toBe(200);

    const stopped = await call(app, { method: 'DELETE', url: '/api/cards/club/share' }, ruth);
    expect(stopped.body).toEqual({ stopped: code, name: 'club' });
    const gone = await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, edna);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'TM_NOT_FOUND', message: notFound(code) });
    const game = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', card: `shared:${code}` } }, edna);
    expect(game.body).toEqual({ code: 'TM_NOT_FOUND', message: notFound(code) });
    const table = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'Edna', card: `shared:${code}` } }, edna);
    expect(table.body).toEqual({ code: 'TM_NOT_FOUND', message: notFound(code) });
    expect((await call(app, { method: 'GET', url: `/api/cards/${ref(code)}` }, edna)).status).toBe(404);
    expect((await cardsOf(app, edna)).map((c) => c.name)).not.toContain(`shared:${code}`);
    // her own card is still hers, unshared
    expect((await call(app, { method: 'GET', url: '/api/cards/club' }, ruth)).body.text).toBe(CLUB);
    expect((await call(app, { method: 'GET', url: '/api/card-shares' }, ruth)).body.shares).toEqual([]);
    expect((await call(app, { method: 'DELETE', url: '/api/cards/club/share' }, ruth)).body).toEqual({ code: 'TM_NOT_FOUND', message: 'Your card club is not shared.' });

    // shared again: a new code, the old one still opens nothing
    const fresh = await share(app, ruth, 'club');
    expect(fresh).not.toBe(code);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, edna)).status).toBe(404);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${fresh}` }, edna)).status).toBe(200);
    // deleted, the card takes its code with it
    expect((await call(app, { method: 'DELETE', url: '/api/cards/club' }, ruth)).status).toBe(200);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${fresh}` }, edna)).body).toEqual({ code: 'TM_NOT_FOUND', message: notFound(fresh) });
  });

  it("a coach's shared card is offered to her students by her name, and to nobody else", async () => {
    const app = await server();
    const rose = newJar(),
      ann = newJar(),
      thorn = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, ann, 'Ann');
    await signUp(app, thorn, 'Thorn');
    const invite = (await call(app, { method: 'POST', url: '/api/coach/invite' }, ann)).body;
    expect((await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: invite.code } }, rose)).body).toEqual({ student: 'Ann' });
    await saveCard(app, rose, 'lesson', CLUB);
    await saveCard(app, rose, 'private', CLUB_2);
    expect((await cardsOf(app, ann)).some((c) => c.owner)).toBe(false); // nothing shared yet
    const code = await share(app, rose, 'lesson');

    const offered = (await cardsOf(app, ann)).filter((c) => c.owner);
    expect(offered).toEqual([{ name: `shared:${code}`, title: "Ruth's club card", lines: 2, chars: CLUB.length, shared: true, owner: 'Rose', coach: true }]);
    expect((await cardsOf(app, thorn)).some((c) => c.owner)).toBe(false);
    expect((await cardsOf(app, rose)).some((c) => c.owner)).toBe(false);
    expect((await call(app, { method: 'GET', url: `/api/shared-cards/${code}` }, ann)).body).toMatchObject({ owner: 'Rose', yours: false, kept: false, coach: true });
    // Ann plays on it as she would on her own
    const g = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 9, card: `shared:${code}` } }, ann);
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    // her coach's card is hers to play, not to change
    expect((await call(app, { method: 'PUT', url: `/api/cards/${ref(code)}`, payload: { text: CLUB_2 } }, ann)).status).toBe(403);
    // Ann withdraws her coach: the offer goes with her
    expect((await call(app, { method: 'DELETE', url: '/api/coach/coaches/Rose' }, ann)).status).toBe(200);
    expect((await cardsOf(app, ann)).some((c) => c.owner)).toBe(false);
  });

  it("a table's host's card is the table's: a person who joins plays and reads the card panel on it; a table opens on a shared card too", async () => {
    const app = await server();
    const ruth = newJar(),
      edna = newJar();
    await signUp(app, ruth, 'Ruth');
    await saveCard(app, ruth, 'club', CLUB);
    const opened = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'Ruth', card: 'club' } }, ruth);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const joined = await call(app, { method: 'POST', url: `/api/tables/${opened.body.code}/join`, payload: { name: 'Edna' } }, edna);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect((await call(app, { method: 'POST', url: `/api/tables/${opened.body.code}/start`, headers: auth(opened.body.token), payload: { fill: 'easy' } }, ruth)).status).toBe(200);
    // Edna has no card named club, and needs none: the table's card is its host's
    expect((await call(app, { method: 'GET', url: '/api/cards/club' }, edna)).status).toBe(404);
    const panel = await call(app, { method: 'GET', url: `/api/tables/${opened.body.code}/card`, headers: auth(joined.body.token) }, edna);
    expect(panel.status, JSON.stringify(panel.body)).toBe(200);
    expect(panel.body.card).toBe("Ruth's club card");
    expect(panel.body.results.map((r: any) => r.id).sort()).toEqual(['Evens #1', 'Winds #1']);

    // Edna opens a table of her own on the card Ruth shares
    const code = await share(app, ruth, 'club');
    const hers = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'Edna', card: `shared:${code}` } }, edna);
    expect(hers.status, JSON.stringify(hers.body)).toBe(201);
    expect((await call(app, { method: 'GET', url: `/api/tables/${hers.body.code}` }, newJar())).body.card).toBe("Ruth's club card");
  });

  it('a bad code, or sharing what she may not, is answered in one plain sentence and changes nothing', async () => {
    const app = await server();
    const ruth = newJar(),
      guest = newJar();
    for (const [typed, message] of [
      ['ABC123', notFound('ABC123')],
      ['abc-123', notFound('ABC123')],
      ['K7MQ2PXR', notFound('K7MQ2PXR')],
      ['<b>', 'No shared card has that code; check the code with the person who gave it.'],
    ] as const) {
      const r = await call(app, { method: 'GET', url: `/api/shared-cards/${encodeURIComponent(typed)}` }, guest);
      expect({ typed, status: r.status, body: r.body }).toEqual({ typed, status: 404, body: { code: 'TM_NOT_FOUND', message } });
    }
    expect((await call(app, { method: 'POST', url: '/api/shared-cards/ABC123/keep' }, guest)).body).toEqual({ code: 'TM_NOT_FOUND', message: notFound('ABC123') });
    expect(guest.size).toBe(0); // a refused keep made no guest
    expect((await call(app, { method: 'POST', url: '/api/games', payload: { card: 'shared:zz' } }, guest)).body).toEqual({ code: 'TM_NOT_FOUND', message: notFound('ZZ') });
    expect((await call(app, { method: 'PUT', url: `/api/cards/${ref('ABC123')}`, payload: { text: CLUB } }, guest)).body).toEqual({ code: 'TM_NOT_FOUND', message: notFound('ABC123') });
    const malformed = await call(app, { method: 'POST', url: '/api/games', payload: { card: 'shared:' } }, guest);
    expect(malformed.body.code).toBe('TM_BAD_INPUT');

    // a guest shares nothing (a shared card shows its owner's name); nobody shares a card she has not saved
    await saveCard(app, guest, 'mine', CLUB);
    expect((await call(app, { method: 'POST', url: '/api/cards/mine/share' }, guest)).body).toEqual({
      code: 'TM_UNAUTHORIZED',
      message: 'Sign in first: a shared card shows the name of the player who shares it.',
    });
    await signUp(app, ruth, 'Ruth');
    expect((await call(app, { method: 'POST', url: '/api/cards/mine/share' }, ruth)).body).toEqual({ code: 'TM_NOT_FOUND', message: 'You have no saved card named mine.' });
    expect((await call(app, { method: 'POST', url: '/api/cards/Not%20A%20Name/share' }, ruth)).body.code).toBe('TM_BAD_INPUT');
    expect((await call(app, { method: 'GET', url: '/api/card-shares' }, ruth)).body.shares).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/card-shares' }, newJar())).body.shares).toEqual([]);
  });
});

describe('the share store', () => {
  it('codes are 8 characters without look-alikes; a player keeps a bounded number of shared cards; her own card is never a bookmark', async () => {
    for (let i = 0; i < 200; i++) expect(newShareCode()).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const dir = dataDir();
    const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
    try {
      await migrate(db);
      const players = new PlayerStore(db),
        shares = new CardShareStore(db);
      const [ruth, bea, edna] = [await players.guest(), await players.guest(), await players.guest()];
      await players.saveCard(ruth.id, 'a', CLUB, 20);
      await players.saveCard(bea.id, 'b', CLUB_2, 20);
      const a = (await shares.share(ruth.id, 'a'))!,
        b = (await shares.share(bea.id, 'b'))!;
      expect(a.isNew && b.isNew).toBe(true);
      expect(await shares.share(ruth.id, 'no-such')).toBeNull();
      expect(await shares.keep(edna.id, a.code, 1)).toBe(true);
      await expect(shares.keep(edna.id, b.code, 1)).rejects.toMatchObject({ code: 'TM_TOO_MANY_CARDS', message: 'you keep 1 shared card on your list, the most one player may; take one off first' });
      expect(await shares.keep(edna.id, a.code, 1)).toBe(true); // the one she keeps, kept again
      expect(await shares.keep(ruth.id, a.code, 1)).toBe(true);
      expect((await shares.offered(ruth.id, 10)).map((c) => c.code)).toEqual([]);
      expect((await shares.offered(edna.id, 10)).map((c) => c.code)).toEqual([a.code]);
      expect(await shares.keep(edna.id, 'NOTACODE', 1)).toBe(false);
      expect(await shares.open('abc')).toBeNull();
    } finally {
      await db.close();
    }
  });
});
