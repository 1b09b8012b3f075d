import { describe, expect, it } from 'vitest';
import { apply, cloneState, countVisible, legalActions, newGame, validate, view, type Action, type GameState, type Phase } from '../../engine/mah-jongg/game.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { loadRuleset, RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { act, cc, counts, declineAll, expectRefused, lineIndex, passAll, passable, table, tile, tiles, total } from './game-helpers.js';

/**
 * The rules engine, one scenario per rule. Rules are cited from /work/shared/rules:
 * the teaching guide ("teaching guide 2.1" = part 2, item 1), the standardized tournament
 * rules ("standardized 4.5") and the Siamese rules ("Siamese 9").
 */

const charleston = (pass = 0, n = 4): Phase => ({ kind: 'charleston', pass, choices: new Array(n).fill(null), eastFirst: false });
const sizeOf = (s: GameState, seat: number): number => total(s.players[seat].concealed);
const minus = (a: readonly number[], b: readonly number[]): number[] => a.map((x, t) => x - b[t]);
const plus = (a: readonly number[], b: readonly number[]): number[] => a.map((x, t) => x + b[t]);

// Racks of no use to anyone, for the seats a scenario does not watch (13 tiles each).
const IDLE_1 = '1B 3B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C 8C';
const IDLE_2 = '1D 2D 3D 4D 5D 7D 8D 9D 1B 3B 4B 5B 9C';
const IDLE_3 = '9C 8C 7C 5C 4C 3C 1C 9B 8B 7B RD GD 9D';

// 2026 #1 `FF 2026a 2222b 6666b` (x 25): Bams for a, Craks for b.
const MJ_2026 = 'F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C 6C';
/** The same hand one 6B short, with a joker in the 2C kong: it wins on a 6B. */
const WAITS_6B = 'F F 2B WD 2B 2C 2C 2C J 6C 6C 6C 6C';
/** Fourteen tiles that make no line of the card. */
const NOT_MAH_JONGG = '1D 1D 1D 3D 3D 3D 4D 4D 4D 5D 5D 6D N E';

describe('the deal', () => {
  it('deal - East is dealt 14 tiles and the others 13; the rest of the 152 stay in the wall', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 11);
    validate(s);
    expect(s.players.map((p) => total(p.concealed))).toEqual([14, 13, 13, 13]);
    expect(s.wall.length - s.wallPos).toBe(152 - 53);
    expect(s.phase.kind).toBe('charleston');
  });

  it('a ruleset is shared, so nothing can change it: loadRuleset hands out the frozen table itself', () => {
    const rules = loadRuleset('nmjl-4p');
    expect(rules).toBe(RULESETS['nmjl-4p']);
    expect(() => {
      (rules as { players: number }).players = 3;
    }).toThrow(TypeError);
    expect(() => {
      (rules.wallOrder as number[]).push(4);
    }).toThrow(TypeError);
    expect(() => {
      (rules.charleston!.first as unknown[]).length = 0;
    }).toThrow(TypeError);
    expect(rules.players).toBe(4);
    expect(loadRuleset('nmjl-4p', { players: 3 })).toMatchObject({ name: 'nmjl-4p', players: 3 });
  });
});

