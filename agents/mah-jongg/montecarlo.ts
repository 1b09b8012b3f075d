import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { apply, cloneState, type Action, type GameState } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { nextU32, seedRng } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import type { Agent, Turn } from '../agent.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from './heuristic.js';
import { playOut } from '../table.js';

/**
 * Plays every candidate out from one sampled world, with the same playout randomness for
 * each (common random numbers): what the seat scores, and whether it won.
 */
export function playCandidates(world: GameState, candidates: readonly Action[], policies: readonly Agent[], seed: number, seat: number): { scores: number[]; won: boolean[]; steps: number } {
  const scores: number[] = [],
    won: boolean[] = [];
  let steps = 0;
  for (const action of candidates) {
    const s = cloneState(world);
    apply(s, action);
    steps += playOut(mahJonggGame(s.rules, s.cc), s, policies, seedRng(seed));
    scores.push(s.result!.scores[seat]);
    won.push(s.result!.winners.includes(seat));
  }
  return { scores, won, steps };
}

/**
 * Standard errors by which a candidate must beat the default to replace it, in the bot and
 * in the advice alike (about 98% one-sided): with 8 deals one standard error let a discard
 * that breaks a 1-away hand win, and on 500 duplicate deals a bot overruling at one standard
 * error won 22.4% where its policy alone won 23.4% (3 medium opponents).
 */
export const OVERRULE = 2;

/** Mean and standard error of paired differences (one per sampled world). */
export function paired(diffs: readonly number[]): { mean: number; se: number } {
  const n = diffs.length;
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  return { mean, se: sd / Math.sqrt(n) };
}

/** Mean of paired differences less `overrule` standard errors. */
function edge(diffs: readonly number[], overrule = OVERRULE): number {
  const { mean, se } = paired(diffs);
  return mean - overrule * se;
}

/** How much searching a decision gets. */
export interface Budget {
  /** Sampled worlds per decision; every candidate is played out in each (common random numbers). */
  worlds: number;
  /** Discards weighed: the heuristic's best few. */
  candidates: number;
  /**
   * The work cap: no further world is sampled once the decision's playouts have applied this
   * many actions (at least one world is always played). Work, not time, so the same
   * position gets the same choice on any machine, however busy: the arena's results and
   * the bots' games stay a function of their seeds.
   */
  steps?: number;
  /**
   * A safety valve, not the budget: no further world after this many milliseconds. Only
   * for play against a person (the practice server), where a slow or busy machine must not
   * keep her waiting; it makes the choice depend on the machine, so the arena, self-play and
   * training never set it (a game's record still replays, from its actions).
   */
  ms?: number;
  /**
   * Standard errors by which a challenger must beat the default (default OVERRULE); 0 takes
   * the best mean score. For studies only (lab/overrule-study.ts: 0 won 7.8 points less
   * of the games, 95% interval 2.6 to 13.1, on 51 duplicate deals at 8 worlds): the bots and
   * the advice keep OVERRULE.
   */
  overrule?: number;
}

/**
 * Hard: 8 worlds, the policy's choice and 2 more. The work cap fits its 200 ms a decision:
 * a playout action costs about 7 us of CPU on the development machine (2026, busy; the
 * searching included), and over whole games (bench/decisions.ts) a decision's playouts
 * apply 5,400 actions at the median, 10,500 at p99 and 14,000 at most (7 candidates: the
 * joker exchanges); 20,000 (about 140 ms) binds only on a decision far past those.
 */
export const HARD_BUDGET: Budget = { worlds: 8, candidates: 3, steps: 20_000 };
export const EXPERT_BUDGET: Budget = { worlds: 16, candidates: 4, steps: 40_000 };

/**
 * The Monte Carlo player. Its own policy is the heuristic with the searching players'
 * habits (agents/mah-jongg/heuristic.ts STRONG_HABITS: live forms only, missing single and pair
 * tiles counted as harder to get); for its discards, joker exchanges and answers to
 * discards that policy's choice is the default. It samples whole worlds consistent with its
 * view (engine/mah-jongg/determinize.ts: the unseen tiles dealt to the other racks and the wall),
 * plays the default and the other candidates out to the end, itself with its own habits and
 * the others as medium players (opponents draw, discard and call too), and takes a
 * challenger only when its paired mean score beats the default's by more than OVERRULE
 * standard errors. Mah Jongg is always declared when it can be. Its Charleston passes, vote
 * and courtesy offer are its policy's (the lookahead of agents/mah-jongg/charleston.ts minimises plain
 * tiles away, which pulls against the pair cost: with it, 23.4% against 26.2%).
 */
