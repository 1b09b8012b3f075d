import { advisor, parseSituation, playoutScores } from '../advice.js';
import { Analyzer } from '../../engine/analyzer.js';
import type { CompiledCard } from '../../engine/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, view, type Action, type SeatView } from '../../engine/game.js';
import { replayRecord } from '../../engine/record.js';
import { seedRng } from '../../engine/rng.js';
import { tileName } from '../../engine/tiles.js';
import { forcedAction } from '../table.js';
import { encodeAction, MAH_JONGG, type MahJonggGame } from '../../engine/mah-jongg.js';
import { hintFor, situationOf } from './hint.js';

/**
 * The coach's review of a finished game for one seat: the record is replayed, and at each of
 * the seat's decisions the engine's choice (the hint, agents/coach/hint.ts, with a modest budget) is
 * set against the seat's. For discards and calls the cost is the difference of mean scores
 * over the same sampled deals (paired playouts, in points of the ruleset's scoring); for
 * Charleston and courtesy passes, made before there is play to sample, it is the tiles
 * away the kept hand lost against the engine's pass. Biggest mistakes first. It answers with
 * engine actions and views; api/shared/wire.ts writes it as JSON for the page.
 */

export interface ReviewedDecision {
  /** The action number `n` in the record. */
  index: number;
  phase: 'charleston' | 'vote' | 'courtesy' | 'discard' | 'claims';
  chosen: string;
  chosenAction: Action;
  suggested: string;
  suggestedAction: Action;
  agreed: boolean;
  /** Estimated points the choice cost against the engine's (0 when they agree or the choice did as well). */
  loss: number;
  /** Passes: tiles away the kept hand lost against the engine's pass (its closest line). */
  tilesLost: number;
  /** Standard error of the loss over the paired deals (0 where nothing was played out): a loss within two of it may be noise. */
  lossSe: number;
  /** The engine's reason in one plain sentence, in the game's terms (the idea behind the choice). */
  why: string;
  /** The figures behind it, where deals were played out. */
  details?: string;
  /** The seat's view just before the decision (a copy: the game went on), and its legal actions then. */
  moment: { view: SeatView; legal: Action[] };
}

export interface Review {
  seat: number;
  ruleset: string;
  card: string;
  worlds: number;
  /** `disagreed` decisions lead the list, by cost. */
  summary: { decisions: number; agreed: number; disagreed: number; totalLoss: number; totalTilesLost: number };
  decisions: ReviewedDecision[];
  /** When another seat called this seat's hand dead: the action number, who, and why in words. */
  dead?: { index: number; by: number; why: string };
}

export interface ReviewOptions {
  seat: number;
  worlds: number;
  seed?: number;
  /** The sampled deals per decision the caller allows on this card (the server's budget), at most `worlds`. */
  fit?: (cc: CompiledCard, worlds: number) => number;
  /** A review in parts: the decisions from this action number on are reviewed, the earlier ones only replayed. */
  from?: number;
  /** Asked after each decision reviewed: true ends this part, and `next` says where the next one starts. */
  stop?: () => boolean;
}

/** A review's part (ReviewOptions.from, stop): `next` is the action number the next part starts from, null at the end. */
export type ReviewPart = Review & { next: number | null };

/** A review's parts, in order, as one review (its decisions sorted, its summary over them all). */
export function joinReview(parts: readonly Review[]): Review {
  const first = parts[0];
  const dead = parts.find((p) => p.dead !== undefined)?.dead;
  return summarized({ seat: first.seat, ruleset: first.ruleset, card: first.card, worlds: first.worlds, decisions: parts.flatMap((p) => p.decisions), ...(dead !== undefined && { dead }) });
}