describe('the Charleston (teaching guide part 2, standardized 4)', () => {
  it('charleston - a joker can never be passed', () => {
    const s = table({ rules: 'nmjl-4p', racks: ['J J 2B 2B 3C 3C 4D 4D 5D 6D N E W F', IDLE_1, IDLE_2, IDLE_3], phase: charleston() });
    expectRefused(s, { type: 'pass', seat: 0, tiles: tiles('J 2B 3C') }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'pass', seat: 0, tiles: tiles('J J'), blind: 1 }, 'TM_ILLEGAL_ACTION');
    expect(legalActions(s, 0).some((a) => a.type === 'pass' && a.tiles.includes(JOKER))).toBe(false);
    // the courtesy pass too
    const c = table({ rules: 'nmjl-4p', racks: ['J J 2B 2B 3C 3C 4D 4D 5D 6D N E W F', IDLE_1, IDLE_2, IDLE_3], phase: { kind: 'courtesy', offers: [null, null, null, null] } });
    expectRefused(c, { type: 'courtesy', seat: 0, tiles: tiles('J') }, 'TM_ILLEGAL_ACTION');
    expect(legalActions(c, 0).some((a) => a.type === 'courtesy' && a.tiles.includes(JOKER))).toBe(false);
  });

  it('charleston - a pass is three tiles: two without a blind pass are refused', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 3);
    expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 2), blind: 0 }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 4), blind: 0 }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 2) }, 'TM_ILLEGAL_ACTION');
    act(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 3) });
    // and only once per pass
    expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 3) }, 'TM_NOT_YOUR_TURN');
  });

  it("charleston - a blind pass forwards tiles unseen: the receiver gets the giver's tiles, the forwarder never holds them", () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 7);
    passAll(s); // right
    passAll(s); // across
    // first left (offset 3): seat 2 passes to seat 1, who forwards all three to seat 0 unseen
    expect(s.phase).toMatchObject({ kind: 'charleston', pass: 2 });
    const fromTwo = passable(s, 2, 3);
    const fromZero = passable(s, 0, 3);
    const oneBefore = [...s.players[1].concealed];
    const zeroBefore = [...s.players[0].concealed];
    act(s, { type: 'pass', seat: 1, tiles: [], blind: 3 });
    for (const seat of [0, 2, 3]) act(s, { type: 'pass', seat, tiles: passable(s, seat, 3), blind: 0 });
    expect(s.phase.kind).toBe('vote');
    expect(s.players[1].concealed).toEqual(oneBefore);
    expect(s.players[0].concealed).toEqual(plus(minus(zeroBefore, counts(fromZero)), counts(fromTwo)));
  });

  it('charleston - a partial blind pass: the forwarder passes two of her own and one received tile, and keeps the other two', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 8);
    passAll(s);
    passAll(s);
    const fromTwo = counts(passable(s, 2, 3));
    const ownOne = passable(s, 1, 2);
    const oneBefore = [...s.players[1].concealed];
    const zeroKeeps = minus(s.players[0].concealed, counts(passable(s, 0, 3)));
    act(s, { type: 'pass', seat: 1, tiles: ownOne, blind: 1 });
    for (const seat of [0, 2, 3]) act(s, { type: 'pass', seat, tiles: passable(s, seat, 3) });
    const oneGot = minus(s.players[1].concealed, minus(oneBefore, counts(ownOne)));
    const zeroGot = minus(s.players[0].concealed, zeroKeeps);
    expect(total(oneGot)).toBe(2);
    expect(total(zeroGot)).toBe(3);
    // seat 0 gets seat 1's two tiles and one of seat 2's; seat 1 keeps the other two of seat 2's
    expect(minus(zeroGot, counts(ownOne)).every((x) => x >= 0)).toBe(true);
    expect(plus(oneGot, minus(zeroGot, counts(ownOne)))).toEqual(fromTwo);
  });

  it('charleston - a blind pass is allowed only on the first left and the last right', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 5);
    const blindListed = (st: GameState): boolean => legalActions(st, 1).some((a) => a.type === 'pass' && (a.blind ?? 0) > 0);
    for (const pass of [0, 1]) {
      expect(s.phase).toMatchObject({ kind: 'charleston', pass });
      expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 2), blind: 1 }, 'TM_ILLEGAL_ACTION');
      expect(blindListed(s)).toBe(false);
      expect(view(s, 1).blindAllowed).toBe(false);
      passAll(s);
    }
    expect(blindListed(s)).toBe(true);
    expect(view(s, 1).blindAllowed).toBe(true);
    passAll(s);
    for (let seat = 0; seat < 4; seat++) act(s, { type: 'vote', seat, yes: true });
    for (const pass of [3, 4]) {
      expect(s.phase).toMatchObject({ kind: 'charleston', pass });
      expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 1), blind: 2 }, 'TM_ILLEGAL_ACTION');
      expect(blindListed(s)).toBe(false);
      passAll(s);
    }
    expect(s.phase).toMatchObject({ kind: 'charleston', pass: 5 });
    expect(blindListed(s)).toBe(true);
    act(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 1), blind: 2 });
  });

  it('charleston - when every seat waits on a blind pass, East must pass first from her own tiles (standardized 4.5)', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 9);
    passAll(s);
    passAll(s);
    const eastBefore = [...s.players[0].concealed];
    const threeBefore = [...s.players[3].concealed];
    const ownThree = passable(s, 3, 2);
    for (let seat = 0; seat < 4; seat++) act(s, { type: 'pass', seat, tiles: passable(s, seat, 2), blind: 1 });
    // nobody can go first: East's choice is handed back and she must choose again
    expect(s.phase).toMatchObject({ kind: 'charleston', pass: 2, eastFirst: true });
    expect(view(s, 0).waitingOn).toEqual([0]);
    expect(s.players[0].concealed).toEqual(eastBefore);
    expect(view(s, 0).blindAllowed).toBe(false);
    expect(legalActions(s, 0).every((a) => a.type !== 'pass' || (a.blind ?? 0) === 0)).toBe(true);
    expectRefused(s, { type: 'pass', seat: 0, tiles: passable(s, 0, 2), blind: 1 }, 'TM_ILLEGAL_ACTION');
    const eastGives = passable(s, 0, 3);
    act(s, { type: 'pass', seat: 0, tiles: eastGives });
    expect(s.phase.kind).toBe('vote');
    // East passed left to seat 3, who forwarded one of those tiles unseen and kept two
    const threeGot = minus(s.players[3].concealed, minus(threeBefore, counts(ownThree)));
    expect(total(threeGot)).toBe(2);
    expect(minus(counts(eastGives), threeGot).every((x) => x >= 0)).toBe(true);
  });

  it('charleston - the second Charleston happens only if every player votes yes', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 12);
    passAll(s);
    passAll(s);
    passAll(s);
    expect(s.phase.kind).toBe('vote');
    const yes = cloneState(s);
    for (let seat = 0; seat < 4; seat++) act(yes, { type: 'vote', seat, yes: true });
    expect(yes.phase).toMatchObject({ kind: 'charleston', pass: 3 });
    // once begun, all three passes of the second Charleston are made, and then the courtesy pass
    passAll(yes);
    passAll(yes);
    passAll(yes);
    expect(yes.phase.kind).toBe('courtesy');
    const one = cloneState(s);
    for (let seat = 0; seat < 4; seat++) act(one, { type: 'vote', seat, yes: seat !== 2 });
    expect(one.phase.kind).toBe('courtesy');
    expectRefused(one, { type: 'pass', seat: 0, tiles: passable(one, 0, 3) }, 'TM_ILLEGAL_ACTION');
  });

  it('courtesy - partners across exchange as many tiles as the smaller of their two offers', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 13);
    passAll(s);
    passAll(s);
    passAll(s);
    for (let seat = 0; seat < 4; seat++) act(s, { type: 'vote', seat, yes: false });
    expect(s.phase.kind).toBe('courtesy');
    expectRefused(s, { type: 'courtesy', seat: 0, tiles: passable(s, 0, 4) }, 'TM_ILLEGAL_ACTION');
    const before = s.players.map((p) => [...p.concealed]);
    const offer0 = passable(s, 0, 3),
      offer2 = passable(s, 2, 1);
    act(s, { type: 'courtesy', seat: 0, tiles: offer0 });
    act(s, { type: 'courtesy', seat: 1, tiles: passable(s, 1, 2) });
    act(s, { type: 'courtesy', seat: 2, tiles: offer2 });
    act(s, { type: 'courtesy', seat: 3, tiles: [] });
    // seats 0 and 2 swap one tile; seat 1 offered two to seat 3, who offered none: nothing moves
    expect(s.players[0].concealed).toEqual(plus(minus(before[0], counts(offer0.slice(0, 1))), counts(offer2)));
    expect(s.players[2].concealed).toEqual(plus(minus(before[2], counts(offer2)), counts(offer0.slice(0, 1))));
    expect(s.players[1].concealed).toEqual(before[1]);
    expect(s.players[3].concealed).toEqual(before[3]);
  });
});

