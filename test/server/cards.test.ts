import { describe, expect, it } from 'vitest';
import { loadCard, readCardText } from '../../io/cards.js';
import { lineForms } from '../../engine/mah-jongg/compile.js';
import { call, dataDir, newJar, server } from './helpers.js';

/** The player's own cards: checked as typed, saved as hers, bounded. */

const app = await server();
const GOOD = 'card: My Card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n';

describe('POST /api/cards/check', () => {
  it('a good card: every line with its forms and an example winning hand of 14 tiles', async () => {
    const r = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text: readCardText() } });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.errors).toEqual([]);
    const cc = loadCard();
    expect(r.body.lines).toHaveLength(cc.lineCount);
    r.body.lines.forEach((l: any, i: number) => {
      expect(l.id).toBe(cc.card.lines[i].id);
      expect(l.forms).toBe(lineForms(cc.card.lines[i]).length);
      expect(l.example.split(' ')).toHaveLength(14);
    });
  });

  it('every bad line is named with its line number and token, and the good lines still counted', async () => {
    const text = 'card: Oops\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n22a 44q 6666a 888a FF ; x 25\n22a 444a 6666a ; x 25\n';
    const r = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text } });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.errors.map((e: any) => e.line)).toEqual([4, 5]);
    expect(r.body.errors[0].token).toBe('44q');
    expect(r.body.errors[0].message).toMatch(/card line 4: "44q": "q" is not/);
    expect(r.body.lines.map((l: any) => [l.id, l.fileLine])).toEqual([['Evens #1', 3]]);
    expect(r.body.errors[1].message).toMatch(/card line 5: the line holds 9 tiles/);
  });

  it('a line with too many forms is refused before anything is enumerated; bad input is refused', async () => {
    const many =
      'card: Many\n[Any]\n1111a|2222a|3333a|4444a|5555a|6666a|7777a|8888a|9999a 1111b|2222b|3333b|4444b|5555b|6666b|7777b|8888b|9999b 111c|222c|333c|444c|555c|666c|777c|888c|999c 111a|222a|333a|444a|555a|666a|777a|888a|999a ; x 25\n';
    const r = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text: many } });
    expect(r.body.ok).toBe(false);
    expect(r.body.errors[0]).toMatchObject({ line: 3 });
    expect(r.body.errors[0].message).toMatch(/concrete forms/);
    const long = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text: 'x'.repeat(20_001) } });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('TM_BAD_INPUT');
    const none = await call(app, { method: 'POST', url: '/api/cards/check', payload: { text: '// nothing\n' } });
    expect(none.body.errors[0].message).toMatch(/no lines/);
  });
});

