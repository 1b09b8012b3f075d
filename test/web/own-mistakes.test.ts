import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tilesInWords } from '../../api/web/tiles.js';
import { openPeople, SHOTS, type BrowserPeople } from './browser.js';
import { servesNoLine, type RackView } from './judged-game.js';
import type { GameAnswer } from './late-game.js';

/**
 * Issue 61, "mistakes come back": a signed-in player plays a game with a deliberate mistake (she
 * throws a joker while a tile on her rack serves no hand on the card), and then, without her
 * asking, the server reviews the game in the background and keeps the review. On every surface
 * the same decision gets the one judge's same verdict: the review (shown with its progress while
 * it is worked out) calls it a mistake, with the judge's reason; "From your own games" offers it
 * as a drill, and the same wrong move there is "Not this time" with the same reason; My progress
 * counts it among her discard mistakes; and her coach sees the same words of her by name.
 *
 * The deal and the bots are fixed (medium bots, deal 4: a short game, and a joker on her rack at
 * her first discard beside a tile no line uses); she takes the coach's hint at every Charleston
 * decision, so the joker is the first of her mistakes and the first drill that comes back.
 */

const DEAL = 4;
/** A JSON request from the page, with its session (the page's own fetch). */
const ask = (page: Page, method: string, url: string, body?: unknown) =>
  page.evaluate(
    async ([m, u, b]) => {
      const r = await fetch(u as string, { method: m as string, headers: b === undefined ? {} : { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      return { status: r.status, body: await r.json() };
    },
    [method, url, body] as const,
  );

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

interface Decision {
  index: number;
  phase: string;
  verdict: string;
  reason: string;
  chosen: string;
  moment: { rack: string[] };
}

/** The review's reason as a page says it: tiles by name. */
const said = (text: string) => tilesInWords(text);

describe('her own mistakes come back, judged the same everywhere', () => {
  let b: BrowserPeople;
  let rose: { page: Page; pageErrors: string[] };
  let ann: { page: Page; pageErrors: string[] };
  beforeAll(async () => {
    b = await openPeople('own-mistakes');
    rose = await b.person('phone');
    ann = await b.person('desktop');
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it('a thrown joker is a mistake in her review (shown with its progress), her drills, her progress and her coach’s view', async () => {
    const start = performance.now();
    const { page } = rose;
    await page.goto(`${b.base}/mygames.html`);
    await settled(page);
    expect((await ask(page, 'POST', '/api/account', { name: 'Rose', password: 'a long password' })).status).toBe(201);

    // her game: the coach's hint at each Charleston decision, a joker thrown at her first discard, first tiles after
    const created = (await ask(page, 'POST', '/api/games', { level: 'medium', seed: DEAL })).body as GameAnswer & { id: string; token: string };
    const headers = { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' };
    const post = async (url: string, body: unknown) => {
      const r = await fetch(`${b.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = await r.json();
      if (!r.ok) throw new Error(`${url}: ${JSON.stringify(json)}`);
      return json;
    };
    let a: GameAnswer = created;
    let thrown: number | null = null;
    for (let step = 0; step < 600 && a.view.phase !== 'ended'; step++) {
      const of = (t: string) => a.legal.filter((x) => x.type === t);
      let action: Record<string, unknown>;
      if (of('pass').length || of('vote').length || of('courtesy').length) {
        const { seat: _, ...hinted } = (await post(`/api/games/${created.id}/hint`, {})).action;
        action = hinted;
      } else if (of('discard').length) {
        if (thrown === null && a.view.rack.includes('J') && servesNoLine(a.view as unknown as RackView) !== null) {
          action = { type: 'discard', tile: 'J' };
          thrown = a.at + 1;
        } else action = of('discard').find((x) => x.tile !== 'J') ?? of('discard')[0];
      } else action = of('decline')[0] ?? of('draw')[0] ?? a.legal[0];
      a = await post(`/api/games/${created.id}/actions`, { ...action, after: a.at });
    }
    expect(a.view.phase).toBe('ended');
    expect(thrown, 'the deal gives her a joker beside a tile no line uses').not.toBeNull();
    const id = created.id;

    // nobody asked: the server is reviewing it already, for her
    const running = await ask(page, 'GET', `/api/review/progress?recordId=${id}&seat=0`);
    expect(running.body).toMatchObject({ running: true, total: a.at });

    // My games: her review, with how far it has got while it is worked out
    await page.goto(`${b.base}/mygames.html`);
    await settled(page);
    const item = page.locator(`.game-item[data-id="${id}"]`);
    await item.locator('button:has-text("Review my play")').click();
    await page.waitForFunction((gameId) => /^Reviewing your game: move \d+ of \d+\u2026$/.test(document.querySelector(`.game-item[data-id="${gameId}"] .review-progress`)?.textContent ?? ''), id);
    // the whole game's review, in the worker pool: minutes on a machine busy with other work
    await item.locator('.review-item').first().waitFor({ timeout: 480_000 });
    await settled(page);
    const review = (await ask(page, 'POST', '/api/review', { recordId: id, seat: 0 })).body as { decisions: Decision[]; summary: { mistakes: number } };
    const joker = review.decisions.find((d) => d.index === thrown)!;
    expect(joker).toMatchObject({ verdict: 'mistake', chosen: 'discard J', rule: 'joker-thrown' });
    expect(joker.reason).toMatch(/^You threw a joker, which can stand in for a tile in almost any group, while .+ on your rack helps no hand on the card\.$/);
    const words = await item.locator('.review-item', { hasText: `(move ${thrown})` }).textContent();
    expect(words).toMatch(new RegExp(`^Discard \\(move ${thrown}\\): a mistake: you chose to discard Joker; better was to discard .+\\.( It cost about \\d+ points? a game\\.)? `));
    expect(words!.endsWith(` ${said(joker.reason)}`)).toBe(true);
    await item.locator('.review-box').screenshot({ path: join(SHOTS, 'own-mistakes-review.png') });

    // From your own games: the same moment, the same wrong move, the same verdict and reason
    const mistakes = review.decisions.filter((d) => d.verdict === 'mistake' && ['charleston', 'courtesy', 'discard', 'claims'].includes(d.phase));
    const mine = (await ask(page, 'GET', '/api/drills/mine')).body;
    expect(mine.total).toBe(mistakes.length);
    expect(mine.due[0]).toMatchObject({ recordId: id, decision: thrown, kind: 'discard' });
    await page.goto(`${b.base}/drills.html`);
    await page.waitForSelector('#mine:not(.hidden)');
    await expect(page.textContent('#mine-words')).resolves.toMatch(new RegExp(`^${mistakes.length} of the mistakes the reviews of your games found (is|are) due for practice today\\.$`));
    await page.click('#mine-button');
    await page.waitForSelector('#drill:not(.hidden) #drill-rack [data-tile="J"]');
    await settled(page);
    const rack = await page.$$eval('#drill-rack [data-tile]', (tiles) => tiles.map((t) => (t as HTMLElement).dataset.tile));
    expect([...rack].sort()).toEqual([...joker.moment.rack].sort());
    await page.click('#drill-rack [data-tile="J"]');
    await page.click('#answer-button');
    await page.waitForSelector('#result:not(.hidden) .verdict');
    const verdict = await page.textContent('#result .verdict');
    expect(verdict).toBe(`Not this time: ${said(joker.reason).replace(/^./, (c) => c.toLowerCase())}`);
    await page.screenshot({ path: join(SHOTS, 'own-mistakes-drill.png') });

    // My progress: counted among her discard mistakes, as many as the review found
    const discards = mistakes.filter((d) => d.phase === 'discard').length;
    const progress = (await ask(page, 'GET', '/api/progress')).body as { habits: { kind: string; mistakes: number }[]; reviewed: number };
    expect(progress.reviewed).toBe(1);
    expect(progress.habits.find((h) => h.kind === 'discard')?.mistakes).toBe(discards);
    await page.goto(`${b.base}/mygames.html`);
    await settled(page);
    await expect(page.textContent('#drill-kinds')).resolves.toContain(`Discards: ${discards} mistake${discards === 1 ? '' : 's'} from your games to practise`);
    await expect(page.textContent('#said')).resolves.toContain(`A costly habit in discards (${discards} time${discards === 1 ? '' : 's'})`);

    // her coach: the same verdict, the same reason, of her by name
    const code = (await ask(page, 'POST', '/api/coach/invite')).body.code as string;
    const coach = ann.page;
    await coach.goto(`${b.base}/mygames.html`);
    await settled(coach);
    expect((await ask(coach, 'POST', '/api/account', { name: 'Ann', password: 'a long password' })).status).toBe(201);
    expect((await ask(coach, 'POST', '/api/coach/students', { code })).body).toEqual({ student: 'Rose' });
    await coach.reload();
    await settled(coach);
    await coach.click('#my-students button:has-text("See Rose\'s games")');
    await settled(coach);
    const hers = coach.locator(`.game-item[data-id="${id}"]`);
    await hers.locator('button:has-text("Review Rose")').click();
    await hers.locator('.review-item').first().waitFor();
    expect(await hers.locator('.review-item', { hasText: `(move ${thrown})` }).textContent()).toBe(words!.replace(': you chose', ': Rose chose'));
    await expect(coach.textContent('#said')).resolves.toContain(`A costly habit in discards (${discards} time${discards === 1 ? '' : 's'})`);
    await hers.locator('.review-box').screenshot({ path: join(SHOTS, 'own-mistakes-coach.png') });

    expect(rose.pageErrors).toEqual([]);
    expect(ann.pageErrors).toEqual([]);
    console.log(`own mistakes: ${review.decisions.length} decisions reviewed, ${mistakes.length} mistakes, in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }, 900_000);
});
