import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type BrowserTable } from './browser.js';
import { playOn } from './late-game.js';

/**
 * Two tables drawn in one document (issue 45, "typed pages"): each table instance is given its
 * own root element holding its own copy of the table's markup (the same ids in both), and finds
 * every element it draws into inside that root only. The document is a plain page of the real
 * server with its body replaced by the two roots; the tables are made from the pages' own
 * modules and play real games at the server. What is done at table b never changes table a's
 * elements, nor takes the focus into table a.
 */

let table: BrowserTable;
let base = '';
let page: Page;
let pageErrors: string[] = [];

/**
 * A server and a browser for one describe block: a server lets one address hold 10 games in
 * progress, and each table here starts one.
 */
function useBrowser(name: string): void {
  beforeAll(async () => {
    table = await openBrowser(name);
    ({ base, page, pageErrors } = table);
  }, 60_000);
  afterAll(async () => {
    await table?.close();
  });
}

type Root = 'a' | 'b';

/**
 * A fresh document holding two roots, a and b, each with its own copy of the body of the page
 * at `markup`, and a table in each made by `make` (an export of `module`) from a LiveGame of
 * its own: window.two[root] = { root, live, table }. A string, so that the test's bundler
 * leaves the page's own import() alone.
 */
async function mount(markup: string, module: string, make: string, routes: string): Promise<void> {
  await page.goto(base + '/howto.html');
  await page.evaluate(`(async () => {
    const html = await (await fetch(${JSON.stringify(markup)})).text();
    const body = new DOMParser().parseFromString(html, 'text/html').body;
    const made = await import(${JSON.stringify(module)});
    const { LiveGame } = await import('/live-game.js');
    const roots = ['a', 'b'].map((name) => {
      const root = document.createElement('div');
      root.dataset.root = name;
      root.append(...[...body.children].map((c) => document.importNode(c, true)));
      return root;
    });
    document.body.replaceChildren(...roots);
    window.two = Object.fromEntries(roots.map((root) => {
      const live = new LiveGame({ routes: ${JSON.stringify(routes)}, sessionKey: 'two-tables-' + root.dataset.root });
      return [root.dataset.root, { root, live, table: made[${JSON.stringify(make)}](live, {}, root) }];
    }));
  })()`);
}

const inRoot = (root: Root, sel: string) => `[data-root="${root}"] ${sel}`;
/** Everything drawn in a root, to compare before and after the other table acts. */
const drawing = (root: Root) => page.locator(`[data-root="${root}"]`).innerHTML();
/** The root the focused element is in (null when it is in neither). */
const focusedRoot = () => page.evaluate(() => (document.activeElement?.closest('[data-root]') as HTMLElement | null)?.dataset.root ?? null);
const busy = (root: Root) => page.evaluate((r) => (window as any).two[r].live.busy as boolean, root);
/** A Mah Jongg rack's tiles, sorted by name. */
const rackOf = (root: Root) => page.$$eval(inRoot(root, '#rack .tile'), (ts) => ts.map((t) => (t as HTMLElement).dataset.tile!).sort());
/** A Mexican Train hand's dominoes, sorted by name. */
const handOf = (root: Root) => page.$$eval(inRoot(root, '#hand .domino'), (ds) => ds.map((d) => (d as HTMLElement).dataset.tile!).sort());
const hidden = (root: Root, sel: string) => page.locator(inRoot(root, sel)).evaluate((e) => e.classList.contains('hidden'));
/** A table's end panel: shown or not, and its heading. */
const endOf = (root: Root) => page.locator(inRoot(root, '#end')).evaluate((e) => ({ hidden: e.classList.contains('hidden'), heading: e.querySelector('h2')?.textContent ?? null }));

/** Two practice Mah Jongg tables (createMahJonggTable), a and b, with their buttons and keys wired. */
async function mountMahJongg(): Promise<void> {
  await mount('/', '/app.js', 'createMahJonggTable', '/api/games');
  await page.evaluate(() => {
    for (const t of Object.values((window as any).two) as any[]) t.table.wire();
  });
}

