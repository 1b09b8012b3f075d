import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, overflowX, SCREENS, SHOTS, type BrowserTable } from './browser.js';
import { everyControlInside } from './page-checks.js';

/**
 * Club events on the pages (issue 47): the director's desk on a laptop (the event made, four
 * players registered, the round seated and accepted), each player's score card on a phone (her
 * four games entered through the form; one game saved while the phone is offline, kept and sent
 * when it is back, kept once; her partner's card checked, one wrong card caught by its verifier
 * and changed by its player), and the standings on a 1920x1080
 * projector. axe-core finds nothing serious on any of them.
 */

let t: BrowserTable;
beforeAll(async () => {
  t = await openBrowser('events');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');

/** Players registered at the desk, one after another, as the director types them. */
async function register(page: Page, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await page.fill('#player-name', name);
    await page.click('#add-player');
    await page.waitForFunction((n) => (document.getElementById('players')?.textContent ?? '').includes(n), name);
    await settled(page);
  }
}

/** A director of her own on a laptop, at her events (a test that stands alone): whoever was signed in signs out first. */
async function newDirector(page: Page, base: string, name: string): Promise<void> {
  await page.setViewportSize({ width: SCREENS.desktop.width, height: SCREENS.desktop.height });
  await page.goto(`${base}/events.html`);
  const made = await page.evaluate(async (n) => {
    await fetch('/api/session', { method: 'DELETE' });
    return (await fetch('/api/account', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'a long password' }) })).status;
  }, name);
  expect(made).toBe(201);
  await page.goto(`${base}/events.html`);
  await page.waitForSelector('#start:not(.hidden)');
}

interface Desk {
  code: string;
  players: { id: string; name: string; card: string }[];
  rounds: { tables: { seats: { seat: string; player: string }[] }[] }[];
}

