import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { apply, cloneState, legalActions, nextToAct, type Action, type GameState, type SeatView } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng, type RngState } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import type { Agent } from '../agent.js';
import { tableTurns } from '../table.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import type { LearnedAgent } from './learned.js';
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

/**
 * A decision's choices played on in the same sampled worlds as PairedWorlds deals them, but
 * only to the seat's own next turn in play (after a Charleston choice, through the rest of the
 * Charleston to its first turn), where the coach's model (agents/mah-jongg/learned.ts) rates the
 * position: its chance of winning and its expected score. The seat plays by the model's policy
 * there and the others as medium players; a game that ends first counts what it scored. The
 * future past that turn is the model's average, not one sampled game, so the paired
 * differences spread far less than whole games' do: the judge's quick evaluation (the
 * learned value model as the evaluation), measured against whole games by the truth set.
 */
export class OutlookWorlds {
  /** win[i][w]: the chance of winning in world w after choice i (1 or 0 when the game ended first); score[i][w]: the expected score, in points. */
  readonly win: number[][];
  readonly score: number[][];
  steps = 0;
  private readonly opponents: Agent[];

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly view: SeatView,
    readonly choices: readonly Action[],
    private readonly seed: number,
    private readonly own: LearnedAgent,
  ) {
    this.win = choices.map(() => []);
    this.score = choices.map(() => []);
    this.opponents = Array.from({ length: rules.players }, () => new HeuristicAgent(cc, MEDIUM_HABITS, 'outlook'));
  }

  get worlds(): number {
    return this.win[0]?.length ?? 0;
  }

  play(k: number): void {
    for (let i = 0; i < k; i++) {
      const w = this.worlds;
      const world = determinize(this.view, this.rules, this.cc, seedRng(worldSeed(this.seed, w)));
      this.choices.forEach((a, c) => {
        const s = cloneState(world);
        apply(s, a);
        const { win, score } = this.outlook(s, seedRng(continuationSeed(this.seed, w)));
        this.win[c].push(win);
        this.score[c].push(score);
      });
    }
  }

  /** Plays on to the seat's next turn in play and rates it (or to the end of the game). */
  private outlook(state: GameState, rng: RngState): { win: number; score: number } {
    const seat = this.view.seat;
    const turns = tableTurns(mahJonggGame(state.rules, state.cc), state, rng);
    let moved = 0;
    while (state.phase.kind !== 'ended') {
      const s = nextToAct(state);
      const turn = turns[s];
      turn.phase = state.phase.kind;
      if (s === seat && state.phase.kind === 'discard' && moved > 0 && !legalActions(state, s).some((x) => x.type === 'declare')) {
        const o = this.own.positionOutlook(turn);
        if (o !== null) return o;
      }
      apply(state, (s === seat ? this.own : this.opponents[s]).act(turn));
      moved++;
      this.steps++;
    }
    return { win: state.result!.winners.includes(seat) ? 1 : 0, score: state.result!.scores[seat] };
  }

  /** Choice i's value less choice j's, world by world, as `points(win, score)` weighs them: mean and standard error. */
  versus(i: number, j: number, points: (win: number, score: number) => number): { mean: number; se: number } {
    return paired(this.win[i].map((x, w) => points(x, this.score[i][w]) - points(this.win[j][w], this.score[j][w])));
  }
}
