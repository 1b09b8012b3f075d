import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type BrowserTable } from './browser.js';

/**
 * Every page works under the server's Content-Security-Policy (api/http/guard.ts, issue 28):
 * no script, style, image, font or connection of a page is refused, and the API docs
 * (swagger-ui) draw their operations.
 */

const PAGES: [path: string, ready: string][] = [
  ['/', 'header.top'],
  ['/domino.html', 'header.top'],
  ['/chase.html', 'main'],
  ['/howto.html', 'main h2'],
  ['/mycard.html', '#card-text'],
  ['/mygames.html', 'main'],
  ['/drills.html', '#choose'],
  ['/docs', '.swagger-ui .opblock'],
];

describe('the pages under the Content-Security-Policy', () => {
  let b: BrowserTable;
  const refused: string[] = [];
  beforeAll(async () => {
    b = await openBrowser('csp');
    // every refusal the browser reports, from the first script on (added through the debugger, not inline)
    await b.page.context().addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        ((globalThis as unknown as { cspRefused?: string[] }).cspRefused ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    b.page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  for (const [path, ready] of PAGES) {
    it(`${path} loads and runs with nothing refused`, async () => {
      const answer = await b.page.goto(`${b.base}${path}`, { waitUntil: 'networkidle' });
      expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await b.page.waitForSelector(ready, { state: 'attached' });
      const seen = await b.page.evaluate(() => (globalThis as unknown as { cspRefused?: string[] }).cspRefused ?? []);
      expect([...seen, ...refused.splice(0)]).toEqual([]);
      expect(b.pageErrors.splice(0)).toEqual([]);
    }, 60_000);
  }

  it("the table page starts a game and draws the rack (its requests are the page's own: same origin)", async () => {
    await b.page.goto(`${b.base}/`, { waitUntil: 'networkidle' });
    await b.page.click('#start-button');
    await b.page.waitForSelector('#rack .tile', { timeout: 30_000 });
    expect(await b.page.locator('#rack .tile').count()).toBeGreaterThanOrEqual(13);
    const seen = await b.page.evaluate(() => (globalThis as unknown as { cspRefused?: string[] }).cspRefused ?? []);
    expect([...seen, ...refused.splice(0)]).toEqual([]);
  }, 60_000);

  it('an inline script put into a page is refused and reported (the policy is in force, and the checks above would see a refusal)', async () => {
    await b.page.goto(`${b.base}/howto.html`, { waitUntil: 'networkidle' });
    const ran = await b.page.evaluate(async () => {
      // an inline script the policy allowed would run during append; the refusal is reported by an event
      const refusal = new Promise((resolve) => document.addEventListener('securitypolicyviolation', resolve, { once: true }));
      const s = document.createElement('script');
      s.textContent = 'globalThis.injected = true';
      document.body.append(s);
      await refusal;
      return (globalThis as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    const seen = await b.page.evaluate(() => (globalThis as unknown as { cspRefused?: string[] }).cspRefused ?? []);
    expect(seen).toEqual(['script-src-elem inline']);
    refused.splice(0);
  }, 60_000);
});
