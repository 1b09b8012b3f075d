import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCard } from '../../io/cards.js';
import { playDeal, summarize, type ArenaGame, type ArenaSpec } from '../../training/arena.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';

const spec: ArenaSpec = { seats: ['medium', 'random', 'random', 'greedy'], seed: 5 };

describe('arena', () => {
  it('a duplicate deal puts every agent in every seat, on the same tiles', () => {
    const games = playDeal(spec, mahJonggGame(loadRuleset('nmjl-4p-tournament'), loadCard()), 0);
    expect(games).toHaveLength(4);
    for (let seat = 0; seat < 4; seat++) expect(new Set(games.map((g) => g.agents[seat]))).toEqual(new Set(spec.seats));
    expect(games[1].agents).toEqual(['random', 'random', 'greedy', 'medium']);
  });

  it("win share counts an agent's seat-games won; the interval is over deals", () => {
    const g = (deal: number, rotation: number, winners: number[]): ArenaGame => ({
      deal,
      rotation,
      agents: ['a', 'b'],
      winners,
      winShare: [0, 1].map((s) => (winners.includes(s) ? 1 : 0)),
      scores: [winners.includes(0) ? 10 : 0, winners.includes(1) ? 10 : 0],
    });
    const two: ArenaSpec = { seats: ['a', 'b'], seed: 1 };
    // deal 0: a wins both rotations; deal 1: a wins once, one wall game
    const s = summarize(two, [g(0, 0, [0]), g(0, 1, [0]), g(1, 0, [0]), g(1, 1, [])]);
    expect(s).toMatchObject({ deals: 2, games: 4, noWinner: 1, noWinnerRate: 0.25, parity: 0.375 });
    const a = s.results.find((r) => r.agent === 'a')!;
    expect(a).toMatchObject({ seatGames: 4, wins: 3, winShare: 0.75, meanScore: 7.5 });
    // per-deal shares 1 and 0.5: mean 0.75, sd 0.3536, half-width 1.96 * 0.3536 / sqrt(2) = 0.49
    expect(a.ci95[0]).toBeCloseTo(0.26, 2);
    expect(a.ci95[1]).toBe(1);
  });

  it('the same seed gives the same results however many worker threads play', () => {
    const run = (threads: number) =>
      spawnSync(
        process.execPath,
        ['bin/tilemate.js', 'arena', '--ruleset', 'nmjl-4p', '--seats', 'medium,random,easy,greedy', '--games', '12', '--seed', '9', '--threads', String(threads), '--json'],
        { encoding: 'utf8' },
      );
    const one = run(1),
      two = run(2);
    expect(one.status).toBe(0);
    expect(two.status).toBe(0);
    const doc = JSON.parse(one.stdout);
    expect(doc).toMatchObject({ deals: 12, games: 48 });
    // no terminal here: the progress comes as plain lines, the last one at the end
    expect(one.stderr.trim().split('\n').at(-1)).toBe('arena: 12 of 12 deals played');
    expect(one.stderr).toMatch(/^arena: \d+ of 12 deals played, (under a minute|about \d+ min) left$/m);
    expect(doc.results.map((r: { agent: string }) => r.agent)).toEqual(['medium', 'random', 'easy', 'greedy']);
    expect(two.stdout).toBe(one.stdout);
  });

  it("--log keeps the games; a run stopped mid-way (a line cut off, a deal half logged) resumes to the same results, and another arena's log is refused", () => {
    const log = join(mkdtempSync(join(tmpdir(), 'tilemate-arena-')), 'arena.jsonl');
    const args = (seats: string, more: string[] = []) => ['bin/tilemate.js', 'arena', '--seats', seats, '--games', '10', '--seed', '4', '--threads', '2', '--json', ...more];
    const run = (seats: string, more: string[] = []) => spawnSync(process.execPath, args(seats, more), { encoding: 'utf8' });
    const whole = run('medium,random,easy,greedy');
    expect(run('medium,random,easy,greedy', ['--log', log]).stdout).toBe(whole.stdout);
    const lines = readFileSync(log, 'utf8').split('\n');
    expect(lines).toHaveLength(1 + 40 + 1); // the header, 10 deals x 4 rotations, the last newline
    // as if killed: deals 0-5 in full, one game of deal 6, then half a line
    writeFileSync(log, lines.slice(0, 1 + 24 + 1).join('\n') + '\n' + lines[26].slice(0, 30));
    const resumed = run('medium,random,easy,greedy', ['--log', log]);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toBe(whole.stdout);
    // a second resume plays nothing and still reports every deal (deal 6 was logged twice: counted once)
    expect(run('medium,random,easy,greedy', ['--log', log]).stdout).toBe(whole.stdout);
    const other = run('medium,random,easy,medium', ['--log', log]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/is not the log of this arena/);
  });
});
