import { describe, expect, it } from 'vitest';
import { legalActions, newGame, validate, waitingOn } from '../../engine/mah-jongg/game.js';
import { scoreGame } from '../../engine/mah-jongg/scoring.js';
import { nextInt, seedRng, shuffle } from '../../engine/rng.js';
import { loadRuleset, RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { fullSet } from '../../engine/mah-jongg/tiles.js';
import { act, cc, declineAll, lineIndex, passable, table, tile } from './game-helpers.js';

/**
 * Rules to the letter: one scenario per defect found by refereeing self-play
 * against the documents in shared/rules, each built from the document's own words.
 */

// Racks of no use to anyone (odd numbers only), 13 tiles each.
const ODD = '1B 3B 5B 7B 9B 1C 3C 5C 7C 9C 1D 3D 5D';

describe('scoring to the letter', () => {
  // Tournament 11.2: "Add Twenty Points (+20 points) ... when ... there are no Jokers in the hand.
  // Exception: There is no bonus given on any of the hands listed under the Singles - Pairs Group."
  // 2468 #6 `2468a 2468b 22c 44c FF` (c 50) has no pung, but it is listed under 2468, not Singles and Pairs.
  it('tournament 11.2 - a jokerless hand outside the Singles and Pairs section gets the +20, even without a pung', () => {
    const s = table({
      rules: 'nmjl-4p-tournament',
      racks: [ODD, '2B 4B 6B 8B 2C 4C 6C 8C 2D 2D 4D 4D F', ODD, ODD],
      turn: 1,
      phase: { kind: 'draw' },
      wall: 'F',
      discards: ['9D', '', '', ''],
    });
    act(s, { type: 'draw', seat: 1 });
    act(s, { type: 'declare', seat: 1 });
    expect(s.players[1].mahJonggs[0].line).toBe(lineIndex('2468 #6'));
    // 50 for the hand, +10 self-picked (11.1), +20 no jokers (11.2)
    expect(s.result?.scores).toEqual([0, 80, 0, 0]);
  });

  // Tournament 11.5: "-10 ... to a player who throws winning tile to player who has no exposures on rack
  // or who has one (1) exposure on rack." Seat 0 shows FFF and waits on 8C for 2468 #2 `FFF 2468a 4444b 888b`.
  const waitingOn8C = () =>
    table({
      rules: 'nmjl-4p-tournament',
      racks: ['2B 4B 6B 8B 4C 4C 4C 4C 8C 8C', ODD, ODD, '8C 1B 3B 5B 7B 9B 1C 3C 5C 7C 9C 1D 3D 5D'],
      exposures: [{ seat: 0, tiles: 'F F F' }],
      turn: 3,
      discards: ['9D', '', '', ''],
    });

  it('tournament 11.5 - calling the winning tile for a pung and then declaring costs the discarder what calling Mah Jongg on it costs', () => {
    const called = waitingOn8C();
    act(called, { type: 'discard', seat: 3, tile: tile('8C') });
    act(called, { type: 'call', seat: 0, size: 3, jokers: 0 });
    declineAll(called);
    act(called, { type: 'declare', seat: 0 });
    expect(called.players[0].mahJonggs[0].event.exposuresBefore).toBe(1);

    const direct = waitingOn8C();
    act(direct, { type: 'discard', seat: 3, tile: tile('8C') });
    act(direct, { type: 'callMahJongg', seat: 0 });
    declineAll(direct);
    // 25 + 20 (no jokers); the discarder -10: one exposure on the rack when the tile was thrown
    expect(direct.result?.scores).toEqual([45, 0, 0, -10]);
    expect(called.result?.scores).toEqual(direct.result?.scores);
  });

  // Tournament 11.1: "+10 ... when player picks own Mah Jongg"; 4.4 and 11.10: East's 14 tiles
  // ("HEAVENLY HAND") get no bonus for a self-picked Mah Jongg. East's 14 completed by the
  // Charleston and declared before her first discard picked nothing.
  it("tournament 11.1, 11.10 - East's 14 tiles declared before any discard, after the Charleston, get no self-pick bonus", () => {
    const s = table({
      rules: 'nmjl-4p-tournament',
      racks: ['F F 2B WD 2B 6B 2C 2C 2C J 6C 6C 6C 6C', ODD, ODD, ODD],
      turn: 0,
      phase: { kind: 'discard' },
      turnSource: { from: 'deal' },
      discardCount: 0,
      discards: ['', '', '', ''],
    });
    act(s, { type: 'declare', seat: 0 });
    expect(s.players[0].mahJonggs[0].event).toMatchObject({ selfPick: false, heavenly: true, discarder: null });
    expect(s.result?.scores).toEqual([25, 0, 0, 0]);
  });

  // Teaching guide 6.2: "If the winner has no Jokers in her winning hand, she receives double what is
  // owed"; senior games 10: "Jokerless hands pay double." The League card's convention excludes
  // Singles and Pairs; the guide's reading is a ruleset of its own.
  it('social scoring - the guide reading doubles a jokerless Singles and Pairs hand; the default does not', () => {
    const play = (rules: string) => {
      const s = table({ rules, racks: [ODD, ODD, 'F F 2B 2B 4B 4B 6B 6B 8B 8B 2C 2C 4C', '4C 1B 7B 9B 1C 3C 5C 7C 9C 1D 3D 5D 7D 9D'], turn: 3, discards: ['9D', '', '', ''] });
      act(s, { type: 'discard', seat: 3, tile: tile('4C') });
      act(s, { type: 'callMahJongg', seat: 2 });
      declineAll(s);
      expect(s.players[2].mahJonggs[0].line).toBe(lineIndex('Singles and Pairs #2'));
      return s.result?.scores;
    };
    expect(RULESETS['nmjl-4p'].scoring.jokerlessOnSinglesAndPairs).toBe(false);
    expect(play('nmjl-4p')).toEqual([-50, -50, 200, -100]);
    expect(loadRuleset('nmjl-4p-guide').scoring.jokerlessOnSinglesAndPairs).toBe(true);
    expect(play('nmjl-4p-guide')).toEqual([-100, -100, 400, -200]);
  });
});

describe('Siamese to the letter', () => {
  // Siamese 4A: "counts from the Right side of the wall ... Then player moves the counted-stacks of
  // tiles to the TAIL end of the first wall." 4B: "BOTH of East's walls will come out, before using
  // the opponent's walls."
  it("Siamese 4A - the stacks counted off go to the tail of East's first wall, before her second wall", () => {
    for (const seed of [1, 2, 3, 17]) {
      const rng = seedRng(seed);
      const tiles = shuffle(rng, fullSet());
      const die = 1 + nextInt(rng, 6);
      const stacks: number[] = [];
      for (let i = die; i < 19; i++) stacks.push(i);
      for (let i = 0; i < die; i++) stacks.push(i);
      for (const w of [1, 2, 3]) for (let i = 0; i < 19; i++) stacks.push(w * 19 + i);
      const wall = stacks.flatMap((st) => [tiles[2 * st], tiles[2 * st + 1]]);
      const s = newGame(RULESETS['siamese-2p'], cc, seed);
      expect(s.dice).toEqual([die]);
      expect(s.wall).toEqual(wall);
    }
  });

  // docs/records.md: `winners` are the seats that declared Mah Jongg, in order.
  // Seat 1 declares first; seat 0 then makes two Mah Jonggs at once.
  it('records - winners are listed in the order the Mah Jonggs were declared', () => {
    const dots = '2D 2D 4D 4D 4D 6D 6D 6D 6D 8D 8D 8D F F';
    const s = table({
      rules: 'siamese-2p',
      racks: ['2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F 2C 2C 4C 4C 4C 6C 6C 6C 6C 8C 8C F F', `${dots} 1B 1B 1B 9B 9B 9B 3C 3C 3C 3C 7C 7C 7C N`],
      turn: 1,
      phase: { kind: 'discard' },
      wall: '8C',
      discards: ['', ''],
    });
    act(s, { type: 'declare', seat: 1, rack: 0 });
    act(s, { type: 'discard', seat: 1, tile: tile('N') });
    if (s.phase.kind === 'claims') declineAll(s);
    act(s, { type: 'draw', seat: 0 });
    act(s, { type: 'declare', seat: 0, both: true });
    expect(s.phase.kind).toBe('ended');
    expect(s.result?.winners).toEqual([1, 0, 0]);
    expect(s.result?.outcome.mahJonggs.map((e) => e.seat)).toEqual([1, 0, 0]);
  });
});

describe('rules the engine once left out', () => {
  // Tournament 14.4: "If one person does not expose hand, that player gets ten (10) points...
  // everyone else gets 'ZERO' (0) points. If Mah Jongg is called in error and two or more hands
  // are intact, game continues."
  const FALSE_MJ = '1D 1D 1D 3D 3D 3D 4D 4D 4D 5D 5D 6D N E';
  const IDLE = '1B 3B 5B 7B 9B 1C 3C 5C 7C 9C W S GD';
  it('tournament 14.4 - a Mah Jongg in error that leaves one hand intact ends the game: 10 to that hand, zero to the others', () => {
    const s = table({ rules: 'nmjl-3p', racks: [ODD, '2B 4B 6B 8B 2C 4C 6C 8C 2D 4D 6D 8D N', FALSE_MJ], turn: 2, discards: ['9D', '', ''] });
    s.players[1].dead = [true];
    act(s, { type: 'declare', seat: 2 });
    expect(s.phase.kind).toBe('ended');
    expect(s.result).toMatchObject({ winners: [], wallGame: false, scores: [10, 0, 0] });
    expect(s.result?.lines).toContainEqual({ seat: 0, points: 10, why: 'the only hand intact after a Mah Jongg in error (tournament 14.4)' });
  });

  it('tournament 14.4 - with two hands intact the game goes on; social play has no such rule', () => {
    const two = table({ rules: 'nmjl-4p-tournament', racks: [IDLE, IDLE, FALSE_MJ, IDLE], turn: 2, discards: ['9D', '', '', ''] });
    two.players[1].dead = [true];
    act(two, { type: 'declare', seat: 2 });
    expect(two.phase.kind).toBe('draw');
    const social = table({ rules: 'nmjl-4p', racks: [IDLE, IDLE, FALSE_MJ, IDLE], turn: 2, discards: ['9D', '', '', ''] });
    social.players[1].dead = [true];
    social.players[3].dead = [true];
    act(social, { type: 'declare', seat: 2 });
    expect(social.phase.kind).toBe('draw');
    expect(social.turn).toBe(0);
  });

  // Tournament 11.4: "If a game is not completed within designated time, each player receives
  // 'ZERO.' NO POINTS GIVEN. If a player's hand goes 'dead'... player does not get ten points"
  it('tournament 11.4 - time called on an unfinished game: no wall game, every player zero, dead or not', () => {
    const s = table({ rules: 'nmjl-4p-tournament', racks: [ODD, ODD, ODD, ODD], turn: 2, phase: { kind: 'draw' }, discards: ['9D', '', '', ''] });
    s.players[1].dead = [true];
    expect(legalActions(s, 0).some((a) => a.type === 'timeUp')).toBe(false);
    act(s, { type: 'timeUp', seat: 0 });
    expect(s.phase.kind).toBe('ended');
    expect(s.result).toMatchObject({ winners: [], wallGame: false, scores: [0, 0, 0, 0] });
  });

  // Teaching guide 8: "Charleston is omitted, courtesy pass is optional"; 2.4: players across
  // from each other exchange 0-3 tiles, the smaller offer setting how many.
  it('teaching guide 8 - at a table of three the courtesy pass is a ruleset option: East and West exchange, South sits across the empty chair', () => {
    const s = newGame(RULESETS['nmjl-3p-courtesy'], cc, 12);
    expect(s.phase.kind).toBe('courtesy');
    expect(waitingOn(s)).toEqual([0, 2]);
    expect(legalActions(s, 1)).toEqual([]);
    const east = passable(s, 0, 2),
      west = passable(s, 2, 3);
    const before = [s.players[0].concealed.slice(), s.players[2].concealed.slice()];
    act(s, { type: 'courtesy', seat: 0, tiles: east });
    act(s, { type: 'courtesy', seat: 2, tiles: west });
    // two tiles each way: the smaller offer
    expect(s.phase.kind).toBe('discard');
    expect(s.turn).toBe(0);
    const afterPass = (was: number[], gave: number[], got: number[]) => was.map((k, t) => k - gave.filter((x) => x === t).length + got.filter((x) => x === t).length);
    expect(s.players[0].concealed).toEqual(afterPass(before[0], east, west.slice(0, 2)));
    expect(s.players[2].concealed).toEqual(afterPass(before[1], west.slice(0, 2), east));
    expect(newGame(RULESETS['nmjl-3p'], cc, 12).phase.kind).toBe('discard');
  });

  // Siamese rules, Royale notes: "3 - HANDED & 4 - HANDED ROYALE SIAMESE"; "When you play ROYALE
  // SIAMESE with 2 FULL SETS, you are also playing with 4 MORE of EACH suited tile ... (NOT the
  // JOKERS) ... PLUS, earn another +25 Bonus Points"; otherwise "the rules are the same".
  it('Royale Siamese - four players, two sets without jokers, two racks of 27 each, East draws first; +25 on the Siamese score', () => {
    const s = newGame(RULESETS['royale-siamese-4p'], cc, 3);
    validate(s);
    expect(s.wall.length).toBe(2 * 152 - 16);
    expect(s.wall.filter((t) => t === tile('J'))).toHaveLength(0);
    expect(s.wall.filter((t) => t === tile('5C'))).toHaveLength(8);
    expect(s.players.map((p) => p.concealed.reduce((a, b) => a + b, 0))).toEqual([27, 27, 27, 27]);
    expect(s.phase).toEqual({ kind: 'draw' });
    expect(s.dice).toHaveLength(1);
    // a first Mah Jongg on a 25 hand: doubled with no jokers (Siamese 17B), and the Royale +25
    const e = { seat: 2, value: 25, singlesAndPairs: false, jokerless: true, selfPick: true, heavenly: false, discarder: null, exposuresBefore: 0, ordinal: 1, simultaneous: false };
    const { scores, lines } = scoreGame(RULESETS['royale-siamese-4p'].scoring, { players: 4, mahJonggs: [e], wallGame: false, deadHands: [0, 0, 0, 0], racks: 2, lowestValue: 25 });
    expect(scores).toEqual([0, 0, 75, 0]);
    expect(lines).toContainEqual({ seat: 2, points: 25, why: 'no jokers in the hand (Royale Siamese: no jokers)' });
  });
});
