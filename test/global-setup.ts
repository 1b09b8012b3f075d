import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Compile once before any test: the tests that run the installed command or worker threads
 * use dist/. Type errors do not stop the tests (tsc still emits; `npm run typecheck` is the
 * check for them), a failure to emit does.
 */
export default function setup(): void {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (r.status !== 0 && !existsSync('dist/api/tilemate.js')) throw new Error(`tsc failed (exit ${r.status}) and emitted nothing`);
}
