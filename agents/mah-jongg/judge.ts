import type { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { closestAway, exposuresFitCard } from '../../engine/mah-jongg/hand-check.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { encodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedOfText } from '../../engine/rng.js';
import { handAfterCall, seenCounts } from '../../engine/mah-jongg/seat.js';
import { groupName, JOKER, KINDS, type Group, type TileId } from '../../engine/mah-jongg/tiles.js';
import { tileWords } from './charleston.js';
import { OutlookWorlds, PairedWorlds } from './paired-worlds.js';
import { defaultModel } from './default-model.js';
import { LearnedAgent } from './learned.js';

/**
 * The coach's one judge (issue 61): was a choice right, about as good as the coach's, or a
 * mistake, what did it cost, and why, in one plain sentence. Every surface asks it: the review
 * of a game and its summary, the drills' grading, My progress and its habits, a coach's view of
 * a pupil, the hint's "about as good" (with the hint's few worlds), and the expert's search.
 *
 * How it judges a choice against the coach's:
 * - The coach's own choice is right.
 * - A choice that is plainly dominated is a mistake, said in words, whatever the sampled games
 *   say (dominated): Mah Jongg left on the table; a joker thrown while a tile that serves no
 *   line is on the rack; a call that brings no line closer; a tile of a group that every close
 *   line needs, given up while a tile none of them needs is kept.
 * - Otherwise both choices are played on in the same sampled worlds (common random numbers,
 *   agents/mah-jongg/paired-worlds.ts): first quickly, to the seat's next turn of play and rated
 *   there by the coach's model (OUTLOOK_POINTS reads its rating in points; not for the vote,
 *   which the model misreads), then in whole games, a batch at a time, the two weighed by their
 *   variances (the games alone once they disagree past their noise); sampling stops as soon as
 *   the cost is clearly on one side of both lines (RIGHT_POINTS, MISTAKE_POINTS) or the budget
 *   is spent: a close call gets more worlds, a plain one few.
 *
 * The truth set (training/truth.ts) measures it: the note of issue 61 and docs/training.md have
 * its recall of costly mistakes, its false alarms and its agreement with the truth.
 */

export type Verdict = 'right' | 'asGood' | 'mistake';

/** Points a game a choice must cost against the coach's to be a mistake. */
export const MISTAKE_POINTS = 6;
/**
 * Points a game within which a choice that is not the coach's counts as right: as good as the
 * coach's as far as a game can tell (the truth set itself knows a choice's cost to about ±3).
 */
export const RIGHT_POINTS = 3;
/** Standard errors the cost must stand from MISTAKE_POINTS before the judge stops sampling. */
const CLEAR = 2;

export interface JudgeOptions {
  /** The most worlds sampled (the review's budget; a hint's few). 0: no sampling, the rules and the tiles away only. */
  maxWorlds: number;
  /** Worlds between looks (default 16). */
  batch?: number;
  /** The worlds' seed (default: drawn from the view, so the same moment is judged the same everywhere). */
  seed?: number;
  /** How the quick evaluation reads in points (default OUTLOOK_POINTS; studies try others). */
  outlook?: OutlookPoints;
}

/** How the quick evaluation reads in points, for the play and the Charleston apart (see OUTLOOK_POINTS). */
export interface OutlookPoints {
  play: { win: number; score: number; sd: number };
  charleston: { win: number; score: number; sd: number };
}

/** A review's budget: worlds sampled at most for one decision. */
export const JUDGE_WORLDS = 256;

export interface Judgement {
  verdict: Verdict;
  /** Estimated points a game the choice gives up against the coach's (0 when right). */
  cost: number;
  /** Its standard error over the sampled worlds (0 when none were played). */
  costSe: number;
  /** Worlds sampled. */
  worlds: number;
  /** The rule that makes it a mistake, when one does (dominated). */
  rule?: DominatedRule;
  /** Why, in one plain sentence (the rule's words; empty when the cost alone decides). */
  reason: string;
}

export type DominatedRule = 'mahjongg-missed' | 'joker-thrown' | 'call-no-closer' | 'group-broken';

/** Passes and offers are sets of tiles: the same tiles in another order are the same choice. */
export function sameChoice(a: Action, b: Action): boolean {
  const canon = (x: Action) => {
    const json = encodeAction(x);
    return JSON.stringify(Array.isArray(json.tiles) ? { ...json, tiles: [...(json.tiles as string[])].sort() } : json);
  };
  return canon(a) === canon(b);
}

/** A seed drawn from the moment itself, as the hint draws its own: the same decision gets the same worlds in the review, a drill and My progress. */
export function judgeSeed(v: SeatView): number {
  return seedOfText(JSON.stringify(['judge', v.ruleset, v.phase, v.seat, v.concealed, v.exposures, v.discards, v.wallLeft, v.claim ?? null, v.pass ?? null]));
}

// ------------------------------------------------------------------ what the rack needs

const myExposures = (v: SeatView): Group[] => v.exposures[v.seat].filter((x) => (x.rack ?? 0) === 0).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));

