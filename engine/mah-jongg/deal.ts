import type { CompiledCard } from './compile.js';
import { TilemateError } from '../errors.js';
import { nextInt, seedRng, shuffle } from '../rng.js';
import type { Ruleset } from './rulesets.js';
import { KINDS, tilesFromCounts, type TileId } from './tiles.js';
import { type GameState, type Player, copiesOf } from './state.js';
import { startCourtesy } from './charleston.js';

/**
 * A new game: the set shuffled, the walls built and broken, the tiles dealt (teaching guide
 * part 1), and the first step (the Charleston, the courtesy offer, or East's discard). Part of
 * the game (game.ts).
 */

/** A new game, shuffled, walls built and broken, tiles dealt (teaching guide part 1). */
export function newGame(rules: Ruleset, cc: CompiledCard, seed: number): GameState {
  const rng = seedRng(seed);
  const tiles = shuffle(rng, tilesFromCounts(copiesOf(rules)));
  const STACKS = rules.wallStacks;
  if (tiles.length !== 2 * STACKS * (rules.wallOrder.length + 1)) {
    throw new TilemateError('TM_BAD_INPUT', `ruleset ${rules.name}: ${tiles.length} tiles do not fill ${rules.wallOrder.length + 1} walls of ${STACKS} stacks`);
  }
  // Walls of STACKS stacks of two (teaching guide 1.2: four of 19), wall w holding tiles
  // [w*2*STACKS .. (w+1)*2*STACKS - 1], stack i its tiles 2i (top) and 2i + 1.
  const dice = Array.from({ length: rules.dice }, () => 1 + nextInt(rng, 6));
  const breakAt = dice.reduce((a, b) => a + b, 0) % STACKS;
  // East counts the dice from her wall's right end; those stacks are picked last (teaching guide 1.4),
  // or moved to the tail of her first wall (Siamese 4A).
  const stacks: number[] = [];
  const counted: number[] = [];
  for (let i = breakAt; i < STACKS; i++) stacks.push(i);
  for (let i = 0; i < breakAt; i++) counted.push(i);
  if (rules.countedStacks === 'firstWallTail') stacks.push(...counted);
  for (const w of rules.wallOrder) for (let i = 0; i < STACKS; i++) stacks.push(w * STACKS + i);
  if (rules.countedStacks === 'last') stacks.push(...counted);
  const wall: TileId[] = [];
  for (const s of stacks) wall.push(tiles[2 * s], tiles[2 * s + 1]);

  const n = rules.players;
  const players: Player[] = Array.from({ length: n }, () => ({
    concealed: new Array<number>(KINDS).fill(0),
    exposures: [],
    discards: [],
    dead: new Array<boolean>(rules.racks).fill(false),
    mahJonggs: [],
  }));
  // Deal: four at a time in turn order, then the rest one by one; East one more (teaching guide 1.5-1.8).
  let pos = 0;
  for (let dealt = 0; dealt < rules.dealSize; ) {
    const take = Math.min(rules.dealChunk, rules.dealSize - dealt);
    for (const p of players) for (let i = 0; i < take; i++) p.concealed[wall[pos++]]++;
    dealt += take;
  }
  if (rules.eastDealtExtra) players[0].concealed[wall[pos++]]++;

  const state: GameState = {
    rules,
    cc,
    seed,
    rng,
    dice,
    wall,
    wallPos: pos,
    players,
    turn: 0,
    phase: { kind: 'draw' },
    turnSource: { from: 'deal' },
    exchangedFromOther: false,
    discardCount: 0,
    actionCount: 0,
    tableVersion: 0,
    visible: new Array<number>(KINDS).fill(0),
    result: null,
  };
  if (rules.charleston && rules.charleston.first.length > 0) state.phase = { kind: 'charleston', pass: 0, choices: new Array(n).fill(null), eastFirst: false };
  else if (rules.charleston)
    startCourtesy(state); // teaching guide 8: no Charleston at three, the courtesy pass optional
  else if (rules.eastDealtExtra) state.phase = { kind: 'discard' };
  // Siamese 8: East picks the 28th tile to begin (phase 'draw').
  return state;
}
