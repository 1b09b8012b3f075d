import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { apply, beforePlay, cloneState, type Action, type Exposure, type GameState, type SeatView } from '../../engine/mah-jongg/game.js';
import { nextU32, seedRng, type RngState } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import { handAfterCall } from '../../engine/mah-jongg/seat.js';
import { JOKER, type Group, type TileId } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../../agents/agent.js';
import { Encoder, FEATURE_VERSION, type Afterstate } from '../../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS, myExposures, STRONG_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { forward, type ValueModel } from '../../agents/mah-jongg/model.js';
import { OVERRULE, paired } from '../../agents/mah-jongg/montecarlo.js';
import { hasPolicyHead } from './policy-model.js';
import { passState, sureAction } from '../../agents/mah-jongg/learned.js';
import { untilOwnTurn } from '../../agents/mah-jongg/lookahead.js';

/**
 * A player over every legal choice (issue 30): where the learned player (agents/mah-jongg/learned.ts)
 * weighs only the strong habits' five cheapest discards and passes among their five cheapest
 * tiles, this one encodes the afterstate of every distinct legal action — every held kind
 * discarded (jokers too), declining or every call the rules allow with each discard after it,
 * every Charleston pass of three by kind with every blind pass allowed, the vote, every
 * courtesy offer — and takes the best by the model. Mah Jongg, joker exchanges and calling a
 * hand dead are always taken, as every bot does.
 *
 * With a policy head (lab/bots/policy-model.ts) the discards and the answers to discards are
 * chosen by the policy logits (the head is trained only where the search gives it targets);
 * the Charleston, the vote, the courtesy and every position's worth are rated by the value
 * head. Without a head the value rates everything (the policy is the value), so a version-1
 * model plays here as its value says over every choice. Without a model it plays the strong habits.
 */
export interface PolicyOptions {
  /** Weight of the expected score (in hundreds of points) beside the chance of winning, in the value's rating. */
  scoreWeight?: number;
  /**
   * Charleston passes and courtesy offers only among the strong habits' cheapest this many
   * tiles (copies up to two), as the learned player chooses them (agents/mah-jongg/learned.ts PASS_POOL);
   * unset, among every legal one. For measuring where the wider choice costs.
   */
  passPool?: number;
}

export interface Candidate {
  action: Action;
  state: Afterstate;
}

/** A weighed decision: its candidates, their feature rows (candidates x width, the agent's own buffer) and ratings. */
export interface Weighed {
  view: SeatView;
  candidates: Candidate[];
  rows: Float32Array;
  /** The value's rating of each candidate (chance of winning plus the score at its weight). */
  value: Float64Array;
  /** The policy's score of each candidate (its logit, or the value without a head). */
  policy: Float64Array;
  /** Whether `policy` is the head's logits. */
  fromHead: boolean;
}

export class PolicyAgent implements Agent {
  readonly name: string;
  private readonly strong: HeuristicAgent;
  private readonly enc: Encoder;
  /** Numbers in a feature row (the model's feature version's). */
  readonly width: number;
  private rows: Float32Array;
  private out = new Float64Array(0);
  private readonly head: boolean;

  constructor(
    cc: CompiledCard,
    readonly model: ValueModel | null,
    private readonly opts: PolicyOptions = {},
    name = 'learned-all',
  ) {
    this.name = name;
    this.strong = new HeuristicAgent(cc, STRONG_HABITS, `${name}-habits`);
    this.enc = new Encoder(cc, { version: model?.featureVersion ?? FEATURE_VERSION });
    this.width = this.enc.width;
    this.rows = new Float32Array(64 * this.width);
    this.head = model !== null && hasPolicyHead(model);
  }

  act(turn: Turn): Action {
    if (this.model === null) return this.strong.act(turn);
    const d = this.decision(turn);
    if ('action' in d) return d.action;
    const w = this.weigh(d.view, d.candidates);
    return d.candidates[argmax(w.policy, d.candidates.length)].action;
  }

