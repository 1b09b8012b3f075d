import { describe, expect, it } from 'vitest';
import { nextInt, seedRng } from '../../engine/rng.js';
import { auth, call, firstChoice, playThrough, server, type Answer } from './helpers.js';

const app = await server({ bodyLimit: 64 * 1024 });

async function create(payload: object = { level: 'random', seed: 1 }): Promise<Answer> {
  const r = await call(app, { method: 'POST', url: '/api/games', payload });
  expect(r.status).toBe(201);
  return r.body;
}

const get = async (g: Answer) => (await call(app, { method: 'GET', url: `/api/games/${g.id}?since=0`, headers: auth(g.token!) })).body;
const act = (g: Answer, payload: unknown, headers: Record<string, string> = auth(g.token!)) =>
  call(app, {
    method: 'POST',
    url: `/api/games/${g.id}/actions`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

/** The request is refused with a 4xx JSON error of this code, and the game is as it was. */
async function refusedUnchanged(g: Answer, payload: unknown, code: string, status: number, headers?: Record<string, string>) {
  const before = await get(g);
  const r = await act(g, payload, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toEqual({ code, message: expect.any(String) });
  expect(await get(g)).toEqual(before);
}

describe('server reliability: bad requests are 4xx {code, message} and change nothing', () => {
  it('malformed JSON is TM_BAD_JSON on every route that takes a body', async () => {
    const g = await create();
    for (const url of ['/api/analyze', '/api/charleston', '/api/advice', '/api/games', `/api/games/${g.id}/actions`, `/api/games/${g.id}/hint`, '/api/review']) {
      const r = await call(app, { method: 'POST', url, headers: { 'content-type': 'application/json', ...auth(g.token!) }, payload: '{"hand": "1B' });
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe('TM_BAD_JSON');
    }
    await refusedUnchanged(g, '{"type": "pass", ', 'TM_BAD_JSON', 400);
  });

  it('wrong types are TM_BAD_INPUT, never coerced', async () => {
    const cases: [string, object][] = [
      ['/api/analyze', { hand: 5 }],
      ['/api/analyze', { hand: '1B', top: 'all' }],
      ['/api/analyze', {}],
      ['/api/games', { seat: '0' }],
      ['/api/games', { seed: -1 }],
      ['/api/advice', { question: 'discard', hand: ['1B'] }],
      ['/api/charleston', { hand: '1B', direction: 'up' }],
      ['/api/review', { record: 'x', seat: 'me' }],
    ];
    for (const [url, payload] of cases) {
      const r = await call(app, { method: 'POST', url, payload });
      expect(r.status, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(r.body.code).toBe('TM_BAD_INPUT');
      expect(r.body.message.length).toBeGreaterThan(5);
    }
    const g = await create();
    await refusedUnchanged(g, { type: 'pass', tiles: '1B 2B 3B' }, 'TM_BAD_INPUT', 400);
    await refusedUnchanged(g, { type: 'pass', tiles: [1, 2, 3] }, 'TM_BAD_INPUT', 400);
    await refusedUnchanged(g, { type: 'teleport' }, 'TM_BAD_INPUT', 400);
    await refusedUnchanged(g, [], 'TM_BAD_INPUT', 400);
  });

  it('unknown tiles are TM_BAD_TILE, naming the tile', async () => {
    const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 10C' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'TM_BAD_TILE', message: expect.stringContaining('10C') });
    const g = await create();
    await refusedUnchanged(g, { type: 'pass', tiles: ['1B', 'ZZ', '3B'] }, 'TM_BAD_TILE', 400);
  });

  it('illegal and out-of-turn actions are 409 and leave the game unchanged', async () => {
    const g = await create({ level: 'random', seed: 9 });
    const rack: string[] = g.view.rack;
    const missing = ['1B', '2B', '3B', '4B', '5B', '6B', '7B', '8B', '9B', 'N', 'E'].find((t) => !rack.includes(t))!;
    await refusedUnchanged(g, { type: 'discard', tile: rack[0] }, 'TM_ILLEGAL_ACTION', 409); // the Charleston comes first
    await refusedUnchanged(g, { type: 'pass', tiles: [missing, missing, missing] }, 'TM_ILLEGAL_ACTION', 409);
    await refusedUnchanged(g, { type: 'pass', tiles: rack.slice(0, 2) }, 'TM_ILLEGAL_ACTION', 409);
    await refusedUnchanged(g, { type: 'pass', seat: 2, tiles: rack.slice(0, 3) }, 'TM_NOT_YOUR_TURN', 409);
    if (rack.includes('J')) await refusedUnchanged(g, { type: 'pass', tiles: ['J', rack[0], rack[1]] }, 'TM_ILLEGAL_ACTION', 409);
    // play on to the first discard of the seat, then try things out of turn
    let a: Answer = g;
    while (a.view.prompt.kind !== 'discard') a = (await act(g, firstChoice(a))).body;
    await refusedUnchanged(g, { type: 'discard', tile: missing }, 'TM_ILLEGAL_ACTION', 409);
    await refusedUnchanged(g, { type: 'draw' }, 'TM_ILLEGAL_ACTION', 409);
    await refusedUnchanged(g, { type: 'exchange', owner: 3, exposure: 9 }, 'TM_ILLEGAL_ACTION', 409);
    const end = (await playThrough(app, { ...a, token: g.token })).pop()!;
    expect(end.view.phase).toBe('ended');
    await refusedUnchanged(g, { type: 'discard', tile: end.view.rack[0] ?? '1B' }, 'TM_GAME_OVER', 409);
  });

  it('an oversized body is 413 TM_BODY_TOO_LARGE', async () => {
    const g = await create();
    const big = JSON.stringify({ hand: '1B '.repeat(40_000) });
    const r = await call(app, { method: 'POST', url: '/api/analyze', headers: { 'content-type': 'application/json' }, payload: big });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('TM_BODY_TOO_LARGE');
    await refusedUnchanged(g, JSON.stringify({ type: 'pass', tiles: [], pad: 'x'.repeat(70_000) }), 'TM_BODY_TOO_LARGE', 413);
  });

  it('random bodies on every route never make a 5xx', async () => {
    const g = await create();
    const rng = seedRng(42);
    const values = (depth: number): unknown => {
      const k = nextInt(rng, depth > 2 ? 6 : 8);
      return [null, true, -1, 1e300, '', '5B J N', ['1B', 7], { type: 'discard', tile: '5B', hand: '1B' }][k] ?? (k === 6 ? [values(depth + 1)] : { x: values(depth + 1) });
    };
    const keys = [
      'hand',
      'card',
      'exposed',
      'seen',
      'top',
      'simulate',
      'type',
      'tile',
      'tiles',
      'blind',
      'seat',
      'owner',
      'exposure',
      'question',
      'record',
      'recordId',
      'worlds',
      'level',
      'ruleset',
      'bots',
      'from',
      'others',
      'direction',
      'size',
      'jokers',
    ];
    const urls = ['/api/analyze', '/api/charleston', '/api/games', `/api/games/${g.id}/actions`, `/api/games/${g.id}/hint`, '/api/review', '/api/advice'];
    for (let i = 0; i < 300; i++) {
      const body: Record<string, unknown> = {};
      for (let j = 0; j < 1 + nextInt(rng, 4); j++) body[keys[nextInt(rng, keys.length)]] = values(0);
      if (body.worlds !== undefined) body.worlds = 1;
      if (body.simulate !== undefined) body.simulate = 5;
      const url = urls[i % urls.length];
      const r = await call(app, { method: 'POST', url, headers: auth(g.token!), payload: body });
      expect(r.status, `${url} ${JSON.stringify(body)} -> ${JSON.stringify(r.body)}`).toBeLessThan(500);
      if (r.status >= 400) expect(r.body.code).toMatch(/^TM_/);
    }
  });
});

describe('server security: a token opens one seat of one game', () => {
  it('no token is 401; a wrong token or a guessed id is 404 and reveals nothing', async () => {
    const g = await create();
    const other = await create();
    for (const method of ['GET', 'POST'] as const) {
      const url = method === 'GET' ? `/api/games/${g.id}` : `/api/games/${g.id}/hint`;
      const none = await call(app, { method, url, payload: method === 'POST' ? {} : undefined });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('TM_UNAUTHORIZED');
      const wrong = await call(app, { method, url, headers: auth(other.token!), payload: method === 'POST' ? {} : undefined });
      expect(wrong.status).toBe(404);
      expect(wrong.body.code).toBe('TM_NOT_FOUND');
      expect(JSON.stringify(wrong.body)).not.toMatch(/rack|view|seat/);
    }
    const guessed = await call(app, { method: 'GET', url: '/api/games/AAAAAAAAAAAAAAAA', headers: auth(g.token!) });
    expect(guessed.status).toBe(404);
    const wrongToken = await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(other.token!) });
    // a real id with a wrong token and a made-up id get the same answer, but for the id in the message
    expect(wrongToken.body.message.replace(g.id, 'ID')).toBe(guessed.body.message.replace('AAAAAAAAAAAAAAAA', 'ID'));
    await refusedUnchanged(g, { type: 'pass', tiles: g.view.rack.slice(0, 3) }, 'TM_NOT_FOUND', 404, auth(other.token!));
    await refusedUnchanged(g, { type: 'pass', tiles: g.view.rack.slice(0, 3) }, 'TM_UNAUTHORIZED', 401, {});
  });

  it('no answer before the end holds another rack, the wall or the seed', async () => {
    const g = await create({ level: 'random', seat: 3, seed: 77 });
    const answers = await playThrough(app, g);
    const hands: string[][] = answers[answers.length - 1].view.result.hands;
    expect(hands[3]).toEqual(answers[answers.length - 1].view.rack);
    for (const a of answers.slice(0, -1)) {
      expect(Object.keys(a).sort()).toEqual(
        a === g ? ['at', 'events', 'id', 'legal', 'recordId', 'seat', 'seats', 'token', 'view'] : ['at', 'events', 'id', 'legal', 'recordId', 'seat', 'seats', 'view'],
      );
      expect(Object.keys(a.view).sort()).toEqual([
        'claim',
        'dice',
        'exchangedFromOther',
        'mahJonggs',
        'phase',
        'players',
        'prompt',
        'rack',
        'result',
        'ruleset',
        'seat',
        'seats',
        'turn',
        'turnFrom',
        'waitingOn',
        'wallLeft',
        'yourTurn',
      ]);
      expect(a.view.result).toBeNull();
      expect(JSON.stringify(a).match(/"(seed|wall|hands|reveal)":/)?.[0]).toBeUndefined();
      for (const e of a.events)
        if (e.action.seat !== 3) {
          expect(e.drew).toBeUndefined();
          if (e.action.type === 'pass' || e.action.type === 'courtesy') expect(e.action.tiles).toBeUndefined();
        }
    }
  });
});

describe('server limits', () => {
  it('a server at its limit of live games refuses a new one with 429 TM_TOO_MANY_GAMES; a finished game makes room', async () => {
    const small = await server({ maxGames: 2 });
    const mk = () => call(small, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 8 } });
    const first = (await mk()).body;
    expect((await mk()).status).toBe(201);
    const full = await mk();
    expect(full.status).toBe(429);
    expect(full.body).toEqual({ code: 'TM_TOO_MANY_GAMES', message: expect.stringContaining('2 live games') });
    await playThrough(small, first);
    expect((await mk()).status).toBe(201);
  });

  it('more requests than the rate limit get 429 TM_RATE_LIMITED with a JSON body', async () => {
    const limited = await server({ ratePerMinute: 5 });
    for (let i = 0; i < 5; i++) expect((await call(limited, { method: 'GET', url: '/api/health' })).status).toBe(200);
    const r = await call(limited, { method: 'GET', url: '/api/health' });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ code: 'TM_RATE_LIMITED', message: expect.stringContaining('5 requests a minute') });
  });

  it('the routes that play deals out have a tighter limit of their own', async () => {
    const limited = await server({ ratePerMinute: 100, heavyPerMinute: 2 });
    const body = { hand: '1B 1B 2C 3D N RD F J 5D 5D 7C 8C 9C' };
    for (let i = 0; i < 2; i++) expect((await call(limited, { method: 'POST', url: '/api/charleston', payload: body })).status).toBe(200);
    expect((await call(limited, { method: 'POST', url: '/api/charleston', payload: body })).body.code).toBe('TM_RATE_LIMITED');
    // plain analysis is not heavy; analysis with simulated deals spends the same budget
    expect((await call(limited, { method: 'POST', url: '/api/analyze', payload: body })).status).toBe(200);
    expect((await call(limited, { method: 'POST', url: '/api/analyze', payload: { ...body, simulate: 5 } })).body.code).toBe('TM_RATE_LIMITED');
    for (let i = 0; i < 5; i++) expect((await call(limited, { method: 'POST', url: '/api/analyze', payload: body })).status).toBe(200);
  });
});
