import { describe, expect, it } from 'vitest';
import { awayFrom, lineForms, sampleDraws, soloChance } from '../../agents/chance.js';
import { loadCard } from '../../io/cards.js';
import { COPIES, parseTiles, tilesFromCounts } from '../../engine/tiles.js';
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

describe('the solo model of a hand\'s chances', () => {
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
});
