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
const HAND = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J';
const ONE_AWAY = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F N';
const WAITING_ON_F = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F';

describe('tilemate analyze --simulate', () => {
  it("--simulate adds each line's chance and expected score, the same for the same seed", async () => {
    expect(await run('analyze', '--hand', HAND, '--json', '--simulate', '--top', '3')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.simulation).toMatchObject({ deals: 200, seed: 1, wall: 99, draws: 24 });
    expect(doc.simulation.model).toMatch(/solo/);
    expect(doc.results).toHaveLength(3);
    for (const r of doc.results) {
      expect(r.chance).toBeGreaterThanOrEqual(0);
      expect(r.chance).toBeLessThanOrEqual(1);
      expect(r.expectedScore).toBeCloseTo(r.chance * r.value, 1);
    }
    const first = out;
    out = '';
    await run('analyze', '--hand', HAND, '--json', '--simulate', '--top', '3');
    expect(out).toBe(first);
    out = '';
    await run('analyze', '--hand', HAND, '--json', '--simulate', '50', '--seed', '9', '--wall', '40', '--top', '3');
    expect(JSON.parse(out).simulation).toMatchObject({ deals: 50, seed: 9, wall: 40, draws: 10 });
  });

  it('--simulate adds chance and E[score] columns to the table; without it nothing changes', async () => {
    await run('analyze', '--hand', HAND, '--simulate');
    expect(out).toMatch(/value +chance +E\[score\] +why/);
    expect(out).toMatch(/1 +Addition #3 .* 30 x +\d+\.\d% +\d+\.\d\d +3 away/);
    out = '';
    await run('analyze', '--hand', HAND, '--json');
    expect(JSON.parse(out).results[0].chance).toBeUndefined();
  });
});

describe('tilemate advise', () => {
  it('charleston: the pass, the blind tiles, the lines kept and why, readable or as JSON', async () => {
    expect(await run('advise', 'charleston', '--hand', '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E')).toBe(0);
    expect(out).toMatch(/^Pass +9C N E to the right$/m);
    expect(out).toMatch(/^Plan +Aim for 2468: the tiles you keep leave you 3 tiles from Mah Jongg with the first 2468 line, and jokers can help fill it\.$/m);
    expect(out).toMatch(/^Keeps +3 tiles from Mah Jongg with the (first 2468|2468) line/m);
    expect(out).toMatch(/^Details +Pass 9 Crak, North and East: they fit none of the lines your tiles are building/m);
    out = '';
    // a pass across reads "across", never "to the across"
    expect(await run('advise', 'charleston', '--hand', '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E', '--direction', 'across')).toBe(0);
    expect(out).toMatch(/^Pass +9C N E across$/m);
    out = '';
    expect(await run('advise', 'charleston', '--hand', ONE_AWAY, '--direction', 'left', '--blind', '--json')).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ direction: 'left', pass: ['N'], blind: 2 });
  });

  it('discard: the advice and its reason in plain words first, then the alternatives with their values under Details; the same for the same seed', async () => {
    expect(await run('advise', 'discard', '--hand', ONE_AWAY, '--worlds', '12')).toBe(0);
    const lines = out.split('\n');
    const advice = lines.findIndex((l) => l.startsWith('Advice'));
    expect(lines[advice]).toMatch(/^Advice   Discard N[ :(]/);
    expect(lines[advice + 1]).toMatch(/^Why      It leaves you 1 tile from Mah Jongg with /);
    const details = lines.findIndex((l) => l.startsWith('Details'));
    expect(details).toBeGreaterThan(advice);
    expect(lines.findIndex((l) => /^ +1 +discard N +-?\d/.test(l))).toBeGreaterThan(details);
    out = '';
    await run('advise', 'discard', '--hand', HAND, '--seen', '5C', '--worlds', '4', '--seed', '3', '--json');
    const first = out;
    const doc = JSON.parse(first);
    expect(doc).toMatchObject({ question: 'discard', worlds: 4, seed: 3, wall: 98 });
    expect(doc.alternatives.length).toBeGreaterThanOrEqual(3);
    expect(doc.alternatives[0].action).toBe(doc.suggestion);
    out = '';
    await run('advise', 'discard', '--hand', HAND, '--seen', '5C', '--worlds', '4', '--seed', '3', '--json');
    expect(out).toBe(first);
  });

  it('call: Mah Jongg when the discard completes the hand; declining when nothing can use it', async () => {
    expect(await run('advise', 'call', '--hand', WAITING_ON_F, '--tile', 'F', '--from', 'right', '--worlds', '2', '--json')).toBe(0);
    expect(JSON.parse(out).suggestion).toBe('call F for Mah Jongg');
    out = '';
    expect(await run('advise', 'call', '--hand', WAITING_ON_F, '--tile', 'N', '--worlds', '2')).toBe(0);
    expect(out).toMatch(/^Advice +Let N go: it is your only choice/m);
  });

  it('bad input exits 2 with one line naming the problem', async () => {
    const refused = async (pattern: RegExp, ...args: string[]) => {
      err = '';
      expect(await run('advise', ...args)).toBe(2);
      expect(err).toMatch(pattern);
      expect(err.trim().split('\n')).toHaveLength(1);
    };
    await refused(/^error TM_HAND_SIZE: the hand has 13 tiles; discard advice is for your turn/, 'discard', '--hand', WAITING_ON_F);
    await refused(/^error TM_HAND_SIZE: the hand has 14 tiles; call advice is for a discard/, 'call', '--hand', ONE_AWAY, '--tile', '5B');
    await refused(/^error TM_BAD_INPUT: advise call needs --tile/, 'call', '--hand', WAITING_ON_F);
    await refused(/^error TM_BAD_INPUT: advise discard needs --hand/, 'discard');
    await refused(/^error TM_BAD_TILE: unknown tile "Q"/, 'charleston', '--hand', '1B 2B Q');
    await refused(/^error TM_BAD_INPUT: --direction "up"/, 'charleston', '--hand', ONE_AWAY, '--direction', 'up');
    await refused(/^error TM_BAD_INPUT: a blind pass is allowed only on the first left and the last right/, 'charleston', '--hand', ONE_AWAY, '--direction', 'across', '--blind');
    await refused(/^error TM_BAD_INPUT: --worlds "0"/, 'discard', '--hand', ONE_AWAY, '--worlds', '0');
    await refused(/^error TM_BAD_INPUT: --wall 120: at most 99 tiles/, 'discard', '--hand', ONE_AWAY, '--wall', '120');
    await refused(/^error TM_BAD_INPUT: a discarded joker can never be called/, 'call', '--hand', WAITING_ON_F, '--tile', 'J');
    err = '';
    expect(await run('analyze', '--hand', HAND, '--simulate', '--wall', '200')).toBe(2);
    expect(err).toMatch(/^error TM_BAD_INPUT: --wall 200: at most \d+ tiles/);
  });
});

describe('tilemate advise vote|courtesy', () => {
  it('vote and courtesy print a readable answer, or one JSON object with --json', async () => {
    expect(await run('advise', 'vote', '--hand', WAITING_ON_F, '--json')).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ secondCharleston: false, tilesAwayNow: 1 });
    out = '';
    expect(await run('advise', 'courtesy', '--hand', '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N')).toBe(0);
    expect(out).toMatch(/Offer +(9C N|N 9C)/);
    out = '';
    expect(await run('advise', 'vote')).toBe(2);
    expect(err).toMatch(/TM_BAD_INPUT.*--hand/);
  });
});
