import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable } from './browser.js';
import { everyControlInside } from './page-checks.js';

/**
 * Her score card on a phone (issue 63): one game's form at a time, each fitting the screen, with
 * only what its answer needs; her points after every game and so far; and the rare games (a
 * misnamed winning tile, a Mah Jongg in error) entered as the rules score them.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('scorecard-phone', { screen: 'phone' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('page: her score card on a phone', () => {
  it('one game at a time, each form on one screen, her points after every game, a misnamed tile and a Mah Jongg in error entered', async () => {
    const { page, base, pageErrors } = t;
    await page.goto(`${base}/events.html`);
    const { code, card, names } = await page.evaluate(async () => {
      const post = async (url: string, body?: object) => {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
        if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      await post('/api/account', { name: 'Director Nell', password: 'a long password' });
      const made = (await post('/api/events', { name: 'Monday Club' })) as { code: string };
      for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida']) await post(`/api/events/${made.code}/players`, { name });
      const desk = (await post(`/api/events/${made.code}/rounds`)) as { players: { id: string; name: string; card: string }[]; rounds: { tables: { seats: { seat: string; player: string }[] }[] }[] };
      const bySeat = new Map(desk.rounds[0].tables[0].seats.map((s) => [s.seat, s.player]));
      const who = (seat: string) => desk.players.find((p) => p.id === bySeat.get(seat))!;
      return { code: made.code, card: who('A').card, names: { A: who('A').name, B: who('B').name, C: who('C').name } };
    });
    await page.goto(`${base}/scorecard.html?event=${code}&card=${card}`);
    await page.waitForSelector('#card:not(.hidden) #games form');
    // one game's form at a time: the others wait their turn
    await expect(page.locator('#games form').count()).resolves.toBe(1);
    await expect(page.locator('.later-game').allTextContents()).resolves.toEqual(['Game 2: after game 1.', 'Game 3: after game 2.', 'Game 4: after game 3.']);
    await page.check('input[name="g1-winner"][value="A"]');
    await page.fill('#g1-value', '25');
    await page.check('input[name="g1-how"][value="B"]');
    await page.selectOption('#g1-exposures', '3');
    // the form of a Mah Jongg fits the phone's screen (the rare cases behind their toggle)
    await page.screenshot({ path: join(SHOTS, 'scorecard-game-phone.png'), fullPage: true });
    const height = await page.$eval('#games form', (f) => f.getBoundingClientRect().height);
    expect(height, 'the form of one game, on a phone').toBeLessThanOrEqual(SCREENS.phone.height);
    await page.click('#games form .game-rare summary');
    await page.check('#g1-misnamed');
    expect(await overflowX(page)).toBe(0);
    expect(await everyControlInside(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'scorecard-game-phone.png') });
    await page.click('#g1-save');
    await page.waitForFunction(() => (document.getElementById('g1-title')?.textContent ?? '').endsWith('saved'));
    await expect(page.textContent('.game-saved p')).resolves.toBe(`${names.A} (A, East) made Mah Jongg: a 25-point hand, on a discard by ${names.B} (B, North), who misnamed it. You score 25.`);
    await expect(page.textContent('#points-line')).resolves.toBe('Your points so far: 25 after 1 game.');
    // game 2: a Mah Jongg in error that left West's hand intact (rules 14.4): the value and how are not asked
    await page.click('#games form:has(#g2-save) .game-rare summary');
    await page.check('input[name="g2-winner"][value="error"]');
    expect(await page.isVisible('#g2-value')).toBe(false);
    await page.check(`input[name="g2-intact"][value="C"]`);
    await page.click('#g2-save');
    await page.waitForFunction(() => (document.getElementById('g2-title')?.textContent ?? '').endsWith('saved'));
    await expect(page.locator('.game-saved p').nth(1).textContent()).resolves.toBe(`A Mah Jongg in error ended the game, leaving ${names.C} (C, West) with a hand intact. You score 0.`);
    await expect(page.textContent('#points-line')).resolves.toBe('Your points so far: 25 after 2 games.');
    await page.screenshot({ path: join(SHOTS, 'scorecard-two-games-phone.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
