import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Compile once before the tiers that use dist/ (integration, browser, slow: the tests that run
 * the installed command or worker threads); the unit tier needs no build. Each of those tiers
 * names this file, and the first to start compiles for all of them in this run. Type errors do
 * not stop the tests (tsc still emits; `npm run typecheck` is the check for them), a failure to
 * emit does. Then, as `npm run build` does, typebox bundled into one file (api/vendor-typebox.ts)
 * and the embedded database's template (a fresh data folder's database is loaded from it,
 * api/store/db.ts), made again so it holds this schema.
 */
export default function setup(): void {
  if (process.env.TILEMATE_TEST_BUILT === '1') return;
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (r.status !== 0 && !existsSync('dist/api/tilemate.js')) throw new Error(`tsc failed (exit ${r.status}) and emitted nothing`);
  const v = spawnSync(process.execPath, ['dist/api/vendor-typebox.js'], { stdio: 'inherit' });
  if (v.status !== 0) throw new Error(`typebox was not bundled (exit ${v.status})`);
  const t = spawnSync(process.execPath, ['dist/api/store/db-template.js'], { stdio: 'inherit' });
  if (t.status !== 0) throw new Error(`the embedded database's template was not made (exit ${t.status})`);
  process.env.TILEMATE_TEST_BUILT = '1';
}