describe('play (teaching guide parts 3 and 4)', () => {
  /** A game past its Charleston: every pass made, no second Charleston, no courtesy exchange. */
  function pastCharleston(seed: number): GameState {
    const s = newGame(RULESETS['nmjl-4p'], cc, seed);
    passAll(s);
    passAll(s);
    passAll(s);
    for (let seat = 0; seat < 4; seat++) act(s, { type: 'vote', seat, yes: false });
    for (let seat = 0; seat < 4; seat++) act(s, { type: 'courtesy', seat, tiles: [] });
    return s;
  }

  it('play - East discards first, holding 14 tiles; the others hold 13 and wait', () => {
    const s = pastCharleston(21);
    expect(s.phase.kind).toBe('discard');
    expect(s.turn).toBe(0);
    expect(s.players.map((_, seat) => sizeOf(s, seat))).toEqual([14, 13, 13, 13]);
    expect(legalActions(s, 1)).toEqual([]);
    expectRefused(s, { type: 'discard', seat: 1, tile: passable(s, 1, 1)[0] }, 'TM_NOT_YOUR_TURN');
    expectRefused(s, { type: 'draw', seat: 1 }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'draw', seat: 0 }, 'TM_ILLEGAL_ACTION');
  });

  it('play - a draw then a discard leaves every player 13 tiles at rest', () => {
    const s = pastCharleston(22);
    act(s, { type: 'discard', seat: 0, tile: passable(s, 0, 1)[0] });
    declineAll(s);
    expect(s.phase.kind).toBe('draw');
    expect(s.turn).toBe(1);
    expectRefused(s, { type: 'discard', seat: 1, tile: passable(s, 1, 1)[0] }, 'TM_ILLEGAL_ACTION');
    const wallLeft = s.wall.length - s.wallPos;
    act(s, { type: 'draw', seat: 1 });
    expect(sizeOf(s, 1)).toBe(14);
    expect(s.wall.length - s.wallPos).toBe(wallLeft - 1);
    act(s, { type: 'discard', seat: 1, tile: passable(s, 1, 1)[0] });
    expect(s.players.map((_, seat) => sizeOf(s, seat))).toEqual([13, 13, 13, 13]);
    declineAll(s);
    expect(s.turn).toBe(2);
  });
});

