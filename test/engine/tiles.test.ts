import { describe, expect, it } from 'vitest';
import { TilemateError } from '../../engine/errors.js';
import { COPIES, countTiles, formatTiles, fullSet, KINDS, parseTile, parseTiles, SET_SIZE, TILE_NAMES } from '../../engine/mah-jongg/tiles.js';

describe('tiles', () => {
  it('the set has 152 tiles: 4 of each suited, wind and dragon tile, 8 flowers, 8 jokers', () => {
    expect(fullSet()).toHaveLength(SET_SIZE);
    expect(SET_SIZE).toBe(152);
    expect(KINDS).toBe(36);
    expect(COPIES.filter((n) => n === 4)).toHaveLength(34);
    expect(COPIES.filter((n) => n === 8)).toHaveLength(2);
  });

  it('every tile name parses back to its id', () => {
    TILE_NAMES.forEach((name, t) => expect(parseTile(name)).toBe(t));
  });

  it('accepts lower case and the aliases of the notation', () => {
    expect(parseTiles('1b 9c 5d n e w s')).toEqual(parseTiles('1B 9C 5D N E W S'));
    expect(parseTiles('north east west south')).toEqual(parseTiles('N E W S'));
    expect(parseTiles('red green soap 0 flower joker')).toEqual(parseTiles('RD GD WD WD F J'));
    expect(parseTiles('1B,2B, 3B ,,4B')).toEqual(parseTiles('1B 2B 3B 4B'));
  });

  it('a token that is not a tile is an error naming it', () => {
    expect(() => parseTiles('1B 10B')).toThrow(/unknown tile "10B"/);
    try {
      parseTiles('ZZ');
    } catch (err) {
      expect((err as TilemateError).code).toBe('TM_BAD_TILE');
    }
  });

  it('more copies than the set holds is an error naming the tile', () => {
    expect(() => countTiles(parseTiles('5B 5B 5B 5B 5B'))).toThrow(/5 copies of 5B; the set has 4/);
    expect(() => countTiles(parseTiles('J J J J J J J J'))).not.toThrow();
    expect(() => countTiles(parseTiles('J J J J J J J J J'))).toThrow(/9 copies of J; the set has 8/);
  });

  it('formats hands in rack order', () => {
    expect(formatTiles(parseTiles('J F RD N 3D 2C 1B'))).toBe('1B 2C 3D N RD F J');
  });
});
