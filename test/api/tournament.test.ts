import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe('tilemate match and tilemate tournament', () => {
  it('match: East passes to the right each game, running totals by player; --json is one object', async () => {
    expect(await run('match', '--games', '5', '--seed', '3', '--bots', 'greedy,random,greedy,random', '--json')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.games.map((g: { seating: number[] }) => g.seating[0])).toEqual([0, 1, 2, 3, 0]);
    expect(doc.running).toHaveLength(5);
    expect(doc.totals).toEqual(doc.running[4]);
    out = '';
    expect(await run('match', '--games', '2', '--seed', '3', '--bots', 'greedy')).toBe(0);
    expect(out).toMatch(/^nmjl-4p-tournament: a match of 2 games, the deal passing to the right/);
    expect(out).toMatch(/game 2: East player 2 \(greedy\)/);
  });

  it('tournament: tables, rounds, standings; --out writes records that replay accepts; the same seed gives the same tournament', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-'));
    expect(await run('tournament', '--tables', '2', '--players', '7', '--rounds', '1', '--bots', 'greedy,random', '--seed', '4', '--out', dir, '--json')).toBe(0);
    const first = out;
    const doc = JSON.parse(out);
    expect(doc.players).toHaveLength(7);
    expect(doc.tables.map((t: { players: number[] }) => t.players.length)).toEqual([4, 3]);
    expect(doc.standings).toHaveLength(7);
    const files = readdirSync(dir);
    expect(files).toHaveLength(8);
    for (const f of files) {
      out = '';
      expect(await run('replay', join(dir, f), '--json')).toBe(0);
      expect(JSON.parse(out).ok).toBe(true);
    }
    out = '';
    await run('tournament', '--tables', '2', '--players', '7', '--rounds', '1', '--bots', 'greedy,random', '--seed', '4', '--json');
    expect(out).toBe(first);
  });

  it('bad input is refused with a stable code: an unknown bot, too few players for the tables', async () => {
    expect(await run('tournament', '--bots', 'nobody')).not.toBe(0);
    expect(err).toMatch(/TM_BAD_INPUT: unknown bot "nobody"/);
    err = '';
    expect(await run('tournament', '--tables', '3', '--players', '8', '--bots', 'random')).not.toBe(0);
    expect(err).toMatch(/TM_BAD_INPUT: 8 players cannot sit at 3 tables/);
  });
});
