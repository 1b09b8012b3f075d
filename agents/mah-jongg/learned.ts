import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { beforePlay, type Action, type Exposure, type SeatView } from '../../engine/mah-jongg/game.js';
import { handAfterCall } from '../../engine/mah-jongg/seat.js';
import { closestAway, exposuresFitCard } from '../../engine/mah-jongg/hand-check.js';
import { nextInt, type RngState } from '../../engine/rng.js';
import type { TileId } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../agent.js';
import { Encoder, FEATURE_VERSION, type Afterstate } from './features.js';
import { HeuristicAgent, myExposures, STRONG_HABITS } from './heuristic.js';
import { forward, type ValueModel } from './model.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * The learned player: at each decision it lists what it could do, encodes the afterstate each
 * choice leads to (agents/mah-jongg/features.ts) and takes the one its value model rates highest
 * (one-step lookahead, TD-Gammon's way). Mah Jongg, joker exchanges and calling a hand dead
 * are always taken, as every bot does. The candidates come from the strong habits' ranking of
 * the tiles, so a dozen rows are scored per discard and a few dozen per Charleston pass.
 *
 * Without a model it plays the strong habits' choices (the first generation of self-play
 * learns their values). For self-play it can explore (a random one of the best three, with
 * probability `explore`) and record the afterstate it chose.
 */
export interface LearnedOptions {
  /** Chance of taking a random one of the three best-rated choices instead of the best (self-play only). */
  explore?: number;
  /** Weight of the expected score (in hundreds of points) beside the chance of winning. */
  scoreWeight?: number;
  /**
   * The feature version recorded when there is no model (a first generation of self-play); a
   * model's own version otherwise. Unset: the latest.
   */
  featureVersion?: number;
  /**
   * Called with each chosen afterstate's features (self-play): `width` numbers of `rows` from
   * `offset`, the agent's own buffer, to be copied before its next decision.
   */
  record?: (seat: number, rows: Float32Array, offset: number, predicted: { win: number; score: number } | null) => void;
  /** Called with every decision's rows as the model is about to rate them (`n` rows of `width` from 0, the agent's own buffer): distillation reads them. */
  rated?: (rows: Float32Array, n: number) => void;
}

interface Candidate {
  action: Action;
  state: Afterstate;
}

/**
 * Discards weighed: the strong habits' cheapest few. A value model is least reliable where its
 * examples are fewest, and the habits almost never give up their most needed tiles; so the
 * choice stays among the plausible ones, where the model's rating can be trusted.
 */
export const DISCARDS = 5;
/** Tiles a Charleston pass chooses among: the habits' cheapest (10 passes of three, 26 with a blind pass). */
export const PASS_POOL = 5;

/** Charleston passes still to come after pass `pass` (0-5): the rest of this Charleston and, in the first, the second's three. */
const passesLeft = (pass: number): number => Math.max(0, 5 - pass);

export class LearnedAgent implements Agent {
  readonly name: string;
  /**
   * The strong habits, one player per seat served (it keeps each hand's figures from one decision
   * to the next: a player serving four seats would otherwise take each hand afresh). They keep
   * nothing else that changes a choice (no noise, stickiness nor commitment).
   */
  private readonly strongs: HeuristicAgent[] = [];
  /** Each seat's hand at its last call window weighed, and its closestAway (closestNow). */
  private readonly kept: { concealed: Int16Array; exposures: Group[]; away: number }[] = [];
  private readonly enc: Encoder;
  /** Numbers in a feature row (the encoder's version's). */
  readonly width: number;
  private rows: Float32Array;
  /** The model's outputs for the rows of the last evaluate(). */
  private out: Float64Array = new Float64Array(0);

  constructor(
    private readonly cc: CompiledCard,
    private readonly model: ValueModel | null,
    private readonly opts: LearnedOptions = {},
    name = 'learned',
  ) {
    this.name = name;
    this.enc = new Encoder(cc, { version: model?.featureVersion ?? opts.featureVersion ?? FEATURE_VERSION });
    this.width = this.enc.width;
    this.rows = new Float32Array(64 * this.width);
  }