describe('saved cards', () => {
  it('save, list, read back, replace and delete; another person neither sees nor changes it', async () => {
    const put = await call(app, { method: 'PUT', url: '/api/cards/my-card', payload: { text: GOOD } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ name: 'my-card', title: 'My Card', lines: 2 });
    const list = await call(app, { method: 'GET', url: '/api/cards' });
    expect(list.body.cards).toEqual([{ name: 'my-card', title: 'My Card', lines: 2, chars: GOOD.length, shared: false }]);
    const other = newJar();
    expect((await call(app, { method: 'GET', url: '/api/cards' }, other)).body.cards).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/cards/my-card' }, other)).status).toBe(404);
    expect((await call(app, { method: 'DELETE', url: '/api/cards/my-card' }, other)).status).toBe(404);
    expect((await call(app, { method: 'PUT', url: '/api/cards/my-card', payload: { text: GOOD.replace('My Card', 'Hers') } }, other)).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/cards/my-card' })).body.text).toBe(GOOD);
    const got = await call(app, { method: 'GET', url: '/api/cards/my-card' });
    expect(got.body.text).toBe(GOOD);
    // the saved text works as a posted card for the analyzer
    const a = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F', card: got.body.text } });
    expect(a.body.card).toBe('My Card');
    expect(a.body.results[0]).toMatchObject({ id: 'Evens #1', tilesAway: 0 });
    const del = await call(app, { method: 'DELETE', url: '/api/cards/my-card' });
    expect(del.status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/cards/my-card' })).body.code).toBe('TM_NOT_FOUND');
    expect((await call(app, { method: 'GET', url: '/api/cards/my-card' }, other)).body.text).toMatch(/^card: Hers/);
  });

  it('a card with a bad line, a bad name or a body too long is refused and nothing is written', async () => {
    const bad = await call(app, { method: 'PUT', url: '/api/cards/oops', payload: { text: 'card: X\n[S]\n22a 44q ; x 25\n' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_CARD_SYNTAX');
    expect(bad.body.message).toMatch(/card line 3/);
    const empty = await call(app, { method: 'PUT', url: '/api/cards/empty', payload: { text: '// nothing yet\n' } });
    expect(empty.body).toMatchObject({ code: 'TM_CARD_EMPTY', message: 'the card has no lines' });
    for (const name of ['../evil', 'Has Space', 'UPPER', 'a'.repeat(41), '.hidden']) {
      const r = await call(app, { method: 'PUT', url: `/api/cards/${encodeURIComponent(name)}`, payload: { text: GOOD } });
      expect(r.status, name).toBeGreaterThanOrEqual(400);
      expect(['TM_BAD_INPUT', 'TM_NOT_FOUND'], name).toContain(r.body.code);
    }
    const long = await call(app, { method: 'PUT', url: '/api/cards/long', payload: { text: `${GOOD}//${'x'.repeat(20_000)}` } });
    expect(long.body.code).toBe('TM_BAD_INPUT');
    expect((await call(app, { method: 'GET', url: '/api/cards' })).body.cards).toEqual([]);
  });

  it('at most maxCards are kept for one player: one more is refused with TM_TOO_MANY_CARDS, replacing one still works, another player has her own', async () => {
    const small = await server({}, dataDir());
    // the default limit, 20 cards
    for (let i = 0; i < 20; i++) expect((await call(small, { method: 'PUT', url: `/api/cards/c${i}`, payload: { text: GOOD } })).status).toBe(200);
    const over = await call(small, { method: 'PUT', url: '/api/cards/one-more', payload: { text: GOOD } });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('TM_TOO_MANY_CARDS');
    expect((await call(small, { method: 'PUT', url: '/api/cards/c3', payload: { text: GOOD } })).status).toBe(200);
    expect((await call(small, { method: 'GET', url: '/api/cards' })).body.cards).toHaveLength(20);
    expect((await call(small, { method: 'PUT', url: '/api/cards/one-more', payload: { text: GOOD } }, newJar())).status).toBe(200);
  });
});

describe('a game on a saved card', () => {
  it('POST /api/games with "card" plays on it: the Card panel, the hint and a restarted server use it', async () => {
    const d = dataDir();
    const first = await server({}, d);
    expect((await call(first, { method: 'PUT', url: '/api/cards/my-card', payload: { text: GOOD } })).status).toBe(200);
    const g = await call(first, { method: 'POST', url: '/api/games', payload: { card: 'my-card', seed: 5, level: 'easy' } });
    expect(g.status).toBe(201);
    const headers = { authorization: `Bearer ${g.body.token}` };
    const card = await call(first, { method: 'GET', url: `/api/games/${g.body.id}/card`, headers });
    expect(card.body.card).toBe('My Card');
    expect(card.body.results.map((r: any) => r.id).sort()).toEqual(['Evens #1', 'Winds #1']);
    const hint = await call(first, { method: 'POST', url: `/api/games/${g.body.id}/hint`, headers, payload: {} });
    expect(hint.status).toBe(200);
    expect(hint.body.kind).toBe('charleston');
    for (const k of hint.body.advice.keeps) expect(['Evens #1', 'Winds #1']).toContain(k.id);
    // the server's own card is still the default
    const plain = await call(first, { method: 'POST', url: '/api/games', payload: { seed: 5 } });
    const plainCard = await call(first, { method: 'GET', url: `/api/games/${plain.body.id}/card`, headers: { authorization: `Bearer ${plain.body.token}` } });
    expect(plainCard.body.card).toBe('Tilemate Practice Card 2026');
    // another person cannot start a game on her card
    expect((await call(first, { method: 'POST', url: '/api/games', payload: { card: 'my-card' } }, newJar())).status).toBe(404);
    await first.close();
    // taken up again after a restart, on the card it was played on
    const again = await server({}, d);
    const back = await call(again, { method: 'GET', url: `/api/games/${g.body.id}/card`, headers });
    expect(back.status).toBe(200);
    expect(back.body.card).toBe('My Card');
  });

  it('an unknown or malformed card name is refused', async () => {
    const none = await call(app, { method: 'POST', url: '/api/games', payload: { card: 'nope' } });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'TM_NOT_FOUND', message: 'no saved card named nope' });
    const bad = await call(app, { method: 'POST', url: '/api/games', payload: { card: '../x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_BAD_INPUT');
  });
});