describe('claiming a discard (teaching guide 4.2-4.4, 4.9, 5.6)', () => {
  it('claims - a discarded joker cannot be claimed: no claim window opens', () => {
    const s = table({ rules: 'nmjl-4p', racks: ['J 2B 2B 3C 3C 4D 4D 5D 6D N E W F F', 'J J 1B 3B 4B 5B 7B 8B 9B 1C 3C 4C 5C', IDLE_2, IDLE_3], discards: ['', '9D', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: JOKER });
    expect(s.phase.kind).toBe('draw');
    expect(s.turn).toBe(1);
    expectRefused(s, { type: 'call', seat: 1, size: 3, jokers: 0 }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'callMahJongg', seat: 2 }, 'TM_ILLEGAL_ACTION');
  });

  it('claims - a single or a pair cannot be called; a pung can', () => {
    const s = table({ rules: 'nmjl-4p', racks: ['5B 2B 2B 3C 3C 4D 4D 5D 6D N E W F F', '5B 5B 1C 2C 3C 4C 6C 7C 8C 9C 1D 2D 3D', IDLE_2, IDLE_3], discards: ['9D', '', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: tile('5B') });
    expect(s.phase.kind).toBe('claims');
    expectRefused(s, { type: 'call', seat: 1, size: 2, jokers: 0 }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'call', seat: 1, size: 1, jokers: 0 }, 'TM_ILLEGAL_ACTION');
    const calls = legalActions(s, 1).filter((a) => a.type === 'call');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((a) => a.type === 'call' && a.size >= 3)).toBe(true);
    act(s, { type: 'call', seat: 1, size: 3, jokers: 0 });
  });

  it('claims - a Mah Jongg claim beats a nearer claim for a pung', () => {
    const s = table({ rules: 'nmjl-4p', racks: ['6B 3B 3B 3C 3C 4D 4D 5D 6D N E W F 9B', '6B 6B 1B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C', IDLE_2, WAITS_6B], discards: ['9D', '', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: tile('6B') });
    act(s, { type: 'call', seat: 1, size: 3, jokers: 0 });
    act(s, { type: 'decline', seat: 2 });
    act(s, { type: 'callMahJongg', seat: 3 });
    expect(s.phase.kind).toBe('ended');
    expect(s.result?.winners).toEqual([3]);
    expect(s.players[1].exposures).toEqual([]);
    expect(s.players[3].mahJonggs[0].line).toBe(lineIndex('2026 #1'));
  });

  it('claims - between two Mah Jongg claims the player next in turn after the discarder wins', () => {
    // seat 1 discards 6B; seat 0 (2026 #1) and seat 3 (2026 #3 `NNN 2026a SSS 2026b`) both go out on it: 2, 3, 0
    const s = table({
      rules: 'nmjl-4p',
      racks: [WAITS_6B, '6B 1D 3D 4D 5D 7D 8D 9D 1B 3B 4B 5B 9C 9B', IDLE_3, 'N N N 2B WD 2B S S S 2D WD 2D 6D'],
      turn: 1,
      discards: ['RD', '', '', ''],
    });
    act(s, { type: 'discard', seat: 1, tile: tile('6B') });
    act(s, { type: 'callMahJongg', seat: 0 });
    act(s, { type: 'callMahJongg', seat: 3 });
    act(s, { type: 'decline', seat: 2 });
    expect(s.result?.winners).toEqual([3]);
    expect(s.players[3].mahJonggs[0].line).toBe(lineIndex('2026 #3'));
    expect(s.players[0].mahJonggs).toEqual([]);
  });

  it('claims - between two claims for an exposure the player next in turn after the discarder wins', () => {
    // seat 2 discards; seats 0 and 1 both call: seat 0 comes first (3, 0, 1)
    const s = table({
      rules: 'nmjl-4p',
      racks: ['6B 6B 1B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C', '6B J J 3B 1D 2D 3D 4D 5D 7D 8D 9D 9C', '6B 3C 3C 4D 4D 5D 6D N E W F F 2B 2B', IDLE_3],
      turn: 2,
      discards: ['', '', '9D', ''],
    });
    act(s, { type: 'discard', seat: 2, tile: tile('6B') });
    act(s, { type: 'call', seat: 1, size: 3, jokers: 2 });
    act(s, { type: 'call', seat: 0, size: 3, jokers: 0 });
    act(s, { type: 'decline', seat: 3 });
    expect(s.phase.kind).toBe('discard');
    expect(s.turn).toBe(0);
    expect(s.players[0].exposures).toEqual([{ tile: tile('6B'), size: 3, jokers: 0, rack: 0, exchangeable: true }]);
    expect(s.players[1].exposures).toEqual([]);
    expect(s.players[2].discards).toEqual([tile('9D')]);
    // play continues to the right of the caller: seat 3 loses her turn
    act(s, { type: 'discard', seat: 0, tile: tile('1B') });
    declineAll(s);
    expect(s.turn).toBe(1);
  });

  it('claims - an exposure that fits no exposed line of the card is refused', () => {
    // a quint of green dragons is on no line of the practice card
    const s = table({ rules: 'nmjl-4p', racks: ['GD 3B 3B 3C 3C 4D 4D 5D 6D N E W F F', 'GD GD J J 1B 4B 5B 7B 8B 9B 1C 3C 4C', IDLE_2, IDLE_3], discards: ['9D', '', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: tile('GD') });
    expectRefused(s, { type: 'call', seat: 1, size: 5, jokers: 2 }, 'TM_ILLEGAL_ACTION');
    expect(legalActions(s, 1).some((a) => a.type === 'call' && a.size === 5)).toBe(false);
    act(s, { type: 'call', seat: 1, size: 3, jokers: 0 }); // GGG: Winds and Dragons #2
  });

  it("claims - an exposure must fit one exposed line together with the rack's earlier exposures", () => {
    // NNNN is only on `NNNN EEE WWW SSSS`, which has no pung of 5B
    const s = table({
      rules: 'nmjl-4p',
      racks: ['5B 3B 3B 3C 3C 4D 4D 5D 6D E W F F 2B', '5B 5B 1B 4B 7B 8B 9B 1C 3C', IDLE_2, IDLE_3],
      exposures: [{ seat: 1, tiles: 'N N N N' }],
      discards: ['9D', '', '', ''],
    });
    act(s, { type: 'discard', seat: 0, tile: tile('5B') });
    expectRefused(s, { type: 'call', seat: 1, size: 3, jokers: 0 }, 'TM_ILLEGAL_ACTION');
    expect(legalActions(s, 1).filter((a) => a.type === 'call')).toEqual([]);
  });

  it('claims - jokers may not be exposed toward a line that allows none', () => {
    // a kong of East fits only `FFFF NNN|SSS EEEE|WWWW DDDa` (nojoker)
    const s = table({ rules: 'nmjl-4p', racks: ['E 3B 3B 3C 3C 4D 4D 5D 6D N W F F 2B', 'E E E J 1B 4B 5B 7B 8B 9B 1C 3C 4C', IDLE_2, IDLE_3], discards: ['9D', '', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: tile('E') });
    expectRefused(s, { type: 'call', seat: 1, size: 4, jokers: 1 }, 'TM_ILLEGAL_ACTION');
    act(s, { type: 'call', seat: 1, size: 4, jokers: 0 });
  });

  it('claims - a concealed hand takes a discard only for Mah Jongg', () => {
    // 2026 #5 `2026a NNN|EEE|WWW|SSS 2026b FFF` (c 50), waiting on 6C
    const s = table({ rules: 'nmjl-4p', racks: ['6C 3B 3B 3C 3C 4D 4D 5D 7D E W F 9B S', '2B WD 2B 6B N N N 2C WD 2C F F F', IDLE_1, IDLE_3], discards: ['9D', '', '', ''] });
    act(s, { type: 'discard', seat: 0, tile: tile('6C') });
    expect(legalActions(s, 1).filter((a) => a.type === 'call')).toEqual([]);
    expect(legalActions(s, 1)).toContainEqual({ type: 'callMahJongg', seat: 1, rack: 0 });
    act(s, { type: 'callMahJongg', seat: 1 });
    declineAll(s);
    expect(s.result?.winners).toEqual([1]);
    expect(s.players[1].mahJonggs[0].line).toBe(lineIndex('2026 #5'));
  });
});

describe('joker exchange (teaching guide 4.7, standardized 16)', () => {
  const setup = (): GameState =>
    table({
      rules: 'nmjl-4p',
      racks: ['1B 3B 4B 5B 7B 8B 9B 1C 3C', '2C 1D 2D 3D 4D 5D 7D 8D 9D 5B 9C 9B 8B', '5C 6C 7C 8C 9C 6B 7B RD GD 1D 2D 3D WD', 'N N E E W W S S F F GD GD 5D'],
      exposures: [{ seat: 0, tiles: '2C 2C 2C J' }],
      phase: { kind: 'draw' },
      turn: 1,
      wall: '9D',
      discards: ['RD', '', '', ''],
    });

  it('jokers - an exchange before drawing is refused', () => {
    const s = setup();
    expectRefused(s, { type: 'exchange', seat: 1, owner: 0, exposure: 0 }, 'TM_ILLEGAL_ACTION');
    expect(legalActions(s, 1).some((a) => a.type === 'exchange')).toBe(false);
  });

  it('jokers - after drawing, the player exchanges the matching tile and the joker goes to her rack', () => {
    const s = setup();
    act(s, { type: 'draw', seat: 1 });
    expect(legalActions(s, 1)).toContainEqual({ type: 'exchange', seat: 1, owner: 0, exposure: 0 });
    expectRefused(s, { type: 'exchange', seat: 2, owner: 0, exposure: 0 }, 'TM_NOT_YOUR_TURN');
    const before = [...s.players[1].concealed];
    act(s, { type: 'exchange', seat: 1, owner: 0, exposure: 0 });
    expect(s.players[1].concealed).toEqual(plus(minus(before, counts('2C')), counts('J')));
    expect(s.players[0].exposures[0]).toMatchObject({ tile: tile('2C'), size: 4, jokers: 0 });
    // nothing left to exchange; she still discards to end her turn
    expectRefused(s, { type: 'exchange', seat: 1, owner: 0, exposure: 0 }, 'TM_ILLEGAL_ACTION');
    expect(s.phase.kind).toBe('discard');
    expect(sizeOf(s, 1)).toBe(14);
  });
});

describe('Mah Jongg in error and dead hands (teaching guide 6.3-6.6, standardized 14)', () => {
  it('Mah Jongg in error - a player who declares a hand that is not Mah Jongg is dead and no longer draws', () => {
    const s = table({ rules: 'nmjl-4p', racks: [IDLE_1, NOT_MAH_JONGG, IDLE_2, IDLE_3], turn: 1, discards: ['9D', '', '', ''] });
    expect(legalActions(s, 1).some((a) => a.type === 'declare')).toBe(false);
    act(s, { type: 'declare', seat: 1 });
    expect(s.players[1].dead).toEqual([true]);
    expect(s.phase).toEqual({ kind: 'draw' });
    expect(s.turn).toBe(2);
    for (const seat of [2, 3, 0]) {
      act(s, { type: 'draw', seat });
      act(s, { type: 'discard', seat, tile: passable(s, seat, 1)[0] });
      // the dead player does not answer claims either
      if (s.phase.kind === 'claims') {
        expect(s.phase.responses[1]).toEqual({ type: 'decline' });
        expect(legalActions(s, 1)).toEqual([]);
        declineAll(s);
      }
    }
    // East's discard passes the turn over the dead seat
    expect(s.turn).toBe(2);
    expect(s.phase.kind).toBe('draw');
  });

  it('dead hands - calling a hand dead is refused unless the tiles on the table prove it impossible', () => {
    // seat 1 shows EEEE: only `FFFF NNN|SSS EEEE|WWWW DDDa` (nojoker) is left to her, and it needs three Norths or three Souths
    const racks = [IDLE_1, '1D 2D 3D 4D 5D 7D 8D 9D 9C', '3C 3C 4D 5D 6D GD GD RD RD 2B 2B 6B 6B', IDLE_3];
    const one = table({ rules: 'nmjl-4p', racks, exposures: [{ seat: 1, tiles: 'E E E E' }], discards: ['N N S', '', '', ''], turn: 2, phase: { kind: 'draw' } });
    expect(legalActions(one, 2).some((a) => a.type === 'callDead')).toBe(false);
    expectRefused(one, { type: 'callDead', seat: 2, target: 1 }, 'TM_ILLEGAL_ACTION');
    const two = table({ rules: 'nmjl-4p', racks, exposures: [{ seat: 1, tiles: 'E E E E' }], discards: ['N N S', '', '', 'S'], turn: 2, phase: { kind: 'draw' } });
    expect(legalActions(two, 2)).toContainEqual({ type: 'callDead', seat: 2, target: 1, rack: 0 });
    // only the player on turn may call it
    expectRefused(two, { type: 'callDead', seat: 3, target: 1 }, 'TM_NOT_YOUR_TURN');
    act(two, { type: 'callDead', seat: 2, target: 1 });
    expect(two.players[1].dead).toEqual([true]);
    // her exposure was legitimate: it stays on the table
    expect(two.players[1].exposures[0].exchangeable).toBe(true);
    act(two, { type: 'draw', seat: 2 });
    act(two, { type: 'discard', seat: 2, tile: tile('RD') });
    declineAll(two);
    act(two, { type: 'draw', seat: 3 });
    act(two, { type: 'discard', seat: 3, tile: passable(two, 3, 1)[0] });
    declineAll(two);
    act(two, { type: 'draw', seat: 0 });
    act(two, { type: 'discard', seat: 0, tile: passable(two, 0, 1)[0] });
    declineAll(two);
    expect(two.turn).toBe(2);
  });
});

describe('the end of the game', () => {
  it('wall game - when the wall runs out with no Mah Jongg, nobody wins and the game ends', () => {
    const s = table({ rules: 'nmjl-4p-tournament', racks: [IDLE_1, '1D 2D 3D 4D 5D 7D 8D 9D 9C N E W S', IDLE_2, IDLE_3], wallLeft: 1, wall: 'S', turn: 1, phase: { kind: 'draw' } });
    act(s, { type: 'draw', seat: 1 });
    expect(s.wall.length - s.wallPos).toBe(0);
    act(s, { type: 'discard', seat: 1, tile: tile('S') });
    declineAll(s);
    expect(s.phase.kind).toBe('ended');
    expect(s.result).toMatchObject({ winners: [], wallGame: true });
    // standardized 11.3: ten points to every player in a wall game
    expect(s.result?.scores).toEqual([10, 10, 10, 10]);
    expectRefused(s, { type: 'draw', seat: 2 }, 'TM_GAME_OVER');
  });

  it('wall game - the last discard may still be claimed for Mah Jongg', () => {
    const s = table({ rules: 'nmjl-4p', racks: [IDLE_1, '1D 2D 3D 4D 5D 7D 8D 9D 9C N E W S', WAITS_6B, IDLE_3], wallLeft: 1, wall: '6B', turn: 1, phase: { kind: 'draw' } });
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'discard', seat: 1, tile: tile('6B') });
    act(s, { type: 'callMahJongg', seat: 2 });
    declineAll(s);
    expect(s.result).toMatchObject({ winners: [2], wallGame: false });
  });

  it('heavenly hand - East may declare during the Charleston when her dealt 14 tiles are Mah Jongg; no self-pick bonus (standardized 4.4, 11.10)', () => {
    const s = table({ rules: 'nmjl-4p-tournament', racks: [MJ_2026, IDLE_1, IDLE_2, IDLE_3], phase: charleston(), turnSource: { from: 'deal' }, discardCount: 0 });
    expect(legalActions(s, 0)).toContainEqual({ type: 'declare', seat: 0 });
    expectRefused(s, { type: 'declare', seat: 1 }, 'TM_ILLEGAL_ACTION');
    act(s, { type: 'declare', seat: 0 });
    expect(s.phase.kind).toBe('ended');
    expect(s.result?.winners).toEqual([0]);
    expect(s.players[0].mahJonggs[0].event).toMatchObject({ heavenly: true, jokerless: true, discarder: null });
    // 25 for the hand and 20 for no jokers (11.2); nothing for self-picking (11.10)
    expect(s.result?.scores).toEqual([45, 0, 0, 0]);
    expect(s.result?.lines.some((l) => l.points === 10)).toBe(false);
  });

  it('heavenly hand - once East has passed, or when her tiles are not Mah Jongg, she may not declare', () => {
    const s = table({ rules: 'nmjl-4p', racks: [MJ_2026, IDLE_1, IDLE_2, IDLE_3], phase: charleston(), turnSource: { from: 'deal' }, discardCount: 0 });
    act(s, { type: 'pass', seat: 0, tiles: tiles('F 2B WD') });
    expectRefused(s, { type: 'declare', seat: 0 }, 'TM_ILLEGAL_ACTION');
    const t = table({ rules: 'nmjl-4p', racks: [NOT_MAH_JONGG, IDLE_1, IDLE_2, IDLE_3], phase: charleston(), turnSource: { from: 'deal' }, discardCount: 0 });
    expect(legalActions(t, 0).some((a) => a.type === 'declare')).toBe(false);
    expectRefused(t, { type: 'declare', seat: 0 }, 'TM_ILLEGAL_ACTION');
  });
});

