import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type BrowserTable } from './browser.js';

/**
 * An action whose answer is lost on the way back (the server applied it, the page heard
 * "could not be reached") and that the person then sends again, on both tables in a real
 * browser. Both pages send every action with `after` (the actions applied when it was
 * chosen), so the server refuses the second one as stale (TM_STALE_ACTION) and the page
 * draws the game as it stands, with no error: the action is applied once.
 */

/** More steps than any game takes: a page that stops offering a way on fails here rather than hanging. */
const MAX_STEPS = 400;

let table: BrowserTable;
let app: BrowserTable['app'];
let base = '';
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  table = await openBrowser('resend');
  ({ app, base, page, pageErrors } = table);
}, 60_000);

afterAll(async () => {
  await table?.close();
});

const settled = () => page.waitForSelector('body[data-busy="0"]');

interface Sent {
  body: { type: string; tile?: string; after?: number };
  status: number;
  code?: string;
}

/**
 * Loses the answer to the next action the page posts to `routes`: the request reaches the
 * server, which applies it, and the page sees the connection fail. Every action posted until
 * `stop()` is listed with its body and the server's status.
 */
async function loseNextAnswer(routes: string) {
  const pattern = `**${routes}/*/actions`;
  const sent: Sent[] = [];
  let lost = false;
  const handler = async (route: Route, request: Request) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { code?: string };
    sent.push({ body: request.postDataJSON() as Sent['body'], status: response.status(), code: answer.code });
    if (!lost) {
      lost = true;
      await route.abort('connectionreset');
    } else {
      await route.fulfill({ response });
    }
  };
  await page.route(pattern, handler);
  return { sent, stop: () => page.unroute(pattern, handler) };
}

/**
 * The game the page plays, as the server has it, with the events after action `since` (asked
 * with `since`, the server's record of what the page has been told stays as it is).
 */
async function serverGame<T>(sessionKey: string, routes: string, since = 0): Promise<T> {
  const saved = JSON.parse((await page.evaluate((k) => sessionStorage.getItem(k), sessionKey)) ?? 'null') as { id: string; token: string };
  const res = await app.inject({ method: 'GET', url: `${routes}/${saved.id}?since=${since}`, headers: { authorization: `Bearer ${saved.token}` } });
  expect(res.statusCode).toBe(200);
  return res.json() as T;
}

interface MjAction {
  type: string;
  seat: number;
  tile?: string;
}
interface MjAnswer {
  at: number;
  seat: number;
  view: { phase: string; rack: string[] };
  legal: MjAction[];
  events: { action: MjAction }[];
}

const mjGame = (since?: number) => serverGame<MjAnswer>('tilemate-game', '/api/games', since);
const actionKinds = () => page.$$eval('#actions button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.action ?? ''));
const clickableTiles = () => page.$$eval('#rack button:not(:disabled)', (bs) => bs.map((b) => ({ index: (b as HTMLElement).dataset.index!, tile: (b as HTMLElement).dataset.tile! })));
const pageRack = () => page.$$eval('#rack button', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!).sort());

