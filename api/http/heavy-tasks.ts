import { callAdvice, charlestonAdvice, courtesyAdvice, defaultWall, discardAdvice, voteAdvice, type CharlestonInput, type SituationInput } from '../../agents/mah-jongg/advice.js';
import { adviseDomino, type DominoAdvice } from '../../agents/domino/advise.js';
import { makeBot } from '../../agents/bots.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { CardCache } from '../../io/cards.js';
import type { DominoView } from '../../engine/domino/game.js';
import { TilemateError, type ErrorCode } from '../../engine/errors.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import type { RngState } from '../../engine/rng.js';
import type { GameSpec } from '../../engine/games.js';
import { loadGame } from '../../engine/registry.js';
import { COPIES, tileName } from '../../engine/mah-jongg/tiles.js';
import { simulateForAnalyze, simulationJson } from '../shared/simulate.js';
import { ADVICE_WORLDS, DEFAULT_DEALS } from '../../agents/mah-jongg/advice.js';
import type { Verdict } from '../../agents/mah-jongg/judge.js';
import { reviewPart, type ReviewPart } from '../../agents/coach/review.js';
import { hintFor } from '../../agents/coach/hint.js';
import {
  DRILL_QUESTIONS,
  drillHint,
  drillPosition,
  gradeChoice,
  gradeDrill,
  recordPosition,
  type Drill,
  type DrillChoice,
  type DrillKind,
  type DrillPosition,
  type Position,
} from '../../agents/coach/drills.js';
import type { Hint } from '../../agents/coach/hint.js';
import { decodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import { checkStep, lessonStep, type StepCheck } from '../../agents/coach/lessons.js';
import { type HintJson, hintJson, legalJson, type LegalJson, lineResultJson, viewJson, type ViewJson } from '../shared/wire.js';
import { checkCard, readForEditor, type CardCheck, type EditorReading } from '../shared/card-check.js';
import { drawCard, type DrawnCard, type PictureFormat } from '../shared/card-drawing.js';
import { scoreSheetsPdf, trainSheetsPdf, standingsPdf, type CorrectedGame, type SheetTable, type StandingsRowForPaper } from '../shared/event-pdf.js';
import type { PrintedCard } from '../../engine/mah-jongg/printed-card.js';
import { affordWorlds, checkDeals, judgeWorlds } from './task-cost.js';

/**
 * The work that plays deals out, as tasks a worker thread runs (api/heavy.worker.ts) or,
 * without workers, the server itself: plain data in, plain data out (structured clone), so
 * a task gives the same answer wherever it runs. A card travels as its text and is compiled
 * once per thread (a small cache).
 *
 * A request's task carries the pool's budget (`budgetMs`, api/http/task-cost.ts): the work it
 * asks for is estimated once its card is compiled and its choices known, and refused with
 * TM_TOO_COSTLY before any of it is done when over; a hint asked for without a number of
 * worlds (`fit`) plays as many as fit. A review is worked out in parts of about `sliceMs`
 * each (the pool runs them one after another, so a bot's turn can go between them).
 */

export type HeavyTask = (
  | { kind: 'analyze'; cardText: string; body: AnalyzeBody }
  | { kind: 'charleston'; cardText: string; hand: string; direction: CharlestonInput['direction']; blind: boolean }
  | { kind: 'vote' | 'courtesy'; cardText: string; hand: string }
  | {
      kind: 'advice';
      cardText: string;
      question: 'discard' | 'call';
      input: SituationInput & { tile?: string; from?: string | number };
      search: { worlds?: number; seed?: number; candidates?: number };
    }
  | { kind: 'hint'; cardText: string; view: SeatView; legal: Action[]; worlds: number; fit?: boolean }
  | { kind: 'drill'; cardText: string; drill: Drill }
  | { kind: 'drill-answer'; cardText: string; drill: Drill; answer: DrillAnswer; worlds: number }
  | { kind: 'mistake'; record: string; seat: number; decision: number }
  | { kind: 'lesson-check'; cardText: string; lesson: string; step: number; answer: DrillAnswer; worlds: number }
  | { kind: 'mistake-answer'; record: string; seat: number; decision: number; answer: Record<string, unknown>; worlds: number }
  | { kind: 'review'; record: string; seat: number; worlds: number; seed?: number; from?: number; sliceMs?: number }
  | { kind: 'bot'; game: string; params: Record<string, unknown>; bot: string; seat: number; phase: string; view: unknown; legal: unknown[]; rng: RngState }
  | { kind: 'domino-advice'; view: DominoView; worlds?: number; seed?: number }
  | { kind: 'check-card'; text: string }
  | { kind: 'read-printed'; card: PrintedCard }
  | { kind: 'compile-card'; text: string }
  | { kind: 'card-picture'; text: string; format: PictureFormat; columns?: 1 | 2 }
  | { kind: 'standings-pdf'; title: string; subtitle: string; rows: StandingsRowForPaper[]; ties?: string; corrected?: CorrectedGame[] }
  | { kind: 'sheets-pdf'; title: string; round: number; tables: SheetTable[] }
  | { kind: 'train-sheets-pdf'; title: string; game: string; hands: number; tables: SheetTable[] }
) & { budgetMs?: number };

export interface AnalyzeBody {
  hand: string;
  exposed?: string;
  seen?: string;
  others?: { right?: string; across?: string; left?: string };
  top?: number;
  all?: boolean;
  simulate?: boolean | number;
  seed?: number;
  wall?: number;
}

/** The answer of /api/analyze (lineResultJson's lines, with each line's chance when simulated). */
export interface AnalyzeJson {
  hand: string;
  card: string;
  simulation?: ReturnType<typeof simulationJson>;
  results: (ReturnType<typeof lineResultJson> & { chance?: number; expectedScore?: number })[];
}

export interface BotMove {
  action: { type: string; seat: number };
  rng: RngState;
}

/** Her answer to a drill or a lesson's step: a move at the table (an action as posted), or one of a choice drill's answers. */
export type DrillAnswer = { action: Record<string, unknown> } | { choice: string };

/** A drill as a player is shown it: the position (her seat's view and what she may do) and the question. */
export interface DrillJson extends Drill {
  deal: number;
  card: string;
  question: string;
  view: ViewJson;
  /** What she may do there, as a game's answer lists it (a choice drill: nothing, she chooses an answer). */
  legal: LegalJson[];
  /** A choice drill: what the table shows that the view does not say, in one sentence. */
  situation?: string;
  /** A choice drill's answers: post one's id back as "choice". */
  choices?: DrillChoice[];
}

/** A drill's position as the page is shown it (her seat's view and the question; never its key). */
export function drillJson(cc: CompiledCard, pos: DrillPosition): DrillJson {
  const { kind, level, seed } = pos;
  return {
    kind,
    level,
    seed,
    deal: pos.deal,
    card: cc.card.name,
    question: pos.question,
    view: viewJson(pos.view, pos.legal),
    legal: legalJson(pos.legal, pos.view),
    ...(pos.situation === undefined ? {} : { situation: pos.situation }),
    ...(pos.choices === undefined ? {} : { choices: pos.choices }),
  };
}

/**
 * Her answer as a move of the drill's seat: a move posted with another seat (not the one the
 * drill's legal answers name) is refused in words, never graded as hers (issue 63).
 */
export function answerAtSeat(action: Record<string, unknown>, seat: number): Action {
  if (action.seat !== undefined && action.seat !== seat)
    throw new TilemateError('TM_BAD_INPUT', `this drill's player sits at seat ${seat}, not seat ${String(action.seat)}: answer with a move of hers`);
  return decodeAction({ ...action, seat });
}

/** Her answer at a drill's position graded: a move by the coach's hint there (worlds as the budget affords), a choice by the drill's key. */
export function gradeAnswer(cc: CompiledCard, pos: DrillPosition, answer: DrillAnswer, hint: (pos: DrillPosition) => Hint, worlds: number): DrillGradeJson {
  if ('choice' in answer) {
    const g = gradeChoice(pos, answer.choice);
    const action = { type: 'choice', seat: pos.seat, choice: answer.choice } as unknown as LegalJson;
    return {
      right: g.right,
      agreed: g.right,
      asGood: false,
      judged: g.right ? 'right' : 'mistake',
      cost: 0,
      reason: g.reason,
      verdict: g.verdict,
      hint: { kind: pos.view.phase as HintJson['kind'], text: g.reason, action, tiles: g.tiles.map(tileName) },
    };
  }
  if (pos.choices !== undefined) throw new TilemateError('TM_BAD_INPUT', `a ${pos.kind} drill is answered by choosing one of its answers ("choice"), not by a move`);
  return gradeMove(cc, pos, answerAtSeat(answer.action, pos.seat), hint(pos), worlds);
}

/** A move at a position (a drill's, or one of her own games') judged against the coach's hint there (at most `worlds` sampled worlds). */
function gradeMove(cc: CompiledCard, pos: Position, answer: Action, hint: Hint, worlds: number): DrillGradeJson {
  const g = gradeDrill(cc, pos, hint, answer, worlds);
  return { right: g.right, agreed: g.agreed, asGood: g.asGood, judged: g.judged, cost: g.cost, reason: g.reason, verdict: g.verdict, hint: hintJson(hint, pos.view) };
}

/** One of her own mistakes as a drill: the moment of her game, and the question. */
export interface MistakeJson {
  kind: DrillKind;
  question: string;
  card: string;
  view: ViewJson;
  legal: LegalJson[];
}

/** A drill's kind from the phase of her decision. */
const KIND_OF_PHASE: Partial<Record<string, DrillKind>> = { charleston: 'charleston', courtesy: 'courtesy', discard: 'discard', claims: 'call' };

/** Her answer graded: right or not, the verdict and the coach's hint at the position (its sentence is the reason). */
export interface DrillGradeJson {
  right: boolean;
  agreed: boolean;
  asGood: boolean;
  /** The one judge's verdict (agents/mah-jongg/judge.ts), its cost estimate in points and its reason in one sentence. */
  judged: Verdict;
  cost: number;
  reason: string;
  verdict: string;
  hint: HintJson;
}

/** What a task answers: its value, or the TilemateError it threw (errors do not cross threads as classes). */
export type TaskResult = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string };

