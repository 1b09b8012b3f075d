import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { joinReview, reviewPart, reviewRecord, type ReviewPart } from '../../agents/coach/review.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { captureOutput, run } from '../api/capture.js';
import { auth, call, firstChoice, newJar, server, type Answer } from './helpers.js';

/**
 * No request holds a worker for more than about a second (issue 28): the work a request asks
 * for is estimated and refused above the budget with the most it may ask for; a review is
 * worked out in parts, so a bot's turn goes between them.
 */

captureOutput(
  () => {},
  () => {},
);

/** 619 bytes, 4 lines of `|` alternatives: 17,496 forms (the attack of issue 28). */
const pungs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(3) + 'a').join('|');
const kongs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(4) + 'b').join('|');
const pairs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(2) + 'c').join('|');
const BIG = `card: Big\n[Big]\n${[0, 1, 2, 3].map((i) => `${pungs} ${kongs} ${pairs} NNNN F ; x ${25 + i}`).join('\n')}\n`;
const HAND14 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A finished game's record, played by bots from the command line. */
async function record(seed: number, bots: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tilemate-budget-'));
  dirs.push(dir);
  expect(await run('selfplay', '--games', '1', '--seed', String(seed), '--bots', bots, '--out', dir, '--json')).toBe(0);
  return readFileSync(join(dir, `game-${seed}.jsonl`), 'utf8');
}

describe('the cost budget of one request', () => {
  it('the attack card compiles to 17,496 forms', () => {
    expect(compileCard(parseCard(BIG)).formCount).toBe(17_496);
  });

  it('a simulation over the budget is refused before any deal is played, naming the most deals; that many are answered', async () => {
    const app = await server({ threads: 1 });
    const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HAND14, card: BIG, simulate: 2000 } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('TM_TOO_COSTLY');
    expect(r.body.message).toMatch(/^the lines listed have 17,496 hands to try and 2,000 deals .*: ask for at most \d+ deals with this card/);
    expect(r.body.message.split(/[.;] /)).toHaveLength(1); // one sentence
    const most = Number(/at most (\d+) deals/.exec(r.body.message)![1]);
    expect(most).toBeGreaterThan(0);
    const ok = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HAND14, card: BIG, simulate: most } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.simulation.deals).toBe(most);
    // the practice card's largest simulation is well within the budget
    expect((await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HAND14, simulate: 2000 } })).status).toBe(200);
  }, 60_000);

  it('advice over the budget is refused naming the most worlds; a hint asked without a number plays as many as fit', async () => {
    const app = await server({ threads: 1 });
    const r = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HAND14, card: BIG, worlds: 200 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'TM_TOO_COSTLY',
      message: expect.stringMatching(/^this card has 17,496 hands to try and 200 worlds for \d+ choices .*: ask for at most \d+ worlds with this card$/),
    });
    const most = Number(/at most (\d+) worlds/.exec(r.body.message)![1]);
    const ok = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HAND14, card: BIG, worlds: most } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.worlds).toBe(most);
  }, 60_000);

  it('a card check runs in the pool on the heavy budget: the 61st in a minute is refused', async () => {
    const app = await server({ threads: 1, heavyPerMinute: 3 });
    const check = () => call(app, { method: 'POST', url: '/api/cards/check', payload: { text: BIG }, remoteAddress: '10.1.0.1' });
    for (let i = 0; i < 3; i++) {
      const r = await check();
      expect(r.status).toBe(200);
      expect(r.body.lines.map((l: { forms: number }) => l.forms)).toEqual([4374, 4374, 4374, 4374]);
    }
    expect((await check()).body.code).toBe('TM_RATE_LIMITED');
    // saving spends the same budget
    const save = await call(app, { method: 'PUT', url: '/api/cards/big', payload: { text: BIG }, remoteAddress: '10.1.0.1' });
    expect(save.body.code).toBe('TM_RATE_LIMITED');
  }, 60_000);

  it("a new game on a saved card counts the address's games before the card is compiled, then compiles it in the pool", async () => {
    const app = await server({ threads: 1, gamesPerAddress: 1, heavyPerMinute: 2 });
    const mine = { remoteAddress: '10.1.0.2' };
    expect((await call(app, { method: 'PUT', url: '/api/cards/big', payload: { text: BIG }, ...mine })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', seed: 3 }, ...mine })).status).toBe(201);
    // her one game is in progress: refused before the card is compiled, and nothing of the heavy budget is spent
    const refused = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', card: 'big' }, ...mine });
    expect(refused.body.code).toBe('TM_TOO_MANY_GAMES');
    // from another address (the same player), the card is compiled in the pool and played on
    const other = await call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', card: 'big', seed: 4 }, remoteAddress: '10.1.0.3' });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const card = await call(app, { method: 'GET', url: `/api/games/${other.body.id}/card?top=1`, headers: auth(other.body.token) });
    expect(card.body.card).toBe('Big');
  }, 60_000);
});

