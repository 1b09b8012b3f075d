import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';
import { everyControlInside, keyboardReaches, smallestText } from './page-checks.js';

/**
 * "Which hand should I chase?" (api/web/chase.html) in Chromium at the three screens: a rack
 * built by tapping tiles gives the lines `tilemate analyze` gives; the address keeps the
 * rack; the advice for the moment comes in one sentence; nothing overflows; axe-core and
 * the keyboard reach everything.
 */

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, ['bin/tilemate.js', 'analyze', ...args, '--json', '--top', '8'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { results: { id: string; tilesAway: number; possible: boolean; need: string[] }[] }).results;
};

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

async function tap(page: Page, selector: string, touch: boolean) {
  if (touch) await page.tap(selector);
  else await page.click(selector);
}

/** Taps each tile on the picker, into the chosen target (hand, exposed, seen, tile). */
async function tapTiles(page: Page, target: string, tiles: string[], touch: boolean) {
  await tap(page, `input[name="target"][value="${target}"]`, touch);
  for (const t of tiles) await tap(page, `#picker [data-tile="${t}"]`, touch);
}

const pageLines = (page: Page) => page.$$eval('.chase-line', (ls) => ls.map((l) => ({ id: (l as HTMLElement).dataset.id!, away: Number((l as HTMLElement).dataset.away) })));

const CASES: Record<ScreenName, { hand: string; exposed?: string[]; seen?: string }> = {
  // the README's own hand
  phone: { hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J' },
  // the README's hand with an exposure and tiles seen
  tablet: { hand: '2B 4B 6B 8B 4C 4C 4C 8C 8C 8C', exposed: ['F F J'], seen: '4C 8D 8D' },
  desktop: { hand: '1B 1B 2C 3D N RD F J 5D 5D 7C 8C 9C' },
};

for (const screen of Object.keys(SCREENS) as ScreenName[]) {
  describe(`the chase page on the ${screen} (${SCREENS[screen].width}x${SCREENS[screen].height})`, () => {
    let b: BrowserTable;
    let page: Page;
    const touch = SCREENS[screen].hasTouch;
    const c = CASES[screen];
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `chase-${screen}-${name}.png`), fullPage: true });

    beforeAll(async () => {
      b = await openBrowser(`chase-${screen}`, { screen });
      page = b.page;
      await page.goto(`${b.base}/chase.html`);
    }, 60_000);
    afterAll(async () => {
      await b?.close();
    });

    it('a rack built by tapping tiles gives the same lines as tilemate analyze', async () => {
      await tapTiles(page, 'hand', c.hand.split(' '), touch);
      for (const g of c.exposed ?? []) {
        await tap(page, '#new-group', touch);
        await tapTiles(page, 'exposed', g.split(' '), touch);
      }
      if (c.seen) await tapTiles(page, 'seen', c.seen.split(' '), touch);
      await page.waitForSelector('.chase-line');
      await settled(page);
      const expected = cli(['--hand', c.hand, ...(c.exposed ? ['--exposed', c.exposed.join('; ')] : []), ...(c.seen ? ['--seen', c.seen] : [])]);
      expect(await pageLines(page)).toEqual(expected.map((r) => ({ id: r.id, away: r.possible ? r.tilesAway : -1 })));
      // what the picture marks missing is what the sentence names, and the analyzer's need
      const shown = await page.$$eval('.chase-line', (ls) =>
        ls.map((l) => ({
          marked: [...l.querySelectorAll('.form .tile.mark-need, .form .tile.mark-joker')].map((t) => (t as HTMLElement).dataset.tile!).sort(),
          said: ((l.querySelector('.needs') as HTMLElement).dataset.missing ?? '').split(' ').filter(Boolean).sort(),
        })),
      );
      shown.forEach((s, i) => {
        expect(s.said).toEqual(s.marked);
        if (expected[i].possible) expect(s.marked).toEqual([...expected[i].need].sort());
      });
      await expect(page.locator('#lines-note').textContent()).resolves.toMatch(new RegExp(`Your closest line is ${expected[0].id}|You have Mah Jongg`));
      await shot('lines');
    });

    it('the address keeps the rack: a reload shows the same tiles and lines', async () => {
      const before = await pageLines(page);
      const url = page.url();
      expect(url).toContain('hand=');
      await page.goto(url);
      await page.waitForSelector('.chase-line');
      await settled(page);
      expect(await pageLines(page)).toEqual(before);
      expect(await page.locator('#hand .tile').count()).toBe(c.hand.split(' ').length);
    });

    it('fits the screen: no sideways scrolling, every control inside it, no word under 16 px', async () => {
      expect(await overflowX(page)).toBe(0);
      expect(await everyControlInside(page)).toEqual([]);
      expect(await smallestText(page, '.tile .face, .tile .word, .needs, .legend, label, summary')).toBeGreaterThanOrEqual(16);
    });

    it('axe-core finds no serious or critical violation, and the keyboard reaches every control', async () => {
      expect(await axeViolations(page)).toEqual([]);
      expect(await keyboardReaches(page)).toEqual([]);
    });
  });
}

