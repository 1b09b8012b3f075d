import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers' import rules (docs/architecture.md), read from the sources with a plain regular
 * expression over import and export-from statements and dynamic import('...'):
 *
 *   engine/    imports nothing outside engine/: no Node built-in (node:fs or bare 'fs'), no
 *              package, nothing of agents/, api/, training/, io/
 *   agents/    reads no files (no node:fs, fs, node:fs/promises) and imports nothing of api/ or
 *              training/
 *   api/http/  never imports api/web/ (the browser's files are served, not run by the server)
 *   games      each game's own folder (engine/mah-jongg/, engine/domino/, and their bots in
 *              agents/mah-jongg/, agents/domino/) imports nothing of the other game's: what both
 *              games use is at engine/ and agents/ (the interface, the registry, records, rng)
 *
 * A rule broken on purpose is in EXCEPTIONS, with its reason; an exception no longer needed fails
 * too, so the list stays true.
 */

const ROOT = join(import.meta.dirname, '..');

/** `import … from '…'`, `export … from '…'` (also across lines), `import '…'`, `import('…')`. */
const PATTERNS = [/^[ \t]*(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]+?\s+from\s*['"]([^'"]+)['"]/gm, /^[ \t]*import\s*['"]([^'"]+)['"]/gm, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));
const isBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]);
const readsFiles = (spec: string) => /^(node:)?fs(\/promises)?$/.test(spec);

interface Import {
  file: string;
  spec: string;
  target: string;
}

/** The source files under a folder (paths from the root), recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import of the files under a folder: the specifier as written and, for a relative one, the path it names from the root. */
function importsOf(dir: string): Import[] {
  return sources(dir).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return PATTERNS.flatMap((re) =>
      [...text.matchAll(re)].map((m) => {
        const spec = m[1];
        const target = spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec;
        return { file, spec, target };
      }),
    );
  });
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The rules broken on purpose: `file -> specifier`, each with its reason. */
const EXCEPTIONS: Record<string, string> = {
  // The shipped value model and chance calibration (models/*.json) are read where the bots ask
  // for them, once, lazily; moving the reading into io/ would also move the offline bundle's
  // stubs of these modules (api/http/offline-bundle.ts), left for a change of its own.
  'agents/mah-jongg/default-model.ts -> node:fs': 'reads the shipped models (models/value-model.json, models/chance-calibration.json)',
};

/** The imports breaking a rule, as `file -> specifier`, less the exceptions (and the exceptions of that rule no longer needed). */
function broken(dir: string, breaks: (i: Import) => boolean): { broken: string[]; stale: string[] } {
  const all = importsOf(dir)
    .filter(breaks)
    .map((i) => `${i.file} -> ${i.spec}`);
  const mine = Object.keys(EXCEPTIONS).filter((k) => under(k.split(' -> ')[0], dir));
  return { broken: all.filter((b) => !(b in EXCEPTIONS)), stale: mine.filter((k) => !all.includes(k)) };
}

describe('import rules', () => {
  it('the scan sees the imports (a regular expression that found none would pass every rule)', () => {
    for (const dir of ['engine', 'agents', 'api/http']) {
      expect(sources(dir).length, dir).toBeGreaterThan(5);
      expect(importsOf(dir).length, dir).toBeGreaterThan(20);
    }
    // across lines, and a dynamic import
    const found = (text: string) => PATTERNS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
    expect(found("import {\n  a,\n  type B,\n} from '../api/x.js';\nexport * from 'node:fs';\nimport 'fs';\nconst m = await import('../training/t.js');")).toEqual([
      '../api/x.js',
      'node:fs',
      'fs',
      '../training/t.js',
    ]);
  });

  it('engine/ imports nothing outside engine/: no Node built-in, no package, nothing of agents/, api/, training/ or io/', () => {
    const r = broken('engine', (i) => isBuiltin(i.spec) || !i.spec.startsWith('.') || !under(i.target, 'engine'));
    expect(r.broken).toEqual([]);
    expect(r.stale, 'exceptions no longer needed').toEqual([]);
  });

  it('agents/ reads no files and imports nothing of api/ or training/', () => {
    const r = broken('agents', (i) => readsFiles(i.spec) || under(i.target, 'api') || under(i.target, 'training'));
    expect(r.broken).toEqual([]);
    expect(r.stale, 'exceptions no longer needed').toEqual([]);
  });

  for (const [mine, other] of [
    ['mah-jongg', 'domino'],
    ['domino', 'mah-jongg'],
  ]) {
    it(`engine/${mine}/ and agents/${mine}/ import nothing of engine/${other}/ or agents/${other}/`, () => {
      for (const dir of [`engine/${mine}`, `agents/${mine}`]) {
        expect(sources(dir).length, dir).toBeGreaterThan(2);
        const crossing = importsOf(dir).filter((i) => under(i.target, `engine/${other}`) || under(i.target, `agents/${other}`));
        expect(crossing.map((i) => `${i.file} -> ${i.spec}`)).toEqual([]);
      }
    });
  }

  it('api/http/ never imports api/web/', () => {
    const r = broken('api/http', (i) => under(i.target, 'api/web'));
    expect(r.broken).toEqual([]);
    expect(r.stale, 'exceptions no longer needed').toEqual([]);
  });
});
