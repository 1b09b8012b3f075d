import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';
import { everyControlInside, keyboardReaches, smallestText } from './page-checks.js';

/** "How to play" (api/web/howto.html) and the links to the new pages, at the three screens. */

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`how to play on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let b: BrowserTable;
    let page: Page;
    beforeAll(async () => { b = await openBrowser(`howto-${screen}`, { screen }); page = b.page; }, 60_000);
    afterAll(async () => { await b?.close(); });

    it('the table page links to the new pages, and How to play walks a beginner through a hand', async () => {
      await page.goto(`${b.base}/`);
      for (const href of ['chase.html', 'howto.html']) expect(await page.locator(`header a[href="${href}"]`).count()).toBe(1);
      await page.goto(`${b.base}/howto.html`);
      const headings = await page.$$eval('main h2', (hs) => hs.map((h) => h.textContent));
      expect(headings).toEqual(['What you are trying to do', 'The tiles', 'Groups and jokers', 'The deal', 'The Charleston: swapping tiles before play', 'Playing a turn', 'Concealed lines', 'The end of a hand', 'Try it']);
      // the example tiles are drawn as tiles
      expect(await page.locator('[data-tiles] .tile').count()).toBe(15);
      await page.screenshot({ path: join(SHOTS, `howto-${screen}.png`), fullPage: true });
    });

    it('fits the screen, no word under 16 px, axe-core clean, every link reached by the keyboard', async () => {
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, 'p, li, .tile .face, .tile .word')).toBeGreaterThanOrEqual(16);
      expect(await axeViolations(page)).toEqual([]);
      expect(await keyboardReaches(page)).toEqual([]);
    });
  });
}
