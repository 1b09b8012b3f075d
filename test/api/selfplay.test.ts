import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../agents/mah-jongg/levels.js';
import { captureOutput, run } from './capture.js';
import { playGame } from '../../api/cli/game-commands.js';
import { MAH_JONGG_CLI } from '../../api/cli/mah-jongg-cli.js';
import { replayRecord } from '../../engine/record.js';
import { MAH_JONGG } from '../../engine/mah-jongg/mah-jongg.js';

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
const tmp = () => mkdtempSync(join(tmpdir(), 'tilemate-'));

describe('tilemate selfplay', () => {
  it('--json prints exactly one object with the documented names, and the games add up', async () => {
    for (const ruleset of ['nmjl-4p', 'nmjl-3p', 'siamese-2p']) {
      out = '';
      expect(await run('selfplay', '--ruleset', ruleset, '--games', '6', '--seed', '40', '--bots', 'greedy', '--json')).toBe(0);
      expect(out.endsWith('\n')).toBe(true);
      expect(out.trim().split('\n')).toHaveLength(1);
      const doc = JSON.parse(out);
      expect(Object.keys(doc)).toEqual(['games', 'wins', 'wallGames', 'deadHandGames', 'meanTurns', 'meanScore', 'ruleset', 'mahJonggsByLine']);
      const players = ruleset === 'nmjl-4p' ? 4 : ruleset === 'nmjl-3p' ? 3 : 2;
      expect(doc).toMatchObject({ games: 6, ruleset });
      expect(doc.wins).toHaveLength(players);
      expect(doc.meanScore).toHaveLength(players);
      // a game is won by the first seat to declare; Siamese games can also end with a player dead on both racks
      expect(doc.wins.reduce((a: number, b: number) => a + b, 0) + doc.wallGames + doc.deadHandGames).toBe(6);
      expect(doc.meanTurns).toBeGreaterThan(0);
    }
    expect(err).toBe(''); // no progress line: stderr is not a terminal here
  });

  it('--out writes one record per game, each of which replay accepts', async () => {
    const dir = tmp();
    expect(await run('selfplay', '--games', '4', '--seed', '7', '--bots', 'greedy,random,random,greedy', '--out', dir, '--json')).toBe(0);
    const summary = JSON.parse(out);
    expect(readdirSync(dir).sort()).toEqual(['game-10.jsonl', 'game-7.jsonl', 'game-8.jsonl', 'game-9.jsonl']);
    const wins = [0, 0, 0, 0];
    for (const seed of [7, 8, 9, 10]) {
      out = '';
      expect(await run('replay', join(dir, `game-${seed}.jsonl`), '--json')).toBe(0);
      const doc = JSON.parse(out);
      expect(Object.keys(doc)).toEqual(['ok', 'game', 'actions', 'winners', 'scores']);
      expect(doc).toMatchObject({ ok: true, game: 'mah-jongg' });
      if (doc.winners.length > 0) wins[doc.winners[0]]++;
      expect(JSON.parse(readFileSync(join(dir, `game-${seed}.jsonl`), 'utf8').split('\n')[0]).seats).toEqual(['greedy', 'random', 'random', 'greedy']);
    }
    expect(wins).toEqual(summary.wins);
  });

  it('the same seed gives the same games, summary and records', async () => {
    const a = tmp(),
      b = tmp();
    await run('selfplay', '--games', '3', '--seed', '11', '--out', a, '--json');
    const first = out;
    out = '';
    await run('selfplay', '--games', '3', '--seed', '11', '--out', b, '--json');
    expect(out).toBe(first);
    for (const f of readdirSync(a)) expect(readFileSync(join(b, f), 'utf8')).toBe(readFileSync(join(a, f), 'utf8'));
    out = '';
    await run('selfplay', '--games', '3', '--seed', '11');
    expect(out).toMatch(/^nmjl-4p: 3 games \(seeds 11-13\)/);
  });

  it('an unknown ruleset or bot exits 2 with one line naming it', async () => {
    expect(await run('selfplay', '--ruleset', 'nmjl-5p')).toBe(2);
    expect(err).toMatch(/^error TM_BAD_INPUT: unknown ruleset "nmjl-5p" \(expected one of nmjl-4p, [^\n]*\)\n$/);
    err = '';
    expect(await run('selfplay', '--bots', 'random,smart,random,random')).toBe(2);
    expect(err).toBe(`error TM_BAD_INPUT: unknown bot "smart" (expected one of ${AGENT_NAMES.join(', ')})\n`);
    err = '';
    expect(await run('selfplay', '--bots', 'random,random,random,random,random')).toBe(2);
    expect(err).toBe('error TM_BAD_INPUT: --bots lists 5 bots for 4 seats (give one name, one per seat, or a shorter list to repeat round the table)\n');
  });
});

