import { TilemateError } from '../errors.js';

/**
 * Rulesets are data: the engine reads these fields and never branches on a ruleset's name
 * (OpenSpiel's "games loaded by name with parameters"). Seats are numbered in turn order
 * from East: seat s + 1 sits to the right of seat s, and play passes to the right.
 */

/** How a finished game is scored: one scorer (engine/mah-jongg/scoring.ts) reads these fields. */
export interface ScoringTable {
  name: string;
  /**
   * Payments between players (social play: the teaching guide, part 6): every other player
   * pays the winner; otherwise each player scores points of its own (tournament, Siamese).
   */
  payments: boolean;
  /** What a non-discarding player pays (x card value) when the winner took a discard. */
  otherPays: number;
  /** What the discarder of the winning tile pays (x card value). */
  discarderPays: number;
  /** What every player pays (x card value) when the winner picked the tile herself. */
  selfPickPays: number;
  /** Multiplier for a hand without jokers (payments, or the winner's points in Siamese). */
  jokerlessMultiplier: number;
  /** Points added to the card value for a self-picked Mah Jongg (tournament 11.1). */
  selfPickBonus: number;
  /** Whether East's dealt Mah Jongg counts as self-picked for bonuses (tournament 11.10: it does not). */
  heavenlyCountsAsSelfPick: boolean;
  /** Points added for a hand without jokers (tournament 11.2). */
  jokerlessBonus: number;
  /**
   * The jokerless doubling or bonus is given on a hand of the card's Singles and Pairs section
   * too. False in every table shipped: tournament 11.2 and Siamese 17B-C exclude that section in
   * so many words; for social play the League card's convention (no joker could ever fit, so
   * "no jokers" earns nothing) is the default, and `nmjl-4p-guide` takes the teaching guide's
   * (6.2) and senior games' (10) reading, where every jokerless hand is doubled.
   */
  jokerlessOnSinglesAndPairs: boolean;
  /**
   * Points for the discarder of the winning tile by the winner's exposures on the rack:
   * entry i applies from `atLeast` exposures (tournament 11.5-11.7: -10 for 0-1, -20 for 2, -25 for 3+).
   */
  discarderPenalty: { atLeast: number; points: number }[];
  /**
   * Tournament 14.4: when a Mah Jongg in error leaves one hand intact, the game ends and that
   * player scores this (everyone else zero); 0 = not used (the game goes on with her alone).
   */
  intactAfterFalseMahJongg: number;
  /**
   * Tournament 11.9, 12.3: points for the discarder who misnamed the tile that gave Mah Jongg,
   * in place of the penalty by exposures; 0 = not used (social play has no such penalty).
   */
  misnamedPenalty: number;
  /** Wall game: points to each live player, and to each dead one (tournament 11.3, 11.8; Siamese 17G). */
  wallGameLive: number;
  wallGameDead: number;
  /** Siamese 17C: a second Mah Jongg scores this multiple of its value. */
  secondMahJonggMultiplier: number;
  /** Siamese 17D: two Mah Jonggs declared at once each score this multiple. */
  simultaneousMultiplier: number;
  /** Siamese 17E-F: points for the discarder of a tile claimed for a second Mah Jongg. */
  secondMahJonggDiscarderPenalty: number;
  /**
   * Siamese 12: a player dead on both hands scores minus this multiple of the opponent's
   * exposed Mah Jongg value, or of the card's lowest value when there is none; 0 = not used.
   */
  deadBothMultiplier: number;
}

export const SOCIAL: ScoringTable = {
  name: 'social',
  payments: true,
  otherPays: 1,
  discarderPays: 2,
  selfPickPays: 2,
  jokerlessMultiplier: 2,
  selfPickBonus: 0,
  heavenlyCountsAsSelfPick: true,
  jokerlessBonus: 0,
  jokerlessOnSinglesAndPairs: false,
  discarderPenalty: [],
  intactAfterFalseMahJongg: 0,
  misnamedPenalty: 0,
  wallGameLive: 0,
  wallGameDead: 0,
  secondMahJonggMultiplier: 1,
  simultaneousMultiplier: 1,
  secondMahJonggDiscarderPenalty: 0,
  deadBothMultiplier: 0,
};

export const TOURNAMENT: ScoringTable = {
  name: 'tournament',
  payments: false,
  otherPays: 0,
  discarderPays: 0,
  selfPickPays: 0,
  jokerlessMultiplier: 1,
  selfPickBonus: 10,
  heavenlyCountsAsSelfPick: false,
  jokerlessBonus: 20,
  jokerlessOnSinglesAndPairs: false,
  discarderPenalty: [
    { atLeast: 0, points: -10 },
    { atLeast: 2, points: -20 },
    { atLeast: 3, points: -25 },
  ],
  intactAfterFalseMahJongg: 10,
  misnamedPenalty: -25,
  wallGameLive: 10,
  wallGameDead: -10,
  secondMahJonggMultiplier: 1,
  simultaneousMultiplier: 1,
  secondMahJonggDiscarderPenalty: 0,
  deadBothMultiplier: 0,
};

