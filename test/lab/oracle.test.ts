import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The oracle study (lab/oracle-arena.ts), from dist/ (build first). */

const dir = mkdtempSync(join(tmpdir(), 'tm-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [`dist/lab/${script}`, ...args], { encoding: 'utf8' });
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('the oracle study', () => {
  it('plays each deal once per seat for the oracle, hard and medium, prints their figures and paired differences, and resumes from its log', () => {
    const log = join(dir, 'oracle.log');
    const first = run('oracle-arena.js', '2', '31', '--seeds', '2', '--log', log);
    expect(first.status).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({ deals: 2, seed: 31, card: 'practice', options: { seeds: 2, passes: 6, discards: 0 } });
    for (const who of ['oracle', 'hard', 'medium']) {
      expect(out[who].winShare).toHaveLength(3);
      expect(out[who].meanScore).toHaveLength(3);
      expect(out[who].winShare[1]).toBeLessThanOrEqual(out[who].winShare[0]);
      expect(out[who].secondsPerGame).toBeGreaterThanOrEqual(0);
    }
    // medium's own figures: the mean of a table of four medium, whose points sum to nothing
    expect(out.medium.meanScore[0]).toBe(0);
    expect(Object.keys(out.pairedWinShareDiff)).toEqual(['oracle-hard', 'oracle-medium']);
    expect(out.pairedWinShareDiff['oracle-hard'][0]).toBeCloseTo(out.oracle.winShare[0] - out.hard.winShare[0], 3);
    expect(out.oracleWork.decisionsPerGame).toBeGreaterThan(10);
    expect(out.oracleWork.candidatesPerDecision).toBeGreaterThan(1);
    // the continuation is deterministic: a second seed plays the same games
    expect(out.oracleWork.seedsDiffered).toBe(0);
    const logged = lines(log);
    expect(logged).toHaveLength(1 + 3 * 2);
    expect(JSON.parse(logged[0])).toEqual({ study: 'oracle-arena', seed: 31, card: 'practice', seeds: 2, passes: 6, discards: 0 });

    // the hard games are the ones the paired study plays with the same seed
    const paired = run('paired-study.js', '2', '31', '--a', 'hard', '--b', 'medium', '--threads', '1');
    expect(paired.status).toBe(0);
    const p = JSON.parse(paired.stdout);
    expect(p.hard.winShare).toEqual(out.hard.winShare);
    expect(p.hard.meanScore).toEqual(out.hard.meanScore);
    expect(p.medium.meanScore).toEqual(out.medium.meanScore);

    // a complete log: nothing is played again, the same figures
    const again = run('oracle-arena.js', '2', '31', '--seeds', '2', '--log', log);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toEqual(out);
    expect(lines(log)).toEqual(logged);

    // stopped in the middle of the oracle's second deal: only that deal is played again
    const oracleRows = logged.filter((l) => l.includes('"agent":"oracle"'));
    const cut = [logged[0], ...logged.slice(1).filter((l) => l !== oracleRows[1])];
    writeFileSync(log, `${cut.join('\n')}\n${oracleRows[1].slice(0, 20)}`);
    const resumed = run('oracle-arena.js', '2', '31', '--seeds', '2', '--log', log);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toBe('oracle: 2 of 2 deals\n');
    const r = JSON.parse(resumed.stdout);
    for (const who of ['oracle', 'hard', 'medium']) expect({ ...r[who], secondsPerGame: 0 }).toEqual({ ...out[who], secondsPerGame: 0 });
    expect(r.pairedWinShareDiff).toEqual(out.pairedWinShareDiff);
    expect(lines(log)).toHaveLength(1 + 3 * 2);

    // another study's log, or other oracle options, is refused
    const other = run('oracle-arena.js', '2', '31', '--log', log);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toContain('is the log of another study (or of other oracle options)');
  });

  it('refuses arguments it cannot read, saying which', () => {
    const bad = run('oracle-arena.js', 'ten');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('oracle-arena: deals must be a whole number of at least 1, not "ten"\n');
  });
});
