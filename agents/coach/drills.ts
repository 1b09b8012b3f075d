import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import type { Action, GameState, SeatView } from '../../engine/mah-jongg/game.js';
import { MAH_JONGG, mahJonggGame, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { replayRecord } from '../../engine/record.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { closestAway } from '../../engine/mah-jongg/hand-check.js';
import { nextU32, seedRng } from '../../engine/rng.js';
import { tileName } from '../../engine/mah-jongg/tiles.js';
import { makeAgent } from '../mah-jongg/levels.js';
import { forcedAction, tableTurns } from '../table.js';
import { hintFor, type Hint, type HintOptions } from './hint.js';
import { describeAction, judge, type Judgement } from './review.js';

/**
 * Drills (issue 46): one decision at a real, dealt position, answered by the player and graded
 * by the coach's own hint (agents/coach/hint.ts) through the review's judgement
 * (agents/coach/review.ts judge): the hint's choice is right, and so is any choice its figures
 * call about as good. A drill is named by its kind, level and seed alone: the deal is played
 * again from them (four medium bots), so a server keeps nothing, and an answer is graded
 * only against the position the drill names.
 *
 * The kinds and their levels:
 * - `charleston`: pass three tiles; level 1 the first pass (right), 2 the pass across, 3 the
 *   first left, where a blind pass is allowed (senior games rules 3).
 * - `discard`: which tile to discard; level 1 early (the wall at 70 tiles or more), 2 the
 *   middle (40 to 69), 3 late (under 40), when more is on the table to weigh.
 * - `call`: call the discard or let it go; the same stages of the wall (60 or more, 30 to 59,
 *   under 30).
 */

export const DRILL_KINDS = ['charleston', 'discard', 'call'] as const;
export type DrillKind = (typeof DRILL_KINDS)[number];
export const DRILL_LEVELS = [1, 2, 3] as const;
export type DrillLevel = (typeof DRILL_LEVELS)[number];
/** A drill's seed is a whole number below 2^31: each one deals a position (about 2.1 billion of each kind and level). */
export const DRILL_SEEDS = 2 ** 31;
/** Deals tried after the drill's own when it never reaches such a decision (a call comes in most deals, not all). */
const MORE_DEALS = 24;
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

export interface DrillPosition extends Drill, Position {
  /** The deal the position is in: the drill's seed, or a later one when that deal never reached such a decision. */
  deal: number;
}

/** The words of a drill's kind: its question, as the page and the terminal ask it. */
export const DRILL_QUESTIONS: Record<DrillKind, string> = {
  charleston: 'Which three tiles would you pass?',
  discard: 'Which tile would you discard?',
  call: 'Would you call this tile, or let it go?',
};

/** Checks a drill named from outside (a request): its kind, level and seed. */
export function checkDrill(kind: unknown, level: unknown, seed: unknown): Drill {
  if (typeof kind !== 'string' || !(DRILL_KINDS as readonly string[]).includes(kind))
    throw new TilemateError('TM_BAD_INPUT', `unknown drill "${String(kind)}" (expected one of ${DRILL_KINDS.join(', ')})`);
  if (!(DRILL_LEVELS as readonly unknown[]).includes(level)) throw new TilemateError('TM_BAD_INPUT', `drill level ${String(level)}: expected 1, 2 or 3`);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed >= DRILL_SEEDS)
    throw new TilemateError('TM_BAD_INPUT', `drill number ${String(seed)}: expected a whole number from 0 to ${DRILL_SEEDS - 1}`);
  return { kind: kind as DrillKind, level: level as DrillLevel, seed };
}

/** The tiles left in the wall at each level's decisions: from the first figure, below the second. */
const STAGES: Record<'discard' | 'call', [number, number][]> = {
  discard: [
    [70, Infinity],
    [40, 70],
    [0, 40],
  ],
  call: [
    [60, Infinity],
    [30, 60],
    [0, 30],
  ],
};

/** Whether the seat's decision now is one the drill asks about. */
function fits(drill: Drill, v: SeatView, legal: readonly Action[]): boolean {
  if (drill.kind === 'charleston') return v.phase === 'charleston' && legal.some((a) => a.type === 'pass') && v.pass === drill.level - 1;
  const [from, below] = STAGES[drill.kind][drill.level - 1];
  if (v.wallLeft < from || v.wallLeft >= below) return false;
  return drill.kind === 'discard' ? v.phase === 'discard' && legal.some((a) => a.type === 'discard') : v.phase === 'claims' && legal.some((a) => a.type === 'call' || a.type === 'callMahJongg');
}

/** Whether the drill's decisions are all behind the game now. */
function past(drill: Drill, state: GameState): boolean {
  const kind = state.phase.kind;
  if (drill.kind === 'charleston') return kind !== 'charleston' && kind !== 'vote';
  return kind !== 'charleston' && kind !== 'vote' && kind !== 'courtesy' && state.wall.length - state.wallPos < STAGES[drill.kind][drill.level - 1][0];
}

/**
 * The drill's position: its deal played by four medium bots, each decision of the kind and
 * level met on the way noted (every seat's), one of them chosen by the seed, and the deal
 * played again to it. The same drill gives the same position on every server.
 */
