import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileErrorWords, TilemateError } from '../engine/errors.js';

/**
 * Files, for every edge that reads or writes them (the command line, the server, training).
 * What is read is bounded and made safe:
 * a file is read up to a limit (never /dev/zero until memory runs out), and text from
 * outside (card and section names, bot names in a record, file names) is printed with its
 * control characters shown as `?`, so a record cannot send escape sequences to the terminal.
 */

export const MAX_FILE_BYTES = { card: 1 << 20, record: 64 << 20, hands: 64 << 20, state: 1 << 20, model: 16 << 20 } as const;

/** A text file of at most `max` bytes, as UTF-8; TM_FILE naming it otherwise. */
export function readTextFile(path: string, max: number, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new TilemateError('TM_FILE', `cannot read ${what} ${printable(path)}: ${fileErrorWords(err)}`);
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new TilemateError('TM_FILE', `cannot read ${what} ${printable(path)}: it is a folder`);
    const buf = Buffer.alloc(Math.min(max + 1, 1 << 16));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > max) throw new TilemateError('TM_FILE', `cannot read ${what} ${printable(path)}: it is larger than ${max / (1 << 20)} MiB, the most accepted`);
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (err) {
    if (err instanceof TilemateError) throw err;
    throw new TilemateError('TM_FILE', `cannot read ${what} ${printable(path)}: ${fileErrorWords(err)}`);
  } finally {
    closeSync(fd);
  }
}

// C0 and C1 controls but tab and newline, and the bidirectional overrides
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text safe to print on a terminal: control characters become `?`. */
export const printable = (text: string): string => text.replace(CONTROLS, '?');

/**
 * Writes a file atomically and durably: a temporary file in the same folder, flushed to
 * disk, renamed into place, then the folder flushed so the rename itself survives a crash.
 * Readers never see half a file; a failure is reported as TM_FILE with its cause (the
 * clean-up of the temporary file never masks it).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      // a write may take fewer bytes than asked (a disk filling up): the rest is written after it, or the error is thrown
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    syncFolder(dir);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* the folder itself is the problem: the error below says so */
    }
    throw new TilemateError('TM_FILE', `cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Flushes a folder's entries (a rename) to disk; a no-op where folders cannot be opened (Windows). */
export function syncFolder(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    /* some file systems refuse fsync on a folder */
  } finally {
    closeSync(fd);
  }
}

export function readRecordFile(path: string): string {
  return readTextFile(path, MAX_FILE_BYTES.record, 'record file');
}
