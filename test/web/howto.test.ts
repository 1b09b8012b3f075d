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
    beforeAll(async () => {
      b = await openBrowser(`howto-${screen}`, { screen });
      page = b.page;
    }, 60_000);
    afterAll(async () => {
      await b?.close();
    });

    it('the table page links to the new pages, and How to play walks a beginner through a hand', async () => {
      await page.goto(`${b.base}/`);
      for (const href of ['chase.html', 'howto.html']) expect(await page.locator(`header a[href="${href}"]`).count()).toBe(1);
      await page.goto(`${b.base}/howto.html`);
      const headings = await page.$$eval('main h2', (hs) => hs.map((h) => h.textContent));
      expect(headings).toEqual([
        'What you are trying to do',
        'The tiles',
        'Groups and jokers',
        'The deal',
        'The Charleston: swapping tiles before play',
        'Playing a turn',
        'Reading the card',
        'The end of a hand',
        'Mexican Train dominoes',
        'Try it',
      ]);
      // the example tiles are drawn as tiles: 15 of the set, and a whole line of 14
      expect(await page.locator('[data-tiles] .tile').count()).toBe(29);
      expect(await page.locator('section[aria-labelledby="h-card"] [data-tiles] .tile').count()).toBe(14);
      await page.screenshot({ path: join(SHOTS, `howto-${screen}.png`), fullPage: true });
    });

    it('Reading the card explains a line\'s name, X and C, jokers on the card, "tiles away", and links the notation guide', async () => {
      const text = (await page.locator('section[aria-labelledby="h-card"]').textContent())!.replace(/\s+/g, ' ');
      for (const words of ['Evens #1', 'X means an exposed line', 'C means a concealed line', 'The card never shows jokers', 'Tiles away', '"3 tiles away"', 'out of reach']) {
        expect(text).toContain(words);
      }
      expect(await page.locator('section[aria-labelledby="h-card"] a[href="/docs/card-notation"]').count()).toBe(1);
      expect(await page.locator('a[href="mexican-train-rules.html"]').count()).toBe(1);
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

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`the Mexican Train rules on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let b: BrowserTable;
    let page: Page;
    beforeAll(async () => {
      b = await openBrowser(`train-rules-${screen}`, { screen });
      page = b.page;
    }, 60_000);
    afterAll(async () => {
      await b?.close();
    });

    it("the Mexican Train table links its rules page, which says each rule set's way where they differ and cites its sheet", async () => {
      await page.goto(`${b.base}/domino.html`);
      // the table's header has room for the link
      await page.locator('header.top').screenshot({ path: join(SHOTS, `train-rules-link-${screen}.png`) });
      expect(await everyControlInside(page)).toEqual([]);
      await page.click('header a[href="mexican-train-rules.html"]');
      await page.waitForURL(/mexican-train-rules\.html$/);
      await expect(page.locator('h1').textContent()).resolves.toBe('Mexican Train rules');
      const sections = await page.$$eval('main section', (ss) => ss.map((s) => ({ title: s.querySelector('h2')!.textContent!, text: s.textContent!.replace(/\s+/g, ' ') })));
      expect(sections.length).toBeGreaterThanOrEqual(8);
      // every section but the last (Try it) says which sheet its rules come from
      for (const s of sections.slice(0, -1)) expect(s.text, s.title).toMatch(/Sun Lakes rules|District rules|Tilemate's own choices/);
      const doubles = sections.find((s) => s.title === 'Doubles')!.text;
      expect(doubles).toContain('With the Sun Lakes rules');
      expect(doubles).toContain('With the District rules');
      await page.screenshot({ path: join(SHOTS, `train-rules-${screen}.png`), fullPage: true });
    });

    it('fits the screen, no word under 16 px, axe-core clean, every link reached by the keyboard', async () => {
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, 'p, li')).toBeGreaterThanOrEqual(16);
      expect(await axeViolations(page)).toEqual([]);
      expect(await keyboardReaches(page)).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    });
  });
}
