#!/usr/bin/env node
// The `tilemate` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
import { main } from '../dist/api/tilemate.js';

main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.stack : String(err)); process.exitCode = 1; },
);
