import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, SHOTS, type BrowserTable } from './browser.js';

/**
 * The table cards a director prints (issue 63): a page a table, its seats in order, and a slip
 * for each player with her own score card's full address and its QR code, and nobody else's.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('table-cards');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('page: table cards', () => {
  it("each table's card lists its seats in order, and each player's slip holds her own address and QR code, no one else's", async () => {
    const { page, base, pageErrors } = t;
    await page.goto(`${base}/events.html`);
    const code = await page.evaluate(async () => {
      const post = async (url: string, body?: object) => {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
        if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      await post('/api/account', { name: 'Director Lou', password: 'a long password' });
      const made = (await post('/api/events', { name: 'Friday Club' })) as { code: string };
      for (const name of ['Ruth', 'Edna', 'Pearl', 'Ida', 'Mae', 'Bea', 'Flo', 'Viv']) await post(`/api/events/${made.code}/players`, { name });
      await post(`/api/events/${made.code}/rounds`);
      return made.code;
    });
    const desk = await page.evaluate(async (c) => (await fetch(`/api/events/${c}/desk`)).json(), code);
    const cardOf = new Map<string, string>(desk.players.map((p: { name: string; card: string }) => [p.name, p.card]));
    await page.goto(`${base}/events.html?event=${code}`);
    await page.waitForSelector('#desk:not(.hidden)');
    await page.emulateMedia({ media: 'print' });
    await page.waitForSelector('#table-cards .table-card .slip');
    const cards = await page.$$eval('#table-cards .table-card', (els) =>
      els.map((card) => ({
        seats: [...card.querySelectorAll('ul li')].map((li) => li.textContent),
        slips: [...card.querySelectorAll('.slip')].map((s) => ({
          text: s.textContent ?? '',
          address: s.querySelector('.slip-address')?.textContent ?? '',
          qr: (s.querySelector('img') as HTMLImageElement).src,
        })),
      })),
    );
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      expect(card.seats.map((s) => s!.slice(0, 1))).toEqual(['A', 'B', 'C', 'D']);
      expect(card.slips).toHaveLength(4);
      card.slips.forEach((slip, i) => {
        const name = card.seats[i]!.replace(/^.*: /, '');
        const own = cardOf.get(name)!;
        expect(slip.text).toContain(name);
        expect(slip.address).toBe(`${base}/scorecard.html?event=${code}&card=${own}`);
        // no other player's code anywhere on her slip
        for (const [other, c] of cardOf) if (other !== name) expect(slip.text).not.toContain(c);
        expect(decodeURIComponent(new URL(slip.qr).searchParams.get('path')!)).toBe(`/scorecard.html?event=${code}&card=${own}`);
      });
    }
    // the QR codes are drawn
    await page.waitForFunction(() => [...document.querySelectorAll('#table-cards img')].every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0));
    // the address she types opens her score card
    const first = cards[0].slips[0].address;
    const phone = await page.context().newPage();
    await phone.goto(first);
    await phone.waitForSelector('body[data-busy="0"]');
    await phone.close();
    await page.screenshot({ path: join(SHOTS, 'events-table-cards-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    expect(await axeViolations(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
