import { describe, expect, it } from 'vitest';
import { auth, call, firstChoice, server, type Answer } from './helpers.js';

/**
 * Idle games end on the clock, not only when someone else opens a game, and looking at a game
 * does not keep it: only the person's actions do (issue 28: 20 addresses polling every 30
 * minutes could hold the 200-game table full).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('idle games', () => {
  it('a game only looked at is dropped after the idle time, with nobody opening another; one played on stays', async () => {
    const app = await server({ threads: 0, idleMs: 1500 });
    const looked: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', seed: 1 } })).body;
    let played: Answer = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { players: 2, seed: 2 } })).body;
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.games).toBe(2);
    // one is polled, the other played, for more than the idle time
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      await call(app, { method: 'GET', url: `/api/games/${looked.id}`, headers: auth(looked.token!) });
      if (played.view.phase !== 'ended' && played.legal.length > 0) {
        const r = await call(app, { method: 'POST', url: `/api/domino/games/${played.id}/actions`, headers: auth(played.token!), payload: { ...firstChoice(played), after: played.at } });
        if (r.status === 200) played = { ...r.body, token: played.token };
      }
      await sleep(300);
    }
    const gone = await call(app, { method: 'GET', url: `/api/games/${looked.id}`, headers: auth(looked.token!) });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('TM_NOT_FOUND');
    expect((await call(app, { method: 'GET', url: `/api/domino/games/${played.id}`, headers: auth(played.token!) })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.games).toBe(1);
  }, 60_000);
});
