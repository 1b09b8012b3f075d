import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
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

/** The three screens the pages are laid out for: a phone, a tablet, a laptop. */
export const SCREENS = {
  phone: { width: 390, height: 844, isMobile: true, hasTouch: true },
  tablet: { width: 820, height: 1180, isMobile: true, hasTouch: true },
  desktop: { width: 1280, height: 800, isMobile: false, hasTouch: false },
} as const;
export type ScreenName = keyof typeof SCREENS;

export interface BrowserOptions {
  /** One of SCREENS; the default is a 1366x900 desktop window. */
  screen?: ScreenName;
  /**
   * The practice table's moment to undo each discard, as a new visitor has it (3 seconds). Off
   * unless asked for: as if she had chosen "Discard at once", so that a test playing a whole
   * game does not wait 3 seconds a discard.
   */
  undo?: boolean;
}

/** "Discard at once" chosen in the browser before any page of it loads (api/web/app.js, UNDO_KEY). */
const DISCARD_AT_ONCE = () => {
  try {
    if (localStorage.getItem('tilemate-undo') === null) localStorage.setItem('tilemate-undo', '0');
  } catch {
    // a page with no storage of its own (about:blank)
  }
};

export async function openBrowser(name: string, options: BrowserOptions = {}): Promise<BrowserTable> {
  const screen = options.screen === undefined ? undefined : SCREENS[options.screen];
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
    viewport: screen === undefined ? { width: 1366, height: 900 } : { width: screen.width, height: screen.height },
    isMobile: screen?.isMobile ?? false,
    hasTouch: screen?.hasTouch ?? false,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  if (!options.undo) await context.addInitScript(DISCARD_AT_ONCE);
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

/** The page's horizontal overflow: the document's scrollWidth beyond the viewport's width (0 when none). */
export async function overflowX(page: Page): Promise<number> {
  const width = page.viewportSize()?.width ?? 0;
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  return Math.max(0, scroll - width);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

const axeSource = (() => {
  let source: string | undefined;
  return () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
})();

/** axe-core run on the page as it stands: the serious and critical violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // evaluated by the browser's debugger, not added as an inline script: the pages' CSP allows no inline script
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource());
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export interface BrowserPeople {
  app: Awaited<ReturnType<typeof build>>;
  /** The server's address, e.g. http://127.0.0.1:40123 */
  base: string;
  /** A new person at a screen size: her own browser context (her own storage and cookies), and the errors its scripts throw. */
  person(screen: ScreenName): Promise<{ page: Page; pageErrors: string[] }>;
  close(): Promise<void>;
}

/** The real server and one browser in which each person has her own context: several people at one table. */
export async function openPeople(name: string): Promise<BrowserPeople> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: the browser test needs Debian's chromium (apt-get install chromium; .ci/run installs it)`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), `tilemate-${name}-data-`));
  mkdirSync(SHOTS, { recursive: true });
  const app = await build({ dataDir, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    person: async (screen) => {
      const s = SCREENS[screen];
      const context = await browser.newContext({ viewport: { width: s.width, height: s.height }, isMobile: s.isMobile, hasTouch: s.hasTouch });
      await context.addInitScript(DISCARD_AT_ONCE);
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.setDefaultTimeout(60_000);
      return { page, pageErrors };
    },
    close: async () => {
      await browser.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
