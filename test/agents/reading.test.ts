import { describe, expect, it } from 'vitest';
import { hintFor } from '../../agents/coach/hint.js';
import { readingWords } from '../../agents/mah-jongg/reading-words.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { legalActions, validate, view } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { fitsForm } from '../../engine/mah-jongg/hand-check.js';
import { readSeat, topFamily } from '../../engine/mah-jongg/reading.js';
import { cc, table, tile, type ExposureSetup } from '../engine/game-helpers.js';

/**
 * Reading the table (issue 48): what an opponent is likely making, from the reader's view
 * alone. Exact where the table decides (her exposures, the tiles gone), weighted by her
 * discards; in words on her turn.
 */

// Across (seat 2) has exposed a kong of 2 Crak and a kong of 6 Crak (test/agents/defence.test.ts)
const KONGS: ExposureSetup[] = [
  { seat: 2, tiles: '2C 2C 2C 2C' },
  { seat: 2, tiles: '6C 6C 6C 6C' },
];
const SEAT0 = '2B 9B 9B 7D 3C 3C 4B 5B 1D 1D 8C 8C E WD';
const racks = [SEAT0, '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', '7C 7C 7C 7C F', 'E E E W W W RD RD RD GD GD GD 6D'];

describe('reading an opponent', () => {
  it('gives chances only to the forms her exposures fit and the table still allows, adding to 1, with what they still need', () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', '', '', ''] });
    const r = readSeat(cc, view(s, 0), 2);
    const shapes = KONGS.map((x) => ({ tile: tile(x.tiles.split(' ')[0]), size: 4, jokers: 0 }));
    let sum = 0;
    r.forms.forEach((p, f) => {
      sum += p;
      if (p > 0) {
        expect(fitsForm(cc, f, shapes)).toBe(true);
        expect(cc.card.lines[cc.formLine[f]].concealed).toBe(false);
      }
    });
    expect(sum).toBeCloseTo(1, 9);
    expect(r.families.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    // the one hand that takes both kongs is a 2026 hand with a pair of Flowers
    expect(topFamily(cc, r)).toEqual({ family: '2026', p: expect.closeTo(1, 9) });
    expect(r.needs[tile('F')]).toBeCloseTo(1, 9);
    expect(r.needs[tile('5D')]).toBe(0);
    expect(r.noLine).toBe(false);
  });

  it("says no line fits once the table has taken what her exposures still need (the dead-hand call's case)", () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', 'F F F', 'F F', 'F F'] });
    const r = readSeat(cc, view(s, 0), 2);
    expect(r.noLine).toBe(true);
    expect(topFamily(cc, r)).toBeNull();
    expect(readingWords(cc, view(s, 0)).find((x) => x.seat === 2)?.text).toBe('No hand on the card fits what Across has shown: her hand may be dead.');
  });

  it('weighs down the hands that need what she threw, and reads the same whoever else looks', () => {
    const quiet = ['4B 5B 7D 1D 2B 3B 8C 8C 9B 9B E W WD 3C', '1D 2D 3D 4D 5D 6D 7D 8D 9D 1B 2B 3B 4D', 'N N S S 2C 4C 6C 8C 1B 3B 5B 7B 9B', 'E E E W W W RD RD RD GD GD GD 6D'];
    const before = table({ rules: 'nmjl-4p', racks: quiet, discards: ['', '', '', ''] });
    const after = table({ rules: 'nmjl-4p', racks: quiet, discards: ['', '', '2D 4D 6D 8D 2D 4D', ''] });
    const fam = cc.card.sections.indexOf('2468');
    const r0 = readSeat(cc, view(before, 0), 2);
    const r1 = readSeat(cc, view(after, 0), 2);
    // she threw evens: the even hands are less likely than before, every form still adding to 1
    expect(r1.families[fam]).toBeLessThan(r0.families[fam]);
    expect(r1.discards).toBe(6);
    // her reading comes from the table, not from the reader's rack: seats 1 and 3 agree with seat 0 on what they all see
    const fromRight = readSeat(cc, view(after, 3), 2);
    expect(fromRight.families.length).toBe(r1.families.length);
    expect(fromRight.noLine).toBe(false);
  });

  it('speaks on her turn, in one sentence an opponent, naming where she sits, how sure, and what she showed', () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', '', '', ''], turn: 0 });
    const words = readingWords(cc, view(s, 0));
    expect(words.map((w) => w.text)).toEqual(['Across is probably making a 2026 hand: she called two kongs of Craks.']);
    const legal = legalActions(s, 0);
    const hint = hintFor(cc, view(s, 0), legal, { worlds: 4 });
    expect(hint.table).toEqual(['Across is probably making a 2026 hand: she called two kongs of Craks.']);
  });
});

describe('worlds that agree with the table', () => {
  it("deal part of an opponent's rack from the hand her reading draws, every world whole and valid; without the reading, as before", () => {
    const s = table({ rules: 'nmjl-4p', racks, exposures: KONGS, discards: ['', '', '', ''], turn: 0 });
    const v = view(s, 0);
    const readings = [0, 1, 2, 3].map((seat) => (seat === 0 ? null : readSeat(cc, v, seat)));
    // every hidden tile of hers a tile the hand she is making still needs (all of them drawn from it), where random worlds seldom are
    const onPlan = (rack: number[]) => rack.every((n, t) => n === 0 || readings[2]!.needs[t] > 0);
    let leaned = 0;
    let plain = 0;
    for (let w = 0; w < 40; w++) {
      const leaning = determinize(v, s.rules, cc, seedRng(w), { readings, share: 1 });
      validate(leaning);
      expect(leaning.players[2].concealed.reduce((a, b) => a + b, 0)).toBe(v.concealedCounts[2]);
      if (onPlan(leaning.players[2].concealed)) leaned++;
      const random = determinize(v, s.rules, cc, seedRng(w));
      validate(random);
      if (onPlan(random.players[2].concealed)) plain++;
    }
    // (a world where too few of its tiles are left unseen fills the rest at random)
    expect(leaned).toBeGreaterThanOrEqual(30);
    expect(plain).toBeLessThan(10);
    // no reading given: the same world as ever, tile for tile
    expect(determinize(v, s.rules, cc, seedRng(7)).players).toEqual(determinize(v, s.rules, cc, seedRng(7), undefined).players);
  });
});
