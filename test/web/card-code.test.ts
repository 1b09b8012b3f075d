import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPeople, overflowX, SHOTS, type BrowserPeople } from './browser.js';

/**
 * Shared cards reached by hand (issue 62), in Chromium: on a phone, the practice table's page
 * has a box for a club's card code; a code typed wrong, or one that opens nothing, gets one
 * sentence naming what is wrong; typed as a person copies it from a printed sheet (small
 * letters, spaces, a dash) it opens the shared card's page, as the link does. On My card, the
 * same box; the card she chooses there, signed in, is the one her phone starts on once she
 * signs in on it (a second browser of her own), and a choice made on the phone comes back to the
 * first.
 */

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
/** A small original card (never a published League card). */
const CLUB = "card: Ruth's club card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";
const TITLE = "Ruth's club card";
const PASSWORD = 'a long password';

let people: BrowserPeople;
/** Ruth's shared card's code. */
let code: string;

/** The requests a test makes as the page's own person (her cookies), through the page. */
async function send(page: Page, method: string, url: string, body?: unknown): Promise<any> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const r = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!r.ok) throw new Error(`${method} ${url}: ${await r.text()}`);
      return r.json();
    },
    { method, url, body },
  );
}

/** The sentence under the box once it changes from what it was. */
async function boxSays(page: Page, typed: string): Promise<string> {
  await page.fill('#club-code', '');
  await page.evaluate(() => {
    document.getElementById('club-code-message')!.textContent = '';
  });
  await page.fill('#club-code', typed);
  await page.press('#club-code', 'Enter');
  await page.waitForFunction(() => (document.getElementById('club-code-message')?.textContent ?? '') !== '');
  return (await page.textContent('#club-code-message'))!;
}

beforeAll(async () => {
  people = await openPeople('card-code');
  // Ruth, signed in, saves her card and shares it
  const { page: ruth } = await people.person('desktop');
  await ruth.goto(`${people.base}/shared-card.html`);
  await send(ruth, 'POST', '/api/account', { name: 'Ruth', password: PASSWORD });
  await send(ruth, 'PUT', '/api/cards/club', { text: CLUB });
  ({ code } = await send(ruth, 'POST', '/api/cards/club/share'));
  expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
}, 120_000);
afterAll(async () => {
  await people?.close();
});

