import { execFileSync } from 'node:child_process';

/** Compile once before any test: the tests that run the installed command or worker threads use dist/. */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
