import { describe, expect, it } from 'vitest';
import { awayFrom, CHANCE_INPUTS, chanceHand, chanceInputs, lineForms, sampleDraws, soloChance } from '../../agents/mah-jongg/chance.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { loadCard } from '../../io/cards.js';
import { COPIES, JOKER, parseTiles, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';
import { lineIndex } from '../engine/game-helpers.js';

const cc = loadCard();

const counts = (tiles: string): number[] => {
  const c = new Array<number>(COPIES.length).fill(0);
  for (const t of parseTiles(tiles)) c[t]++;
  return c;
};

/** The tiles a seat holding `hand` has not seen, less `gone` (seen on the table). */
const pool = (hand: string, gone = ''): number[] => {
  const left = COPIES.map((n, t) => n - counts(hand)[t] - counts(gone)[t]);
  return tilesFromCounts(left);
};

// 2468 #1 is `22a 444a 6666a 888a FF`: this hand lacks one flower, a pair tile jokers cannot fill
const HAND = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F';
const LINE = lineIndex('2468 #1');

describe("the solo model of a hand's chances", () => {
  it('counts tiles away as the analyzer does', () => {
    expect(awayFrom(lineForms(cc, LINE, []), counts(HAND))).toBe(1);
  });

  it('completes a line only with tiles still unseen: with every other flower on the table, never', () => {
    const lf = lineForms(cc, LINE, []);
    const open = sampleDraws(pool(HAND), 200, 20, 1);
    expect(soloChance(lf, counts(HAND), false, open, 200, 20)).toBeGreaterThan(0.5);
    const gone = sampleDraws(pool(HAND, 'F F F F F F F'), 200, 20, 1);
    expect(soloChance(lf, counts(HAND), false, gone, 200, 20)).toBe(0);
  });

  it('more draws never lower the chance: the same walls, cut shorter', () => {
    const lf = lineForms(cc, LINE, []);
    const long = sampleDraws(pool(HAND), 300, 24, 9);
    const short = sampleDraws(pool(HAND), 300, 6, 9);
    for (let d = 0; d < 300; d++) expect([...short.subarray(d * 6, d * 6 + 6)]).toEqual([...long.subarray(d * 24, d * 24 + 6)]);
    expect(soloChance(lf, counts(HAND), false, long, 300, 24)).toBeGreaterThan(soloChance(lf, counts(HAND), false, short, 300, 6));
  });

  it("the calibration reads the hand's standing among the lines listed with it", () => {
    // two jokers in hand, no exposure of hers, six tiles exposed by the others
    const concealed = counts('2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J');
    const listed = new Analyzer(cc).analyze({ concealed, exposures: [], seen: counts('F F F 5C 5C 5C'), othersExposed: 6, copies: COPIES }, { top: 7 });
    const solos = [0.4, 0.2, 0.1, 0.05, 0, 0.3, 0.3];
    const hand = chanceHand(listed, solos, concealed[JOKER], 0, 6);
    // only the first five listed count
    expect(hand).toEqual({ listed: listed.slice(0, 5).map((r, i) => ({ solo: solos[i], tilesAway: r.tilesAway })), jokers: 2, exposed: false, othersExposed: 6 });
    const closest = Math.min(...listed.slice(0, 5).map((r) => r.tilesAway));
    const near = listed.slice(0, 5).filter((r) => r.tilesAway <= closest + 1).length;
    const line = listed[1];
    const inputs = chanceInputs(0.2, 60, 1, line, hand);
    expect(inputs).toHaveLength(CHANCE_INPUTS);
    // the first eight are the second version's, unchanged
    expect(inputs.slice(0, 8)).toEqual(chanceInputs(0.2, 60, 1, line));
    const z = Math.log(0.2 / 0.8) / 4;
    const groupShare = line.need.length === 0 ? 0 : Math.min(1, line.jokerSlots / line.need.length);
    const others = 0.4 + 0.1 + 0.05 + 0;
    const expected = [others, near / 5, 0.5, 0.5 * groupShare, 0.5, 0, z / 4, z * others, (line.tilesAway - closest) / 4, Math.log(0.4 / 0.6) / 4, z * 0.5, z * z, z * z * z, z * z * 0.6];
    inputs.slice(8).forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
  });
});
