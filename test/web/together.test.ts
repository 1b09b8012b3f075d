import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPeople, overflowX, SHOTS, type BrowserPeople, type ScreenName } from './browser.js';
import { everyControlInside, keyboardReaches } from './page-checks.js';

/**
 * Tables together in real browsers (docs/tables.md): playwright-core driving Debian's Chromium
 * against the real server, each person in her own browser context (her own storage), at a
 * phone's, a tablet's or a laptop's size. Every step is taken through the page's own controls:
 * the lobby's forms, the seats, then the game drawn by the one-person pages' drawing, fed by the
 * table's WebSocket. Screenshots go to os.tmpdir()/tilemate-screens to be looked at by eye.
 */

interface Person {
  page: Page;
  pageErrors: string[];
  name: string;
  screen: ScreenName;
}

let people: BrowserPeople;
let base = '';
/** Requests the pages made that the server refused: a refusal is a failure of the page (a stale action excepted, which the page answers). */
const refused: string[] = [];

beforeAll(async () => {
  people = await openPeople('together');
  base = people.base;
}, 60_000);

afterAll(async () => {
  await people?.close();
});

async function person(name: string, screen: ScreenName): Promise<Person> {
  const { page, pageErrors } = await people.person(screen);
  // the server's Content Security Policy allows no inline script or style: the page must never need one
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/.test(m.text())) pageErrors.push(m.text());
  });
  page.on('response', (res) => {
    if (!res.url().includes('/api/') || res.status() < 400) return;
    // a review refused as busy: every page here shares one address, and each asks for her review at the end
    if (res.status() === 503 && res.url().endsWith('/api/review')) return;
    // a stale action (a push got there first), which the page answers with the table as it stands
    if (res.status() === 409) {
      res.json().then(
        (b: { code?: string }) => {
          if (b.code !== 'TM_STALE_ACTION') refused.push(`${name}: 409 ${b.code} ${res.url()}`);
        },
        () => refused.push(`${name}: 409 ${res.url()}`),
      );
      return;
    }
    refused.push(`${name}: ${res.status()} ${res.url()}`);
  });
  return { page, pageErrors, name, screen };
}

const shot = (p: Person, name: string) => p.page.screenshot({ path: join(SHOTS, `together-${name}-${p.screen}.png`), fullPage: true });

/** Opens a table from the page's form; resolves to its code. */
async function openTable(host: Person, choices: Record<string, string>): Promise<string> {
  await host.page.goto(`${base}/together.html`);
  await host.page.waitForSelector('#open-form');
  await settled(host.page);
  for (const [name, value] of Object.entries(choices)) {
    if (name === 'awayAfter') await host.page.selectOption('#away', value);
    else await host.page.check(`#open-form input[name="${name}"][value="${value}"]`);
  }
  await host.page.fill('#open-name', host.name);
  await host.page.click('#open-button');
  await host.page.waitForSelector('#lobby:not(.hidden) #seat-list li');
  const code = (await host.page.locator('#code').textContent())!.trim();
  expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
  // the link holds the code, and the page's address does too (a reload sits her down again)
  await expect(host.page.locator('#table-link').textContent()).resolves.toContain(`together.html?code=${code}`);
  expect(host.page.url()).toContain(`?code=${code}`);
  return code;
}

/** Joins by the link: the code is filled in, she types her name and takes a seat (or watches). */
async function joinTable(p: Person, code: string, seat: number | 'watch', agree = false): Promise<void> {
  await p.page.goto(`${base}/together.html?code=${code}`);
  await p.page.waitForSelector('#join-table:not(.hidden)');
  await expect(p.page.inputValue('#join-code')).resolves.toBe(code);
  await p.page.fill('#join-name', p.name);
  await p.page.check(`#join-seats input[value="${seat}"]`);
  if (agree) {
    await shot(p, 'join-form');
    expect(await axeViolations(p.page)).toEqual([]);
    expect(await overflowX(p.page)).toBe(0);
    // a teaching table: the sentence to agree to is plain, and joining waits for it
    await expect(p.page.locator('#agree-words').textContent()).resolves.toMatch(/^Your coach, .+, will see your tiles while you play\.$/);
    expect(await p.page.isDisabled('#join-button')).toBe(true);
    await p.page.check('#agree');
  }
  await p.page.click('#join-button');
  if (seat === 'watch') await p.page.waitForSelector('#lobby:not(.hidden), #table-status:not(.hidden)');
  else await p.page.waitForSelector(`#seat-list li[data-seat="${seat}"].seat-person`);
}

