/**
 * Which test files make each tier (vitest.config.ts's projects). Slow wins over every other
 * tier, and a file named one by one wins over its folder's glob, so a slow file in test/engine
 * is slow and the CLI-free test/api/tile-words.test.ts is unit. test/tiers.test.ts checks that
 * every test file is in exactly one tier.
 */

/** Restarts, durability, training fits, the Redis queue, self-play and arenas, research code. */
const SLOW = [
  // a unit file's tests whose purpose needs heavy work (many playouts, brute-force proofs, whole
  // games) beside it, as NAME.slow.test.ts: the unit tier stays under a minute on a busy machine
  'test/**/*.slow.test.ts',
  'test/lab/**/*.test.ts',
  'test/server/restart.test.ts',
  'test/server/durability.test.ts',
  'test/server/events-servers.test.ts',
  'test/server/tables-servers.test.ts',
  'test/training/**/*.test.ts',
  'test/api/selfplay.test.ts',
  'test/api/tournament.test.ts',
  // pure, but longer than 5 s each: out of the unit tier's minute
  'test/engine/rules-audit.test.ts',
  'test/conformance.test.ts',
  'test/agents/one-answer.test.ts',
  'test/agents/pinned.test.ts',
  'test/agents/drill-keys.test.ts',
];

/** Pure code: no server, no browser, no build, no worker pool, no module mocks. */
const UNIT = [
  'test/engine/**/*.test.ts',
  'test/agents/**/*.test.ts',
  'test/io/**/*.test.ts',
  'test/domino/rules.test.ts',
  'test/domino/agents.test.ts',
  'test/api/tile-words.test.ts',
  'test/api/card-notation-doc.test.ts',
  'test/api/play-commands.test.ts',
  'test/import-rules.test.ts',
  'test/tiers.test.ts',
];

/** The pages in Chromium. */
const BROWSER = ['test/web/**/*.test.ts'];

/**
 * The server through `inject`, the CLI (and the photo reader's OCR worker); and the pure files
 * that mock a module (vi.mock), which need a module graph of their own: the unit tier shares one
 * a worker (vitest.config.ts).
 */
const INTEGRATION = [
  'test/server/**/*.test.ts',
  'test/api/**/*.test.ts',
  'test/domino/**/*.test.ts',
  'test/plain-words.test.ts',
  'test/io/card-photo.test.ts',
  'test/agents/levels.test.ts',
  'test/io/files.test.ts',
];

export interface Tier {
  include: string[];
  exclude: string[];
}

const GLOBS = { unit: UNIT, integration: INTEGRATION, browser: BROWSER, slow: SLOW };
type Name = keyof typeof GLOBS;

/**
 * A tier: its globs, less everything slow and less the files other tiers name one by one (a
 * file named wins over its folder's glob). A file named in two tiers lands in none, which
 * test/tiers.test.ts reports.
 */
function tier(name: Name): Tier {
  const others = (Object.keys(GLOBS) as Name[]).filter((n) => n !== name);
  const named = others.flatMap((n) => GLOBS[n].filter((g) => !g.includes('*')));
  return { include: GLOBS[name], exclude: name === 'slow' ? named : [...new Set([...SLOW, ...named])] };
}

export const TIERS: Record<Name, Tier> = { unit: tier('unit'), integration: tier('integration'), browser: tier('browser'), slow: tier('slow') };
