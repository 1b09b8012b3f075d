import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SHOTS, type BrowserTable } from './browser.js';
import { DOMINO_AGENT_NAMES } from '../../agents/domino/levels.js';

/**
 * The Mexican Train page in a real browser: playwright-core driving Debian's Chromium
 * against the real server (build() on a temporary data folder, listening on a free port).
 * A seeded round is played through the page only, clicking what a person clicks: the hint's
 * domino and train when a hint is offered, else the first legal play, else Draw or Pass.
 * Screenshots go to os.tmpdir()/tilemate-screens (outside the repository) to be looked at by eye.
 */

const SEED = 21;
/** More turns than any round takes: a page that stops offering a way on fails here rather than hanging. */
const MAX_STEPS = 200;

interface Action {
  type: string;
  seat: number;
  tile?: string;
  train?: number | string;
}
interface Answer {
  view: { phase: string; hand: string[]; totals: number[]; rounds: { pipsLeft: number[] }[]; result: { totals: number[] } | null };
  legal: Action[];
}
/** Every answer of a refused request the page made (a refusal is a failure of the page). */
const refused: string[] = [];
let hintShot = false;

let table: BrowserTable;
let app: BrowserTable['app'];
let base = '';
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  table = await openBrowser('domino-web');
  ({ app, base, page, pageErrors } = table);
  page.on('response', (res) => {
    if (res.url().includes('/api/') && res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
  });
}, 60_000);

afterAll(async () => {
  await table?.close();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `domino-${name}.png`), fullPage: true });

/** Waits until the page has drawn the server's latest answer. */
const settled = () => page.waitForSelector('body[data-busy="0"]');

/** The game the page plays, as the server has it (the page keeps its token in the tab's session). */
async function serverAnswer(): Promise<Answer> {
  const saved = JSON.parse((await page.evaluate(() => sessionStorage.getItem('tilemate-domino-game'))) ?? 'null') as { id: string; token: string };
  const res = await app.inject({ method: 'GET', url: `/api/domino/games/${saved.id}`, headers: { authorization: `Bearer ${saved.token}` } });
  expect(res.statusCode).toBe(200);
  return res.json() as Answer;
}

const enabledDominoes = () => page.$$eval('#hand button.domino:not(:disabled)', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!).sort());

async function startGame(opts: { ruleset: string; players: number; bots: string; length: 'game' | 'round'; seed: number }) {
  await page.goto(base + '/domino.html');
  await settled();
  await page.check(`input[name="ruleset"][value="${opts.ruleset}"]`);
  await page.check(`input[name="players"][value="${opts.players}"]`);
  await page.check(`input[name="bots"][value="${opts.bots}"]`);
  await page.check(`input[name="length"][value="${opts.length}"]`);
  await page.fill('#seed', String(opts.seed));
  await page.click('#start-button');
  await page.waitForSelector('#hand button.domino');
  await settled();
}

/**
 * One turn of the person through the page: the hint's play when a hint is offered, else the
 * first legal play, else Draw or Pass. Checks the page offers exactly the server's legal plays.
 */