describe('an action sent again after its answer was lost', () => {
  it('Mah Jongg: a discard legal again after it was applied is still applied once, and the page draws the game as it stands', async () => {
    await page.goto(base + '/');
    await settled();
    await page.check('input[name="level"][value="easy"]');
    await page.check('input[name="ruleset"][value="nmjl-4p"]');
    await page.fill('#seed', '11');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    let legalAgain = false;
    let tries = 0;
    for (let step = 0; step < MAX_STEPS && !legalAgain; step++) {
      await settled();
      expect(await page.locator('#message').textContent()).toBe('');
      if (await page.isVisible('#end')) break;
      const kinds = await actionKinds();
      if (kinds.includes('pass')) {
        for (const t of (await clickableTiles()).filter((x) => x.tile !== 'J').slice(0, 3)) await page.click(`#rack [data-index="${t.index}"]`);
        await page.click('[data-action="pass"]');
      } else if (kinds.includes('vote-no')) {
        await page.click('[data-action="vote-no"]');
      } else if (kinds.includes('courtesy')) {
        await page.click('[data-action="courtesy"]');
      } else if (kinds.includes('decline')) {
        await page.click('[data-action="decline"]');
      } else if (kinds.includes('draw')) {
        await page.click('[data-action="draw"]');
      } else if (kinds.includes('discard')) {
        const tiles = await clickableTiles();
        // a tile held twice: its discard may be legal again at the person's next turn
        const pair = tiles.find((t) => t.tile !== 'J' && tiles.filter((u) => u.tile === t.tile).length >= 2);
        const pick = pair ?? tiles.find((t) => t.tile !== 'J') ?? tiles[0];
        await page.click(`#rack [data-index="${pick.index}"]`);
        if (!pair) {
          await page.click('[data-action="discard"]');
          continue;
        }
        tries++;
        const before = await mjGame();
        const { sent, stop } = await loseNextAnswer('/api/games');
        await page.click('[data-action="discard"]');
        await settled();
        await expect(page.locator('#message').textContent()).resolves.toMatch(/could not be reached/);
        // the person sends it again: the same button, still on the screen
        await page.click('[data-action="discard"]');
        await settled();
        await stop();
        // the person's discards since: this one, once
        const now = await mjGame(before.at);
        const mine = now.events.filter((e) => e.action.seat === now.seat && e.action.type === 'discard');
        expect(mine.map((e) => e.action.tile)).toEqual([pick.tile]);
        expect(sent.map((s) => [s.body.type, s.body.tile, s.body.after, s.status, s.code])).toEqual([
          ['discard', pick.tile, before.at, 200, undefined],
          ['discard', pick.tile, before.at, 409, 'TM_STALE_ACTION'],
        ]);
        expect(await page.locator('#message').textContent()).toBe('');
        expect(await pageRack()).toEqual([...now.view.rack].sort());
        legalAgain = now.legal.some((a) => a.type === 'discard' && a.tile === pick.tile);
      } else {
        throw new Error(`the page offers nothing to do and the game has not ended: "${await page.locator('#prompt').textContent()}"`);
      }
    }
    // the seeded game reaches a discard that was legal again: the retry would have applied it twice
    expect(legalAgain, `after ${tries} lost answers`).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it('Mexican Train: a play sent again is not applied twice, and the page draws the game as it stands', async () => {
    interface DAction {
      type: string;
      seat: number;
      tile?: string;
      train?: number | string;
    }
    interface DAnswer {
      at: number;
      view: { hand: string[]; handCounts: number[] };
      legal: DAction[];
    }
    const dominoGame = (since?: number) => serverGame<DAnswer>('tilemate-domino-game', '/api/domino/games', since);
    await page.goto(base + '/domino.html');
    await settled();
    await page.check('input[name="ruleset"][value="sun-lakes"]');
    await page.check('input[name="players"][value="3"]');
    await page.check('input[name="bots"][value="greedy"]');
    await page.check('input[name="length"][value="round"]');
    await page.fill('#seed', '21');
    await page.click('#start-button');
    await page.waitForSelector('#hand button.domino');
    await settled();
    const before = await dominoGame();
    const play = before.legal.find((a) => a.type === 'play');
    expect(play, 'the seeded deal gives the person a play at once').toBeDefined();
    const { sent, stop } = await loseNextAnswer('/api/domino/games');
    const choose = async () => {
      const domino = page.locator(`#hand button.domino[data-tile="${play!.tile}"]`);
      if ((await domino.getAttribute('aria-pressed')) !== 'true') await domino.click();
      await page.click(`#trains .play-here[data-train="${String(play!.train)}"]`);
      await settled();
    };
    await choose();
    await expect(page.locator('#message').textContent()).resolves.toMatch(/could not be reached/);
    const applied = await dominoGame();
    expect(applied.at).toBeGreaterThan(before.at);
    // the page still shows the domino in the hand (it never heard the answer), so the person plays it again
    await choose();
    await stop();
    expect(sent.map((s) => [s.body.type, s.body.tile, s.body.after, s.status, s.code])).toEqual([
      ['play', play!.tile, before.at, 200, undefined],
      ['play', play!.tile, before.at, 409, 'TM_STALE_ACTION'],
    ]);
    expect(await page.locator('#message').textContent()).toBe('');
    const now = await dominoGame();
    expect(now.at).toBe(applied.at);
    const hand = await page.$$eval('#hand button.domino', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!).sort());
    expect(hand).toEqual([...now.view.hand].sort());
    expect(hand).not.toContain(play!.tile);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