export class MonteCarloAgent implements Agent {
  readonly name: string;
  /** Its policy, which also plays its seat in the playouts. */
  private readonly heuristic: HeuristicAgent;
  /** The other seats' playout players, one a seat (each keeps its own hand's work from one decision to the next): the medium player's habits. */
  private readonly opponents: Agent[];

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly budget: Budget = HARD_BUDGET,
    name = 'montecarlo',
  ) {
    this.name = name;
    this.heuristic = new HeuristicAgent(cc, STRONG_HABITS, `${name}-policy`);
    this.opponents = Array.from({ length: rules.players }, () => new HeuristicAgent(cc, MEDIUM_HABITS, 'playout'));
  }

  act(turn: Turn): Action {
    if ((turn.phase !== 'discard' && turn.phase !== 'claims') || this.rules.racks > 1) return this.heuristic.act(turn);
    const options = turn.legal();
    const sure = options.find((a) => a.type === 'declare' || a.type === 'callMahJongg' || a.type === 'callDead');
    if (sure) return sure;
    const candidates = this.candidates(turn, options);
    if (candidates.length === 1) return candidates[0];
    if (this.budget.worlds === 0) return candidates[0];
    return this.search(turn, candidates);
  }

  /** The heuristic's own choice first, then the other answers to a discard, or the heuristic's next-best discards and the joker exchanges. */
  private candidates(turn: Turn, options: Action[]): Action[] {
    const first = this.heuristic.act(turn);
    const rest =
      turn.phase === 'claims'
        ? options.filter((a) => a.type === 'decline' || a.type === 'call')
        : [
            ...this.heuristic
              .rank(turn)
              .slice(0, this.budget.candidates)
              .map(({ tile }): Action => ({ type: 'discard', seat: turn.seat, tile })),
            ...options.filter((a) => a.type === 'exchange'),
          ];
    const key = (a: Action) => JSON.stringify(a);
    const seen = new Set([key(first)]);
    const out = [first];
    for (const a of rest)
      if (!seen.has(key(a))) {
        seen.add(key(a));
        out.push(a);
      }
    return out;
  }

  /**
   * Successive halving: every candidate is played in the first half of the worlds; the
   * default (candidates[0]) and the best challenger so far share the rest, so the playouts go
   * to the comparison that decides.
   */
  private search(turn: Turn, candidates: Action[]): Action {
    const view = turn.view();
    const seat = turn.seat;
    const base = nextU32(turn.rng);
    const { steps: cap = Infinity, ms } = this.budget;
    const start = ms === undefined ? 0 : Date.now();
    let steps = 0;
    // anytime: after the first world, stop at the work cap (or, where set, the clock's valve)
    const spentAll = (w: number) => w > 0 && (steps >= cap || (ms !== undefined && Date.now() - start > ms));
    const worldAt = (w: number) => determinize(view, this.rules, this.cc, seedRng((base + w * 0x9e3779b9) >>> 0));
    const seedAt = (w: number) => (base ^ ((w + 1) * 0x85ebca6b)) >>> 0;
    const policies = Array.from({ length: this.rules.players }, (_, s) => (s === seat ? this.heuristic : this.opponents[s]));
    // diffs[i]: candidate i's score less the default's, world by world
    const diffs: number[][] = candidates.map(() => []);
    const total = this.budget.worlds * candidates.length;
    let w = 0,
      spent = 0;
    for (; w < Math.ceil(this.budget.worlds / 2) && !spentAll(w); w++, spent += candidates.length) {
      const played = playCandidates(worldAt(w), candidates, policies, seedAt(w), seat);
      steps += played.steps;
      played.scores.forEach((x, i) => diffs[i].push(x - played.scores[0]));
    }
    let challenger = 0,
      bestEdge = -Infinity;
    const overrule = this.budget.overrule ?? OVERRULE;
    for (let i = 1; i < candidates.length; i++) {
      const e = edge(diffs[i], overrule);
      if (e > bestEdge) {
        bestEdge = e;
        challenger = i;
      }
    }
    if (challenger === 0) return candidates[0];
    const pair = [candidates[0], candidates[challenger]];
    for (; spent + 2 <= total && !spentAll(w); w++, spent += 2) {
      const played = playCandidates(worldAt(w), pair, policies, seedAt(w), seat);
      steps += played.steps;
      diffs[challenger].push(played.scores[1] - played.scores[0]);
    }
    // The default stands unless the challenger's paired advantage is more than
    // OVERRULE standard errors above zero: noise should not overrule a sound default (nor
    // one world, which has no spread, when the search was cut short).
    return diffs[challenger].length >= 2 && edge(diffs[challenger], overrule) > 0 ? candidates[challenger] : candidates[0];
  }
}
