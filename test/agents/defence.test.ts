import { describe, expect, it } from 'vitest';
import { hintFor } from '../../agents/coach/hint.js';
import { deadCalls, exposuresWords, tileSafety, type TileSafety } from '../../agents/mah-jongg/defence.js';
import { GUARDED_HABITS, HeuristicAgent, MEDIUM_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { legalActions, view, type GameState } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { cc, table, tile, type ExposureSetup } from '../engine/game-helpers.js';

/** Seat 0's rating of tile `name` in state s. */
function rating(s: GameState, name: string): TileSafety {
  const r = tileSafety(cc, view(s, 0)).find((x) => x.tile === tile(name));
  if (!r) throw new Error(`${name} is not on seat 0's rack`);
  return r;
}

// Across (seat 2) has exposed a pung of North and a pung of South: on the practice card only
// `NNN 2026a SSS 2026b` and `FF NNN SSS DDDa DDDb` take both, so she wants 2s, 6s, Soaps,
// Flowers and dragons, and with 7 tiles left hidden she is close.
const ACROSS_WINDS: ExposureSetup[] = [
  { seat: 2, tiles: 'N N N' },
  { seat: 2, tiles: 'S S S' },
];
const SEAT0 = '2C 9B 9B 7D 3C 3C 4B 5B 1D 1D 8C 8C E WD';

describe("defence: how safe each discard is, from the seat's view", () => {
  it('a tile whose every other copy is on the table is safe, and the sentence says so', () => {
    const s = table({
      rules: 'nmjl-4p',
      racks: ['N 2B 3B 4B 5B 6B 7B 8B 1C 2C 3C 4C 5C 6C', '1D 2D 3D 4D 5D 6D 7D 8D 9D 1D 2D 3D 4D', '', ''].map(
        (r, i) => r || (i === 2 ? '7C 7C 7C 8C 8C 8C 9C 9C 9C 5D 5D 5D 6D' : 'E E E W W W RD RD RD GD GD GD 6D'),
      ),
      discards: ['', 'N', 'N', 'N'],
    });
    const north = rating(s, 'N');
    expect(north.level).toBe('safe');
    expect(north.why).toBe('North is on the table three times and you hold the last: safe.');
  });

  it('a joker is always safe: a discarded joker can never be picked up (teaching guide 4.9)', () => {
    const s = table({
      rules: 'nmjl-4p',
      racks: ['J 2B 3B 4B 5B 6B 7B 8B 1C 2C 3C 4C 5C 6C', '1D 2D 3D 4D 5D 6D 7D 8D 9D 1D 2D 3D 4D', '7C 7C 7C 8C 8C 8C 9C 9C 9C 5D 5D 5D 6D', 'E E E W W W RD RD RD GD GD GD 6D'],
      exposures: ACROSS_WINDS.map((x) => ({ ...x })),
      discards: ['', '', '', ''],
    });
    expect(rating(s, 'J').level).toBe('safe');
  });

  it('a tile the exposed lines of a close player need is dangerous, named by where she sits and the tile by its name', () => {
    const s = table({
      rules: 'nmjl-4p',
      racks: [SEAT0, '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C', 'E E E W W W RD RD RD GD GD GD 6D'],
      exposures: ACROSS_WINDS,
      discards: ['', '', '', ''],
    });
    const two = rating(s, '2C');
    expect(two.level).toBe('dangerous');
    expect(two.from).toBe(2);
    expect(two.why).toBe('Across has exposed a pung of North and a pung of South and is close: 2 Crak may finish her hand.');
    expect(two.warning).toBe('Across may be waiting for 2 Crak: discard it anyway?');
    // no line with both pungs takes a 9 Bam, a 7 Dot or an East
    for (const name of ['9B', '7D', 'E']) expect(rating(s, name).level, name).not.toBe('dangerous');
    expect(rating(s, '9B').why).toMatch(/^(No exposed hand needs 9 Bam|9 Bam has been thrown before and no exposed hand needs it): safe\.$/);
  });

  it('a tile needed only by lines the table has killed is not dangerous', () => {
    // every 2026 line needs a Soap for each 2026; with three Soaps on the table and the last
    // on this rack, none of those lines is left to Across, and the dragon line needs no 2
    const rack = '2C 9B 9B 7D 3C 3C 4B 5B 1D 1D 8C 8C E WD';
    const open = table({
      rules: 'nmjl-4p',
      racks: [rack, '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C', 'E E E W W W RD RD RD GD GD GD 6D'],
      exposures: ACROSS_WINDS,
      discards: ['', '', '', ''],
    });
    expect(rating(open, '2C').level).toBe('dangerous');
    const killed = table({
      rules: 'nmjl-4p',
      racks: [rack, '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C', 'E E E W W W RD RD RD GD GD GD 6D'],
      exposures: ACROSS_WINDS,
      discards: ['', 'WD WD WD', '', ''],
    });
    expect(rating(killed, '2C').level).not.toBe('dangerous');
  });

  it('reads her discards too (issue 48): a hand she has been throwing the tiles of weighs less, so its tiles drop from dangerous to risky', () => {
    // with both wind pungs Across makes 2026 with winds (2s, 6s and Soaps in two suits) or the
    // dragon line; she has thrown 2 and 6 of Bams and Dots, tiles her 2026 hands would keep
    const s = table({
      rules: 'nmjl-4p',
      racks: ['2C 9B 9B 7D 3C 6C 4B 2D 1D 1D 8C F GD WD', '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C', 'E E E W W W RD RD RD GD GD GD 6D'],
      exposures: ACROSS_WINDS,
      discards: ['', '', '2D 6D 2B 6B', ''],
    });
    const level = (name: string, bare = false) => tileSafety(cc, view(s, 0), { bare }).find((x) => x.tile === tile(name))!.level;
    for (const name of ['2C', '6C', '2D']) {
      expect(level(name, true), name).toBe('dangerous');
      expect(level(name), name).toBe('risky');
    }
    // the dragon line's tiles, which her discards do not turn away from, stay dangerous
    for (const name of ['GD', 'F']) expect(level(name), name).toBe('dangerous');
  });

  it('never reads hidden tiles: the ratings are the same whatever the other racks hold', () => {
    const racksA = [SEAT0, '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C', 'E E E W W W RD RD RD GD GD GD 6D'];
    const racksB = [SEAT0, '2C 2C 2C 6C 6C 6C F F F F WD WD 6B', 'F F 2B', '2D 2D 2D 6D 6D 6D GD GD RD RD 1B 1B 1B'];
    const a = table({ rules: 'nmjl-4p', racks: racksA, exposures: ACROSS_WINDS, wallLeft: 40, seed: 3 });
    const b = table({ rules: 'nmjl-4p', racks: racksB, exposures: ACROSS_WINDS, wallLeft: 40, seed: 3 });
    // the same table: the discards laid by wallLeft are the same only if the wall holds the same tiles, so compare with none
    const noDiscards = (racks: string[]) => table({ rules: 'nmjl-4p', racks, exposures: ACROSS_WINDS, discards: ['', '', '', ''] });
    const va = view(noDiscards(racksA), 0),
      vb = view(noDiscards(racksB), 0);
    expect(tileSafety(cc, va)).toEqual(tileSafety(cc, vb));
    expect(deadCalls(cc, va)).toEqual(deadCalls(cc, vb));
    // and the views those racks give differ in nothing seat 0 may see
    expect(view(a, 0).concealed).toEqual(view(b, 0).concealed);
  });
});

describe('defence: calling a hand dead', () => {
  // Across has exposed a kong of 2 Crak and a kong of 6 Crak: only `FF 2026a 2222b 6666b`
  // takes both, and it needs a pair of Flowers
  const KONGS: ExposureSetup[] = [
    { seat: 2, tiles: '2C 2C 2C 2C' },
    { seat: 2, tiles: '6C 6C 6C 6C' },
  ];
  const racks = [SEAT0.replace('2C', '2B'), '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C 7C F', 'E E E W W W RD RD RD GD GD GD 6D'];

  it('offered when the exposures fit no hand the table still allows, with the reason, and the engine agrees it is legal', () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', 'F F F', 'F F', 'F F'] });
    const calls = deadCalls(cc, view(s, 0));
    expect(calls).toEqual([{ target: 2, rack: 0, text: "Call Across's hand dead: every hand with two kongs of Craks needs Flower as a single or pair, and Flower is on the table seven times." }]);
    expect(legalActions(s, 0)).toContainEqual({ type: 'callDead', seat: 0, target: 2, rack: 0 });
  });

  it('not offered while a hand fitting the exposures can still be made', () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', 'F F F', 'F F', 'F'] });
    expect(deadCalls(cc, view(s, 0))).toEqual([]);
    expect(legalActions(s, 0).some((a) => a.type === 'callDead')).toBe(false);
  });
});

