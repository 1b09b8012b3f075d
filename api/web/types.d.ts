// What the server sends the pages (docs/api.md, docs/tables.md, docs/mexican-train.md), as the
// pages read it: declared once here for the pages' JSDoc (`@import { ... } from './types.js'`).
// Only types: nothing here reaches the browser. The table's WebSocket messages are not here:
// they are declared once, with the schemas the server checks them by, in api/shared/table-wire.ts.

/** A tile's name as the server writes it: "5B", "N", "RD", "J". */
export type Tile = string;

/**
 * One of a Mah Jongg seat's legal actions, an action the page posts, or one the events tell
 * (docs/api.md, "legal" and "events"). Another seat's Charleston pass or courtesy offer is told
 * face down: only how many tiles (`count`). A Mah Jongg in error (`inError`) is allowed but
 * would kill the hand: the page shows no button for it.
 */
export type Action = { seat: number; inError?: boolean } & (
  | { type: 'pass'; tiles?: Tile[]; blind?: number; blindUpTo?: number; count?: number; choose?: { min: number; max: number } }
  | { type: 'courtesy'; tiles?: Tile[]; count?: number; choose?: { min: number; max: number } }
  | { type: 'vote'; yes: boolean }
  | { type: 'draw' }
  | { type: 'discard'; tile: Tile }
  | { type: 'exchange'; owner: number; exposure: number; tile?: Tile }
  | { type: 'declare'; rack?: number; both?: boolean }
  | { type: 'decline' }
  | { type: 'call'; size: number; jokers: number; rack?: number }
  | { type: 'callMahJongg'; rack?: number; both?: boolean }
  | { type: 'callDead'; target: number; rack?: number }
  | { type: 'timeUp' }
);

/** The action of one type. */
export type ActionOf<T extends Action['type']> = Extract<Action, { type: T }>;

/** An action applied since the last answer: `n` numbers it as in the record; `drew` is the person's own draw. */
export interface GameEvent {
  n?: number;
  action: Action;
  drew?: Tile;
}

export interface Exposure {
  tile: Tile;
  size: number;
  jokers: number;
  tiles: Tile[];
  rack?: number;
  exchangeable?: boolean;
}

export interface SeatPublic {
  seat?: number;
  concealedCount?: number;
  exposures?: Exposure[];
  discards?: Tile[];
  dead?: boolean[];
}

export interface Prompt {
  kind: 'wait' | 'charleston' | 'vote' | 'courtesy' | 'draw' | 'discard' | 'claims' | 'ended';
  pass?: number;
  charleston?: 'first' | 'second';
  direction?: 'right' | 'across' | 'left';
  blindAllowed?: boolean;
  partner?: number;
  tile?: Tile;
  discarder?: number;
}

export type Phase = 'charleston' | 'vote' | 'courtesy' | 'draw' | 'discard' | 'claims' | 'ended';

export interface ScoreLine {
  seat: number;
  points: number;
  why: string;
}

export interface GameResult {
  winners?: number[];
  wallGame?: boolean;
  scores: number[];
  lines?: ScoreLine[];
  hands?: Tile[][];
  seed?: number;
}

export interface DeclaredMahJongg {
  seat: number;
  rack?: number;
  /** The card line's id ("2468 #2"). */
  line: string;
  /** The line as players name it ("the second 2468 line"), from the card the game was played on. */
  name?: string;
  value: number;
  tiles: Tile[];
}

/** A Mah Jongg seat's view as the server sends it (docs/api.md, "view"); `seat` null for one watching a table. */
export interface RawView {
  seat: number | null;
  ruleset?: string;
  players: number;
  phase: Phase;
  prompt?: Prompt;
  waitingOn?: number[];
  turn: number;
  claim?: { tile: Tile; discarder: number; answered?: boolean } | null;
  wallLeft: number;
  rack?: Tile[];
  seats?: SeatPublic[];
  mahJonggs?: DeclaredMahJongg[];
  turnFrom?: { from: 'deal' | 'wall' | 'discard'; discarder?: number };
  result?: GameResult | null;
}

/** The Mah Jongg game answer (docs/api.md): a game against bots, or a seat of a table's `game` message. */
export interface GameAnswer {
  id?: string;
  token?: string;
  seat?: number | null;
  seats?: string[];
  view: RawView;
  legal?: Action[];
  events?: GameEvent[];
  at: number;
  recordId?: string | null;
}

/** The hint (docs/api.md, "Hint"), or the error the page shows in its place. */
export interface Hint {
  kind?: string;
  text?: string;
  details?: string;
  action?: Action;
  tiles?: Tile[];
  blind?: number;
  /** What each opponent is likely making, a sentence each (issue 48). */
  table?: string[];
  error?: string;
}