  /**
   * The decision in front of the seat: an action that needs no weighing (a draw, Mah Jongg, a
   * joker exchange, calling a hand dead, declining when no call is allowed), or every distinct
   * legal choice as a candidate with its afterstate.
   */
  decision(turn: Turn): { action: Action } | { view: SeatView; candidates: Candidate[] } {
    const view = turn.view();
    const seat = view.seat;
    if (view.phase === 'draw') return { action: { type: 'draw', seat } };
    const options = turn.legal();
    const sure = sureAction(options);
    if (sure) return { action: sure };
    if (beforePlay(view.phase)) {
      let passes: Action[] = options.filter((a) => a.type === 'pass' || a.type === 'vote' || a.type === 'courtesy');
      if (this.opts.passPool !== undefined) passes = this.withinPool(view, passes, this.opts.passPool, turn.rng);
      const candidates = passes.map((action) => ({ action, state: passState(view, action) }));
      return candidates.length > 0 ? { view, candidates } : { action: options[0] };
    }
    if (view.phase === 'claims') {
      const calls = options.filter((a) => a.type === 'call');
      if (calls.length === 0) return { action: options.find((a) => a.type === 'decline') ?? { type: 'decline', seat } };
      return { view, candidates: this.claimCandidates(view, calls, turn.rng) };
    }
    if (view.phase === 'discard') {
      const tiles = options.flatMap((a) => (a.type === 'discard' ? [a.tile] : []));
      if (tiles.length > 0) return { view, candidates: this.discards(view, view.concealed, myExposures(view), 'discard', tiles, turn.rng, (tile) => ({ type: 'discard', seat, tile })) };
    }
    return { action: options[0] };
  }

  /** The passes and offers whose tiles all come from the habits' cheapest `size` tiles. */
  private withinPool(view: SeatView, actions: Action[], size: number, rng: RngState): Action[] {
    const pool = new Array<number>(JOKER + 1).fill(0);
    let n = 0;
    for (const { tile } of this.strong.rankView(view, rng))
      for (let c = 0; c < view.concealed[tile] && c < 2 && n < size; c++) {
        pool[tile]++;
        n++;
      }
    return actions.filter((a) => {
      if (a.type !== 'pass' && a.type !== 'courtesy') return true;
      const need = new Map<number, number>();
      for (const t of a.tiles) need.set(t, (need.get(t) ?? 0) + 1);
      return [...need].every(([t, k]) => pool[t] >= k);
    });
  }

  /** Encodes and rates a decision's candidates (the rows and ratings live until the next call). */
  weigh(view: SeatView, candidates: readonly Candidate[]): Weighed {
    const n = candidates.length;
    const width = this.width;
    if (this.rows.length < n * width) this.rows = new Float32Array(n * width * 2);
    this.enc.begin(view);
    for (let i = 0; i < n; i++) this.enc.encode(candidates[i].state, this.rows, i * width);
    const m = this.model!.layers[this.model!.layers.length - 1].outputs;
    if (this.out.length < m * n) this.out = new Float64Array(2 * m * n);
    const out = forward(this.model!, this.rows, n, this.out);
    const w = this.opts.scoreWeight ?? 0;
    const value = new Float64Array(n);
    for (let i = 0; i < n; i++) value[i] = 1 / (1 + Math.exp(-out[m * i])) + w * out[m * i + 1];
    const useHead = this.head && (view.phase === 'discard' || view.phase === 'claims');
    const policy = useHead ? Float64Array.from({ length: n }, (_, i) => out[m * i + 2]) : value;
    return { view, candidates: [...candidates], rows: this.rows, value, policy, fromHead: useHead };
  }

  /** The distinct actions of this decision, best by the policy first (a call scored by its best discard). */
  choices(turn: Turn): { action: Action; score: number }[] {
    if (this.model === null) return [];
    const d = this.decision(turn);
    if ('action' in d) return [];
    const w = this.weigh(d.view, d.candidates);
    return distinctActions(w.candidates, w.policy);
  }

