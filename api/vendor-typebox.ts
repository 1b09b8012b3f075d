import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Run by the build (`npm run build`) after tsc: typebox, which the routes' schemas are written
 * in, bundled by esbuild into one file (dist/vendor/typebox.js) and the compiled modules that
 * import it pointed at that file. From its package, Node reads and compiles typebox's 373
 * files at every start of the server (about 0.2 s of CPU); the one file takes about 0.01 s.
 * A plain `tsc` (the benches' scripts) writes the modules again importing the package, which
 * works as before, only slower to start.
 */
const dist = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(dist, 'vendor', 'typebox.js');
mkdirSync(dirname(bundle), { recursive: true });
// typebox/value (the WebSocket's messages checked on the way in, api/http/routes/tables.ts) in a file of its own: its kinds are plain fields, so the two files agree
const valueBundle = join(dist, 'vendor', 'typebox-value.js');
const bundles: [string, string][] = [
  ['typebox', bundle],
  ['typebox/value', valueBundle],
];
for (const [from, outfile] of bundles) {
  await build({ stdin: { contents: `export * from '${from}';`, resolveDir: join(dist, '..') }, bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'warning' });
}

for (const name of readdirSync(join(dist, 'api'), { recursive: true, encoding: 'utf8' })) {
  if (!name.endsWith('.js')) continue;
  const file = join(dist, 'api', name);
  let text = readFileSync(file, 'utf8');
  let changed = false;
  for (const [from, outfile] of bundles) {
    const to = relative(dirname(file), outfile).split(sep).join('/');
    const path = to.startsWith('.') ? to : `./${to}`;
    // a static import, and a dynamic one (loaded when first used)
    for (const [IMPORT, now] of [
      [`from '${from}';`, `from '${path}';`],
      [`import('${from}')`, `import('${path}')`],
    ]) {
      if (!text.includes(IMPORT)) continue;
      text = text.replaceAll(IMPORT, now);
      changed = true;
    }
  }
  if (changed) writeFileSync(file, text);
}
