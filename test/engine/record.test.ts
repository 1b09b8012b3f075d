import { describe, expect, it } from 'vitest';
import { TilemateError } from '../../engine/errors.js';
import { apply, newGame, type Action } from '../../engine/mah-jongg/game.js';
import { actionLine, replayRecord } from '../../engine/record.js';
import { MAH_JONGG } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { tileName } from '../../engine/mah-jongg/tiles.js';
import { CARD_TEXT, cc, gameOf, recordGame, text } from './record-games.js';

/** Game records: their lines, and every refusal naming its line; 36 whole games recorded and replayed are test/engine/record.slow.test.ts (slow). */

const sameCard = () => cc;
const replayed = (record: string, cards = sameCard) => replayRecord(record, { type: MAH_JONGG, cards });

function refusal(record: string): string {
  try {
    replayed(record);
  } catch (err) {
    expect(err).toBeInstanceOf(TilemateError);
    expect((err as TilemateError).code).toBe('TM_BAD_RECORD');
    return (err as TilemateError).message;
  }
  throw new Error('the record was accepted');
}

describe('game records', () => {
  const game = recordGame('nmjl-4p', 7, 'greedy');

  it('the header comes first, then numbered actions with tiles by name, then the end', () => {
    const header = JSON.parse(game.lines[0]);
    expect(Object.keys(header)).toEqual(['format', 'version', 'ruleset', 'card', 'seed', 'seats']);
    expect(header).toMatchObject({
      format: 'tilemate-record',
      version: 1,
      ruleset: 'nmjl-4p',
      card: { name: cc.card.name, text: CARD_TEXT },
      seed: 7,
      seats: ['greedy', 'greedy', 'greedy', 'greedy'],
    });
    const k = game.actions.findIndex((a) => a.type === 'discard');
    const discard = game.actions[k] as Extract<Action, { type: 'discard' }>;
    expect(JSON.parse(game.lines[k + 1])).toEqual({ n: k + 1, action: { type: 'discard', seat: discard.seat, tile: tileName(discard.tile) } });
    const pass = JSON.parse(game.lines[1]);
    expect(pass.action.tiles.every((t: unknown) => typeof t === 'string')).toBe(true);
    const end = JSON.parse(game.lines.at(-1)!);
    expect(end).toEqual({ end: { winners: game.state.result!.winners, wallGame: game.state.result!.wallGame, scores: game.state.result!.scores } });
  });

  it('a record cut off mid-line is refused, naming that line', () => {
    const whole = text(game.lines);
    const last = game.lines.length;
    expect(refusal(whole.slice(0, whole.length - 12))).toBe(`record line ${last}: not JSON: the record is cut off here`);
    const mid = game.lines.slice(0, 40).join('\n') + '\n' + game.lines[40].slice(0, 20);
    expect(refusal(mid)).toBe('record line 41: not JSON: the record is cut off here');
  });

  it('a record that stops before its end line is refused: replay is for finished games', () => {
    expect(refusal(text(game.lines.slice(0, 40)))).toBe('record line 40: the record stops before the game ends (replay needs a finished game)');
    expect(refusal(text(game.lines.slice(0, -1)))).toBe(`record line ${game.lines.length - 1}: the game ends here but the end line is missing`);
  });

  it("an edited discard of a tile the seat does not hold is refused with the engine's reason", () => {
    const k = game.actions.findIndex((a, i) => a.type === 'discard' && i > 60);
    const discard = game.actions[k] as Extract<Action, { type: 'discard' }>;
    const before = newGame(loadRuleset('nmjl-4p'), cc, 7);
    for (const a of game.actions.slice(0, k)) apply(before, a);
    const missing = before.players[discard.seat].concealed.findIndex((n) => n === 0);
    const lines = [...game.lines];
    lines[k + 1] = actionLine(gameOf('nmjl-4p'), k + 1, { ...discard, tile: missing });
    expect(refusal(text(lines))).toBe(`record line ${k + 2}: discard refused: seat ${discard.seat} holds no ${tileName(missing)} to discard`);
  });

  it('an unknown version, format or ruleset is refused on line 1', () => {
    const edit = (patch: object) => text([JSON.stringify({ ...JSON.parse(game.lines[0]), ...patch }), ...game.lines.slice(1)]);
    expect(refusal(edit({ version: 2 }))).toBe('record line 1: unknown record version 2 (this reader knows version 1)');
    expect(refusal(edit({ format: 'pgn' }))).toBe('record line 1: not a Tilemate record (format "pgn", expected "tilemate-record" or "tilemate-domino-record")');
    expect(refusal(edit({ ruleset: 'constructor' }))).toMatch(/^record line 1: unknown ruleset "constructor" \(expected one of nmjl-4p, /);
    expect(refusal(edit({ seats: ['random'] }))).toBe('record line 1: expected "seats": 4 names, one per seat');
  });

  it('fields added within a version are ignored', () => {
    const lines = [JSON.stringify({ ...JSON.parse(game.lines[0]), event: 'club night' }), ...game.lines.slice(1)];
    lines[1] = JSON.stringify({ ...JSON.parse(lines[1]), ms: 1200 });
    expect(replayed(text(lines)).actions).toBe(game.actions.length);
  });

  it('a Siamese double Mah Jongg is written with "both", and a wrong "both" is refused', () => {
    expect(JSON.parse(actionLine(gameOf('nmjl-4p'), 9, { type: 'declare', seat: 0, both: true }))).toEqual({ n: 9, action: { type: 'declare', seat: 0, both: true } });
    expect(JSON.parse(actionLine(gameOf('nmjl-4p'), 9, { type: 'callMahJongg', seat: 1, rack: 0 })).action).toEqual({ type: 'callMahJongg', seat: 1, rack: 0 });
    const k = game.actions.length; // the last action: a declaration, a call or a draw
    const lines = [...game.lines];
    lines[k] = JSON.stringify({ n: k, action: { type: 'declare', seat: 0, both: 'yes' } });
    expect(refusal(text(lines))).toBe(`record line ${k + 1}: declare: expected "both" to be true or false, got "yes"`);
  });

  it('an end line that disagrees with the replay is refused', () => {
    const r = game.state.result!;
    const wrong = r.scores.map((x, s) => (s === 0 ? x + 5 : x));
    const lines = [...game.lines.slice(0, -1), JSON.stringify({ end: { winners: r.winners, wallGame: r.wallGame, scores: wrong } })];
    expect(refusal(text(lines))).toBe(`record line ${lines.length}: the end line disagrees with the replay: scores ${JSON.stringify(wrong)}, replayed ${JSON.stringify(r.scores)}`);
  });

  it('actions out of sequence, after the end, or with unknown tiles are refused, naming the line', () => {
    const dropped = [...game.lines];
    dropped.splice(5, 1); // action 5 goes missing
    expect(refusal(text(dropped))).toBe('record line 6: action number 6 is out of sequence (expected 5)');
    const after = [...game.lines, actionLine(gameOf('nmjl-4p'), game.actions.length + 1, { type: 'draw', seat: 0 })];
    expect(refusal(text(after))).toBe(`record line ${after.length}: a line after the end line (line ${game.lines.length})`);
    const early = [...game.lines.slice(0, -1), actionLine(gameOf('nmjl-4p'), game.actions.length + 1, { type: 'draw', seat: 0 }), game.lines.at(-1)!];
    expect(refusal(text(early))).toBe(`record line ${game.lines.length}: an action after the game has ended (at line ${game.lines.length - 1}), where the end line belongs`);
    const k = game.actions.findIndex((a) => a.type === 'discard');
    const badTile = [...game.lines];
    badTile[k + 1] = badTile[k + 1].replace(/"tile":"[^"]+"/, '"tile":"5Q"');
    expect(refusal(text(badTile))).toMatch(new RegExp(`^record line ${k + 2}: discard: unknown tile "5Q"`));
  });
});
