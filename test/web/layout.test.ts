import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable, type ScreenName } from './browser.js';
import { playOn } from './late-game.js';

/**
 * The Mah Jongg table's layout at the three screens (issue #29, "Screens"): the header in one
 * row (two at most in large print), "Start the game" on the first screen, the API's pages
 * linked and readable on a phone, tile words never clipped, the card panel opened on screen,
 * and late in a game a pool of some ninety discards laid out across the table's width with the
 * rack and its buttons still within a screen of the seats. Screenshots go to
 * os.tmpdir()/tilemate-screens.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
const screens = Object.keys(SCREENS) as ScreenName[];

/** How many rows the header's title and controls take: their distinct tops. */
const headerRows = (page: Page) =>
  page.$$eval('header.top h1, header.top .tools > *', (els) => {
    const tops: number[] = [];
    for (const e of els) {
      if ((e as HTMLElement).offsetParent === null) continue;
      const r = e.getBoundingClientRect();
      if (!tops.some((t) => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
    }
    return tops.length;
  });

async function shotAndAxe(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  expect(await overflowX(page), `${name}: horizontal overflow`).toBe(0);
  const axe = await axeViolations(page);
  if (axe.length) console.log(name, JSON.stringify(axe));
  expect(axe, `${name}: axe`).toEqual([]);
}

async function startGame(page: Page, base: string, screen: ScreenName, seed: number) {
  // a new game each time: the tab forgets the one it was playing
  await page.goto(base + '/');
  await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
  await page.goto(base + '/');
  await page.check('input[name="level"][value="easy"]');
  await page.fill('#seed', String(seed));
  if (SCREENS[screen].hasTouch) await page.tap('#start-button');
  else await page.click('#start-button');
  await page.waitForSelector('#rack .tile');
  await settled(page);
}

/**
 * Every tile's words drawn at each size in the place that size is used (the rack, the
 * exposures, the pool), and those whose words stick out of the tile: "Green Dragon" drawn as
 * "Dragor" is one.
 */
const clippedTileWords = (page: Page): Promise<string[]> =>
  // a string, so that the test's bundler leaves the page's own import() alone
  page.evaluate(
    `import('/tiles.js').then(${String(async (tiles: { tileElement: (n: string, o: object) => HTMLElement; TILE_ORDER: string[] }) => {
      const { tileElement, TILE_ORDER } = tiles;
      const places = { big: '#rack', mid: '#my-exposures', small: '#pool-tiles' } as const;
      const out: string[] = [];
      for (const [size, where] of Object.entries(places)) {
        const row = document.createElement('div');
        row.className = 'tile-row layout-probe';
        for (const t of TILE_ORDER) row.append(tileElement(t, { size }));
        document.querySelector(where)!.append(row);
        for (const tile of row.querySelectorAll<HTMLElement>('.tile')) {
          const box = tile.getBoundingClientRect();
          const style = getComputedStyle(tile);
          const left = box.left + parseFloat(style.borderLeftWidth) - 1;
          const right = box.right - parseFloat(style.borderRightWidth) + 1;
          for (const w of tile.querySelectorAll<HTMLElement>('.face, .word')) {
            const r = w.getBoundingClientRect();
            if (r.left < left || r.right > right || w.scrollWidth > w.clientWidth + 1) out.push(`${size} ${tile.title}: "${w.textContent!.trim()}"`);
          }
        }
        row.remove();
      }
      return out;
    })})`,
  );

describe.each(screens)('the practice page at the %s size', (screen) => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser(`layout-${screen}`, { screen });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the header is one row (two at most in large print), "Start the game" is on the first screen, and the API pages are linked', async () => {
    const { page, base } = t;
    await page.goto(base + '/');
    await settled(page).catch(() => undefined);
    await shotAndAxe(page, `layout-${screen}-start`);
    expect(await headerRows(page)).toBe(1);
    const start = await page.locator('#start-button').boundingBox();
    expect(start!.y + start!.height, '"Start the game" below the fold').toBeLessThanOrEqual(SCREENS[screen].height);
    // for developers: the API's own pages, linked from the page's foot
    const docs = page.locator('footer a[href="/docs"]');
    expect(await docs.count()).toBe(1);
    expect(await docs.isVisible()).toBe(true);
    // large print: two rows at most
    await page.evaluate(() => localStorage.setItem('tilemate-display', JSON.stringify({ largePrint: true, faces: 'labelled' })));
    await page.reload();
    await settled(page).catch(() => undefined);
    expect(await headerRows(page)).toBeLessThanOrEqual(2);
    await shotAndAxe(page, `layout-${screen}-start-large`);
    await page.evaluate(() => localStorage.removeItem('tilemate-display'));
    await page.reload();
  });

  it("no tile's words are clipped, at any size of tile, in normal and in large print", async () => {
    const { page, base } = t;
    await startGame(page, base, screen, 7);
    expect((await clippedTileWords(page)).join('; ')).toBe('');
    await page.evaluate(() => document.documentElement.classList.add('large-print'));
    expect((await clippedTileWords(page)).join('; ')).toBe('');
    await page.evaluate(() => document.documentElement.classList.remove('large-print'));
  });

  it('the card panel opens on screen', async () => {
    const { page, base } = t;
    await startGame(page, base, screen, 7);
    if (SCREENS[screen].hasTouch) await page.tap('#card-button');
    else await page.click('#card-button');
    await page.waitForSelector('#card-panel .card-line');
    await settled(page);
    // the page may scroll to it, as long as it lands in view: its top on the screen
    await page
      .waitForFunction(
        () => {
          const r = document.querySelector('#card-panel')!.getBoundingClientRect();
          return r.top >= -1 && r.top < window.innerHeight - 150;
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    const box = await page.locator('#card-panel').evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    expect(box.top, 'the card panel starts below the screen').toBeLessThan(SCREENS[screen].height - 150);
    expect(box.top, 'the card panel starts above the screen').toBeGreaterThanOrEqual(-1);
    await page.screenshot({ path: join(SHOTS, `layout-${screen}-card.png`), fullPage: false });
    if (SCREENS[screen].hasTouch) await page.tap('#card-button');
    else await page.click('#card-button');
  });

  it("late in a game the pool wraps across the table's width, and the rack and its buttons stay within a screen of the seats", async () => {
    const { page, base } = t;
    // a new game (seed 21, easy bots), played on from the server's side to the last tiles of the wall
    await startGame(page, base, screen, 21);
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
    const late = await playOn(base, session, (a) => a.view.wallLeft <= 8 && a.legal.some((l) => l.type === 'discard'));
    expect(late.view.phase).toBe('discard');
    await page.reload();
    await page.waitForSelector('#pool-tiles .tile');
    await settled(page);
    const discards = await page.locator('#pool-tiles .tile').count();
    expect(discards).toBeGreaterThan(80);
    await shotAndAxe(page, `layout-${screen}-late`);
    const m = await page.evaluate(() => {
      const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
      // for each seat's row of discards: how far its first line reaches across the row
      const rows = [...document.querySelectorAll('#pool-tiles .pool-row .tile-row')].map((row) => {
        const tiles = [...row.querySelectorAll('.tile')].map((e) => e.getBoundingClientRect());
        const firstTop = tiles[0].top;
        const first = tiles.filter((r) => Math.abs(r.top - firstTop) < 4);
        const lines = new Set(tiles.map((r) => Math.round(r.top))).size;
        return { lines, perLine: first.length, room: row.getBoundingClientRect().right - first[first.length - 1].right, tileWidth: tiles[0].width };
      });
      return {
        rows,
        table: box('#table'),
        pool: box('#pool'),
        actions: box('#actions'),
        rack: box('#rack'),
        seats: [...document.querySelectorAll('#table .seat:not(.hidden)')].map((e) => e.getBoundingClientRect().top),
      };
    });
    const { height } = SCREENS[screen];
    // the pool uses the table's width: a line of discards is full before the next begins
    for (const r of m.rows) if (r.lines > 1) expect(r.room, `a line of ${r.perLine} discards leaves room for more`).toBeLessThan(r.tileWidth * 1.5);
    expect(m.pool.width).toBeGreaterThan(m.table.width * 0.65);
    // the pool is never taller than about half the screen
    expect(m.pool.height, 'the pool is too tall').toBeLessThanOrEqual(height * 0.5);
    // the seats (their exposures), the buttons and the rack within one screen
    const top = Math.min(...m.seats);
    expect(m.actions.bottom - top, 'the buttons are more than a screen below the seats').toBeLessThanOrEqual(height);
    if (screen !== 'phone') expect(m.rack.bottom - top, 'the rack is more than a screen below the seats').toBeLessThanOrEqual(height);
    expect(t.pageErrors).toEqual([]);
  }, 120_000);

  it('her place is on the screen whole, with no scrolling: the prompt, the buttons, the hint and the rack, at the start and late in a game', async () => {
    const { page, base } = t;
    // what of her place is not wholly on the screen as the page leaves it (the test never scrolls)
    const offScreen = (selectors: string[]) =>
      page.evaluate((sels) => {
        return sels.filter((sel) => {
          const e = document.querySelector(sel);
          if (!e || !(e as HTMLElement).checkVisibility()) return true;
          const r = e.getBoundingClientRect();
          return r.top < 0 || r.bottom > innerHeight;
        });
      }, selectors);
    const askHint = async () => {
      if (SCREENS[screen].hasTouch) await page.tap('#hint-button');
      else await page.click('#hint-button');
      await page.waitForSelector('#hint:not(.hidden) [data-action="follow-hint"]');
      await settled(page);
    };
    await startGame(page, base, screen, 21);
    expect(await offScreen(['#prompt', '#actions', '#rack'])).toEqual([]);
    await askHint();
    expect(await offScreen(['#actions', '#hint', '#rack'])).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `layout-${screen}-place-hint.png`) });
    // late in the game, her turn to discard: the page picked up again, then a hint asked for
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
    const late = await playOn(base, session, (a) => a.view.wallLeft <= 12 && a.legal.some((l) => l.type === 'discard'));
    expect(late.view.phase).toBe('discard');
    await page.reload();
    await page.waitForSelector('#pool-tiles .tile');
    await settled(page);
    expect(await offScreen(['#prompt', '#actions', '#rack'])).toEqual([]);
    await askHint();
    expect(await offScreen(['#actions', '#hint', '#rack'])).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `layout-${screen}-place-late-hint.png`) });
    expect(t.pageErrors).toEqual([]);
  }, 120_000);

  it('at the blind pass, with the hint open, her place is on the screen whole, and Pass is the one solid button', async () => {
    const { page, base } = t;
    const tap = (sel: string) => (SCREENS[screen].hasTouch ? page.tap(sel) : page.click(sel));
    const offScreen = (selectors: string[]) =>
      page.evaluate(
        (sels) =>
          sels.filter((sel) => {
            const e = document.querySelector(sel);
            if (!e || !(e as HTMLElement).checkVisibility()) return true;
            const r = e.getBoundingClientRect();
            return r.top < 0 || r.bottom > innerHeight;
          }),
        selectors,
      );
    await startGame(page, base, screen, 21);
    // the first two passes, three tiles each, to the third: the first left, where a blind pass is allowed
    for (let pass = 0; pass < 2; pass++) {
      const free = await page.$$eval('#rack button:not(:disabled)', (bs) => bs.map((b) => (b as HTMLElement).dataset.index!));
      for (const i of free.slice(0, 3)) await tap(`#rack [data-index="${i}"]`);
      await tap('[data-action="pass"]');
      await settled(page);
    }
    await page.waitForSelector('[data-action="blind-0"]');
    await expect(page.locator('#prompt').textContent()).resolves.toMatch(/pass 3 of 3: choose 3 tiles to pass to the left/);
    await tap('#hint-button');
    await page.waitForSelector('#hint:not(.hidden) [data-action="follow-hint"]');
    await settled(page);
    expect(await offScreen(['#prompt', '#actions', '#hint', '#rack'])).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `layout-${screen}-blind-pass-hint.png`) });
    // Pass is the solid (main) button; the blind choice beside it is pale, the chosen one outlined, never solid
    const look = () =>
      page.$$eval('#actions button', (bs) => bs.map((b) => ({ action: (b as HTMLElement).dataset.action, background: getComputedStyle(b).backgroundColor, pressed: b.getAttribute('aria-pressed') })));
    const solid = 'rgb(29, 95, 209)';
    // the pointer away from the buttons: a tap leaves it where it was, and a button under it is drawn as hovered
    await page.mouse.move(0, 0);
    let buttons = await look();
    expect(buttons.filter((b) => b.background === solid).map((b) => b.action)).toEqual(['pass']);
    expect(buttons.filter((b) => b.action?.startsWith('blind-')).map((b) => b.pressed)).toEqual(['true', 'false', 'false', 'false']);
    // the hint's button chooses its tiles (and its blind ones): Pass is outlined, and still all on screen
    await tap('[data-action="follow-hint"]');
    await page.waitForSelector('#actions [data-action="pass"].advised:not(:disabled)');
    expect(await offScreen(['#actions', '#hint', '#rack'])).toEqual([]);
    buttons = await look();
    expect(buttons.filter((b) => b.background === solid).map((b) => b.action)).toEqual(['pass']);
    await page.screenshot({ path: join(SHOTS, `layout-${screen}-blind-pass-followed.png`) });
    if (screen === 'tablet') {
      // the smaller tablet too (768x1024)
      await page.setViewportSize({ width: 768, height: 1024 });
      await settled(page);
      await page.locator('#me').evaluate((e) => e.scrollIntoView({ block: 'nearest' }));
      expect(await offScreen(['#actions', '#hint', '#rack'])).toEqual([]);
      await page.setViewportSize({ width: SCREENS.tablet.width, height: SCREENS.tablet.height });
    }
    expect(t.pageErrors).toEqual([]);
  }, 120_000);
});

