import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';

/**
 * Both tables on the three screens (a phone, a tablet, a laptop): no horizontal
 * scrolling, every button of the step on screen, tile text at least 16 px, axe-core clean,
 * every control reachable by the keyboard. Screenshots go to os.tmpdir()/tilemate-screens.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** Buttons (visible, enabled) that stick out of the viewport's width: none may. */
async function buttonsOffScreen(page: Page): Promise<string[]> {
  const width = page.viewportSize()!.width;
  return page.$$eval(
    'button, a.btn',
    (els, w) =>
      els
        .filter((e) => (e as HTMLElement).offsetParent !== null)
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.left + window.scrollX < -1 || r.right + window.scrollX > w + 1;
        })
        .map((e) => (e.textContent ?? '').trim().slice(0, 40) || e.getAttribute('aria-label') || e.id),
    width,
  );
}

/** The smallest computed font size of text inside tiles (labelled faces) and dominoes. */
const smallestTileText = (page: Page) =>
  page.$$eval('.tile .face, .tile .word, .mini span, button.domino .numbers', (els) =>
    Math.min(...els.filter((e) => (e as HTMLElement).offsetParent !== null && (e.textContent ?? '').trim() !== '').map((e) => parseFloat(getComputedStyle(e).fontSize))),
  );

/** Every enabled control the page shows, and whether Tab reaches it. */
async function unreachableByKeyboard(page: Page): Promise<string[]> {
  const ids = await page.$$eval('button:not(:disabled), a[href], input:not(:disabled), summary, select', (els) =>
    els
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e, i) => {
        e.setAttribute('data-kb', String(i));
        return String(i);
      }),
  );
  const reached = new Set<string>();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < ids.length * 2 + 20 && reached.size < ids.length; i++) {
    await page.keyboard.press('Tab');
    const k = await page.evaluate(() => document.activeElement?.getAttribute('data-kb') ?? null);
    if (k !== null) reached.add(k);
  }
  return page.$$eval('[data-kb]', (els, r) => els.filter((e) => !r.includes(e.getAttribute('data-kb')!)).map((e) => (e.textContent ?? '').trim().slice(0, 30) || e.id), [...reached]);
}

async function checkScreen(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  expect(await overflowX(page), `${name}: horizontal overflow`).toBe(0);
  expect(await buttonsOffScreen(page), `${name}: buttons off screen`).toEqual([]);
  const axe = await axeViolations(page);
  if (axe.length) console.log(name, JSON.stringify(axe));
  expect(axe, `${name}: axe`).toEqual([]);
}

/** Presses Display, which the practice page keeps in its header's menu (opened first). */
async function displayButton(page: Page) {
  if ((await page.locator('#menu').count()) > 0 && !(await page.locator('#menu').evaluate((d) => (d as HTMLDetailsElement).open))) await page.click('#menu > summary');
  await page.click('#settings-button');
}

const screens = Object.keys(SCREENS) as ScreenName[];

describe.each(screens)('the Mah Jongg table at the %s size', (screen) => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser(`screen-mj-${screen}`, { screen });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the start form fits, and "Start the game" is clicked like a person clicks it', async () => {
    const { page, base } = t;
    await page.goto(base + '/');
    await settled(page).catch(() => undefined);
    await checkScreen(page, `mj-${screen}-0-start`);
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '7');
    // a real tap (touch screens) or click, never a forced one
    if (SCREENS[screen].hasTouch) await page.tap('#start-button');
    else await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await settled(page);
    await checkScreen(page, `mj-${screen}-1-charleston`);
    expect(await smallestTileText(page)).toBeGreaterThanOrEqual(16);
    expect(await unreachableByKeyboard(page)).toEqual([]);
    // her own card is one step away from the table: in the menu, beside the other pages
    await page.click('#menu > summary');
    const myCard = page.locator('#menu a:has-text("My card")');
    expect(await myCard.isVisible()).toBe(true);
    expect(await myCard.getAttribute('href')).toBe('mycard.html');
    await page.click('#menu > summary');
  });

  it('the card panel never hides the table, and the page still fits', async () => {
    const { page } = t;
    await page.click('#card-button');
    await page.waitForSelector('#card-panel .card-line');
    await settled(page);
    await checkScreen(page, `mj-${screen}-2-card`);
    expect(await smallestTileText(page)).toBeGreaterThanOrEqual(16);
    // no seat and no part of the pool lies under the panel
    const overlaps = await page.evaluate(() => {
      const panel = document.querySelector('#card-panel')!.getBoundingClientRect();
      return [...document.querySelectorAll('#table .seat:not(.hidden), #pool')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.left < panel.right && r.right > panel.left && r.top < panel.bottom && r.bottom > panel.top;
      }).length;
    });
    expect(overlaps).toBe(0);
    await page.click('#card-button');
  });

  it('large print and classic faces: still fits, the tiles drawn as pictures', async () => {
    const { page } = t;
    await displayButton(page);
    await page.check('#large-print');
    await page.check('input[name="faces"][value="classic"]');
    await displayButton(page);
    await settled(page);
    const root = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    expect(root).toBeGreaterThan(20);
    expect(await page.locator('#rack .tile svg.classic').count()).toBe(await page.locator('#rack .tile').count());
    await checkScreen(page, `mj-${screen}-3-large-classic`);
    // the choice is kept for the next visit
    await page.reload();
    await page.waitForSelector('#rack .tile');
    await settled(page);
    expect(await page.locator('#rack .tile svg.classic').count()).toBeGreaterThan(0);
    await displayButton(page);
    await page.uncheck('#large-print');
    await page.check('input[name="faces"][value="labelled"]');
    await displayButton(page);
    expect(await page.locator('#rack .tile svg.classic').count()).toBe(0);
  });
});

