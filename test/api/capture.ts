import { afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../api/cli/cli.js';

/** Runs the command line in-process, as `tilemate ARGS`; returns its exit code. */
export const run = (...args: string[]): Promise<number> => main(['node', 'tilemate', ...args]);

/**
 * Captures stdout and stderr for every test of the calling file: `write` receives each
 * chunk, `reset` clears the file's buffers before each test.
 */
export function captureOutput(write: (stream: 'out' | 'err', chunk: string) => void, reset: () => void): void {
  beforeEach(() => {
    reset();
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      write('out', String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      write('err', String(chunk));
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());
}
