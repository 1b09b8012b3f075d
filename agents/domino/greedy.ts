import type { DominoAction, DominoView } from '../../engine/domino/game.js';
import { hasEnd, HI, isDouble, LO, MAX_PIP, otherEnd, PIPS, type DominoId } from '../../engine/domino/tiles.js';
import type { Agent, Turn } from '../agent.js';
import type { MexicanTrainSpec } from '../../engine/domino/mexican-train.js';

/**
 * The longest chain of the hand's tiles that can be laid from `end` (most tiles, then most
 * pips), in playing order: the plan for the player's own train. A depth-first search over the
 * hand, cut off after `budget` steps (the best chain found by then: exact for most hands, and it keeps a greedy decision to microseconds).
 */
export function plannedPath(hand: readonly DominoId[], end: number, budget = 1500): DominoId[] {
  // the hand's tiles by end: a step looks only at the tiles that can follow
  const byEnd: number[][] = Array.from({ length: MAX_PIP + 1 }, () => []);
  for (let i = 0; i < hand.length; i++) {
    byEnd[HI[hand[i]]].push(i);
    if (LO[hand[i]] !== HI[hand[i]]) byEnd[LO[hand[i]]].push(i);
  }
  const used = new Uint8Array(hand.length);
  const path: DominoId[] = [];
  let best: DominoId[] = [];
  let bestPips = -1;
  let steps = 0;
  const rec = (e: number, pips: number): void => {
    if (path.length > best.length || (path.length === best.length && pips > bestPips)) {
      best = path.slice();
      bestPips = pips;
    }
    if (++steps > budget || best.length === hand.length) return;
    const next = byEnd[e];
    for (let k = 0; k < next.length; k++) {
      const i = next[k];
      if (used[i]) continue;
      const t = hand[i];
      used[i] = 1;
      path.push(t);
      rec(HI[t] === e ? LO[t] : HI[t], pips + PIPS[t]);
      path.pop();
      used[i] = 0;
      if (steps > budget) return;
    }
  };
  rec(end, 0);
  return best;
}

export interface GreedyChoice {
  action: DominoAction;
  /** The plan for the seat's own train, from its end now (before the action). */
  path: DominoId[];
}

/**
 * The greedy player's choice, with its reasons: lay the planned path on its own train; put
 * tiles off that path on the Mexican and marked trains; play doubles early when they can be
 * covered; and when an opponent is near out (two tiles or fewer), off-load the most pips.
 */
export function greedyChoice(v: DominoView, legal: readonly DominoAction[], doublerCovers: 'same-turn' | 'free-turn', pathBudget = 1500): GreedyChoice {
  const own = v.trains[v.seat];
  const path = plannedPath(v.hand, own.end, pathBudget);
  if (legal.length === 1 || legal[0].type !== 'play') return { action: legal[0], path };
  const onPath = new Set(path);
  let nearOut = false;
  for (let s = 0; s < v.players; s++) if (s !== v.seat && v.handCounts[s] <= 2) nearOut = true;
  let best = legal[0],
    bestScore = -Infinity;
  for (const a of legal) {
    if (a.type !== 'play') continue;
    const t = a.tile;
    let score = PIPS[t] * (nearOut ? 3 : 0.25);
    if (isDouble(t)) {
      // a double is best played while a cover is in hand (it must be covered, by us or others)
      const pip = otherEnd(t, a.train === v.seat ? own.end : v.trains[a.train].end);
      let cover = false;
      for (const h of v.hand)
        if (h !== t && hasEnd(h, pip)) {
          cover = true;
          break;
        }
      score += cover ? 40 : doublerCovers === 'free-turn' ? 12 : -5;
    }
    if (a.train === v.seat) {
      if (t === path[0]) score += 25;
      else if (onPath.has(t)) score += 5;
      else score -= 10;
      if (own.marked) score += 8; // takes the marker down
    } else if (onPath.has(t)) {
      score -= 30; // keeps the own train's plan
    } else {
      score += 15;
    }
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return { action: best, path };
}

export class GreedyDominoAgent implements Agent<MexicanTrainSpec> {
  readonly name = 'greedy';
  constructor(private readonly doublerCovers: 'same-turn' | 'free-turn') {}
  act(turn: Turn<MexicanTrainSpec>): DominoAction {
    const legal = turn.legal();
    if (legal.length === 1) return legal[0];
    return greedyChoice(turn.view(), legal, this.doublerCovers).action;
  }
}