describe('the chase page: advice for the moment', () => {
  let b: BrowserTable;
  let page: Page;
  beforeAll(async () => {
    b = await openBrowser('chase-advice', { screen: 'desktop' });
    page = b.page;
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  const ask = async () => {
    await page.click('#advise');
    await page.waitForSelector('#advice .advice-do');
    await settled(page);
    return (await page.locator('#advice .advice-do').textContent())!;
  };

  it('a Charleston pass: which tiles, in which direction, in words', async () => {
    await page.goto(`${b.base}/chase.html?hand=${encodeURIComponent('2B 4B 4B 6B 6B 8B 9C 1D 3D N E RD F J')}&moment=charleston&dir=left&blind=1`);
    await page.waitForSelector('.chase-line');
    expect(await page.locator('#direction').inputValue()).toBe('left');
    expect(await page.locator('#blind').isChecked()).toBe(true);
    expect(await ask()).toMatch(/^Pass .* to the left|^Pass the \d tiles you receive on to the left/);
    // the plan: the family the pass keeps her on, and why
    await expect(page.locator('#advice').textContent()).resolves.toMatch(/Aim for [A-Z0-9][\w ]*: the tiles you keep leave you \d+ tiles? from Mah Jongg with /);
    await expect(page.locator('#advice details').textContent()).resolves.toMatch(/\w/);
  });

  it('chances on request: a sentence per line, the figures behind Details', async () => {
    await page.click('#chances');
    await page.waitForSelector('.chase-line .chance');
    await settled(page);
    await expect(page.locator('.chase-line .chance').first().textContent()).resolves.toMatch(/finished about (\d+ times|once) in 100|almost never finished/);
    await page.locator('.chase-line details summary').first().click();
    await expect(page.locator('.chase-line details').first().textContent()).resolves.toMatch(/expected score -?[\d.]+ points, over 200 simulated deals/);
  });

  it('the vote and the courtesy pass', async () => {
    await page.selectOption('#moment', 'vote');
    expect(page.url()).toContain('moment=vote');
    expect(await ask()).toMatch(/^Vote (yes|no)/);
    await page.selectOption('#moment', 'courtesy');
    expect(await ask()).toMatch(/^Offer /);
  });

  it('a discard on 14 tiles, a call on 13 with the discard chosen by tapping', async () => {
    await page.selectOption('#moment', 'discard');
    expect(await ask()).toMatch(/^(Discard|Declare|Swap) /);
    await page.screenshot({ path: join(SHOTS, 'chase-desktop-advice.png'), fullPage: true });
    // 13 tiles: take the joker back, then choose the discard to answer
    await page.selectOption('#moment', 'call');
    await page.click('#hand [data-tile="J"]');
    await page.check('input[name="target"][value="tile"]');
    await page.click('#picker [data-tile="4B"]');
    await page.selectOption('#from', 'right');
    expect(page.url()).toMatch(/tile=4B/);
    expect(await ask()).toMatch(/^(Call 4 Bam|Let 4 Bam go)/);
  });

  it('asks for what is missing instead of failing: too few tiles for a discard', async () => {
    await page.goto(`${b.base}/chase.html?hand=${encodeURIComponent('1B 2B 3B')}&moment=discard`);
    await page.click('#advise');
    await expect(page.locator('#advice').textContent()).resolves.toMatch(/hold 14 tiles; this rack has 3/);
    await expect(page.locator('#lines-note').textContent()).resolves.toMatch(/Put 10 more tiles on your rack/);
  });
});