  /** The value of the seat's position at its own turn (a full rack): 1 when it can declare Mah Jongg, else its best discard's rating. */
  positionValue(turn: Turn): number {
    const options = turn.legal();
    if (options.some((a) => a.type === 'declare')) return 1;
    if (this.model === null) return 0;
    const view = turn.view();
    const tiles = options.flatMap((a) => (a.type === 'discard' ? [a.tile] : []));
    if (tiles.length === 0) return 0;
    const w = this.weigh(
      view,
      this.discards(view, view.concealed, myExposures(view), 'discard', tiles, turn.rng, (tile) => ({ type: 'discard', seat: view.seat, tile })),
    );
    let best = -Infinity;
    for (let i = 0; i < w.candidates.length; i++) if (w.value[i] > best) best = w.value[i];
    return best;
  }

  /** Each of `tiles` discarded, with its worth and rank by the strong habits (a joker, which they never rank, after every other tile). */
  private discards(
    view: SeatView,
    concealed: readonly number[],
    exposures: readonly Group[],
    kind: 'discard' | 'call',
    tiles: readonly TileId[],
    rng: RngState,
    action: (tile: TileId) => Action,
  ): Candidate[] {
    const ranked = this.strong.rankView(view, rng);
    const place = new Map<TileId, { worth: number; rank: number }>();
    ranked.forEach(({ tile, worth }, rank) => place.set(tile, { worth, rank }));
    // in the habits' order, a joker last
    const ordered = [...tiles].sort((a, b) => (place.get(a)?.rank ?? 99) - (place.get(b)?.rank ?? 99) || a - b);
    return ordered.map((tile) => {
      const hand = [...concealed];
      hand[tile]--;
      const p = place.get(tile) ?? { worth: 4, rank: ranked.length };
      return { action: action(tile), state: { concealed: hand, exposures, unknown: 0, charlestonLeft: 0, kind, discard: tile, worth: p.worth, rank: p.rank } };
    });
  }

  /** Declining, then every call the rules allow with each discard the hand could make after it. */
  private claimCandidates(view: SeatView, calls: Action[], rng: RngState): Candidate[] {
    const seat = view.seat;
    const mine = myExposures(view);
    const out: Candidate[] = [{ action: { type: 'decline', seat }, state: { concealed: view.concealed, exposures: mine, unknown: 0, charlestonLeft: 0, kind: 'decline' } }];
    const tile = view.claim!.tile;
    for (const a of calls) {
      if (a.type !== 'call') continue;
      const { concealed: hand, exposures } = handAfterCall(view.concealed, mine, tile, a);
      const after: SeatView = {
        ...view,
        concealed: hand,
        exposures: view.exposures.map((list, s): readonly Exposure[] => (s === seat ? [...list, { tile, size: a.size, jokers: a.jokers, rack: a.rack ?? 0, exchangeable: true }] : list)),
      };
      const tiles: TileId[] = [];
      for (let t = 0; t <= JOKER; t++) if (hand[t] > 0) tiles.push(t);
      out.push(...this.discards(after, hand, exposures, 'call', tiles, rng, () => a));
    }
    return out;
  }
}

/** The index of the largest of the first n scores (the first of equals). */
export function argmax(scores: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let i = 1; i < n; i++) if (scores[i] > scores[best]) best = i;
  return best;
}

/** Distinct actions with their best score, best first (stable for equal scores). */
export function distinctActions(candidates: readonly Candidate[], scores: ArrayLike<number>): { action: Action; score: number; row: number }[] {
  const best = new Map<string, { action: Action; score: number; row: number }>();
  candidates.forEach((c, i) => {
    const key = JSON.stringify(c.action);
    const prev = best.get(key);
    if (!prev || scores[i] > prev.score) best.set(key, { action: c.action, score: scores[i], row: i });
  });
  return [...best.values()].sort((a, b) => b.score - a.score || a.row - b.row);
}

/** What a search decided, for expert iteration to learn from (lab/exit.ts). */
export interface SearchRecord {
  seat: number;
  /** Every candidate's features (candidates x the policy's width, a copy). */
  rows: Float32Array;
  candidates: number;
  /** The row of the search's choice (for a call, its best discard by the policy). */
  target: number;
  /** The row of the policy's own choice. */
  policyChoice: number;
  /** The searched actions' rows and their mean values over the sampled worlds. */
  searched: { row: number; mean: number }[];
}

export interface PolicySearchBudget {
  worlds: number;
  candidates: number;
  /** The policy's Charleston among the habits' cheapest this many tiles (PolicyOptions.passPool). */
  passPool?: number;
}

