import { describe, expect, it } from 'vitest';
import { auth, call, firstChoice, server, type Answer } from './helpers.js';

/** The work that plays deals out runs in the worker pool, bounded in queue and time. */

const HAND14 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N';
const slowAdvice = { method: 'POST' as const, url: '/api/advice', payload: { question: 'discard', hand: HAND14, worlds: 200, candidates: 10 } };
/** The queue's tests need a task that takes a while: the budget on one request's work (taskMs) is lifted for them. */
const LONG = { taskMs: 0 };

async function play(app: Awaited<ReturnType<typeof server>>, steps: number): Promise<Answer[]> {
  const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { bots: ['montecarlo', 'expert', 'montecarlo'], seed: 2 ** 40 + 21 } })).body;
  const answers = [g];
  let a = g;
  for (let i = 0; i < steps && a.view.phase !== 'ended'; i++) {
    const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: firstChoice(a) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    a = r.body;
    answers.push(a);
  }
  return answers.map(({ token: _t, id: _i, ...rest }) => rest as Answer);
}

describe('the worker pool', () => {
  it('games against the Monte Carlo and expert bots are the same whether their turns run in workers or on the event loop', async () => {
    const pooled = await play(await server({ threads: 1 }), 14);
    const inline = await play(await server({ threads: 0 }), 14);
    expect(pooled.at(-1)!.view.phase).not.toBe('charleston'); // the searching bots have played discards and claims
    expect(pooled).toEqual(inline);
  });

  it('light requests are answered while advice is being worked out', async () => {
    const app = await server({ threads: 1, ...LONG });
    const order: string[] = [];
    const advice = call(app, slowAdvice).then((r) => {
      order.push(`advice ${r.status}`);
    });
    await new Promise((r) => setTimeout(r, 50));
    const health = call(app, { method: 'GET', url: '/api/health' }).then((r) => {
      order.push(`health ${r.status}`);
    });
    await Promise.all([advice, health]);
    expect(order).toEqual(['health 200', 'advice 200']);
  });

  it('a full queue answers 503 TM_BUSY at once; the queued request still gets its answer', async () => {
    const app = await server({ threads: 1, maxQueue: 1, ...LONG });
    const first = call(app, slowAdvice);
    const second = await call(app, slowAdvice);
    expect(second.status).toBe(503);
    expect(second.body).toMatchObject({ code: 'TM_BUSY', message: expect.stringMatching(/busy/) });
    expect((await first).status).toBe(200);
  });

  it('one person has her share of the queue: a third heavy request of her own is TM_BUSY, another address is served', async () => {
    const app = await server({ threads: 1, heavyAtOnce: 2, ...LONG });
    const a = { remoteAddress: '10.0.0.1' };
    // three at once: whichever reaches the pool last (the budget is checked in the database
    // first, and on a server database the three checks may finish in any order) is refused
    const mine = [call(app, { ...slowAdvice, ...a }), call(app, { ...slowAdvice, ...a }), call(app, { ...slowAdvice, ...a })];
    const refused = await Promise.race(mine.map((r) => r.then((x) => (x.status === 503 ? x : new Promise<never>(() => {})))));
    expect(refused.body).toMatchObject({ code: 'TM_BUSY', message: expect.stringMatching(/you already have 2 requests/) });
    const other = await call(app, { method: 'POST', url: '/api/domino/advise', payload: { hand: '5-3 3-3', state: { players: 2, trains: { 0: '12-5' } } }, remoteAddress: '10.0.0.2' });
    expect(other.status).toBe(200);
    expect((await Promise.all(mine)).map((r) => r.status).sort()).toEqual([200, 200, 503]);
  });

  it('a request past its deadline is 503 TM_TOO_SLOW, and the server goes on answering', async () => {
    const app = await server({ threads: 1, deadlineMs: 1000, ...LONG });
    const r = await call(app, slowAdvice);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'TM_TOO_SLOW' });
    expect((await call(app, { method: 'GET', url: '/api/health' })).status).toBe(200);
    // the stopped worker's place is taken by a new one, which on a loaded machine may itself take
    // longer than this test's 1 s deadline to start: a small request is answered once it has
    await expect
      .poll(async () => (await call(app, { method: 'POST', url: '/api/domino/advise', payload: { hand: '5-3 3-3', state: { players: 2, trains: { 0: '12-5' } } } })).status, {
        timeout: 60_000,
        interval: 100,
      })
      .toBe(200);
  }, 90_000);

  // a review's decisions get the hint's own budget, however long the game (agents/mah-jongg/advice.ts ADVICE_WORLDS; test/agents/one-answer.test.ts)
});
