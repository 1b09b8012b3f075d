import type { CompiledCard } from './mah-jongg/compile.js';
import type { TilemateError } from './errors.js';

/**
 * One interface for every game Tilemate plays (OpenSpiel's way): a game type is found by
 * name in the registry (engine/registry.ts) and loaded with its parameters (ruleset, players, card) into a `Game`,
 * whose methods play it. The live-game store, the records, the arena, the terminal play loop
 * and the conformance suite are written once against this interface; each game keeps only
 * its own rules, bots and words.
 *
 * A `Game` holds no state of its own: every method takes the state it works on, and only
 * `apply` (and `tryApply`) change it. Questions (`legalActions`, `view`, `phase`, ...) only
 * read it. Every game replays exactly from its seed and its actions.
 */

/** The four types a game is made of: its state, its actions, a seat's view, and the public name of its step. */
export interface GameSpec {
  state: object;
  action: { type: string; seat: number };
  view: object;
  phase: string;
}

/** A finished game in terms every game shares: who won, and each seat's score in the game's own unit. */
export interface Outcome {
  /** Seats that won (a tie, or Mah Jonggs by several players at a Royale Siamese table); none in a wall game. */
  winners: number[];
  /** Each seat's share of the win, as the game counts it (1 for each Mah Jongg player; a tie shares one win). */
  winShare: number[];
  scores: number[];
}

export interface Game<G extends GameSpec = GameSpec> {
  readonly type: GameType<G>;
  readonly players: number;
  /** The parameters it was loaded with, as a record's header writes them (JSON). */
  readonly params: Readonly<Record<string, unknown>>;
  /** A new game, shuffled and dealt from the seed. */
  newGame(seed: number): G['state'];
  /** Every action the seat may take now (empty when it has nothing to do). */
  legalActions(state: G['state'], seat: number): G['action'][];
  /** Applies an action, or throws a TilemateError and changes nothing when the rules do not allow it. */
  apply(state: G['state'], action: G['action']): void;
  /** `apply` that answers instead of throwing: the error (state unchanged) or null. */
  tryApply(state: G['state'], action: G['action']): TilemateError | null;
  /**
   * What a seat may see: its own tiles and the table, never another hand, the wall's order or
   * the seed of a game in play. The view is the seat's own copy: writing into it changes
   * nothing in the game.
   */
  view(state: G['state'], seat: number): G['view'];
  /**
   * The same view as a window on the game's own lists, read-only by type and valid until the
   * next apply: the fast path of the game loops that play bots against bots (agents/table.ts),
   * which take the same decisions from it (test/engine/views.test.ts).
   */
  sharedView(state: G['state'], seat: number): G['view'];
  /** The step of the game (public): what the seats to act are asked for. */
  phase(state: G['state']): G['phase'];
  /** The first seat the game waits on, or -1 once it has ended. */
  nextToAct(state: G['state']): number;
  /** Every seat the game waits on (several in simultaneous steps: Charleston passes, votes, claims). */
  waitingOn(state: G['state']): number[];
  isOver(state: G['state']): boolean;
  /** Actions applied so far. */
  actionCount(state: G['state']): number;
  /** The tile an action just applied drew, by name (what its seat alone learns), or null for any other action. */
  drawnTile(state: G['state'], action: G['action']): string | null;
  /** The outcome, once the game has ended. */
  outcome(state: G['state']): Outcome | null;
  /** What a finished game's record writes on its end line, the replay's checksum (JSON). */
  endSummary(state: G['state']): Record<string, unknown>;
  /** Every invariant of the state (libriichi's validate()): throws "rule violation: ..." on a broken one. */
  validate(state: G['state']): void;
  /** A deep copy that plays on independently. */
  clone(state: G['state']): G['state'];
  /** An action as records and the wire write it: tiles by name, never by id (JSON). */
  encodeAction(action: G['action']): Record<string, unknown>;
  /** An action from its written form; a malformed one is TM_BAD_INPUT (or TM_BAD_TILE) naming the field. */
  decodeAction(raw: unknown): G['action'];
}

/** A finished game as a list of records shows it. */
export interface RecordSummary {
  ruleset: string;
  /** The card's name (Mah Jongg). */
  card?: string;
  winners: number[];
  /** Each seat's score in the game's unit (Mah Jongg points; Mexican Train pips left). */
  scores: number[];
  /** Mah Jongg: nobody made Mah Jongg before the wall ran out. */
  wallGame?: boolean;
}

const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');
/** The end line's winners and scores, when they are lists of numbers. */
export function endLists(winners: unknown, scores: unknown): { winners: number[]; scores: number[] } | null {
  return numbers(winners) && numbers(scores) ? { winners, scores } : null;
}

/** Finds a Mah Jongg card from its text (a cache of compiled cards, or compile it). */
export type CardSource = (text: string) => CompiledCard;

export interface GameType<G extends GameSpec = GameSpec> {
  /** The registry's name: `mah-jongg`, `mexican-train`. */
  readonly name: string;
  /** The name a player knows it by. */
  readonly title: string;
  /** Its record format (docs/records.md, docs/mexican-train.md). */
  readonly record: { readonly format: string; readonly version: number };
  readonly rulesets: readonly string[];
  /** What a seat's score counts, and which way is better. */
  readonly score: { readonly name: string; readonly better: 'higher' | 'lower' };
  /**
   * The game with these parameters (a request, a record header, the command line), checked:
   * an unknown ruleset, a wrong number of players or a card that does not load is a
   * TilemateError naming it. `cards` compiles a Mah Jongg card's text (default: compile it).
   */
  load(params: Readonly<Record<string, unknown>>, cards?: CardSource): Game<G>;
  /**
   * What a list of finished games shows of one, from its record's header and end line alone
   * (no replay: listing stays cheap); null when they are not a finished game's.
   */
  recordSummary(header: Readonly<Record<string, unknown>>, end: Readonly<Record<string, unknown>>): RecordSummary | null;
  /**
   * The game of duplicate deal `deal` in an arena of this game (Mexican Train plays one round a
   * deal, its engine cycling through the ruleset's; Mah Jongg the game itself).
   */
  arenaGame(game: Game<G>, deal: number): Game<G>;
}

/** A value quoted in a message: short, and never a crash (a value nested thousands deep overflows JSON.stringify's stack). */
export function show(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    return 'a value nested too deeply to show';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