/** Starts root's Mah Jongg game at the server and draws it, as the practice page does; its rack, sorted by name. */
const startMahJongg = (root: Root, seed: number) =>
  page.evaluate(
    async ([r, s]) => {
      const { live, table: t } = (window as any).two[r];
      const res = await live.start({ ruleset: 'nmjl-4p', level: 'easy', seed: s });
      t.setView(res);
      t.addLog(t.narrate(res.events ?? []));
      t.showGame();
      await t.render();
      return (res.view.rack as string[]).sort();
    },
    [root, seed] as const,
  );

/** Two practice Mexican Train tables (createDominoTable), a and b, each started from its own form, with their buttons and keys wired. */
async function mountDomino(): Promise<void> {
  await mount('/domino.html', '/domino.js', 'createDominoTable', '/api/domino/games');
  await page.evaluate(() => {
    for (const t of Object.values((window as any).two) as any[]) {
      t.root.querySelector('#start').addEventListener('submit', t.table.startGame);
      t.table.wire();
    }
  });
}

/** Starts root's game of one round for two from its start form, as a person does. */
async function startDomino(root: Root, seed: number): Promise<void> {
  await page.check(inRoot(root, 'input[name="players"][value="2"]'));
  await page.check(inRoot(root, 'input[name="length"][value="round"]'));
  await page.fill(inRoot(root, '#seed'), String(seed));
  await page.click(inRoot(root, '#start-button'));
  await expect.poll(() => page.locator(inRoot(root, '#hand .domino')).count()).toBeGreaterThan(0);
  await expect.poll(() => busy(root)).toBe(false);
}

