import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPeople, overflowX, SCREENS, SHOTS, type BrowserPeople, type ScreenName } from './browser.js';
import { everyControlInside, smallestText } from './page-checks.js';

/**
 * The card follows the player (issue 29): the card she saves and chooses on My card is the one
 * Which hand?, the practice table's start form and a table's start form begin on, after a
 * reload too, and the table names it to everyone seated and watching. My card keeps what she
 * types as a draft, asks before the example replaces it (with Undo), and links the notation
 * guide served at /docs/card-notation.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
/** The title of My card's example card (api/web/mycard.js). */
const EXAMPLE_TITLE = 'My practice card';
const TYPED = "card: Ruth's card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n";

let people: BrowserPeople;
beforeAll(async () => {
  people = await openPeople('card-follows');
}, 60_000);
afterAll(async () => {
  await people?.close();
});

describe('the card she chose follows her', () => {
  let page: Page;
  let errors: string[];
  let watcher: Page;

  beforeAll(async () => {
    ({ page, pageErrors: errors } = await people.person('desktop'));
  }, 60_000);

  it('saved on My card, it is her card: the page says so and marks it', async () => {
    await page.goto(`${people.base}/mycard.html`);
    await settled(page);
    // in the notation (the card as printed is card-editor.test.ts's); the box is empty: the example goes straight in, nothing to ask
    await page.click('#to-notation');
    await page.click('#example');
    await expect(page.isVisible('#ask')).resolves.toBe(false);
    await page.waitForSelector('.all-good');
    await page.fill('#card-name', 'club-card');
    await page.click('#save');
    await page.waitForSelector('#saved li[data-name="club-card"] .chosen-mark');
    await expect(page.locator('#save-message').textContent()).resolves.toMatch(/chosen as your card/);
    await expect(page.locator('#chosen-words').textContent()).resolves.toContain(`Your card is ${EXAMPLE_TITLE} (club-card)`);
  });

  it('Which hand? opens on it without being told in the address', async () => {
    await page.goto(`${people.base}/chase.html`);
    await settled(page);
    await expect.poll(() => page.locator('#card').inputValue()).toBe('club-card');
  });

  it('the practice table\'s start form plays on it, and the table says "Card:" with its name, after a reload too', async () => {
    await page.goto(`${people.base}/`);
    await page.waitForSelector('.chosen-card');
    await expect.poll(() => page.locator('.chosen-card').textContent()).toContain(`your own card, ${EXAMPLE_TITLE} (club-card)`);
    await page.fill('#seed', '7');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await expect(page.locator('#card-in-play').textContent()).resolves.toBe(`Card: ${EXAMPLE_TITLE}`);
    // the game is on her card: its Card panel lists the example's lines
    await page.click('#card-button');
    await page.waitForSelector('#card-panel .card-line');
    const ids = await page.$$eval('#card-panel .card-line h3 span:first-child', (hs) => hs.map((h) => h.textContent!.replace(/ \(concealed\)$/, '')));
    expect(ids.every((id) => /^(Evens|Runs|Winds) #\d$/.test(id))).toBe(true);
    await page.reload();
    await page.waitForSelector('#rack .tile');
    await expect(page.locator('#card-in-play').textContent()).resolves.toBe(`Card: ${EXAMPLE_TITLE}`);
    await page.screenshot({ path: join(SHOTS, 'card-follows-practice-desktop.png'), fullPage: true });
  });

  it("a table's start form offers it first, and the table names it to her and to someone watching", async () => {
    await page.goto(`${people.base}/together.html`);
    await settled(page);
    await expect.poll(() => page.locator('#card').inputValue()).toBe('club-card');
    await expect(page.isVisible('#card-choice')).resolves.toBe(true);
    await page.fill('#open-name', 'Ruth');
    await page.click('#open-button');
    await page.waitForSelector('#lobby:not(.hidden) #seat-list li');
    await expect.poll(() => page.locator('#lobby-card').textContent()).toBe(`Card: ${EXAMPLE_TITLE}`);
    const code = (await page.locator('#code').textContent())!.trim();

    ({ page: watcher } = await people.person('phone'));
    await watcher.goto(`${people.base}/together.html?code=${code}`);
    await watcher.waitForSelector('#join-table:not(.hidden)');
    await expect(watcher.locator('#join-about').textContent()).resolves.toContain(`on the card ${EXAMPLE_TITLE}`);
    await watcher.fill('#join-name', 'Edna');
    await watcher.check('#join-seats input[value="watch"]');
    await watcher.click('#join-button');
    await watcher.waitForSelector('#lobby:not(.hidden)');
    await expect.poll(() => watcher.locator('#lobby-card').textContent()).toBe(`Card: ${EXAMPLE_TITLE}`);

    await page.click('#start-button');
    await page.waitForSelector('#table-status:not(.hidden)');
    await expect.poll(() => page.locator('#card-line').textContent()).toBe(`Card: ${EXAMPLE_TITLE}`);
    await watcher.waitForSelector('#table-status:not(.hidden)');
    await expect(watcher.locator('#card-line').textContent()).resolves.toBe(`Card: ${EXAMPLE_TITLE}`);
    await watcher.screenshot({ path: join(SHOTS, 'card-follows-table-watching-phone.png'), fullPage: true });
    expect(await axeViolations(watcher)).toEqual([]);
  });

  it('choosing the practice card on My card takes every page back to it', async () => {
    await page.goto(`${people.base}/mycard.html`);
    await settled(page);
    await page.waitForSelector('#saved li[data-name=""] button');
    await page.click('#saved li[data-name=""] button');
    await page.waitForSelector('#saved li[data-name=""] .chosen-mark');
    await expect(page.locator('#chosen-words').textContent()).resolves.toMatch(/^Your card is the Tilemate practice card/);
    await page.goto(`${people.base}/chase.html`);
    await settled(page);
    await expect.poll(() => page.locator('#card').inputValue()).toBe('');
    await page.goto(`${people.base}/`);
    await expect.poll(() => page.locator('.chosen-card').textContent()).toMatch(/practice card/);
    expect(errors).toEqual([]);
  });
});

describe('My card keeps what she types, and asks before replacing it', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ({ page, pageErrors: errors } = await people.person('phone'));
  }, 60_000);

  it('a draft comes back after a reload, with a note and a way to discard it (and Undo)', async () => {
    await page.goto(`${people.base}/mycard.html`);
    await settled(page);
    await expect(page.isVisible('#draft-note')).resolves.toBe(false);
    await page.click('#to-notation');
    await page.fill('#card-text', TYPED);
    await page.fill('#card-name', 'ruth');
    await page.reload();
    await settled(page);
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);
    await expect(page.inputValue('#card-name')).resolves.toBe('ruth');
    await expect(page.locator('#draft-note').textContent()).resolves.toMatch(/^Draft restored/);
    await page.waitForSelector('.all-good');
    await page.screenshot({ path: join(SHOTS, 'card-follows-draft-phone.png'), fullPage: true });
    await page.click('#discard-draft');
    await expect(page.inputValue('#card-text')).resolves.toBe('');
    await page.click('#undo');
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);
    // put back, it is a draft again; discarded, a reload has nothing to restore
    await page.reload();
    await settled(page);
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);
    await page.click('#discard-draft');
    await page.reload();
    await settled(page);
    await expect(page.inputValue('#card-text')).resolves.toBe('');
    await expect(page.isVisible('#draft-note')).resolves.toBe(false);
  });

  it('"Start from an example" asks first when the box holds her card; "Keep" keeps it, yes replaces it, Undo puts it back', async () => {
    await page.fill('#card-text', TYPED);
    await page.click('#example');
    await page.waitForSelector('#ask:not(.hidden)');
    await expect(page.locator('#ask-words').textContent()).resolves.toBe('Replace what you have typed with the example?');
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ask-no');
    await page.screenshot({ path: join(SHOTS, 'card-follows-ask-phone.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.click('#ask-no');
    await expect(page.isVisible('#ask')).resolves.toBe(false);
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);

    await page.click('#example');
    await page.click('#ask-yes');
    await expect(page.inputValue('#card-text')).resolves.toMatch(/^card: My practice card/);
    await expect(page.locator('#undo-words').textContent()).resolves.toMatch(/Undo puts back what you had typed/);
    await page.click('#undo');
    await expect(page.inputValue('#card-text')).resolves.toBe(TYPED);
    expect(errors).toEqual([]);
  });
});

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`the notation guide and the cheat sheet on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let page: Page;
    let errors: string[];
    /** What the server's Content-Security-Policy refused, as the browser reports it. */
    const refused: string[] = [];
    beforeAll(async () => {
      ({ page, pageErrors: errors } = await people.person(screen));
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
    }, 60_000);

    it('My card links the guide, which opens as a page at /docs/card-notation', async () => {
      await page.goto(`${people.base}/mycard.html`);
      await settled(page);
      await expect(page.locator('main').textContent()).resolves.not.toContain('in the Tilemate folder');
      const r = await page.request.get(`${people.base}/docs/card-notation`);
      expect(r.status()).toBe(200);
      await page.click('#guide-link');
      await page.waitForURL(/\/docs\/card-notation$/);
      await expect(page.locator('h1').textContent()).resolves.toBe('Writing your card');
      expect(await page.locator('main table').count()).toBeGreaterThanOrEqual(3);
      await page.screenshot({ path: join(SHOTS, `card-notation-${screen}.png`), fullPage: true });
      expect(await overflowX(page)).toBe(0);
      expect(await smallestText(page, 'main p, main li, main td')).toBeGreaterThanOrEqual(16);
      expect(await axeViolations(page)).toEqual([]);
      // its style sheets load under the policy: the panel is drawn with its border
      expect(await page.$eval('main article', (a) => getComputedStyle(a).borderTopWidth)).toBe('3px');
      expect(refused).toEqual([]);
    });

    it('the notation in short opens on My card: every kind of tile, x and c, jokers and a whole line', async () => {
      await page.goto(`${people.base}/mycard.html`);
      await settled(page);
      await page.click('#to-notation');
      await page.click('#cheat summary');
      const text = (await page.locator('#cheat').textContent())!;
      for (const words of ['N E W S', 'A flower', 'Red dragon', 'Soap', 'exposed line', 'concealed line', 'Jokers', '22a 444a 6666a 888a FF ; x 25']) {
        expect(text.replace(/\s+/g, ' ')).toContain(words);
      }
      await page.screenshot({ path: join(SHOTS, `mycard-cheat-${screen}.png`), fullPage: true });
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, '#cheat td, #cheat p')).toBeGreaterThanOrEqual(16);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