  /** The strong habits of a seat. */
  private strong(seat: number): HeuristicAgent {
    return (this.strongs[seat] ??= new HeuristicAgent(this.cc, STRONG_HABITS, `${this.name}-habits`));
  }

  act(turn: Turn): Action {
    // the view is built only for the decisions that read it (not draws, nor claim windows with nothing to weigh)
    if (turn.phase === 'draw') return { type: 'draw', seat: turn.seat };
    let options: Action[] | undefined;
    if (turn.phase === 'claims') {
      options = turn.legal();
      const sure = sureAction(options);
      if (sure) return sure;
      if (!options.some((a) => a.type === 'call')) return { type: 'decline', seat: turn.seat };
    }
    const view = turn.view();
    const d = this.decision(view, turn, options);
    return 'action' in d ? d.action : this.choose(view, turn, d.candidates);
  }

  /**
   * The decision in front of the seat: an action that needs no weighing (a draw, Mah Jongg,
   * a joker exchange, calling a hand dead, declining when no call is allowed), or the
   * candidates to weigh.
   */
  private decision(view: SeatView, turn: Turn, legal?: Action[]): { action: Action } | { candidates: Candidate[] } {
    const seat = view.seat;
    if (beforePlay(view.phase)) return { candidates: this.charlestonCandidates(view, turn.rng) };
    if (view.phase === 'draw') return { action: { type: 'draw', seat } };
    const options = legal ?? turn.legal();
    const sure = sureAction(options);
    if (sure) return { action: sure };
    if (view.phase === 'claims') {
      if (!options.some((a) => a.type === 'call')) return { action: { type: 'decline', seat } };
      return { candidates: this.claimCandidates(view, options, turn.rng) };
    }
    if (view.phase === 'discard') {
      const candidates = this.discardCandidates(view, view.concealed, myExposures(view), 'discard', turn.rng, (tile) => ({ type: 'discard', seat, tile }));
      if (candidates.length > 0) return { candidates };
    }
    return { action: options.find((a) => a.type === 'discard') ?? options[0] };
  }

  /**
   * The distinct actions the model weighs at this decision, best first, each with its rating
   * (a call is rated by its best discard). Empty when nothing needs weighing or there is no model.
   */
  choices(turn: Turn): { action: Action; value: number }[] {
    if (this.model === null) return [];
    const view = turn.view();
    const d = this.decision(view, turn);
    if ('action' in d) return [];
    const values = this.evaluate(view, d.candidates);
    const best = new Map<string, { action: Action; value: number }>();
    d.candidates.forEach((c, i) => {
      const key = JSON.stringify(c.action);
      const prev = best.get(key);
      if (!prev || values[i] > prev.value) best.set(key, { action: c.action, value: values[i] });
    });
    return [...best.values()].sort((a, b) => b.value - a.value);
  }

  /**
   * Every row the model would rate at this decision, in order, each with the action it stands
   * for and, for a call, the discard after it that the row is the afterstate of
   * (lab/rollouts.ts plays each on). Null when nothing needs weighing.
   */
  candidateRows(turn: Turn): { candidates: { action: Action; then?: TileId }[]; rows: Float32Array } | null {
    const view = turn.view();
    const d = this.decision(view, turn);
    if ('action' in d) return null;
    const rows = this.encodeRows(view, d.candidates, new Float32Array(d.candidates.length * this.width));
    return { candidates: d.candidates.map((c) => (c.state.kind === 'call' ? { action: c.action, then: c.state.discard } : { action: c.action })), rows };
  }

  /**
   * The model's rating of the seat's position at its own turn (a full rack, before it
   * discards): 1 when it can declare Mah Jongg, else the rating of its best discard.
   */
  positionValue(turn: Turn): number {
    const options = turn.legal();
    if (options.some((a) => a.type === 'declare')) return 1;
    const view = turn.view();
    const candidates = this.discardCandidates(view, view.concealed, myExposures(view), 'discard', turn.rng, (tile) => ({ type: 'discard', seat: view.seat, tile }));
    if (candidates.length === 0 || this.model === null) return 0;
    return Math.max(...this.evaluate(view, candidates));
  }

