import { describe, expect, it } from 'vitest';
import { auth, call, server, type Answer } from './helpers.js';

/**
 * Names from outside are looked up among the table's own entries only: "toString" or
 * "__proto__" names no ruleset, level or bot (400, never 500), and a seat other than the
 * token's is refused in both games (issue 28).
 */

const NAMES = ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor', 'isPrototypeOf'];

describe('names looked up among own entries only', () => {
  it('Mexican Train: a ruleset or a bot named after Object.prototype is 400 TM_BAD_INPUT, on a new game and on /advise', async () => {
    const app = await server({ threads: 0 });
    for (const name of NAMES) {
      // written as text: a JSON "__proto__" key or value arrives as it was sent
      const game = await call(app, { method: 'POST', url: '/api/domino/games', headers: { 'content-type': 'application/json' }, payload: `{"ruleset":${JSON.stringify(name)}}` });
      expect({ name, status: game.status, code: game.body.code }).toEqual({ name, status: 400, code: 'TM_BAD_INPUT' });
      expect(game.body.message).toMatch(/^no Mexican Train ruleset/);
      const bots = await call(app, { method: 'POST', url: '/api/domino/games', payload: { bots: [name] } });
      expect({ name, status: bots.status, code: bots.body.code }).toEqual({ name, status: 400, code: 'TM_BAD_INPUT' });
      const advise = await call(app, { method: 'POST', url: '/api/domino/advise', payload: { hand: '5-3 3-3', state: { players: 2, ruleset: name, trains: { 0: '12-5' } } } });
      expect({ name, status: advise.status, code: advise.body.code }).toEqual({ name, status: 400, code: 'TM_BAD_INPUT' });
    }
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.games).toBe(0);
  });

  it('Mah Jongg: a ruleset, a level or a bot named after Object.prototype is 400 TM_BAD_INPUT', async () => {
    const app = await server({ threads: 0 });
    for (const name of NAMES) {
      for (const payload of [{ ruleset: name }, { level: name }, { bots: [name, 'medium', 'medium'] }]) {
        const r = await call(app, { method: 'POST', url: '/api/games', payload });
        expect({ name, payload, status: r.status, code: r.body.code }).toEqual({ name, payload, status: 400, code: 'TM_BAD_INPUT' });
      }
      const advice = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N', ruleset: name, worlds: 2 } });
      expect({ name, status: advice.status, code: advice.body.code }).toEqual({ name, status: 400, code: 'TM_BAD_INPUT' });
    }
  });
});

describe('the token says which seat acts', () => {
  it('Mexican Train: an action naming another seat is 409 TM_NOT_YOUR_TURN and changes nothing', async () => {
    const app = await server({ threads: 0 });
    const g: Answer = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { players: 2, seed: 5 } })).body;
    const legal = g.legal[0];
    const other = await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...legal, seat: 1 - g.seat } });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ code: 'TM_NOT_YOUR_TURN', message: `this token plays seat ${g.seat}, not seat ${1 - g.seat}` });
    const now = await call(app, { method: 'GET', url: `/api/domino/games/${g.id}`, headers: auth(g.token!) });
    expect(now.body.at).toBe(g.at);
    // her own seat, named or not, plays
    expect((await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...legal, seat: g.seat, after: g.at } })).status).toBe(200);
  });

  it('Mah Jongg: the same', async () => {
    const app = await server({ threads: 0 });
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', seed: 5 } })).body;
    const pass = { type: 'pass', tiles: g.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
    const other = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...pass, seat: 2 } });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('TM_NOT_YOUR_TURN');
    expect((await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body.at).toBe(g.at);
  });
});
