import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../api/app.js';

let app: FastifyInstance;
beforeAll(async () => { app = await build({ dataDir: mkdtempSync(join(tmpdir(), 'tilemate-domino-http-')), limits: { ratePerMinute: 0 }, webDir: null }); });
afterAll(async () => { await app.close(); });

const post = (url: string, body: unknown, token?: string) => app.inject({ method: 'POST', url, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('/api/domino', () => {
  it('creates a game against bots; the answer is the seat\'s view, its legal actions and the bots\' moves', async () => {
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
