import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { MEXICAN_TRAIN } from '../../engine/domino/mexican-train.js';
import { replayRecord } from '../../engine/record.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await build({ dataDir: mkdtempSync(join(tmpdir(), 'tilemate-domino-http-')), limits: { ratePerMinute: 0 }, webDir: null });
});
afterAll(async () => {
  await app.close();
});

/** One browser: the session cookie the first new game sets is sent with every request after it. */
let cookie = '';
const remember = (res: Awaited<ReturnType<FastifyInstance['inject']>>) => {
  const set = res.cookies.find((c) => c.name === 'tm_session');
  if (set) cookie = `tm_session=${set.value}`;
  return res;
};
const headersOf = (token?: string) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), ...(cookie ? { cookie } : {}) });
const post = async (url: string, body: unknown, token?: string) => remember(await app.inject({ method: 'POST', url, payload: body as object, headers: headersOf(token) }));
const get = async (url: string, token?: string) => remember(await app.inject({ method: 'GET', url, headers: headersOf(token) }));

describe('/api/domino', () => {
  it("creates a game against bots; the answer is the seat's view, its legal actions and the bots' moves", async () => {
    const res = await post('/api/domino/games', { ruleset: 'district', players: 4, seat: 2, bots: ['greedy', 'random', 'greedy'], seed: 7, round: 0 });
    expect(res.statusCode).toBe(201);
    const g = res.json();
    expect(g.seats).toEqual(['greedy', 'random', 'human', 'greedy']);
    expect(g.view.seat).toBe(2);
    expect(g.view.hand.length).toBeGreaterThan(0);
    expect(g.view.engine).toBe('5-5');
    expect(JSON.stringify(g)).not.toMatch(/"hands"|"boneyardTiles"|"rng"/);
    if (g.view.phase === 'play') {
      expect(g.view.turn).toBe(2);
      expect(g.legal.length).toBeGreaterThan(0);
    }
  });

  it('plays a whole round through the API, and refuses a bad action with {code, message} and no change', async () => {
    const g = (await post('/api/domino/games', { players: 2, seed: 3, round: 0, bots: ['greedy'] })).json();
    const { id, token } = g;
    let ans = g;
    const bad = await post(`/api/domino/games/${id}/actions`, { type: 'play', tile: '0-0', train: 'mexican' }, token);
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect(Object.keys(bad.json())).toEqual(['code', 'message']);
    const same = (await get(`/api/domino/games/${id}`, token)).json();
    expect(same.view).toEqual(ans.view);
    for (let i = 0; i < 300 && ans.view.phase === 'play'; i++) {
      const res = await post(`/api/domino/games/${id}/actions`, ans.legal[0], token);
      expect(res.statusCode).toBe(200);
      ans = res.json();
    }
    expect(ans.view.phase).toBe('ended');
    expect(ans.view.result.totals).toHaveLength(2);
    expect(ans.view.reveal.seed).toBe(3);
    const over = await post(`/api/domino/games/${id}/actions`, { type: 'pass' }, token);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('TM_GAME_OVER');
    // the finished game is a record, listed with the Mah Jongg games and replayed as one
    expect(ans.recordId).toBe(id);
    const listed = (await get('/api/records')).json().records.find((r: { id: string }) => r.id === id);
    expect(listed).toMatchObject({ game: 'mexican-train', ruleset: 'sun-lakes', seed: 3, seats: ['human', 'greedy'], scores: ans.view.result.totals });
    const text = (await get(`/api/records/${id}`)).json().text;
    const replay = replayRecord(text, { type: MEXICAN_TRAIN });
    expect(replay.state.result).toEqual(ans.view.result);
  });

  it("an action naming another seat than the token's is refused and changes nothing", async () => {
    const g = (await post('/api/domino/games', { players: 2, seed: 3, round: 0, bots: ['greedy'] })).json();
    const wrong = await post(`/api/domino/games/${g.id}/actions`, { ...g.legal[0], seat: 1 - g.seat }, g.token);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('TM_NOT_YOUR_TURN');
    expect((await get(`/api/domino/games/${g.id}`, g.token)).json().at).toBe(g.at);
  });

  it('a game opens only with its token', async () => {
    const g = (await post('/api/domino/games', { players: 3, seed: 1 })).json();
    expect((await get(`/api/domino/games/${g.id}`)).json().code).toBe('TM_UNAUTHORIZED');
    expect((await get(`/api/domino/games/${g.id}`, 'nope')).json().code).toBe('TM_NOT_FOUND');
    expect((await get(`/api/domino/games/${g.id}`, g.token)).statusCode).toBe(200);
  });

  it('refuses bad creation requests with 4xx codes', async () => {
    expect((await post('/api/domino/games', { players: 9 })).json().code).toBe('TM_BAD_INPUT');
    expect((await post('/api/domino/games', { ruleset: 'nmjl-4p' })).json().message).toMatch(/no Mexican Train ruleset/);
    expect((await post('/api/domino/games', { bots: ['clever'] })).json().message).toMatch(/unknown Mexican Train bot/);
    expect((await post('/api/domino/games', { players: '4' })).statusCode).toBe(400);
  });

  it("a hint needs the game's token, suggests one of the legal actions, and plans only with the seat's own tiles", async () => {
    const g = (await post('/api/domino/games', { ruleset: 'sun-lakes', players: 3, bots: ['greedy'], seed: 11, round: 0 })).json();
    const { id, token } = g;
    const noToken = await post(`/api/domino/games/${id}/hint`, {});
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toEqual({ code: 'TM_UNAUTHORIZED', message: expect.any(String) });
    expect((await post(`/api/domino/games/${id}/hint`, {}, 'not-the-token')).json().code).toBe('TM_NOT_FOUND');
    expect((await post(`/api/domino/games/${id}/hint`, { worlds: 'many' }, token)).statusCode).toBe(400);
    expect((await post(`/api/domino/games/${id}/hint`, { worlds: 999 }, token)).json().code).toBe('TM_BAD_INPUT');
    // with no body at all, as with {}
    const bare = await app.inject({ method: 'POST', url: `/api/domino/games/${id}/hint`, headers: { authorization: `Bearer ${token}` } });
    expect(bare.statusCode).toBe(200);
    let ans = g;
    let hints = 0;
    for (let i = 0; i < 300 && ans.view.phase === 'play'; i++) {
      const res = await post(`/api/domino/games/${id}/hint`, {}, token);
      expect(res.statusCode).toBe(200);
      const hint = res.json();
      hints++;
      expect(Object.keys(hint).sort()).toEqual(['ownEnd', 'path', 'suggest']);
      expect(ans.legal).toContainEqual(hint.suggest);
      // every tile it names is the seat's own: the hint never shows another hand or the boneyard
      const hand = new Set<string>(ans.view.hand);
      if (hint.suggest.tile !== undefined) expect(hand.has(hint.suggest.tile)).toBe(true);
      for (const t of hint.path) expect(hand.has(t)).toBe(true);
      expect(hint.ownEnd).toBe(ans.view.trains[0].end);
      // asking changes nothing
      expect((await get(`/api/domino/games/${id}`, token)).json().view).toEqual(ans.view);
      const next = await post(`/api/domino/games/${id}/actions`, hint.suggest, token);
      expect(next.statusCode).toBe(200);
      ans = next.json();
    }
    expect(hints).toBeGreaterThan(0);
    expect(ans.view.phase).toBe('ended');
    const over = await post(`/api/domino/games/${id}/hint`, {}, token);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('TM_GAME_OVER');
  });

  it('a hint is the advice on the table the seat sees: /advise on the same described table answers the same', async () => {
    const g = (await post('/api/domino/games', { ruleset: 'district', players: 4, bots: ['greedy'], seed: 5, round: 0 })).json();
    const v = g.view;
    const trains: Record<string, string> = {};
    for (const t of v.trains) if (t.tiles.length) trains[String(t.train)] = t.tiles.join(' ');
    const table = {
      ruleset: v.ruleset,
      players: v.players,
      seat: v.seat,
      engine: Number(v.engine.split('-')[0]),
      trains,
      marked: v.trains.filter((t: { train: number | string; marked: boolean }) => t.marked && t.train !== 'mexican').map((t: { train: number }) => t.train),
      handCounts: v.handCounts,
      boneyard: v.boneyard,
      openDoubles: v.openDoubles,
    };
    const hint = (await post(`/api/domino/games/${g.id}/hint`, {}, g.token)).json();
    const advice = (await post('/api/domino/advise', { hand: v.hand.join(' '), state: table })).json();
    expect(hint).toEqual(advice);
    // valued by playouts in sampled worlds: every play offered is a legal one
    const valued = (await post(`/api/domino/games/${g.id}/hint`, { worlds: 4, seed: 2 }, g.token)).json();
    if (g.legal.length > 1) {
      expect(valued.candidates.length).toBe(g.legal.length);
      for (const c of valued.candidates) expect(g.legal).toContainEqual(c.action);
    }
    expect(g.legal).toContainEqual(valued.suggest);
  });

  it('advises on a described table: the suggested play and the planned path', async () => {
    const res = await post('/api/domino/advise', { hand: '5-3 3-3 3-9 9-1 11-11 0-4', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' }, marked: [2], handCounts: [6, 8, 9, 10] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ suggest: { type: 'play', seat: 0, tile: '5-3', train: 0 }, path: ['5-3', '3-3', '9-3', '9-1'], ownEnd: 5 });
    const mc = (await post('/api/domino/advise', { hand: '5-3 3-3 3-9 9-1 11-11 0-4', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' } }, worlds: 6 })).json();
    expect(mc.candidates.length).toBeGreaterThan(1);
    const dup = await post('/api/domino/advise', { hand: '12-5 4-4', state: { players: 4, trains: { 0: '12-5' } } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().code).toBe('TM_DUPLICATE_TILE');
    expect((await post('/api/domino/advise', { hand: '1-1', state: { players: 4 }, worlds: 999 })).json().code).toBe('TM_BAD_INPUT');
  });
});
