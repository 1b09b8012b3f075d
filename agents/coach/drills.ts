import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import type { Action, GameState, SeatView } from '../../engine/mah-jongg/game.js';
import { MAH_JONGG, mahJonggGame, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { replayRecord } from '../../engine/record.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { seenCounts } from '../../engine/mah-jongg/seat.js';
import { nextU32, seedRng, shuffle } from '../../engine/rng.js';
import type { TileId } from '../../engine/mah-jongg/tiles.js';
import { scoreGame, type MahJonggEvent } from '../../engine/mah-jongg/scoring.js';
import { TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import type { LineResult } from '../../engine/mah-jongg/analyzer.js';
import type { RngState } from '../../engine/rng.js';
import { deadCalls, exposuresWords, tileSafety, tileWords, where, type SafetyLevel } from '../mah-jongg/defence.js';
import { makeAgent } from '../mah-jongg/levels.js';
import { forcedAction, tableTurns } from '../table.js';
import { hintFor, situationOf, type Hint, type HintOptions } from './hint.js';
import { lineName } from '../mah-jongg/advice.js';
import { describeAction, judge, type Judgement } from './review.js';
import { JUDGE_WORLDS, type Verdict } from '../mah-jongg/judge.js';

/**
 * Drills (issue 46): one decision at a real, dealt position, answered by the player. A drill is
 * named by its kind, level and seed alone: the deal is played again from them (four medium
 * bots), so a server keeps nothing, and an answer is graded only against the position the drill
 * names.
 *
 * Four kinds are answered by a move at the table and graded by the coach's own hint
 * (agents/coach/hint.ts) through the review's judgement (agents/coach/review.ts judge): the
 * hint's choice is right, and so is any choice its figures call about as good.
 * - `charleston`: pass three tiles; level 1 the first pass (right), 2 the pass across, 3 the
 *   first left, where a blind pass is allowed (senior games rules 3).
 * - `courtesy`: the second Charleston and the courtesy; level 1 the courtesy offer across
 *   (teaching guide 2.4: none to three tiles; an offer of as many tiles as the coach's that
 *   keeps her closest line as close is right), 2 the second Charleston's first pass (left), 3
 *   its last pass (right), where a blind pass is allowed. (The vote for the second Charleston
 *   is no drill: on the practice card the coach votes yes at every deal we tried, and a
 *   question whose answer is always yes teaches nothing.)
 * - `discard`: which tile to discard; level 1 early (the wall at 70 tiles or more), 2 the
 *   middle (40 to 69), 3 late (under 40), when more is on the table to weigh.
 * - `call`: call the discard or let it go; the same stages of the wall (60 or more, 30 to 59,
 *   under 30).
 * - `exchange`: a joker she may take from an exposure (teaching guide, Part 4, rule 7): take it,
 *   or discard; the call's stages. The question is the exchange: any discard is right where
 *   the coach discards too (the discard drill asks which tile).
 *
 * Four are answered by choosing one of a few answers, graded by what the hint itself reads
 * them from: the analyzer, the defence ratings, the dead-hand proof and the scorer.
 * - `hand`: which card line to aim for, of four (the closest line among three that are at
 *   least two tiles farther); level 1 the dealt rack, 2 her first discard after the
 *   Charleston, 3 the middle of the game with the table to read.
 * - `safe`: is this tile safe, risky or dangerous to discard (agents/mah-jongg/defence.ts, the
 *   hint's own ratings); the wall at 50 or more, 25 to 49, under 25.
 * - `dead`: is this player's hand dead (teaching guide 6.6: the tiles on the table leave no
 *   hand on the card with her exposures); the safe drill's stages.
 * - `score`: what a Mah Jongg scores (engine/mah-jongg/scoring.ts): level 1 won on a discard,
 *   2 self-picked, both as players pay each other (teaching guide 6.2); 3 any Mah Jongg in
 *   tournament points (standardized tournament rules 11).
 */

export const DRILL_KINDS = ['charleston', 'courtesy', 'discard', 'call', 'exchange', 'hand', 'safe', 'dead', 'score'] as const;
export type DrillKind = (typeof DRILL_KINDS)[number];
/** The kinds answered by choosing one of the drill's answers (the others by a move at the table). */
export const CHOICE_KINDS: readonly DrillKind[] = ['hand', 'safe', 'dead', 'score'];
export const DRILL_LEVELS = [1, 2, 3] as const;
export type DrillLevel = (typeof DRILL_LEVELS)[number];
/** A drill's seed is a whole number below 2^31: each one deals a position (about 2.1 billion of each kind and level). */
export const DRILL_SEEDS = 2 ** 31;
/** Deals tried after the drill's own when it never reaches such a decision (a call comes in most deals, not all). */
const MORE_DEALS = 24;
/**
 * Deals a balanced drill looks through for the answer its seed chose (a dead hand comes in a
 * few deals of a hundred), and an exchange drill for a joker to take (late in the game, one
 * deal in ten or so offers one); a balanced drill whose answer none of them asks takes the
 * first that asks the kind at all.
 */
const WANTED_DEALS = 200;
/** The answers a choice drill balances: its seed chooses one, each as often, so no one answer is usually right. */
const ANSWERS: Partial<Record<DrillKind, readonly string[]>> = { safe: ['safe', 'risky', 'dangerous'], dead: ['dead', 'live'] };
/** The drills' table: four players, the standard rules. */
const RULESET = 'nmjl-4p';

export interface Drill {
  kind: DrillKind;
  level: DrillLevel;
  seed: number;
}

/** A decision at a moment of a game: a drill's, or one of her own games' (recordPosition). */
export interface Position {
  seat: number;
  view: SeatView;
  legal: Action[];
  /** The game at the position, for checking an answer (never sent to a player). */
  state: GameState;
  game: MahJonggGame;
}

/** One of a choice drill's answers. */
export interface DrillChoice {
  id: string;
  /** The answer as the page shows it on its button. */
  words: string;
  /** A card line's answer (the hand drill's): the line as the card writes it, for those who read the card's notation. */
  form?: string;
}

export interface DrillPosition extends Drill, Position {
  /** The deal the position is in: the drill's seed, or a later one when that deal never reached such a decision. */
  deal: number;
  /** The decisions of the drill's kind and level its deal offered (every seat's): the seed chose one; its deal's count of positions. */
  moments: number;
  /** The question, for this position ("Is 5 Crak safe to discard now?"). */
  question: string;
  /** A choice drill: what the table shows that the view does not say (the Mah Jongg to score), in one sentence. */
  situation?: string;
  /** A choice drill's answers. */
  choices?: DrillChoice[];
  /** A choice drill's key (never sent before she answers): the right answer, why, and the tiles it is about. */
  key?: { right: string; reason: string; tiles: TileId[] };
}

/** The words of a drill's kind: its question, as the page and the terminal ask it (a choice drill names its tile or player). */
export const DRILL_QUESTIONS: Record<DrillKind, string> = {
  charleston: 'Which three tiles would you pass?',
  courtesy: 'Which tiles, if any, would you offer across in the courtesy pass?',
  discard: 'Which tile would you discard?',
  call: 'Would you call this tile, or let it go?',
  exchange: 'A joker you could take lies in an exposure: would you exchange your tile for it, or discard?',
  hand: 'Which of these card lines would you aim for with these tiles?',
  safe: 'Is this tile safe to discard now?',
  dead: "Is this player's hand dead?",
  score: 'What does this Mah Jongg score?',
};

/** The courtesy drill's question at each level: the offer, the second Charleston's first pass and its last. */
const COURTESY_QUESTIONS = [
  DRILL_QUESTIONS.courtesy,
  "Which three tiles would you pass in the second Charleston's first pass?",
  "Which three tiles would you pass in the second Charleston's last pass?",
] as const;

/** Checks a drill named from outside (a request): its kind, level and seed. */
export function checkDrill(kind: unknown, level: unknown, seed: unknown): Drill {
  if (typeof kind !== 'string' || !(DRILL_KINDS as readonly string[]).includes(kind))
    throw new TilemateError('TM_BAD_INPUT', `unknown drill "${String(kind).slice(0, 40)}" (expected one of ${DRILL_KINDS.join(', ')})`);
  if (!(DRILL_LEVELS as readonly unknown[]).includes(level)) throw new TilemateError('TM_BAD_INPUT', `drill level ${String(level).slice(0, 20)}: expected 1, 2 or 3`);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed >= DRILL_SEEDS)
    throw new TilemateError('TM_BAD_INPUT', `drill number ${String(seed).slice(0, 20)}: expected a whole number from 0 to ${DRILL_SEEDS - 1}`);
  return { kind: kind as DrillKind, level: level as DrillLevel, seed };
}

/** The tiles left in the wall at each level's decisions: from the first figure, below the second. */
type Stages = [number, number][];
const CALL_STAGES: Stages = [
  [60, Infinity],
  [30, 60],
  [0, 30],
];
const SAFE_STAGES: Stages = [
  [50, Infinity],
  [25, 50],
  [0, 25],
];
const STAGES: Record<'discard' | 'call' | 'exchange' | 'hand' | 'safe' | 'dead', Stages> = {
  discard: [
    [70, Infinity],
    [40, 70],
    [0, 40],
  ],
  call: CALL_STAGES,
  // a joker to take comes at a call's stages of the wall, a dead hand at the safe drill's
  exchange: CALL_STAGES,
  // level 1 is the Charleston's first pass (the dealt rack); 2 her first discard, early in the wall
  hand: [
    [0, Infinity],
    [88, Infinity],
    [30, 60],
  ],
  safe: SAFE_STAGES,
  dead: SAFE_STAGES,
};

/** The second Charleston's first and last passes (the passes numbered from 0, the first Charleston's three first). */
const SECOND_PASSES = [3, 5];

/** Other seats with exposures on a live rack: the players whose hands a dead drill may ask about. */
function exposedOthers(v: SeatView): number[] {
  return [...Array(v.players).keys()].filter((s) => s !== v.seat && v.exposures[s].length > 0 && !v.dead[s][0] && !v.mahJonggs.some((m) => m.seat === s));
}

/**
 * What the seat's decision now offers the drill: nothing (an empty list) when it is not one the
 * drill asks about, else the kinds of question it can ask there (a safe drill: the ratings its
 * rack holds; a dead drill: a dead hand, a live one or both), so that the seed can choose the
 * answer before the moment and no one answer is always right.
 */
function tagsAt(cc: CompiledCard, drill: Drill, v: SeatView, legal: readonly Action[]): string[] {
  const { kind, level } = drill;
  const any = ['any'];
  if (kind === 'score') return [];
  if (kind === 'courtesy') {
    if (level === 1) return v.phase === 'courtesy' && legal.some((a) => a.type === 'courtesy') ? any : [];
    return v.phase === 'charleston' && legal.some((a) => a.type === 'pass') && v.pass === SECOND_PASSES[level - 2] ? any : [];
  }
  if (kind === 'charleston' || (kind === 'hand' && level === 1)) return v.phase === 'charleston' && legal.some((a) => a.type === 'pass') && v.pass === (kind === 'hand' ? 0 : level - 1) ? any : [];
  const [from, below] = STAGES[kind][level - 1];
  if (v.wallLeft < from || v.wallLeft >= below) return [];
  switch (kind) {
    case 'discard':
      // the question is which tile: a moment that also offers a joker to take or a Mah Jongg to declare asks something else (the exchange drill asks that)
      return v.phase === 'discard' && legal.some((a) => a.type === 'discard') && !legal.some((a) => a.type === 'exchange' || a.type === 'declare') ? any : [];
    case 'call':
      return v.phase === 'claims' && legal.some((a) => a.type === 'call' || a.type === 'callMahJongg') ? any : [];
    case 'exchange':
      return v.phase === 'discard' && legal.some((a) => a.type === 'exchange') ? any : [];
    case 'hand':
      return v.phase === 'discard' && v.exposures[v.seat].length === 0 && (level === 3 || v.discards[v.seat].length === 0) ? any : [];
    case 'safe': {
      if (v.phase !== 'discard' || !v.exposures.some((x, s) => s !== v.seat && x.length > 0)) return [];
      const levels = [...new Set(tileSafety(cc, v).map((x) => x.level))];
      return levels.length >= 2 ? levels : [];
    }
    case 'dead': {
      if (v.phase !== 'discard' && v.phase !== 'draw') return [];
      const others = exposedOthers(v);
      if (others.length === 0) return [];
      const dead = new Set(deadCalls(cc, v).map((c) => c.target));
      return [...(others.some((s) => dead.has(s)) ? ['dead'] : []), ...(others.some((s) => !dead.has(s)) ? ['live'] : [])];
    }
  }
}

/** Whether the drill's decisions are all behind the game now. */
function past(drill: Drill, state: GameState): boolean {
  const kind = state.phase.kind;
  if (drill.kind === 'score') return false;
  if (drill.kind === 'charleston' || (drill.kind === 'hand' && drill.level === 1)) return kind !== 'charleston' && kind !== 'vote';
  if (drill.kind === 'courtesy') return kind !== 'charleston' && kind !== 'vote' && kind !== 'courtesy';
  return kind !== 'charleston' && kind !== 'vote' && kind !== 'courtesy' && state.wall.length - state.wallPos < STAGES[drill.kind][drill.level - 1][0];
}

/** The Mah Jongg a score drill asks about, when the game ended on one its level takes: level 1 won on a discard, 2 self-picked, 3 any but East's dealt hand. */
function scoredMahJongg(drill: Drill, state: GameState): MahJonggEvent | null {
  const e = state.result?.outcome.mahJonggs[0];
  if (e === undefined || e.heavenly) return null;
  if (drill.level === 1) return e.selfPick ? null : e;
  if (drill.level === 2) return e.selfPick ? e : null;
  return e;
}

/**
 * The drill's position: its deal played by four medium bots, each decision of the kind and
 * level met on the way noted (every seat's), one of them chosen by the seed, and the deal
 * played again to it. A choice drill's seed first chooses what its answer will be among those
 * the deal offers (a dead hand or a live one; a safe tile or a risky one), then the moment. A
 * score drill's moment is the game's end. The same drill gives the same position on every
 * server.
 */
export function drillPosition(cc: CompiledCard, drill: Drill): DrillPosition {
  const rules = loadRuleset(RULESET);
  const game = mahJonggGame(rules, cc);
  const agents = Array.from({ length: rules.players }, () => makeAgent('medium', cc, rules));
  /**
   * The discards of a position that keep her closest line as close as any (few of many is a
   * question with a clear answer), and how close that line is (the closer, the more a wrong
   * discard costs: issue 61 measured a random answer right 27.8% of the time choosing by the
   * first alone).
   */
  const analyzer = new Analyzer(cc);
  const clarity = (v: SeatView, legal: readonly Action[]): { clear: number; close: number } => {
    const tiles = [...new Set(legal.flatMap((a) => (a.type === 'discard' ? [a.tile] : [])))];
    const seen = seenCounts(v);
    const exposures = v.exposures[v.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
    // the lines still possible with the tiles on the table: a hand none of them is open to makes every discard alike
    const away = tiles.map((t) => {
      const kept = [...v.concealed];
      kept[t]--;
      const best = analyzer.analyze({ concealed: kept, exposures, seen, copies: v.copies }, { top: 1 })[0];
      return best.possible ? best.tilesAway : 99;
    });
    const best = Math.min(...away);
    return best >= 99 ? { clear: 1, close: 99 } : { clear: away.filter((a) => a === best).length / tiles.length, close: best };
  };
  /**
   * A discard drill asks where at most a fifth of the discards keep her closest line as close,
   * looking through later deals for one (a random answer was right 26.3% of the time without).
   */
  const sharp = (m: Moment): boolean => drill.kind !== 'discard' || m.clear <= 0.2;
  interface Moment {
    n: number;
    tags: string[];
    clear: number;
    /** The closest line's tiles away after the best discard (discard drills). */
    close: number;
  }
  const play = (deal: number, stopAt: number): { met: Moment[]; state: GameState; seat: number } => {
    const state = game.newGame(deal);
    const rng = seedRng(deal ^ 0x5eed);
    const turns = tableTurns(game, state, rng);
    const met: Moment[] = [];
    let n = 0;
    for (; !game.isOver(state); n++) {
      const seat = game.nextToAct(state);
      if (seat < 0) break;
      const legal = game.legalActions(state, seat);
      if (forcedAction(legal) === null) {
        const v = game.sharedView(state, seat);
        const tags = tagsAt(cc, drill, v, legal);
        if (tags.length > 0) {
          if (n === stopAt) return { met, state, seat };
          met.push({ n, tags, ...(drill.kind === 'discard' ? clarity(v, legal) : { clear: 0, close: 0 }) });
        }
      }
      if (past(drill, state)) break;
      const turn = turns[seat];
      turn.phase = game.phase(state);
      game.apply(state, agents[seat].act(turn));
    }
    const won = drill.kind === 'score' && game.isOver(state) ? scoredMahJongg(drill, state) : null;
    if (won !== null) return { met: [{ n, tags: ['any'], clear: 0, close: 0 }], state, seat: won.seat };
    return { met, state, seat: -1 };
  };
  const rng = seedRng(drill.seed * 31 + drill.level);
  // a drill with answers to balance chooses its answer first, and looks for a deal that asks it
  const answers = ANSWERS[drill.kind];
  const want = answers === undefined ? undefined : answers[nextU32(rng) % answers.length];
  /** The position at one of the deal's moments that asks `want` (any, unless given), chosen by the seed. */
  const at = (deal: number, met: Moment[], want: string | undefined): DrillPosition => {
    const tags = [...new Set(met.flatMap((m) => m.tags))].sort();
    const tag = want ?? (tags.length === 1 ? tags[0] : tags[nextU32(rng) % tags.length]);
    let moments = met.filter((m) => m.tags.includes(tag));
    // a discard drill asks where the hand is closest to Mah Jongg (a wrong discard costs most)
    // and, of those, where the answer is clearest (the fewest discards keep the hand as close):
    // elsewhere the judge finds most choices about as good, and any answer would do
    if (moments.some(sharp)) moments = moments.filter(sharp);
    const closest = Math.min(...moments.map((m) => m.close));
    moments = moments.filter((m) => m.close === closest);
    const least = Math.min(...moments.map((m) => m.clear));
    moments = moments.filter((m) => m.clear === least);
    const chosen = moments[nextU32(rng) % moments.length];
    const end = play(deal, chosen.n);
    const view = game.view(end.state, end.seat);
    const question = drill.kind === 'courtesy' ? COURTESY_QUESTIONS[drill.level - 1] : DRILL_QUESTIONS[drill.kind];
    const pos: DrillPosition = { ...drill, deal, moments: met.length, seat: end.seat, view, legal: game.legalActions(end.state, end.seat), state: end.state, game, question };
    return CHOICE_KINDS.includes(drill.kind) ? { ...pos, ...choiceQuestion(cc, pos, tag, rng) } : pos;
  };
  let first: { deal: number; met: Moment[] } | undefined;
  const deals = want === undefined && drill.kind !== 'exchange' && drill.kind !== 'courtesy' && drill.kind !== 'discard' ? MORE_DEALS : WANTED_DEALS;
  for (let k = 0; k <= deals; k++) {
    const deal = (drill.seed + k) % DRILL_SEEDS;
    const { met } = play(deal, -1);
    if (met.length === 0) continue;
    first ??= { deal, met };
    if ((want === undefined || met.some((m) => m.tags.includes(want))) && met.some(sharp)) return at(deal, met, want);
  }
  // the answer wanted comes in no deal near the seed: the first deal that asks the kind at all
  if (first !== undefined) return at(first.deal, first.met, undefined);
  throw new TilemateError('TM_BAD_INPUT', `drill ${drill.kind} ${drill.level} #${drill.seed} found no such decision in ${deals + 1} deals: try another number`);
}

type ChoiceQuestion = Required<Pick<DrillPosition, 'question' | 'choices' | 'key'>> & Partial<Pick<DrillPosition, 'situation' | 'view'>>;

/** A choice drill's question at its position, its answers and its key, with `tag` the answer the seed chose (see tagsAt). */
function choiceQuestion(cc: CompiledCard, pos: DrillPosition, tag: string, rng: RngState): ChoiceQuestion {
  const v = pos.view;
  switch (pos.kind) {
    case 'safe': {
      const rated = tileSafety(cc, v);
      const asked = pick(
        rng,
        rated.filter((x) => x.level === tag),
      );
      return {
        question: `Is ${tileWords(asked.tile)} safe to discard now?`,
        choices: SAFETY.map((id) => ({ id, words: SAFETY_WORDS[id] })),
        key: { right: asked.level, reason: asked.why, tiles: [asked.tile] },
      };
    }
    case 'dead': {
      const calls = deadCalls(cc, v);
      const target = pick(
        rng,
        exposedOthers(v).filter((s) => calls.some((c) => c.target === s) === (tag === 'dead')),
      );
      const who = where(v.seat, target, v.players);
      const call = calls.find((c) => c.target === target);
      const reason =
        call === undefined
          ? `${who}'s hand is not dead: a hand on the card still fits ${exposuresWords(v.exposures[target])}, and the tiles it needs are not all on the table.`
          : `${who}'s hand is dead: ${call.text.slice(call.text.indexOf(': ') + 2)}`;
      return {
        question: `Is ${who}'s hand dead?`,
        choices: [
          { id: 'dead', words: `Yes: no hand on the card can be made with ${who}'s exposures now` },
          { id: 'live', words: `No: ${who}'s hand can still be made` },
        ],
        key: { right: call === undefined ? 'live' : 'dead', reason, tiles: [] },
      };
    }
    case 'hand':
      return handQuestion(cc, v, rng);
    case 'score':
      return scoreQuestion(cc, pos, rng);
    default:
      throw new Error(`${pos.kind} is not a choice drill`);
  }
}

const SAFETY: readonly SafetyLevel[] = ['safe', 'risky', 'dangerous'];
const SAFETY_WORDS: Record<SafetyLevel, string> = {
  safe: 'Safe: nobody is likely to want it',
  risky: 'Risky: it fits a hand someone may be making',
  dangerous: 'Dangerous: it may give someone Mah Jongg',
};

/**
 * Which line to aim for: the closest line on the card against three at least two tiles farther,
 * in an order the seed shuffles. The lines are ranked as Which hand? ranks them for the same
 * situation typed in (agents/coach/hint.ts situationOf: her rack, her exposures, the discards
 * and the others' exposures).
 */
function handQuestion(cc: CompiledCard, v: SeatView, rng: RngState): ChoiceQuestion {
  const sit = situationOf(v);
  const input = analysisInput(v.copies, sit.hand, sit.exposed, sit.seen, sit.others);
  const ranked = new Analyzer(cc).analyze(input).filter((r) => r.possible);
  const best = ranked[0];
  const farther = (gap: number) => ranked.filter((r) => r.tilesAway >= best.tilesAway + gap);
  let pool = farther(2);
  if (pool.length < 3) pool = farther(1);
  const others: LineResult[] = [];
  // three others, from different sections where the card allows
  while (others.length < 3 && pool.length > 0) {
    const fresh = pool.filter((r) => !others.some((o) => o.section === r.section));
    const r = pick(rng, fresh.length > 0 ? fresh : pool);
    others.push(r);
    pool = pool.filter((x) => x !== r);
  }
  const four = shuffle(rng, [best, ...others]);
  // a line as players name it ("The second 2468 line"), never in the card's notation, which a beginner cannot read
  const words = (r: LineResult) => `${upperFirst(lineName(cc, r.id))} (${r.value} points${r.concealed ? ', concealed' : ''})`;
  const away = (r: LineResult) => `${r.tilesAway} tile${r.tilesAway === 1 ? '' : 's'}`;
  const rest = others.map(away);
  return {
    question: DRILL_QUESTIONS.hand,
    choices: four.map((r) => ({ id: r.id, words: words(r), form: cc.card.lines[r.line].pattern })),
    key: {
      right: best.id,
      reason: `${upperFirst(lineName(cc, best.id))} is ${away(best)} from Mah Jongg with your tiles, the closest of the four; the others are ${rest.length > 1 ? `${rest.slice(0, -1).join(', ')} and ${rest.at(-1)!}` : rest.join('')} away.`,
      tiles: best.need,
    },
  };
}

const COUNT = ['none', 'one', 'two', 'three'];
const upperFirst = (s: string): string => s.replace(/^./, (c) => c.toUpperCase());
const pick = <T>(rng: RngState, xs: readonly T[]): T => xs[nextU32(rng) % xs.length];

/**
 * What the Mah Jongg scores: for levels 1 and 2 what she collects as players pay each other
 * (the drills' ruleset, teaching guide 6.2), for level 3 her tournament points (standardized
 * tournament rules 11), both from the engine's scorer. The wrong answers are what the common
 * slips give: the self-pick read the other way round, the jokerless doubling or bonus
 * forgotten or added.
 */
function scoreQuestion(cc: CompiledCard, pos: DrillPosition, rng: RngState): ChoiceQuestion {
  const state = pos.state;
  const e = state.result!.outcome.mahJonggs[0];
  const tournament = pos.level === 3;
  const table = tournament ? TOURNAMENT : state.rules.scoring;
  const outcome = state.result!.outcome;
  const scoreOf = (x: MahJonggEvent) => scoreGame(table, { ...outcome, mahJonggs: [x] }).scores[x.seat];
  const total = scoreOf(e);
  const discarder = e.discarder === null ? null : where(e.seat, e.discarder, outcome.players);
  const slips = [
    { ...e, selfPick: !e.selfPick, discarder: e.selfPick ? (e.seat + 1) % outcome.players : null },
    { ...e, jokerless: !e.jokerless },
    { ...e, selfPick: !e.selfPick, discarder: e.selfPick ? (e.seat + 1) % outcome.players : null, jokerless: !e.jokerless },
  ].map(scoreOf);
  // the right answer's place among the four is drawn too (never always the largest): so many slips below it, the rest above
  const fits = (xs: number[], below: boolean) => [...new Set(xs.filter((x) => Number.isInteger(x) && x > 0 && (below ? x < total : x > total)))];
  const below = fits([...shuffle(rng, [...slips]), e.value, e.value * (outcome.players - 1), total - e.value, total - 10, total / 2], true);
  const above = fits([...shuffle(rng, [...slips]), total * 2, total + e.value, total + 10, total + 20], false);
  const under = Math.min(below.length, Math.max(3 - above.length, nextU32(rng) % 4));
  const wrong = [...below.slice(0, under), ...above.slice(0, 3 - under)];
  const choices = [total, ...wrong].sort((a, b) => a - b).map((x) => ({ id: String(x), words: tournament ? `${x} points` : `${x} in all` }));
  const mj = state.players[e.seat].mahJonggs[0];
  const line = cc.card.lines[mj.line];
  const how = e.selfPick ? 'picking the winning tile from the wall yourself' : `on ${discarder}'s discard`;
  // the winner's own hand: the tiles she laid down (her exposures are in the view already)
  const view: SeatView = { ...pos.view, concealed: [...mj.tiles] };
  const jokerless = e.jokerless && (!e.singlesAndPairs || table.jokerlessOnSinglesAndPairs);
  const hand = jokerless && table.jokerlessMultiplier !== 1 ? e.value * table.jokerlessMultiplier : e.value;
  const noJokers = jokerless && table.jokerlessMultiplier !== 1 ? `With no jokers the ${e.value}-point hand counts double, ${hand}; ` : '';
  const others = outcome.players - 1;
  let reason: string;
  if (tournament) {
    const extras = [
      ...(e.selfPick && table.selfPickBonus ? [`${table.selfPickBonus} for picking the winning tile yourself`] : []),
      ...(jokerless && table.jokerlessBonus ? [`${table.jokerlessBonus} for a hand with no jokers`] : []),
    ];
    reason = `In a tournament you score the hand's value, ${e.value}${extras.map((x) => `, plus ${x}`).join('')}: ${total} points.`;
  } else if (e.selfPick) {
    reason = `${noJokers}${noJokers ? 'you' : 'You'} picked the winning tile yourself, so each of the other ${COUNT[others] ?? others} pays double, ${hand * table.selfPickPays}: you collect ${total}.`;
  } else {
    reason = `${noJokers}${discarder} threw the winning tile and pays double, ${hand * table.discarderPays}, and the other ${COUNT[others - 1] ?? others - 1} pay ${hand} each: you collect ${total}.`;
  }
  return {
    question: tournament ? 'In a tournament, how many points does this Mah Jongg score for you?' : 'How much do you collect in all?',
    situation: `You made Mah Jongg with ${lineName(cc, line.id)}, a ${e.value}-point hand, ${how}.`,
    choices,
    key: { right: String(total), reason, tiles: [] },
    view,
  };
}

export interface ChoiceGrade {
  right: boolean;
  /** The verdict in one sentence. */
  verdict: string;
  /** Why the right answer is right, in one sentence. */
  reason: string;
  /** The tiles the answer is about (the tile asked, the tiles the closest line needs). */
  tiles: TileId[];
}

/** Grades her choice at a choice drill: refused (TM_BAD_INPUT) when it is not one of its answers. */
export function gradeChoice(pos: DrillPosition, choice: string): ChoiceGrade {
  const { choices, key } = pos;
  if (choices === undefined || key === undefined) throw new TilemateError('TM_BAD_INPUT', `a ${pos.kind} drill is answered by a move at the table, not by choosing an answer`);
  if (!choices.some((c) => c.id === choice)) throw new TilemateError('TM_BAD_INPUT', `"${choice.slice(0, 40)}" is not one of this drill's answers (${choices.map((c) => c.id).join(', ')})`);
  const right = choice === key.right;
  const words = choices.find((c) => c.id === key.right)!.words;
  return { right, verdict: right ? 'Right.' : `Not this time: the answer is "${words}".`, reason: key.reason, tiles: key.tiles };
}

export interface DrillGrade extends Omit<Judgement, 'verdict'> {
  /** Right: the coach's choice, or one the judge calls right, as good as the coach's (agents/mah-jongg/judge.ts). */
  right: boolean;
  /** The judge's verdict. */
  judged: Verdict;
  /** The verdict in one sentence ("Right: that is the coach's choice."). */
  verdict: string;
  /** The coach's choice in a player's words ("discard 5 Crak"). */
  coach: string;
  /** The hint at the position: its sentence is the reason shown after she answers. */
  hint: Hint;
}

/**
 * Sampled deals the coach's choice at a drill is weighed over (the hint's worlds): four times a
 * game hint's, for a sturdier answer key. The answer is then judged by the one judge.
 */
export const DRILL_WORLDS = 96;

/**
 * The moment of her own game just before its action number `decision` (a review's `index`),
 * at her `seat`: refused (TM_BAD_INPUT) when that action was not hers.
 */
export function recordPosition(text: string, loadCard: (text: string) => CompiledCard, seat: number, decision: number): Position & { cc: CompiledCard } {
  const { header, game, played } = replayRecord(text, { type: MAH_JONGG, cards: loadCard });
  const g = game as MahJonggGame;
  if (!Number.isInteger(decision) || decision < 1 || decision > played.length || played[decision - 1].seat !== seat) {
    throw new TilemateError('TM_BAD_INPUT', `action ${decision} of this game is not a decision of seat ${seat}`);
  }
  const state = g.newGame(header.seed);
  for (const a of played.slice(0, decision - 1)) g.apply(state, a);
  return { seat, view: g.view(state, seat), legal: g.legalActions(state, seat), state, game: g, cc: g.cc };
}

/** The coach's hint at the drill's position (the answer key), weighed over DRILL_WORLDS deals unless told. */
export function drillHint(cc: CompiledCard, pos: Position, opts: HintOptions = {}): Hint {
  return hintFor(cc, pos.view, pos.legal, { worlds: DRILL_WORLDS, ...opts });
}

/**
 * Grades her answer at the position: refused (TM_BAD_INPUT) when it is not a move she could
 * make there; judged against the coach's hint by the one judge (agents/mah-jongg/judge.ts, at most
 * `worlds` sampled worlds). A drill is a question with an answer: right is the coach's choice
 * or one the judge calls right (as good as the coach's); one it calls about as good is nearly
 * right, and graded not yet right, with what it gives up; a mistake is not right, with why.
 */
export function gradeDrill(cc: CompiledCard, pos: Position, hint: Hint, answer: Action, worlds = JUDGE_WORLDS): DrillGrade {
  if (answer.seat !== pos.seat) throw new TilemateError('TM_BAD_INPUT', `this drill's player sits at seat ${pos.seat}, not seat ${answer.seat}`);
  const refused = pos.game.tryApply(pos.game.clone(pos.state), answer);
  if (refused !== null) throw new TilemateError('TM_BAD_INPUT', `that answer is not a move you could make here: ${refused.message}`);
  const { verdict: judged, ...j } = judge(cc, new Analyzer(cc), pos.view, pos.legal, hint, answer, worlds);
  const coach = describeAction(hint.action, pos.view);
  const grade = (right: boolean, verdict: string): DrillGrade => ({ ...j, judged, right, verdict, coach, hint });
  const points = Math.max(1, Math.round(j.cost));
  const nearly = `Nearly: yours is about as good, but the coach would ${coach}, about ${points} point${points === 1 ? '' : 's'} a game better.`;
  if (j.agreed) return grade(true, "Right: that is the coach's choice.");
  if ('kind' in pos && pos.kind === 'exchange') {
    // the exchange drill asks one thing, take the joker or not: a discard where the coach
    // discards is right whichever tile goes (the discard drill asks which); a joker taken where
    // the coach takes one is graded by the judge
    const took = answer.type === 'exchange';
    if (took !== (hint.action.type === 'exchange')) return grade(false, `Not this time: the coach would ${coach}.`);
    if (!took) return grade(true, `Right not to take the joker now; the coach would ${coach}.`);
    if (judged === 'right') return grade(true, `Right: the coach would ${coach}, and yours is as good.`);
    return grade(false, judged === 'asGood' ? nearly : `Not this time: the coach would ${coach}.`);
  }
  // a courtesy offer decides how many tiles change hands too: fewer kept tiles never lose the closest line ground
  const sameCount = answer.type !== 'courtesy' || hint.action.type !== 'courtesy' || answer.tiles.length === hint.action.tiles.length;
  if (judged === 'right' && sameCount) return grade(true, `Right: as good as the coach's choice to ${coach}.`);
  if (judged !== 'mistake') return grade(false, nearly);
  // the judge's reason, and what it cost when the games (not a rule) found it
  const reason = j.reason.replace(/^./, (c) => c.toLowerCase());
  return grade(false, `Not this time: ${j.rule === undefined ? `${reason.replace(/\.$/, '')}, about ${points} point${points === 1 ? '' : 's'} a game.` : reason}`);
}

/** The day's puzzle, the same for everyone that day (UTC): its kind in turn, the middle level, the seed drawn from the day. */
export function dailyDrill(day: Date): Drill & { date: string } {
  const n = Math.floor(day.getTime() / 86_400_000);
  const seed = nextU32(seedRng(n ^ 0x0da11)) % DRILL_SEEDS;
  return { kind: DRILL_KINDS[n % DRILL_KINDS.length], level: 2, seed, date: new Date(n * 86_400_000).toISOString().slice(0, 10) };
}
