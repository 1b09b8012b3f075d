import { ADVICE_WORLDS, parseSituation, playoutScores } from '../mah-jongg/advice.js';
import { OVERRULE, paired } from '../mah-jongg/montecarlo.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, view, type Action, type SeatView } from '../../engine/mah-jongg/game.js';
import { replayRecord } from '../../engine/record.js';
import { seedRng } from '../../engine/rng.js';
import { tileName, groupName } from '../../engine/mah-jongg/tiles.js';
import { forcedAction } from '../table.js';
import { encodeAction, MAH_JONGG, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { hintFor, situationOf, type Hint } from './hint.js';

/**
 * The coach's review of a finished game for one seat: the record is replayed, and at each of
 * the seat's decisions the hint the seat would have been given then (agents/coach/hint.ts: the
 * same budget and the seed drawn from the decision, so the same answer, word for word) is
 * set against the seat's choice. For discards and calls the cost is the difference of mean scores
 * over the same sampled deals (paired playouts, in points of the ruleset's scoring), and
 * nothing when the advice itself calls the two choices about equally good; for
 * Charleston and courtesy passes, made before there is play to sample, it is the tiles
 * away the kept hand lost against the engine's pass. Biggest mistakes first. It answers with
 * engine actions and views; api/shared/wire.ts writes it as JSON for the page.
 */

/**
 * The review's method, kept with every stored review (api/store): raised whenever the review's
 * answers change (2: the one-answer advice, the hint's budget and seed), so a review kept by an
 * earlier method is computed again rather than served.
 */
export const REVIEW_METHOD = 2;

export interface ReviewedDecision {
  /** The action number `n` in the record. */
  index: number;
  phase: 'charleston' | 'vote' | 'courtesy' | 'discard' | 'claims';
  chosen: string;
  chosenAction: Action;
  suggested: string;
  suggestedAction: Action;
  agreed: boolean;
  /** Another choice than the coach's, but one the coach's own figures call about as good (within the noise): no cost, not a mistake. */
  asGood: boolean;
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
  summary: {
    decisions: number;
    agreed: number;
    disagreed: number;
    /** Decisions where another choice was clearly better (disagreed, less those about as good). */
    mistakes: number;
    totalLoss: number;
    totalTilesLost: number;
    /** The review in one plain, true sentence for the player. */
    text: string;
  };
  decisions: ReviewedDecision[];
  /** When another seat called this seat's hand dead: the action number, who, and why in words. */
  dead?: { index: number; by: number; why: string };
}

export interface ReviewOptions {
  seat: number;
  /** Not used for discards and calls: their seed is drawn from each decision (agents/mah-jongg/advice.ts decisionSeed), as the hint's is. */
  seed?: number;
  /** Sampled deals per decision (default ADVICE_WORLDS: the hint's, so the review gives the hint's answer). */
  worlds?: number;
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

const mistake = (d: ReviewedDecision): boolean => !d.agreed && !d.asGood;

function summarized(r: Omit<Review, 'summary'>): Review {
  const decisions = [...r.decisions];
  // the mistakes first, the costliest first; then the other choices than the coach's that were about as good; then the coach's own, each in order of play
  const rank = (d: ReviewedDecision): number => (mistake(d) ? 0 : d.agreed ? 2 : 1);
  decisions.sort((a, b) => rank(a) - rank(b) || (mistake(a) ? b.loss - a.loss || b.tilesLost - a.tilesLost : 0) || a.index - b.index);
  const agreed = decisions.filter((d) => d.agreed).length;
  const mistakes = decisions.filter(mistake).length;
  return {
    seat: r.seat,
    ruleset: r.ruleset,
    card: r.card,
    worlds: r.worlds,
    summary: {
      decisions: decisions.length,
      agreed,
      disagreed: decisions.length - agreed,
      mistakes,
      totalLoss: round2(decisions.reduce((a, d) => a + d.loss, 0)),
      totalTilesLost: decisions.reduce((a, d) => a + d.tilesLost, 0),
      text: summaryText(decisions.length, agreed, mistakes),
    },
    decisions,
    ...(r.dead !== undefined && { dead: r.dead }),
  };
}

/** The review in one plain sentence: what the player did well, or how many choices had a clearly better one. */
export function summaryText(decisions: number, agreed: number, mistakes: number): string {
  const made = `You made ${decisions} decision${decisions === 1 ? '' : 's'}`;
  if (decisions === 0) return 'There were no decisions of yours to review in this game.';
  if (mistakes === 0) {
    return agreed === decisions
      ? `${made}, and ${decisions === 1 ? 'it was' : 'every one was'} the choice the coach would make: well played!`
      : `${made}, and ${decisions === 1 ? 'it was' : 'every one was'} the coach's choice or about as good: well played!`;
  }
  return `${made}; at ${mistakes === 1 ? 'one' : mistakes} of them another choice was clearly better, and ${mistakes === 1 ? 'it comes' : 'they come'} first, the costliest first.`;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const upperFirst = (s: string): string => s.replace(/^./, (c) => c.toUpperCase());

/** Where `other` sits from `seat`, in a player's words. */
function seatWords(seat: number, other: number, players: number): string {
  const d = (other - seat + players) % players;
  return d === 1 ? 'the player to your right' : d === players - 1 ? 'the player to your left' : 'the player across';
}

/** An action as a person says it. */
export function describeAction(a: Action, v: SeatView): string {
  const claimed = v.claim ? tileName(v.claim.tile) : '';
  switch (a.type) {
    case 'pass':
      return `pass ${a.tiles.map(tileName).join(' ') || 'none of your own'}${a.blind ? ` and ${a.blind} blind` : ''}`;
    case 'courtesy':
      return a.tiles.length ? `offer ${a.tiles.map(tileName).join(' ')}` : 'offer nothing';
    case 'vote':
      return a.yes ? 'vote yes to a second Charleston' : 'vote no to a second Charleston';
    case 'draw':
      return 'draw';
    case 'discard':
      return `discard ${tileName(a.tile)}`;
    case 'exchange':
      return `exchange ${tileName(v.exposures[a.owner][a.exposure].tile)} for a joker`;
    case 'declare':
      return 'declare Mah Jongg';
    case 'decline':
      return `let ${claimed} go`;
    case 'call':
      return `call ${claimed} for a ${groupName(a.size)}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}`;
    case 'callMahJongg':
      return `call ${claimed} for Mah Jongg`;
    case 'callDead':
      return `call the hand of ${seatWords(a.seat, a.target, v.players)} dead`;
    case 'timeUp':
      return 'time is called: the game ends unfinished';
  }
}

/** The action with the person at seat 0 and the others by offset, as agents/mah-jongg/advice.ts seats a situation. */
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
  return Array.isArray(json.tiles) ? { ...json, tiles: [...(json.tiles as string[])].sort() } : json;
}

export const sameAction = (a: Action, b: Action): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Tiles away of the closest line after passing `tiles` (blind tiles are received ones: the rack keeps the rest). */
function awayAfterPass(analyzer: Analyzer, v: SeatView, tiles: readonly number[]): number {
  const kept = [...v.concealed];
  for (const t of tiles) kept[t]--;
  return analyzer.analyze({ concealed: kept, exposures: [], seen: new Array<number>(kept.length).fill(0), copies: v.copies }, { top: 1 })[0].tilesAway;
}

/** How a choice compares with the hint's at one moment: the review's figures for a decision (and a drill's grade). */
export interface Judgement {
  /** The hint's own choice. */
  agreed: boolean;
  /** Another choice than the hint's that its figures call about as good (a pass keeping the closest line as close). */
  asGood: boolean;
  /** Points the choice gave up against the hint's (0 when agreed or about as good). */
  loss: number;
  lossSe: number;
  /** A pass or an offer: tiles the closest line lost against the hint's. */
  tilesLost: number;
}

/**
 * Judges `action` against `hint`, the coach's hint for the seat's view `v` at that moment: a
 * pass or an offer by how close its kept tiles leave the closest line; a discard or a call in a
 * played-out game by the hint's own figures, or, for a choice the hint did not weigh, by
 * playing both out on the hint's own deals (its worlds and seed). A choice the figures call
 * about as good costs nothing. The review charges a player by it, and a drill grades by it.
 */
export function judge(cc: CompiledCard, analyzer: Analyzer, v: SeatView, hint: Hint, action: Action): Judgement {
  const suggested = hint.action;
  const agreed = sameAction(suggested, action);
  const playedOut = (v.phase === 'discard' || v.phase === 'claims') && v.dead[v.seat].length === 1;
  let loss = 0,
    lossSe = 0,
    tilesLost = 0,
    asGood = false;
  if (!agreed && (action.type === 'pass' || action.type === 'courtesy') && suggested.type === action.type) {
    tilesLost = Math.max(0, awayAfterPass(analyzer, v, action.tiles) - awayAfterPass(analyzer, v, suggested.tiles));
    asGood = tilesLost === 0;
  } else if (!agreed && playedOut && hint.advice !== undefined && 'alternatives' in hint.advice) {
    const listed = hint.alternatives?.find((x) => x.legal !== null && sameAction(x.legal, action));
    if (listed) {
      loss = -listed.behind;
      lossSe = listed.behindSe;
      asGood = listed.aboutEqual;
    } else {
      const sit = parseSituation(
        situationOf(v),
        v.phase === 'discard' ? 'discard' : 'call',
        v.claim ? { tile: tileName(v.claim.tile), from: (v.claim.discarder - v.seat + v.players) % v.players } : undefined,
      );
      const { scores } = playoutScores(sit, cc, v.phase as 'discard' | 'claims', [toSituation(suggested, v), toSituation(action, v)], hint.advice.worlds, seedRng(hint.advice.seed));
      const { mean, se } = paired(scores.map((row) => row[0] - row[1]));
      loss = round2(mean);
      lossSe = round2(se);
      asGood = loss <= OVERRULE * lossSe;
    }
    // the advice calls them about equally good: no cost is charged for taking either
    if (asGood) loss = 0;
  }
  return { agreed, asGood, loss: round2(Math.max(0, loss)), lossSe: round2(lossSe), tilesLost };
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
  const asked = opts.worlds ?? ADVICE_WORLDS;
  const worlds = Math.max(1, Math.min(asked, opts.fit?.(cc, asked) ?? asked));
  const from = opts.from ?? 1;
  let next: number | null = null;
  const analyzer = new Analyzer(cc);
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
      // the hint the seat would have had at this moment: the same budget, the seed drawn from the decision
      const hint = hintFor(cc, v, legal, { worlds });
      const suggested = hint.action;
      decisions.push({
        index: obj.n,
        phase: v.phase as ReviewedDecision['phase'],
        chosen: describeAction(action, v),
        chosenAction: action,
        suggested: describeAction(suggested, v),
        suggestedAction: suggested,
        ...judge(cc, analyzer, v, hint, action),
        why: hint.text,
        ...(hint.details !== undefined && { details: hint.details }),
        moment,
      });
    }
    // teaching guide 6.6: a hand the table proves impossible may be called dead; the review says when
    if (action.type === 'callDead' && action.target === seat && dead === undefined && obj.n >= from && next === null) {
      dead = {
        index: obj.n,
        by: action.seat,
        why: `${upperFirst(seatWords(seat, action.seat, rules.players))} called your hand dead: the tiles on the table showed that no hand on the card could still be finished with what you had exposed.`,
      };
    }
    apply(state, action);
  }
  return { ...summarized({ seat, ruleset: rules.name, card: cc.card.name, worlds, decisions, ...(dead !== undefined && { dead }) }), next };
}
