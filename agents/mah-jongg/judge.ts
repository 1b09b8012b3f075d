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
import { PairedWorlds } from './paired-worlds.js';

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
 *   agents/mah-jongg/paired-worlds.ts), a batch at a time, and sampling stops as soon as the cost
 *   is clearly on one side of the mistake line (MISTAKE_POINTS) or the budget is spent: a close
 *   call gets more worlds, a plain one few.
 *
 * The truth set (training/truth.ts) measures it: the note of issue 61 and docs/training.md have
 * its recall of costly mistakes, its false alarms and its agreement with the truth.
 */

export type Verdict = 'right' | 'asGood' | 'mistake';

/** Points a game a choice must cost against the coach's to be a mistake. */
export const MISTAKE_POINTS = 6;
/** Points a game within which a choice that is not the coach's counts as right: the sampled games found it as good. */
export const RIGHT_POINTS = 1;
/** Standard errors the cost must stand from MISTAKE_POINTS before the judge stops sampling. */
const CLEAR = 2;

export interface JudgeOptions {
  /** The most worlds sampled (the review's budget; a hint's few). 0: no sampling, the rules and the tiles away only. */
  maxWorlds: number;
  /** Worlds between looks (default 16). */
  batch?: number;
  /** The worlds' seed (default: drawn from the view, so the same moment is judged the same everywhere). */
  seed?: number;
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

/** Each line's tiles away (99 for a line out of reach) for a hand, the table's seen tiles counted. */
function awayByLine(analyzer: Analyzer, v: SeatView, concealed: readonly number[], exposures: readonly Group[]): number[] {
  const seen = seenCounts(v);
  const out = new Array<number>(analyzer.cc.lineCount).fill(99);
  for (const r of analyzer.analyze({ concealed: [...concealed], exposures: [...exposures], seen, copies: v.copies })) if (r.possible) out[r.line] = r.tilesAway;
  return out;
}

const myExposures = (v: SeatView): Group[] => v.exposures[v.seat].filter((x) => (x.rack ?? 0) === 0).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));

function without(concealed: readonly number[], t: TileId): number[] {
  const out = [...concealed];
  out[t]--;
  return out;
}

/** The kinds on the rack (jokers apart) that serve none of `lines`: letting one go leaves each of those lines as close. */
function servesNone(analyzer: Analyzer, v: SeatView, concealed: readonly number[], lines: readonly number[], now: readonly number[]): TileId[] {
  const exposures = myExposures(v);
  const out: TileId[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (t === JOKER || concealed[t] === 0) continue;
    const after = awayByLine(analyzer, v, without(concealed, t), exposures);
    if (lines.every((l) => after[l] <= now[l])) out.push(t);
  }
  return out;
}

const a = (n: number): string => (n === 2 ? 'pair' : n === 3 ? 'pung' : n === 4 ? 'kong' : 'group');

/**
 * A choice plainly dominated by another the seat had, in words: the rule and the sentence, or
 * null. Read from the analyzer alone (the seat's own tiles, its exposures and the tiles seen).
 */
export function dominated(cc: CompiledCard, analyzer: Analyzer, v: SeatView, legal: readonly Action[], chosen: Action): { rule: DominatedRule; reason: string } | null {
  // teaching guide 5: Mah Jongg is declared when the hand is complete; nothing is worth more
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
  const now = awayByLine(analyzer, v, v.concealed, exposures);
  const closest = Math.min(...now);
  if (closest >= 99) return null;
  const allLines = now.map((_, l) => l).filter((l) => now[l] < 99);
  if (given.includes(JOKER)) {
    // a joker stands in for a tile of almost any group (teaching guide 1.3): throwing one while holding a tile no line uses gives up the rack's best tile for its worst
    const useless = servesNone(analyzer, v, v.concealed, allLines, now).filter((t) => !given.includes(t));
    if (useless.length > 0) {
      return { rule: 'joker-thrown', reason: `You threw a joker, which can stand in for a tile in almost any group, while ${tileWords(useless[0])} on your rack helps no hand on the card.` };
    }
  }
  // a group every close line needs, broken while a tile none of them needs stays on the rack
  const close = allLines.filter((l) => now[l] <= closest + 1);
  for (const t of new Set(given)) {
    if (t === JOKER || v.concealed[t] < 2) continue;
    const after = awayByLine(analyzer, v, without(v.concealed, t), exposures);
    if (!close.every((l) => after[l] > now[l])) continue;
    const spare = servesNone(analyzer, v, v.concealed, close, now).filter((u) => !given.includes(u));
    if (spare.length === 0) continue;
    return {
      rule: 'group-broken',
      reason: `Your ${a(v.concealed[t])} of ${tileWords(t)} is needed by every hand you are close to, while ${tileWords(spare[0])} helps none of them: that was the tile to let go.`,
    };
  }
  return null;
}

// ------------------------------------------------------------------ the judgement

/** The verdict a cost estimate gives: the one place the lines between right, about as good and a mistake are drawn. */
export function verdictOf(cost: number, isCoach: boolean, rule: boolean): Verdict {
  if (rule) return 'mistake';
  if (isCoach) return 'right';
  if (cost >= MISTAKE_POINTS) return 'mistake';
  return cost <= RIGHT_POINTS ? 'right' : 'asGood';
}

/** Whether more worlds could change the verdict: the cost is not yet CLEAR standard errors from the mistake line. */
export function unclear(cost: number, se: number, worlds: number): boolean {
  return worlds < 2 || Math.abs(cost - MISTAKE_POINTS) < CLEAR * se;
}

/**
 * Judges `chosen` against `coach` (the coach's choice at this moment: the hint's) at the seat's
 * view `v`, whose legal actions are `legal`.
 */
export function judgeChoice(cc: CompiledCard, analyzer: Analyzer, v: SeatView, legal: readonly Action[], chosen: Action, coach: Action, opts: JudgeOptions): Judgement {
  if (sameChoice(chosen, coach)) return { verdict: 'right', cost: 0, costSe: 0, worlds: 0, reason: '' };
  const dom = dominated(cc, analyzer, v, legal, chosen);
  const rules = loadRuleset(v.ruleset);
  const sampled = opts.maxWorlds > 0 && rules.racks === 1 && v.mahJonggs.length === 0;
  let cost = 0,
    se = 0,
    worlds = 0;
  if (sampled) {
    const pw = new PairedWorlds(cc, rules, v, [coach, chosen], opts.seed ?? judgeSeed(v));
    const batch = Math.max(2, opts.batch ?? 16);
    // a rule has decided the verdict: a few worlds say what it cost
    const most = dom === null ? opts.maxWorlds : Math.min(opts.maxWorlds, 2 * batch);
    do {
      pw.play(Math.min(batch, most - pw.worlds));
      ({ mean: cost, se } = pw.versus(0, 1));
    } while (pw.worlds < most && (dom !== null || unclear(cost, se, pw.worlds)));
    worlds = pw.worlds;
  }
  const verdict = verdictOf(cost, false, dom !== null);
  return {
    verdict,
    cost: verdict === 'right' ? 0 : round2(Math.max(0, cost)),
    costSe: round2(se),
    worlds,
    ...(dom !== null && { rule: dom.rule }),
    reason: dom?.reason ?? '',
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