  /**
   * The model's outlook at the seat's own turn (a full rack, before it discards): its chance of
   * winning and its expected score in points, after the discard the model rates best (by the
   * chance, as the policy plays); a hand it can declare is a win whose score the caller knows.
   * Null when nothing can be rated (no model, no discard to weigh).
   */
  positionOutlook(turn: Turn): { win: number; score: number } | null {
    const view = turn.view();
    const candidates = this.discardCandidates(view, view.concealed, myExposures(view), 'discard', turn.rng, (tile) => ({ type: 'discard', seat: view.seat, tile }));
    if (candidates.length === 0 || this.model === null) return null;
    const n = candidates.length;
    if (this.rows.length < n * this.width) this.rows = new Float32Array(n * this.width * 2);
    this.encodeRows(view, candidates, this.rows);
    if (this.out.length < 2 * n) this.out = new Float64Array(4 * n);
    const out = forward(this.model, this.rows, n, this.out);
    let best = 0;
    for (let i = 1; i < n; i++) if (out[2 * i] > out[2 * best]) best = i;
    return { win: 1 / (1 + Math.exp(-out[2 * best])), score: 100 * out[2 * best + 1] };
  }

  /**
   * The model's rating of the seat's best choice at a Charleston pass, vote or courtesy offer:
   * the Charleston lookahead (agents/mah-jongg/lookahead.ts) rates the step it reaches by it.
   */
  charlestonValue(turn: Turn): number {
    if (this.model === null) return 0;
    const view = turn.view();
    return Math.max(...this.evaluate(view, this.charlestonCandidates(view, turn.rng)));
  }

  /**
   * The candidates in the strong habits' order, their choice first; the best by the model
   * (or, without one, the habits' own choice), with exploration when asked.
   */
  private choose(view: SeatView, turn: Turn, candidates: Candidate[]): Action {
    let pick = 0;
    if (this.model === null) {
      // the habits' own choice: candidates[0] for discards and claims, or the action they take
      if (beforePlay(view.phase) || view.phase === 'claims') {
        const habit = this.strong(view.seat).act(turn);
        const i = candidates.findIndex((c) => sameAction(c.action, habit));
        pick = i >= 0 ? i : 0;
        if (i < 0) candidates = [{ action: habit, state: passState(view, habit) }, ...candidates];
      }
      if (this.opts.explore && candidates.length > 1 && nextInt(turn.rng, 1_000_000) < this.opts.explore * 1_000_000) {
        pick = nextInt(turn.rng, Math.min(3, candidates.length));
      }
    } else {
      const values = this.evaluate(view, candidates);
      // the three best, highest rated first (then the first listed): all that is ever picked from
      const best = bestThree(values);
      pick = best[0];
      if (this.opts.explore && candidates.length > 1 && nextInt(turn.rng, 1_000_000) < this.opts.explore * 1_000_000) {
        pick = best[nextInt(turn.rng, Math.min(3, candidates.length))];
      }
    }
    if (this.opts.record) {
      if (this.model === null) {
        this.enc.begin(view);
        this.enc.encode(candidates[pick].state, this.rows, 0);
        this.opts.record(view.seat, this.rows, 0, null);
      } else {
        // the rows and ratings evaluate() has just made
        this.opts.record(view.seat, this.rows, pick * this.width, { win: 1 / (1 + Math.exp(-this.out[2 * pick])), score: this.out[2 * pick + 1] });
      }
    }
    return candidates[pick].action;
  }

  /** The model's rating of each candidate: the chance of winning, plus the expected score at its weight. */
  evaluate(view: SeatView, candidates: readonly Candidate[]): number[] {
    const n = candidates.length;
    const width = this.width;
    if (this.rows.length < n * width) this.rows = new Float32Array(n * width * 2);
    this.encodeRows(view, candidates, this.rows);
    this.opts.rated?.(this.rows, n);
    if (this.out.length < 2 * n) this.out = new Float64Array(4 * n);
    const out = forward(this.model!, this.rows, n, this.out);
    const w = this.opts.scoreWeight ?? 0;
    const values = new Array<number>(n);
    for (let i = 0; i < n; i++) values[i] = 1 / (1 + Math.exp(-out[2 * i])) + w * out[2 * i + 1];
    return values;
  }