/** Siamese rule 17 (scores kept per player; the lower pays the higher the difference). */
export const SIAMESE: ScoringTable = {
  name: 'siamese',
  payments: false,
  otherPays: 0,
  discarderPays: 0,
  selfPickPays: 0,
  jokerlessMultiplier: 2,
  selfPickBonus: 0,
  heavenlyCountsAsSelfPick: false,
  jokerlessBonus: 0,
  jokerlessOnSinglesAndPairs: false,
  discarderPenalty: [],
  intactAfterFalseMahJongg: 0,
  misnamedPenalty: 0,
  wallGameLive: 10,
  wallGameDead: 10,
  secondMahJonggMultiplier: 2,
  simultaneousMultiplier: 2,
  secondMahJonggDiscarderPenalty: -25,
  deadBothMultiplier: 4,
};

/** Social payments as the teaching guide (6.2) and senior games (10) write them: every jokerless hand doubled. */
export const SOCIAL_GUIDE: ScoringTable = { ...SOCIAL, name: 'social-guide', jokerlessOnSinglesAndPairs: true };

/**
 * Royale Siamese (the Siamese rules' notes on it): the Siamese scoring, and "another +25 Bonus
 * Points" for playing the two sets without jokers: every Mah Jongg is jokerless.
 */
export const ROYALE: ScoringTable = { ...SIAMESE, name: 'royale-siamese', jokerlessBonus: 25 };

export const SCORING_TABLES: Record<string, ScoringTable> = { social: SOCIAL, 'social-guide': SOCIAL_GUIDE, tournament: TOURNAMENT, siamese: SIAMESE, 'royale-siamese': ROYALE };

export interface CharlestonRules {
  /** Passes of the first (compulsory) Charleston, as seat offsets: right +1, across +2, left +3. */
  first: number[];
  /** Passes of the second Charleston, played only if every player agrees. */
  second: number[];
  /** Indices (0-based, over first then second) of passes that allow a blind pass of 1-3 received tiles. */
  blindPasses: number[];
  /** Offset of the courtesy pass partner (across), or 0 for none. */
  courtesyOffset: number;
}

export interface Ruleset {
  name: string;
  description: string;
  /** Players at the table, seated in turn order from East. */
  players: number;
  /** Tiles each player is dealt (East is dealt one more when `eastDealtExtra`). */
  dealSize: number;
  /** Tiles taken at a time while dealing, before the one-by-one round. */
  dealChunk: number;
  /** East is dealt a 14th tile (4 and 3 players); in Siamese East draws the 28th to begin. */
  eastDealtExtra: boolean;
  /** Dice thrown to break East's wall. */
  dice: number;
  /**
   * The four walls (19 stacks of two each) are built at table positions 0-3, East's at 0.
   * Tiles are picked from East's wall after the break, then from these walls in this order,
   * and the stacks broken off East's wall come where `countedStacks` says.
   */
  wallOrder: number[];
  /**
   * Where the stacks East counts off her wall are picked: `last`, after every other wall
   * (teaching guide 1.4, senior games 2: "reserved until the end of the game"), or
   * `firstWallTail`, moved to the tail of East's first wall (Siamese 4A).
   */
  countedStacks: 'last' | 'firstWallTail';
  /** Full 152-tile sets played with (Royale Siamese: two). */
  sets: number;
  /** The sets' jokers are played (Royale Siamese: "no jokers"). */
  jokers: boolean;
  /** Stacks of two in each wall: walls (East's and `wallOrder`'s) times stacks times 2 is every tile. */
  wallStacks: number;
  /** Racks per player: 2 in Siamese, where a player builds two hands. */
  racks: number;
  /** Mah Jonggs a player needs to end the game (Siamese 14: two). */
  mahJonggsToEnd: number;
  charleston: CharlestonRules | null;
  scoring: ScoringTable;
}

const NMJL_CHARLESTON: CharlestonRules = {
  // teaching guide part 2; standardized rules 4: right, across, left; then left, across, right
  first: [1, 2, 3],
  second: [3, 2, 1],
  // blind pass ("steal") on the first left and the last right (senior games rules 3)
  blindPasses: [2, 5],
  courtesyOffset: 2,
};

