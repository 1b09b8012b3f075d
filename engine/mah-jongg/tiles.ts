import { TilemateError } from '../errors.js';

/**
 * Tile ids, as the engine sees them (card-notation.md, "Tiles"):
 *   0..8   Bams 1-9      9..17  Craks 1-9     18..26 Dots 1-9
 *   27..30 winds N E W S
 *   31..33 dragons GD RD WD, ordered so the dragon of suit s is 31 + s
 *          (green goes with Bams, red with Craks, white "Soap" with Dots)
 *   34     flower        35     joker
 * Names such as `5B` appear only at the edges (parse/format).
 */
export type TileId = number;
export type Suit = 0 | 1 | 2;

export const SUITS = ['B', 'C', 'D'] as const;
export const BAM = 0,
  CRAK = 1,
  DOT = 2;
export const NORTH = 27,
  EAST = 28,
  WEST = 29,
  SOUTH = 30;
export const GREEN = 31,
  RED = 32,
  SOAP = 33;
export const FLOWER = 34,
  JOKER = 35;
export const KINDS = 36;
export const SET_SIZE = 152;

export const suited = (suit: number, n: number): TileId => suit * 9 + n - 1;
export const dragonOf = (suit: number): TileId => GREEN + suit;
export const isSuited = (t: TileId): boolean => t < 27;
export const suitOf = (t: TileId): number => (t / 9) | 0;
export const rankOf = (t: TileId): number => (t % 9) + 1;

/** Copies of each kind in the full set: 4 of each suited, wind and dragon tile, 8 flowers, 8 jokers. */
export const COPIES: readonly number[] = Array.from({ length: KINDS }, (_, t) => (t === FLOWER || t === JOKER ? 8 : 4));

export const TILE_NAMES: readonly string[] = [...[0, 1, 2].flatMap((s) => Array.from({ length: 9 }, (_, i) => `${i + 1}${SUITS[s]}`)), 'N', 'E', 'W', 'S', 'GD', 'RD', 'WD', 'F', 'J'];

const ALIASES = new Map<string, TileId>();
TILE_NAMES.forEach((name, t) => ALIASES.set(name.toLowerCase(), t));
for (const [alias, t] of [
  ['north', NORTH],
  ['east', EAST],
  ['west', WEST],
  ['south', SOUTH],
  ['red', RED],
  ['green', GREEN],
  ['soap', SOAP],
  ['white', SOAP],
  ['0', SOAP],
  ['flower', FLOWER],
  ['joker', JOKER],
] as const)
  ALIASES.set(alias, t);

export const tileName = (t: TileId): string => TILE_NAMES[t];

/** A group of one tile by its size, in the game's words (3 to 6 tiles; teaching guide 4.2). */
export const groupName = (size: number): string => (({ 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' }) as Record<number, string>)[size] ?? `group of ${size}`;

/** One tile name (any case, any alias of card-notation.md) to its id. */
export function parseTile(token: string): TileId {
  const t = ALIASES.get(token.toLowerCase());
  if (t === undefined) {
    throw new TilemateError('TM_BAD_TILE', `unknown tile "${token}" (expected 1B..9B, 1C..9C, 1D..9D, N E W S, RD GD WD, F or J)`);
  }
  return t;
}

/** Tiles separated by spaces or commas, in the order given. */
export function parseTiles(text: string): TileId[] {
  const out: TileId[] = [];
  for (const token of text.split(/[\s,]+/)) if (token !== '') out.push(parseTile(token));
  return out;
}

/** Sorted the way a player racks them: suits, winds, dragons, flowers, jokers. */
export function formatTiles(tiles: Iterable<TileId>): string {
  return [...tiles]
    .sort((a, b) => a - b)
    .map(tileName)
    .join(' ');
}

/** Plain counts (length 36) from tiles; refuses more copies than the set holds. */
export function countTiles(tiles: readonly TileId[], what = 'hand'): number[] {
  const counts = new Array<number>(KINDS).fill(0);
  for (const t of tiles) {
    if (++counts[t] > COPIES[t]) {
      throw new TilemateError('TM_TOO_MANY_COPIES', `${what} holds ${countOf(tiles, t)} copies of ${tileName(t)}; the set has ${COPIES[t]}`);
    }
  }
  return counts;
}

function countOf(tiles: readonly TileId[], t: TileId): number {
  let n = 0;
  for (const x of tiles) if (x === t) n++;
  return n;
}

export function tilesFromCounts(counts: ArrayLike<number>): TileId[] {
  const out: TileId[] = [];
  for (let t = 0; t < KINDS; t++) for (let i = 0; i < counts[t]; i++) out.push(t);
  return out;
}

/** Copies of each kind in `sets` full sets, with or without their jokers (Royale Siamese: two sets, no jokers). */
export function setCopies(sets: number, jokers: boolean): number[] {
  return COPIES.map((c, t) => (t === JOKER && !jokers ? 0 : c * sets));
}

/** The full 152-tile set, in id order. */
export function fullSet(): TileId[] {
  return tilesFromCounts(COPIES);
}

/**
 * A group of one tile: a pung (3), kong (4), quint (5) or sextet (6), its natural tiles and
 * `jokers` jokers standing in (an exposure on a rack is one; engine/mah-jongg/game.ts Exposure).
 */
export interface Group {
  tile: TileId;
  size: number;
  jokers: number;
}