/** A decision of the review (docs/api.md, "Review"), with the moment it was made. */
export interface ReviewDecision {
  index: number;
  phase: string;
  chosen: string;
  suggested: string;
  agreed?: boolean;
  /** The one judge's verdict (agents/mah-jongg/judge.ts): right, about as good, or a mistake. */
  verdict?: 'right' | 'asGood' | 'mistake';
  /** Another choice than the coach's that is no mistake. */
  asGood?: boolean;
  /** Points a game the choice cost (a mistake's; 0 otherwise). */
  loss?: number;
  /** The judge's estimate of the cost whatever the verdict, its standard error, and the sampled games behind it. */
  cost?: number;
  lossSe?: number;
  worlds?: number;
  tilesLost?: number;
  /** The verdict's reason in one plain sentence. */
  reason?: string;
  /** The rule that made it a mistake, when one did. */
  rule?: 'mahjongg-missed' | 'joker-thrown' | 'call-no-closer' | 'group-broken';
  why?: string;
  details?: string;
  moment?: {
    seat?: number;
    phase?: string;
    rack?: Tile[];
    seats?: SeatPublic[];
    exposures?: Exposure[][];
    discards?: Tile[][];
    claim?: { tile: Tile; discarder: number } | null;
    wallLeft?: number;
  };
}

/** How far the review of a kept game has got while it is worked out (GET /api/review/progress): the action reached, of the record's (none while `running` is false). */
export interface ReviewProgress {
  running: boolean;
  done?: number;
  total?: number;
}

/** The review of a seat's decisions (POST /api/review). */
export interface Review {
  decisions?: ReviewDecision[];
  summary?: { decisions: number; agreed: number; mistakes?: number; disagreed?: number; text?: string };
  dead?: { index: number; by: number };
}

/** A saved card on her list (GET /api/cards): a shared one names its owner. */
export interface SavedCard {
  name: string;
  title?: string;
  owner?: string;
}

/** A tile of a card line's closest form, marked: on the rack, exposed, a joker can fill it, still needed; `joker` when her joker stands in. */
export interface MarkedTile {
  tile: Tile;
  status: 'have' | 'exposed' | 'joker' | 'need';
  joker?: boolean;
}

/** One card line of the analyzer's answer (POST /api/analyze, GET /api/games/:id/card). */
export interface AnalysisLine {
  id: string;
  concealed?: boolean;
  possible: boolean;
  tilesAway: number;
  value: number;
  groups?: MarkedTile[][];
  need?: Tile[];
  jokerSlots?: number;
  whyNot?: string;
  reason: string;
  form?: string;
  outs?: number;
}

/** A line's chance of being finished from here, from simulated deals (POST /api/analyze with simulate). */
export interface Simulated {
  chance?: number;
  expectedScore?: number;
  deals?: number;
}

/** The card panel's answer (GET /api/games/:id/card), or the error the panel shows in its place. */
export interface CardAnswer {
  card?: string;
  results?: AnalysisLine[];
  error?: string;
}

/** A Mexican Train action (docs/mexican-train.md): a domino played on a train, a draw from the boneyard, a pass. */
export type DominoAction = { seat?: number } & ({ type: 'play'; tile: string; train: number | 'mexican' } | { type: 'draw' } | { type: 'pass' });

/** A round of the match, once it is over: who went out (-1: blocked), its engine, every seat's pips left. */
export interface DominoRound {
  outBy: number;
  engine: number;
  pipsLeft: number[];
}

/** A Mexican Train seat's view (docs/mexican-train.md, "HTTP"); `seat` null for one watching a table. */
export interface DominoView {
  seat: number | null;
  players: number;
  ruleset: string;
  phase: 'play' | 'ended';
  turn: number;
  starter: number;
  roundNo: number;
  roundsInGame: number;
  engine: string;
  boneyard: number;
  hand: string[];
  handCounts: number[];
  totals: number[];
  drawn?: string | null;
  trains: { train: number | 'mexican'; tiles: string[]; marked?: boolean; end: number }[];
  openDoubles: (number | 'mexican')[];
  step: { cover: number };
  rounds: DominoRound[];
  result?: { totals: number[]; winners: number[] } | null;
  reveal?: { hands: string[][]; seed?: number } | null;
}

/** The Mexican Train game answer: a game against bots, or a seat of a table's `game` message. */
export interface DominoAnswer {
  view: Omit<DominoView, 'hand'> & { hand?: string[] };
  legal?: DominoAction[];
  seats?: string[];
  events?: { n?: number; action: DominoAction & { seat: number } }[];
  at: number;
}

/** The Mexican Train hint: the advised action, the plan for the person's own train, or the error shown in its place. */
export interface DominoHint {
  suggest?: DominoAction;
  path?: string[];
  ownEnd?: number;
  error?: string;
}