const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
const actionKinds = (page: Page) => page.$$eval('#actions button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.action ?? ''));
const clickableTiles = (page: Page) =>
  page.$$eval('#rack button:not(:disabled)', (bs) =>
    bs.map((b) => ({ index: (b as HTMLElement).dataset.index!, tile: (b as HTMLElement).dataset.tile!, drawn: b.classList.contains('drawn'), selected: b.classList.contains('selected') })),
  );

/**
 * Waits until the page shows one of `selectors` (a push drew it: her turn came, the bots
 * played), instead of sleeping a fixed time. Gives up after `ms` without failing, for the
 * caller's loop to look again (the loop also ends on what another page did). `text`: or an
 * element of that selector says exactly this.
 */
async function offered(page: Page, selectors: string, ms: number, text?: [string, string]): Promise<void> {
  await page
    .waitForFunction(
      ([sel, said]) =>
        [...document.querySelectorAll(sel)].some((e) => (e as HTMLElement).checkVisibility()) || (said !== undefined && [...document.querySelectorAll(said[0])].some((e) => e.textContent === said[1])),
      [selectors, text] as const,
      { timeout: Math.max(1, ms) },
    )
    .catch(() => undefined);
}

/** What a Mexican Train seat's page may offer her: a tile to play, a draw, a pass, the next round, the end. */
const DOMINO_CHOICES = '#end, [data-action="next-round"], #hand button.domino:not(:disabled), [data-action="draw"], [data-action="pass"]';

/** A click that gives up quickly: a push may have drawn the choice away meanwhile (the loop looks again). */
async function tap(page: Page, selector: string): Promise<boolean> {
  try {
    await page.click(selector, { timeout: 2_000 });
    return true;
  } catch {
    return false;
  }
}

/** What a Mah Jongg seat's page may offer her, in the order she takes them. */
const MAH_JONGG_CHOICES = ['declare', 'callMahJongg', 'pass', 'vote-no', 'courtesy', 'draw', 'discard', 'decline'];

/**
 * Plays one Mah Jongg seat through its page until the game ends: whenever the page offers
 * something, the first of Mah Jongg, a pass (the first three tiles it may pass), no to a second
 * Charleston, an empty courtesy offer, a discard (the tile just drawn), or letting a discard go.
 * `midway` runs once after `midwayAfter` of her actions (the reload).
 */
async function playMahJongg(p: Person, opts: { midwayAfter?: number; midway?: () => Promise<void>; shots?: Set<string>; charleston?: Map<string, string> } = {}): Promise<number> {
  const { page } = p;
  let acted = 0;
  const deadline = Date.now() + 200_000;
  while (Date.now() < deadline) {
    if (await page.isVisible('#end')) return acted;
    await settled(page);
    const kinds = await actionKinds(page);
    const first = MAH_JONGG_CHOICES.find((k) => kinds.includes(k));
    if (first === undefined) {
      await offered(page, ['#end', ...MAH_JONGG_CHOICES.map((k) => `#actions button[data-action="${k}"]`)].join(', '), deadline - Date.now());
      continue;
    }
    // the Charleston is over at her first choice in play: what her log told of it, kept before the game's lines push it out
    if (opts.charleston && !opts.charleston.has(p.name) && ['draw', 'discard', 'decline'].includes(first)) opts.charleston.set(p.name, (await page.locator('#log').textContent()) ?? '');
    if (opts.shots && !opts.shots.has(first)) {
      opts.shots.add(first);
      await shot(p, `mj-${first}`);
    }
    let done = false;
    if (first === 'pass') {
      // tiles chosen on a try whose button came too late stay chosen: a tap again would put them back
      const tiles = await clickableTiles(page);
      const chosen = tiles.filter((x) => x.selected).length;
      for (const t of tiles.filter((x) => x.tile !== 'J' && !x.selected).slice(0, Math.max(0, 3 - chosen))) await tap(page, `#rack [data-index="${t.index}"]`);
      done = await tap(page, '[data-action="pass"]:not(:disabled)');
    } else if (first === 'discard') {
      const tiles = await clickableTiles(page);
      const pick = tiles.find((t) => t.selected) ?? tiles.find((t) => t.drawn && t.tile !== 'J') ?? tiles.find((t) => t.tile !== 'J') ?? tiles[0];
      if (pick && (pick.selected || (await tap(page, `#rack [data-index="${pick.index}"]`)))) done = await tap(page, '[data-action="discard"]:not(:disabled)');
    } else done = await tap(page, `[data-action="${first}"]`);
    if (done) acted++;
    if (done && opts.midway && acted === opts.midwayAfter) await opts.midway();
  }
  // what she could see (hidden lines hold words too), whether the page was busy, her rack and the log's last lines
  const said = await page.$$eval('#prompt, #prompt-detail, #message, #turn-line, #paused-line, #connection', (ps) =>
    ps.filter((e) => (e as HTMLElement).checkVisibility()).map((e) => `${e.id}: ${e.textContent}`),
  );
  const rack = (await clickableTiles(page)).map((t) => `${t.tile}${t.selected ? '*' : ''}`).join(' ');
  const log = ((await page.locator('#log').textContent()) ?? '').slice(-300);
  const busy = await page.getAttribute('body', 'data-busy');
  await shot(p, 'stuck');
  throw new Error(`${p.name}'s page never reached the end of the game: ${said.join(' | ')}; busy ${busy}; buttons ${(await actionKinds(page)).join(', ')}; rack ${rack}; log …${log}`);
}

/** What her page says about her seat: "You sit South". */
const mySeatWords = (page: Page) => page.locator('#me-seat').textContent();

describe('tables together: four people at one Mah Jongg table', () => {
  let code = '';
  let ruth: Person, edna: Person, pearl: Person, ida: Person;

  it('the lobby offers to open a table or to join one, at every size', async () => {
    for (const screen of ['phone', 'tablet', 'desktop'] as const) {
      const p = await person('Ruth', screen);
      await p.page.goto(`${base}/together.html`);
      await p.page.waitForSelector('#open-form');
      await p.page.check('#open-form input[name="game"][value="mexican-train"]');
      await p.page.waitForSelector('#open-form input[name="players"][value="8"]');
      await shot(p, 'open-form');
      expect(await overflowX(p.page)).toBe(0);
      expect(await everyControlInside(p.page)).toEqual([]);
      expect(await axeViolations(p.page)).toEqual([]);
      if (screen === 'desktop') expect(await keyboardReaches(p.page)).toEqual([]);
      await p.page.close();
    }
  });

  it('a player with saved cards chooses one of them for a Mah Jongg table', async () => {
    const p = await person('Ruth', 'desktop');
    await p.page.goto(`${base}/together.html`);
    await p.page.waitForSelector('#open-form');
    expect(await p.page.isVisible('#card-choice')).toBe(false);
    const text = readFileSync(join(import.meta.dirname, '../../cards/garden-2026.card'), 'utf8');
    const saved = await p.page.evaluate(
      async (t) => (await fetch('/api/cards/garden', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: t }) })).status,
      text,
    );
    expect(saved).toBe(200);
    await p.page.reload();
    await p.page.waitForSelector('#card-choice:not(.hidden) option[value="garden"]', { state: 'attached' });
    await p.page.selectOption('#card', 'garden');
    await p.page.fill('#open-name', 'Ruth');
    await p.page.click('#open-button');
    await p.page.waitForSelector('#lobby:not(.hidden) #seat-list li');
    await p.page.close();
  });

  it('the host opens a table from the lobby: a large code, the link with a copy button, the QR code', async () => {
    ruth = await person('Ruth', 'desktop');
    code = await openTable(ruth, { game: 'mah-jongg', 'mj-ruleset': 'nmjl-4p', clock: 'off' });
    expect(await ruth.page.locator('#seat-list li').count()).toBe(4);
    await expect(ruth.page.locator('#seat-list li[data-seat="0"]').textContent()).resolves.toContain('Ruth (you)');
    // the QR code is an image the server draws of the link
    await ruth.page.waitForFunction(() => {
      const img = document.querySelector('#qr') as HTMLImageElement;
      return img.complete && img.naturalWidth > 0;
    });
    const size = await ruth.page.locator('#code').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(size).toBeGreaterThanOrEqual(40);
    await ruth.page.click('#copy-button');
    await expect.poll(() => ruth.page.locator('#copied').textContent()).toMatch(/^The link is (copied|selected)/);
    await shot(ruth, 'lobby-host');
    expect(await axeViolations(ruth.page)).toEqual([]);
  });

  it('three friends join by the link, at a phone, a phone and a tablet; the seats fill live on every page', async () => {
    edna = await person('Edna', 'phone');
    pearl = await person('Pearl', 'phone');
    ida = await person('Ida', 'tablet');
    await joinTable(edna, code, 1);
    await shot(edna, 'lobby-joined');
    await joinTable(pearl, code, 2);
    await joinTable(ida, code, 3);
    for (const p of [ruth, edna, pearl, ida]) {
      await p.page.waitForFunction(() => document.querySelectorAll('#seat-list li.seat-person').length === 4);
      expect(await overflowX(p.page)).toBe(0);
    }
    await expect(ruth.page.locator('#lobby-next').textContent()).resolves.toBe('Everyone is seated, so you can start the game.');
    await expect(edna.page.locator('#lobby-next').textContent()).resolves.toBe('You sit South: the game begins when Ruth starts it.');
    expect(await edna.page.isVisible('#start-button')).toBe(false);
    expect(await axeViolations(edna.page)).toEqual([]);
    expect(await everyControlInside(edna.page)).toEqual([]);
  });

  it('the host starts, and each page shows its own seat, the others by name around the table', async () => {
    await ruth.page.click('#start-button');
    for (const [p, wind] of [
      [ruth, 'East'],
      [edna, 'South'],
      [pearl, 'West'],
      [ida, 'North'],
    ] as const) {
      await p.page.waitForSelector('#game:not(.hidden) #rack .tile');
      await expect(mySeatWords(p.page)).resolves.toBe(`You sit ${wind}`);
      const names = await p.page.$$eval('#table .seat:not(.hidden) h3', (hs) => hs.map((h) => h.textContent ?? ''));
      expect(names).toHaveLength(3);
      for (const other of ['Ruth', 'Edna', 'Pearl', 'Ida'].filter((n) => n !== p.name)) expect(names.join(' ')).toContain(other);
      await shot(p, 'game-start');
      expect(await overflowX(p.page)).toBe(0);
    }
    // East holds 14 tiles, the others 13
    expect(await ruth.page.locator('#rack .tile').count()).toBe(14);
    expect(await edna.page.locator('#rack .tile').count()).toBe(13);
    await expect(edna.page.locator('#turn-line').textContent()).resolves.toMatch(/^(It is your turn|It is your turn, and .+ choosing too)\.$/);
    expect(await axeViolations(edna.page)).toEqual([]);
    expect(await axeViolations(ruth.page)).toEqual([]);
  });

  it('a player asks for her own hint and opens the card for her own rack, as at a game against bots', async () => {
    await ruth.page.click('#hint-button');
    await ruth.page.waitForSelector('#hint:not(.hidden) .hint-do');
    expect((await ruth.page.locator('#hint .hint-do').textContent())?.length).toBeGreaterThan(0);
    await ruth.page.click('#card-button');
    await ruth.page.waitForSelector('#card-panel:not(.hidden) .card-line');
    await shot(ruth, 'own-hint-and-card');
    expect(await axeViolations(ruth.page)).toEqual([]);
    await ruth.page.click('#card-button');
  });

  it("someone watching sees the table and the names, and no one's tiles", async () => {
    const sadie = await person('Sadie', 'desktop');
    await joinTable(sadie, code, 'watch');
    await sadie.page.waitForSelector('#game:not(.hidden) #table .seat h3');
    expect(await sadie.page.locator('#rack .tile').count()).toBe(0);
    expect(await sadie.page.isVisible('#rack')).toBe(false);
    await expect(sadie.page.locator('#me-seat').textContent()).resolves.toMatch(/^Ruth sits East: \d+ tiles in hand, \d+ discards?\.$/);
    const names = (await sadie.page.$$eval('#table .seat:not(.hidden) h3', (hs) => hs.map((h) => h.textContent ?? ''))).join(' ');
    for (const n of ['Edna', 'Pearl', 'Ida']) expect(names).toContain(n);
    await shot(sadie, 'spectator');
    expect(await axeViolations(sadie.page)).toEqual([]);
    await sadie.page.close();
  });

  it('the four pages play the whole game through their own buttons; a phone reloaded midway sits down in the same seat', async () => {
    const shots = new Set<string>();
    const charleston = new Map<string, string>();
    let reloaded = false;
    const results = await Promise.all([
      playMahJongg(ruth, { shots, charleston }),
      playMahJongg(edna, {
        charleston,
        midwayAfter: 6,
        midway: async () => {
          await edna.page.reload();
          await edna.page.waitForSelector('#game:not(.hidden) #me-seat');
          await expect(mySeatWords(edna.page)).resolves.toBe('You sit South');
          reloaded = true;
        },
      }),
      playMahJongg(pearl, { charleston }),
      playMahJongg(ida, { charleston }),
    ]);
    expect(reloaded).toBe(true);
    // each of the first Charleston's three passes is told on every page with the three tiles it
    // brought, once everyone has passed (not as "no tiles" to a seat that passed before the others)
    for (const p of [ruth, edna, pearl, ida])
      expect({ name: p.name, told: charleston.get(p.name)?.match(/You received [^.]+\./g) }).toEqual({
        name: p.name,
        told: [expect.stringMatching(/ and /), expect.stringMatching(/ and /), expect.stringMatching(/ and /), 'You received no tiles.'],
      });
    for (const n of results) expect(n).toBeGreaterThan(3);
    for (const p of [ruth, edna, pearl, ida]) {
      await p.page.waitForSelector('#end:not(.hidden) table');
      expect(await p.page.locator('#end tr.score-row').count()).toBe(4);
      await expect(p.page.locator('#turn-line').textContent()).resolves.toBe('The game is over.');
      await shot(p, 'end');
      expect(p.pageErrors).toEqual([]);
    }
    expect(refused).toEqual([]);
    // each page asks for its player's review at the end; these pages share one address, as a family's phones on one
    // home network do, whose reviews the server makes two at a time: the others wait their turn and follow
    for (const p of [ruth, edna, pearl, ida]) await p.page.waitForSelector('#review ol li button', { timeout: 150_000 });
    await shot(edna, 'end-review');
    for (const p of [ruth, edna, pearl, ida]) await p.page.close();
  }, 360_000);
});

