import { ruleViolation, TilemateError } from '../errors.js';
import { endLists, show, type Game, type GameType, type Outcome } from '../games.js';
import { apply, cloneDominoState, legalActions, newMatch, newRound, sharedView, tryApply, validateDomino, view, type DominoAction, type DominoState, type DominoView } from './game.js';
import { checkPlayers, DOMINO_RULESETS, loadDominoRuleset, type DominoRuleset } from './rulesets.js';
import { dominoName, parseDomino } from './tiles.js';

/**
 * Mexican Train behind the one game interface (engine/games.ts): the rules are
 * engine/domino/game.ts; this file binds a ruleset, the number of players and the rounds
 * played (the whole game, or one round) to them, and writes actions with dominoes by name
 * (`12-5`), the Mexican train as `"mexican"` and a seat's train by its seat number.
 */

export interface MexicanTrainSpec {
  state: DominoState;
  action: DominoAction;
  view: DominoView;
  phase: DominoState['phase'];
}

/** `"match"`: every round of the ruleset; `{round: r}`: one round (an index into the ruleset's engines). */
export type Rounds = 'match' | { round: number };

export type MexicanTrainGame = Game<MexicanTrainSpec> & { readonly rules: DominoRuleset; readonly rounds: Rounds };

const bad = (message: string): never => {
  throw new TilemateError('TM_BAD_INPUT', message);
};

/** A train by name: a seat's number, or "mexican". */
export const trainLabel = (players: number, train: number): string | number => (train === players ? 'mexican' : train);

/** A train from its name: a seat number (or its digits), or "mexican" (or "m"); NaN when it is neither. */
export function trainOf(players: number, t: unknown): number {
  if (t === 'mexican' || t === 'm') return players;
  if (typeof t === 'number') return t;
  if (typeof t === 'string' && /^\d{1,2}$/.test(t)) return Number(t);
  return NaN;
}

class MexicanTrain implements MexicanTrainGame {
  readonly type = MEXICAN_TRAIN;
  readonly params: Readonly<Record<string, unknown>>;

  constructor(
    readonly rules: DominoRuleset,
    readonly players: number,
    readonly rounds: Rounds,
  ) {
    this.params = { ruleset: rules.name, players, game: rounds };
  }