export const RULESETS: Record<string, Ruleset> = {
  'nmjl-4p': {
    name: 'nmjl-4p',
    description: '4 players, NMJL rules as the teaching guide describes, social scoring',
    players: 4,
    dealSize: 13,
    dealChunk: 4,
    eastDealtExtra: true,
    dice: 2,
    wallOrder: [3, 2, 1],
    countedStacks: 'last',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 1,
    mahJonggsToEnd: 1,
    charleston: NMJL_CHARLESTON,
    scoring: SOCIAL,
  },
  'nmjl-4p-guide': {
    name: 'nmjl-4p-guide',
    description: '4 players, social scoring read as the teaching guide writes it: a jokerless Singles and Pairs hand is doubled too',
    players: 4,
    dealSize: 13,
    dealChunk: 4,
    eastDealtExtra: true,
    dice: 2,
    wallOrder: [3, 2, 1],
    countedStacks: 'last',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 1,
    mahJonggsToEnd: 1,
    charleston: NMJL_CHARLESTON,
    scoring: SOCIAL_GUIDE,
  },
  'nmjl-4p-tournament': {
    name: 'nmjl-4p-tournament',
    description: '4 players, standardized tournament rules and scoring',
    players: 4,
    dealSize: 13,
    dealChunk: 4,
    eastDealtExtra: true,
    dice: 2,
    wallOrder: [3, 2, 1],
    countedStacks: 'last',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 1,
    mahJonggsToEnd: 1,
    charleston: NMJL_CHARLESTON,
    scoring: TOURNAMENT,
  },
  'nmjl-3p': {
    name: 'nmjl-3p',
    // teaching guide part 8 and standardized rules 4.3: the empty seat gets no tiles; no Charleston
    description: '3 players, no Charleston (tournament table of three), tournament scoring',
    players: 3,
    dealSize: 13,
    dealChunk: 4,
    eastDealtExtra: true,
    dice: 2,
    wallOrder: [3, 2, 1],
    countedStacks: 'last',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 1,
    mahJonggsToEnd: 1,
    charleston: null,
    scoring: TOURNAMENT,
  },
  'nmjl-3p-courtesy': {
    name: 'nmjl-3p-courtesy',
    // teaching guide part 8: "Charleston is omitted, courtesy pass is optional": East and West
    // may exchange across; South sits across the empty chair
    description: '3 players as the teaching guide plays them: no Charleston, the optional courtesy pass across, social scoring',
    players: 3,
    dealSize: 13,
    dealChunk: 4,
    eastDealtExtra: true,
    dice: 2,
    wallOrder: [3, 2, 1],
    countedStacks: 'last',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 1,
    mahJonggsToEnd: 1,
    charleston: { first: [], second: [], blindPasses: [], courtesyOffset: 2 },
    scoring: SOCIAL,
  },
  'siamese-2p': {
    name: 'siamese-2p',
    // Siamese rules 1-8: two racks each, one die, 27 tiles each, East picks the 28th, no Charleston
    description: 'Siamese Mah Jongg for 2 players: two racks each, two Mah Jonggs, Siamese scoring',
    players: 2,
    dealSize: 27,
    dealChunk: 4,
    eastDealtExtra: false,
    dice: 1,
    wallOrder: [1, 2, 3],
    countedStacks: 'firstWallTail',
    sets: 1,
    jokers: true,
    wallStacks: 19,
    racks: 2,
    mahJonggsToEnd: 2,
    charleston: null,
    scoring: SIAMESE,
  },
  'royale-siamese-4p': {
    name: 'royale-siamese-4p',
    // Siamese rules, Royale notes: 3-4 players, two full sets, no jokers, +25; the Siamese rules
    // otherwise ("the rules are the same"): two racks, 27 tiles each, one die, East's two walls
    // first (4B), two Mah Jonggs. Two walls per player: 8 walls of 18 stacks hold the 288 tiles.
    description: 'Royale Siamese for 4 players: two sets without jokers, two racks each, two Mah Jonggs, Siamese scoring +25',
    players: 4,
    dealSize: 27,
    dealChunk: 4,
    eastDealtExtra: false,
    dice: 1,
    wallOrder: [1, 2, 3, 4, 5, 6, 7],
    countedStacks: 'firstWallTail',
    sets: 2,
    jokers: false,
    wallStacks: 18,
    racks: 2,
    mahJonggsToEnd: 2,
    charleston: null,
    scoring: ROYALE,
  },
};

/** Frozen, nested objects too: loadRuleset hands out these objects themselves, so no caller may change one. */
function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}
for (const rules of Object.values(RULESETS)) deepFreeze(rules);

export function loadRuleset(name: string, overrides: Partial<Omit<Ruleset, 'name'>> = {}): Ruleset {
  const base = Object.hasOwn(RULESETS, name) ? RULESETS[name] : undefined;
  if (!base) throw new TilemateError('TM_BAD_INPUT', `unknown ruleset "${name}" (expected one of ${Object.keys(RULESETS).join(', ')})`);
  // the table's own (frozen) object when nothing is overridden: a fresh copy each game gave
  // V8's optimized code new shapes to throw away and compile again
  return Object.keys(overrides).length === 0 ? base : { ...base, ...overrides };
}