/**
 * What each line needs of the seat's rack at one moment: each line's tiles away (99 for a line
 * out of reach), and after letting one tile of a kind go, worked out once a kind and kept with
 * the view (the hint asks the same view of several choices).
 */
class RackNeeds {
  readonly now: number[];
  readonly closest: number;
  private readonly afters = new Map<TileId, number[]>();
  private readonly exposures: Group[];
  private readonly seen: number[];

  constructor(
    private readonly analyzer: Analyzer,
    private readonly v: SeatView,
  ) {
    this.exposures = myExposures(v);
    this.seen = seenCounts(v);
    this.now = this.away(v.concealed);
    this.closest = Math.min(...this.now);
  }

  private away(concealed: readonly number[]): number[] {
    const out = new Array<number>(this.analyzer.cc.lineCount).fill(99);
    for (const r of this.analyzer.analyze({ concealed: [...concealed], exposures: [...this.exposures], seen: this.seen, copies: this.v.copies })) if (r.possible) out[r.line] = r.tilesAway;
    return out;
  }

  /** Each line's tiles away once one tile of kind t has gone. */
  after(t: TileId): number[] {
    let out = this.afters.get(t);
    if (out === undefined) {
      const hand = [...this.v.concealed];
      hand[t]--;
      out = this.away(hand);
      this.afters.set(t, out);
    }
    return out;
  }

  /** The lines within reach. */
  lines(): number[] {
    return this.now.map((_, l) => l).filter((l) => this.now[l] < 99);
  }

  /** The kinds on the rack (jokers apart) that serve none of `lines`: letting one go leaves each of those lines as close. */
  servesNone(lines: readonly number[]): TileId[] {
    const out: TileId[] = [];
    for (let t = 0; t < KINDS; t++) {
      if (t === JOKER || this.v.concealed[t] === 0) continue;
      const after = this.after(t);
      if (lines.every((l) => after[l] <= this.now[l])) out.push(t);
    }
    return out;
  }
}

const needsOf = new WeakMap<SeatView, RackNeeds>();
function rackNeeds(analyzer: Analyzer, v: SeatView): RackNeeds {
  let n = needsOf.get(v);
  if (n === undefined) {
    n = new RackNeeds(analyzer, v);
    needsOf.set(v, n);
  }
  return n;
}

const a = (n: number): string => (n === 2 ? 'pair' : n === 3 ? 'pung' : n === 4 ? 'kong' : 'group');

/**
 * A choice plainly dominated by another the seat had, in words: the rule and the sentence, or
 * null. Read from the analyzer alone (the seat's own tiles, its exposures and the tiles seen).
 */
