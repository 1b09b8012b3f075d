import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { readSeat } from '../../engine/mah-jongg/reading.js';
import { apply, beforePlay, cloneState, nextToAct, type Action, type GameState } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { nextU32, seedRng, type RngState } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import type { Agent, Turn } from '../agent.js';
import { HeuristicAgent, MEDIUM_HABITS } from './heuristic.js';
import { LearnedAgent } from './learned.js';
import type { ValueModel } from './model.js';
import { OVERRULE, paired, playCandidates } from './montecarlo.js';
import { tableTurns } from '../table.js';

/**
 * The expert: the learned policy with a short search. At a discard or an answer to a
 * discard it takes the model's best few choices and plays each out in sampled worlds
 * (engine/mah-jongg/determinize.ts: the tiles it has not seen dealt to the other racks and the wall),
 * not to the end of the game but to its own next turn: the others play as medium bots, its
 * own answers to their discards are the policy's, and the position it reaches (after its next
 * draw, or after a call) is rated by the model (1 if it can declare Mah Jongg there; a game
 * that ends first counts 1 if it won, else 0). A few dozen such short playouts see the draws
 * and the calls the one-step rating can only average over, at a fraction of a full playout's
 * cost. A challenger replaces the policy's choice only when its paired advantage is more than
 * OVERRULE standard errors, as in the other searching players.
 */
export interface LookaheadBudget {
  /** Sampled worlds per decision (common to every candidate). */
  worlds: number;
  /** The model's best choices weighed. */
  candidates: number;
  /**
   * A safety valve, not the budget: stop sampling worlds after this many milliseconds (at
   * least two are always played). The worlds are the budget, so the same position gets the
   * same choice on any machine; the valve only opens on a machine far slower than planned.
   */
  ms: number;
  /**
   * Play each candidate to the end of the game instead of to the seat's next turn, rated 1 if
   * the seat won, else 0, with the policy itself in the seat (issue 30: a teacher that does not
   * lean on the model's ratings). For measuring only: a full playout costs several short ones.
   */
  toEnd?: boolean;
  /**
   * Worlds that agree with the table (issue 48): this part of each opponent's hidden tiles dealt
   * from the hand the reading of her says she is making (engine/mah-jongg/determinize.ts
   * WorldLean); unset: every unseen tile dealt at random.
   */
  lean?: number;
  /** With lean: only opponents who have exposed something are read (a surer reading); the others' racks are dealt at random. */
  leanShown?: boolean;
  /**
   * Sampled worlds for a Charleston pass, vote or courtesy offer (unset or 0: the policy's own
   * choice). Each of the model's best `candidates` is played on in each world, the others
   * choosing as medium bots, to the seat's next step (the next pass, the vote, the courtesy
   * offer, or its first turn in play), rated there by the model's best choice: the tiles that
   * come back are sampled, not averaged over by the rating.
   */
  charlestonWorlds?: number;
}

export const EXPERT_LOOKAHEAD: LookaheadBudget = { worlds: 12, candidates: 3, ms: 2000 };

export class LookaheadAgent implements Agent {
  readonly name: string;
  private readonly policy: LearnedAgent;
  /** The other seats' players, one a seat (each keeps its own hand's work from one decision to the next). */
  private readonly opponents: HeuristicAgent[];

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly model: ValueModel | null,
    private readonly budget: LookaheadBudget = EXPERT_LOOKAHEAD,
    name = 'expert',
  ) {
    this.name = name;
    this.policy = new LearnedAgent(cc, model, {}, `${name}-policy`);
    this.opponents = Array.from({ length: rules.players }, () => new HeuristicAgent(cc, MEDIUM_HABITS, 'playout'));
  }

  act(turn: Turn): Action {
    const before = beforePlay(turn.phase);
    const worlds = before ? (this.budget.charlestonWorlds ?? 0) : this.budget.worlds;
    if (this.model === null || worlds === 0 || (turn.phase !== 'discard' && turn.phase !== 'claims' && !before) || this.rules.racks > 1 || turn.view().mahJonggs.length > 0)
      return this.policy.act(turn);
    const choices = this.policy.choices(turn).slice(0, this.budget.candidates);
    if (choices.length === 0) return this.policy.act(turn);
    if (choices.length === 1) return choices[0].action;
    return this.search(
      turn,
      choices.map((c) => c.action),
      worlds,
    );
  }

  private search(turn: Turn, candidates: Action[], worlds: number): Action {
    const view = turn.view();
    const seat = turn.seat;
    const base = nextU32(turn.rng);
    const start = Date.now();
    const diffs: number[][] = candidates.map(() => []);
    // to the end of the game (toEnd): the seat by its policy, the others as medium bots
    const players = this.opponents.map((o, s) => (s === seat ? this.policy : o));
    // before play no world leans (determinize deals the Charleston's racks at random): nobody is read
    const lean =
      this.budget.lean === undefined || beforePlay(view.phase)
        ? undefined
        : { share: this.budget.lean, readings: players.map((_, s) => (s === seat || (this.budget.leanShown === true && view.exposures[s].length === 0) ? null : readSeat(this.cc, view, s))) };
    for (let w = 0; w < worlds; w++) {
      if (w >= 2 && Date.now() - start > this.budget.ms) break;
      const world = determinize(view, this.rules, this.cc, seedRng((base + w * 0x9e3779b9) >>> 0), lean);
      const seed = (base ^ ((w + 1) * 0x85ebca6b)) >>> 0;
      const values =
        this.budget.toEnd === true
          ? playCandidates(world, candidates, players, seed, seat).won.map((won) => (won ? 1 : 0))
          : candidates.map((a) => {
              const s = cloneState(world);
              apply(s, a);
              return this.untilMyTurn(s, seat, seedRng(seed));
            });
      values.forEach((v, i) => diffs[i].push(v - values[0]));
    }
    let pick = 0,
      bestEdge = 0;
    for (let i = 1; i < candidates.length; i++) {
      const { mean, se } = paired(diffs[i]);
      const e = mean - OVERRULE * se;
      if (e > bestEdge) {
        bestEdge = e;
        pick = i;
      }
    }
    return candidates[pick];
  }

  private untilMyTurn(state: GameState, seat: number, rng: RngState): number {
    return untilOwnTurn(state, seat, rng, this.policy, this.opponents);
  }
}

/**
 * Plays a sampled world on until the seat's own next turn with a full rack, rated there by its
 * player's model (`own.positionValue`), or to the end of the game (1 if it won, else 0): the
 * seat plays `own`, the others `opponents`. The short playout of the searching players. Before
 * play, the seat's next Charleston step (a pass, the vote, the courtesy offer) ends it too,
 * rated by `own.charlestonValue`.
 */
export function untilOwnTurn(
  state: GameState,
  seat: number,
  rng: RngState,
  own: Agent & { positionValue(turn: Turn): number; charlestonValue?(turn: Turn): number },
  opponents: readonly Agent[],
): number {
  let steps = 0;
  const turns = tableTurns(mahJonggGame(state.rules, state.cc), state, rng);
  while (state.phase.kind !== 'ended') {
    const s = nextToAct(state);
    const turn = turns[s];
    const kind = state.phase.kind;
    turn.phase = kind;
    if (s === seat && steps > 0) {
      if (kind === 'discard') return own.positionValue(turn);
      if (beforePlay(kind) && own.charlestonValue) return own.charlestonValue(turn);
    }
    apply(state, (s === seat ? own : opponents[s]).act(turn));
    steps++;
  }
  return state.result!.winners.includes(seat) ? 1 : 0;
}
