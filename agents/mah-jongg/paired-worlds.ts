import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import type { Agent } from '../agent.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { paired, playCandidates } from './montecarlo.js';

/**
 * A decision's choices played on in the same sampled worlds (common random numbers): world w
 * is dealt from the seat's view alone (engine/mah-jongg/determinize.ts: the tiles it has not
 * seen, dealt at random to the other racks and the wall) from a seed drawn from `seed` and w,
 * and every choice is played to the end of the game in it with the same continuation seed, the
 * seat by the strong habits, the others as medium players. What one choice scored less what
 * another scored, world by world, is a paired difference whose spread is far less than either
 * score's. Worlds are added a batch at a time, so a caller stops as soon as it knows enough:
 * the truth set (training/truth.ts) plays on until each choice's cost is known to about ±3
 * points, the coach's judge (agents/mah-jongg/judge.ts) until its verdict is clear.
 *
 * Before play (a Charleston pass, the vote, the courtesy offer) the rest of the Charleston is
 * played in each world too: determinize deals the racks as they stand at that step.
 */
export class PairedWorlds {
  /** scores[i][w]: what the seat scored in world w after choice i. */
  readonly scores: number[][];
  /** Actions applied by the playouts so far (the work done). */
  steps = 0;
  private readonly policies: Agent[];

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly view: SeatView,
    readonly choices: readonly Action[],
    private readonly seed: number,
  ) {
    this.scores = choices.map(() => []);
    this.policies = Array.from({ length: rules.players }, (_, s) => new HeuristicAgent(cc, s === view.seat ? STRONG_HABITS : MEDIUM_HABITS, 'playout'));
  }

  get worlds(): number {
    return this.scores[0]?.length ?? 0;
  }

  /** Plays `k` more worlds for every choice. */
  play(k: number): void {
    for (let i = 0; i < k; i++) {
      const w = this.worlds;
      const world = determinize(this.view, this.rules, this.cc, seedRng(worldSeed(this.seed, w)));
      const played = playCandidates(world, this.choices, this.policies, continuationSeed(this.seed, w), this.view.seat);
      this.steps += played.steps;
      played.scores.forEach((x, c) => this.scores[c].push(x));
    }
  }

  mean(i: number): number {
    const s = this.scores[i];
    let t = 0;
    for (const x of s) t += x;
    return s.length === 0 ? 0 : t / s.length;
  }

  /** Choice i's score less choice j's, world by world: mean and standard error. */
  versus(i: number, j: number): { mean: number; se: number } {
    const a = this.scores[i],
      b = this.scores[j];
    return paired(a.map((x, w) => x - b[w]));
  }

  /** The choice with the highest mean score (the first of equals). */
  best(): number {
    let best = 0;
    for (let i = 1; i < this.choices.length; i++) if (this.mean(i) > this.mean(best)) best = i;
    return best;
  }
}

/** The seed of world w's deal. */
export const worldSeed = (seed: number, w: number): number => (seed + Math.imul(w, 0x9e3779b9)) >>> 0;
/** The seed of world w's playouts (the same for every choice). */
export const continuationSeed = (seed: number, w: number): number => (seed ^ Math.imul(w + 1, 0x85ebca6b)) >>> 0;
