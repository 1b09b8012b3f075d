import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';
import { everyControlInside, keyboardReaches, smallestText } from './page-checks.js';

/**
 * "My card" (api/web/mycard.html) in Chromium at the three screens, written in the notation
 * ("Write it in the notation instead"; the card as printed is card-editor.test.ts's): a card typed in the
 * notation is checked as it is typed (a bad line shows its number and token), each line
 * with its ways and an example hand; saved, it is chosen on the analyzer page, whose lines
 * are then those of `tilemate analyze --card`.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
const HAND = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F J';

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`the card page on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let b: BrowserTable;
    let page: Page;
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `mycard-${screen}-${name}.png`), fullPage: true });

    beforeAll(async () => {
      b = await openBrowser(`mycard-${screen}`, { screen });
      page = b.page;
      await page.goto(`${b.base}/mycard.html`);
      await settled(page);
      // the notation, for those who like it (the card as printed is card-editor.test.ts's)
      await page.click('#to-notation');
      await page.waitForSelector('#notation-mode:not(.hidden)');
    }, 60_000);
    afterAll(async () => {
      await b?.close();
    });

    it("a typed card is checked as it is typed: each line's ways to make it and a winning hand of 14 tiles", async () => {
      await page.click('#example');
      await page.waitForSelector('.all-good');
      await settled(page);
      const lines = await page.$$eval('.my-line', (ls) =>
        ls.map((l) => ({ id: (l as HTMLElement).dataset.id, forms: Number((l as HTMLElement).dataset.forms), tiles: l.querySelectorAll('.example .tile').length })),
      );
      expect(lines.map((l) => l.id)).toEqual(['Evens #1', 'Evens #2', 'Runs #1', 'Winds #1']);
      for (const l of lines) {
        expect(l.forms).toBeGreaterThan(0);
        expect(l.tiles).toBe(14);
      }
      await shot('good');
    });

    it('a bad line shows its line number and the token, and what was expected', async () => {
      const text = await page.inputValue('#card-text');
      await page.fill('#card-text', text.replace('FF 2222a 44b 66b 8888a', 'FF 2222a 44q 66b 8888a'));
      await page.waitForSelector('.problem[data-line]');
      await settled(page);
      const p = page.locator('.problem').first();
      await expect(p.getAttribute('data-line')).resolves.toBe('5');
      await expect(p.textContent()).resolves.toMatch(/^Line 5, at "44q": "q" is not a tile/);
      await shot('bad-line');
    });

    it('fits the screen: no sideways scrolling, every control inside it, no word under 16 px', async () => {
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, '.tile .face, .tile .word, .problem, label, p, li')).toBeGreaterThanOrEqual(16);
    });

    it('axe-core finds no serious or critical violation, and the keyboard reaches every control', async () => {
      expect(await axeViolations(page)).toEqual([]);
      expect(await keyboardReaches(page)).toEqual([]);
    });

    it('saved, the card is listed and chosen on the analyzer page: its lines are those of tilemate analyze --card', async () => {
      // the box holds the mended card: the example replaces it once she says yes
      await page.click('#example');
      await page.click('#ask-yes');
      await page.waitForSelector('.all-good');
      await page.fill('#card-name', 'my-card');
      await page.click('#save');
      await page.waitForSelector('#saved li[data-name="my-card"]');
      await expect(page.locator('#save-message').textContent()).resolves.toMatch(/Saved as my-card/);
      // saved, it is her card: marked in the list; the Undo of the example is gone
      await expect(page.isVisible('#undo-row')).resolves.toBe(false);
      await page.waitForSelector('#saved li[data-name="my-card"] .chosen-mark');
      await page.screenshot({ path: join(SHOTS, `mycard-${screen}-saved.png`), fullPage: true });
      const text = await page.inputValue('#card-text');
      // the list with its controls passes axe-core too
      expect(await axeViolations(page)).toEqual([]);
      expect(await everyControlInside(page)).toEqual([]);
      await page.click('#saved li[data-name="my-card"] a[href^="chase.html"]');
      await page.waitForURL(/chase\.html\?card=my-card/);
      await expect.poll(() => page.locator('#card').inputValue()).toBe('my-card');
      await page.goto(`${b.base}/chase.html?card=my-card&hand=${encodeURIComponent(HAND)}`);
      await page.waitForSelector('.chase-line');
      await settled(page);
      const file = join(mkdtempSync(join(tmpdir(), 'tilemate-mycard-')), 'my.card');
      writeFileSync(file, text);
      const r = spawnSync(process.execPath, ['bin/tilemate.js', 'analyze', '--hand', HAND, '--card', file, '--json', '--top', '8'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const expected = (JSON.parse(r.stdout) as { results: { id: string; tilesAway: number; possible: boolean }[] }).results;
      const shown = await page.$$eval('.chase-line', (ls) => ls.map((l) => ({ id: (l as HTMLElement).dataset.id!, away: Number((l as HTMLElement).dataset.away) })));
      expect(shown).toEqual(expected.map((x) => ({ id: x.id, away: x.possible ? x.tilesAway : -1 })));
      expect(shown[0].id).toBe('Evens #1');
    });

    it('a game on the saved card: the table page plays on it, and its Card panel lists its lines', async () => {
      await page.goto(`${b.base}/mycard.html`);
      await page.click('#saved li[data-name="my-card"] a[href^="./?card="]');
      await page.waitForSelector('.chosen-card');
      await expect.poll(() => page.locator('.chosen-card').textContent()).toMatch(/your own card, My practice card \(my-card\)/);
      await page.fill('#seed', '7');
      // Enter submits the form
      await page.press('#seed', 'Enter');
      await page.waitForSelector('#rack .tile');
      await page.waitForSelector('#card-button:not([disabled])');
      await page.focus('#card-button');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#card-panel .card-line');
      const ids = await page.$$eval('#card-panel .card-line h3 span:first-child', (hs) => hs.map((h) => h.textContent!.replace(/ \(concealed\)$/, '')));
      expect(ids.sort()).toEqual(['Evens #1', 'Evens #2', 'Runs #1', 'Winds #1']);
    });
  });
}
