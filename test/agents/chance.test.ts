import { describe, expect, it } from 'vitest';
import { allLineForms, awayFrom, bestChance, lineForms, sampleDraws, soloChance } from '../../agents/chance.js';
import { loadCard } from '../../api/cards.js';
import { COPIES, parseTiles, tilesFromCounts } from '../../engine/tiles.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../../agents/heuristic.js';
import { legalActions, view } from '../../engine/game.js';
import { seedRng } from '../../engine/rng.js';
import { lineIndex, table, tile } from '../engine/game-helpers.js';

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

  it('a hand\'s best line is the one it is likeliest to finish; an exposure rules out the lines it does not fit', () => {
    const drawn = sampleDraws(pool(HAND), 200, 15, 3);
    const best = bestChance(cc, allLineForms(cc, []), counts(HAND), drawn, 200, 15);
    expect(best.line).toBe(LINE);
    expect(best.value).toBe(25);
    // an exposed kong of 5D fits no 2468 line (but `FF 1234a 5555b 6666b`, say)
    const exposed = bestChance(cc, allLineForms(cc, [{ tile: parseTiles('5D')[0], size: 4, jokers: 0 }]), counts('2B 2B 4B 4B 4B 6B 6B 6B F'), drawn, 200, 15);
    expect(exposed.line).toBeGreaterThanOrEqual(0);
    expect(cc.card.lines[exposed.line].id).not.toMatch(/^2468/);
    expect(exposed.chance).toBeLessThan(best.chance);
  });
});

describe('the searching players\' use of it', () => {
  const seen = (live: boolean) => {
    // seat 0 holds the 2468 #1 hand and a stray 9D; the seven other flowers are on the table
    const s = table({ rules: 'nmjl-4p', racks: [`${HAND} 9D`, '1C 1C 1C 2C 2C 2C 3C 3C 3C 5C 5C 5C 7C', '1D 1D 1D 2D 2D 2D 3D 3D 3D 5D 5D 5D 7D', 'N N N E E E W W W S S S RD'], discards: ['', 'F F F F F F F', '', ''] });
    const agent = new HeuristicAgent(cc, { ...MEDIUM_HABITS, live }, 'h');
    return agent.act({ seat: 0, phase: s.phase.kind, view: () => view(s, 0), legal: () => legalActions(s, 0), rng: seedRng(1) });
  };

  it('the live habit gives up a line whose pair can no longer be made; without it the heuristic still waits for the flower', () => {
    expect(seen(false)).toEqual({ type: 'discard', seat: 0, tile: tile('9D') });
    expect(seen(true)).toEqual({ type: 'discard', seat: 0, tile: tile('F') });
  });
});
