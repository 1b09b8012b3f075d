import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every test file is in exactly one tier (vitest.config.ts's projects, test/tiers.ts): none
 * left out of `npm run test:unit` and the others by a glob that misses it, none run twice.
 * The tiers are asked of vitest itself (`vitest list --filesOnly`), so what is checked is
 * what runs.
 */

const ROOT = join(import.meta.dirname, '..');

/** The test files under test/, as paths from the project's root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('the test tiers', () => {
  it('put every test file in exactly one of unit, integration, browser and slow', () => {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const r = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as { file: string; projectName: string }[];
    const tiers = new Map<string, string[]>();
    for (const { file, projectName } of listed) {
      const path = relative(ROOT, file);
      tiers.set(path, [...(tiers.get(path) ?? []), projectName]);
    }
    const files = testFiles(join(ROOT, 'test')).sort();
    const inNone = files.filter((f) => !tiers.has(f));
    const inSeveral = files.filter((f) => (tiers.get(f)?.length ?? 0) > 1).map((f) => `${f}: ${tiers.get(f)!.join(', ')}`);
    expect(inNone, 'test files in no tier (add them to test/tiers.ts)').toEqual([]);
    expect(inSeveral, 'test files in several tiers').toEqual([]);
    expect([...new Set(listed.map((l) => l.projectName))].sort()).toEqual(['browser', 'integration', 'slow', 'unit']);
  });

  it('no unit file mocks a module or stubs a global: the unit tier shares one module graph a worker (isolate: false)', () => {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const r = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', '--json', '--project', 'unit'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    const unit = (JSON.parse(r.stdout) as { file: string }[]).map((l) => l.file);
    expect(unit.length).toBeGreaterThan(20);
    const mocking = unit.filter((f) => /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv)\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(mocking, 'unit files that mock a module (name them in another tier, test/tiers.ts)').toEqual([]);
  });
});
