import { expect } from 'vitest';
import { loadCard } from '../../io/cards.js';
import { TilemateError, type ErrorCode } from '../../engine/errors.js';
import { apply, countVisible, newGame, validate, type Action, type Exposure, type GameState, type Phase } from '../../engine/mah-jongg/game.js';
import { seedRng, shuffle } from '../../engine/rng.js';
import { RULESETS, type Ruleset } from '../../engine/mah-jongg/rulesets.js';
import { COPIES, JOKER, KINDS, parseTiles, tileName, type TileId } from '../../engine/mah-jongg/tiles.js';

/**
 * Shared helpers for the rules-engine tests: the practice card, tiles by name, tables set up
 * with chosen racks (every one of the 152 tiles still accounted for, so validate() holds),
 * and checks that an action is refused without changing anything.
 */

export const cc = loadCard();

/** Tiles by name, e.g. `tiles('F F 2B WD')`. */
export const tiles = (names: string): TileId[] => parseTiles(names);

/** Counts per kind of the named tiles. */
export function counts(names: string | readonly TileId[]): number[] {
  const c = new Array<number>(KINDS).fill(0);
  for (const t of typeof names === 'string' ? tiles(names) : names) c[t]++;
  return c;
}

export const tile = (name: string): TileId => tiles(name)[0];
export const total = (c: readonly number[]): number => c.reduce((a, b) => a + b, 0);
export const namesOf = (c: readonly number[]): string => c.flatMap((n, t) => new Array<string>(n).fill(tileName(t))).join(' ');

/** The card line's index by its id, e.g. `lineIndex('2026 #1')`. */
export function lineIndex(id: string): number {
  const i = cc.card.lines.findIndex((l) => l.id === id);
  if (i < 0) throw new Error(`no line ${id} on the practice card`);
  return i;
}

export interface ExposureSetup {
  seat: number;
  /** The exposure's tiles by name, jokers included: `'2C 2C 2C J'` is a kong of 2C with one joker. */
  tiles: string;
  rack?: number;
  exchangeable?: boolean;
}

export interface TableSetup {
  rules: Ruleset | string;
  /** Concealed tiles per seat, by name. */
  racks: string[];
  exposures?: ExposureSetup[];
  /** Discards per seat, by name. */
  discards?: string[];
  /** The next tiles to be picked from the wall, in order. */
  wall?: string;
  /** Tiles left in the wall; the rest of the set goes to the discards (default: everything left). */
  wallLeft?: number;
  phase?: Phase;
  turn?: number;
  turnSource?: GameState['turnSource'];
  /** Discards made so far (0 lets East's Mah Jongg count as a heavenly hand); default the discards on the table. */
  discardCount?: number;
  seed?: number;
}

/**
 * A table dealt with chosen racks: starts from newGame and overwrites the racks, exposures,
 * discards and wall, the rest of the set shuffled into the wall. Validates before returning.
 */
export function table(setup: TableSetup): GameState {
  const rules = typeof setup.rules === 'string' ? RULESETS[setup.rules] : setup.rules;
  const state = newGame(rules, cc, setup.seed ?? 1);
  const n = rules.players;
  if (setup.racks.length !== n) throw new Error(`${setup.racks.length} racks for ${n} players`);
  const left = [...COPIES];
  const take = (ts: readonly TileId[], what: string): TileId[] => {
    for (const t of ts) if (--left[t] < 0) throw new Error(`${what}: more ${tileName(t)} than the set holds`);
    return [...ts];
  };
  state.players.forEach((p, s) => {
    p.concealed = counts(take(tiles(setup.racks[s]), `seat ${s}'s rack`));
    p.exposures = [];
    p.discards = take(tiles(setup.discards?.[s] ?? ''), `seat ${s}'s discards`);
    p.dead = new Array<boolean>(rules.racks).fill(false);
    p.mahJonggs = [];
  });
  for (const x of setup.exposures ?? []) {
    const ts = take(tiles(x.tiles), `seat ${x.seat}'s exposure`);
    const natural = ts.filter((t) => t !== JOKER);
    if (natural.length === 0 || natural.some((t) => t !== natural[0])) throw new Error(`exposure ${x.tiles} is not one tile with jokers`);
    const e: Exposure = { tile: natural[0], size: ts.length, jokers: ts.length - natural.length, rack: x.rack ?? 0, exchangeable: x.exchangeable ?? true };
    state.players[x.seat].exposures.push(e);
  }
  const front = take(tiles(setup.wall ?? ''), 'the wall');
  const rest: TileId[] = [];
  left.forEach((k, t) => {
    for (let i = 0; i < k; i++) rest.push(t);
  });
  shuffle(seedRng(setup.seed ?? 1), rest);
  let wall = [...front, ...rest];
  if (setup.wallLeft !== undefined) {
    if (setup.wallLeft < front.length) throw new Error('wallLeft is shorter than the chosen wall');
    const overflow = wall.slice(setup.wallLeft);
    wall = wall.slice(0, setup.wallLeft);
    // tiles already played: on the table as discards, spread over the seats
    overflow.forEach((t, i) => state.players[i % n].discards.unshift(t));
  }
  state.wall = wall;
  state.wallPos = 0;
  state.turn = setup.turn ?? 0;
  state.phase = setup.phase ?? { kind: 'discard' };
  state.turnSource = setup.turnSource ?? { from: 'wall' };
  state.exchangedFromOther = false;
  state.discardCount = setup.discardCount ?? state.players.reduce((a, p) => a + p.discards.length, 0);
  state.result = null;
  state.visible = countVisible(state); // the table was laid by hand: count what it shows
  validate(state);
  return state;
}

/** The parts of a state an action may change, as text, to prove a refused action changed nothing. */
export const snapshot = (s: GameState): string =>
  JSON.stringify({ players: s.players, phase: s.phase, wallPos: s.wallPos, turn: s.turn, turnSource: s.turnSource, result: s.result, actionCount: s.actionCount });

/** The TilemateError code an action is refused with, or null when it is accepted. */
export function refusal(state: GameState, action: Action): ErrorCode | null {
  try {
    apply(state, action);
    return null;
  } catch (err) {
    if (err instanceof TilemateError) return err.code;
    throw err;
  }
}

/** Asserts the action is refused with `code` and the state is exactly as it was. */
export function expectRefused(state: GameState, action: Action, code: ErrorCode): void {
  const before = snapshot(state);
  expect(refusal(state, action), JSON.stringify(action)).toBe(code);
  expect(snapshot(state)).toBe(before);
  validate(state);
}

/** Applies and validates. */
export function act(state: GameState, action: Action): void {
  apply(state, action);
  validate(state);
}

/** Every seat still to answer a claim declines. */
export function declineAll(state: GameState): void {
  const ph = state.phase;
  if (ph.kind !== 'claims') throw new Error(`no claim open (phase ${ph.kind})`);
  ph.responses.forEach((r, s) => {
    if (r === null) act(state, { type: 'decline', seat: s });
  });
}

/** The first k tiles a seat may pass (never a joker), lowest ids first. */
export function passable(state: GameState, seat: number, k: number): TileId[] {
  const out: TileId[] = [];
  const c = state.players[seat].concealed;
  for (let t = 0; t < JOKER && out.length < k; t++) for (let i = 0; i < c[t] && out.length < k; i++) out.push(t);
  return out;
}

/** Every seat passes its k lowest tiles with no blind pass (one whole Charleston pass). */
export function passAll(state: GameState): void {
  for (let s = 0; s < state.rules.players; s++) act(state, { type: 'pass', seat: s, tiles: passable(state, s, 3), blind: 0 });
}