export function drillPosition(cc: CompiledCard, drill: Drill): DrillPosition {
  const rules = loadRuleset(RULESET);
  const game = mahJonggGame(rules, cc);
  const agents = Array.from({ length: rules.players }, () => makeAgent('medium', cc, rules));
  /** The discards of a position that keep her closest line as close as any: few of many is a question with a clear answer. */
  const clarity = (state: GameState, seat: number, legal: readonly Action[]): number => {
    const v = game.sharedView(state, seat);
    const tiles = [...new Set(legal.flatMap((a) => (a.type === 'discard' ? [a.tile] : [])))];
    const away = tiles.map((t) => {
      const kept = [...v.concealed];
      kept[t]--;
      return closestAway(cc, kept, v.exposures[seat]);
    });
    const best = Math.min(...away);
    return away.filter((a) => a === best).length / tiles.length;
  };
  const play = (deal: number, stopAt: number): { met: number[]; clear: number[]; state: GameState; seat: number } => {
    const state = game.newGame(deal);
    const rng = seedRng(deal ^ 0x5eed);
    const turns = tableTurns(game, state, rng);
    const met: number[] = [];
    const clear: number[] = [];
    for (let n = 0; !game.isOver(state); n++) {
      const seat = game.nextToAct(state);
      if (seat < 0) break;
      const legal = game.legalActions(state, seat);
      if (forcedAction(legal) === null && fits(drill, game.sharedView(state, seat), legal)) {
        if (n === stopAt) return { met, clear, state, seat };
        met.push(n);
        clear.push(drill.kind === 'discard' ? clarity(state, seat, legal) : 0);
      }
      if (past(drill, state)) break;
      const turn = turns[seat];
      turn.phase = game.phase(state);
      game.apply(state, agents[seat].act(turn));
    }
    return { met, clear, state, seat: -1 };
  };
  for (let k = 0; k <= MORE_DEALS; k++) {
    const deal = (drill.seed + k) % DRILL_SEEDS;
    const { met, clear } = play(deal, -1);
    if (met.length === 0) continue;
    // a discard drill asks where the answer is clearest (the fewest discards keep the hand as
    // close): elsewhere the coach finds most choices about as good, and any answer would do
    const least = Math.min(...clear);
    const clearest = met.filter((_, i) => clear[i] === least);
    const chosen = clearest[nextU32(seedRng(drill.seed * 31 + drill.level)) % clearest.length];
    const at = play(deal, chosen);
    const view = game.view(at.state, at.seat);
    return { ...drill, deal, seat: at.seat, view, legal: game.legalActions(at.state, at.seat), state: at.state, game };
  }
  throw new TilemateError('TM_BAD_INPUT', `drill ${drill.kind} ${drill.level} #${drill.seed} found no such decision in ${MORE_DEALS + 1} deals: try another number`);
}

export interface DrillGrade extends Judgement {
  /** Right: the coach's choice, or one its figures call about as good. */
  right: boolean;
  /** The verdict in one sentence ("Right: that is the coach's choice."). */
  verdict: string;
  /** The coach's choice in a player's words ("discard 5 Crak"). */
  coach: string;
  /** The hint at the position: its sentence is the reason shown after she answers. */
  hint: Hint;
}

/**
 * Sampled deals a drill's answer is weighed over: four times a hint's. With a hint's 24, three
 * discards in four were "about as good" as the coach's, and a random answer would be right
 * that often; a drill is a question with an answer.
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
 * make there; right when the coach's hint makes it or its figures call it about as good.
 */
export function gradeDrill(cc: CompiledCard, pos: Position, hint: Hint, answer: Action): DrillGrade {
  if (answer.seat !== pos.seat) throw new TilemateError('TM_BAD_INPUT', `this drill's player sits at seat ${pos.seat}, not seat ${answer.seat}`);
  const refused = pos.game.tryApply(pos.game.clone(pos.state), answer);
  if (refused !== null) throw new TilemateError('TM_BAD_INPUT', `that answer is not a move you could make here: ${refused.message}`);
  const j = judge(cc, new Analyzer(cc), pos.view, hint, answer);
  const coach = choiceWords(hint.action, pos.view);
  const right = j.agreed || j.asGood;
  const verdict = j.agreed ? "Right: that is the coach's choice." : j.asGood ? `Right: the coach would ${coach}, and yours is about as good.` : `Not this time: the coach would ${coach}.`;
  return { ...j, right, verdict, coach, hint };
}

/** A choice as a player says it, a pass's tiles listed ("pass 8D, 7B and 1C"). */
function choiceWords(a: Action, v: SeatView): string {
  if (a.type !== 'pass') return describeAction(a, v);
  const parts = [...a.tiles.map(tileName), ...(a.blind ? [`${a.blind} blind`] : [])];
  return `pass ${parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}`;
}

/** The day's puzzle, the same for everyone that day (UTC): its kind in turn, the middle level, the seed drawn from the day. */
export function dailyDrill(day: Date): Drill & { date: string } {
  const n = Math.floor(day.getTime() / 86_400_000);
  const seed = nextU32(seedRng(n ^ 0x0da11)) % DRILL_SEEDS;
  return { kind: DRILL_KINDS[n % DRILL_KINDS.length], level: 2, seed, date: new Date(n * 86_400_000).toISOString().slice(0, 10) };
}