  /** Each candidate's afterstate encoded into `rows`, one row after another from 0; `rows` returned. */
  private encodeRows(view: SeatView, candidates: readonly Candidate[], rows: Float32Array): Float32Array {
    this.enc.begin(view);
    for (let i = 0; i < candidates.length; i++) this.enc.encode(candidates[i].state, rows, i * this.width);
    return rows;
  }

  /** Each held kind discarded, in the strong habits' order (cheapest first). */
  private discardCandidates(view: SeatView, concealed: readonly number[], exposures: readonly Group[], kind: 'discard' | 'call', rng: RngState, action: (tile: TileId) => Action): Candidate[] {
    const ranked = this.strong(view.seat).rankView(view, rng).slice(0, DISCARDS);
    return ranked.map(({ tile, worth }, rank) => {
      const hand = [...concealed];
      hand[tile]--;
      return { action: action(tile), state: { concealed: hand, exposures, unknown: 0, charlestonLeft: 0, kind, discard: tile, worth, rank } };
    });
  }

  /** Declining, then each call the rules allow, valued by its best discard after the exposure. */
  private claimCandidates(view: SeatView, options: Action[], rng: RngState): Candidate[] {
    const seat = view.seat;
    const mine = myExposures(view);
    const out: Candidate[] = [{ action: { type: 'decline', seat }, state: { concealed: view.concealed, exposures: mine, unknown: 0, charlestonLeft: 0, kind: 'decline' } }];
    const tile = view.claim!.tile;
    const now = this.closestNow(seat, view.concealed, mine);
    for (const a of options) {
      if (a.type !== 'call') continue;
      const { concealed: hand, exposures } = handAfterCall(view.concealed, mine, tile, a);
      // only calls that leave an exposed line no further away than the hand is now
      if (!exposuresFitCard(this.cc, exposures) || closestAway(this.cc, hand, exposures) > now) continue;
      const after: SeatView = {
        ...view,
        concealed: hand,
        exposures: view.exposures.map((list, s): readonly Exposure[] => (s === seat ? [...list, { tile, size: a.size, jokers: a.jokers, rack: 0, exchangeable: true }] : list)),
      };
      // the call is as good as the best discard it allows; the model rates that afterstate
      const discards = this.discardCandidates(after, hand, exposures, 'call', rng, () => a);
      if (discards.length === 0) continue;
      out.push(...(this.model === null ? discards.slice(0, 1) : discards));
    }
    return out;
  }

  /**
   * closestAway of the seat's hand, kept from one call window to the next: the hand changes only
   * on the seat's own turns, and a window with a call to weigh comes several times between them.
   */
  private closestNow(seat: number, concealed: readonly number[], mine: readonly Group[]): number {
    let kept = this.kept[seat];
    if (kept === undefined) {
      kept = { concealed: new Int16Array(concealed.length).fill(-1), exposures: [], away: 0 };
      this.kept[seat] = kept;
    }
    let same = kept.exposures.length === mine.length && kept.concealed.length === concealed.length;
    for (let i = 0; same && i < mine.length; i++) same = kept.exposures[i].tile === mine[i].tile && kept.exposures[i].size === mine[i].size && kept.exposures[i].jokers === mine[i].jokers;
    for (let t = 0; same && t < concealed.length; t++) same = kept.concealed[t] === concealed[t];
    if (!same) {
      kept.concealed.set(concealed);
      kept.exposures = mine.map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
      kept.away = closestAway(this.cc, concealed, mine);
    }
    return kept.away;
  }