describe('tables together: a teaching table', () => {
  let code = '';
  let coach: Person, rose: Person, hazel: Person;
  const frames = new Map<string, string[]>();

  it('the coach opens a teaching table; two students agree and join; bots fill the rest', async () => {
    coach = await person('Miriam', 'desktop');
    rose = await person('Rose', 'phone');
    hazel = await person('Hazel', 'tablet');
    for (const p of [rose, hazel]) {
      const got: string[] = [];
      frames.set(p.name, got);
      p.page.on('websocket', (ws) => ws.on('framereceived', (f) => got.push(String(f.payload))));
    }
    code = await openTable(coach, { game: 'mah-jongg', teaching: 'yes', clock: 'relaxed' });
    await expect(coach.page.locator('#lobby-about').textContent()).resolves.toContain('A teaching table: Miriam is the coach');
    await joinTable(rose, code, 0, true);
    await joinTable(hazel, code, 2, true);
    await coach.page.click('#seat-list li[data-seat="1"] [data-action="add-bot"]');
    await coach.page.waitForSelector('#seat-list li[data-seat="1"].seat-bot');
    await expect(coach.page.locator('#start-button').textContent()).resolves.toBe('Start, with a bot in the empty seat');
    await shot(coach, 'teaching-lobby');
    await coach.page.click('#start-button');
    await rose.page.waitForSelector('#game:not(.hidden) #rack .tile');
    await hazel.page.waitForSelector('#game:not(.hidden) #rack .tile');
  });

  it('the coach sees every rack; each student sees her own tiles only', async () => {
    try {
      await coach.page.waitForFunction(
        () => document.querySelectorAll('#racks .coach-rack').length === 4 && [...document.querySelectorAll('#racks .coach-rack')].every((r) => r.querySelectorAll('.tile').length >= 10),
        undefined,
        { timeout: 15_000 },
      );
    } catch (err) {
      await shot(coach, 'coach-stuck');
      throw new Error(`${String(err)}: ${await coach.page.locator('#together').textContent()}`);
    }
    const coachRack = async (seat: number) => (await coach.page.$$eval(`#racks .coach-rack[data-seat="${seat}"] .tile`, (ts) => ts.map((t) => (t as HTMLElement).dataset.tile!))).sort();
    const ownRack = async (p: Person) => (await p.page.$$eval('#rack .tile', (ts) => ts.map((t) => (t as HTMLElement).dataset.tile!))).sort();
    expect(await coachRack(0)).toEqual(await ownRack(rose));
    expect(await coachRack(2)).toEqual(await ownRack(hazel));
    for (const p of [rose, hazel]) {
      expect(await p.page.isVisible('#coach')).toBe(false);
      expect(await p.page.locator('.coach-rack').count()).toBe(0);
      // nothing another seat holds ever reaches a student's page
      expect(frames.get(p.name)!.some((f) => f.includes('"racks"'))).toBe(false);
    }
    await expect(rose.page.locator('#clock-line').textContent()).resolves.toMatch(/^You have \d+ seconds? left to choose, then a bot chooses\.$/);
    await shot(coach, 'coach');
    await shot(rose, 'student');
    expect(await axeViolations(coach.page)).toEqual([]);
    expect(await overflowX(coach.page)).toBe(0);
    // a coach on her phone or tablet: the racks one under another, nothing off the screen
    for (const size of [
      { width: 390, height: 844, name: 'phone' },
      { width: 820, height: 1180, name: 'tablet' },
    ]) {
      await coach.page.setViewportSize(size);
      await coach.page.screenshot({ path: join(SHOTS, `together-coach-${size.name}-sized.png`), fullPage: true });
      expect(await overflowX(coach.page)).toBe(0);
      expect(await everyControlInside(coach.page)).toEqual([]);
    }
    await coach.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the coach pauses and resumes, and shows one student a hint', async () => {
    await coach.page.click('#pause-button');
    await rose.page.waitForSelector('#paused-line:not(.hidden)');
    await expect(rose.page.locator('#paused-line').textContent()).resolves.toBe('Your coach has paused the game for a moment.');
    await expect(coach.page.locator('#pause-button').textContent()).resolves.toBe('Resume the game');
    await coach.page.click('#pause-button');
    await rose.page.waitForSelector('#paused-line.hidden', { state: 'attached' });
    await coach.page.waitForSelector('#pause-button:text("Pause the game")');
    await coach.page.selectOption('#hint-seat', '0');
    await coach.page.click('#coach-hint-button');
    await rose.page.waitForSelector('#hint:not(.hidden) .hint-do');
    await expect(rose.page.locator('#hint-from-coach').textContent()).resolves.toBe('Your coach sent you a hint: you can read it under your tiles.');
    await expect(coach.page.locator('#coach-said').textContent()).resolves.toBe('Rose can now see a hint under her tiles.');
    expect(await hazel.page.isVisible('#hint')).toBe(false);
    await shot(rose, 'student-hint');
  });

  it("the students play to the end, and the coach opens each student's review", async () => {
    await Promise.all([playMahJongg(rose), playMahJongg(hazel)]);
    // each student's page asks for her own review at the end (one address here for every page: one after another)
    for (const p of [rose, hazel]) await p.page.waitForSelector('#review ol li button', { timeout: 150_000 });
    await shot(rose, 'student-end');
    await coach.page.waitForSelector('#reviews:not(.hidden) [data-action="review"]');
    expect(await coach.page.locator('#reviews [data-action="review"]').count()).toBe(2);
    await coach.page.locator('#reviews [data-action="review"]').first().click();
    await coach.page.waitForSelector('#reviews .student-review h2', { timeout: 120_000 });
    await expect(coach.page.locator('#reviews .student-review h2').first().textContent()).resolves.toBe('Rose\u2019s decisions');
    expect(await coach.page.locator('#reviews .student-review li button').count()).toBeGreaterThan(0);
    await shot(coach, 'coach-end');
    expect(await axeViolations(coach.page)).toEqual([]);
    for (const p of [coach, rose, hazel]) expect(p.pageErrors).toEqual([]);
  }, 240_000);
});