describe('tilemate replay', () => {
  it('prints the outcome as text; a bad record exits 2 with one line naming its line', async () => {
    const dir = tmp();
    await run('selfplay', '--seed', '5', '--out', dir, '--json');
    out = '';
    const file = join(dir, 'game-5.jsonl');
    expect(await run('replay', file)).toBe(0);
    expect(out).toMatch(/game-5\.jsonl: \d+ actions replayed and checked \(nmjl-4p, seed 5, card Tilemate Practice Card 2026\)\n/);
    expect(out).toMatch(/\nscores seat 0 \(random\) -?\d+/);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, lines.slice(0, 30).join('\n') + '\n' + lines[30].slice(0, 15));
    expect(await run('replay', file, '--json')).toBe(2);
    expect(err).toBe('error TM_BAD_RECORD: record line 31: not JSON: the record is cut off here\n');
    err = '';
    expect(await run('replay', join(dir, 'missing.jsonl'))).toBe(2);
    expect(err).toMatch(/^error TM_FILE: cannot read record file .*missing\.jsonl: no such file\n$/);
  });
});

/**
 * Plays a game through `play` with a bot-like person answering on a pipe: the first listed
 * choice every time, the first three non-joker tiles in the Charleston, nothing in the
 * courtesy pass. The first Charleston answer is a refused one, to see it asked again.
 */
async function pipedGame(ruleset: string, seed: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '',
    pending = '',
    prompts = 0,
    refusedOnce = false;
  output.on('data', (chunk) => {
    shown += String(chunk);
    pending += String(chunk);
    if (!pending.endsWith('> ')) return;
    if (++prompts > 5000) throw new Error('the game does not end');
    let answer = '1';
    if (pending.includes('Charleston pass')) {
      const rack = shown
        .split('\n')
        .filter((l) => l.startsWith('your rack'))
        .at(-1)!;
      const tiles = /^your rack +(.*?) +\(\d+\)$/
        .exec(rack)![1]
        .split(' ')
        .filter((t) => t !== 'J');
      answer = refusedOnce ? tiles.slice(0, 3).join(' ') : 'J 9Q';
      refusedOnce = true;
    } else if (pending.includes('Courtesy pass')) {
      answer = '';
    }
    pending = '';
    input.write(answer + '\n');
  });
  const result = await playGame(MAH_JONGG_CLI, { ruleset, seed, bots: 'random', seat: 1 }, { input, output });
  return { ...result, shown, prompts };
}

describe('tilemate play', () => {
  it('a person answering on a pipe plays a game to its end; the game is a record that replays', async () => {
    const { state, record, shown, prompts } = await pipedGame('nmjl-4p', 3);
    expect(state.phase.kind).toBe('ended');
    expect(prompts).toBeGreaterThan(10);
    expect(shown).toMatch(/^nmjl-4p: .* Seed 3, card Tilemate Practice Card 2026\.\nYou sit South; Left \(East\) random, Right \(West\) random, Across \(North\) random\.\n/);
    expect(shown).toContain('refused: unknown tile "9Q"');
    // the other seats are named from hers (Right, Across, Left), never by number
    expect(shown).not.toMatch(/\bseat \d/i);
    expect(shown).toMatch(/your rack +(\S+ )+ \(14\)/);
    expect(shown).toMatch(/Game over with \d+ tiles? left in the wall\.\nscores +Left \(random\) -?\d+ \| you -?\d+ \| Right \(random\) -?\d+ \| Across \(random\) -?\d+/);
    const replay = replayRecord(record, { type: MAH_JONGG });
    expect(replay.header.seats).toEqual(['random', 'human', 'random', 'random']);
    expect(replay.state.result).toEqual(state.result);
  });

  it("a refused choice is asked again with the engine's reason", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => {
      shown += String(chunk);
    });
    input.end('J J J\n'); // then the input ends before the game does
    await expect(playGame(MAH_JONGG_CLI, { ruleset: 'nmjl-4p', seed: 3, bots: 'random', seat: 0 }, { input, output })).rejects.toThrow('the input ended before the game did');
    expect(shown).toContain('refused: a joker can never be passed\nCharleston pass 1, to the right:');
  });

  it('plays the rulesets without a Charleston too', async () => {
    for (const ruleset of ['nmjl-3p', 'siamese-2p']) {
      const { state } = await pipedGame(ruleset, 8);
      expect(state.phase.kind).toBe('ended');
    }
  });
});