describe('two practice tables in one document', () => {
  useBrowser('two-tables');

  it('two Mah Jongg tables - tiles chosen, a pass made and a game ended at one are drawn inside its own root only', async () => {
    await mountMahJongg();
    const dealtA = await startMahJongg('a', 7);
    const dealtB = await startMahJongg('b', 8);
    expect(dealtA).not.toEqual(dealtB);
    expect(await rackOf('a')).toEqual(dealtA);
    expect(await rackOf('b')).toEqual(dealtB);
    const a = await drawing('a');

    // table b: three tiles chosen and passed
    const choosable = await page.$$eval(inRoot('b', '#rack button:not(:disabled)'), (bs) => bs.map((b) => (b as HTMLElement).dataset.index!));
    for (const i of choosable.slice(0, 3)) await page.click(inRoot('b', `#rack [data-index="${i}"]`));
    expect(await page.locator(inRoot('b', '#rack .selected')).count()).toBe(3);
    expect(await page.locator(inRoot('a', '#rack .selected')).count()).toBe(0);
    await page.click(inRoot('b', '[data-action="pass"]'));
    await expect.poll(() => page.locator(inRoot('b', '#prompt')).textContent()).toMatch(/pass 2 of 3/);
    await expect.poll(() => busy('b')).toBe(false);
    expect(await page.locator(inRoot('a', '#prompt')).textContent()).toMatch(/pass 1 of 3/);
    expect(await focusedRoot()).toBe('b');
    expect(await drawing('a')).toBe(a);

    // table b's game played on at the server to its end, then its answer drawn
    const session = await page.evaluate(() => (window as any).two.b.live.session as { id: string; token: string });
    await playOn(base, session, () => false);
    await page.evaluate(async () => {
      const { live, table: t } = (window as any).two.b;
      const res = await live.request('GET', `?since=${live.at}`);
      live.at = res.at;
      t.setView(res);
      t.addLog(t.narrate(res.events ?? []));
      await t.render();
    });
    expect({ a: await endOf('a'), b: await endOf('b') }).toEqual({ a: { hidden: true, heading: null }, b: { hidden: false, heading: 'Game over' } });
    expect(await drawing('a')).toBe(a);
    expect(pageErrors).toEqual([]);
  });

  it("the busy mark: a table still waiting keeps the page marked busy when the other's answer is drawn, and each root carries its own", async () => {
    await mountMahJongg();
    await startMahJongg('a', 7);
    await startMahJongg('b', 8);
    const marks = () => page.evaluate(() => ({ body: document.body.dataset.busy, a: (window as any).two.a.root.dataset.busy, b: (window as any).two.b.root.dataset.busy }));
    expect(await marks()).toEqual({ body: '0', a: '0', b: '0' });
    // table a sends a request; table b sends one, has its answer and draws it
    await page.evaluate(() => {
      const { a, b } = (window as any).two;
      a.live.setBusy(true);
      b.live.setBusy(true);
      b.live.setBusy(false);
      b.live.drawn();
    });
    expect(await marks()).toEqual({ body: '1', a: '1', b: '0' });
    await page.evaluate(() => {
      const { a } = (window as any).two;
      a.live.setBusy(false);
      a.live.drawn();
    });
    expect(await marks()).toEqual({ body: '0', a: '0', b: '0' });
  });

  it('a key pressed inside one table is for that table only (C for the Mah Jongg card, Escape to put a domino back)', async () => {
    await mountMahJongg();
    await startMahJongg('a', 7);
    await startMahJongg('b', 8);
    const a = await drawing('a');
    await page.focus(inRoot('b', '#rack button:not(:disabled)'));
    await page.keyboard.press('c');
    await expect.poll(() => page.locator(inRoot('b', '#card-panel .card-line')).count()).toBeGreaterThan(0);
    expect(await hidden('a', '#card-panel')).toBe(true);
    expect(await drawing('a')).toBe(a);

    await mountDomino();
    await startDomino('a', 3);
    await startDomino('b', 4);
    // a domino chosen at each table, then Escape pressed on table b's
    for (const root of ['a', 'b'] as const) await page.locator(inRoot(root, '#hand .domino.playable:not(:disabled)')).first().click();
    await page.focus(inRoot('b', '#hand .domino.selected'));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(inRoot('b', '#hand .domino.selected')).count()).toBe(0);
    expect(await page.locator(inRoot('a', '#hand .domino.selected')).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('two Mexican Train tables - starting and playing at one leaves the other drawn as it was, and the focus in the table played', async () => {
    await mountDomino();
    await startDomino('a', 3);
    const a = await drawing('a');
    await startDomino('b', 4);
    expect(await hidden('b', '#game')).toBe(false);
    expect(await focusedRoot()).toBe('b');
    expect(await drawing('a')).toBe(a);

    // table b: a domino put on a train, or else a draw or a pass
    const moves = await page.locator(inRoot('b', '#log p')).count();
    const playable = page.locator(inRoot('b', '#hand .domino.playable:not(:disabled)'));
    if ((await playable.count()) > 0) {
      await playable.first().click();
      expect(await page.locator(inRoot('a', '.play-here')).count()).toBe(0);
      await page.locator(inRoot('b', '.play-here')).first().click();
    } else await page.locator(inRoot('b', '#actions button')).first().click();
    await expect.poll(() => page.locator(inRoot('b', '#log p')).count()).toBeGreaterThan(moves);
    await expect.poll(() => busy('b')).toBe(false);
    expect(await focusedRoot()).toBe('b');
    expect(await drawing('a')).toBe(a);
    expect(pageErrors).toEqual([]);
  });
});

describe('two seats of tables together in one document', () => {
  useBrowser('two-tables-together');

  it('two tables together (mahJonggTable, dominoTable) - each pushed answer is drawn inside its own root only', async () => {
    /** Starts root's game at the server and hands its answer to the table as a push. */
    const push = (root: Root, body: object) =>
      page.evaluate(
        async ([r, b]) => {
          const { live, table: t } = (window as any).two[r];
          const res = await live.start(b);
          await t.update(res);
          return ((res.view.rack ?? res.view.hand) as string[]).sort();
        },
        [root, body] as const,
      );

    await mount('/', '/app.js', 'mahJonggTable', '/api/games');
    const racks = { a: await push('a', { ruleset: 'nmjl-4p', level: 'easy', seed: 7 }), b: await push('b', { ruleset: 'nmjl-4p', level: 'easy', seed: 8 }) };
    expect({ a: await rackOf('a'), b: await rackOf('b') }).toEqual(racks);
    expect(await hidden('b', '#game')).toBe(false);

    await mount('/domino.html', '/domino.js', 'dominoTable', '/api/domino/games');
    const hands = {
      a: await push('a', { ruleset: 'sun-lakes', players: 2, bots: ['greedy'], round: 0, seed: 3 }),
      b: await push('b', { ruleset: 'sun-lakes', players: 2, bots: ['greedy'], round: 0, seed: 4 }),
    };
    expect(hands.a).not.toEqual(hands.b);
    expect({ a: await handOf('a'), b: await handOf('b') }).toEqual(hands);
    expect(await hidden('b', '#game')).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
