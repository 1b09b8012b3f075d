import { TilemateError } from '../../engine/errors.js';
import { EAST, FLOWER, GREEN, JOKER, NORTH, parseTile, RED, SOAP, SOUTH, suited, WEST, type TileId } from '../../engine/mah-jongg/tiles.js';

/**
 * Tiles as players type them at the terminal: the notation (`3C`, `N`, `WD`) or the names
 * said at the table when a tile is discarded — "3 Bam, 8 Crak, 2 Dot, North, Red Dragon,
 * Soap" (mah-jongg-teaching-guide.txt, part 4.1), with the suits' long names and "Bird Bam"
 * for the 1 Bam (its part 1). "3 crak", "three craks", "3 crack", "green dragon", "soap",
 * "flower", "joker" and "3C 5 dot north" all read. The engine keeps its one notation
 * (engine/mah-jongg/tiles.ts); the words are the terminal's.
 */

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };

/** The suits' names (and the misspellings players type), with their plurals. */
const SUIT_WORDS: Record<string, number> = {};
for (const [suit, words] of [
  [0, ['b', 'bam', 'bams', 'bamboo', 'bamboos', 'boo', 'boos']],
  [1, ['c', 'crak', 'craks', 'crack', 'cracks', 'crac', 'cracs', 'character', 'characters', 'char', 'chars']],
  [2, ['d', 'dot', 'dots', 'circle', 'circles', 'ball', 'balls']],
] as const)
  for (const w of words) SUIT_WORDS[w] = suit;

const WINDS: Record<string, TileId> = { north: NORTH, east: EAST, west: WEST, south: SOUTH };
const HONOURS: Record<string, TileId> = {
  soap: SOAP,
  soaps: SOAP,
  flower: FLOWER,
  flowers: FLOWER,
  joker: JOKER,
  jokers: JOKER,
};
const DRAGON_COLOURS: Record<string, TileId> = { red: RED, green: GREEN, white: SOAP };

/** The longest answer read as tiles: a line of tiles in words is well under this. */
export const MAX_TILE_WORDS = 40;

const HELP = 'type tiles as 3B or 3 bam, 5C or 5 crak, 7D or 7 dot, N or north, RD or red dragon, WD or soap, F or flower, J or joker';

function bad(message: string): never {
  throw new TilemateError('TM_BAD_TILE', message);
}

/** The tiles in an answer, in the order given; a word that names no tile is TM_BAD_TILE naming it. */
export function readTiles(text: string): TileId[] {
  // "3crak" and "3-crak" are "3 crak"; commas and "and" separate like spaces
  const typed = text
    .replace(/\b([1-9])-?([a-z]{2,})\b/gi, '$1 $2')
    .split(/[\s,;]+/)
    .filter((w) => w !== '' && w.toLowerCase() !== 'and');
  const words = typed.map((w) => w.toLowerCase());
  if (words.length > MAX_TILE_WORDS) bad(`that is ${words.length} words; a few tiles are at most ${MAX_TILE_WORDS}`);
  const out: TileId[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    const n = /^[1-9]$/.test(w) ? Number(w) : NUMBERS[w];
    if (n !== undefined) {
      if (next !== undefined && SUIT_WORDS[next] !== undefined) {
        out.push(suited(SUIT_WORDS[next], n));
        i++;
        continue;
      }
      bad(`"${typed[i]}" needs its suit: ${n} bam, ${n} crak or ${n} dot (${n}B, ${n}C or ${n}D)`);
    }
    if (w === 'bird') {
      // the 1 Bam is drawn as a bird (teaching guide, part 1)
      if (next === 'bam' || next === 'bams') i++;
      out.push(suited(0, 1));
      continue;
    }
    if (DRAGON_COLOURS[w] !== undefined) {
      if (next === 'dragon' || next === 'dragons') i++;
      out.push(DRAGON_COLOURS[w]);
      continue;
    }
    if (w === 'dragon' || w === 'dragons') bad(`"${typed[i]}" needs its colour: red dragon, green dragon or white dragon (soap)`);
    if (WINDS[w] !== undefined) {
      if (next === 'wind' || next === 'winds') i++;
      out.push(WINDS[w]);
      continue;
    }
    if (HONOURS[w] !== undefined) {
      out.push(HONOURS[w]);
      continue;
    }
    try {
      out.push(parseTile(w));
    } catch (err) {
      if (!(err instanceof TilemateError)) throw err;
      const shown = typed[i];
      bad(`unknown tile "${shown.length > 20 ? `${shown.slice(0, 20)}...` : shown}" (${HELP})`);
    }
  }
  return out;
}
