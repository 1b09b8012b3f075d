import { ADVICE_WORLDS } from '../mah-jongg/advice.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { closestAway } from '../../engine/mah-jongg/hand-check.js';
import { handAfterCall } from '../../engine/mah-jongg/seat.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, view, type Action, type SeatView } from '../../engine/mah-jongg/game.js';
import { replayRecord } from '../../engine/record.js';
import { tileName, groupName } from '../../engine/mah-jongg/tiles.js';
import { forcedAction } from '../table.js';
import { MAH_JONGG, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { andList } from '../mah-jongg/charleston.js';
import { hintFor, type Hint } from './hint.js';
import { JUDGE_WORLDS, judgeChoice, sameChoice, type DominatedRule, type Verdict } from '../mah-jongg/judge.js';

/**
 * The coach's review of a finished game for one seat: the record is replayed, and at each of
 * the seat's decisions the hint the seat would have been given then (agents/coach/hint.ts: the
 * same budget and the seed drawn from the decision, so the same answer, word for word) is
 * set against the seat's choice by the one judge (agents/mah-jongg/judge.ts): right, about as good
 * or a mistake, its cost in points of the ruleset's scoring (paired playouts, sampled until the
 * verdict is clear) and its reason in one sentence. Mistakes first, the costliest first. It
 * answers with engine actions and views; api/shared/wire.ts writes it as JSON for the page.
 */

/**
 * The review's method, kept with every stored review (api/store): raised whenever the review's
 * answers change (2: the one-answer advice, the hint's budget and seed; 3: the one judge), so a
 * review kept by an earlier method is computed again rather than served.
 */
export const REVIEW_METHOD = 3;

export interface ReviewedDecision {
  /** The action number `n` in the record. */
  index: number;
  phase: 'charleston' | 'vote' | 'courtesy' | 'discard' | 'claims';
  chosen: string;
  chosenAction: Action;
  suggested: string;
  suggestedAction: Action;
  agreed: boolean;
  /** The judge's verdict (agents/mah-jongg/judge.ts): right, about as good, or a mistake. */
  verdict: Verdict;
  /** Another choice than the coach's that is no mistake (the judge calls it right or about as good): no cost. */
  asGood: boolean;
  /** Estimated points the choice cost against the coach's (0 unless a mistake). */
  loss: number;
  /** The judge's estimate of the cost, whatever the verdict (for the details). */
  cost: number;
  /** Passes: tiles away the kept hand lost against the engine's pass (its closest line). */
  tilesLost: number;
  /** Standard error of the cost over the paired worlds (0 where nothing was played out). */
  lossSe: number;
  /** Worlds the judge played out for this decision. */
  worlds: number;
  /** The verdict's reason in one plain sentence. */
  reason: string;
  /** The rule that made it a mistake, when one did (a joker thrown, Mah Jongg missed, ...). */
  rule?: DominatedRule;
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
  /** Not used: every seed is drawn from its decision (the hint's as the hint draws it, the judge's from the view), so a review is the same each time. */
  seed?: number;
  /** The most worlds the judge samples for one decision (default JUDGE_WORLDS); the hint keeps its own ADVICE_WORLDS (fewer when this is fewer). */
  worlds?: number;
  /** The judge's worlds per decision the caller allows on this card (the server's budget), at most `worlds`. */
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
      return `pass ${a.tiles.length || a.blind ? andList([...a.tiles.map(tileName), ...(a.blind ? [`${a.blind} blind`] : [])]) : 'none of your own'}`;
    case 'courtesy':
      return a.tiles.length ? `offer ${andList(a.tiles.map(tileName))}` : 'offer nothing';
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

/** Passes and courtesy offers are sets of tiles: the same tiles in another order are the same choice (the judge's own test). */
export const sameAction = sameChoice;

/** Tiles away of the closest line after passing `tiles` (blind tiles are received ones: the rack keeps the rest). */
function awayAfterPass(analyzer: Analyzer, v: SeatView, tiles: readonly number[]): number {
  const kept = [...v.concealed];
  for (const t of tiles) kept[t]--;
  return analyzer.analyze({ concealed: kept, exposures: [], seen: new Array<number>(kept.length).fill(0), copies: v.copies }, { top: 1 })[0].tilesAway;
}

/** How a choice compares with the coach's at one moment: the review's figures for a decision (and a drill's grade), from the one judge (agents/mah-jongg/judge.ts). */
export interface Judgement {
  verdict: Verdict;
  /** The hint's own choice. */
  agreed: boolean;
  /** Another choice than the hint's that is not a mistake: the judge calls it right or about as good. */
  asGood: boolean;
  /** Points a game the choice gave up against the coach's (0 unless a mistake). */
  loss: number;
  lossSe: number;
  /** The judge's cost estimate, whatever the verdict. */
  cost: number;
  /** Worlds the judge sampled. */
  worlds: number;
  /** A pass or an offer: tiles the closest line lost against the hint's. */
  tilesLost: number;
  /** The verdict's reason in one plain sentence. */
  reason: string;
  rule?: DominatedRule;
}

/** Tiles away of the closest line after a choice (a discard, pass, offer or call), or null for a choice that changes no tiles. */
function awayAfter(cc: CompiledCard, analyzer: Analyzer, v: SeatView, a: Action): number | null {
  const mine = v.exposures[v.seat].filter((x) => (x.rack ?? 0) === 0).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
  if (a.type === 'pass' || a.type === 'courtesy') return awayAfterPass(analyzer, v, a.tiles);
  if (a.type === 'discard') {
    const hand = [...v.concealed];
    hand[a.tile]--;
    return closestAway(cc, hand, mine);
  }
  if (a.type === 'call' && v.claim) {
    const after = handAfterCall(v.concealed, mine, v.claim.tile, a);
    return closestAway(cc, after.concealed, after.exposures);
  }
  if (a.type === 'decline') return closestAway(cc, v.concealed, mine);
  return null;
}

/**
 * The verdict's reason in one plain sentence, for a choice that is not the coach's: why, not
 * what (the review and the drills say the coach's choice and the cost beside it).
 */
function reasonWords(cc: CompiledCard, analyzer: Analyzer, v: SeatView, j: ReturnType<typeof judgeChoice>, chosen: Action, coach: Action): string {
  if (j.reason !== '') return j.reason;
  if (j.verdict === 'right') return `That is as good as the coach's choice to ${describeAction(coach, v)}.`;
  if (j.verdict === 'asGood') return `Yours gives up little: about ${Math.max(1, Math.round(j.cost))} point${Math.round(j.cost) > 1 ? 's' : ''} a game.`;
  const mine = awayAfter(cc, analyzer, v, chosen),
    coachs = awayAfter(cc, analyzer, v, coach);
  if (mine !== null && coachs !== null && mine > coachs) return `Yours leaves you ${mine} tile${mine === 1 ? '' : 's'} from Mah Jongg, where the coach's choice leaves you ${coachs}.`;
  return "The coach's choice did better in games played on from here.";
}

/**
 * Judges `action` against the coach's hint at the seat's view `v` (its legal actions `legal`)
 * with the one judge (agents/mah-jongg/judge.ts), sampling at most `worlds` worlds. The review
 * charges a player by it, a drill grades by it, My progress counts its mistakes.
 */
export function judge(cc: CompiledCard, analyzer: Analyzer, v: SeatView, legal: readonly Action[], hint: Hint, action: Action, worlds: number): Judgement {
  const suggested = hint.action;
  const agreed = sameAction(suggested, action);
  const j = judgeChoice(cc, analyzer, v, legal, action, suggested, { maxWorlds: worlds });
  let tilesLost = 0;
  if (!agreed && (action.type === 'pass' || action.type === 'courtesy') && suggested.type === action.type) {
    tilesLost = Math.max(0, awayAfterPass(analyzer, v, action.tiles) - awayAfterPass(analyzer, v, suggested.tiles));
  }
  const mistake = j.verdict === 'mistake';
  return {
    verdict: j.verdict,
    agreed,
    asGood: !agreed && !mistake,
    loss: mistake ? j.cost : 0,
    lossSe: j.costSe,
    cost: j.cost,
    worlds: j.worlds,
    tilesLost,
    reason: agreed ? "That is the coach's choice." : reasonWords(cc, analyzer, v, j, action, suggested),
    ...(j.rule !== undefined && { rule: j.rule }),
  };
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
  const asked = opts.worlds ?? JUDGE_WORLDS;
  const worlds = Math.max(1, Math.min(asked, opts.fit?.(cc, asked) ?? asked));
  const hintWorlds = Math.min(ADVICE_WORLDS, worlds);
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
      const hint = hintFor(cc, v, legal, { worlds: hintWorlds });
      const suggested = hint.action;
      decisions.push({
        index: obj.n,
        phase: v.phase as ReviewedDecision['phase'],
        chosen: describeAction(action, v),
        chosenAction: action,
        suggested: describeAction(suggested, v),
        suggestedAction: suggested,
        ...judge(cc, analyzer, v, legal, hint, action, worlds),
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
