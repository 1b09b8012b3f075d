import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openBrowser, SHOTS, type BrowserTable } from './browser.js';

/**
 * Installable and offline (issue #29): in Chromium at the tablet's size, the pages carry a
 * web app manifest Chromium finds installable (its own check, over the DevTools protocol),
 * the icons load, the service worker takes control; then the network is cut, the page is
 * reloaded from what the worker kept, a hand is tapped in, and Which hand? shows the same
 * lines the server gives, and advice, worked out on the tablet.
 */

const HAND = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J';
const settled = (page: Page) => page.waitForSelector('body[data-busy="0"]');
const pageLines = (page: Page) => page.$$eval('.chase-line', (ls) => ls.map((l) => ({ id: (l as HTMLElement).dataset.id!, away: Number((l as HTMLElement).dataset.away) })));

describe('Which hand? installed and offline', () => {
  let b: BrowserTable;
  let page: Page;
  let context: BrowserContext;
  /** The server's lines for HAND, asked before the network is cut. */
  let serverLines: { id: string; away: number }[];

  beforeAll(async () => {
    b = await openBrowser('offline', { screen: 'tablet' });
    page = b.page;
    context = page.context();
    const r = await fetch(`${b.base}/api/analyze`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hand: HAND, top: 8 }) });
    const body = (await r.json()) as { results: { id: string; tilesAway: number; possible: boolean }[] };
    serverLines = body.results.map((x) => ({ id: x.id, away: x.possible ? x.tilesAway : -1 }));
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it('serves the worker for the whole site and the manifest with their types', async () => {
    const sw = await fetch(`${b.base}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    expect(sw.headers.get('cache-control')).toMatch(/max-age=0|no-cache/);
    const csp = sw.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    const m = await fetch(`${b.base}/manifest.webmanifest`);
    expect(m.status).toBe(200);
    expect(m.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  });

  it('is installable: Chromium reads the manifest, finds no reason not to install, and the icons load', async () => {
    await page.goto(`${b.base}/chase.html`);
    await settled(page);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[]; data?: string };
    expect(manifest.url).toBe(`${b.base}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data!) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; purpose: string }[] };
    expect(data).toMatchObject({ short_name: 'Tilemate', start_url: '/', display: 'standalone', theme_color: '#1f5f46' });
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installability.installabilityErrors).toEqual([]);
    // each icon is a picture of the size it claims
    const icons = await page.evaluate(
      async (list) =>
        Promise.all(
          list
            .filter((i) => i.sizes !== 'any')
            .map(async (i) => {
              const blob = await (await fetch(i.src)).blob();
              const bmp = await createImageBitmap(blob);
              return { sizes: i.sizes, purpose: i.purpose, got: `${bmp.width}x${bmp.height}`, type: blob.type };
            }),
        ),
      data.icons,
    );
    expect(icons).toEqual([
      { sizes: '192x192', purpose: 'any', got: '192x192', type: 'image/png' },
      { sizes: '512x512', purpose: 'any', got: '512x512', type: 'image/png' },
      { sizes: '512x512', purpose: 'maskable', got: '512x512', type: 'image/png' },
    ]);
    // every page links the manifest and registers the worker
    for (const p of ['/', '/chase.html', '/howto.html', '/mycard.html', '/mygames.html', '/together.html', '/domino.html']) {
      const html = await (await fetch(`${b.base}${p}`)).text();
      expect(html, p).toContain('<link rel="manifest" href="manifest.webmanifest">');
      expect(html, p).toContain('<script type="module" src="install.js"></script>');
    }
  });

  it('the service worker controls the page and has kept the pages and the engine', async () => {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    const kept = await page.evaluate(async () => {
      const cache = await caches.open('tilemate-pages-v1');
      return Promise.all(['/chase.html', '/chase.js', '/offline.js', '/offline-worker.js', '/offline-engine.js', '/style.css', '/'].map(async (f) => [f, (await cache.match(f))?.status ?? 0]));
    });
    expect(Object.fromEntries(kept)).toEqual({ '/chase.html': 200, '/chase.js': 200, '/offline.js': 200, '/offline-worker.js': 200, '/offline-engine.js': 200, '/style.css': 200, '/': 200 });
  });

  it("online, the worker gives the server's fresh copy, not the kept one", async () => {
    const keptDate = await page.evaluate(async () => (await (await caches.open('tilemate-pages-v1')).match('/howto.html'))!.headers.get('date')!);
    // HTTP dates are to the second: ask once the clock is past the kept copy's second
    await vi.waitFor(
      () => {
        if (Date.now() < Date.parse(keptDate) + 1_100) throw new Error("still the kept copy's second");
      },
      { timeout: 5_000, interval: 50 },
    );
    const asked = Date.now();
    const got = await page.evaluate(async () => (await fetch('/howto.html')).headers.get('date')!);
    // HTTP dates are to the second
    expect(Date.parse(got)).toBeGreaterThan(Date.parse(keptDate));
    expect(Date.parse(got)).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000 - 1000);
  });

  it("with the network cut, the page reloads, a tapped hand shows the server's lines, and advice comes, worked out on the tablet", async () => {
    await context.setOffline(true);
    try {
      // the server cannot be reached at all
      await expect(
        page.evaluate(async () => {
          try {
            await fetch('/api/health', { cache: 'no-store' });
            return 'reached';
          } catch {
            return 'unreachable';
          }
        }),
      ).resolves.toBe('unreachable');
      await page.reload();
      await expect(page.title()).resolves.toMatch(/which hand/i);
      await page.click('input[name="target"][value="hand"]');
      for (const t of HAND.split(' ')) await page.tap(`#picker [data-tile="${t}"]`);
      await page.waitForSelector('.chase-line');
      await settled(page);
      expect(await pageLines(page)).toEqual(serverLines);
      await expect(page.locator('#lines-note').textContent()).resolves.toMatch(new RegExp(`Your closest line is ${serverLines[0].id}`));
      await expect(page.locator('#offline-note').textContent()).resolves.toMatch(/no connection to Tilemate, so this device is working out the answers itself/);
      // the chances, and the advice for a discard, from the same engine
      await page.click('#chances');
      await settled(page);
      expect(await page.locator('#lines').textContent()).not.toMatch(/could not|cannot be read/);
      await page.selectOption('#moment', 'discard');
      await page.click('#advise');
      await page.waitForSelector('#advice .advice-do', { timeout: 60_000 });
      await settled(page);
      const advice = (await page.locator('#advice .advice-do').textContent())!;
      expect(advice).toMatch(/^(Discard|Declare)/);
      await page.screenshot({ path: join(SHOTS, 'offline-tablet.png'), fullPage: true });
      console.log(`offline: ${serverLines.length} lines as the server's; closest ${serverLines[0].id} (${serverLines[0].away} away); advice: ${advice}`);
    } finally {
      await context.setOffline(false);
    }
  }, 120_000);

  it('a page already open where no service worker is allowed (a plain http:// address) keeps answering when the connection drops', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true });
      const p = await ctx.newPage();
      await p.goto(`${b.base}/chase.html`);
      await p.waitForSelector('html[data-offline-ready="1"]');
      expect(await p.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
      await ctx.setOffline(true);
      await p.click('input[name="target"][value="hand"]');
      for (const t of HAND.split(' ')) await p.tap(`#picker [data-tile="${t}"]`);
      await p.waitForSelector('.chase-line');
      await settled(p);
      expect(await pageLines(p)).toEqual(serverLines);
      await expect(p.locator('#offline-note').count()).resolves.toBe(1);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('online again, the answers come from the server and the note goes away', async () => {
    await page.reload();
    await page.waitForSelector('.chase-line');
    await settled(page);
    expect(await pageLines(page)).toEqual(serverLines);
    expect(await page.locator('#offline-note').count()).toBe(0);
    // a page is kept once, whatever rack its address carries
    expect(page.url()).toContain('hand=');
    const keys = await page.evaluate(async () => (await (await caches.open('tilemate-pages-v1')).keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search));
    expect(keys.filter((k) => k.startsWith('/chase.html'))).toEqual(['/chase.html']);
    expect(b.pageErrors).toEqual([]);
  });
});
