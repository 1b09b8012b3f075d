import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SHOTS, type BrowserTable } from './browser.js';

/**
 * The practice table in a real browser: playwright-core driving Debian's Chromium against
 * the real server (build() on a temporary data folder, listening on a free port). The game
 * is played through the page only, clicking what a person clicks. Screenshots go to
 * os.tmpdir()/tilemate-screens (outside the repository) to be looked at by eye.
 */

const SEED = 7;
/** More steps than any game takes: a page that stops offering a way on fails here rather than hanging. */
const MAX_STEPS = 400;

let table: BrowserTable;
let base = '';
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  table = await openBrowser('web');
  ({ base, page, pageErrors } = table);
}, 60_000);

afterAll(async () => {
  await table?.close();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** Waits until the page has drawn the server's latest answer. */
const settled = () => page.waitForSelector('body[data-busy="0"]');

const actionKinds = () => page.$$eval('#actions button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.action ?? ''));

/** Rack positions (data-index) of the tiles that can be clicked now, jokers last. */
const clickableTiles = () =>
  page.$$eval('#rack button:not(:disabled)', (bs) => bs.map((b) => ({ index: (b as HTMLElement).dataset.index!, tile: (b as HTMLElement).dataset.tile!, drawn: b.classList.contains('drawn') })));

const selectedTiles = () => page.$$eval('#rack button.selected', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!).sort());

describe('the practice table page', () => {
  it('serves the start form: bot level, table, deal number', async () => {
    await page.goto(base + '/');
    await expect(page.locator('h1').textContent()).resolves.toContain('Tilemate');
    expect(await page.locator('input[name="level"]').count()).toBe(4);
    expect(await page.locator('input[name="ruleset"]').count()).toBe(3);
    await shot('0-start');
  });

  it('starts a game from the form, showing the rack and the Charleston as large tiles', async () => {
    await page.check('input[name="level"][value="medium"]');
    await page.check('input[name="ruleset"][value="nmjl-4p"]');
    await page.fill('#seed', String(SEED));
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await settled();
    // East holds 14 tiles at the deal
    expect(await page.locator('#rack .tile').count()).toBe(14);
    await expect(page.locator('#prompt').textContent()).resolves.toMatch(/First Charleston, pass 1 of 3: choose 3 tiles to pass to the right/);
    // large: a rack tile is at least 60 px wide and its words are big enough to read
    const box = await page.locator('#rack .tile').first().boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(60);
    expect(box!.height).toBeGreaterThanOrEqual(80);
    const face = await page
      .locator('#rack .tile .face')
      .first()
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(face).toBeGreaterThanOrEqual(28);
    // three bots around the table
    expect(await page.locator('#table .seat:not(.hidden)').count()).toBe(3);
  });

  it('the hint names three tiles to pass, and following it selects them for the pass', async () => {
    expect(await page.locator('[data-action="pass"]').isDisabled()).toBe(true);
    await page.click('#hint-button');
    await page.waitForSelector('#hint:not(.hidden) [data-action="follow-hint"]');
    await settled();
    const text = await page.locator('#hint .hint-do').textContent();
    expect(text).toMatch(/pass/i);
    await page.click('[data-action="follow-hint"]');
    const chosen = await selectedTiles();
    expect(chosen).toHaveLength(3);
    expect(chosen).not.toContain('J');
    const label = await page.locator('[data-action="pass"]').textContent();
    expect(await page.locator('[data-action="pass"]').isDisabled()).toBe(false);
    expect(label).toMatch(/^Pass .* to the right$/);
    await shot('1-charleston-hint');
    await page.click('[data-action="pass"]');
    await settled();
    await expect(page.locator('#prompt').textContent()).resolves.toMatch(/pass 2 of 3: choose 3 tiles to pass across/);
  });

  it('rack tiles are keyboard buttons: Enter chooses a tile and Enter again puts it back', async () => {
    const [first] = await clickableTiles();
    await page.focus(`#rack [data-index="${first.index}"]`);
    await page.keyboard.press('Enter');
    expect(await selectedTiles()).toEqual([first.tile]);
    await page.focus(`#rack [data-index="${first.index}"]`);
    await page.keyboard.press('Enter');
    expect(await selectedTiles()).toEqual([]);
  });

  it('the card panel lists lines with tiles away, each tile coloured have / joker can fill / still needed', async () => {
    await page.click('#card-button');
    await page.waitForSelector('#card-panel .card-line');
    await settled();
    const lines = await page.locator('#card-panel .card-line').count();
    expect(lines).toBeGreaterThan(0);
    await expect(page.locator('#card-panel .card-line .away').first().textContent()).resolves.toMatch(/\d+ (tiles? )?away|Mah Jongg/);
    const marks = await page.$$eval('#card-panel .card-line .tile', (ts) => ts.map((t) => ['have', 'joker-can', 'need'].find((c) => t.classList.contains(c)) ?? 'none'));
    expect(marks).not.toContain('none');
    expect(marks).toContain('have');
    await shot('2-card-panel');
  });

  it('plays the game to its end through the page: passes, discards by clicking rack tiles, call windows', async () => {
    const seen = new Set<string>();
    let steps = 0;
    let called = false;
    let blindPassed = false;
    for (; steps < MAX_STEPS; steps++) {
      await settled();
      // every button the page offers is legal: a refusal is a failure of the page
      expect(await page.locator('#message').textContent()).toBe('');
      if (await page.isVisible('#end')) break;
      const kinds = await actionKinds();
      // discard-anyway: at a learner's level the page asks once before a dangerous discard
      const first = ['declare', 'callMahJongg', 'pass', 'vote-no', 'courtesy', 'draw', 'discard-anyway', 'discard', 'call', 'decline'].find((k) => kinds.includes(k));
      if (first === undefined) throw new Error(`the page offers nothing to do and the game has not ended: "${await page.locator('#prompt').textContent()}"`);
      if (!seen.has(first)) {
        seen.add(first);
        await shot(`3-${first}`);
      }
      if (first === 'declare' || first === 'callMahJongg' || first === 'vote-no' || first === 'draw' || first === 'discard-anyway') {
        await page.click(`[data-action="${first}"]`);
      } else if (first === 'pass') {
        // the first pass that allows it is made blind: one received tile passed on unseen, two of the rack's
        const blind = kinds.includes('blind-1') && !blindPassed ? 1 : 0;
        if (blind) {
          blindPassed = true;
          await page.click('[data-action="blind-1"]');
          await expect(page.locator('#prompt').textContent()).resolves.toMatch(/choose 2 tiles to pass to the left/);
        }
        for (const t of (await clickableTiles()).slice(0, 3 - blind)) await page.click(`#rack [data-index="${t.index}"]`);
        // a fourth tile is refused while three are chosen (or two and a blind one)
        expect(await selectedTiles()).toHaveLength(3 - blind);
        if (blind) {
          await expect(page.locator('[data-action="pass"]').textContent()).resolves.toMatch(/and 1 blind to the left$/);
          await shot('3-blind-pass');
        }
        await page.click('[data-action="pass"]');
        if (blind) {
          await settled();
          // when every seat passed blind, East is asked again and the page says why (standardized rules 4.5)
          if (/pass 3 of 3/.test((await page.locator('#prompt').textContent()) ?? '')) {
            await expect(page.locator('#prompt-detail').textContent()).resolves.toMatch(/East must pass first/);
            await expect(page.locator('#prompt').textContent()).resolves.toMatch(/choose 3 tiles/);
            await shot('3-east-passes-first');
          }
        }
      } else if (first === 'courtesy') {
        // offer one tile across (the partner may offer fewer: the swap is the smaller offer)
        const [t] = (await clickableTiles()).filter((x) => x.tile !== 'J');
        await page.click(`#rack [data-index="${t.index}"]`);
        await expect(page.locator('[data-action="courtesy"]').textContent()).resolves.toMatch(/^Offer /);
        await page.click('[data-action="courtesy"]');
      } else if (first === 'discard') {
        // the tile just drawn, else the first tile on the rack (never a joker when another will do)
        const tiles = await clickableTiles();
        const pick = tiles.find((t) => t.drawn && t.tile !== 'J') ?? tiles.find((t) => t.tile !== 'J') ?? tiles[0];
        await page.click(`#rack [data-index="${pick.index}"]`);
        await expect(page.locator('[data-action="discard"]').textContent()).resolves.toContain('Discard');
        await page.click('[data-action="discard"]');
      } else if (kinds.includes('call') && !called) {
        // a call window where a call is possible: call once, to walk the exposure path
        called = true;
        const before = await page.locator('#my-exposures .group').count();
        await page.click('[data-action="call"]');
        await settled();
        // the called tile and its partners lie exposed on the rack, and the caller discards next
        expect(await page.locator('#my-exposures .group').count()).toBe(before + 1);
        if (!(await page.isVisible('#end'))) await expect(page.locator('#prompt').textContent()).resolves.toMatch(/discard/i);
      } else {
        await page.click('[data-action="decline"]');
      }
    }
    expect(steps).toBeLessThan(MAX_STEPS);
    expect(seen.has('pass')).toBe(true);
    expect(seen.has('discard')).toBe(true);
    expect(blindPassed).toBe(true);
    // with the draws and forced declines made for the person, a call window shows only when a call is possible
    expect(seen.has('call') || seen.has('callMahJongg')).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it('the end shows the score of every seat, as the game record has it, and every hand', async () => {
    await page.waitForSelector('#end:not(.hidden) table');
    const scores = await page.$$eval('#end tr.score-row td:nth-child(2)', (tds) => tds.map((td) => Number(td.textContent)));
    expect(scores).toHaveLength(4);
    // the records of the page's player: asked from the page, with its session
    const records = await page.evaluate(async () => ((await (await fetch('/api/records')).json()) as { records: { seed: number; scores: number[] }[] }).records);
    const mine = records.find((r) => r.seed === SEED);
    expect(mine).toBeDefined();
    expect(scores).toEqual(mine!.scores);
    expect(await page.locator('#end .hands .tile-row').count()).toBe(4);
    await shot('4-end');
    await page.locator('#end').screenshot({ path: join(SHOTS, '4-end-section.png') });
  });

  it('the review lists decisions, and a decision opens the moment it happened', async () => {
    await page.waitForSelector('#review ol li button', { timeout: 240_000 });
    await settled();
    const items = await page.locator('#review li button').allTextContents();
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatch(/move \d+/);
    await page.locator('#review li button').first().click();
    await page.waitForSelector('#moment:not(.hidden)');
    await expect(page.locator('#moment h3').textContent()).resolves.toMatch(/move \d+/);
    expect(await page.locator('#moment .tile').count()).toBeGreaterThan(0);
    await shot('5-review-moment');
    await page.locator('#moment').screenshot({ path: join(SHOTS, '5-moment-section.png') });
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
