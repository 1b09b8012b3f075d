import type { DominoAction } from '../../engine/domino/game.js';
import { nextInt } from '../../engine/rng.js';
import type { Agent, Turn } from '../agent.js';
import type { MexicanTrainSpec } from '../../engine/domino/mexican-train.js';

/** Any legal action, uniformly: the floor. */
export class RandomDominoAgent implements Agent<MexicanTrainSpec> {
  readonly name = 'random';
  act(turn: Turn<MexicanTrainSpec>): DominoAction {
    const options = turn.legal();
    return options.length === 1 ? options[0] : options[nextInt(turn.rng, options.length)];
  }
}
