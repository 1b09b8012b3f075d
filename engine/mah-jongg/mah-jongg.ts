import { parseCard } from './card.js';
import { compileCard, type CompiledCard } from './compile.js';
import { ruleViolation, TilemateError } from '../errors.js';
import { apply, cloneState, legalActions, newGame, nextToAct, sharedView, tryApply, validate, view, waitingOn, type Action, type GameState, type Phase, type SeatView } from './game.js';
import { endLists, show, type CardSource, type Game, type GameType, type Outcome } from '../games.js';
import { RULESETS, loadRuleset, type Ruleset } from './rulesets.js';
import { parseTile, tileName } from './tiles.js';

/**
 * American Mah Jongg behind the one game interface (engine/games.ts): the rules are
 * engine/mah-jongg/game.ts; this file binds a ruleset and a card to them and writes actions as records
 * and the wire write them (tiles by name).
 */

export interface MahJonggSpec {
  state: GameState;
  action: Action;
  view: SeatView;
  phase: Phase['kind'];
}

export type MahJonggGame = Game<MahJonggSpec> & { readonly rules: Ruleset; readonly cc: CompiledCard };

// ------------------------------------------------------------------ actions as JSON

/** The fields of each action beyond `type` and `seat`, and how they are written. */
type FieldKind = 'int' | 'int?' | 'bool' | 'bool?' | 'tile' | 'tiles';
const ACTION_FIELDS: Record<Action['type'], Record<string, FieldKind>> = {
  pass: { tiles: 'tiles', blind: 'int?' },
  vote: { yes: 'bool' },
  courtesy: { tiles: 'tiles' },
  draw: {},
  discard: { tile: 'tile' },
  exchange: { owner: 'int', exposure: 'int' },
  declare: { rack: 'int?', both: 'bool?' }, // both: Siamese, two Mah Jonggs at once
  decline: {},
  call: { size: 'int', jokers: 'int', rack: 'int?' },
  callMahJongg: { rack: 'int?', both: 'bool?' },
  callDead: { target: 'int', rack: 'int?' },
  timeUp: {}, // the director calls time (tournament 11.4)
};

/** The action types, in the order the rules meet them. */
export const ACTION_TYPES = Object.keys(ACTION_FIELDS) as Action['type'][];

