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
await build({ stdin: { contents: "export * from 'typebox';", resolveDir: join(dist, '..') }, bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile: bundle, logLevel: 'warning' });

const IMPORT = "from 'typebox';";
for (const name of readdirSync(join(dist, 'api'), { recursive: true, encoding: 'utf8' })) {
  if (!name.endsWith('.js')) continue;
  const file = join(dist, 'api', name);
  const text = readFileSync(file, 'utf8');
  if (!text.includes(IMPORT)) continue;
  const to = relative(dirname(file), bundle).split(sep).join('/');
  writeFileSync(file, text.replaceAll(IMPORT, `from '${to.startsWith('.') ? to : `./${to}`}';`));
}