  newGame(seed: number): DominoState {
    return this.rounds === 'match' ? newMatch(this.rules, this.players, seed) : newRound(this.rules, this.players, seed, this.rounds.round);
  }
  legalActions(state: DominoState, seat: number): DominoAction[] {
    return legalActions(state, seat);
  }
  apply(state: DominoState, action: DominoAction): void {
    apply(state, action);
  }
  tryApply(state: DominoState, action: DominoAction): TilemateError | null {
    return tryApply(state, action);
  }
  view(state: DominoState, seat: number): DominoView {
    return view(state, seat);
  }
  sharedView(state: DominoState, seat: number): DominoView {
    return sharedView(state, seat);
  }
  phase(state: DominoState): DominoState['phase'] {
    return state.phase;
  }
  nextToAct(state: DominoState): number {
    return state.phase === 'play' ? state.turn : -1;
  }
  waitingOn(state: DominoState): number[] {
    return state.phase === 'play' ? [state.turn] : [];
  }
  isOver(state: DominoState): boolean {
    return state.phase === 'ended';
  }
  actionCount(state: DominoState): number {
    return state.actionCount;
  }
  drawnTile(state: DominoState, action: DominoAction): string | null {
    return action.type === 'draw' ? dominoName(state.step.drawn) : null;
  }
  outcome(state: DominoState): Outcome | null {
    const r = state.result;
    if (r === null) return null;
    // senior games, Winning: the lowest total wins the game; in a game of one round the player
    // who went out wins it, even beside a hand of blanks (0 pips too)
    const only = state.rounds.length === 1 ? state.rounds[0] : null;
    const winners = only !== null && only.outBy >= 0 ? [only.outBy] : [...r.winners];
    // a tie for the lowest total shares the win
    return { winners, winShare: r.totals.map((_, s) => (winners.includes(s) ? 1 / winners.length : 0)), scores: [...r.totals] };
  }
  endSummary(state: DominoState): Record<string, unknown> {
    const r = state.result;
    if (r === null) ruleViolation('the summary of a game that has not ended');
    return { totals: r.totals, winners: r.winners, rounds: state.rounds.map((x) => ({ engine: x.engine, outBy: x.outBy, pipsLeft: x.pipsLeft })) };
  }
  validate(state: DominoState): void {
    validateDomino(state);
  }
  clone(state: DominoState): DominoState {
    return cloneDominoState(state);
  }
  encodeAction(a: DominoAction): Record<string, unknown> {
    return a.type === 'play' ? { type: 'play', seat: a.seat, tile: dominoName(a.tile), train: trainLabel(this.players, a.train) } : { type: a.type, seat: a.seat };
  }
  decodeAction(raw: unknown): DominoAction {
    const a = raw as Record<string, unknown> | null;
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return bad('expected an action object such as {"type": "play", "seat": 0, "tile": "12-5", "train": "mexican"}');
    const seat = a.seat;
    if (typeof seat !== 'number' || !Number.isSafeInteger(seat)) return bad(`${show(a.type)}: expected a seat number, got ${show(seat)}`);
    if (a.type === 'draw' || a.type === 'pass') return { type: a.type, seat };
    if (a.type !== 'play') return bad(`unknown action type ${show(a.type)}: play, draw or pass`);
    if (typeof a.tile !== 'string') return bad('a play needs a "tile" such as "12-5"');
    const tile = parseDomino(a.tile);
    const train = trainOf(this.players, a.train);
    if (!Number.isInteger(train)) return bad(`no train ${show(a.train)}: a seat number or "mexican"`);
    return { type: 'play', seat, tile, train };
  }
}

/** Mexican Train with a ruleset at hand: the whole game, or one round. */
export function mexicanTrainGame(rules: DominoRuleset, players: number, rounds: Rounds = 'match'): MexicanTrainGame {
  checkPlayers(rules, players);
  if (rounds !== 'match') {
    const r = rounds.round;
    if (!Number.isInteger(r) || r < 0 || r >= rules.engines.length) bad(`${rules.name} has rounds 0 to ${rules.engines.length - 1}, not ${show(r)}`);
  }
  return new MexicanTrain(rules, players, rounds);
}

export const MEXICAN_TRAIN: GameType<MexicanTrainSpec> = {
  name: 'mexican-train',
  title: 'Mexican Train',
  record: { format: 'tilemate-domino-record', version: 1 },
  rulesets: Object.keys(DOMINO_RULESETS),
  score: { name: 'pips left', better: 'lower' },
  /** `{ ruleset, players, game: "match" | {round} }` (or `round: r` for one round). */
  load(params) {
    const { ruleset = 'sun-lakes', players = 4, game = 'match', round } = params;
    if (typeof ruleset !== 'string') return bad(`expected a ruleset name, got ${show(ruleset)}`);
    const rules = loadDominoRuleset(ruleset);
    if (typeof players !== 'number') return bad(`expected a number of players, got ${show(players)}`);
    let rounds: Rounds;
    if (round !== undefined) rounds = { round: round as number };
    else if (game === 'match') rounds = 'match';
    else if (typeof game === 'object' && game !== null && 'round' in game) rounds = { round: (game as { round: number }).round };
    else return bad(`expected "game": "match" or {"round": r}, got ${show(game)}`);
    return mexicanTrainGame(rules, players, rounds);
  },
  recordSummary: (h, end) => {
    const lists = endLists(end.winners, end.totals);
    return lists === null || typeof h.ruleset !== 'string' ? null : { ruleset: h.ruleset, ...lists };
  },
  arenaGame: (game, deal) => {
    const g = game as MexicanTrainGame;
    return mexicanTrainGame(g.rules, g.players, { round: deal % g.rules.engines.length });
  },
};