/** An action as JSON: `{type, seat, ...}` with tiles by name; optional fields only when set. */
export function encodeAction(action: Action): Record<string, unknown> {
  const out: Record<string, unknown> = { type: action.type, seat: action.seat };
  const a = action as unknown as Record<string, unknown>;
  for (const [key, kind] of Object.entries(ACTION_FIELDS[action.type])) {
    const v = a[key];
    if (v === undefined) continue;
    out[key] = kind === 'tile' ? tileName(v as number) : kind === 'tiles' ? (v as number[]).map(tileName) : v;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (message: string): never => {
  throw new TilemateError('TM_BAD_INPUT', message);
};
/** A Charleston pass or courtesy offer is at most three tiles; a list longer than a rack names no action. */
const MAX_LISTED = 14;

/** An action from its JSON; a malformed one is TM_BAD_INPUT, an unknown tile TM_BAD_TILE, each naming the field. */
export function decodeAction(raw: unknown): Action {
  if (!isObject(raw)) return bad('expected an action object such as {"type": "discard", "seat": 0, "tile": "5B"}');
  const type = raw.type;
  if (typeof type !== 'string' || !Object.hasOwn(ACTION_FIELDS, type)) return bad(`unknown action type ${show(type)} (expected one of ${ACTION_TYPES.join(', ')})`);
  if (!Number.isSafeInteger(raw.seat)) bad(`${type}: expected a seat number, got ${show(raw.seat)}`);
  const out: Record<string, unknown> = { type, seat: raw.seat };
  for (const [key, kind] of Object.entries(ACTION_FIELDS[type as Action['type']])) {
    const v = raw[key];
    if ((kind === 'int?' || kind === 'bool?') && v === undefined) continue;
    const expected = (what: string): never => bad(`${type}: expected "${key}" to be ${what}, got ${show(v)}`);
    if ((kind === 'int' || kind === 'int?') && !Number.isSafeInteger(v)) expected('a whole number');
    if ((kind === 'bool' || kind === 'bool?') && typeof v !== 'boolean') expected('true or false');
    if (kind === 'tile' && typeof v !== 'string') expected('a tile name such as "5B"');
    if (kind === 'tiles' && !(Array.isArray(v) && v.length <= MAX_LISTED && v.every((t) => typeof t === 'string'))) expected('a list of tile names such as ["3C", "7D", "N"]');
    try {
      out[key] = kind === 'tile' ? parseTile(v as string) : kind === 'tiles' ? (v as string[]).map(parseTile) : v;
    } catch (err) {
      if (err instanceof TilemateError) throw new TilemateError(err.code, `${type}: ${err.message}`);
      throw err;
    }
  }
  return out as unknown as Action;
}

// ------------------------------------------------------------------ the game

class MahJongg implements MahJonggGame {
  readonly type = MAH_JONGG;
  readonly players: number;
  readonly params: Readonly<Record<string, unknown>>;

  constructor(
    readonly rules: Ruleset,
    readonly cc: CompiledCard,
  ) {
    this.players = rules.players;
    this.params = { ruleset: rules.name, card: { name: cc.card.name, text: cc.card.text } };
  }

  newGame(seed: number): GameState {
    return newGame(this.rules, this.cc, seed);
  }
  legalActions(state: GameState, seat: number): Action[] {
    return legalActions(state, seat);
  }
  apply(state: GameState, action: Action): void {
    apply(state, action);
  }
  tryApply(state: GameState, action: Action): TilemateError | null {
    return tryApply(state, action);
  }
  view(state: GameState, seat: number): SeatView {
    return view(state, seat);
  }
  sharedView(state: GameState, seat: number): SeatView {
    return sharedView(state, seat);
  }
  phase(state: GameState): Phase['kind'] {
    return state.phase.kind;
  }
  nextToAct(state: GameState): number {
    return nextToAct(state);
  }
  waitingOn(state: GameState): number[] {
    return waitingOn(state);
  }
  isOver(state: GameState): boolean {
    return state.phase.kind === 'ended';
  }
  actionCount(state: GameState): number {
    return state.actionCount;
  }
  drawnTile(state: GameState, action: Action): string | null {
    return action.type === 'draw' ? tileName(state.wall[state.wallPos - 1]) : null;
  }
  outcome(state: GameState): Outcome | null {
    const r = state.result;
    if (r === null) return null;
    // a Siamese player may win twice: she is one winner; at a Royale table several players may each win
    const winners = [...new Set(r.winners)];
    return { winners, winShare: r.scores.map((_, s) => (winners.includes(s) ? 1 : 0)), scores: [...r.scores] };
  }
  endSummary(state: GameState): Record<string, unknown> {
    const r = state.result;
    if (r === null) ruleViolation('the summary of a game that has not ended');
    return { winners: r.winners, wallGame: r.wallGame, scores: r.scores };
  }
  validate(state: GameState): void {
    validate(state);
  }
  clone(state: GameState): GameState {
    return cloneState(state);
  }
  encodeAction(action: Action): Record<string, unknown> {
    return encodeAction(action);
  }
  decodeAction(raw: unknown): Action {
    return decodeAction(raw);
  }
}

const games = new WeakMap<CompiledCard, Map<Ruleset, MahJonggGame>>();
/**
 * Mah Jongg with a ruleset and a card already at hand: one game object per pair, so the
 * game loops and searches that ask for it at every deal share it (it holds no state).
 */
export function mahJonggGame(rules: Ruleset, cc: CompiledCard): MahJonggGame {
  let byRules = games.get(cc);
  if (byRules === undefined) {
    byRules = new Map();
    games.set(cc, byRules);
  }
  let g = byRules.get(rules);
  if (g === undefined) {
    g = new MahJongg(rules, cc);
    byRules.set(rules, g);
  }
  return g;
}

const compiled: CardSource = (text) => compileCard(parseCard(text));

export const MAH_JONGG: GameType<MahJonggSpec> = {
  name: 'mah-jongg',
  title: 'American Mah Jongg',
  record: { format: 'tilemate-record', version: 1 },
  rulesets: Object.keys(RULESETS),
  score: { name: 'points', better: 'higher' },
  /** `{ ruleset, card: { name?, text }, players? }`: the card's text is what a record keeps. */
  load(params, cards = compiled) {
    const { ruleset = 'nmjl-4p', card, players } = params;
    if (typeof ruleset !== 'string') return bad(`expected a ruleset name, got ${show(ruleset)}`);
    const rules = loadRuleset(ruleset);
    if (players !== undefined && players !== rules.players) bad(`${rules.name} is played by ${rules.players} players, not ${show(players)}`);
    if (!isObject(card) || typeof card.text !== 'string') return bad('expected "card": {"name": ..., "text": ...}');
    let cc: CompiledCard;
    try {
      cc = cards(card.text);
    } catch (err) {
      if (err instanceof TilemateError) throw new TilemateError(err.code, `the card does not load: ${err.message}`);
      throw err;
    }
    if (card.name !== undefined && card.name !== cc.card.name) bad(`the card text is named "${cc.card.name}" but the header says ${show(card.name)}`);
    return mahJonggGame(rules, cc);
  },
  recordSummary: (h, end) => {
    const lists = endLists(end.winners, end.scores);
    const card = h.card as { name?: unknown } | undefined;
    if (lists === null || typeof h.ruleset !== 'string' || typeof card?.name !== 'string') return null;
    return { ruleset: h.ruleset, card: card.name, ...lists, wallGame: end.wallGame === true };
  },
  arenaGame: (game) => game,
};
