import { describe, expect, it } from 'vitest';
import { readTiles } from '../../api/cli/tile-words.js';
import { parseTiles, tileName } from '../../engine/mah-jongg/tiles.js';

/** Tiles typed at the terminal as players say them (teaching guide, part 4.1: "3 Bam, 8 Crak, 2 Dot, North, Red Dragon, Soap"). */

const names = (text: string): string => readTiles(text).map(tileName).join(' ');

describe('tiles in words at the terminal', () => {
  it('a number and a suit name one suited tile, in any of the ways players write the suit', () => {
    for (const text of ['3 crak', '3 crack', '3 craks', 'three crak', '3 Crak', '3crak', '3-crak', '3 character', '3 c', '3C']) expect(names(text)).toBe('3C');
    for (const text of ['3 bam', '3 bams', 'three bamboo', '3 boo']) expect(names(text)).toBe('3B');
    for (const text of ['5 dot', '5 dots', 'five dot', '5 circle']) expect(names(text)).toBe('5D');
    expect(names('bird bam')).toBe('1B');
    expect(names('bird')).toBe('1B');
  });

  it('winds, dragons, soap, flower and joker by name', () => {
    expect(names('north east wind West south')).toBe('N E W S');
    expect(names('green dragon red dragon white dragon')).toBe('GD RD WD');
    expect(names('soap green red')).toBe('WD GD RD');
    expect(names('flower joker jokers flowers')).toBe('F J J F');
  });

  it('words and notation mix, separated by spaces, commas or "and"', () => {
    expect(names('3C 5 dot, north and green dragon J')).toBe('3C 5D N GD J');
    expect(names('9b 9B')).toBe('9B 9B');
  });

  it('reads the notation exactly as the engine does', () => {
    const all = '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 9C 1D 9D N E W S RD GD WD F J 0 red green soap white';
    expect(readTiles(all)).toEqual(parseTiles(all));
  });

  it('a number without its suit, a dragon without its colour and an unknown word are refused, naming the word', () => {
    expect(() => readTiles('3')).toThrow('"3" needs its suit: 3 bam, 3 crak or 3 dot (3B, 3C or 3D)');
    expect(() => readTiles('3 north')).toThrow('"3" needs its suit');
    expect(() => readTiles('seven')).toThrow('"seven" needs its suit: 7 bam');
    expect(() => readTiles('dragon')).toThrow('"dragon" needs its colour: red dragon, green dragon or white dragon (soap)');
    expect(() => readTiles('3C Quit')).toThrow('unknown tile "Quit" (type tiles as 3B or 3 bam, 5C or 5 crak');
    try {
      readTiles('9Q');
      expect.unreachable();
    } catch (err) {
      expect((err as { code: string }).code).toBe('TM_BAD_TILE');
    }
  });

  it('a very long answer is refused by its length, not read word by word', () => {
    expect(() => readTiles(Array.from({ length: 41 }, () => 'J').join(' '))).toThrow('that is 41 words; a few tiles are at most 40');
    expect(() => readTiles(`${'x'.repeat(5000)}`)).toThrow(/unknown tile "x{20}\.\.\."/);
  });
});