describe("a club's card by its code", () => {
  it('on a phone, the home page takes the code as typed from a sheet; a wrong or unknown one gets one sentence', async () => {
    const { page, pageErrors } = await people.person('phone');
    await page.goto(`${people.base}/`);
    await page.waitForSelector('.chosen-card');
    await expect(page.isVisible('#club-code')).resolves.toBe(true);
    expect(await overflowX(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // wrong, each in one sentence naming what is wrong, and the page stays
    expect(await boxSays(page, '')).toBe('Type the card code you were given, then press Open the card.');
    expect(await boxSays(page, code.slice(0, 7).toLowerCase())).toBe('A card code has 8 letters and digits, and this one has 7.');
    expect(await boxSays(page, `${code.slice(0, 7)}O`)).toBe('A card code never has the letter O in it, so check that character on the sheet.');
    expect(await boxSays(page, `${code.slice(0, 4)}#${code.slice(4)}`)).toBe('A card code has only letters and digits, so "#" is not part of it.');
    const unknown = code === 'ZZZZZZZZ' ? 'YYYYYYYY' : 'ZZZZZZZZ';
    expect(await boxSays(page, `${unknown.slice(0, 4).toLowerCase()} ${unknown.slice(4)}`)).toBe(`No shared card has the code ${unknown}; check the code with the person who gave it.`);
    // bounded: the box takes at most 100 characters, and a longer text is one sentence too
    await page.fill('#club-code', 'A'.repeat(5000));
    expect((await page.inputValue('#club-code')).length).toBeLessThanOrEqual(100);
    const long = await page.evaluate(`import('/code-box.js').then((m) => m.readCode('A'.repeat(100000)).problem)`);
    expect(long).toBe('That is much longer than a card code, which has 8 letters and digits.');
    // as a person types or pastes it: the same code each time
    const typed = [
      `${code.toLowerCase()}`,
      ` ${code.slice(0, 4)} ${code.slice(4)} `,
      `${code.slice(0, 4)}\u2014${code.slice(4)}`,
      `shared:${code}`,
      `${people.base}/shared-card.html?code=${code}`,
      `${code.slice(0, 2)}.${code.slice(2, 5)}_${code.slice(5)}`,
    ];
    const read = await page.evaluate(`import('/code-box.js').then((m) => ${JSON.stringify(typed)}.map((t) => m.readCode(t)))`);
    expect(read).toEqual(typed.map(() => ({ code })));
    expect(new URL(page.url()).pathname).toBe('/');
    await page.screenshot({ path: join(SHOTS, 'card-code-home-phone.png'), fullPage: true });

    // typed as printed, in small letters with a space and a dash: the shared card's page, as its link opens it
    await page.fill('#club-code', ` ${code.slice(0, 4).toLowerCase()} - ${code.slice(4).toLowerCase()} `);
    await page.click('#club-code-open');
    await page.waitForURL((u) => u.pathname === '/shared-card.html' && u.searchParams.get('code') === code);
    await page.waitForSelector('#lines-panel:not(.hidden) .my-line');
    await expect(page.textContent('#card-title')).resolves.toBe(TITLE);
    await settled(page);
    await page.click('#make-mine');
    await expect.poll(() => page.textContent('#use-message')).toMatch(/^It is your card now/);
    await page.goto(`${people.base}/`);
    await expect.poll(() => page.locator('.chosen-card').textContent()).toBe(`You will play on ${TITLE} (shared by Ruth), a card shared with you.`);
    expect(pageErrors).toEqual([]);
  });

  it("chosen on My card's box while signed in, her phone signed in to her account starts on it, and back", async () => {
    // Edna, at her computer: an account, then Ruth's card by its code on My card (a long dash, as a phone's keyboard types it)
    const { page: desk, pageErrors: deskErrors } = await people.person('desktop');
    await desk.goto(`${people.base}/mycard.html`);
    await settled(desk);
    await send(desk, 'POST', '/api/account', { name: 'Edna', password: PASSWORD });
    expect(await boxSays(desk, 'K7MQ-2PX')).toBe('A card code has 8 letters and digits, and this one has 7.');
    await desk.fill('#club-code', `${code.slice(0, 4)}\u2013${code.slice(4)}`);
    await desk.press('#club-code', 'Enter');
    await desk.waitForURL((u) => u.pathname === '/shared-card.html' && u.searchParams.get('code') === code);
    await desk.waitForSelector('#shared-panel:not(.hidden)');
    await settled(desk);
    await desk.click('#make-mine');
    await expect.poll(() => desk.textContent('#use-message')).toMatch(/^It is your card now/);
    // kept with her account
    await expect.poll(async () => (await send(desk, 'GET', '/api/chosen-card')).card).toBe(`shared:${code}`);

    // her phone: a browser of its own, signed in on My games; every page starts on Ruth's card
    const { page: phone, pageErrors: phoneErrors } = await people.person('phone');
    await phone.goto(`${people.base}/mygames.html`);
    await phone.waitForSelector('#sign-form:not(.hidden)');
    await phone.fill('#name', 'Edna');
    await phone.fill('#password', PASSWORD);
    await phone.click('#sign-in');
    await phone.waitForSelector('#signed-in:not(.hidden)');
    await phone.goto(`${people.base}/`);
    await expect.poll(() => phone.locator('.chosen-card').textContent()).toBe(`You will play on ${TITLE} (shared by Ruth), a card shared with you.`);
    await phone.goto(`${people.base}/chase.html`);
    await settled(phone);
    await expect.poll(() => phone.locator('#card').inputValue()).toBe(`shared:${code}`);
    await phone.goto(`${people.base}/mycard.html`);
    await settled(phone);
    await expect.poll(() => phone.locator('#chosen-words').textContent()).toMatch(new RegExp(`^Your card is ${TITLE} \\(shared by Ruth\\)`));
    await phone.waitForSelector(`#saved li[data-name="shared:${code}"] .chosen-mark`);
    expect(await overflowX(phone)).toBe(0);
    await phone.screenshot({ path: join(SHOTS, 'card-code-follows-phone.png'), fullPage: true });

    // on the phone she goes back to the practice card: her computer starts on it too
    await phone.click('#saved li[data-name=""] button');
    await phone.waitForSelector('#saved li[data-name=""] .chosen-mark');
    await expect.poll(async () => (await send(phone, 'GET', '/api/chosen-card')).card).toBe('');
    await desk.goto(`${people.base}/`);
    await expect.poll(() => desk.locator('.chosen-card').textContent()).toMatch(/practice card/);

    expect(deskErrors).toEqual([]);
    expect(phoneErrors).toEqual([]);
  });
});