describe('three players (teaching guide part 8, standardized 4.3)', () => {
  it('3 players - no Charleston; East holds 14 and the other two 13; there is no fourth rack', () => {
    const s = newGame(RULESETS['nmjl-3p'], cc, 31);
    validate(s);
    expect(s.players).toHaveLength(3);
    expect(s.players.map((p) => total(p.concealed))).toEqual([14, 13, 13]);
    expect(s.wall.length - s.wallPos).toBe(152 - 40);
    expect(view(s, 1).concealedCounts).toEqual([14, 13, 13]);
    expect(s.phase.kind).toBe('discard');
    expectRefused(s, { type: 'pass', seat: 1, tiles: passable(s, 1, 3) }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'draw', seat: 3 }, 'TM_ILLEGAL_ACTION');
    // play goes round the three seats
    const order: number[] = [];
    for (let i = 0; i < 4; i++) {
      if (s.phase.kind === 'draw') act(s, { type: 'draw', seat: s.turn });
      order.push(s.turn);
      act(s, { type: 'discard', seat: s.turn, tile: passable(s, s.turn, 1)[0] });
      if (s.phase.kind === 'claims') declineAll(s);
    }
    expect(order).toEqual([0, 1, 2, 0]);
  });
});

describe('Siamese Mah Jongg (Siamese rules 1-18)', () => {
  it('siamese - 27 tiles each, no Charleston, and East begins by drawing her 28th tile', () => {
    const s = newGame(RULESETS['siamese-2p'], cc, 41);
    validate(s);
    expect(s.players.map((p) => total(p.concealed))).toEqual([27, 27]);
    expect(s.wall.length - s.wallPos).toBe(152 - 54);
    expect(s.phase).toEqual({ kind: 'draw' });
    expect(s.turn).toBe(0);
    expectRefused(s, { type: 'pass', seat: 0, tiles: passable(s, 0, 3) }, 'TM_ILLEGAL_ACTION');
    expectRefused(s, { type: 'discard', seat: 0, tile: passable(s, 0, 1)[0] }, 'TM_ILLEGAL_ACTION');
    act(s, { type: 'draw', seat: 0 });
    expect(sizeOf(s, 0)).toBe(28);
    act(s, { type: 'discard', seat: 0, tile: passable(s, 0, 1)[0] });
    if (s.phase.kind === 'claims') declineAll(s);
    expect(s.turn).toBe(1);
    expect(s.players.map((_, seat) => sizeOf(s, seat))).toEqual([27, 27]);
  });

  // Seat 0 holds 2026 #1 complete (jokerless) and Winds and Dragons #5 `NNN|EEE|WWW|SSS DDDDa DDDDb DDDc`
  // (x 35) one South short, and a spare 9D.
  const TWO_HANDS = `${MJ_2026} S S GD GD GD GD RD RD RD RD WD WD WD 9D`;
  const OPPONENT = '1B 3B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C 8C 1D 2D 3D 4D 5D 7D 8D 9C 9B 8B 7B N E S';
  // Both hands complete: 28 tiles that make two Mah Jonggs at once.
  const BOTH_HANDS = `${MJ_2026} S S S GD GD GD GD RD RD RD RD WD WD WD`;
  const OPPONENT_NO_S = '1B 3B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C 8C 1D 2D 3D 4D 5D 7D 8D 9C 9B 8B 7B N E 9D';

  it('siamese - two Mah Jonggs end the game; the second is doubled and its discarder pays 25 (Siamese 14, 17B-E)', () => {
    const s = table({ rules: 'siamese-2p', racks: [TWO_HANDS, OPPONENT], wall: '1D', discards: ['', '9D'] });
    act(s, { type: 'declare', seat: 0, rack: 0 });
    expect(s.phase.kind).toBe('discard');
    expect(s.players[0].mahJonggs.map((m) => m.line)).toEqual([lineIndex('2026 #1')]);
    expect(sizeOf(s, 0)).toBe(14);
    act(s, { type: 'discard', seat: 0, tile: tile('9D') });
    declineAll(s);
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'discard', seat: 1, tile: tile('S') });
    act(s, { type: 'callMahJongg', seat: 0, rack: 1 });
    expect(s.phase.kind).toBe('ended');
    expect(s.result?.winners).toEqual([0, 0]);
    // 25 x 2 (no jokers); then 35 x 2 (second) x 2 (no jokers); the discarder of the second: -25
    expect(s.result?.scores).toEqual([50 + 140, -25]);
  });

  it('siamese - two Mah Jonggs declared at once are each doubled (Siamese 17D)', () => {
    const s = table({ rules: 'siamese-2p', racks: [BOTH_HANDS, OPPONENT_NO_S], discards: ['', ''] });
    expect(legalActions(s, 0)).toContainEqual({ type: 'declare', seat: 0, both: true });
    act(s, { type: 'declare', seat: 0, both: true });
    expect(s.phase.kind).toBe('ended');
    // 25 x 2 x 2 and 35 x 2 x 2
    expect(s.result?.scores).toEqual([100 + 140, 0]);
  });

  it('siamese - jokers in an exposed Mah Jongg cannot be exchanged (Siamese 9, 10C)', () => {
    const s = table({
      rules: 'siamese-2p',
      racks: ['F F 2B WD 2B 6B 6C 6C 6C 6C 1D 3D 5D 7D 9D N E W S RD GD 1B 3B 5B', '2C 1C 3C 4C 5C 7C 8C 9C 2D 4D 6D 8D 9B 8B 7B 6B 4B N E W S RD GD 1D 3D 5D 7D'],
      exposures: [{ seat: 0, tiles: '2C 2C 2C J', rack: 0 }],
      wall: '9C',
      discards: ['', ''],
    });
    // had she not declared, her opponent could have taken the joker
    const c = cloneState(s);
    act(c, { type: 'discard', seat: 0, tile: tile('1D') });
    declineAll(c);
    act(c, { type: 'draw', seat: 1 });
    expect(legalActions(c, 1)).toContainEqual({ type: 'exchange', seat: 1, owner: 0, exposure: 0 });
    act(s, { type: 'declare', seat: 0, rack: 0 });
    expect(s.players[0].exposures[0].exchangeable).toBe(false);
    act(s, { type: 'discard', seat: 0, tile: tile('1D') });
    declineAll(s);
    act(s, { type: 'draw', seat: 1 });
    expect(legalActions(s, 1).some((a) => a.type === 'exchange')).toBe(false);
    expectRefused(s, { type: 'exchange', seat: 1, owner: 0, exposure: 0 }, 'TM_ILLEGAL_ACTION');
  });

  it("siamese - a player dead on both hands ends the game and scores minus four times the card's lowest value (Siamese 12)", () => {
    const s = table({ rules: 'siamese-2p', racks: ['F F 2B WD 2B 6B 2C 2C 2C 3D 6C 6C 6C 6C S S GD GD GD GD RD RD RD RD WD WD WD 9D', OPPONENT], discards: ['', '9D'] });
    act(s, { type: 'declare', seat: 0, both: true });
    expect(s.players[0].dead).toEqual([true, true]);
    expect(s.phase.kind).toBe('ended');
    expect(s.result?.wallGame).toBe(false);
    expect(s.result?.scores).toEqual([-4 * 25, 0]);
  });

  it('siamese - two Mah Jonggs declared when only one is there: that one stands, the other rack is dead, and the opponent plays on alone (Siamese 10E, 13)', () => {
    const s = table({ rules: 'siamese-2p', racks: [TWO_HANDS, OPPONENT], wall: '1D 3C', discards: ['', '9D'] });
    act(s, { type: 'declare', seat: 0, both: true });
    expect(s.players[0].mahJonggs.map((m) => m.line)).toEqual([lineIndex('2026 #1')]);
    expect(s.players[0].dead).toEqual([false, true]);
    expect(s.phase).toEqual({ kind: 'draw' });
    expect(s.turn).toBe(1);
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'discard', seat: 1, tile: tile('1D') });
    // nobody is left to claim it: she draws again
    expect(s.phase).toEqual({ kind: 'draw' });
    expect(s.turn).toBe(1);
  });

  it('siamese - a Mah Jongg in error kills that rack only: the player discards and plays on with the other (Siamese 11A, 18)', () => {
    const s = table({ rules: 'siamese-2p', racks: [`F F 2B WD 2B 6B 2C 2C 2C 3D 6C 6C 6C 6C S S GD GD GD GD RD RD RD RD WD WD WD 9D`, OPPONENT], wall: '1D 3C', discards: ['', '9D'] });
    act(s, { type: 'declare', seat: 0, rack: 0 });
    expect(s.players[0].dead).toEqual([true, false]);
    // 28 tiles on her racks: she must discard to end her turn, and keep 27 at rest
    expect(s.phase.kind).toBe('discard');
    expect(s.turn).toBe(0);
    act(s, { type: 'discard', seat: 0, tile: tile('9D') });
    declineAll(s);
    expect(s.players.map((_, seat) => sizeOf(s, seat))).toEqual([27, 27]);
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'discard', seat: 1, tile: tile('1D') });
    declineAll(s);
    act(s, { type: 'draw', seat: 0 }); // validates: 28 tiles on her turn, not 29
    expect(sizeOf(s, 0)).toBe(28);
  });
});

