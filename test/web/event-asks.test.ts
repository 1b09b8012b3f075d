import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SCREENS, type BrowserTable } from './browser.js';

/**
 * An event asks for her account (issue 63): a director who names Ruth's account for a player only
 * asks; Ruth's My games page says so in a sentence, with Accept and Decline, and her answer is hers.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('event-asks');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('page: an event asks for her account', () => {
  it('My games lists the ask in a sentence; she accepts it there, and the event is hers', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    await page.goto(`${base}/mygames.html`);
    const code: string = await page.evaluate(async () => {
      const post = async (url: string, body: object) => {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (r.status >= 400) throw new Error(`${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      await fetch('/api/session', { method: 'DELETE' });
      await post('/api/account', { name: 'Ruth Ask', password: 'a long password' });
      await fetch('/api/session', { method: 'DELETE' });
      await post('/api/account', { name: 'Director Ask', password: 'a long password' });
      const made = await post('/api/events', { name: 'Asking night' });
      await post(`/api/events/${made.code}/players`, { name: 'Ruth', account: 'Ruth Ask' });
      await fetch('/api/session', { method: 'DELETE' });
      await post('/api/session', { name: 'Ruth Ask', password: 'a long password' });
      return made.code;
    });
    await page.goto(`${base}/mygames.html`);
    await page.waitForSelector('#event-asks:not(.hidden) li');
    expect(await page.textContent('#event-asks li')).toContain('Asking night asks to count your play there, as Ruth, in your club rating: accept it only if that is you.');
    await page.click('#event-asks li button:has-text("Accept")');
    await page.waitForFunction(() => (document.querySelector('#event-asks li')?.textContent ?? '').startsWith('Your account plays'));
    expect(await page.textContent('#event-asks li')).toBe('Your account plays Asking night as Ruth: its rounds count in your club rating.');
    // asked again, there is nothing left to answer
    const asks = await page.evaluate(async () => (await (await fetch('/api/events/asks')).json()).asks);
    expect([code.length, asks]).toEqual([6, []]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
