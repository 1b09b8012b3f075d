import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { TIERS } from './test/tiers.js';

/**
 * The tests in four tiers (projects), every test file in exactly one (test/tiers.test.ts checks):
 *
 *   unit         engine, agents, io and the pure parts of api/: no server, no browser, no build,
 *                no module mocks (`npm run test:unit`, under a minute on a busy machine: the one
 *                to run while working; its heavy tests are NAME.slow.test.ts, in slow)
 *   integration  the server through `inject`, the CLI
 *   browser      the pages in Chromium (test/web)
 *   slow         restarts, durability, training fits, the Redis queue, self-play and arenas, lab/
 *
 * `npm test` runs all four. Only the tiers that use dist/ (the installed command, worker
 * threads) compile it first (test/global-setup.ts, once per run however many tiers ask).
 */
const BUILD = ['test/global-setup.ts'];
// closing a file's servers (worker pools) and dropping its databases takes longer than 10 s on a busy machine
const LONG = { testTimeout: 120_000, hookTimeout: 120_000 };
// two files at once at least (vitest's default is one less than the cores: one on two cores).
// Most of a test file's time is spent waiting on a server, a child process, a database or a page.
const WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    pool: 'threads',
    maxWorkers: WORKERS,
    projects: [
      // one module graph a worker for the unit tier's files (isolate: false): pure code, no module
      // mocks (a file with vi.mock needs a fresh graph, so it sits in another tier, test/tiers.ts);
      // each file importing the engine and the bots afresh was 40% of the tier's CPU time
      { extends: true, test: { name: 'unit', include: TIERS.unit.include, exclude: TIERS.unit.exclude, isolate: false, testTimeout: 20_000, hookTimeout: 20_000 } },
      { extends: true, test: { name: 'integration', include: TIERS.integration.include, exclude: TIERS.integration.exclude, globalSetup: BUILD, ...LONG } },
      // a page's answer on a loaded machine can take seconds: expect.poll waits up to 30 s, not 1 s
      { extends: true, test: { name: 'browser', include: TIERS.browser.include, exclude: TIERS.browser.exclude, globalSetup: BUILD, ...LONG, expect: { poll: { timeout: 30_000 } } } },
      { extends: true, test: { name: 'slow', include: TIERS.slow.include, exclude: TIERS.slow.exclude, globalSetup: BUILD, ...LONG } },
    ],
  },
});