describe('defence: words', () => {
  it('exposures read as a player says them', () => {
    expect(exposuresWords([{ tile: tile('5C'), size: 3, jokers: 0 }])).toBe('a pung of 5 Crak');
    expect(
      exposuresWords([
        { tile: tile('2C'), size: 3, jokers: 1 },
        { tile: tile('6C'), size: 3, jokers: 0 },
      ]),
    ).toBe('two pungs of Craks');
    expect(
      exposuresWords([
        { tile: tile('F'), size: 4, jokers: 0 },
        { tile: tile('N'), size: 3, jokers: 0 },
        { tile: tile('RD'), size: 3, jokers: 0 },
      ]),
    ).toBe('a kong of Flowers, a pung of North and a pung of Red Dragon');
  });
});

describe('defence: the guarded habit', () => {
  it('swaps a dangerous cheapest discard for a safe one worth little more; medium throws it', () => {
    // the Red Dragon and the East are strays for seat 0 (2468 in Bams and Dots), worth nothing
    // to her hand; Across's pungs of North and South want the Red (\`FF NNN SSS DDDa DDDb\`),
    // and medium, with one Red already thrown (fewer unseen), throws it first
    const s = table({
      rules: 'nmjl-4p',
      racks: ['RD E 2B 4B 6B 8B 2B 4B 6B 8B 2D 4D 6D 8D', '1D 3D 5D 7D 9D 1C 3C 5C 7C 9C 1B 3B 5B', '7C 7C 7C', 'E W W W 1C 1C 1C GD GD GD 6D 7D 9B'],
      exposures: ACROSS_WINDS,
      discards: ['', 'RD', '', ''],
    });
    const v = view(s, 0);
    const ratings = tileSafety(cc, v);
    const act = (habits: typeof MEDIUM_HABITS) => new HeuristicAgent(cc, habits, 'h').act({ seat: 0, phase: 'discard', view: () => v, legal: () => legalActions(s, 0), rng: seedRng(1) });
    const medium = act(MEDIUM_HABITS),
      guarded = act(GUARDED_HABITS);
    expect(medium.type).toBe('discard');
    expect(guarded.type).toBe('discard');
    const level = (a: typeof medium) => ratings.find((r) => a.type === 'discard' && r.tile === a.tile)!.level;
    expect(guarded).not.toEqual(medium);
    expect(level(guarded)).not.toBe('dangerous');
    expect(medium).toEqual({ type: 'discard', seat: 0, tile: tile('RD') });
    expect(level(medium)).toBe('dangerous');
  });
});

