import { describe, expect, it } from 'vitest';
import { apply as applyDomino, legalActions as dominoLegal, newMatch, type DominoAction } from '../../engine/domino/game.js';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { isDouble } from '../../engine/domino/tiles.js';
import { apply, legalActions, newGame, nextToAct, type Action } from '../../engine/mah-jongg/game.js';
import { nextInt, seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { cc } from './game-helpers.js';

/**
 * The engines pinned by counting (as chess.js pins its move generator with perft), apart from
 * any bot: per ruleset, seeded random walks from the deal to the end of the game, each step
 * taking one of the legal actions by a seeded index, and what they met counted: actions
 * applied, legal actions offered (by phase), actions applied of each type, how the games
 * ended. A change to the rules' moves, to the order legal actions are listed in, or to the
 * deal changes these figures; a change to a bot never does. The figures were counted from the
 * engines as they were when this test was written.
 */

/**
 * The walks' seeds: each seeds the deal (the game's own generator) and the walk's choices
 * (a generator of its own). Seeds 1-3 for every ruleset, and for some the first seed (of
 * 1-60) whose walk reaches what seeds 1-3 do not: the second Charleston with blind passes
 * (24), a Mah Jongg called on a discard (Siamese 6, Royale 34) or declared (Siamese 23).
 * Random walks otherwise end in a wall game or, in Siamese, with a player dead on both racks.
 */
const seedsOf = (ruleset: string): number[] => [1, 2, 3, ...(EXTRA_SEEDS[ruleset] ?? [])];
const EXTRA_SEEDS: Record<string, number[]> = { 'nmjl-4p': [24], 'nmjl-4p-guide': [24], 'nmjl-4p-tournament': [24], 'siamese-2p': [6, 23], 'royale-siamese-4p': [34] };
const DOMINO_SEEDS = [1, 2, 3];

/** What a Mah Jongg walk counts, summed over the seeds unless a list (one figure per seed). */
interface MahJonggCounts {
  /** Actions applied, per walk. */
  actions: number[];
  /** Legal actions offered, summed over the steps of each walk. */
  legal: number[];
  /** Legal actions offered in each phase (the phase the step was in), over every walk. */
  legalByPhase: Partial<Record<string, number>>;
  /** Actions applied of each type, over every walk. */
  applied: Partial<Record<Action['type'], number>>;
  /** How the walks ended: wall games, Mah Jonggs declared, dead racks at the end. */
  wallGames: number;
  mahJonggs: number;
  deadRacks: number;
}

const add = <K extends string>(to: Partial<Record<K, number>>, key: K, n: number): void => {
  to[key] = (to[key] ?? 0) + n;
};

/**
 * Walks from the deal to the end of the game, each step taking one of the legal actions of
 * the seat the game waits on first, chosen by index with a seeded generator (no bot).
 */
function walkMahJongg(ruleset: string): MahJonggCounts {
  const c: MahJonggCounts = { actions: [], legal: [], legalByPhase: {}, applied: {}, wallGames: 0, mahJonggs: 0, deadRacks: 0 };
  for (const seed of seedsOf(ruleset)) {
    const state = newGame(RULESETS[ruleset], cc, seed);
    const rng = seedRng(seed);
    let actions = 0,
      legal = 0;
    while (state.phase.kind !== 'ended') {
      const list = legalActions(state, nextToAct(state));
      const action = list[nextInt(rng, list.length)];
      legal += list.length;
      add(c.legalByPhase, state.phase.kind, list.length);
      add(c.applied, action.type, 1);
      apply(state, action);
      actions++;
    }
    c.actions.push(actions);
    c.legal.push(legal);
    const r = state.result!;
    if (r.wallGame) c.wallGames++;
    c.mahJonggs += r.winners.length;
    c.deadRacks += r.outcome.deadHands.reduce((a, b) => a + b, 0);
  }
  return c;
}

/** What a Mexican Train walk counts (a whole game, every round), summed over the seeds unless a list. */
interface DominoCounts {
  actions: number[];
  legal: number[];
  applied: Partial<Record<DominoAction['type'], number>>;
  /** Doubles played (each blocks play elsewhere until it is covered). */
  doubles: number;
  /** Rounds a player went out of, and rounds blocked (nobody could play or draw). */
  roundsOut: number;
  roundsBlocked: number;
  /** Pips left in the hands at the end of every round (the players' totals added). */
  pips: number;
}

/** As walkMahJongg: the seat whose turn it is takes one of its legal actions, chosen by a seeded index. */
function walkDomino(ruleset: string, players: number): DominoCounts {
  const c: DominoCounts = { actions: [], legal: [], applied: {}, doubles: 0, roundsOut: 0, roundsBlocked: 0, pips: 0 };
  for (const seed of DOMINO_SEEDS) {
    const state = newMatch(DOMINO_RULESETS[ruleset], players, seed);
    const rng = seedRng(seed);
    let actions = 0,
      legal = 0;
    while (state.phase !== 'ended') {
      const list = dominoLegal(state, state.turn);
      const action = list[nextInt(rng, list.length)];
      legal += list.length;
      add(c.applied, action.type, 1);
      if (action.type === 'play' && isDouble(action.tile)) c.doubles++;
      applyDomino(state, action);
      actions++;
    }
    c.actions.push(actions);
    c.legal.push(legal);
    for (const r of state.rounds)
      if (r.outBy >= 0) c.roundsOut++;
      else c.roundsBlocked++;
    c.pips += state.totals.reduce((a, b) => a + b, 0);
  }
  return c;
}

const DOMINO_PLAYERS = [2, 4, 8];

describe('Mah Jongg: legal actions counted along seeded random walks', () => {
  it('every ruleset is counted below', () => {
    expect(Object.keys(RULESETS)).toEqual(['nmjl-4p', 'nmjl-4p-guide', 'nmjl-4p-tournament', 'nmjl-3p', 'nmjl-3p-courtesy', 'siamese-2p', 'royale-siamese-4p']);
  });

  it('nmjl-4p: the Charleston (both, with blind passes), the vote, the courtesy pass, calls, exchanges and dead-hand calls, to wall games', () => {
    expect(walkMahJongg('nmjl-4p')).toEqual({
      actions: [469, 461, 470, 480],
      legal: [4270, 5134, 4274, 7040],
      legalByPhase: { charleston: 11538, vote: 32, courtesy: 3791, discard: 3922, draw: 431, claims: 1004 },
      applied: { pass: 60, vote: 16, courtesy: 16, discard: 426, draw: 396, decline: 916, call: 26, exchange: 12, callDead: 12 },
      wallGames: 4,
      mahJonggs: 0,
      deadRacks: 12,
    });
  });

  it('nmjl-4p-guide: the same walks as nmjl-4p: the rules differ only in scoring', () => {
    expect(walkMahJongg('nmjl-4p-guide')).toEqual({
      actions: [469, 461, 470, 480],
      legal: [4270, 5134, 4274, 7040],
      legalByPhase: { charleston: 11538, vote: 32, courtesy: 3791, discard: 3922, draw: 431, claims: 1004 },
      applied: { pass: 60, vote: 16, courtesy: 16, discard: 426, draw: 396, decline: 916, call: 26, exchange: 12, callDead: 12 },
      wallGames: 4,
      mahJonggs: 0,
      deadRacks: 12,
    });
  });

  it('nmjl-4p-tournament: the same walks as nmjl-4p: the rules differ only in scoring', () => {
    expect(walkMahJongg('nmjl-4p-tournament')).toEqual({
      actions: [469, 461, 470, 480],
      legal: [4270, 5134, 4274, 7040],
      legalByPhase: { charleston: 11538, vote: 32, courtesy: 3791, discard: 3922, draw: 431, claims: 1004 },
      applied: { pass: 60, vote: 16, courtesy: 16, discard: 426, draw: 396, decline: 916, call: 26, exchange: 12, callDead: 12 },
      wallGames: 4,
      mahJonggs: 0,
      deadRacks: 12,
    });
  });

  it('nmjl-3p: no Charleston: calls, exchanges and dead-hand calls at a table of three, to wall games', () => {
    expect(walkMahJongg('nmjl-3p')).toEqual({
      actions: [388, 376, 372],
      legal: [1284, 1481, 1213],
      legalByPhase: { discard: 3173, claims: 455, draw: 350 },
      applied: { discard: 354, decline: 415, call: 15, draw: 336, exchange: 10, callDead: 6 },
      wallGames: 3,
      mahJonggs: 0,
      deadRacks: 6,
    });
  });

  it('nmjl-3p-courtesy: the courtesy pass across without a Charleston, then play to wall games', () => {
    expect(walkMahJongg('nmjl-3p-courtesy')).toEqual({
      actions: [399, 386, 393],
      legal: [1692, 1833, 1847],
      legalByPhase: { courtesy: 1429, discard: 3079, claims: 512, draw: 352 },
      applied: { courtesy: 6, discard: 354, decline: 455, call: 16, draw: 336, exchange: 5, callDead: 6 },
      wallGames: 3,
      mahJonggs: 0,
      deadRacks: 6,
    });
  });

  it('siamese-2p: two racks each: calls, exchanges, a Mah Jongg called and one declared, games ended by dead racks', () => {
    expect(walkMahJongg('siamese-2p')).toEqual({
      actions: [222, 235, 244, 291, 271],
      legal: [1376, 1360, 1336, 1558, 1981],
      legalByPhase: { draw: 440, discard: 6669, claims: 502 },
      applied: { draw: 410, discard: 446, call: 36, decline: 349, exchange: 9, callDead: 11, callMahJongg: 1, declare: 1 },
      wallGames: 0,
      mahJonggs: 2,
      deadRacks: 11,
    });
  });

  it('royale-siamese-4p: two sets without jokers: calls, dead-hand calls and a Mah Jongg called', () => {
    expect(walkMahJongg('royale-siamese-4p')).toEqual({
      actions: [891, 558, 728, 942],
      legal: [3490, 2074, 2784, 3578],
      legalByPhase: { draw: 632, discard: 9225, claims: 2069 },
      applied: { draw: 576, discard: 636, decline: 1829, call: 61, callDead: 16, callMahJongg: 1 },
      wallGames: 0,
      mahJonggs: 1,
      deadRacks: 16,
    });
  });
});

describe('Mexican Train: legal actions counted along seeded random walks through whole games', () => {
  it('every ruleset is counted below at 2, 4 and 8 players', () => {
    expect(Object.keys(DOMINO_RULESETS)).toEqual(['sun-lakes', 'district']);
    for (const rules of Object.values(DOMINO_RULESETS)) expect(DOMINO_PLAYERS.every((p) => p >= rules.minPlayers && p <= rules.maxPlayers)).toBe(true);
  });

  it('sun-lakes, 2 players: senior games rules (double-12 engine in the station, doubles covered in the same turn)', () => {
    expect(walkDomino('sun-lakes', 2)).toEqual({
      actions: [995, 464, 617],
      legal: [1396, 718, 887],
      applied: { play: 965, draw: 626, pass: 485 },
      doubles: 99,
      roundsOut: 14,
      roundsBlocked: 4,
      pips: 1155,
    });
  });

  it('sun-lakes, 4 players: senior games rules (double-12 engine in the station, doubles covered in the same turn)', () => {
    expect(walkDomino('sun-lakes', 4)).toEqual({
      actions: [548, 546, 612],
      legal: [1041, 989, 1164],
      applied: { play: 1079, draw: 361, pass: 266 },
      doubles: 106,
      roundsOut: 18,
      roundsBlocked: 0,
      pips: 1811,
    });
  });

  it('sun-lakes, 8 players: senior games rules (double-12 engine in the station, doubles covered in the same turn)', () => {
    expect(walkDomino('sun-lakes', 8)).toEqual({
      actions: [573, 561, 550],
      legal: [1461, 1362, 1380],
      applied: { play: 1278, draw: 180, pass: 226 },
      doubles: 122,
      roundsOut: 14,
      roundsBlocked: 4,
      pips: 4069,
    });
  });

  it('district, 2 players: district rules (double-5 engine from a hand, a free turn after a double)', () => {
    expect(walkDomino('district', 2)).toEqual({
      actions: [819, 778, 633],
      legal: [1986, 1743, 2337],
      applied: { play: 1348, draw: 486, pass: 396 },
      doubles: 148,
      roundsOut: 12,
      roundsBlocked: 6,
      pips: 1118,
    });
  });

  it('district, 4 players: district rules (double-5 engine from a hand, a free turn after a double)', () => {
    expect(walkDomino('district', 4)).toEqual({
      actions: [647, 587, 571],
      legal: [1558, 1536, 1557],
      applied: { play: 1290, draw: 275, pass: 240 },
      doubles: 137,
      roundsOut: 16,
      roundsBlocked: 2,
      pips: 2308,
    });
  });

  it('district, 8 players: district rules (double-5 engine from a hand, a free turn after a double)', () => {
    expect(walkDomino('district', 8)).toEqual({
      actions: [517, 566, 524],
      legal: [1376, 1336, 1336],
      applied: { play: 1243, draw: 171, pass: 193 },
      doubles: 124,
      roundsOut: 15,
      roundsBlocked: 3,
      pips: 4397,
    });
  });
});
