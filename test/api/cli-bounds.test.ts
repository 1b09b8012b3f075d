import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCardText } from '../../io/cards.js';
import { captureOutput, run } from './capture.js';

/** The command line bounds what it reads and runs, and prints outside text safely. */

let out = '';
let err = '';
captureOutput(
  (stream, chunk) => {
    if (stream === 'out') out += chunk;
    else err += chunk;
  },
  () => {
    out = '';
    err = '';
  },
);
const HAND = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J';
const tmp = () => mkdtempSync(join(tmpdir(), 'tilemate-cli-'));

describe('the command line is bounded', () => {
  it('a card or record that never ends (/dev/zero) is refused by size, not read until memory runs out', async () => {
    expect(await run('analyze', '--hand', HAND, '--card', '/dev/zero')).toBe(2);
    expect(err).toMatch(/TM_FILE: cannot read card file \/dev\/zero: it is larger than 1 MiB/);
    err = '';
    expect(await run('replay', '/dev/zero')).toBe(2);
    expect(err).toMatch(/TM_FILE: cannot read record file \/dev\/zero: it is larger than 64 MiB/);
  });

  it('--simulate and --worlds have a ceiling, refused as bad input', async () => {
    expect(await run('analyze', '--hand', HAND, '--simulate', '1e9')).toBe(2);
    expect(err).toMatch(/TM_BAD_INPUT: --simulate "1e9": expected a whole number of 1 or more, at most 100,000/);
    err = '';
    expect(await run('advise', 'discard', '--hand', '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N', '--worlds', '1e9')).toBe(2);
    expect(err).toMatch(/TM_BAD_INPUT: --worlds "1e9": .*at most 1,000/);
  });

  it('--hands answers name their line of the file, blank lines counted', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'hands.txt'), `${HAND}\n\n1B 2B\n`);
    expect(await run('analyze', '--hands', join(dir, 'hands.txt'), '--top', '1')).toBe(1);
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.map((a) => [a.line, a.hand, a.error?.code])).toEqual([
      [1, HAND, undefined],
      [3, '1B 2B', 'TM_HAND_SIZE'],
    ]);
  });

  it('names from a card or a record are printed without their control characters', async () => {
    const dir = tmp();
    const evil = readCardText().replace(/^card:.*$/m, 'card: Evil\u001b]0;owned\u0007\u001b[2J');
    writeFileSync(join(dir, 'evil.card'), evil);
    expect(await run('selfplay', '--card', join(dir, 'evil.card'), '--games', '1', '--bots', 'random', '--out', dir)).toBe(0);
    expect(out).toMatch(/card Evil\?\]0;owned\?\?\[2J/);
    out = '';
    const record = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
    expect(await run('replay', join(dir, record))).toBe(0);
    expect(out).toMatch(/card Evil\?\]0;owned\?\?\[2J\)/);
    out = '';
    expect(await run('analyze', '--hand', HAND, '--card', join(dir, 'evil.card'))).toBe(0);
    expect(out).toMatch(/Card +Evil\?\]0;owned/);
    expect(out).not.toMatch(/\u001b/);
  });
});