export function dominated(cc: CompiledCard, analyzer: Analyzer, v: SeatView, legal: readonly Action[], chosen: Action): { rule: DominatedRule; reason: string } | null {
  // teaching guide 5: Mah Jongg is declared when the hand is complete; a self-picked one is worth
  // most of all (a Mah Jongg on a discard may be let go for a likelier self-pick: the evaluation,
  // not this rule, decides that one)
  const mahJongg = legal.find((x) => x.type === 'declare' || x.type === 'callMahJongg');
  if (mahJongg !== undefined && chosen.type !== 'declare' && chosen.type !== 'callMahJongg') {
    return {
      rule: 'mahjongg-missed',
      reason:
        mahJongg.type === 'callMahJongg' && v.claim
          ? `You could have called ${tileWords(v.claim.tile)} for Mah Jongg and won the hand.`
          : 'Your hand was complete: you could have declared Mah Jongg and won the hand.',
    };
  }
  if (v.dead[v.seat].every((d) => d)) return null;
  const exposures = myExposures(v);
  if (chosen.type === 'call' && v.claim) {
    const tile = v.claim.tile;
    const after = handAfterCall(v.concealed, exposures, tile, chosen);
    const group = `${groupName(chosen.size)} of ${tileWords(tile)}`;
    if (!exposuresFitCard(cc, after.exposures)) {
      return { rule: 'call-no-closer', reason: `An exposed ${group} fits no hand on the card with what you have shown, so calling it would leave you no hand to make.` };
    }
    if (closestAway(cc, after.concealed, after.exposures) >= closestAway(cc, v.concealed, exposures)) {
      return {
        rule: 'call-no-closer',
        reason: `Calling ${tileWords(tile)} for a ${groupName(chosen.size)} brings no hand on the card closer to Mah Jongg: it only shows your tiles and ties your hand down.`,
      };
    }
    return null;
  }
  const given: TileId[] = chosen.type === 'discard' ? [chosen.tile] : chosen.type === 'pass' || chosen.type === 'courtesy' ? [...chosen.tiles] : [];
  if (given.length === 0) return null;
  const needs = rackNeeds(analyzer, v);
  const { now, closest } = needs;
  if (closest >= 99) return null;
  if (given.includes(JOKER)) {
    // a joker stands in for a tile of almost any group (teaching guide 1.3): throwing one while holding a tile no line uses gives up the rack's best tile for its worst
    const useless = needs.servesNone(needs.lines()).filter((t) => !given.includes(t));
    if (useless.length > 0) {
      return { rule: 'joker-thrown', reason: `You threw a joker, which can stand in for a tile in almost any group, while ${tileWords(useless[0])} on your rack helps no hand on the card.` };
    }
  }
  // a group every close line needs, broken while a tile none of them needs stays on the rack
  const close = needs.lines().filter((l) => now[l] <= closest + 1);
  for (const t of new Set(given)) {
    if (t === JOKER || v.concealed[t] < 2) continue;
    const after = needs.after(t);
    if (!close.every((l) => after[l] > now[l])) continue;
    const spare = needs.servesNone(close).filter((u) => !given.includes(u));
    if (spare.length === 0) continue;
    return {
      rule: 'group-broken',
      reason: `Your ${a(v.concealed[t])} of ${tileWords(t)} is needed by every hand you are close to, while ${tileWords(spare[0])} helps none of them: that was the tile to let go.`,
    };
  }
  return null;
}

// ------------------------------------------------------------------ the judgement

/** The rules that make a choice a mistake whatever it cost: the others only say why, when the cost makes it one. */
const DECISIVE: readonly DominatedRule[] = ['mahjongg-missed', 'joker-thrown'];

/** Whether the rule `dom` decides the verdict: a self-picked Mah Jongg left, a joker thrown (a called Mah Jongg let go is the evaluation's to weigh). */
export const decides = (dom: { rule: DominatedRule } | null, legal: readonly Action[]): boolean =>
  dom !== null && DECISIVE.includes(dom.rule) && (dom.rule !== 'mahjongg-missed' || legal.some((x) => x.type === 'declare'));