export const EXIT_SEARCH: PolicySearchBudget = { worlds: 12, candidates: 3, passPool: 5 };

/**
 * The policy with the expert's short search (agents/mah-jongg/lookahead.ts's way, over the policy's
 * best few of every legal choice): each candidate is played out in sampled worlds up to the
 * seat's next turn (the others as medium bots, its own answers by the policy) and the position
 * reached rated by the value; a challenger replaces the policy's choice only when its paired
 * advantage is more than OVERRULE standard errors. Charleston choices are the policy's.
 * `record` receives every searched decision (for expert iteration); `chosen` every decision's
 * chosen afterstate row (for the value's targets).
 */
export class PolicySearchAgent implements Agent {
  readonly name: string;
  readonly policy: PolicyAgent;
  private readonly opponents: HeuristicAgent[];

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly model: ValueModel | null,
    private readonly budget: PolicySearchBudget = EXIT_SEARCH,
    name = 'learned-all-search',
    private readonly hooks: { record?: (r: SearchRecord) => void; chosen?: (seat: number, row: Float32Array) => void } = {},
  ) {
    this.name = name;
    this.policy = new PolicyAgent(cc, model, budget.passPool === undefined ? {} : { passPool: budget.passPool }, `${name}-policy`);
    this.opponents = Array.from({ length: rules.players }, () => new HeuristicAgent(cc, MEDIUM_HABITS, 'playout'));
  }

  act(turn: Turn): Action {
    if (this.model === null) return this.policy.act(turn);
    const d = this.policy.decision(turn);
    if ('action' in d) return d.action;
    const w = this.policy.weigh(d.view, d.candidates);
    const W = this.policy.width;
    const own = argmax(w.policy, w.candidates.length);
    const searchable = (turn.phase === 'discard' || turn.phase === 'claims') && this.rules.racks === 1 && d.view.mahJonggs.length === 0;
    const ranked = distinctActions(w.candidates, w.policy);
    if (!searchable || ranked.length < 2) {
      this.hooks.chosen?.(turn.seat, w.rows.slice(own * W, (own + 1) * W));
      return w.candidates[own].action;
    }
    // the weighed rows are the policy's buffer, which the playouts reuse: keep a copy
    const rows = w.rows.slice(0, w.candidates.length * W);
    const n = w.candidates.length;
    const top = ranked.slice(0, this.budget.candidates);
    const means = this.search(
      turn,
      d.view,
      top.map((c) => c.action),
    );
    let pick = 0,
      bestEdge = 0;
    for (let i = 1; i < top.length; i++) {
      const { mean, se } = paired(means.diffs[i]);
      const e = mean - OVERRULE * se;
      if (e > bestEdge) {
        bestEdge = e;
        pick = i;
      }
    }
    const target = top[pick].row;
    this.hooks.record?.({ seat: turn.seat, rows, candidates: n, target, policyChoice: own, searched: top.map((c, i) => ({ row: c.row, mean: means.mean[i] })) });
    this.hooks.chosen?.(turn.seat, rows.slice(target * W, (target + 1) * W));
    return top[pick].action;
  }

  private search(turn: Turn, view: SeatView, candidates: Action[]): { diffs: number[][]; mean: number[] } {
    const seat = turn.seat;
    const base = nextU32(turn.rng);
    const diffs: number[][] = candidates.map(() => []);
    const sums = candidates.map(() => 0);
    for (let w = 0; w < this.budget.worlds; w++) {
      const world = determinize(view, this.rules, this.cc, seedRng((base + w * 0x9e3779b9) >>> 0));
      const values = candidates.map((a) => {
        const s = cloneState(world);
        apply(s, a);
        return this.untilMyTurn(s, seat, seedRng((base ^ ((w + 1) * 0x85ebca6b)) >>> 0));
      });
      values.forEach((v, i) => {
        diffs[i].push(v - values[0]);
        sums[i] += v;
      });
    }
    return { diffs, mean: sums.map((s) => s / this.budget.worlds) };
  }

  private untilMyTurn(state: GameState, seat: number, rng: RngState): number {
    return untilOwnTurn(state, seat, rng, this.policy, this.opponents);
  }
}
