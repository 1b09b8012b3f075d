import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { handAfterCall } from '../../engine/mah-jongg/seat.js';
import { closestAway } from '../../engine/mah-jongg/hand-check.js';
import { JOKER, type TileId } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../agent.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * A simple greedy player: it declares Mah Jongg whenever it can, takes every joker it can
 * exchange for, calls a discard when the exposure brings its closest line nearer, and
 * discards (and passes) the tile whose loss leaves it closest to some line. No defence, no
 * reading of opponents: the floor the real bots are measured against, and the player the
 * conformance tests use to reach Mah Jongg, exposures and joker exchanges.
 */
export class GreedyAgent implements Agent {
  readonly name = 'greedy';
  constructor(private readonly cc: CompiledCard) {}

  /** Least tiles away over the lines the seat's exposures allow. */
  private closest(concealed: readonly number[], exposures: readonly Group[]): number {
    return closestAway(this.cc, concealed, exposures);
  }

  /** The k tiles (never jokers) whose loss hurts least, one at a time. */
  private worst(view: SeatView, k: number): TileId[] {
    const hand = [...view.concealed];
    const mine = myExposures(view);
    const out: TileId[] = [];
    for (let i = 0; i < k; i++) {
      let pick = -1,
        pickAway = 99;
      for (let t = 0; t < JOKER; t++) {
        if (hand[t] === 0) continue;
        hand[t]--;
        const a = this.closest(hand, mine);
        hand[t]++;
        if (a < pickAway) {
          pickAway = a;
          pick = t;
        }
      }
      if (pick < 0) break;
      hand[pick]--;
      out.push(pick);
    }
    return out;
  }

  act(turn: Turn): Action {
    const view = turn.view();
    const seat = view.seat;
    const legal = () => turn.legal();
    switch (view.phase) {
      case 'charleston':
        return { type: 'pass', seat, tiles: this.worst(view, 3), blind: 0 };
      case 'vote':
        return { type: 'vote', seat, yes: true };
      case 'courtesy':
        return { type: 'courtesy', seat, tiles: [] };
      default:
        break;
    }
    const options = legal();
    const find = (type: Action['type']) => options.find((a) => a.type === type);
    const mahJongg = find('declare') ?? find('callMahJongg');
    if (mahJongg) return mahJongg;
    const exchange = find('exchange');
    if (exchange) return exchange;
    if (view.phase === 'claims') return this.claim(view, options);
    if (view.phase === 'discard') {
      const [tile] = this.worst(view, 1);
      if (tile !== undefined) return { type: 'discard', seat, tile };
    }
    return find('draw') ?? options[0];
  }

  private claim(view: SeatView, options: Action[]): Action {
    const mine = myExposures(view);
    const now = this.closest(view.concealed, mine);
    let bestCall: Action = { type: 'decline', seat: view.seat };
    let bestAfter = now;
    for (const a of options) {
      if (a.type !== 'call') continue;
      const hand = handAfterCall(view.concealed, mine, view.claim!.tile, a);
      const after = this.closest(hand.concealed, hand.exposures);
      // an exposure must bring the hand nearer: the discarded tile is one more tile placed
      if (after < bestAfter) {
        bestAfter = after;
        bestCall = a;
      }
    }
    return bestCall;
  }
}

function myExposures(view: SeatView): Group[] {
  return view.exposures[view.seat].filter((x) => x.exchangeable).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
}