describe('scoring a whole game, per ruleset', () => {
  /** Seat 2 discards `discard` and seat 0 (concealed `east` and `exposures`) claims it for Mah Jongg. */
  function discardToEast(rules: string, east: string, exposures: { seat: number; tiles: string }[] = [], discard = '6B', others = [IDLE_1, IDLE_3]): GameState {
    const s = table({ rules, racks: [east, others[0], `${discard} 3C 3C 4D 4D 5D 6D 7D N E W 9D 8D 1D`, others[1]], exposures, turn: 2, discards: ['RD', 'RD', 'RD', ''] });
    act(s, { type: 'discard', seat: 2, tile: tile(discard) });
    act(s, { type: 'decline', seat: 3 });
    act(s, { type: 'callMahJongg', seat: 0 });
    act(s, { type: 'decline', seat: 1 });
    expect(s.result?.winners).toEqual([0]);
    return s;
  }

  it('social scoring - the discarder of the winning tile pays double, the others the card value (teaching guide 6.2)', () => {
    const s = discardToEast('nmjl-4p', WAITS_6B);
    expect(s.result?.scores).toEqual([100, -25, -50, -25]);
  });

  it('social scoring - a self-picked Mah Jongg is paid double by every player', () => {
    const s = table({ rules: 'nmjl-4p', racks: [IDLE_1, WAITS_6B, IDLE_2, IDLE_3], turn: 1, phase: { kind: 'draw' }, wall: '6B', discards: ['RD', '', '', ''] });
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'declare', seat: 1 });
    expect(s.result?.scores).toEqual([-50, 150, -50, -50]);
  });

  it('social scoring - a dead hand still pays the winner (teaching guide 6.3)', () => {
    const s = table({ rules: 'nmjl-4p', racks: [IDLE_1, NOT_MAH_JONGG, WAITS_6B, IDLE_3], turn: 1, wall: '6B', discards: ['RD', '', '', ''] });
    act(s, { type: 'declare', seat: 1 });
    expect(s.players[1].dead).toEqual([true]);
    act(s, { type: 'draw', seat: 2 });
    act(s, { type: 'declare', seat: 2 });
    expect(s.result?.scores).toEqual([-50, -50, 150, -50]);
  });

  it('tournament scoring - the discarder loses 10 to a winner with no exposures (standardized 11.5)', () => {
    const s = discardToEast('nmjl-4p-tournament', WAITS_6B);
    expect(s.result?.scores).toEqual([25, 0, -10, 0]);
  });

  it('tournament scoring - the discarder loses 20 to a winner with two exposures (standardized 11.6)', () => {
    const s = discardToEast('nmjl-4p-tournament', 'F F 2B WD 2B', [
      { seat: 0, tiles: '2C 2C 2C J' },
      { seat: 0, tiles: '6C 6C 6C 6C' },
    ]);
    expect(s.players[0].mahJonggs[0].event.exposuresBefore).toBe(2);
    expect(s.result?.scores).toEqual([25, 0, -20, 0]);
  });

  it('tournament scoring - the discarder loses 25 to a winner with three exposures (standardized 11.7)', () => {
    // 2468 #2 `FFF 2468a 4444b 888b` (x 25) with FFF, 4444C and 888C (one joker) exposed, waiting on 8B
    const others = ['1B 3B 5B 7B 9B 1D 2D 3D 5D 7D 9D GD GD', '9C 7C 5C 3C 1C 9B 7B 5B RD GD WD N S'];
    const s = discardToEast(
      'nmjl-4p-tournament',
      '2B 4B 6B',
      [
        { seat: 0, tiles: 'F F F' },
        { seat: 0, tiles: '4C 4C 4C 4C' },
        { seat: 0, tiles: '8C 8C J' },
      ],
      '8B',
      others,
    );
    expect(s.players[0].mahJonggs[0].line).toBe(lineIndex('2468 #2'));
    expect(s.result?.scores).toEqual([25, 0, -25, 0]);
  });

  it("tournament scoring - a Mah Jongg made with a joker taken from another's exposure after a claim is self-picked (standardized 10.2, 11.1)", () => {
    // seat 1 calls 6C for a kong with a joker, takes seat 3's joker for her 3D, and has 2222C
    const s = table({
      rules: 'nmjl-4p-tournament',
      racks: ['6C 3B 3B 3C 4C 4D 5D 6D N E W F 9D 8D', 'F F 2B WD 2B 6B 2C 2C 2C 6C 6C J 3D', '1D 2D 5D 7D 8D 9D 1B 3B 4B 5B 9C 9B 8B', 'N N E E W W S S 1C RD'],
      exposures: [{ seat: 3, tiles: '3D 3D J' }],
      discards: ['RD', '', '', ''],
    });
    act(s, { type: 'discard', seat: 0, tile: tile('6C') });
    act(s, { type: 'call', seat: 1, size: 4, jokers: 1 });
    act(s, { type: 'decline', seat: 2 });
    act(s, { type: 'decline', seat: 3 });
    act(s, { type: 'exchange', seat: 1, owner: 3, exposure: 0 });
    expect(legalActions(s, 1)).toContainEqual({ type: 'declare', seat: 1, rack: 0 });
    act(s, { type: 'declare', seat: 1 });
    expect(s.players[1].mahJonggs[0].event).toMatchObject({ selfPick: true, discarder: null });
    // 25 + 10 for self-picking; nobody pays a discarder's penalty
    expect(s.result?.scores).toEqual([0, 35, 0, 0]);
  });

  it('tournament scoring - in a wall game a dead player scores -10 and the others +10 (standardized 11.3, 11.8)', () => {
    const s = table({
      rules: 'nmjl-4p-tournament',
      racks: [IDLE_1, '1D 2D 3D 4D 5D 7D 8D 9D 9C N E W S', '2B 2B 2B 3D 3D 3D GD GD RD 6B 5B 6C N E', IDLE_3],
      wallLeft: 1,
      turn: 2,
      discards: ['', '', '', ''],
    });
    act(s, { type: 'declare', seat: 2 }); // Mah Jongg in error: dead
    act(s, { type: 'draw', seat: 3 });
    act(s, { type: 'discard', seat: 3, tile: passable(s, 3, 1)[0] });
    declineAll(s);
    expect(s.result?.wallGame).toBe(true);
    expect(s.result?.scores).toEqual([10, 10, -10, 10]);
  });

  it('3-player tournament scoring - the discarder of the winning tile loses 10', () => {
    const s = table({ rules: 'nmjl-3p', racks: [IDLE_1, `6B ${IDLE_2}`, WAITS_6B], turn: 1, discards: ['RD', '', ''] });
    act(s, { type: 'discard', seat: 1, tile: tile('6B') });
    act(s, { type: 'callMahJongg', seat: 2 });
    act(s, { type: 'decline', seat: 0 });
    expect(s.result?.winners).toEqual([2]);
    expect(s.result?.scores).toEqual([0, -10, 25]);
  });
});

