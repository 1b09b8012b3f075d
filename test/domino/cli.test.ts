import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MEXICAN_TRAIN_CLI } from '../../api/cli/domino-cli.js';
import { playGame } from '../../api/cli/game-commands.js';
import { MEXICAN_TRAIN } from '../../engine/domino/mexican-train.js';
import { replayRecord } from '../../engine/record.js';
import { captureOutput, run } from '../api/capture.js';

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
const tmp = () => mkdtempSync(join(tmpdir(), 'tilemate-domino-'));

const STATE = JSON.stringify({ players: 4, trains: { 0: '12-5', mexican: '12-1' }, marked: [2], handCounts: [6, 8, 9, 10] });

describe('tilemate domino selfplay', () => {
  it('--json prints one object with games, rounds, wins and mean pips left, per seat', async () => {
    for (const [ruleset, players] of [
      ['sun-lakes', '2'],
      ['district', '5'],
      ['sun-lakes', '8'],
    ]) {
      out = '';
      expect(await run('domino', 'selfplay', '--ruleset', ruleset, '--players', players, '--games', '3', '--seed', '5', '--bots', 'greedy,random', '--json')).toBe(0);
      expect(out.trim().split('\n')).toHaveLength(1);
      const doc = JSON.parse(out);
      expect(Object.keys(doc).slice(0, 4)).toEqual(['games', 'rounds', 'wins', 'meanPipsLeft']);
      expect(doc.games).toBe(3);
      expect(doc.rounds).toBe(18); // six rounds a game in both rulesets
      expect(doc.wins).toHaveLength(Number(players));
      expect(doc.meanPipsLeft).toHaveLength(Number(players));
      expect(doc.wins.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThanOrEqual(3); // ties count for each
    }
    expect(err).toBe('');
  });
  it('--out writes a record per game, and domino replay checks it', async () => {
    const dir = tmp();
    expect(await run('domino', 'selfplay', '--players', '3', '--games', '2', '--seed', '9', '--bots', 'greedy', '--out', dir, '--json')).toBe(0);
    const summary = JSON.parse(out);
    expect(readdirSync(dir).sort()).toEqual(['domino-10.jsonl', 'domino-9.jsonl']);
    const rep = replayRecord(readFileSync(join(dir, 'domino-9.jsonl'), 'utf8'), { type: MEXICAN_TRAIN });
    expect(rep.state.rounds).toHaveLength(6);
    out = '';
    expect(await run('domino', 'replay', join(dir, 'domino-9.jsonl'), '--json')).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ ok: true, game: 'mexican-train', scores: rep.state.result!.totals });
    expect(summary.games).toBe(2);
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, readFileSync(join(dir, 'domino-9.jsonl'), 'utf8').slice(0, 500));
    expect(await run('domino', 'replay', cut)).toBe(2);
    expect(err).toMatch(/^error TM_BAD_RECORD: record line \d+/);
  });
  it('refuses an unknown bot, ruleset or player count with exit code 2', async () => {
    expect(await run('domino', 'selfplay', '--bots', 'clever')).toBe(2);
    expect(err).toMatch(/TM_BAD_INPUT: unknown Mexican Train bot "clever"/);
    err = '';
    expect(await run('domino', 'selfplay', '--ruleset', 'nmjl-4p')).toBe(2);
    expect(err).toMatch(/no Mexican Train ruleset "nmjl-4p"/);
    err = '';
    expect(await run('domino', 'arena', '--players', '9', '--seats', 'greedy')).toBe(2);
    expect(err).toMatch(/2 to 8 players/);
  });
});

describe('tilemate domino arena', () => {
  it('--json prints deals, games and per-agent win share with a 95% interval', async () => {
    expect(await run('domino', 'arena', '--players', '2', '--seats', 'greedy,random', '--games', '6', '--seed', '3', '--threads', '1', '--json')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc).toMatchObject({ deals: 6, games: 12 });
    expect(doc.results.map((r: { agent: string }) => r.agent)).toEqual(['greedy', 'random']);
    for (const r of doc.results) {
      expect(r.ci95[0]).toBeLessThanOrEqual(r.winShare);
      expect(r.ci95[1]).toBeGreaterThanOrEqual(r.winShare);
    }
    // duplicate deals: every round has exactly one whole win between the seats
    expect(doc.results.reduce((a: number, r: { winShare: number }) => a + r.winShare, 0)).toBeCloseTo(1, 6);
  });
});

