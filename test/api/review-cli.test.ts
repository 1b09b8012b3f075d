import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../api/http/app.js';
import { captureOutput, run } from './capture.js';

/** `tilemate review RECORD --seat N` gives coaches the page's review in the terminal. */

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

describe('tilemate review', () => {
  it("--json is the server's review of the same record; the text puts the disagreements first with their count", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-review-'));
    // seat 0 passes and discards without looking: the engine disagrees somewhere
    expect(await run('selfplay', '--games', '1', '--seed', '5', '--bots', 'random,greedy,greedy,greedy', '--out', dir, '--json')).toBe(0);
    const file = join(dir, 'game-5.jsonl');
    out = '';
    expect(await run('review', file, '--seat', '0', '--worlds', '2', '--json')).toBe(0);
    const mine = JSON.parse(out);
    const app = await build({ dataDir: mkdtempSync(join(tmpdir(), 'tilemate-review-data-')), logger: false });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/review', payload: { record: readFileSync(file, 'utf8'), seat: 0, worlds: 2 } });
      expect(res.statusCode).toBe(200);
      expect(mine).toEqual(res.json());
    } finally {
      await app.close();
    }
    expect(mine.summary.disagreed).toBeGreaterThan(0);
    out = '';
    expect(await run('review', file, '--seat', '0', '--worlds', '2')).toBe(0);
    const lines = out.split('\n');
    // the page's own summary sentence, then the decisions, the mistakes first
    expect(lines[1]).toBe(mine.summary.text);
    expect(lines[1]).toMatch(new RegExp(`^You made ${mine.summary.decisions} decisions`));
    const first = lines.find((l) => /^1\. /.test(l))!;
    expect(first).toMatch(mine.summary.mistakes > 0 ? /better was to/ : /what the coach would do|about as good/);
    expect(err).toBe('');
  }, 120_000);

  it('a seat the game did not have, or a missing file, is refused in words', async () => {
    expect(await run('review', '/nonexistent.jsonl', '--seat', '0')).toBe(2);
    expect(err).toMatch(/TM_FILE: cannot read record file \/nonexistent.jsonl: no such file/);
  });
});
