import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { servesNoLine } from '../web/judged-game.js';
import { call, firstChoice, newJar, playThrough, server, signUp, type Answer, type Jar } from './helpers.js';

/**
 * A review is worked out in the worker pool in parts with its progress shown, and kept with the
 * game (issue 61): GET /api/review/progress answers how far the review has got while it is worked
 * out, to whoever asked for it and to the player whose game it is, and nothing (running false) to
 * anyone else and once it is done; a signed-in player's finished game is reviewed in the background without her
 * asking, kept as the page would keep it, so her mistakes come back as drills; a guest's is not.
 */

/** Few worlds a decision: a whole game's review in seconds. */
const WORLDS = 4;

/** Asks for the progress until none is running (done), every answer in order. */
async function progressUntilDone(app: FastifyInstance, recordId: string, jar: Jar): Promise<{ done: number; total: number }[]> {
  const seen: { done: number; total: number }[] = [];
  for (;;) {
    const r = await call(app, { method: 'GET', url: `/api/review/progress?recordId=${recordId}&seat=0` }, jar);
    expect(r.status).toBe(200);
    if (!r.body.running) return seen;
    seen.push(r.body);
    await new Promise((next) => setTimeout(next, 100));
  }
}

/** A game played by the first legal choices, but for a joker thrown beside a tile no line uses: a mistake the judge calls one on any worlds. */
async function finished(app: FastifyInstance, jar: Jar, seed: number, mistake = true): Promise<Answer> {
  const g = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed } }, jar)).body as Answer;
  let thrown = false;
  await playThrough(app, g, (a) => {
    if (mistake && !thrown && a.legal[0].type === 'discard' && a.view.rack.includes('J') && servesNoLine(a.view) !== null) {
      thrown = true;
      return { type: 'discard', tile: 'J' };
    }
    return firstChoice(a);
  });
  expect(thrown).toBe(mistake);
  return g;
}

describe('a review in the pool, its progress, and the background', () => {
  it('a review asked for shows its progress, action by action, to her alone, then answers whole and is kept', async () => {
    const app = await server({ reviewWorlds: WORLDS, heavyPerMinute: 0 });
    const rose = newJar();
    const other = newJar();
    const g = await finished(app, rose, 61); // a guest: nothing is reviewed in the background
    const total = (await call(app, { method: 'GET', url: `/api/records/${g.id}` }, rose)).body.actions;
    expect((await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, rose)).body).toEqual({ running: false });
    const asked = call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0 } }, rose);
    // the first answer comes once the request has reached the pool
    let first = await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, rose);
    while (!first.body.running) {
      await new Promise((next) => setTimeout(next, 20));
      first = await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, rose);
    }
    expect(first.body).toMatchObject({ running: true, total });
    // another person is told nothing of it
    expect((await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, other)).body).toEqual({ running: false });
    const seen = [first.body, ...(await progressUntilDone(app, g.id, rose))];
    const review = await asked;
    expect(review.status).toBe(200);
    const done = seen.map((s) => s.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.some((d) => d > 0 && d < total)).toBe(true); // seen part way
    // kept: asked again it answers at once, the same
    const again = await call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0 } }, rose);
    expect(again.body).toEqual(review.body);
    // bad questions are refused with a code
    for (const q of ['recordId=x', `recordId=${g.id}&seat=9`, `recordId=${'x'.repeat(65)}&seat=0`]) {
      const bad = await call(app, { method: 'GET', url: `/api/review/progress?${q}` }, rose);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('TM_BAD_INPUT');
    }
  }, 240_000);

  it("a signed-in player's finished game is reviewed in the background and kept: her mistakes come back as drills without her opening it", async () => {
    const app = await server({ reviewWorlds: WORLDS, heavyPerMinute: 0 });
    const rose = newJar();
    const thorn = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, thorn, 'Thorn');
    const g = await finished(app, rose, 62);
    // running for her, without her asking; nothing for anyone else
    const running = await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, rose);
    expect(running.body).toMatchObject({ running: true });
    expect((await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, thorn)).body).toEqual({ running: false });
    await progressUntilDone(app, g.id, rose);
    // kept as the page asks for it: the same worlds, answered at once
    const start = performance.now();
    const review = (await call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0 } }, rose)).body;
    console.log(`the background review of a ${review.summary.decisions}-decision game answered the page in ${(performance.now() - start).toFixed(0)} ms`);
    expect(review.worlds).toBeLessThanOrEqual(WORLDS);
    const mistakes = review.decisions.filter((d: { verdict: string; phase: string }) => d.verdict === 'mistake' && ['charleston', 'courtesy', 'discard', 'claims'].includes(d.phase));
    expect(mistakes.length).toBeGreaterThan(0);
    const mine = (await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body;
    expect(mine.total).toBe(mistakes.length);
  }, 240_000);

  it("a guest's game, and a game when background reviews are off, are reviewed only when asked for", async () => {
    for (const [limits, signIn] of [
      [{ reviewWorlds: WORLDS }, false],
      [{ reviewWorlds: WORLDS, backgroundReviews: 0 }, true],
    ] as const) {
      const app = await server(limits);
      const jar = newJar();
      if (signIn) await signUp(app, jar, 'Ivy');
      const g = await finished(app, jar, 63, false);
      expect((await call(app, { method: 'GET', url: `/api/review/progress?recordId=${g.id}&seat=0` }, jar)).body).toEqual({ running: false });
      expect((await call(app, { method: 'GET', url: '/api/drills/mine' }, jar)).body.total).toBe(0);
    }
  }, 240_000);
});