async function playTurn(useHint: boolean): Promise<string> {
  const { legal } = await serverAnswer();
  const plays = legal.filter((a) => a.type === 'play');
  // only the dominoes the server lists as playable can be clicked
  expect(await enabledDominoes()).toEqual([...new Set(plays.map((a) => a.tile!))].sort());
  let choice: Action | undefined = plays[0] ?? legal[0];
  if (useHint) {
    await page.click('#hint-button');
    await page.waitForSelector('#hint:not(.hidden) [data-action="follow-hint"]');
    await settled();
    const d = await page.locator('[data-action="follow-hint"]').evaluate((b) => ({ ...(b as HTMLElement).dataset }));
    if (!hintShot) {
      hintShot = true;
      await expect(page.locator('#hint .hint-do').textContent()).resolves.toMatch(/^Hint: (Play \d+-\d+ on|Draw|Pass)/);
      await shot('2-hint');
    }
    const hinted = legal.find((a) => a.type === d.type && (a.type !== 'play' || (a.tile === d.tile && String(a.train) === d.train)));
    expect(hinted, `the hint ${JSON.stringify(d)} is one of the legal actions`).toBeDefined();
    choice = hinted;
    // the hint's button never plays (issue 61): it chooses the domino and outlines the move's button, which she presses herself
    const before = JSON.stringify((await serverAnswer()).view);
    await page.click('[data-action="follow-hint"]');
    await page.waitForFunction(() => document.activeElement?.matches('.btn.advised') === true);
    await expect(page.locator('#hint .hint-next').textContent()).resolves.toBe('Now press the button outlined in gold to make that move.');
    expect(await page.locator('.btn.advised').count()).toBe(1);
    expect(JSON.stringify((await serverAnswer()).view), 'nothing was played').toBe(before);
    if (hinted!.type === 'play') {
      expect(await page.getAttribute(`#hand button.domino[data-tile="${hinted!.tile}"]`, 'aria-pressed')).toBe('true');
      expect(await page.locator(`#trains .play-here.advised[data-train="${String(hinted!.train)}"]`).count()).toBe(1);
    } else expect(await page.locator(`#actions .advised[data-action="${hinted!.type}"]`).count()).toBe(1);
  }
  if (choice === undefined) throw new Error('the server offers the person nothing to do');
  if (choice.type === 'play') {
    // chosen by the hint's button already, else by her
    if (!useHint) await page.click(`#hand button.domino[data-tile="${choice.tile}"]`);
    // the trains offered for the chosen domino are the server's, no more
    const offered = await page.$$eval('#trains .play-here', (bs) => bs.map((b) => (b as HTMLElement).dataset.train!).sort());
    expect(offered).toEqual(
      plays
        .filter((a) => a.tile === choice.tile)
        .map((a) => String(a.train))
        .sort(),
    );
    await page.click(`#trains .play-here[data-train="${String(choice.train)}"]`);
  } else {
    await page.click(`#actions [data-action="${choice.type}"]`);
  }
  await settled();
  return choice.type;
}

