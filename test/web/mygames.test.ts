import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';
import { everyControlInside, keyboardReaches, smallestText } from './page-checks.js';

/**
 * "My games" (api/web/mygames.html) in Chromium at the three screens: a guest's finished game
 * is listed in plain words; she makes an account there and keeps it; signed out the list is
 * empty, signed in again it is back.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** A finished game played from the page's own session (the API, with the browser's cookie). */
async function finishGame(page: Page, seed: number): Promise<string> {
  return page.evaluate(async (s) => {
    const post = async (url: string, body: unknown, token?: string) =>
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json();
    const g = await post('/api/games', { level: 'random', seed: s });
    let a = g;
    for (let i = 0; i < 2000 && a.view.phase !== 'ended'; i++) {
      const l = a.legal[0];
      const move = l.type === 'pass' ? { type: 'pass', tiles: a.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 } : l.type === 'courtesy' ? { type: 'courtesy', tiles: [] } : l;
      a = await post(`/api/games/${g.id}/actions`, { ...move, after: a.at }, g.token);
    }
    return g.id as string;
  }, seed);
}

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`my games on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let b: BrowserTable;
    let page: Page;
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `mygames-${screen}-${name}.png`), fullPage: true });

    beforeAll(async () => {
      b = await openBrowser(`mygames-${screen}`, { screen });
      page = b.page;
      await page.goto(`${b.base}/`);
    }, 60_000);
    afterAll(async () => {
      await b?.close();
    });

    it("a guest's finished game is listed in plain words; making an account keeps it; signed out it is gone, signed in it is back", async () => {
      const id = await finishGame(page, 50);
      await page.goto(`${b.base}/mygames.html`);
      await settled(page);
      await expect(page.textContent('#me-line')).resolves.toMatch(/playing as a guest/);
      const item = page.locator(`.game-item[data-id="${id}"]`);
      await expect(item.count()).resolves.toBe(1);
      await expect(item.textContent()).resolves.toMatch(/American Mah Jongg, 4 players.*You sat East against random, random, random bots\..*(Mah Jongg|wall game).*Deal number 50/);
      await shot('guest');
      // step through it: her own decisions, with buttons and a slider, the others' moves told between them
      await page.click(`.game-item[data-id="${id}"] button:has-text("Step through it")`);
      await page.waitForSelector('.steps-box:not(.hidden) .step-slider');
      await settled(page);
      const words = () => page.textContent('.step-words');
      await expect(words()).resolves.toBe('The deal.');
      const rack = await page.locator('.steps-box .tile-row').first().locator('.tile').count();
      expect(rack === 13 || rack === 14).toBe(true);
      expect(await page.isDisabled('.steps-box button:has-text("Previous decision")')).toBe(true);
      // far fewer stops than moves: the others' turns and her draws and let-gos are not stops
      const moves = await page.evaluate(async (gameId) => ((await (await fetch(`/api/records/${gameId}/steps?seat=0`)).json()) as { steps: unknown[] }).steps.length, id);
      const stops = Number(await page.getAttribute('.step-slider', 'max')) + 1;
      expect(stops).toBeLessThan(moves / 3);
      await page.click('.steps-box button:has-text("Next decision")');
      await expect(words()).resolves.toMatch(/^Decision 1 of \d+: You pass .+\.$/);
      // past the Charleston (at most three passes, a vote, three more and the courtesy): her play
      await page.fill('.step-slider', '12');
      await expect(words()).resolves.toMatch(/^Decision 12 of \d+: You (discard|call|exchange|declare) /);
      // the others as the table named them, where they sat from her: never by their winds
      await expect(page.textContent('.step-meanwhile')).resolves.toMatch(/^Before it: (.+; )?(Right|Across|Left) (discards|calls) /);
      await page.fill('.step-slider', String(stops - 1));
      await expect(words()).resolves.toMatch(/^The end of the game\. /);
      expect(await page.isDisabled('.steps-box button:has-text("Next decision")')).toBe(true);
      await shot('steps');
      await page.fill('#name', `Rose ${screen}`);
      await page.fill('#password', 'a long password');
      await page.click('#sign-up');
      await page.waitForSelector('#signed-in:not(.hidden)');
      await settled(page);
      await expect(page.textContent('#me-line')).resolves.toBe(`You are signed in as Rose ${screen}.`);
      await expect.poll(() => page.locator('.game-item').count()).toBe(1);
      await shot('signed-in');
      await page.click('#sign-out');
      await page.waitForSelector('#sign-form:not(.hidden)');
      await settled(page);
      await expect(page.locator('.game-item').count()).resolves.toBe(0);
      await expect(page.textContent('#games-note')).resolves.toMatch(/No finished games yet/);
      await page.fill('#name', `rose ${screen}`);
      await page.fill('#password', 'a wrong password');
      await page.click('#sign-in');
      await page.waitForFunction(() => (document.getElementById('account-message')?.textContent ?? '') !== '');
      await expect(page.textContent('#account-message')).resolves.toBe('that name and password do not match an account here');
      await page.fill('#password', 'a long password');
      await page.click('#sign-in');
      await page.waitForSelector('.game-item');
      await settled(page);
      await expect(page.locator('.game-item').count()).resolves.toBe(1);
      // her review, in plain words under the game (once: a review plays many deals out)
      if (screen === 'phone') {
        await page.click(`.game-item[data-id="${id}"] button:has-text("Review my play")`);
        await page.waitForSelector('.review-box .review-item', { timeout: 100_000 });
        await settled(page);
        await expect(page.textContent('.review-box')).resolves.toMatch(/You made \d+ decisions/);
        await shot('review');
        // play on from her first decision: a new game at the table, from just before it
        await page.click('.review-box .review-item >> nth=0');
        await page.click('.review-box button:has-text("Play on from here")');
        await page.waitForSelector('#game:not(.hidden)');
        expect(new URL(page.url()).pathname).toBe('/');
        await page.goto(`${b.base}/mygames.html`);
        await settled(page);
      }
      // her progress in words, with its chart
      await expect(page.textContent('#said')).resolves.toMatch(/This week you played 1 Mah Jongg game and made Mah Jongg in [01] of them\./);
      await page.waitForFunction(() => {
        const img = document.getElementById('chart') as HTMLImageElement | null;
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      // the chart's smallest words, as big as they are shown at this size: readable on a phone too
      const shownWords = await page.evaluate(async () => {
        const img = document.getElementById('chart') as HTMLImageElement;
        const svg = await (await fetch(img.src)).text();
        const smallest = Math.min(...[...svg.matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1])));
        return (smallest * img.clientWidth) / img.naturalWidth;
      });
      expect(shownWords, "the chart's smallest words, in pixels as shown").toBeGreaterThanOrEqual(12);
      await shot('progress');
      // a code for her coach; then her coach, on this device, takes it and sees her games
      await page.click('#invite');
      await page.waitForFunction(() => /Your code: /.test(document.getElementById('invite-code')?.textContent ?? ''));
      const code = (await page.textContent('#invite-code'))!.match(/Your code: (\S+)\./)![1];
      await page.click('#sign-out');
      await page.waitForSelector('#sign-form:not(.hidden)');
      await settled(page);
      await page.fill('#name', `Coach ${screen}`);
      await page.fill('#password', 'a coach password');
      await page.click('#sign-up');
      await page.waitForSelector('#coach-panel:not(.hidden)');
      await settled(page);
      await expect(page.textContent('#invite-code')).resolves.toBe(''); // her code is not shown to whoever signs in next
      await page.fill('#student-code', code);
      await page.click('#take-code');
      await page.waitForSelector('#my-students button');
      await settled(page);
      await page.click('#my-students button');
      await page.waitForSelector(`.game-item[data-id="${id}"]`);
      await settled(page);
      await expect(page.textContent('#whose')).resolves.toBe(`Rose ${screen}'s games, as she shares them with you.`);
      await expect(page.textContent(`.game-item[data-id="${id}"]`)).resolves.toMatch(new RegExp(`Rose ${screen} sat East against random, random, random bots`));
      await expect(page.textContent('#progress-title')).resolves.toBe(`Rose ${screen}'s progress`);
      await expect(page.textContent('#said')).resolves.toMatch(new RegExp(`This week Rose ${screen} played 1 Mah Jongg game`));
      if (screen === 'phone') {
        // her review, read by her coach, speaks of her (the one made for her above, kept by the server)
        const item = `.game-item[data-id="${id}"]`;
        await page.click(`${item} button:has-text("Review Rose phone\u2019s play")`);
        await page.waitForSelector(`${item} .review-box .review-item`, { timeout: 100_000 });
        await settled(page);
        await page.click(`${item} .review-box .review-item >> nth=0`);
        const review = (await page.textContent(`${item} .review-box`)) ?? '';
        expect(review).toMatch(/^Review of Rose phone\u2019s decisionsRose phone made \d+ decisions/);
        expect(review).toMatch(/\(move \d+\): Rose phone chose to /);
        expect(review).toContain('Rose phone\u2019s rack then:');
        expect(review).not.toMatch(/Review of your|You made|you chose|You chose|Your rack/);
        await shot('coach-review');
      }
      // drills for her student (issue 46): given here, listed with how she answers them
      await page.waitForSelector('#give-drills:not(.hidden)');
      await page.selectOption('#drill-kind', 'discard');
      await page.fill('#drill-count', '2');
      await page.click('#give-button');
      await page.waitForFunction(() => (document.getElementById('given-drills')?.textContent ?? '').includes('Not started yet.'));
      await settled(page);
      await expect(page.textContent('#given-drills li')).resolves.toMatch(new RegExp(`^Rose ${screen}: 2 drills to choose a discard, level 1, given \\d{1,2} [A-Z][a-z]+\\. Not started yet\\.$`));
      await shot('coach');
      await page.click('#sign-out');
      await page.waitForSelector('#sign-form:not(.hidden)');
      await page.fill('#name', `Rose ${screen}`);
      await page.fill('#password', 'a long password');
      await page.click('#sign-in');
      await page.waitForSelector('#signed-in:not(.hidden)');
      await settled(page);
      if (screen === 'phone') {
        // her coach's drills, on her Drills page: one answered, and her coach's list says so
        await page.goto(`${b.base}/drills.html`);
        await page.waitForSelector('#given:not(.hidden)');
        await expect(page.textContent('#given-sets li')).resolves.toMatch(/^Coach phone gave you 2 drills: choose a discard, level 1\. 0 done so far\./);
        await page.click('#given-sets button');
        await page.waitForSelector('#drill:not(.hidden)');
        await settled(page);
        await expect(page.textContent('#drill-title')).resolves.toBe('From Coach phone: drill 1 of 2');
        await page.click('#drill-rack .tile:not([disabled]) >> nth=0');
        await page.click('#answer-button');
        await page.waitForSelector('#result:not(.hidden)');
        await settled(page);
        await page.click('#next-button');
        await page.waitForFunction(() => document.getElementById('drill-title')?.textContent === 'From Coach phone: drill 2 of 2');
        await settled(page);
        await page.goto(`${b.base}/mygames.html`);
        await settled(page);
      }
      if (screen === 'phone') {
        // a Mexican Train round, listed too; its deal again opens the Mexican Train table's form filled in
        const train = await page.evaluate(async () => {
          const post = async (url: string, body: unknown, token?: string) =>
            (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json();
          const g = await post('/api/domino/games', { players: 2, round: 0, bots: ['random'], seed: 51 });
          let a = g;
          for (let i = 0; i < 500 && a.legal.length > 0; i++) a = await post(`/api/domino/games/${g.id}/actions`, { ...a.legal[0], after: a.at }, g.token);
          return g.id as string;
        });
        await page.reload();
        await settled(page);
        await expect(page.textContent(`.game-item[data-id="${train}"]`)).resolves.toMatch(/Mexican Train, Sun Lakes senior games rules.*You (won|did not win) with \d+ pips left\..*Deal number 51/);
        await page.click(`.game-item[data-id="${train}"] a:has-text("Play this deal again")`);
        await page.waitForSelector('#start:not(.hidden)');
        // the page's script fills the form in once it has loaded
        await page.waitForFunction(() => (document.getElementById('seed') as HTMLInputElement | null)?.value === '51');
        await expect(page.isChecked('#start input[name="players"][value="2"]')).resolves.toBe(true);
        await expect(page.isChecked('#start input[name="bots"][value="random"]')).resolves.toBe(true);
        await page.goto(`${b.base}/mygames.html`);
        await settled(page);
      }
      // the same deal again: the table's start form filled in with its number and table
      await page.click(`.game-item[data-id="${id}"] a:has-text("Play this deal again")`);
      await page.waitForSelector('#start');
      await page.waitForFunction(() => (document.getElementById('seed') as HTMLInputElement | null)?.value === '50');
      await expect(page.isChecked('#start input[name="ruleset"][value="nmjl-4p"]')).resolves.toBe(true);
      await page.goto(`${b.base}/mygames.html`);
      await settled(page);
    }, 120_000);

    it('fits the screen, no word under 16 px, axe-core clean, every control reached by the keyboard', async () => {
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, 'p, li, label, button')).toBeGreaterThanOrEqual(16);
      expect(await axeViolations(page)).toEqual([]);
      expect(await keyboardReaches(page)).toEqual([]);
    });
  });
}
