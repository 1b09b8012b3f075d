import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers' import rules, as docs/architecture.md, lab/README.md and the README state them,
 * read from the sources with a plain regular expression over import and export-from statements
 * and dynamic import('...') (type-only imports included: a cycle of types ties files as much):
 *
 *   engine/    imports nothing outside engine/: no Node built-in (node:fs or bare 'fs'), no
 *              package, nothing of agents/, api/, training/, io/
 *   the face   engine/mah-jongg/game.ts is the game's public face: the parts it gathers
 *              (state, deal, charleston, legal, apply, view, validate and what they use)
 *              import state.ts, never the face
 *   io/        imports nothing of agents/, training/ or api/ (io → engine)
 *   agents/    reads no files (no node:fs, fs, node:fs/promises) and imports nothing of api/,
 *              training/ or io/ (the edges and training read files, and hand the bots what they read)
 *   training/  imports nothing of api/ (api → training → agents → engine)
 *   api/http/  never imports api/web/ (the browser's files are served, not run by the server)
 *   api/cli/   never reaches api/http/, by any chain of imports (api/tilemate.ts hands the CLI
 *              the server's start; the CLI and the server share api/shared and api/store)
 *   lab/       nothing in engine/, io/, agents/, api/, training/ or bin/ imports lab/
 *   games      each game's own folder (engine/mah-jongg/, engine/domino/, and their bots in
 *              agents/mah-jongg/, agents/domino/) imports nothing of the other game's: what both
 *              games use is at engine/ and agents/ (the interface, the registry, records, rng)
 *   cycles     none, anywhere in the tree (the tests, benches, lab and pages included)
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

  it('agents/ reads no files and imports nothing of api/, training/ or io/', () => {
    const r = broken('agents', (i) => readsFiles(i.spec) || under(i.target, 'api') || under(i.target, 'training') || under(i.target, 'io'));
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

  it('io/ imports nothing of agents/, training/ or api/', () => {
    const r = broken('io', (i) => under(i.target, 'agents') || under(i.target, 'training') || under(i.target, 'api'));
    expect(r.broken).toEqual([]);
    expect(r.stale, 'exceptions no longer needed').toEqual([]);
  });

  it('training/ imports nothing of api/', () => {
    const r = broken('training', (i) => under(i.target, 'api'));
    expect(r.broken).toEqual([]);
    expect(r.stale, 'exceptions no longer needed').toEqual([]);
  });

  it('lab/ stands apart: nothing in engine/, io/, agents/, api/, training/ or bin/ imports it', () => {
    for (const dir of ['engine', 'io', 'agents', 'api', 'training', 'bin']) {
      expect(broken(dir, (i) => under(i.target, 'lab')).broken, dir).toEqual([]);
    }
  });

  it('the CLI never reaches api/http/, by any chain of imports', () => {
    const graph = importGraph();
    const cli = Object.keys(graph).filter((f) => under(f, 'api/cli'));
    expect(cli.length).toBeGreaterThan(5);
    const reached = reach(graph, cli).filter((f) => under(f, 'api/http'));
    expect(reached.map((f) => `${f}, by ${chain(graph, cli, f).join(' -> ')}`)).toEqual([]);
  });

  it("engine/mah-jongg/'s parts import state.ts, never the face (game.ts)", () => {
    const graph = importGraph();
    const FACE = 'engine/mah-jongg/game.ts';
    const parts = reach(graph, [FACE]).filter((f) => f !== FACE);
    expect(parts).toContain('engine/mah-jongg/state.ts');
    expect(parts).toContain('engine/mah-jongg/table-proofs.ts');
    expect(parts.filter((f) => graph[f].includes(FACE))).toEqual([]);
  });

  it('the cycle finder finds a cycle, and only the files on it', () => {
    expect(cycles({ a: ['b'], b: ['c'], c: ['a'], d: ['a'], e: ['e'], f: [] })).toEqual([['a', 'b', 'c'], ['e']]);
    expect(cycles({ a: ['b'], b: [], c: ['a', 'b'] })).toEqual([]);
  });

  it('no import cycles anywhere in the tree (type-only and dynamic imports included)', () => {
    const graph = importGraph();
    expect(Object.keys(graph).length).toBeGreaterThan(300);
    expect(cycles(graph).map((c) => c.join(' <-> '))).toEqual([]);
  });
});

/** Every scanned folder, for the rules that follow imports through the whole tree. */
const TREE = ['engine', 'io', 'agents', 'training', 'api', 'lab', 'bench', 'bin', 'test'];

/** The file a relative import names (`./x.js` is `./x.ts` in the sources), or null for one outside the sources (a JSON file, dist/). */
function fileOf(target: string): string | null {
  for (const f of [target.replace(/\.js$/, '.ts'), target]) if (/\.(ts|js|mjs)$/.test(f) && existsSync(join(ROOT, f)) && statSync(join(ROOT, f)).isFile()) return f;
  return null;
}

let graphMemo: Record<string, string[]> | null = null;
/** The source files of the tree, each with the files it imports (relative imports only: packages are not the project's). */
function importGraph(): Record<string, string[]> {
  if (graphMemo) return graphMemo;
  const graph: Record<string, string[]> = {};
  for (const dir of TREE) for (const file of sources(dir)) graph[file] = [];
  for (const dir of TREE)
    for (const i of importsOf(dir)) {
      if (!i.spec.startsWith('.')) continue;
      const to = fileOf(i.target);
      if (to !== null && to in graph && !graph[i.file].includes(to)) graph[i.file].push(to);
    }
  graphMemo = graph;
  return graph;
}

/** The files reached from `from` by any chain of imports, `from` included. */
function reach(graph: Record<string, string[]>, from: readonly string[]): string[] {
  const seen = new Set(from);
  const todo = [...from];
  while (todo.length > 0)
    for (const to of graph[todo.pop()!] ?? [])
      if (!seen.has(to)) {
        seen.add(to);
        todo.push(to);
      }
  return [...seen];
}

/** One shortest chain of imports from `from` to `to`. */
function chain(graph: Record<string, string[]>, from: readonly string[], to: string): string[] {
  const back = new Map<string, string | null>(from.map((f) => [f, null]));
  const queue = [...from];
  while (queue.length > 0) {
    const f = queue.shift()!;
    if (f === to) break;
    for (const g of graph[f] ?? [])
      if (!back.has(g)) {
        back.set(g, f);
        queue.push(g);
      }
  }
  const path: string[] = [];
  for (let f: string | null | undefined = to; f != null; f = back.get(f)) path.unshift(f);
  return path;
}

/** The import cycles: each set of files that import one another round (Tarjan's strongly connected components), sorted. */
function cycles(graph: Record<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph[v] ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph[v] ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of Object.keys(graph)) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