describe.each(screens)('the Mexican Train table at the %s size', (screen) => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser(`screen-mt-${screen}`, { screen });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the start form and the first turn fit; train rows wrap and "Put ... here" is on screen', async () => {
    const { page, base } = t;
    await page.goto(base + '/domino.html');
    await settled(page);
    await checkScreen(page, `mt-${screen}-0-start`);
    await page.check('input[name="players"][value="8"]');
    await page.check('input[name="bots"][value="random"]');
    await page.fill('#seed', '21');
    if (SCREENS[screen].hasTouch) await page.tap('#start-button');
    else await page.click('#start-button');
    await page.waitForSelector('#hand button.domino');
    await settled(page);
    // choose a playable domino, so that the trains offer their "Put ... here" buttons
    const playable = page.locator('#hand button.domino:not(:disabled)');
    if ((await playable.count()) > 0) {
      await playable.first().click();
      await settled(page);
      expect(await page.locator('.play-here').count()).toBeGreaterThan(0);
    }
    await checkScreen(page, `mt-${screen}-1-turn`);
    expect(await smallestTileText(page)).toBeGreaterThanOrEqual(16);
    expect(await unreachableByKeyboard(page)).toEqual([]);
  });
});

describe('a whole Mah Jongg game played at the phone size', () => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser('screen-mj-phone-game', { screen: 'phone' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('every step fits the phone, its buttons on screen and tapped, to the end of the game', async () => {
    const { page, base, pageErrors } = t;
    await page.goto(base + '/');
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '11');
    await page.tap('#start-button');
    await page.waitForSelector('#rack .tile');
    const seen = new Set<string>();
    let steps = 0;
    let hinted = false;
    for (; steps < 400; steps++) {
      await settled(page);
      if (await page.isVisible('#end')) break;
      if ((await overflowX(page)) > 0) {
        await page.screenshot({ path: join(SHOTS, 'mj-phone-game-overflow.png'), fullPage: true });
        console.log(
          await page.$$eval('body *', (els) =>
            els
              .filter((e) => e.getBoundingClientRect().right > 391)
              .slice(0, 8)
              .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? '').slice(0, 40)}`),
          ),
        );
      }
      expect(await overflowX(page)).toBe(0);
      expect(await buttonsOffScreen(page)).toEqual([]);
      const kinds = await page.$$eval('#actions button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.action ?? ''));
      // discard-anyway: at a learner's level the page asks once before a dangerous discard
      const first = ['declare', 'callMahJongg', 'pass', 'vote-no', 'courtesy', 'draw', 'discard-anyway', 'discard', 'decline'].find((k) => kinds.includes(k));
      if (first === undefined) throw new Error(`nothing to do: "${await page.locator('#prompt').textContent()}"`);
      if (!seen.has(first)) {
        seen.add(first);
        await page.screenshot({ path: join(SHOTS, `mj-phone-game-${first}.png`), fullPage: true });
      }
      const free = () =>
        page.$$eval('#rack button:not(:disabled)', (bs) => bs.map((b) => ({ index: (b as HTMLElement).dataset.index!, tile: (b as HTMLElement).dataset.tile! })).filter((x) => x.tile !== 'J'));
      if (first === 'pass') for (const x of (await free()).slice(0, 3)) await page.tap(`#rack [data-index="${x.index}"]`);
      if (first === 'discard' && !hinted) {
        // the hint in one plain sentence, its figures behind a Details toggle
        hinted = true;
        await page.tap('#hint-button');
        await page.waitForSelector('#hint:not(.hidden) [data-action="follow-hint"]');
        await settled(page);
        const why = (await page.locator('#hint .hint-why').textContent()) ?? '';
        expect(why).toMatch(/^[A-Z].*\.$/);
        expect(why).not.toMatch(/±|standard error|sampled deals/);
        // the figures behind the hint, in a player's words too: no statistics' terms
        const details = (await page.locator('#hint details p').textContent()) ?? '';
        expect(details).toMatch(/practice games/);
        expect(details).not.toMatch(/±|standard error|sampled|mean score/);
        await page.tap('#hint details summary');
        expect(await overflowX(page)).toBe(0);
        await page.locator('#hint').screenshot({ path: join(SHOTS, 'mj-phone-game-hint.png') });
      }
      if (first === 'courtesy' || first === 'discard') await page.tap(`#rack [data-index="${(await free())[0].index}"]`);
      await page.tap(`[data-action="${first}"]`);
      if (first === 'pass') {
        // the Charleston names the tiles that came in
        await settled(page);
        if (!(await page.isVisible('#end'))) await expect(page.locator('#prompt-detail').textContent()).resolves.toMatch(/^You received (no tiles|[^.]+)\./);
      }
    }
    expect(steps).toBeLessThan(400);
    expect(seen.has('discard')).toBe(true);
    // the result is brought into view and given the focus
    await page.waitForSelector('#end:not(.hidden) table');
    expect(await overflowX(page)).toBe(0);
    await settled(page);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('end');
    const top = await page.locator('#end').evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(844 / 2);
    await page.screenshot({ path: join(SHOTS, 'mj-phone-game-end.png'), fullPage: false });
    // the review: the disagreements first, counted, and it fits the phone too
    await page.waitForSelector('#review ol li button', { timeout: 240_000 });
    await expect(page.locator('#review > p').first().textContent()).resolves.toMatch(/^You made \d+ decisions?(, and (every one|it) was|; at (one|\d+) of them another choice was clearly better)/);
    expect(await overflowX(page)).toBe(0);
    await page.locator('#review li button').first().tap();
    await page.waitForSelector('#moment:not(.hidden)');
    expect(await overflowX(page)).toBe(0);
    await page.locator('#review').screenshot({ path: join(SHOTS, 'mj-phone-game-review.png') });
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