  /** Charleston passes (with each blind pass allowed), the vote, or the courtesy offer. */
  private charlestonCandidates(view: SeatView, rng: RngState): Candidate[] {
    const seat = view.seat;
    const ranked = this.strong(view.seat).rankView(view, rng);
    const hand = view.concealed;
    const candidate = (action: Action): Candidate => ({ action, state: passState(view, action) });
    if (view.phase === 'vote') return [true, false].map((yes) => candidate({ type: 'vote', seat, yes }));
    // the cheapest tiles, copies included (never jokers: the habits' ranking holds none)
    const pool: TileId[] = [];
    for (const { tile } of ranked) for (let c = 0; c < hand[tile] && c < 2 && pool.length < PASS_POOL; c++) pool.push(tile);
    if (view.phase === 'courtesy') {
      return [0, 1, 2, 3].filter((k) => k <= pool.length).map((k) => candidate({ type: 'courtesy', seat, tiles: pool.slice(0, k) }));
    }
    const out: Candidate[] = [];
    const seen = new Set<string>();
    for (let blind = 0; blind <= (view.blindAllowed ? 3 : 0); blind++) {
      for (const tiles of combinations(pool, 3 - blind)) {
        const key = `${blind}:${tiles.join()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(candidate({ type: 'pass', seat, tiles, blind }));
      }
    }
    return out;
  }
}

/**
 * The action every bot takes when it is there, with no weighing: Mah Jongg (the one that is both
 * a self-pick and a call first), a joker exchange, calling a hand dead.
 */
export function sureAction(options: readonly Action[]): Action | undefined {
  const both = options.find((a) => (a.type === 'declare' || a.type === 'callMahJongg') && a.both);
  return (
    both ?? options.find((a) => a.type === 'declare') ?? options.find((a) => a.type === 'callMahJongg') ?? options.find((a) => a.type === 'exchange') ?? options.find((a) => a.type === 'callDead')
  );
}

/** The afterstate of a Charleston pass, vote or courtesy offer: the hand less what goes, and what is still to come unseen. */
export function passState(view: SeatView, action: Action): Afterstate {
  const hand = [...view.concealed];
  if (action.type === 'vote') return { concealed: hand, exposures: [], unknown: 0, charlestonLeft: action.yes ? 3 : 0, kind: 'pass' };
  const tiles = action.type === 'pass' || action.type === 'courtesy' ? action.tiles : [];
  for (const t of tiles) hand[t]--;
  if (action.type === 'courtesy') return { concealed: hand, exposures: [], unknown: tiles.length, charlestonLeft: 0, kind: 'pass' };
  const blind = action.type === 'pass' ? (action.blind ?? 0) : 0;
  return { concealed: hand, exposures: [], unknown: 3 - blind, charlestonLeft: passesLeft(view.pass ?? 0), kind: 'pass' };
}

/**
 * The indices of the three highest values (fewer when there are fewer), highest first, the
 * lower index first among equal values: the first three of the indices sorted by
 * (b, a) => values[b] - values[a] || a - b, without sorting them all.
 */
function bestThree(values: readonly number[]): number[] {
  const top: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // after every index already placed with a value at least v (they are lower indices)
    let k = top.length;
    while (k > 0 && values[top[k - 1]] < v) k--;
    if (k >= 3) continue;
    top.splice(k, 0, i);
    if (top.length > 3) top.pop();
  }
  return top;
}

/** The k-element combinations of a list (in order; equal tiles give repeats, removed by the caller). */
function combinations<T>(items: readonly T[], k: number): T[][] {
  const out: T[][] = [];
  const pick: T[] = [];
  const rec = (start: number) => {
    if (pick.length === k) {
      out.push([...pick]);
      return;
    }
    for (let i = start; i <= items.length - (k - pick.length); i++) {
      pick.push(items[i]);
      rec(i + 1);
      pick.pop();
    }
  };
  rec(0);
  return out;
}

function sameAction(a: Action, b: Action): boolean {
  if (a.type !== b.type) return false;
  const norm = (x: Action) => JSON.stringify({ ...x, ...('tiles' in x ? { tiles: [...x.tiles].sort((p, q) => p - q) } : {}), ...('blind' in x ? { blind: x.blind ?? 0 } : {}) });
  return norm(a) === norm(b);
}
