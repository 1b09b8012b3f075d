import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openBrowser, SCREENS, SHOTS, type BrowserTable } from './browser.js';

/**
 * A split table on the pages (issue 63): East and West entered one result for game 1, North and
 * South another, each pair checked. Her phone shows every player the game that differs in one
 * sentence and how it is put right, and a checked card reopens from it; the director's desk shows
 * the table's difference beside its seats.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('split-table');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

interface Desk {
  code: string;
  players: { id: string; name: string; card: string }[];
  rounds: { tables: { seats: { seat: string; player: string }[] }[] }[];
}

describe('page: a split table', () => {
  it('every phone at the table shows the game that differs and how out; a checked card reopens from the phone; the desk shows it too', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize({ width: SCREENS.desktop.width, height: SCREENS.desktop.height });
    await page.goto(`${base}/events.html`);
    // the event made and the table split through the API, as four phones and a director would
    const desk: Desk = await page.evaluate(async () => {
      const post = async (url: string, body?: object, method = 'POST') => {
        const r = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
        if (r.status >= 400) throw new Error(`${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      await fetch('/api/session', { method: 'DELETE' });
      await post('/api/account', { name: 'Director Paige', password: 'a long password' });
      const { code } = await post('/api/events', { name: 'Split on the phone' });
      for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await post(`/api/events/${code}/players`, { name });
      const d = await post(`/api/events/${code}/rounds`);
      const seatOf = new Map<string, string>(d.rounds[0].tables[0].seats.map((s: { seat: string; player: string }) => [s.seat, s.player]));
      const cardOf = (seat: string) => d.players.find((p: { id: string }) => p.id === seatOf.get(seat)).card;
      const games = [{ winner: 'A', value: 25, thrower: 'B' }, { winner: null }, { winner: null }, { winner: null }];
      let n = 0;
      for (const seat of ['A', 'B', 'C', 'D'])
        for (const [i, g] of games.entries())
          await post(`/api/events/${code}/card`, { card: cardOf(seat), game: i + 1, result: i === 0 && (seat === 'B' || seat === 'D') ? { winner: null } : g, entry: `page-split-${++n}` }, 'PUT');
      const partner: Record<string, string> = { A: 'C', C: 'A', B: 'D', D: 'B' };
      for (const seat of ['A', 'B', 'C', 'D']) await post(`/api/events/${code}/card/check`, { card: cardOf(partner[seat]), player: seatOf.get(seat) });
      return d;
    });
    const seat = (s: string) => desk.players.find((p) => p.id === desk.rounds[0].tables[0].seats.find((x) => x.seat === s)!.player)!;
    const sentence = `Game 1: ${seat('A').name} (East) and ${seat('C').name} (West) entered a Mah Jongg by ${seat('A').name} (East) for 25 points on a discard by ${seat('B').name} (North); ${seat('B').name} (North) and ${seat('D').name} (South) entered a wall game.`;
    // the desk: the table's difference beside its seats
    await page.goto(`${base}/events.html?event=${desk.code}`);
    await page.waitForFunction((s) => (document.getElementById('tables')?.textContent ?? '').includes(s), sentence);
    // North's phone: the difference, how out, and her checked card reopened
    await page.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    await page.goto(`${base}/scorecard.html?event=${desk.code}&card=${seat('B').card}`);
    await page.waitForSelector('#differences');
    await settled(page);
    expect(await page.textContent('#differences')).toContain(sentence);
    expect(await page.textContent('#differences')).toContain('If your card is wrong, reopen it and change the game, or ask the Director to settle it.');
    await page.screenshot({ path: join(SHOTS, 'split-table-phone.png') });
    await page.click('#reopen-button');
    await page.waitForFunction(() => (document.getElementById('say')?.textContent ?? '').startsWith('Your card is open again'));
    await settled(page);
    expect(await page.$('#reopen-button')).toBeNull();
    // West's phone shows the same sentence
    await page.goto(`${base}/scorecard.html?event=${desk.code}&card=${seat('C').card}`);
    await page.waitForSelector('#differences');
    expect(await page.textContent('#differences')).toContain(sentence);
    // the page fits the phone: nothing wider than its screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREENS.phone.width);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
