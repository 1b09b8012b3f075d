import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable } from './browser.js';

/**
 * The standings in the room (issue 63): a projector shows any number of players a page at a
 * time, each page whole on the screen, every player on one of them; the round's clock turns
 * yellow in its last ten minutes and red in its last five, its words saying the same; a phone
 * at 390 px keeps the total in view, each round a tap away, and a round she never played says
 * "missed", never 0.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('standings-room');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const PLAYERS = 60;

/** An event of 60 players with its first round seated (a ten-minute round), made through the API as the desk makes it. */
async function event(page: Page, base: string, director: string): Promise<string> {
  await page.goto(`${base}/events.html`);
  return page.evaluate(
    async ([players, name]) => {
      const post = async (url: string, body?: object) => {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
        if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      await fetch('/api/session', { method: 'DELETE' });
      await post('/api/account', { name, password: 'a long password' });
      const { code } = (await post('/api/events', { name: 'Spring Club Open', roundMinutes: 10 })) as { code: string };
      for (let i = 1; i <= players; i++) await post(`/api/events/${code}/players`, { name: `Player ${String(i).padStart(2, '0')}` });
      await post(`/api/events/${code}/rounds`);
      return code;
    },
    [PLAYERS, director] as const,
  );
}

/** The names on the rows shown, and whether each shown row is whole on the screen. */
const shownRows = (page: Page) =>
  page.$$eval('#standings-rows tr', (trs) =>
    trs.filter((tr) => !(tr as HTMLElement).hidden).map((tr) => ({ name: tr.querySelector('th')!.textContent, inside: tr.getBoundingClientRect().bottom <= window.innerHeight })),
  );

describe('page: the standings in the room', () => {
  it('a projector pages through 60 players, each page whole on the screen, with the clock yellow in the last ten minutes and red in the last five', async () => {
    const { page, base, pageErrors } = t;
    const code = await event(page, base, 'Director Rae');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${base}/standings.html?event=${code}&every=3`);
    await page.waitForSelector('#standings-table:not(.hidden) tbody tr');
    await page.waitForFunction(() => document.body.dataset.page === '1');
    const pages = Number(await page.evaluate(() => document.body.dataset.pages));
    expect(pages, 'more than one page of 60 players on a projector').toBeGreaterThan(1);
    const first = await shownRows(page);
    expect(await page.textContent('#standings-caption')).toBe(`After 0 rounds scored: places 1 to ${first.length} of ${PLAYERS} players, page 1 of ${pages}`);
    const seen = new Set<string | null>();
    for (let p = 1; p <= pages; p++) {
      await page.waitForFunction((n) => document.body.dataset.page === String(n), p, { timeout: 30_000 });
      const rows = await shownRows(page);
      expect(
        rows.every((r) => r.inside),
        `page ${p}: every row shown is whole on the screen`,
      ).toBe(true);
      for (const r of rows) seen.add(r.name);
      if (p === 1) await page.screenshot({ path: join(SHOTS, 'standings-projector-60.png') });
    }
    expect(seen.size, 'every player is on one of the pages').toBe(PLAYERS);
    // and round again to the first
    await page.waitForFunction(() => document.body.dataset.page === '1', undefined, { timeout: 30_000 });
    await expect(page.getAttribute('#clock', 'data-state')).resolves.toBe('soon');
    await expect(page.textContent('#clock')).resolves.toMatch(/^Round 1: (10|9) minutes left\.$/);
    expect(await overflowX(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // four minutes left (the server's answer read as if later in the round): red, and the words say it
    await page.route(`**/api/events/${code}/standings`, async (route) => {
      const answer = await route.fetch();
      const s = await answer.json();
      await route.fulfill({ response: answer, json: { ...s, timeLeftMs: 4 * 60_000 } });
    });
    await page.reload();
    await page.waitForSelector('#clock[data-state="last"]');
    await expect(page.textContent('#clock')).resolves.toBe('Round 1: 4 minutes left.');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'standings-projector-last-minutes.png') });
    await page.unroute(`**/api/events/${code}/standings`);
    expect(pageErrors).toEqual([]);
  }, 240_000);

  it('on a phone the total stays in view, each round is a tap away, and a round she did not play says missed', async () => {
    const { page, base, pageErrors } = t;
    const code = await event(page, base, 'Director Viv');
    // three rounds scored, one of them missed by a late arrival (the page shows what the server says)
    await page.route(`**/api/events/${code}/standings`, async (route) => {
      const answer = await route.fetch();
      const s = await answer.json();
      const rows = s.rows.map((r: { name: string }, i: number) => ({ ...r, place: i + 1, rounds: i === 2 ? [null, 25, -10] : [30, -10, 25], total: i === 2 ? 15 : 45 }));
      await route.fulfill({ response: answer, json: { ...s, accepted: 3, columns: ['Round 1', 'Round 2', 'Round 3'], rows, corrected: [{ round: 2, table: 4, game: 3 }] } });
    });
    await page.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    await page.goto(`${base}/standings.html?event=${code}`);
    await page.waitForSelector('#standings-table:not(.hidden) tbody tr');
    expect(await page.evaluate(() => document.body.dataset.pages), 'a phone scrolls, it does not turn pages').toBe('1');
    const right = async (sel: string) => page.$eval(sel, (e) => e.getBoundingClientRect().right);
    expect(await right('#standings-head th:nth-last-child(2)'), 'the Total column is on the screen').toBeLessThanOrEqual(SCREENS.phone.width);
    await expect(page.$$eval('#standings-head th', (ths) => ths.filter((th) => th.getBoundingClientRect().width > 0).map((th) => th.textContent))).resolves.toEqual([
      'Place',
      'Player',
      'Total',
      'Mah Jonggs',
    ]);
    expect(await overflowX(page)).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'standings-phone.png') });
    await page.click('#rounds-toggle');
    await expect(page.textContent('#rounds-toggle')).resolves.toBe('Hide each round');
    // a round the Director changed after it was accepted is marked, and the change said
    await expect(page.$$eval('#standings-head th', (ths) => ths.map((th) => th.textContent))).resolves.toContain('Round 2 *');
    await expect(page.textContent('#corrected')).resolves.toBe('* Changed by the Director after the round was accepted: round 2, table 4, game 3.');
    await expect(page.$$eval('#standings-rows tr:nth-child(3) td', (tds) => tds.map((td) => td.textContent))).resolves.toEqual(['3', 'missed', '25', '-10', '', '15', '0']);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'standings-phone-rounds.png') });
    await page.unroute(`**/api/events/${code}/standings`);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