describe('copies and replays', () => {
  it('cloneState - a copy plays on without touching the original', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 51);
    const before = JSON.stringify({ ...s, cc: null });
    const c = cloneState(s);
    passAll(c);
    passAll(c);
    expect(JSON.stringify({ ...s, cc: null })).toBe(before);
  });

  it('apply - a refused action changes nothing, whatever is wrong with it', () => {
    const s = newGame(RULESETS['nmjl-4p'], cc, 52);
    const bad: Action[] = [
      { type: 'pass', seat: 7, tiles: passable(s, 0, 3) },
      { type: 'pass', seat: 0, tiles: [99, 1, 2] },
      { type: 'pass', seat: 0, tiles: passable(s, 0, 3), blind: -1 },
      { type: 'discard', seat: 0, tile: 0 },
      { type: 'callDead', seat: 0, target: 0 },
    ];
    for (const a of bad) expectRefused(s, a, 'TM_ILLEGAL_ACTION');
    expect(() => apply(s, { type: 'vote', seat: 0, yes: true })).toThrow(/no vote/);
  });

  it('a hand proved dead comes back when a joker is exchanged out of its exposure, however the jokers on the table add up', () => {
    // an exposure without jokers fits a line that takes none: the proof must be made again
    const card = compileCard(parseCard('[Test]\nNNNN EEEE WWWW SS ; x 25\nNNNN 1111a 2222a 33a ; x 25 nojoker a=B\n'));
    const s = newGame(RULESETS['nmjl-4p'], card, 1);
    s.phase = { kind: 'discard' };
    s.turn = 0;
    s.players[1].exposures = [{ tile: tile('N'), size: 4, jokers: 1, rack: 0, exchangeable: true }];
    s.players[2].discards = tiles('S S S S'); // the first line's pair can no longer be had
    s.visible = countVisible(s);
    s.tableVersion++;
    // with a joker in it the kong fits only the first line, which the table rules out
    expect(legalActions(s, 0)).toContainEqual({ type: 'callDead', seat: 0, target: 1, rack: 0 });
    // seat 3 exchanges a North for the joker and another joker is thrown: as many jokers in sight as before
    s.players[1].exposures[0].jokers = 0;
    s.players[3].discards = [JOKER];
    s.visible = countVisible(s);
    s.tableVersion += 2;
    const listed = legalActions(s, 0);
    expect(listed).toEqual(legalActions(cloneState(s), 0));
    expect(listed.some((a) => a.type === 'callDead')).toBe(false);
  });
});
