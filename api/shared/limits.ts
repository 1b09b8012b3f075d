import { ADVICE_WORLDS } from '../../agents/mah-jongg/advice.js';
import { JUDGE_WORLDS } from '../../agents/mah-jongg/judge.js';
import { availableParallelism } from 'node:os';
import { PHOTO_LIMITS } from '../../io/card-photo-limits.js';

/**
 * The practice server's limits and their defaults, apart from the server itself: the command
 * line reads them (the review's default worlds, the data folder) without loading fastify, and
 * the server's parts (api/http/quotas.ts, heavy.ts) take their defaults from here.
 */

/** Where finished games' records are kept unless told otherwise (`<dir>/records/`). */
export const DEFAULT_DATA_DIR = 'tilemate-data';

export interface Limits {
  /** Live games held at once (each game's table: Mah Jongg, Mexican Train). */
  maxGames: number;
  /** Unfinished games one address may hold at once (each table). */
  gamesPerAddress: number;
  /** A live game untouched this long is dropped (ms). */
  idleMs: number;
  /** Requests per minute from one address, every route (0: no limit). */
  ratePerMinute: number;
  /**
   * Requests per minute from one person to the routes that play deals out, all together: one
   * budget for advice, hints, reviews and simulations of both games (counted in the general
   * limit too); an address has `PEOPLE_PER_ADDRESS` times this.
   */
  heavyPerMinute: number;
  /** Largest request body (bytes). */
  bodyLimit: number;
  /** Sampled deals: a hint's default and most (advice and hints). */
  hintWorlds: number;
  maxWorlds: number;
  /** The judge's most sampled deals per decision in a review (agents/mah-jongg/judge.ts): default and most (the server's budget may allow fewer). */
  reviewWorlds: number;
  maxReviewWorlds: number;
  /**
   * Finished games' reviews worked out in the background at once, queued or running (a signed-in
   * player's Mah Jongg game, so that her mistakes come back as drills; api/http/reviews.ts): a game
   * over this is reviewed when she opens it. 0: none (and none without worker threads).
   */
  backgroundReviews: number;
  /** Worker threads for the work that plays deals out (0: on the event loop). */
  threads: number;
  /**
   * Worker threads of their own for the searching bots' turns, so a game never waits behind
   * someone's request (used when `threads` > 0).
   */
  botThreads: number;
  /** Requests that play deals out, queued or running at once; one more is 503 TM_BUSY. */
  maxQueue: number;
  /** Such a request is stopped this long after it was queued: 503 TM_TOO_SLOW (ms). */
  deadlineMs: number;
  /** Such requests one person may have queued or running at once (an address: `PEOPLE_PER_ADDRESS` times this); one more is 503 TM_BUSY. */
  heavyAtOnce: number;
  /**
   * The work one such request may ask of a worker, estimated before it is done (ms; 0: no
   * limit): more is refused with TM_TOO_COSTLY naming the most it may ask for (api/http/task-cost.ts).
   */
  taskMs: number;
  /** A request must arrive whole within this (ms): 408 TM_TIMEOUT. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no request is closed after this (ms). */
  keepAliveMs: number;
  /** Connections one address may hold open at once; one more is answered 429 and closed (the listening server). */
  connectionsPerAddress: number;
  /**
   * New connections one address may open: a burst of `connectionsBurst` (a club's tablets
   * behind one address loading their pages at once), then `connectionsPerSecond`; one more is
   * closed at once, unanswered (the listening server).
   */
  connectionsBurst: number;
  connectionsPerSecond: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxGames: 200,
  gamesPerAddress: 10,
  idleMs: 30 * 60 * 1000,
  ratePerMinute: 600,
  heavyPerMinute: 60,
  bodyLimit: 256 * 1024,
  // agents/mah-jongg/advice.ts ADVICE_WORLDS: every decision's advice plays this many deals, with
  // the seed drawn from the decision, so the hint, the review, Which hand? and `tilemate
  // advise` give one answer (test/agents/one-answer.test.ts checks the two are equal)
  hintWorlds: ADVICE_WORLDS,
  maxWorlds: 200,
  // the judge samples up to this many worlds where the verdict is close; the review's hint keeps ADVICE_WORLDS,
  // so the coach's choice it names is the one the hint gave in the game
  reviewWorlds: JUDGE_WORLDS,
  maxReviewWorlds: 512,
  backgroundReviews: 8,
  threads: Math.max(1, availableParallelism() - 1),
  botThreads: 1,
  maxQueue: 32,
  deadlineMs: 30_000,
  heavyAtOnce: 2,
  taskMs: 1000,
  requestTimeoutMs: 30_000,
  keepAliveMs: 10_000,
  connectionsPerAddress: 256,
  connectionsBurst: 128,
  connectionsPerSecond: 32,
};

// ------------------------------------------------------------------ the fixed limits of the server's parts
// (not set at the command line; here so that each has one home, and the docs and tests read them)

/**
 * The people one address is allowed for, in the budgets of requests that play deals out: a
 * table's four players at a club, their tablets behind one Wi-Fi address.
 */
export const PEOPLE_PER_ADDRESS = 4;

/** Sign-in attempts a minute: per address, and per name whoever tries it (counted in the database: api/store/rate-windows.ts). */
export const SIGN_IN_LIMITS = { perAddress: 20, perName: 5 } as const;

export interface CardLimits {
  /** Saved cards one player keeps at once. */
  maxCards: number;
  /** Characters of one card (the posted card's limit, routes/schemas.ts). */
  maxChars: number;
}
export const CARD_LIMITS: CardLimits = { maxCards: 20, maxChars: 20_000 };

export interface PhotoRouteLimits {
  /** Bytes of one photo (the body limit of this route alone). */
  maxBytes: number;
  /** Photos that may wait while one is read; one more is TM_BUSY. */
  waiting: number;
  /** The most one photo's OCR may take (ms): TM_TOO_SLOW. */
  timeoutMs: number;
}
export const PHOTO_ROUTE_LIMITS: PhotoRouteLimits = { maxBytes: PHOTO_LIMITS.maxBytes, waiting: 2, timeoutMs: 90_000 };

/** A live game's or a table's events sent in one answer (the rest is asked for with `from`). */
export const MAX_EVENTS = 400;
/**
 * People watching one table, apart from its seats (issue 63): watchers never take a seat's room,
 * so a table full of watchers still seats its players.
 */
export const MAX_WATCHERS = 32;
/** Tokens one seat of a table holds at most (her phone, her tablet, a page opened again): a card code cannot mint more. */
export const MAX_TOKENS_A_SEAT = 6;
/** Seconds a person has for a decision under each of a table's clocks. */
export const CLOCKS: Readonly<Record<'off' | 'relaxed' | 'tournament', number | null>> = { off: null, relaxed: 60, tournament: 20 };
