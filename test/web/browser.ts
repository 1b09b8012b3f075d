import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build } from '../../api/http/app.js';

/**
 * The real server (build() on a temporary data folder, listening on a free port) and a page
 * of Debian's Chromium driven by playwright-core, for the browser tests. A missing browser
 * is a failure, never a silent skip: .ci/run installs it. Screenshots go to
 * os.tmpdir()/tilemate-screens, outside the repository, to be looked at by eye.
 */

const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(tmpdir(), 'tilemate-screens');

export interface BrowserTable {
  app: Awaited<ReturnType<typeof build>>;
  /** The server's address, e.g. http://127.0.0.1:40123 */
  base: string;
  page: Page;
  /** Errors thrown by the page's scripts. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openBrowser(name: string): Promise<BrowserTable> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: the browser test needs Debian's chromium (apt-get install chromium; .ci/run installs it)`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), `tilemate-${name}-data-`));
  const profileDir = mkdtempSync(join(tmpdir(), 'tilemate-chromium-'));
  mkdirSync(SHOTS, { recursive: true });
  const app = await build({ dataDir, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1366, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.setDefaultTimeout(60_000);
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    page,
    pageErrors,
    close: async () => {
      await context.close();
      await app.close();
      for (const dir of [dataDir, profileDir]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
