import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPeople, overflowX, SHOTS, type BrowserPeople } from './browser.js';

/**
 * Share a card (issue 44) in Chromium: Ruth shares her saved card; Edna, in a browser of her
 * own, opens it by its code on the shared card page (api/web/shared-card.html), sees its
 * lines and nothing to change it with, presses "Play a game on it", and the practice table
 * starts a game on Ruth's card. Ruth shares and stops sharing with the editor's controls
 * (api/web/card-share.js); stopped, the code opens nothing.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
/** A small original card (never a published League card). */
const CLUB = "card: Ruth's club card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";
const TITLE = "Ruth's club card";
const EVENS_CHIPS = ['22● green', '444● green', '6666● green', '888● green', 'FFno colour'];

let people: BrowserPeople;
beforeAll(async () => {
  people = await openPeople('shared-card');
}, 60_000);
afterAll(async () => {
  await people?.close();
});

describe('a shared card opened by its code', () => {
  it('a second player opens it by its code, sees its lines and no way to change it, and plays a game on it', async () => {
    // Ruth, signed in, saves her card (through the API, from her own browser), then shares it
    // with the controls the card editor shows beside it (card-share.js)
    const { page: ruth } = await people.person('desktop');
    await ruth.goto(`${people.base}/shared-card.html`);
    await ruth.evaluate(async (text) => {
      const send = async (method: string, url: string, body?: unknown) => {
        const r = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        if (!r.ok) throw new Error(`${method} ${url}: ${await r.text()}`);
        return r.json();
      };
      await send('POST', '/api/account', { name: 'Ruth', password: 'a long password' });
      await send('PUT', '/api/cards/club', { text });
    }, CLUB);
    // as the editor page will: the module imported, its controls placed beside the card (a string, so the test's bundler leaves import() alone)
    await ruth.evaluate(`import('/card-share.js').then((m) => { document.querySelector('main').append(m.shareControls('club', ${JSON.stringify(TITLE)})); })`);
    await ruth.click('.share-controls button:has-text("Share it")');
    await ruth.waitForSelector('.share-controls .share-code strong');
    const code = (await ruth.textContent('.share-controls .share-code strong'))!;
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    await expect(ruth.getAttribute('.share-controls .share-link a', 'href')).resolves.toBe(`${people.base}/shared-card.html?code=${code}`);

    // Edna, in a browser of her own, types the code as she heard it
    const { page, pageErrors } = await people.person('desktop');
    await page.goto(`${people.base}/shared-card.html`);
    await settled(page);
    await page.fill('#share-code', code.toLowerCase());
    await page.click('#open');
    await page.waitForSelector('#lines-panel:not(.hidden) .my-line');
    await settled(page);
    await expect(page.textContent('#card-title')).resolves.toBe(TITLE);
    await expect(page.textContent('#card-owner')).resolves.toBe('Shared by Ruth. Only Ruth can change it, and you always see her latest version.');
    const lines = await page.$$eval('.my-line', (ls) => ls.map((l) => ({ id: (l as HTMLElement).dataset.id, tiles: l.querySelectorAll('.example .tile').length })));
    expect(lines).toEqual([
      { id: 'Evens #1', tiles: 14 },
      { id: 'Winds #1', tiles: 14 },
    ]);
    // each line as the card prints it: its groups in their colours, said in words too, never the notation
    const chips = await page.$$eval('.my-line[data-id="Evens #1"] .chip', (cs) => cs.map((c) => c.textContent!.replace(/\s+/g, ' ').trim()));
    expect(chips).toEqual(EVENS_CHIPS);
    // read-only: nothing on the page writes or deletes a card
    await expect(page.locator('textarea, button:has-text("Save"), button:has-text("Edit"), button:has-text("Delete")').count()).resolves.toBe(0);
    expect(new URL(page.url()).searchParams.get('code')).toBe(code);
    expect(await overflowX(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'shared-card-desktop.png'), fullPage: true });

    // "Play a game on it": the practice table offers Ruth's card, and the game is played on it
    await page.click('#play');
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('card') === `shared:${code}`);
    await expect.poll(() => page.locator('.chosen-card').textContent()).toBe(`You will play on ${TITLE} (shared by Ruth), a card shared with you.`);
    await page.fill('#seed', '7');
    await page.click('#start-button');
    await page.waitForSelector('#rack .tile');
    await expect(page.locator('#card-in-play').textContent()).resolves.toBe(`Card: ${TITLE}`);
    await page.click('#card-button');
    await page.waitForSelector('#card-panel .card-line');
    const ids = await page.$$eval('#card-panel .card-line h3 span:first-child', (hs) => hs.map((h) => h.textContent!.replace(/ \(concealed\)$/, '')));
    expect(ids.sort()).toEqual(['Evens #1', 'Winds #1']);

    // Ruth stops sharing: the code opens nothing, in plain words
    ruth.once('dialog', (d) => {
      void d.accept();
    });
    await ruth.click('.share-controls button:has-text("Stop sharing")');
    await ruth.waitForSelector('.share-controls .share-said:has-text("No longer shared")');
    await page.goto(`${people.base}/shared-card.html?code=${code}`);
    await page.waitForFunction(() => (document.getElementById('open-message')?.textContent ?? '') !== '');
    await expect(page.textContent('#open-message')).resolves.toBe(`No shared card has the code ${code}; check the code with the person who gave it.`);
    await expect(page.isVisible('#lines-panel')).resolves.toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