/** This thread's compiled cards (a task brings its card as text). */
const cards = new CardCache();
const card = (text: string): { cc: CompiledCard; analyzer: Analyzer } => {
  const cc = cards.compile(text);
  return { cc, analyzer: cards.analyzer(cc) };
};

function run(task: HeavyTask): unknown {
  const budget = task.budgetMs ?? 0;
  switch (task.kind) {
    case 'analyze': {
      const { cc, analyzer } = card(task.cardText);
      const b = task.body;
      const input = analysisInput(COPIES, b.hand, b.exposed ?? '', b.seen ?? '', b.others ?? {}); // a typed hand, no game: the standard set
      const results = analyzer.analyze(input, { top: b.all ? cc.lineCount : (b.top ?? 5) });
      if (b.simulate !== undefined && b.simulate !== false) {
        const forms = results.reduce((n, r) => n + cc.lineStart[r.line + 1] - cc.lineStart[r.line], 0);
        checkDeals(budget, forms, b.simulate === true ? DEFAULT_DEALS : b.simulate, Math.floor((b.wall ?? defaultWall(input)) / 4));
      }
      const sim = simulateForAnalyze(cc, input, results, { simulate: b.simulate, seed: b.seed, wall: b.wall });
      const answer: AnalyzeJson = {
        hand: b.hand,
        card: cc.card.name,
        ...(sim && { simulation: simulationJson(sim) }),
        results: results.map((r, i) => ({ ...lineResultJson(cc, r, input), ...sim?.lines[i] })),
      };
      return answer;
    }
    case 'charleston':
      return charlestonAdvice(card(task.cardText).cc, COPIES, { hand: task.hand, direction: task.direction, blind: task.blind });
    case 'vote':
      return voteAdvice(card(task.cardText).cc, COPIES, { hand: task.hand });
    case 'courtesy':
      return courtesyAdvice(card(task.cardText).cc, COPIES, { hand: task.hand });
    case 'advice': {
      const cc = card(task.cardText).cc;
      const search = { ...task.search, afford: (choices: number, worlds: number) => affordWorlds(budget, cc.formCount, choices, worlds, false) };
      if (task.question === 'discard') return discardAdvice(cc, task.input, search);
      if (task.input.tile === undefined) throw new TilemateError('TM_BAD_INPUT', 'call advice needs "tile": the discard to answer');
      return callAdvice(cc, { ...task.input, tile: task.input.tile }, search);
    }
    case 'hint': {
      const cc = card(task.cardText).cc;
      const afford = (choices: number, worlds: number) => affordWorlds(budget, cc.formCount, choices, worlds, task.fit === true);
      return hintJson(hintFor(cc, task.view, task.legal, { worlds: task.worlds, afford }), task.view) satisfies HintJson;
    }
    case 'drill': {
      const cc = card(task.cardText).cc;
      return drillJson(cc, drillPosition(cc, task.drill)) satisfies DrillJson;
    }
    case 'drill-answer': {
      const cc = card(task.cardText).cc;
      // the answer key as the hint at a table is made, with half the budget; the judge has the other half
      const afford = (choices: number, worlds: number) => affordWorlds(budget / 2, cc.formCount, choices, worlds, true);
      return gradeAnswer(cc, drillPosition(cc, task.drill), task.answer, (pos) => drillHint(cc, pos, { worlds: task.worlds, afford }), judgeWorlds(budget, cc)) satisfies DrillGradeJson;
    }
    case 'mistake': {
      const pos = recordPosition(task.record, cards.compile, task.seat, task.decision);
      const kind = KIND_OF_PHASE[pos.view.phase];
      if (kind === undefined) throw new TilemateError('TM_BAD_INPUT', `action ${task.decision} of this game is a ${pos.view.phase} decision, which no drill asks`);
      return { kind, question: DRILL_QUESTIONS[kind], card: pos.cc.card.name, view: viewJson(pos.view, pos.legal), legal: legalJson(pos.legal, pos.view) } satisfies MistakeJson;
    }
    case 'mistake-answer': {
      const pos = recordPosition(task.record, cards.compile, task.seat, task.decision);
      const answer = answerAtSeat(task.answer, pos.seat);
      // the review's own hint and judge: the drill grades as the review judged
      const hint = hintFor(pos.cc, pos.view, pos.legal, { worlds: Math.min(ADVICE_WORLDS, task.worlds) });
      return gradeMove(pos.cc, pos, answer, hint, judgeWorlds(budget, pos.cc, task.worlds)) satisfies DrillGradeJson;
    }
    case 'lesson-check': {
      const cc = card(task.cardText).cc;
      const { step } = lessonStep(task.lesson, task.step);
      const pos = drillPosition(cc, step.drill);
      const answer = 'choice' in task.answer ? { choice: task.answer.choice } : answerAtSeat(task.answer.action, pos.seat);
      return checkStep(cc, step, answer, { worlds: task.worlds, judgeWorlds: judgeWorlds(budget, cc) }) satisfies StepCheck;
    }
    case 'review': {
      // a long review is done in parts: this one stops after about sliceMs, at a decision's end
      const start = Date.now();
      const slice = task.sliceMs ?? 0;
      return reviewPart(task.record, cards.compile, {
        seat: task.seat,
        worlds: task.worlds,
        seed: task.seed,
        from: task.from,
        fit: (cc, worlds) => judgeWorlds(budget, cc, worlds),
        stop: slice > 0 ? () => Date.now() - start >= slice : undefined,
      }) satisfies ReviewPart;
    }
    case 'check-card':
      return checkCard(task.text) satisfies CardCheck;
    case 'read-printed':
      return readForEditor(task.card) satisfies EditorReading;
    case 'standings-pdf':
      // drawn here: pdfkit's first load and the layout stay off the server's own thread
      return standingsPdf(task.title, task.subtitle, task.rows, task.ties, task.corrected) satisfies Uint8Array;
    case 'sheets-pdf':
      return scoreSheetsPdf(task.title, task.round, task.tables) satisfies Uint8Array;
    case 'train-sheets-pdf':
      return trainSheetsPdf(task.title, task.game, task.hands, task.tables) satisfies Uint8Array;
    case 'card-picture':
      // drawn here within the budget (estimated from its layout first), handed back as bytes (a Uint8Array crosses threads as it is)
      return drawCard(task.text, task.format, { columns: task.columns }, budget) satisfies DrawnCard;
    case 'compile-card':
      // compiled here, handed back whole (typed arrays and plain data) for the server to keep
      return card(task.text).cc satisfies CompiledCard;
    case 'bot': {
      // a fresh bot each turn: the searching bots keep nothing from one decision to the next
      // but pure memos, so this is the decision the table's own bot would make (on a busy
      // server the clock's valve may cut a search short; the game's record keeps the action)
      const game = loadGame(task.game, task.params, cards.compile);
      const agent = makeBot(game, task.bot, { valve: true });
      const rng: RngState = [...task.rng];
      const action = agent.act({ seat: task.seat, phase: task.phase, view: () => task.view as object, legal: () => task.legal as GameSpec['action'][], rng });
      return { action, rng } satisfies BotMove;
    }
    case 'domino-advice':
      return adviseDomino(task.view, { worlds: task.worlds, seed: task.seed }) satisfies DominoAdvice;
  }
}

/** Runs a task, with a user's mistake answered as data. */
export function runTask(task: HeavyTask): TaskResult {
  try {
    return { ok: true, value: run(task) };
  } catch (err) {
    if (err instanceof TilemateError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