describe('the Mexican Train page', () => {
  it('serves the start form: rules, players 2 to 8, the bots the route accepts, deal number; the two pages link each other', async () => {
    await page.goto(base + '/domino.html');
    await settled();
    await expect(page.locator('h1').textContent()).resolves.toContain('Mexican Train');
    expect(await page.$$eval('input[name="ruleset"]', (is) => is.map((i) => (i as HTMLInputElement).value))).toEqual(['sun-lakes', 'district']);
    expect(await page.$$eval('input[name="players"]', (is) => is.map((i) => Number((i as HTMLInputElement).value)))).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect((await page.$$eval('input[name="bots"]', (is) => is.map((i) => (i as HTMLInputElement).value))).sort()).toEqual([...DOMINO_AGENT_NAMES].sort());
    expect(await page.locator('#seed').count()).toBe(1);
    await shot('0-start');
    await page.click('header a[href="index.html"]');
    await page.waitForSelector('#start-button');
    await page.locator('header.top').screenshot({ path: join(SHOTS, 'domino-0-mahjongg-header.png') });
    // the practice page keeps its links to the other pages in the header's menu
    await page.click('#menu > summary');
    await page.click('header a[href="domino.html"]');
    await page.waitForSelector('input[name="players"]');
  });

  it('starts a seeded round from the form: the engine, every train with its open end, the counts, large dominoes', async () => {
    await startGame({ ruleset: 'sun-lakes', players: 3, bots: 'greedy', length: 'round', seed: SEED });
    const answer = await serverAnswer();
    expect(await page.locator('#hand button.domino').count()).toBe(answer.view.hand.length);
    // three seats' trains and the Mexican train, each with its open end
    expect(await page.locator('#trains .train').count()).toBe(4);
    expect(await page.locator('#trains .train .open-end').count()).toBe(4);
    expect(await page.locator('#trains .train.mexican').count()).toBe(1);
    await expect(page.locator('#station').textContent()).resolves.toContain('The double 12 is in the station');
    await expect(page.locator('#status').textContent()).resolves.toMatch(/Round 1 of 1.*Boneyard: \d+ dominoes/);
    expect(await page.locator('#players tbody tr').count()).toBe(3);
    // large: a domino in the hand is a big target, its numbers big enough to read
    const box = await page.locator('#hand button.domino').first().boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(60);
    expect(box!.height).toBeGreaterThanOrEqual(140);
    const numbers = await page
      .locator('#hand button.domino .numbers')
      .first()
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(numbers).toBeGreaterThanOrEqual(26);
    await shot('1-table');
  });

  it("plays the round to its end by clicking: the hint's domino and train, Draw and Pass; the end shows the server's scores", async () => {
    const kinds = new Set<string>();
    let steps = 0;
    for (; steps < MAX_STEPS; steps++) {
      await settled();
      expect(await page.locator('#message').textContent()).toBe('');
      if (await page.isVisible('#end')) break;
      const kind = await playTurn(steps % 4 !== 3); // every fourth turn without a hint: the first legal play
      if (!kinds.has(kind)) {
        kinds.add(kind);
        await shot(`2-after-${kind}`);
      }
      if (steps === 2) {
        // the bots' moves since the person's last move, in plain words
        // the bots by name, never "Seat 2"
        await expect(page.locator('#recent').textContent()).resolves.toMatch(/(Betty|Carol) (played \d+-\d+ on|could not play|passed)/);
        expect(await page.locator('#game').textContent()).not.toMatch(/\bseat \d/i);
        await shot('2-midround');
      }
    }
    expect(steps).toBeLessThan(MAX_STEPS);
    expect(kinds.has('play')).toBe(true);
    await page.waitForSelector('#end:not(.hidden) table');
    const answer = await serverAnswer();
    expect(answer.view.phase).toBe('ended');
    const totals = await page.$$eval('#end tr.score-row td.total', (tds) => tds.map((td) => Number(td.textContent)));
    expect(totals).toEqual(answer.view.result!.totals);
    const pips = await page.$$eval('#end tr.score-row td.pips', (tds) => tds.map((td) => Number(td.textContent)));
    expect(pips).toEqual(answer.view.rounds[0].pipsLeft);
    // the running scores on the board agree too
    expect(await page.$$eval('#players td.total', (tds) => tds.map((td) => Number(td.textContent)))).toEqual(answer.view.totals);
    expect(await page.locator('#end [data-action="new-game"]').count()).toBe(1);
    await shot('3-end');
    await page.locator('#end').screenshot({ path: join(SHOTS, 'domino-3-end-section.png') });
    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it('in a whole game, a round\'s end shows the pips left and the totals, and "Next round" goes on', async () => {
    await page.click('#end [data-action="new-game"]');
    await page.waitForSelector('#start-button');
    await startGame({ ruleset: 'district', players: 2, bots: 'greedy', length: 'game', seed: 4 });
    await expect(page.locator('#status').textContent()).resolves.toMatch(/Round 1 of 6/);
    let steps = 0;
    for (; steps < MAX_STEPS && !(await page.isVisible('#round-end')); steps++) {
      expect(await page.locator('#message').textContent()).toBe('');
      await playTurn(false);
    }
    expect(steps).toBeLessThan(MAX_STEPS);
    const answer = await serverAnswer();
    expect(answer.view.rounds).toHaveLength(1);
    expect(await page.$$eval('#round-end tr.round-row td.total', (tds) => tds.map((td) => Number(td.textContent)))).toEqual(answer.view.totals);
    const pips = await page.$$eval('#round-end tr.round-row td.pips', (tds) => tds.map((td) => parseInt(td.textContent!, 10)));
    expect(pips).toEqual(answer.view.rounds[0].pipsLeft);
    // the hand waits while the scores are shown
    expect(await enabledDominoes()).toEqual([]);
    await shot('4-round-end');
    await page.click('#round-end [data-action="next-round"]');
    await settled();
    expect(await page.isVisible('#round-end')).toBe(false);
    await expect(page.locator('#status').textContent()).resolves.toMatch(/Round 2 of 6/);
    await expect(page.locator('#station').textContent()).resolves.toContain('The double 4 is in the station');
    await playTurn(true);
    await shot('5-round-two');
    // a reloaded page picks the game up again from the tab's session, without a round-end panel for rounds past
    await page.reload();
    await settled();
    const now = await serverAnswer();
    expect(await page.locator('#hand button.domino').count()).toBe(now.view.hand.length);
    expect(await page.isVisible('#round-end')).toBe(false);
    expect(await page.$$eval('#players td.total', (tds) => tds.map((td) => Number(td.textContent)))).toEqual(now.view.totals);
    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
