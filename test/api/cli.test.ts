import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultJson } from '../../api/shared/wire.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { TilemateError } from '../../engine/errors.js';
import { COPIES } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';
import { captureOutput, run } from './capture.js';

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

describe('tilemate analyze', () => {
  it('--json prints one object with the documented names', async () => {
    expect(await run('analyze', '--hand', HAND, '--json')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.hand).toBe(HAND);
    expect(doc.results).toHaveLength(5);
    expect(doc.results[0]).toMatchObject({ id: 'Addition #3', section: 'Addition', value: 30, concealed: false, tilesAway: 3, need: ['2B', '2B', 'GD'], possible: true });
  });

  it('--all lists every line, --top N the best N', async () => {
    await run('analyze', '--hand', HAND, '--json', '--all');
    expect(JSON.parse(out).results).toHaveLength(51);
    out = '';
    await run('analyze', '--hand', HAND, '--json', '--top', '2');
    expect(JSON.parse(out).results.map((r: { id: string }) => r.id)).toEqual(['Addition #3', '2468 #1']);
  });

  it('prints a readable table by default', async () => {
    await run('analyze', '--hand', HAND);
    expect(out).toMatch(/Card +Tilemate Practice Card 2026 \(51 lines/);
    expect(out).toMatch(/1 +Addition #3 +3 +222B 444B 6666B GGGG +2B 2B GD/);
  });

  it('--exposed and --seen are taken into account', async () => {
    await run('analyze', '--hand', '2B 4B 6B 8B 4C 4C 4C 8C 8C 8C', '--exposed', 'F F J', '--seen', '4C', '--json', '--top', '1');
    expect(JSON.parse(out).results[0]).toMatchObject({ id: '2468 #2', tilesAway: 1, need: ['4C'] });
  });

  it('--hands prints one JSON object per line, in order, with errors in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-'));
    const file = join(dir, 'hands.txt');
    writeFileSync(file, `${HAND}\n1B 2B\nF F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C 6C\n`);
    expect(await run('analyze', '--hands', file, '--top', '1', '--json')).toBe(1);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0].results[0].id).toBe('Addition #3');
    expect(lines[1].error.code).toBe('TM_HAND_SIZE');
    expect(lines[2].results[0]).toMatchObject({ id: '2026 #1', tilesAway: 0 });
  });

  it("--hands --all writes each hand's line exactly as JSON.stringify writes its results, errors in place", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-'));
    const file = join(dir, 'hands.txt');
    // a quote and a backslash in a hand's text are refused, and still echoed back escaped
    const hands = [HAND, 'F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C 6C', '1B 1B 1B 2C 5D 5D N N E GD GD J J', '1B 1B 1B 5D 5D N N E GD GD J', 'F F F "x\\', 'F F Dé'];
    writeFileSync(file, hands.join('\n') + '\n');
    // a card whose headings are not ASCII (the writer encodes them as UTF-8, as JSON.stringify leaves them)
    const cafe = join(dir, 'cafe.card');
    writeFileSync(cafe, '[Café “Évens”]\n2468a 2468b 2468c FF ; c 50\nFFFF 2026a 222b 222c ; x 25\n');
    for (const extra of [[], ['--exposed', 'J 2C 2C', '--seen', '1B 9D 9D'], ['--card', cafe]]) {
      out = '';
      await run('analyze', '--hands', file, '--all', ...extra);
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(hands.length);
      const card = extra[0] === '--card' ? loadCard(cafe) : loadCard();
      const analyzer = new Analyzer(card);
      lines.forEach((text, i) => {
        let expected: string;
        try {
          const exposures = extra[0] === '--exposed' ? extra : [];
          const results = analyzer.analyze(analysisInput(COPIES, hands[i], exposures[1], exposures[3], {}), { top: card.lineCount });
          expected = JSON.stringify({ line: i + 1, hand: hands[i], results: results.map(resultJson) });
        } catch (e) {
          expected = JSON.stringify({ line: i + 1, hand: hands[i], error: { code: (e as TilemateError).code, message: (e as Error).message } });
        }
        expect(text).toBe(expected);
      });
    }
  });

  it('--card loads another card; a malformed card is refused with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-'));
    const good = join(dir, 'good.card');
    writeFileSync(good, '[Mine]\n2468a 2468b 2468c FF ; c 50\n');
    await run('analyze', '--hand', '2B 4B 6B 8B 2C 4C 6C 8C 2D 4D 6D 8D F F', '--card', good, '--json');
    expect(JSON.parse(out).results[0]).toMatchObject({ id: 'Mine #1', tilesAway: 0 });
    const bad = join(dir, 'bad.card');
    writeFileSync(bad, '[Mine]\n2468a 2468b 2468c F ; c 50\n');
    expect(await run('analyze', '--hand', HAND, '--card', bad)).toBe(2);
    expect(err).toBe('error TM_CARD_SYNTAX: card line 2: the line holds 13 tiles; every line holds exactly 14\n');
  });

  it('bad input exits non-zero with a one-line error naming the problem', async () => {
    expect(await run('analyze', '--hand', '1B 2B 3B Q')).toBe(2);
    expect(err).toBe('error TM_BAD_TILE: unknown tile "Q" (expected 1B..9B, 1C..9C, 1D..9D, N E W S, RD GD WD, F or J)\n');
    err = '';
    expect(await run('analyze', '--hand', '1B 2B 3B')).toBe(2);
    expect(err).toMatch(/^error TM_HAND_SIZE: the hand has 3 tiles; expected 13 or 14\n$/);
    err = '';
    expect(await run('analyze', '--hand', HAND, '--card', '/nonexistent.card')).toBe(2);
    expect(err).toMatch(/^error TM_FILE: cannot read card file \/nonexistent.card: no such file\n$/);
    err = '';
    expect(await run('analyze')).toBe(2);
    expect(err).toMatch(/give one of --hand/);
  });
});

