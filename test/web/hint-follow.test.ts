import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SCREENS, SHOTS, type BrowserTable } from './browser.js';
import { type GameAnswer, playOn } from './late-game.js';

/**
 * The hint's own button works one way for every decision (issue 61): it never makes the move. It
 * chooses the hint's tiles (a pass, an offer, a discard) or, for a choice among buttons (a call, a
 * vote, an exchange), finds the button; either way the button that makes the hint's move is
 * outlined in gold and given the focus, the hint says to press it, and she presses it herself.
 *
 * An exchange (issue 46): a dealt game rarely offers one, so the page is shown one: the server's
 * answer at her first discard with a pung holding a joker added to Right's exposures, the exchange
 * added to her choices, and the hint advising it. Its button names the exchange, never chooses the
 * tile on her rack (after which the main button read "Discard 6 Crak"). A call and the vote are the
 * server's own, with the coach's own hint. The actions the page posts are caught on their way.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('hint-follow');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

describe('page: following the hint', () => {
  it("a hint to exchange a tile for a joker outlines the exchange's button, never the rack's tile; pressing it makes the exchange, at a phone, a tablet and a desktop", async () => {
    const { page, base, pageErrors } = t;
    await page.goto(base + '/');
    await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
    await page.goto(base + '/');
    await page.check('input[name="level"][value="easy"]');
    await page.fill('#seed', '5');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await settled(page);
    const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
    const real = await playOn(base, session, (a) => a.legal.some((l) => l.type === 'discard'));
    expect(real.view.phase).toBe('discard');
    const seat = real.view.seat;
    const owner = (seat + 1) % 4;
    const tile = real.view.rack.find((x) => x !== 'J')!;

    // the answer as the page is shown it: Right has exposed a pung of her tile with a joker in it
    const shown = (answer: GameAnswer & { view: { seats: { exposures: unknown[]; concealedCount: number }[] } }) => {
      const right = answer.view.seats[owner];
      right.exposures.push({ tile, size: 3, jokers: 1, tiles: [tile, tile, 'J'], rack: 0, exchangeable: true });
      right.concealedCount -= 3;
      const exposure = right.exposures.length - 1;
      answer.legal.push({ type: 'exchange', seat, owner, exposure, tile });
      return { answer, exposure };
    };
    let exposure = -1;
    await page.route(
      (url) => url.pathname === `/api/games/${session.id}`,
      async (route: Route) => {
        const r = await route.fetch();
        const changed = shown(await r.json());
        exposure = changed.exposure;
        await route.fulfill({ response: r, json: changed.answer });
      },
    );
    await page.route(`**/api/games/${session.id}/hint`, (route) =>
      route.fulfill({ json: { kind: 'exchange', text: `Exchange your ${tile} for the joker in Right's pung: a joker helps every line.`, action: { type: 'exchange', seat, owner, exposure, tile } } }),
    );
    const posted: unknown[] = [];
    await page.route(`**/api/games/${session.id}/actions`, async (route) => {
      posted.push(route.request().postDataJSON());
      await route.abort('connectionreset');
    });

    for (const [name, size] of Object.entries(SCREENS)) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.reload();
      await page.waitForSelector('#discard-button');
      await settled(page);
      await page.click('#hint-button');
      const follow = page.locator('#hint:not(.hidden) [data-action="follow-hint"]');
      await follow.waitFor();
      await settled(page);
      // the headline names the exchange (the tile and the seat in their own words); the button shows it
      await expect(page.textContent('#hint .hint-do')).resolves.toMatch(/^Hint: exchange a (\d [A-Z][a-z]+|[A-Z][a-z]+( [A-Z][a-z]+)?) for the joker in Right's pung$/);
      await expect(follow.textContent()).resolves.toBe('Show me the button');
      posted.length = 0;
      await follow.click();
      // the exchange's own button outlined and in focus; nothing sent, nothing chosen on her rack
      const advised = page.locator('#actions [data-action="exchange"].advised');
      await advised.waitFor();
      await page.waitForFunction(() => document.activeElement?.matches('#actions .advised') === true);
      await expect(advised.textContent()).resolves.toMatch(/^Exchange a .+ for the joker in Right's pung$/);
      await expect(page.textContent('#hint .hint-next')).resolves.toBe('Now press the button outlined in gold to make that move.');
      expect(await page.locator('#actions .advised').count()).toBe(1);
      expect(await page.locator('#rack .tile.selected').count()).toBe(0);
      await settled(page);
      expect({ name, posted }).toEqual({ name, posted: [] });
      await page.screenshot({ path: join(SHOTS, `hint-exchange-${name}.png`) });
      // she presses it: the exchange is sent
      await advised.click();
      await expect.poll(() => posted.length).toBe(1);
      expect({ name, posted: posted[0] }).toEqual({ name, posted: expect.objectContaining({ type: 'exchange', seat, owner, exposure }) });
    }
    expect(pageErrors).toEqual([]);
  }, 240_000);

  for (const [moment, until] of [
    ['a call', (a: GameAnswer) => a.legal.some((l) => l.type === 'call')],
    ['the vote', (a: GameAnswer) => a.legal.some((l) => l.type === 'vote')],
  ] as const) {
    it(`at ${moment}, the hint's button outlines the button of the hint's move and sends nothing; pressing that button sends it`, async () => {
      const { page, base, pageErrors } = t;
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.goto(base + '/');
      await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
      await page.goto(base + '/');
      await page.check('input[name="level"][value="easy"]');
      await page.fill('#seed', '5');
      await page.click('#start-button');
      await page.waitForSelector('#rack .tile');
      await settled(page);
      const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
      const reached = await playOn(base, session, until, 2000);
      expect(until(reached), `the game reached ${moment}`).toBe(true);
      const posted: Record<string, unknown>[] = [];
      await page.route(`**/api/games/${session.id}/actions`, async (route) => {
        posted.push(route.request().postDataJSON());
        await route.continue();
      });
      let hint: { action: { type: string; yes?: boolean; [k: string]: unknown } } | undefined;
      for (const [name, size] of Object.entries(SCREENS)) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.reload();
        await page.waitForSelector('#actions button');
        await settled(page);
        const hinted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${session.id}/hint`));
        await page.click('#hint-button');
        hint = await (await hinted).json();
        if (!hint) throw new Error('no hint');
        const follow = page.locator('#hint:not(.hidden) [data-action="follow-hint"]');
        await follow.waitFor();
        await settled(page);
        await expect(follow.textContent()).resolves.toBe('Show me the button');
        await follow.click();
        await page.waitForFunction(() => document.activeElement?.matches('#actions .advised') === true);
        await settled(page);
        expect({ name, posted }).toEqual({ name, posted: [] });
        expect(await page.locator('#actions .advised').count()).toBe(1);
        const kind = await page.locator('#actions .advised').getAttribute('data-action');
        expect(kind).toBe(hint.action.type === 'vote' ? (hint.action.yes ? 'vote-yes' : 'vote-no') : hint.action.type);
        await page.screenshot({ path: join(SHOTS, `hint-${moment.replace(/\W+/g, '-')}-${name}.png`) });
      }
      // she presses it: exactly the hint's move is sent
      await page.click('#actions .advised');
      await expect.poll(() => posted.length).toBe(1);
      const { seat: _seat, ...move } = hint!.action;
      expect(posted[0]).toEqual(expect.objectContaining(move));
      expect(pageErrors).toEqual([]);
    }, 240_000);
  }
});