/** The verdict a cost estimate gives: the one place the lines between right, about as good and a mistake are drawn (`decisive`: a rule decides, see decides). */
export function verdictOf(cost: number, isCoach: boolean, decisive: boolean): Verdict {
  if (decisive) return 'mistake';
  if (isCoach) return 'right';
  if (cost >= MISTAKE_POINTS) return 'mistake';
  return cost < RIGHT_POINTS ? 'right' : 'asGood';
}

/**
 * How the quick evaluation (OutlookWorlds: paired worlds to the seat's next turn, rated by the
 * coach's model) reads in points: cost ≈ win × (the difference in the model's chance of
 * winning, in percent) + score × (the difference in its expected score, in points), and `sd`
 * the model's error about it in points, for the play (discards, calls, exchanges) and the
 * Charleston (passes, the vote, the courtesy offer) apart. Fitted on the truth set's tune part
 * (lab/judge-calibrate.ts, 1,332 choices of 397 decisions): where the quick evaluation finds a
 * choice 2.5 to 40 points behind, the truth's costs run 1.63 times its expected score's
 * difference (1.64 in the Charleston; its chance of winning adds nothing the score does not
 * say); about the verdict's lines its error is about 4 points (4.5 in the Charleston), with
 * a long tail, so whole games are played wherever the quick evaluation leaves a line within
 * two of it.
 */
export const OUTLOOK_POINTS: OutlookPoints = {
  play: { win: 0, score: 1.63, sd: 4 },
  charleston: { win: 0, score: 1.64, sd: 4.5 },
};

/** Worlds the quick evaluation plays first, and at most. */
const OUTLOOK_FIRST = 16;
const OUTLOOK_MOST = 64;
/** Worlds of whole games between looks (the first look checks the model). */
const FULL_BATCH = 32;
/** Standard errors of their difference past which the whole games overrule the model's quick evaluation. */
const DISAGREE = 3;

const beforePlay = (v: SeatView): boolean => v.phase === 'charleston' || v.phase === 'vote' || v.phase === 'courtesy';

/** The coach's model's player, one per card (its hands' figures are kept from one call to the next). */
const players = new WeakMap<CompiledCard, LearnedAgent | null>();
function modelPlayer(cc: CompiledCard): LearnedAgent | null {
  if (!players.has(cc)) {
    const model = defaultModel();
    players.set(cc, model === null ? null : new LearnedAgent(cc, model, {}, 'judge'));
  }
  return players.get(cc)!;
}

/** An estimate of the cost and its variance. */
interface Estimate {
  cost: number;
  variance: number;
  worlds: number;
}

/** Two estimates of one cost, weighed by their variances. */
function combine(a: Estimate, b: Estimate): Estimate {
  if (!Number.isFinite(a.variance)) return b;
  if (!Number.isFinite(b.variance)) return a;
  if (a.variance === 0 || b.variance === 0) return a.variance === 0 ? { ...a, worlds: a.worlds + b.worlds } : { ...b, worlds: a.worlds + b.worlds };
  const variance = 1 / (1 / a.variance + 1 / b.variance);
  return { cost: variance * (a.cost / a.variance + b.cost / b.variance), variance, worlds: a.worlds + b.worlds };
}

/** The estimate stands CLEAR standard errors from both lines (RIGHT_POINTS, MISTAKE_POINTS): more worlds would not change the verdict. */
const clear = (e: Estimate): boolean => Math.min(Math.abs(e.cost - MISTAKE_POINTS), Math.abs(e.cost - RIGHT_POINTS)) >= CLEAR * Math.sqrt(e.variance);

/**
 * Judges `chosen` against `coach` (the coach's choice at this moment: the hint's) at the seat's
 * view `v`, whose legal actions are `legal`: first the rules (dominated), then the quick
 * evaluation by the coach's model, then whole games in the same paired worlds, a batch to
 * check the model and more while the verdict is unclear, up to `opts.maxWorlds`, the two
 * estimates weighed by their variances (the games alone once they and the model disagree
 * past their noise).
 */
