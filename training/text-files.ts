import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileErrorWords, TilemateError } from '../engine/errors.js';

/**
 * What the command line takes from files and gives to a terminal, bounded and made safe:
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