function summarized(r: Omit<Review, 'summary'>): Review {
  const decisions = [...r.decisions];
  // every disagreement first, the costliest first; then the choices the engine shares, in order of play
  decisions.sort((a, b) => Number(a.agreed) - Number(b.agreed) || b.loss - a.loss || b.tilesLost - a.tilesLost || a.index - b.index);
  return {
    seat: r.seat,
    ruleset: r.ruleset,
    card: r.card,
    worlds: r.worlds,
    summary: {
      decisions: decisions.length,
      agreed: decisions.filter((d) => d.agreed).length,
      disagreed: decisions.filter((d) => !d.agreed).length,
      totalLoss: round2(decisions.reduce((a, d) => a + d.loss, 0)),
      totalTilesLost: decisions.reduce((a, d) => a + d.tilesLost, 0),
    },
    decisions,
    ...(r.dead !== undefined && { dead: r.dead }),
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * A review plays out at most this many sampled deals per decision in all, counted over the
 * seat's own turns (discards, exchanges, calls): a long game is reviewed on fewer deals per
 * decision rather than for longer. The answer's `worlds` is the number used.
 */
export const REVIEW_DEAL_BUDGET = 1_600;
const PLAYED_OUT = new Set(['discard', 'exchange', 'declare', 'call', 'callMahJongg']);

/** Sampled deals per decision: the asked-for number, within the budget for the seat's turns in this record. */
export function worldsWithin(text: string, seat: number, asked: number): number {
  let turns = 0;
  for (const line of text.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const a = (JSON.parse(line) as { action?: { type?: string; seat?: number } }).action; // replayed already: well-formed
    if (a?.seat === seat && PLAYED_OUT.has(a.type ?? '')) turns++;
  }
  return Math.max(1, Math.min(asked, Math.floor(REVIEW_DEAL_BUDGET / Math.max(1, turns))));
}

/** An action as a person says it. */
export function describeAction(a: Action, v: SeatView): string {
  const claimed = v.claim ? tileName(v.claim.tile) : '';
  const sizes: Record<number, string> = { 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' };
  switch (a.type) {
    case 'pass': return `pass ${a.tiles.map(tileName).join(' ') || 'none of your own'}${a.blind ? ` and ${a.blind} blind` : ''}`;
    case 'courtesy': return a.tiles.length ? `offer ${a.tiles.map(tileName).join(' ')}` : 'offer nothing';
    case 'vote': return a.yes ? 'vote yes to a second Charleston' : 'vote no to a second Charleston';
    case 'draw': return 'draw';
    case 'discard': return `discard ${tileName(a.tile)}`;
    case 'exchange': return `exchange ${tileName(v.exposures[a.owner][a.exposure].tile)} for a joker`;
    case 'declare': return 'declare Mah Jongg';
    case 'decline': return `let ${claimed} go`;
    case 'call': return `call ${claimed} for a ${sizes[a.size]}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}`;
    case 'callMahJongg': return `call ${claimed} for Mah Jongg`;
    case 'callDead': return `call seat ${a.target}'s hand dead`;
    case 'timeUp': return 'time is called: the game ends unfinished';
  }
}

/** The action with the person at seat 0 and the others by offset, as agents/advice.ts seats a situation. */
function toSituation(a: Action, v: SeatView): Action {
  const n = v.players;
  const out = { ...a, seat: 0 } as Action & { rack?: number };
  delete out.rack;
  if (out.type === 'exchange') out.owner = (out.owner - v.seat + n) % n;
  return out;
}

/** Passes and courtesy offers are sets of tiles: the same tiles in another order are the same choice. */
function canonical(a: Action): unknown {
  const json = encodeAction(a);
  return Array.isArray(json.tiles) ? { ...json, tiles: [...json.tiles as string[]].sort() } : json;
}

const sameAction = (a: Action, b: Action): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Tiles away of the closest line after passing `tiles` (blind tiles are received ones: the rack keeps the rest). */
function awayAfterPass(analyzer: Analyzer, v: SeatView, tiles: readonly number[]): number {
  const kept = [...v.concealed];
  for (const t of tiles) kept[t]--;
  return analyzer.analyze({ concealed: kept, exposures: [], seen: new Array<number>(kept.length).fill(0), copies: v.copies }, { top: 1 })[0].tilesAway;
}

export function reviewRecord(text: string, loadCard: (text: string) => CompiledCard, opts: ReviewOptions): Review {
  const { next: _, ...review } = reviewPart(text, loadCard, { ...opts, from: undefined, stop: undefined });
  return review;
}

/** The review of the decisions from `opts.from` on, until `opts.stop` says so (reviewRecord: all of them). */
export function reviewPart(text: string, loadCard: (text: string) => CompiledCard, opts: ReviewOptions): ReviewPart {
  const { header, game, played } = replayRecord(text, { type: MAH_JONGG, cards: loadCard }); // checks the whole record first (TM_BAD_RECORD)
  const { rules, cc } = game as MahJonggGame;
  const seat = opts.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= rules.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: the game had seats 0 to ${rules.players - 1}`);
  const within = worldsWithin(text, seat, opts.worlds);
  opts = { ...opts, worlds: Math.max(1, Math.min(within, opts.fit?.(cc, within) ?? within)) };
  const from = opts.from ?? 1;
  let next: number | null = null;
  const analyzer = new Analyzer(cc);
  const heuristic = advisor(cc); // the advice's default (agents/advice.ts)
  const state = game.newGame(header.seed);
  const decisions: ReviewedDecision[] = [];
  let dead: Review['dead'];
  for (const [i, action] of played.entries()) {
    const obj = { n: i + 1 };
    if (next === null && opts.stop?.() === true && decisions.length > 0 && obj.n >= from) next = obj.n;
    if (next === null && obj.n >= from && action.seat === seat && state.phase.kind !== 'draw' && forcedAction(legalActions(state, seat)) === null) {
      const v = view(state, seat);
      const legal = legalActions(state, seat);
      const moment = { view: structuredClone(v), legal };
      const playedOut = (v.phase === 'discard' || v.phase === 'claims') && v.dead[seat].length === 1;
      // The advice keeps the heuristic's choice unless playouts overrule it by two standard
      // errors, which a few deals rarely do: a choice the heuristic shares is taken as agreed
      // without playing it out (most decisions are declines of discards one cannot use).
      if (playedOut && sameAction(heuristic.act({ seat, phase: v.phase, view: () => v, legal: () => legal, rng: seedRng(obj.n) }), action)) {
        decisions.push({
          index: obj.n, phase: v.phase as ReviewedDecision['phase'],
          chosen: describeAction(action, v), chosenAction: action,
          suggested: describeAction(action, v), suggestedAction: action,
          agreed: true, loss: 0, lossSe: 0, tilesLost: 0, why: 'The engine makes the same choice.', moment,
        });
        apply(state, action);
        continue;
      }
      const hint = hintFor(cc, v, legal, { worlds: opts.worlds, seed: opts.seed ?? obj.n });
      const suggested = hint.action;
      const agreed = sameAction(suggested, action);
      let loss = 0, lossSe = 0, tilesLost = 0;
      if (!agreed && (action.type === 'pass' || action.type === 'courtesy') && suggested.type === action.type) {
        tilesLost = Math.max(0, awayAfterPass(analyzer, v, action.tiles) - awayAfterPass(analyzer, v, suggested.tiles));
      } else if (!agreed && playedOut) {
        const listed = hint.alternatives?.find((x) => x.legal !== null && sameAction(x.legal, action));
        const best = hint.alternatives?.[0];
        if (listed && best) { loss = -listed.behind; lossSe = listed.behindSe; }
        else {
          // not among the advice's candidates: both played out on the same sampled deals
          const sit = parseSituation(situationOf(v), v.phase === 'discard' ? 'discard' : 'call', v.claim ? { tile: tileName(v.claim.tile), from: (v.claim.discarder - seat + v.players) % v.players } : undefined);
          const { scores } = playoutScores(sit, cc, v.phase as 'discard' | 'claims', [toSituation(suggested, v), toSituation(action, v)], opts.worlds, seedRng(opts.seed ?? obj.n));
          const diffs = scores.map((row) => row[0] - row[1]);
          loss = diffs.reduce((a, d) => a + d, 0) / diffs.length;
          lossSe = Math.sqrt(diffs.reduce((a, d) => a + (d - loss) ** 2, 0) / Math.max(1, diffs.length - 1) / diffs.length);
        }
      }
      decisions.push({
        index: obj.n,
        phase: v.phase as ReviewedDecision['phase'],
        chosen: describeAction(action, v),
        chosenAction: action,
        suggested: describeAction(suggested, v),
        suggestedAction: suggested,
        agreed,
        loss: round2(Math.max(0, loss)),
        lossSe: round2(lossSe),
        tilesLost,
        why: hint.text,
        ...(hint.details !== undefined && { details: hint.details }),
        moment,
      });
    }
    // teaching guide 6.6: a hand the table proves impossible may be called dead; the review says when
    if (action.type === 'callDead' && action.target === seat && dead === undefined && obj.n >= from && next === null) {
      dead = { index: obj.n, by: action.seat, why: `seat ${action.seat} called your hand dead: the tiles on the table showed that no hand on the card could still be finished with what you had exposed` };
    }
    apply(state, action);
  }
  return { ...summarized({ seat, ruleset: rules.name, card: cc.card.name, worlds: opts.worlds, decisions, ...(dead !== undefined && { dead }) }), next };
}