describe('page: club events', () => {
  it('the director runs a round from her desk; each player enters her card on a phone, one game while offline; the standings fill a projector', async () => {
    const { page, base, pageErrors } = t;
    await page.setViewportSize({ width: SCREENS.desktop.width, height: SCREENS.desktop.height });
    await page.goto(`${base}/events.html`);
    await page.waitForSelector('#sign-first:not(.hidden)');
    expect(await axeViolations(page)).toEqual([]);
    expect(
      await page.evaluate(
        async () => (await fetch('/api/account', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Dee', password: 'a long password' }) })).status,
      ),
    ).toBe(201);
    await page.reload();
    await page.waitForSelector('#start:not(.hidden)');
    await page.fill('#event-name', 'Tuesday Club Open');
    await page.click('#create-button');
    await page.waitForSelector('#desk:not(.hidden)');
    await register(page, ['Ruth', 'Edna', 'Pearl', 'Ida']);
    await page.click('#seat-button');
    await page.waitForFunction(() => document.querySelectorAll('#tables .event-table li').length === 4);
    await settled(page);
    await expect(page.textContent('#round-line')).resolves.toMatch(/^Round 1: 55 minutes left\. 0 of 4 cards checked\.$/);
    expect(await everyControlInside(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'events-desk-laptop.png'), fullPage: true });
    const code = new URL(page.url()).searchParams.get('event')!;
    const desk: Desk = await page.evaluate(async (c) => (await fetch(`/api/events/${c}/desk`)).json(), code);
    const seats = new Map(desk.rounds[0].tables[0].seats.map((s) => [s.seat, s.player]));
    const cardOf = (seat: string) => desk.players.find((p) => p.id === seats.get(seat))!.card;

    // the four phones: each enters the same four games through her form
    const games = [
      { winner: 'B', how: 'D', value: '25', exposures: '2' },
      { winner: 'A', how: 'self', value: '30', exposures: '0' },
      { winner: 'wall' },
      { winner: 'C', how: 'A', value: '35', exposures: '1' },
    ];
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    for (const seat of ['A', 'B', 'C', 'D']) {
      await phone.goto(`${base}/scorecard.html?event=${code}&card=${cardOf(seat)}`);
      await phone.waitForSelector('#card:not(.hidden) #games form');
      await settled(phone);
      for (const [i, g] of games.entries()) {
        const n = i + 1;
        await phone.check(`input[name="g${n}-winner"][value="${g.winner}"]`);
        if (g.winner !== 'wall') {
          // Edna (North) enters game 4's value wrongly: Pearl, who checks her card, will catch it
          await phone.fill(`#g${n}-value`, seat === 'B' && n === 4 ? '40' : g.value!);
          await phone.check(`input[name="g${n}-how"][value="${g.how}"]`);
          await phone.selectOption(`#g${n}-exposures`, g.exposures!);
        }
        // Ruth's third game is saved while her phone is offline: kept on it, sent when it is back
        const offline = seat === 'A' && n === 3;
        if (offline) await phone.context().setOffline(true);
        await phone.click(`#g${n}-save`);
        if (offline) {
          await phone.waitForFunction(() => /kept on this phone/.test(document.getElementById('queue-line')?.textContent ?? ''));
          await phone.screenshot({ path: join(SHOTS, 'events-card-offline-phone.png'), fullPage: true });
          await phone.context().setOffline(false);
          await phone.evaluate(() => window.dispatchEvent(new Event('online')));
          await phone.waitForFunction(() => (document.getElementById('queue-line')?.textContent ?? '') === '');
        }
        await phone.waitForFunction((k) => (document.getElementById(`g${k}-title`)?.textContent ?? '').endsWith('saved'), n);
        await settled(phone);
      }
      if (seat === 'A') {
        expect(await overflowX(phone)).toBe(0);
        expect(await everyControlInside(phone)).toEqual([]);
        expect(await axeViolations(phone)).toEqual([]);
        await phone.screenshot({ path: join(SHOTS, 'events-card-phone.png'), fullPage: true });
      }
    }
    // each checks her partner's card on her phone; Pearl (South) finds Edna's game 4 differs, and Edna changes it
    const checkFrom = async (seat: string) => {
      await phone.goto(`${base}/scorecard.html?event=${code}&card=${cardOf(seat)}`);
      await phone.waitForSelector('#checks button');
      await settled(phone);
      await phone.click('#checks button');
      await phone.waitForFunction(() => /^Checked|differs/.test(document.getElementById('say')?.textContent ?? ''));
      await settled(phone);
      return phone.textContent('#say');
    };
    await expect(checkFrom('D')).resolves.toMatch(/^Not checked: game 4 differs between .+'s card and yours: one of you must correct it before it is checked\.$/);
    await phone.screenshot({ path: join(SHOTS, 'events-card-differs-phone.png'), fullPage: true });
    await phone.goto(`${base}/scorecard.html?event=${code}&card=${cardOf('B')}`);
    await phone.waitForSelector('#g4-change');
    await settled(phone);
    await phone.click('#g4-change');
    await phone.fill('#g4-value', '35');
    await phone.click('#g4-save');
    await phone.waitForFunction(() => /35-point hand/.test(document.querySelector('.game-saved:last-of-type')?.textContent ?? ''));
    await settled(phone);
    for (const seat of ['A', 'B', 'C', 'D']) await expect(checkFrom(seat)).resolves.toBe('Checked: the card matches yours.');
    // the game kept offline was kept once
    const log = await page.evaluate(async (c) => (await fetch(`/api/events/${c}/log`)).json(), code);
    expect(log.changes.filter((l: { change: { type: string } }) => l.change.type === 'enter')).toHaveLength(17);

    await page.reload();
    await page.waitForFunction(() => /4 of 4 cards checked/.test(document.getElementById('round-line')?.textContent ?? ''));
    await settled(page);
    await page.click('#accept-button');
    await page.waitForFunction(() => /Round 1 is accepted/.test(document.getElementById('round-line')?.textContent ?? ''));
    await settled(page);
    // the Director changes an accepted game: game 3 was no wall game, West made Mah Jongg on North's discard
    await page.fill('#correct-round', '1');
    await page.fill('#correct-table', '1');
    await page.fill('#correct-game', '3');
    // the game asked as her score card asks it, the table's players by name; all four at the desk (rules 22)
    await expect(page.textContent('#correct-seats')).resolves.toBe(
      `Round 1, table 1: ${['A', 'B', 'C', 'D'].map((s) => `${desk.players.find((p) => p.id === seats.get(s))!.name} (${s}, ${({ A: 'East', B: 'North', C: 'West', D: 'South' } as Record<string, string>)[s]})`).join(', ')}.`,
    );
    await page.check('input[name="correct-winner"][value="C"]');
    await page.fill('#correct-value', '25');
    await page.check('input[name="correct-how"][value="B"]');
    await page.selectOption('#correct-exposures', '1');
    for (const s of ['A', 'B', 'C', 'D']) await page.check(`input[name="correct-present"][value="${seats.get(s)}"]`);
    await page.fill('#correct-reason', 'the table told the desk game 3 was won by West');
    await page.click('#correct-button');
    await settled(page);
    await expect(page.textContent('#say')).resolves.toBe('');
    // the ruling in the log, with who was at the desk; the form is drawn afresh
    await page.click('#log-button');
    await page.waitForSelector('#log li');
    await expect(page.textContent('#log li:last-child')).resolves.toMatch(
      new RegExp(
        `: the director, .+: ruled on round 1, table 1, game 3, because the table told the desk game 3 was won by West \\(at the desk: ${['A', 'B', 'C', 'D'].map((s) => desk.players.find((p) => p.id === seats.get(s))!.name).join(', ')}\\)\\.$`,
      ),
    );
    await expect(page.isChecked('input[name="correct-winner"][value="C"]')).resolves.toBe(false);
    await page.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    expect(await overflowX(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('#correct-form').screenshot({ path: join(SHOTS, 'events-correct-phone.png') });
    await page.setViewportSize({ width: SCREENS.tablet.width, height: SCREENS.tablet.height });
    expect(await overflowX(page)).toBe(0);
    await page.locator('#correct-form').screenshot({ path: join(SHOTS, 'events-correct-tablet.png') });
    await page.setViewportSize({ width: SCREENS.desktop.width, height: SCREENS.desktop.height });

    // the standings on the room's projector
    const room = await page.context().newPage();
    await room.setViewportSize({ width: 1920, height: 1080 });
    await room.goto(`${base}/standings.html?event=${code}`);
    await room.waitForSelector('#standings-table:not(.hidden) tbody tr');
    const rows = await room.$$eval('#standings-rows tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    // rules 11: B 25 on D's discard at 2 exposures (D -20); A self-picked 30 (+10); C 25 on B's discard, as the Director changed it (B -10); C 35 on A's discard (A -10)
    const total = new Map(rows.map((r) => [r[1], Number(r.at(-2))]));
    const name = (seat: string) => desk.players.find((p) => p.id === seats.get(seat))!.name;
    expect([name('A'), name('B'), name('C'), name('D')].map((n) => total.get(n))).toEqual([40 - 10, 25 - 10, 25 + 35, -20]);
    expect(await overflowX(room)).toBe(0);
    expect(await axeViolations(room)).toEqual([]);
    await room.screenshot({ path: join(SHOTS, 'events-standings-projector.png') });
    for (const p of [phone, room]) await p.close();
    expect(pageErrors).toEqual([]);
  }, 240_000);

  it('a Mexican Train day at the desk: a qualifying game, one phone entering its six hands, the championship, the winners on the projector', async () => {
    const { page, base, pageErrors } = t;
    await newDirector(page, base, 'Mae');
    await page.fill('#event-name', 'Senior Games Train');
    await page.selectOption('#event-game', 'sun-lakes');
    await page.waitForSelector('#size-line:not(.hidden)');
    await page.click('#create-button');
    await page.waitForSelector('#desk:not(.hidden)');
    await expect(page.textContent('#desk-about')).resolves.toContain('Mexican Train, up to 4 a table, a qualifying game and a championship.');
    for (let i = 1; i <= 8; i++) {
      await page.fill('#player-name', `Rider ${i}`);
      await page.click('#add-player');
      await page.waitForFunction((n) => (document.getElementById('players')?.textContent ?? '').includes(n), `Rider ${i}:`);
      await settled(page);
    }
    await page.click('#seat-button');
    await page.waitForFunction(() => document.querySelectorAll('#tables .event-table li').length === 8);
    await settled(page);
    await expect(page.isVisible('#clock-button')).resolves.toBe(false);
    const code = new URL(page.url()).searchParams.get('event')!;
    type Desk = { players: { id: string; card: string; name: string }[]; rounds: { hands: number; tables: { seats: { player: string }[] }[] }[] };
    const deskNow = (): Promise<Desk> => page.evaluate(async (c) => (await fetch(`/api/events/${c}/desk`)).json(), code);
    const totals = new Map<string, number>();
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    /** Plays the game now seated: every card through the API but the first player's, on her phone; each checks the card before hers. */
    const play = async (viaPhone: boolean) => {
      const d = await deskNow();
      const g = d.rounds.at(-1)!;
      const cardOf = (id: string) => d.players.find((p) => p.id === id)!.card;
      for (const [ti, tb] of g.tables.entries()) {
        const ids = tb.seats.map((x) => x.player);
        const sheet = Array.from({ length: g.hands }, (_, h) => ids.map((_, s2) => (s2 === (h + ti) % ids.length ? 0 : 4 + ((s2 * 11 + h * 3 + ti) % 35))));
        ids.forEach((id, s2) => totals.set(id, (totals.get(id) ?? 0) + sheet.reduce((a, h) => a + h[s2], 0)));
        for (const [k, id] of ids.entries()) {
          if (viaPhone && ti === 0 && k === 0) {
            await phone.goto(`${base}/scorecard.html?event=${code}&card=${cardOf(id)}`);
            await phone.waitForSelector('#games form');
            await settled(phone);
            for (const [h, points] of sheet.entries()) {
              for (const [i, p] of points.entries()) await phone.fill(`#h${h + 1}-p${i}`, String(p));
              await phone.click(`#h${h + 1}-save`);
              await phone.waitForFunction((n) => (document.getElementById(`h${n}-title`)?.textContent ?? '').endsWith('saved'), h + 1);
              await settled(phone);
            }
            expect(await everyControlInside(phone)).toEqual([]);
            expect(await axeViolations(phone)).toEqual([]);
            await phone.screenshot({ path: join(SHOTS, 'events-train-card-phone.png'), fullPage: true });
            continue;
          }
          for (const [h, points] of sheet.entries())
            await page.evaluate(async ([c, body]) => (await fetch(`/api/events/${c}/card`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status, [
              code,
              { card: cardOf(id), hand: h + 1, points, entry: crypto.randomUUID() },
            ] as const);
        }
        for (const [k, id] of ids.entries()) {
          const before = ids[(k - 1 + ids.length) % ids.length];
          const status = await page.evaluate(
            async ([c, body]) => (await fetch(`/api/events/${c}/card/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
            [code, { card: cardOf(id), player: before }] as const,
          );
          expect(status).toBe(200);
        }
      }
      await page.reload();
      await page.waitForFunction(() => /cards checked/.test(document.getElementById('round-line')?.textContent ?? ''));
      await settled(page);
      await page.click('#accept-button');
      await page.waitForFunction(() => /is accepted/.test(document.getElementById('round-line')?.textContent ?? ''));
      await settled(page);
    };
    await play(true);
    await expect(page.textContent('#seat-button')).resolves.toBe('Seat the championship');
    await page.click('#seat-button');
    await page.waitForFunction(() => /The championship, 6 hands/.test(document.getElementById('round-line')?.textContent ?? ''));
    await settled(page);
    const champ = (await deskNow()).rounds[1].tables.flatMap((tb) => tb.seats.map((x) => x.player));
    expect(champ).toHaveLength(2);
    await page.screenshot({ path: join(SHOTS, 'events-train-desk-laptop.png'), fullPage: true });
    await play(false);
    const names = new Map((await deskNow()).players.map((p) => [p.id, p.name]));
    const winners = [...champ].sort((a, b) => totals.get(a)! - totals.get(b)!).map((id) => names.get(id));
    const room = await page.context().newPage();
    await room.setViewportSize({ width: 1920, height: 1080 });
    await room.goto(`${base}/standings.html?event=${code}`);
    await room.waitForSelector('#standings-table:not(.hidden) tbody tr');
    await expect(room.textContent('#clock')).resolves.toBe(`${winners[0]} and ${winners[1]} win.`);
    await expect(room.$$eval('#standings-head th', (ths) => ths.map((th) => th.textContent))).resolves.toEqual(['Place', 'Player', 'Game 1', 'Championship', 'Adjusted', 'Total']);
    expect(await axeViolations(room)).toEqual([]);
    await room.screenshot({ path: join(SHOTS, 'events-train-standings-projector.png') });
    for (const p of [phone, room]) await p.close();
    expect(pageErrors).toEqual([]);
  }, 240_000);

  it('an online event: made at the desk, the round opens its tables, and a player goes from her card on a phone to her seat at her game', async () => {
    const { page, base, pageErrors } = t;
    await newDirector(page, base, 'Ona');
    await page.fill('#event-name', 'Thursday Online');
    await page.check('#event-online');
    await page.waitForSelector('#online-options:not(.hidden)');
    await page.selectOption('#online-level', 'easy');
    expect(await axeViolations(page)).toEqual([]);
    await page.click('#create-button');
    await page.waitForSelector('#desk:not(.hidden)');
    await expect(page.textContent('#desk-about')).resolves.toMatch(/Played online at Tilemate tables on Tilemate Practice Card \d+; an easy bot plays for anyone away 120 seconds\.$/);
    await register(page, ['Ruth', 'Edna', 'Pearl', 'Ida']);
    await page.click('#seat-button');
    await page.waitForSelector('#tables .event-table a[href^="together.html?code="]');
    await settled(page);
    await expect(page.textContent('#round-line')).resolves.toMatch(/^Round 1: 55 minutes left\. 0 of 4 games played\.$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'events-online-desk-laptop.png'), fullPage: true });
    const code = new URL(page.url()).searchParams.get('event')!;
    const desk: Desk = await page.evaluate(async (c) => (await fetch(`/api/events/${c}/desk`)).json(), code);

    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: SCREENS.phone.width, height: SCREENS.phone.height });
    await phone.goto(`${base}/scorecard.html?event=${code}&card=${desk.players[0].card}`);
    await phone.waitForSelector('#play-button');
    await expect(phone.textContent('#play-title')).resolves.toBe('Game 1 of 4 is ready');
    await expect(phone.isVisible('#checks')).resolves.toBe(false);
    expect(await axeViolations(phone)).toEqual([]);
    expect(await overflowX(phone)).toBe(0);
    await phone.screenshot({ path: join(SHOTS, 'events-online-card-phone.png'), fullPage: true });
    await phone.click('#play-button');
    await phone.waitForURL(/together\.html\?code=/);
    await phone.waitForSelector('#game:not(.hidden) #rack .tile');
    // the round's clock at her table, as on her card
    await phone.waitForSelector('#round-clock:not(.hidden)');
    await expect(phone.textContent('#round-clock')).resolves.toBe('Round 1: 55 minutes left on the clock.');
    // her own seat, her own name on it
    const table = await phone.evaluate(async () => (await fetch(`/api/tables/${new URL(location.href).searchParams.get('code')}`)).json());
    expect(table.seats.filter((s: { name: string }) => s.name === 'Ruth')).toHaveLength(1);
    expect(await axeViolations(phone)).toEqual([]);
    await phone.screenshot({ path: join(SHOTS, 'events-online-table-phone.png') });
    // the table and her card at the tablet's and the laptop's sizes
    for (const size of ['tablet', 'desktop'] as const) {
      await phone.setViewportSize({ width: SCREENS[size].width, height: SCREENS[size].height });
      expect(await overflowX(phone), size).toBe(0);
      await phone.screenshot({ path: join(SHOTS, `events-online-table-${size}.png`) });
    }
    // back on her card, Play again goes to the seat she took for this game: no second seat taken
    const plays: string[] = [];
    phone.on('request', (r) => {
      if (r.url().endsWith('/card/play')) plays.push(r.url());
    });
    const atTable = phone.url();
    await phone.goto(`${base}/scorecard.html?event=${code}&card=${desk.players[0].card}`);
    await phone.waitForSelector('#play-button');
    expect(await overflowX(phone)).toBe(0);
    await phone.screenshot({ path: join(SHOTS, 'events-online-card-desktop.png'), fullPage: true });
    await phone.click('#play-button');
    await phone.waitForURL(atTable);
    expect(plays).toEqual([]);
    await phone.close();
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
