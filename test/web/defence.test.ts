import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openBrowser, SCREENS, SHOTS, type BrowserTable } from './browser.js';
import type { GameAnswer } from './late-game.js';

/**
 * The warning before a dangerous discard (issue 29, defence), in a real browser: a game
 * against easy bots, played on from the server's side (as test/web/late-game.ts does) to the
 * first discard where the defence (GET /api/games/:id/defence) rates a tile on her rack
 * dangerous; the page, reloaded there, asks once before that discard, and Keep keeps it.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('defence');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

interface Defence {
  tiles: { tile: string; level: string; why: string; warning?: string }[];
}

/** Plays on until her discard with a tile the defence rates dangerous (never declaring, letting every discard go); null when the game ends first. */
async function playToDanger(base: string, session: { id: string; token: string }): Promise<{ answer: GameAnswer; tile: Defence['tiles'][number] } | null> {
  const url = `${base}/api/games/${encodeURIComponent(session.id)}`;
  const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
  const read = async (r: Response) => {
    const body = await r.json();
    if (!r.ok) throw new Error(`the server refused: ${JSON.stringify(body)}`);
    return body;
  };
  let answer: GameAnswer = await read(await fetch(url, { headers: { authorization: headers.authorization } }));
  for (let step = 0; step < 600 && answer.view.phase !== 'ended'; step++) {
    const v = answer.view;
    const of = (type: string) => answer.legal.filter((a) => a.type === type);
    let action: Record<string, unknown> | undefined;
    if (of('pass').length) action = { type: 'pass', seat: v.seat, tiles: v.rack.filter((x) => x !== 'J').slice(0, 3), blind: 0 };
    else if (of('vote').length) action = of('vote').find((a) => a.yes === false);
    else if (of('courtesy').length) action = { type: 'courtesy', seat: v.seat, tiles: [] };
    else if (of('draw').length) action = of('draw')[0];
    else if (of('discard').length) {
      const d: Defence = await read(await fetch(`${url}/defence`, { headers: { authorization: headers.authorization } }));
      const danger = d.tiles.find((x) => x.level === 'dangerous');
      if (danger) return { answer, tile: danger };
      action = of('discard').find((a) => a.tile !== 'J') ?? of('discard')[0];
    } else if (of('decline').length) action = of('decline')[0];
    if (action === undefined) throw new Error(`nothing to do in phase ${v.phase}`);
    answer = await read(await fetch(`${url}/actions`, { method: 'POST', headers, body: JSON.stringify({ ...action, after: answer.at }) }));
  }
  return null;
}

describe('page: the warning before a dangerous discard', () => {
  it('at the easy level the page asks once, in one sentence, before a discard the defence rates dangerous, and Keep keeps the tile', async () => {
    const { page, base, pageErrors } = t;
    let found: Awaited<ReturnType<typeof playToDanger>> = null;
    // seed 12 is the first of seeds 1-16 whose game (easy bots, the practice card) reaches one
    // before it ends; each game is some hundred requests, and the server allows 600 a minute
    for (const seed of [12]) {
      await page.goto(base + '/');
      await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
      await page.goto(base + '/');
      await page.check('input[name="level"][value="easy"]');
      await page.fill('#seed', String(seed));
      await page.click('#start-button');
      await page.waitForSelector('#rack .tile');
      await settled(page);
      const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
      found = await playToDanger(base, session);
    }
    expect(found, 'the game of seed 12 ended before a discard the defence rates dangerous (a changed card or bot?)').not.toBeNull();
    const { tile } = found!;
    expect(tile.warning).toMatch(/^(Right|Across|Left) may be waiting for .+: discard it anyway\?$/);
    // at every size (the page opened at that size), the safe choice is the main button: Keep,
    // first and in focus, and both choices on screen with the question
    const question = page.locator('#actions .discard-warning');
    for (const [name, size] of [...Object.entries(SCREENS), ['default', { width: 1366, height: 900 }] as const]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.reload();
      await page.waitForSelector('#discard-button');
      await settled(page);
      await page.locator(`#rack [data-tile="${tile.tile}"]`).first().click();
      await page.click('#discard-button');
      await question.waitFor();
      expect(await question.textContent()).toBe(tile.warning);
      const choices = await page.$$eval('#actions button', (bs) =>
        bs.map((b) => {
          const r = b.getBoundingClientRect();
          return {
            action: (b as HTMLElement).dataset.action,
            main: b.classList.contains('btn-main'),
            focused: b === document.activeElement,
            onScreen: r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          };
        }),
      );
      expect({ name, choices }).toEqual({
        name,
        choices: [
          { action: 'keep-tile', main: true, focused: true, onScreen: true },
          { action: 'discard-anyway', main: false, focused: false, onScreen: true },
        ],
      });
      await page.screenshot({ path: join(SHOTS, `defence-warning-${name}.png`) });
    }
    const rackBefore = await page.locator('#rack .tile').count();
    // Keep: nothing was sent, the tile is still on the rack and the discard button is back
    await page.click('#actions [data-action="keep-tile"]');
    await page.waitForSelector('#discard-button');
    expect(await page.locator('#rack .tile').count()).toBe(rackBefore);
    expect(await page.locator('#actions .discard-warning').count()).toBe(0);
    // asked once: the same discard again goes without a second question
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
    const seatNow = async () => {
      const r = await fetch(`${base}/api/games/${encodeURIComponent(session.id)}`, { headers: { authorization: `Bearer ${session.token}` } });
      const a = (await r.json()) as { seat: number; view: { phase: string; rack: string[]; seats: { discards: string[] }[] } };
      return { phase: a.view.phase, discards: a.view.seats[a.seat].discards, copies: a.view.rack.filter((x) => x === tile.tile).length };
    };
    const before = await seatNow();
    if (!(await page.locator('#discard-button').isEnabled())) await page.locator(`#rack [data-tile="${tile.tile}"]`).first().click();
    await page.click('#discard-button');
    // sent: on her discards, or (the warning was right) called for Mah Jongg, which ends the game
    const sent = (now: Awaited<ReturnType<typeof seatNow>>) =>
      now.discards.length > before.discards.length ? now.discards[before.discards.length] === tile.tile : now.phase === 'ended' && now.copies === before.copies - 1;
    await expect.poll(async () => sent(await seatNow()), { timeout: 30_000, interval: 1000 }).toBe(true);
    await settled(page);
    expect(await page.locator('#actions .discard-warning').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