export function judgeChoice(cc: CompiledCard, analyzer: Analyzer, v: SeatView, legal: readonly Action[], chosen: Action, coach: Action, opts: JudgeOptions): Judgement {
  if (sameChoice(chosen, coach)) return { verdict: 'right', cost: 0, costSe: 0, worlds: 0, reason: '' };
  const dom = dominated(cc, analyzer, v, legal, chosen);
  const decisive = decides(dom, legal);
  const rules = loadRuleset(v.ruleset);
  const seed = opts.seed ?? judgeSeed(v);
  let est: Estimate = { cost: 0, variance: Number.POSITIVE_INFINITY, worlds: 0 };
  const sampled = opts.maxWorlds > 0 && rules.racks === 1 && v.mahJonggs.length === 0;
  // the vote is weighed by whole games alone: the model reads the position after a second
  // Charleston poorly (on the truth set's tune part its quick evaluation made 5 false alarms
  // in 32 votes within 3 points of the best, whole games alone 1)
  const own = sampled && v.phase !== 'vote' ? modelPlayer(cc) : null;
  if (own !== null) {
    const outlook = opts.outlook ?? OUTLOOK_POINTS;
    const scale = beforePlay(v) ? outlook.charleston : outlook.play;
    const points = (win: number, score: number) => scale.win * 100 * win + scale.score * score;
    const ow = new OutlookWorlds(cc, rules, v, [coach, chosen], seed, own);
    let quick = { mean: 0, se: 0 };
    // the budget bounds the quick worlds too
    const most = Math.min(OUTLOOK_MOST, opts.maxWorlds);
    while (ow.worlds < most) {
      ow.play(Math.min(OUTLOOK_FIRST, most - ow.worlds));
      quick = ow.versus(0, 1, points);
      // the model's own error bounds what more worlds can tell: stop once the worlds' noise is well under it
      if (quick.se <= scale.sd / 2 || decisive) break;
    }
    est = { cost: quick.mean, variance: quick.se ** 2 + scale.sd ** 2, worlds: ow.worlds };
  }
  if (sampled && !decisive) {
    // whole games check the model: a few always (its error has a long tail), more while the verdict is unclear
    const quick = est;
    const pw = new PairedWorlds(cc, rules, v, [coach, chosen], seed);
    let trusted = true;
    while (pw.worlds < opts.maxWorlds) {
      pw.play(Math.min(opts.batch ?? FULL_BATCH, opts.maxWorlds - pw.worlds));
      const { mean, se } = pw.versus(0, 1);
      const whole: Estimate = { cost: mean, variance: pw.worlds < 2 ? Number.POSITIVE_INFINITY : se ** 2, worlds: pw.worlds };
      // the model and the whole games disagree past their noise: the model is misreading this one, and the games alone decide
      if (trusted && Number.isFinite(whole.variance) && Math.abs(quick.cost - whole.cost) > DISAGREE * Math.sqrt(quick.variance + whole.variance)) trusted = false;
      est = trusted ? combine(quick, whole) : { ...whole, worlds: quick.worlds + whole.worlds };
      if (pw.worlds >= 2 && clear(est)) break;
    }
  }
  const cost = est.worlds === 0 ? 0 : est.cost;
  const verdict = verdictOf(cost, false, decisive);
  // a rule that is not decisive says why only when the cost makes the choice a mistake
  const says = dom !== null && verdict === 'mistake';
  return {
    verdict,
    cost: verdict === 'right' ? 0 : round2(Math.max(0, cost)),
    costSe: Number.isFinite(est.variance) ? round2(Math.sqrt(est.variance)) : 0,
    worlds: est.worlds,
    ...(says && { rule: dom.rule }),
    reason: says ? dom.reason : '',
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
