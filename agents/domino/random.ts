import type { DominoAction } from '../../engine/domino/game.js';
import { nextInt } from '../../engine/rng.js';
import type { DominoAgent, DominoTurn } from './agent.js';

/** Any legal action, uniformly: the floor. */
export class RandomDominoAgent implements DominoAgent {
  readonly name = 'random';
  act(turn: DominoTurn): DominoAction {
    const options = turn.legal();
    return options.length === 1 ? options[0] : options[nextInt(turn.rng, options.length)];
  }
}
