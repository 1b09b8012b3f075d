import { ruleViolation } from '../../engine/errors.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { nextInt, type RngState } from '../../engine/rng.js';
import { JOKER, KINDS, type TileId } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../agent.js';

/** k random tiles from the rack, never a joker (jokers can never be passed). */
function randomPassable(concealed: readonly number[], k: number, rng: RngState): TileId[] {
  const pool: TileId[] = [];
  for (let t = 0; t < KINDS; t++) if (t !== JOKER) for (let i = 0; i < concealed[t]; i++) pool.push(t);
  const out: TileId[] = [];
  for (let i = 0; i < k && pool.length > 0; i++) out.push(pool.splice(nextInt(rng, pool.length), 1)[0]);
  return out;
}

/** Any legal action: passes sampled straight from the rack, everything else uniformly from the legal list. */
export class RandomAgent implements Agent {
  readonly name = 'random';

  act(turn: Turn): Action {
    const { seat, rng } = turn;
    // passes are sampled straight from the rack: their legal list runs to hundreds
    if (turn.phase === 'charleston') {
      const view = turn.view();
      if (!view.waitingOn.includes(seat)) ruleViolation('asked to pass twice');
      const blind = view.blindAllowed ? nextInt(rng, 4) : 0;
      return { type: 'pass', seat, tiles: randomPassable(view.concealed, 3 - blind, rng), blind };
    }
    if (turn.phase === 'courtesy') return { type: 'courtesy', seat, tiles: randomPassable(turn.view().concealed, nextInt(rng, 4), rng) };
    const options = turn.legal();
    return options[nextInt(rng, options.length)];
  }
}