describe("defence in the coach's hint", () => {
  const KONGS: ExposureSetup[] = [
    { seat: 2, tiles: '2C 2C 2C 2C' },
    { seat: 2, tiles: '6C 6C 6C 6C' },
  ];
  const racks = [SEAT0.replace('2C', '2B'), '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C 7C F', 'E E E W W W RD RD RD GD GD GD 6D'];

  it('at the draw, a hand the table proves dead is the hint: call it dead, with the reason', () => {
    const rack13 = racks[0].split(' ').slice(1).join(' ');
    const s = table({ rules: 'nmjl-4p', racks: [rack13, ...racks.slice(1)], exposures: KONGS, discards: ['', 'F F F', 'F F', 'F F'], phase: { kind: 'draw' } });
    const legal = legalActions(s, 0);
    const h = hintFor(cc, view(s, 0), legal, {});
    expect(h.action).toEqual({ type: 'callDead', seat: 0, target: 2, rack: 0 });
    expect(h.text).toMatch(/^Call Across's hand dead: every hand with two kongs of Craks needs Flower/);
    expect(h.callDead?.action).toEqual(h.action);
  });

  it('at a discard, the hint carries how safe each tile is, and the dead call beside the discard advice', () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', 'F F F', 'F F', 'F F'] });
    const v = view(s, 0);
    const h = hintFor(cc, v, legalActions(s, 0), { worlds: 4 });
    expect(h.action.type).toBe('discard');
    expect(h.defence).toEqual(tileSafety(cc, v));
    expect(h.callDead).toEqual({ action: { type: 'callDead', seat: 0, target: 2, rack: 0 }, text: deadCalls(cc, v)[0].text });
  }, 60_000);
});