describe.each(screens)('the API pages (/docs) at the %s size', (screen) => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser(`layout-docs-${screen}`, { screen });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('fit the screen: laid out at its width, nothing to scroll sideways', async () => {
    const { page, base } = t;
    await page.goto(base + '/docs');
    await page.waitForSelector('.opblock');
    // a phone lays out a page with no viewport meta 980 px wide and shrinks it
    expect(await page.evaluate(() => window.innerWidth)).toBe(SCREENS[screen].width);
    // an operation opened: its parameters and examples fit too
    await page.locator('.opblock-summary').first().click();
    await page.waitForSelector('.opblock-body');
    await page.screenshot({ path: join(SHOTS, `layout-docs-${screen}.png`), fullPage: false });
    expect(await overflowX(page)).toBe(0);
    expect(t.pageErrors).toEqual([]);
  });
});

describe('the Charleston and the courtesy pass say what came in', () => {
  let t: BrowserTable;
  beforeAll(async () => {
    t = await openBrowser('layout-received');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('deal 7, easy bots: offering 1 Bam, 5 Bam and 1 Dot when Across offers none, nothing is received', async () => {
    const { page, base } = t;
    await page.goto(base + '/');
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '7');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    const kinds = () => page.$$eval('#actions button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.action ?? ''));
    const rack = () => page.$$eval('#rack .tile', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!));
    for (let step = 0; step < 20; step++) {
      await settled(page);
      const k = await kinds();
      if (k.includes('pass')) {
        // the first three tiles that are not jokers
        const free = await page.$$eval('#rack button:not(:disabled)', (bs) => bs.map((b) => (b as HTMLElement).dataset.index!));
        const before = await rack();
        const passed = await page.$$eval('#rack button:not(:disabled)', (bs) => bs.slice(0, 3).map((b) => (b as HTMLElement).dataset.tile!));
        for (const i of free.slice(0, 3)) await page.click(`#rack [data-index="${i}"]`);
        await page.click('[data-action="pass"]');
        await settled(page);
        // what came in is the rack after less the rack before without the tiles passed
        const left = [...before];
        for (const x of passed) left.splice(left.indexOf(x), 1);
        const got: string[] = [];
        for (const x of await rack()) {
          const at = left.indexOf(x);
          if (at >= 0) left.splice(at, 1);
          else got.push(x);
        }
        expect(got).toHaveLength(3);
        await expect(page.locator('#prompt-detail').textContent()).resolves.toMatch(/^You received [^.]+\./);
        continue;
      }
      if (k.includes('vote-no')) {
        await page.click('[data-action="vote-no"]');
        continue;
      }
      if (k.includes('courtesy')) {
        for (const tile of ['1B', '5B', '1D']) {
          const i = await page.$$eval('#rack button:not(.selected)', (bs, t) => bs.find((b) => (b as HTMLElement).dataset.tile === t)?.getAttribute('data-index') ?? null, tile);
          expect(i, `${tile} on the rack`).not.toBeNull();
          await page.click(`#rack [data-index="${i}"]`);
        }
        const before = await rack();
        await page.click('[data-action="courtesy"]');
        await settled(page);
        // Across offered nothing, so nothing changed hands
        await expect(page.locator('#log').textContent()).resolves.toMatch(/Across offers 0 tiles across\./);
        expect((await rack()).sort()).toEqual(before.sort());
        await expect(page.locator('#prompt-detail').textContent()).resolves.toMatch(/^You received no tiles\./);
        await page.screenshot({ path: join(SHOTS, 'layout-received.png'), fullPage: false });
        return;
      }
      throw new Error(`no Charleston step: ${k.join(', ')}`);
    }
    throw new Error('the courtesy pass never came');
  }, 120_000);
});
