import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SCREENS, SHOTS, type BrowserTable } from './browser.js';
import { type GameAnswer, playOn } from './late-game.js';

/**
 * An undo at the practice table (issue 46): a discard waits a moment on the page, with an Undo
 * button, before it goes to the table. Taken back, it was never made: the server has not heard
 * it (its count of actions is where it was), so she has seen nothing of the next player's turn,
 * and her tile is on her rack. Left alone, it goes when the moment is over; "Discard now" sends
 * it at once; a reload while it waits loses nothing the server had acknowledged. This browser is
 * a new visitor's: the start form offers the moment, chosen, and the game keeps her choice.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('undo', { undo: true });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** The game as the server has it, with the actions since `since`, read with the page's own session. */
async function atServer(base: string, session: { id: string; token: string }, since = 0): Promise<GameAnswer> {
  const r = await fetch(`${base}/api/games/${encodeURIComponent(session.id)}?since=${since}`, { headers: { authorization: `Bearer ${session.token}` } });
  return (await r.json()) as GameAnswer;
}

/**
 * Chooses `tile` on her rack and presses Discard: the discard is held, with its Undo in focus
 * (after "Discard anyway" when the easy level's warning asks about a dangerous tile first).
 */
async function discard(page: Page, tile: string): Promise<void> {
  if ((await page.locator(`#rack .tile.selected[data-tile="${tile}"]`).count()) === 0) await page.click(`#rack .tile[data-tile="${tile}"]`);
  await page.click('#discard-button');
  await page.waitForSelector('#undo-button, [data-action="discard-anyway"]');
  if (await page.isVisible('[data-action="discard-anyway"]')) await page.click('[data-action="discard-anyway"]');
  await page.waitForSelector('#undo-button');
}

describe('page: undo a discard at the practice table', () => {
  it('a discard waits with an Undo that takes it back before the table hears it, then goes by itself, at a phone, a tablet and a desktop', async () => {
    const { page, base, pageErrors } = t;
    await page.goto(base + '/');
    await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
    await page.goto(base + '/');
    // a new visitor is given the moment to undo: Menu, Display says so, chosen
    await page.click('#menu summary');
    await page.click('#settings-button');
    await expect(page.textContent('#settings-panel')).resolves.toContain('Give me 3 seconds to undo each discard');
    await expect(page.isChecked('#undo-discard')).resolves.toBe(true);
    // the menu closed once Display was chosen: opened again to close the panel
    await page.click('#menu summary');
    await page.click('#settings-button');
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '11');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await settled(page);
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });

    for (const [name, size] of Object.entries(SCREENS)) {
      // on to her next discard (played from the server's side), then drawn by the page at this size
      const before = await playOn(base, session, (a) => a.legal.some((l) => l.type === 'discard' && l.tile !== 'J'));
      expect(before.view.phase).toBe('discard');
      const tile = before.legal.find((l) => l.type === 'discard' && l.tile !== 'J')!.tile!;
      const copies = before.view.rack.filter((x) => x === tile).length;
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.reload();
      await page.waitForSelector('#discard-button');
      await settled(page);

      // held: the Undo is the main button, in focus, and says which tile it keeps
      await discard(page, tile);
      const label = (await page.getAttribute(`#rack .tile[data-tile="${tile}"]`, 'title'))!;
      await expect(page.textContent('#undo-button')).resolves.toBe(`Undo: keep ${label}`);
      await expect(page.getAttribute('#undo-button', 'class')).resolves.toContain('btn-main');
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('undo-button');
      await expect(page.textContent('#undo-line')).resolves.toMatch(new RegExp(`^Your ${label} goes to the table in [123] seconds?\\.$`));
      await page.screenshot({ path: join(SHOTS, `undo-${name}.png`) });
      // the Undo button is on the screen with her rack, without scrolling
      const box = (await page.locator('#undo-button').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);

      // taken back: the server never heard it, and the tile is still hers to discard
      await page.click('#undo-button');
      await settled(page);
      await expect(page.textContent('#message')).resolves.toBe(`You kept ${label}: choose a tile to discard.`);
      expect((await atServer(base, session)).at).toBe(before.at);
      expect(await page.locator(`#rack .tile[data-tile="${tile}"]`).count()).toBe(copies);
      await expect(page.isVisible('#discard-button')).resolves.toBe(true);

      if (name === 'phone') {
        // held again, then the page is reloaded: the discard was never made, and her turn is as it was
        await discard(page, tile);
        await page.reload();
        await page.waitForSelector('#discard-button');
        await settled(page);
        expect((await atServer(base, session)).at).toBe(before.at);
        expect(await page.locator(`#rack .tile[data-tile="${tile}"]`).count()).toBe(copies);
      }

      if (name === 'tablet') {
        // "Discard now" sends it without waiting out the moment
        await discard(page, tile);
        await page.click('[data-action="discard-now"]');
      } else {
        // left alone, it goes to the table once the moment is over
        await discard(page, tile);
      }
      await page.waitForSelector('#undo-button', { state: 'detached' });
      await settled(page);
      const after = await atServer(base, session, before.at);
      expect(after.at).toBeGreaterThan(before.at);
      const first = (after.events as { action: { type: string; seat: number; tile?: string } }[])[0].action;
      expect({ name, first }).toEqual({ name, first: expect.objectContaining({ type: 'discard', seat: before.view.seat, tile }) });
    }
    expect(pageErrors).toEqual([]);
  }, 240_000);

  it('with the moment turned off under Display, kept in the browser, each discard goes at once with no Undo', async () => {
    const { page, base } = t;
    await page.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    await page.goto(base + '/');
    await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
    await page.goto(base + '/');
    await page.click('#menu summary');
    await page.click('#settings-button');
    await page.uncheck('#undo-discard');
    await page.click('#menu summary');
    await page.click('#settings-button');
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '12');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await settled(page);
    // kept in this browser, for every game after
    await expect(page.evaluate(() => localStorage.getItem('tilemate-undo'))).resolves.toBe('0');
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
    const before = await playOn(base, session, (a) => a.legal.some((l) => l.type === 'discard' && l.tile !== 'J'));
    const tile = before.legal.find((l) => l.type === 'discard' && l.tile !== 'J')!.tile!;
    await page.reload();
    await page.waitForSelector('#discard-button');
    await settled(page);
    await page.click(`#rack .tile[data-tile="${tile}"]`);
    await page.click('#discard-button');
    await settled(page);
    expect(await page.locator('#undo-button').count()).toBe(0);
    expect((await atServer(base, session)).at).toBeGreaterThan(before.at);
    await page.evaluate(() => localStorage.setItem('tilemate-undo', '3'));
  }, 120_000);
});