describe('tilemate domino advise', () => {
  it('suggests a play and the planned path for your own train', async () => {
    expect(await run('domino', 'advise', '--hand', '5-3 3-3 3-9 9-1 11-11 0-4', '--state', STATE, '--json')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.suggest).toEqual({ type: 'play', seat: 0, tile: '5-3', train: 0 });
    expect(doc.path).toEqual(['5-3', '3-3', '9-3', '9-1']);
    expect(doc.ownEnd).toBe(5);
  });
  it('with --worlds values every legal play by playouts, the suggestion the best of them', async () => {
    expect(await run('domino', 'advise', '--hand', '5-3 3-3 3-9 9-1 11-11 0-4', '--state', STATE, '--worlds', '8', '--json')).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.candidates.map((c: { action: { tile: string } }) => c.action.tile).sort()).toEqual(['5-3', '9-1']);
    expect(doc.suggest).toEqual(doc.candidates[0].action);
  });
  it('with nothing to play, says draw', async () => {
    expect(await run('domino', 'advise', '--hand', '5-3 3-3', '--state', '{"players":3,"trains":{"0":"12-4"}}')).toBe(0);
    expect(out).toMatch(/Suggest  draw/);
  });
  it('a tile seen twice, a bad tile or a malformed state is refused with its code', async () => {
    expect(await run('domino', 'advise', '--hand', '12-5 4-4', '--state', STATE)).toBe(2);
    expect(err).toMatch(/TM_DUPLICATE_TILE: 12-5/);
    err = '';
    expect(await run('domino', 'advise', '--hand', '13-5', '--state', STATE)).toBe(2);
    expect(err).toMatch(/TM_BAD_TILE/);
    err = '';
    expect(await run('domino', 'advise', '--hand', '1-5', '--state', '{"players":4,')).toBe(2);
    expect(err).toMatch(/TM_BAD_INPUT: --state is not JSON/);
    err = '';
    expect(await run('domino', 'advise', '--hand', '1-5', '--state', '{"players":4,"trains":{"0":"11-5"}}')).toBe(2);
    expect(err).toMatch(/does not match the 12/);
  });
});

describe('tilemate domino play', () => {
  it('a person plays by number against bots to the end of a round, and the record replays', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (c) => {
      text += String(c);
    });
    input.end(Array.from({ length: 200 }, () => '1').join('\n') + '\n');
    const { state, record } = await playGame(MEXICAN_TRAIN_CLI, { ruleset: 'district', players: 3, seed: 12, bots: 'greedy', seat: 1, round: 0 }, { input, output });
    expect(state.phase).toBe('ended');
    expect(text).toMatch(/You are seat 1/);
    expect(text).toMatch(/game over: totals/);
    expect(replayRecord(record, { type: MEXICAN_TRAIN }).state.result).toEqual(state.result);
  });
  it('a refused answer is asked again with the reason', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (c) => {
      text += String(c);
    });
    input.end(['0-0 mexican', 'hello', ...Array.from({ length: 200 }, () => '1')].join('\n') + '\n');
    await playGame(MEXICAN_TRAIN_CLI, { ruleset: 'sun-lakes', players: 2, seed: 3, bots: 'random', seat: 0, round: 2 }, { input, output });
    expect(text).toMatch(/refused: /);
  });
});

describe('tilemate domino play: help and quit', () => {
  it('"help" lists what can be typed at this question (numbers, a domino and a train, draw); "quit" leaves, keeping the game so far', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (c) => {
      text += String(c);
    });
    input.end('help\nhint\nDRAW\nquit\nnever read\n');
    const { state, record, end } = await playGame(MEXICAN_TRAIN_CLI, { ruleset: 'sun-lakes', players: 2, seed: 3, bots: 'random', seat: 0, round: 2 }, { input, output });
    expect(end).toBe('quit');
    expect(state.phase).not.toBe('ended');
    expect(text).toContain('type "hint" for advice; "help" lists what you can type and "quit" leaves the game');
    // the hint: the move the advice suggests, and the plan for her own train, as the page says it
    expect(text).toMatch(
      /> hint: (play \d+-\d+ on (your train|the Mexican train|seat \d's train)|draw a domino: nothing in your hand fits)\. (Plan for your train, from its open \d+: (\d+-\d+ ?)+ \(\d+ domino(es)?\); dominoes off this path are best played on other trains|None of your dominoes can start a path from your train's open \d+ yet)\.\n/,
    );
    expect(text).toMatch(
      /You can type:\n {2}a number from 1 to \d+: that choice from the list\n {2}a domino and a train: "\d+-\d+ mexican", "\d+-\d+ 1" \(seat 1's train\), or "\d+-\d+" for your own train\n(  draw: take a domino from the boneyard\n)? {2}hint: advice for this move\n {2}quit: leave the game\n {2}help: this list\n/,
    );
    // "DRAW" is read as draw whatever its case: refused only by the rules (a tile plays), never as unknown
    expect(text).not.toMatch(/refused: .*DRAW/);
    expect(record.trim().split('\n').length).toBeGreaterThanOrEqual(1);
  });
});

describe('tilemate domino tournament', () => {
  it('plays qualifying tables, sends the lowest of each to the championship, and places the two lowest totals', async () => {
    expect(await run('domino', 'tournament', '--tables', '3', '--players', '3', '--bots', 'greedy', '--seed', '2', '--json')).toBe(0);
    const r = JSON.parse(out);
    expect(r.qualifying).toHaveLength(3);
    for (const t of r.qualifying) {
      const low = Math.min(...t.totals);
      expect(r.advancers.filter((a: string) => t.players.includes(a))).toEqual(t.players.filter((_: string, i: number) => t.totals[i] === low));
    }
    for (const s of r.standings) expect(s.total).toBe(s.qualifying + s.championship);
    expect(r.places).toEqual(r.standings.slice(0, 2));
    expect(r.standings.map((s: { total: number }) => s.total)).toEqual([...r.standings.map((s: { total: number }) => s.total)].sort((a, b) => a - b));
  });
  it('district rules have no tournament format', async () => {
    expect(await run('domino', 'tournament', '--ruleset', 'district')).toBe(2);
    expect(err).toMatch(/no tournament format/);
  });
});