describe('the installed command', () => {
  it('the tilemate command runs from the repository root (bin -> dist, compiled by the global setup)', () => {
    const res = spawnSync('node', ['bin/tilemate.js', 'analyze', '--hand', HAND, '--json', '--top', '1'], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).results[0].id).toBe('Addition #3');
    const bad = spawnSync('node', ['bin/tilemate.js', 'analyze', '--hand', 'nonsense'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

/** Runs the installed command with its stdin on a pipe; sends Ctrl-C (SIGINT) once it asks its first question. */
function interrupted(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/tilemate.js', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '',
    err = '',
    sent = false;
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (!sent && out.endsWith('> ')) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

describe('leaving a game in the terminal', () => {
  it('Ctrl-C at a question ends play quietly in one plain line (no error code), in Mah Jongg and in Mexican Train', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-'));
    const file = join(dir, 'game.jsonl');
    const mj = await interrupted(['play', '--seed', '4', '--bots', 'random', '--record', file]);
    expect(mj.err).toBe('');
    expect(mj.code).toBe(130);
    expect(mj.out).toMatch(/Charleston pass 1, to the right:[^\n]*\n> \nStopped \(Ctrl-C\); the game so far is saved in .*game\.jsonl\.\n$/);
    // the record so far: its header and no action yet (nothing was answered)
    const saved = readFileSync(file, 'utf8').trim().split('\n');
    expect(saved).toHaveLength(1);
    expect(JSON.parse(saved[0])).toMatchObject({ format: 'tilemate-record', seed: 4 });

    const domino = await interrupted(['domino', 'play', '--seed', '4', '--bots', 'random']);
    expect(domino.err).toBe('');
    expect(domino.code).toBe(130);
    expect(domino.out).toMatch(/\n> \nStopped \(Ctrl-C\); to play this deal again, use --seed 4\.\n$/);
  }, 60_000);

  it('"quit" on a pipe leaves with exit code 0, saying how to play the deal again', () => {
    const res = spawnSync('node', ['bin/tilemate.js', 'play', '--seed', '4', '--bots', 'random'], { input: 'help\nquit\n', encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/You can type:\n(  .*\n)+Charleston pass 1/);
    expect(res.stdout.endsWith('> You left the game; to play this deal again, use --seed 4.\n')).toBe(true);
  }, 60_000);
});