describe('tables together: Mexican Train with two people and bots', () => {
  it('two people play their turns with bots in the other seats', async () => {
    const host = await person('Ruth', 'tablet');
    const friend = await person('Edna', 'phone');
    const code = await openTable(host, { game: 'mexican-train', players: '4', awayAfter: '15' });
    await joinTable(friend, code, 2);
    await host.page.waitForSelector('#seat-list li[data-seat="2"].seat-person');
    await expect(host.page.locator('#start-button').textContent()).resolves.toBe('Start, with bots in the 2 empty seats');
    await host.page.click('#start-button');
    // plays (and passes) made by each page; every page goes on until each has made `want`, as the others wait on her turn
    const made = new Map<Person, number>();
    const turns = async (p: Person, want: number) => {
      made.set(p, 0);
      const deadline = Date.now() + 60_000;
      const more = () => [host, friend].some((q) => (made.get(q) ?? 0) < want);
      for (; Date.now() < deadline && more(); ) {
        await settled(p.page);
        if (await p.page.isVisible('#end')) return made.get(p)!;
        if (await p.page.isVisible('[data-action="next-round"]')) {
          await tap(p.page, '[data-action="next-round"]');
          continue;
        }
        const domino = await p.page.$$eval('#hand button.domino:not(:disabled)', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!));
        let done = false;
        if (domino.length && (await tap(p.page, `#hand button.domino[data-tile="${domino[0]}"]`))) done = await tap(p.page, '.play-here');
        else if (await p.page.isVisible('[data-action="draw"]')) await tap(p.page, '[data-action="draw"]');
        else if (await p.page.isVisible('[data-action="pass"]')) done = await tap(p.page, '[data-action="pass"]');
        else await offered(p.page, DOMINO_CHOICES, 1_000);
        if (done) made.set(p, made.get(p)! + 1);
      }
      const played = made.get(p)!;
      if (more()) {
        await shot(p, 'domino-stuck');
        throw new Error(`${p.name} played ${played} turns: ${await p.page.$$eval('#prompt, #prompt-detail, #message, #turn-line', (ps) => ps.map((e) => e.textContent).join(' | '))}`);
      }
      return played;
    };
    for (const p of [host, friend]) await p.page.waitForSelector('#game:not(.hidden) #players tbody tr');
    const names = await host.page.$$eval('#players tbody th', (ths) => ths.map((t) => t.textContent ?? ''));
    expect(names).toEqual(['You', 'Bot 2 (medium)', 'Edna', 'Bot 4 (medium)']);
    await shot(friend, 'domino-start');
    // someone watching sees the trains and the names, and no hand
    const watcher = await person('Sadie', 'phone');
    await joinTable(watcher, code, 'watch');
    await watcher.page.waitForSelector('#game:not(.hidden) #players tbody tr');
    expect(await watcher.page.$$eval('#players tbody th', (ths) => ths.map((t) => t.textContent ?? ''))).toEqual(['Ruth', 'Bot 2 (medium)', 'Edna', 'Bot 4 (medium)']);
    expect(await watcher.page.isVisible('#hand')).toBe(false);
    await expect(watcher.page.locator('#role-line').textContent()).resolves.toBe('You are watching this table, so nobody\u2019s tiles are shown to you.');
    await shot(watcher, 'domino-spectator');
    expect(await axeViolations(watcher.page)).toEqual([]);
    expect(watcher.pageErrors).toEqual([]);
    await watcher.page.close();
    const [a, b] = await Promise.all([turns(host, 3), turns(friend, 3)]);
    expect(a).toBeGreaterThanOrEqual(3);
    expect(b).toBeGreaterThanOrEqual(3);
    // every connection drops (a phone asleep, the wifi gone): each page says so in one sentence and connects again by itself
    for (const ws of (people.app as unknown as { websocketServer: { clients: Set<{ terminate(): void }> } }).websocketServer.clients) ws.terminate();
    await friend.page.waitForSelector('#connection:not(.hidden)');
    await expect(friend.page.locator('#connection').textContent()).resolves.toBe('You are not connected to the table just now, so the page is trying again by itself.');
    await shot(friend, 'domino-dropped');
    for (const p of [host, friend]) await p.page.waitForSelector('#connection.hidden', { state: 'attached', timeout: 20_000 });
    const [c, d] = await Promise.all([turns(host, 2), turns(friend, 2)]);
    expect(c).toBeGreaterThanOrEqual(2);
    expect(d).toBeGreaterThanOrEqual(2);
    await shot(host, 'domino-play');
    await shot(friend, 'domino-play');
    expect(await axeViolations(friend.page)).toEqual([]);
    expect(await overflowX(friend.page)).toBe(0);
    for (const p of [host, friend]) expect(p.pageErrors).toEqual([]);
    // Edna's phone goes away for good: after 15 seconds a bot plays her seat, and the table says so
    await friend.page.close();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(await host.page.locator('#players tbody th:text("Edna (away for now)")').count())) {
      await settled(host.page);
      const domino = await host.page.$$eval('#hand button.domino:not(:disabled)', (bs) => bs.map((b) => (b as HTMLElement).dataset.tile!));
      if (domino.length && (await tap(host.page, `#hand button.domino[data-tile="${domino[0]}"]`))) await tap(host.page, '.play-here');
      else if (await host.page.isVisible('[data-action="draw"]')) await tap(host.page, '[data-action="draw"]');
      else if (await host.page.isVisible('[data-action="pass"]')) await tap(host.page, '[data-action="pass"]');
      else await offered(host.page, DOMINO_CHOICES, 1_000, ['#players tbody th', 'Edna (away for now)']);
    }
    await expect(host.page.locator('#players tbody th:text("Edna (away for now)")').count()).resolves.toBe(1);
    await shot(host, 'domino-away');
    expect(host.pageErrors).toEqual([]);
    expect(refused).toEqual([]);
  }, 180_000);
});