describe('a review in parts', () => {
  it('a review cut after every decision and joined is the review done at once', async () => {
    const text = await record(5, 'random,greedy,greedy,greedy');
    const card = (t: string) => compileCard(parseCard(t));
    const whole = reviewRecord(text, card, { seat: 0, worlds: 6 });
    const parts: ReviewPart[] = [];
    for (let from: number | null = 1; from !== null; ) {
      const part = reviewPart(text, card, { seat: 0, worlds: 6, from, stop: () => true });
      expect(part.decisions.length).toBeLessThanOrEqual(1);
      parts.push(part);
      from = part.next;
    }
    // one decision a part (the last part may find none left)
    expect(parts.filter((p) => p.decisions.length > 0)).toHaveLength(whole.decisions.length);
    expect(joinReview(parts)).toEqual(whole);
  }, 120_000);

  it("a bot's turn goes between the parts of a long review: it is answered before the review", async () => {
    const app = await server({ threads: 1, taskMs: 300 });
    const text = await record(6, 'medium');
    const game: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'montecarlo', seed: 11 } })).body;
    const order: string[] = [];
    const review = call(app, { method: 'POST', url: '/api/review', payload: { record: text, seat: 0 }, remoteAddress: '10.2.0.1' }).then((r) => {
      order.push(`review ${r.status}`);
      return r;
    });
    await new Promise((r) => setTimeout(r, 200)); // the review's first part is running
    const act = await call(app, { method: 'POST', url: `/api/games/${game.id}/actions`, headers: auth(game.token!), payload: { ...firstChoice(game), after: game.at } });
    order.push(`action ${act.status}`);
    const reviewed = await review;
    expect(order).toEqual(['action 200', 'review 200']);
    expect(reviewed.body.summary.decisions).toBeGreaterThan(0);
  }, 180_000);

  it("the bots' turns of one action follow one another: requests queued before it wait until it is answered", async () => {
    const app = await server({ threads: 1 });
    const game: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'montecarlo', seed: 12 } })).body;
    const order: string[] = [];
    // four requests from four people at four addresses, each well within the budget but a few hundred ms of the one worker
    const advice = [1, 2, 3, 4].map((i) =>
      call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HAND14, worlds: 80 }, remoteAddress: `10.3.0.${i}` }, newJar()).then((r) => {
        order.push(`advice ${r.status}`);
      }),
    );
    await new Promise((r) => setTimeout(r, 100)); // the first is running, the others wait
    // her pass sets off the three Monte Carlo bots' passes, each a task in the pool
    const act = call(app, { method: 'POST', url: `/api/games/${game.id}/actions`, headers: auth(game.token!), payload: { ...firstChoice(game), after: game.at } }).then((r) => {
      order.push(`action ${r.status}`);
      return r;
    });
    await Promise.all([...advice, act]);
    expect((await act).body.at).toBeGreaterThanOrEqual(game.at + 4);
    // behind the one request running when it came, never behind one per bot's turn
    expect(order.indexOf('action 200'), order.join(', ')).toBeLessThanOrEqual(1);
    expect(order.filter((o) => o === 'advice 200')).toHaveLength(4);
  }, 120_000);

  it('a game played without a pause does not keep a request waiting: it goes between one action and the next', async () => {
    const app = await server({ threads: 1 });
    let a: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'montecarlo', seed: 13 } })).body;
    const token = a.token!;
    let playing = true,
      actions = 0,
      answeredAfter = -1;
    const player = (async () => {
      while (playing && a.view.phase !== 'ended') {
        const r = await call(app, { method: 'POST', url: `/api/games/${a.id}/actions`, headers: auth(token), payload: { ...firstChoice(a), after: a.at } });
        expect(r.status).toBe(200);
        a = r.body;
        actions++;
      }
    })();
    await new Promise((r) => setTimeout(r, 300)); // the game is under way
    const advice = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HAND14, worlds: 8 }, remoteAddress: '10.4.0.1' });
    answeredAfter = actions;
    const atAnswer = actions;
    // the game goes on a few more actions after the advice's answer, then stops
    while (actions < atAnswer + 3 && a.view.phase !== 'ended') await new Promise((r) => setTimeout(r, 20));
    playing = false;
    await player;
    expect(advice.status).toBe(200);
    expect(answeredAfter).toBeGreaterThan(0);
    // answered while the game was still being played, not once it stopped
    expect(actions).toBeGreaterThan(answeredAfter);
  }, 120_000);
});
