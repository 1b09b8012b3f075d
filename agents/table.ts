import { ruleViolation } from '../engine/errors.js';
import type { Game, GameSpec } from '../engine/games.js';
import { RecordWriter } from '../engine/record.js';
import type { RngState } from '../engine/rng.js';
import type { Agent, Turn } from './agent.js';

/**
 * A seat's turn at a table of bots, one per seat for a whole game: its phase is set before
 * each ask, and the view and the legal actions are worked out only when the agent asks.
 * Game loops make nothing per action (an agent keeps no turn past its `act`), and the view is
 * the game's shared one (Game.sharedView): bots only read it, and keep nothing of it.
 */
export class TableTurn<G extends GameSpec> implements Turn<G> {
  phase: G['phase'];
  constructor(
    private readonly game: Game<G>,
    private readonly state: G['state'],
    readonly seat: number,
    readonly rng: RngState,
  ) {
    this.phase = game.phase(state);
  }

  // own properties, not methods: a turn copied with a spread ({ ...turn, rng }) keeps them
  readonly view = (): G['view'] => this.game.sharedView(this.state, this.seat);
  readonly legal = (): G['action'][] => this.game.legalActions(this.state, this.seat);
}

/** One turn per seat of the game's table (see TableTurn). */
export function tableTurns<G extends GameSpec>(game: Game<G>, state: G['state'], rng: RngState): TableTurn<G>[] {
  return Array.from({ length: game.players }, (_, seat) => new TableTurn(game, state, seat, rng));
}

/**
 * Plays a game to its end: each seat the state waits on is asked, lowest seat first, for its
 * action, through its view only. `onAction` sees every action applied (records, invariant
 * checks). Returns the number of actions applied.
 */
export function playOut<G extends GameSpec>(game: Game<G>, state: G['state'], agents: readonly Agent<G>[], rng: RngState, onAction?: (a: G['action'], s: G['state']) => void): number {
  let applied = 0;
  const turns = tableTurns(game, state, rng);
  for (;;) {
    const seat = game.nextToAct(state);
    if (seat < 0) {
      if (game.isOver(state)) return applied;
      ruleViolation('nobody to act in a live game');
    }
    const turn = turns[seat];
    turn.phase = game.phase(state);
    const action = agents[seat].act(turn);
    game.apply(state, action);
    applied++;
    onAction?.(action, state);
  }
}

/**
 * The action the seat to act takes without being asked: its only legal action, when that
 * action holds nothing to choose (a draw, a decline, a pass). Nobody asks a person for those:
 * the terminal game and the server make them for her.
 */
export function forcedAction<A extends { type: string; seat: number }>(legal: readonly A[]): A | null {
  return legal.length === 1 && Object.keys(legal[0]).length === 2 ? legal[0] : null;
}

/**
 * Plays one game of bots to its end and returns the final state, and its record when asked
 * for (building a record's lines is a large share of a fast game's time).
 */
export function playRecorded<G extends GameSpec>(
  game: Game<G>,
  seed: number,
  bots: { names: string[]; agents: Agent<G>[] },
  rng: RngState,
  record = true,
): { state: G['state']; record: string | null } {
  const state = game.newGame(seed);
  if (!record) {
    playOut(game, state, bots.agents, rng);
    return { state, record: null };
  }
  const writer = new RecordWriter(game, seed, bots.names);
  playOut(game, state, bots.agents, rng, (a) => writer.action(a));
  return { state, record: writer.text(state) };
}
