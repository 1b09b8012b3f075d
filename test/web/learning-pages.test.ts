import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SHOTS, type BrowserTable } from './browser.js';
import { type GameAnswer, playOn } from './late-game.js';

/**
 * The learning pages speak a beginner's language (issue 61, "the learning pages fixed"): a drill
 * opens at the top of the screen with its question and answer buttons in view, even when the
 * form's button was far down a phone's page; card lines are named as players name them ("the
 * second 2468 line") and drawn as tiles, the card's notation ("1111a 22b 3333c NEWS") kept behind
 * a toggle; the end of a game names the winning line so too; and My games steps through her game
 * with the tile each call took, the tiles each pass sent blind, and the seats as the table named
 * them (Right, Across, Left), never by their winds.
 */

/** The sizes the pages are checked at: a phone, a tablet, a laptop. */
const SIZES = { phone: { width: 390, height: 844 }, tablet: { width: 768, height: 1024 }, desktop: { width: 1280, height: 800 } } as const;

/** Words of the card's notation: a group with a suit letter ("1111a", "2026b"), winds or flowers written as letters. */
const NOTATION = /\b\d+[abc]\b|\b(FF+|NEWS|NNN+|EEE+|WWW+|SSS+|DDD+[abc]?|RG0)\b/;

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** What of these is not wholly on the screen as the page leaves it (the test never scrolls). */
const offScreen = (page: Page, selectors: string[]) =>
  page.evaluate((sels) => {
    const out: string[] = [];
    for (const sel of sels) {
      const els = [...document.querySelectorAll(sel)];
      if (els.length === 0) out.push(`${sel}: none`);
      for (const e of els) {
        const r = e.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight) out.push(`${sel} "${(e.textContent ?? '').trim().slice(0, 30)}" at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
      }
    }
    return out;
  }, selectors);

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('learning-pages', { screen: 'phone' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('drills open at the top', () => {
  for (const [name, size] of Object.entries(SIZES)) {
    it(`the question and the answer buttons are on the first screen, from the form and from "Next drill" (${name})`, async () => {
      const { page, base, pageErrors } = t;
      await page.setViewportSize(size);
      for (const kind of ['discard', 'hand', 'call']) {
        await page.goto(`${base}/drills.html`);
        await settled(page);
        await page.check(`input[name="kind"][value="${kind}"]`);
        // the form's button, as a person reaches it: scrolled to, far down a phone's page
        await page.locator('#start-button').scrollIntoViewIfNeeded();
        await page.click('#start-button');
        await page.waitForSelector('#drill:not(.hidden)');
        await settled(page);
        expect(await offScreen(page, ['#drill-question', '#answer button']), `${kind} from the form`).toEqual([]);
        if (kind === 'discard') await page.screenshot({ path: join(SHOTS, `learning-drill-top-${name}.png`) });
        if (kind !== 'discard') continue;
        // answered, and the next one: it opens at the top too, not where "Next drill" was
        await page.click('#drill-rack .tile:not([disabled]) >> nth=0');
        await page.click('#answer-button');
        await page.waitForSelector('#result:not(.hidden)');
        await settled(page);
        const seed = new URL(page.url()).searchParams.get('seed');
        await page.click('#next-button');
        await page.waitForFunction((s) => new URL(location.href).searchParams.get('seed') !== s, seed);
        await settled(page);
        expect(await offScreen(page, ['#drill-question', '#answer button']), 'the next drill').toEqual([]);
      }
      expect(pageErrors).toEqual([]);
    }, 180_000);
  }
});

describe('card lines in a beginner’s words', () => {
  it('a hand drill names its lines as players do, draws them as tiles, and keeps the notation behind a toggle', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize(SIZES.phone);
    for (const level of [1, 2, 3]) {
      await page.goto(`${base}/drills.html?kind=hand&level=${level}&seed=${40 + level}`);
      await page.waitForSelector('#drill:not(.hidden)');
      await settled(page);
      const choices = await page.$$eval('#answer [data-choice]', (bs) => bs.map((b) => ({ id: (b as HTMLElement).dataset.choice!, text: b.textContent!.trim() })));
      expect(choices).toHaveLength(4);
      for (const c of choices) {
        expect(c.text, c.id).toMatch(/^The (first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) .+ line \(\d+ points(, concealed)?\)$/);
        expect(c.text, c.id).not.toMatch(NOTATION);
      }
      // behind the toggle: each line drawn as tiles (the analyzer's closest form to her tiles), and as the card writes it
      await page.waitForSelector('#answer-more .line-form .tile', { state: 'attached' });
      await page.click('#answer-more summary');
      for (const c of choices) {
        const form = page.locator(`#answer-more .line-form[data-id="${c.id}"]`);
        expect(await form.locator('.tile').count(), c.id).toBeGreaterThanOrEqual(14);
        await expect(form.locator('.note').textContent()).resolves.toMatch(/^On the card: .+\.$/);
      }
      if (level === 2) await page.screenshot({ path: join(SHOTS, 'learning-hand-drill-phone.png'), fullPage: true });
      // a wrong answer: the verdict and its reason name the lines too
      await page.click('#answer [data-choice] >> nth=0');
      await page.waitForSelector('#result:not(.hidden)');
      await settled(page);
      const result = (await page.textContent('#result'))!;
      expect(result).toMatch(/^Your answer: the \w+ .+ line/);
      expect(result).not.toMatch(NOTATION);
    }
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('a scoring drill says which line made Mah Jongg by its name', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize(SIZES.phone);
    for (const seed of [40, 41, 42]) {
      await page.goto(`${base}/drills.html?kind=score&level=1&seed=${seed}`);
      await page.waitForSelector('#drill:not(.hidden)');
      await settled(page);
      const said = (await page.textContent('#situation'))!;
      expect(said).toMatch(/^You made Mah Jongg with the \w+ .+ line, a \d+-point hand, (on (Right|Across|Left)'s discard|picking the winning tile from the wall yourself)\./);
      expect(said).not.toMatch(NOTATION);
    }
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('the end of a game names the winning line as players do', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize(SIZES.phone);
    // a game an easy bot wins while she lets every tile go (seed 4 does; others are tried if the bots change)
    let ended: GameAnswer | null = null;
    for (let seed = 4; seed < 16 && ended === null; seed++) {
      await page.goto(`${base}/`);
      await page.evaluate(() => sessionStorage.removeItem('tilemate-game'));
      await page.goto(`${base}/`);
      await page.check('input[name="level"][value="easy"]');
      await page.fill('#seed', String(seed));
      await page.click('#start-button');
      await page.waitForSelector('#rack .tile');
      await settled(page);
      const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tilemate-game')!) as { id: string; token: string });
      const last = await playOn(base, session, () => false, 2000);
      if (((last.view.mahJonggs as unknown[] | undefined) ?? []).length > 0) ended = last;
    }
    expect(ended, 'a game won by a bot').not.toBeNull();
    // the server names the line as players do, from the game's own card
    expect((ended!.view.mahJonggs as { name?: string }[])[0].name).toMatch(/^the (first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) .+ line$/);
    await page.reload();
    await page.waitForSelector('#end:not(.hidden) .outcome');
    const outcome = (await page.textContent('#end .outcome'))!;
    expect(outcome).toMatch(/^(Right|Across|Left) made Mah Jongg with the (first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) .+ line \(worth \d+\)\.$/);
    expect(outcome).not.toMatch(/#\d/);
    await expect(page.locator('#end .hands').textContent()).resolves.toMatch(/(Right|Across|Left): Mah Jongg with the \w+ .+ line/);
    await page.locator('#end').screenshot({ path: join(SHOTS, 'learning-end-phone.png') });
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

describe('My games steps through her game as the table told it', () => {
  it('each call names the tile it took, each blind pass its blind tiles, and every seat is Right, Across or Left', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize(SIZES.phone);
    await page.goto(`${base}/mygames.html`);
    // a game from this browser's session: she passes blind where she may, calls whenever she may, else the first choice
    const id = await page.evaluate(async (seed) => {
      const post = async (url: string, body: unknown, token?: string) =>
        (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json();
      const g = await post('/api/games', { level: 'random', seed });
      let a = g;
      for (let i = 0; i < 2000 && a.view.phase !== 'ended'; i++) {
        const legal = a.legal as { type: string; blindUpTo?: number }[];
        const call = legal.find((l) => l.type === 'call');
        const pass = legal.find((l) => l.type === 'pass');
        const blind = Math.min(pass?.blindUpTo ?? 0, 2);
        const move =
          call ??
          (pass ? { type: 'pass', tiles: (a.view.rack as string[]).filter((x) => x !== 'J').slice(0, 3 - blind), blind } : legal[0].type === 'courtesy' ? { type: 'courtesy', tiles: [] } : legal[0]);
        a = await post(`/api/games/${g.id}/actions`, { ...move, after: a.at }, g.token);
      }
      return g.id as string;
    }, 60);
    await page.reload();
    await settled(page);
    await page.click(`.game-item[data-id="${id}"] button:has-text("Step through it")`);
    await page.waitForSelector('.steps-box:not(.hidden) .step-slider');
    await settled(page);
    const stops = Number(await page.getAttribute('.step-slider', 'max'));
    const said: { words: string; meanwhile: string }[] = [];
    for (let k = 1; k <= stops; k++) {
      await page.fill('.step-slider', String(k));
      said.push({ words: (await page.textContent('.step-words'))!, meanwhile: (await page.textContent('.step-meanwhile'))! });
    }
    const passes = said.map((s) => s.words).filter((w) => /^Decision \d+ of \d+: You pass /.test(w));
    expect(passes.length).toBeGreaterThanOrEqual(3);
    for (const w of passes) expect(w).toMatch(/^Decision \d+ of \d+: You pass (.+ )?(to the right|across|to the left)\.$/);
    // her blind passes say what went blind, beside the tiles from her rack
    expect(passes.filter((w) => / and 2 tiles blind to the (left|right)\.$/.test(w)).length).toBeGreaterThanOrEqual(1);
    // every call names the tile and whose discard it was, hers and the others'
    const calls = said.flatMap((s) => [s.words, ...s.meanwhile.split('; ')]).filter((w) => /\bcalls? /.test(w) && !/hand dead/.test(w));
    expect(calls.some((w) => /: You call /.test(w))).toBe(true);
    for (const w of calls) expect(w).toMatch(/calls? (your|Right's|Across's|Left's) (\d (Bam|Crak|Dot)|[A-Z][a-z]+( Dragon)?) for (a (pung|kong|quint|sextet)|Mah Jongg)/);
    // the seats as the table named them: no "North discards", "East calls"
    for (const s of said) expect(`${s.words} ${s.meanwhile}`).not.toMatch(/(: |; |^Before it: )(East|South|West|North) (discards|calls|exchanges|declares)/);
    expect(said.some((s) => /(Right|Across|Left) discards /.test(s.meanwhile))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'learning-steps-phone.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
