import { TilemateError } from '../../engine/errors.js';
import { JUDGE_WORLDS } from '../../agents/mah-jongg/judge.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';

/**
 * What a heavy task costs a worker, estimated before it is run, so that no request holds a
 * worker for more than about a second (a bot's turn then waits behind at most that). The
 * work grows with the forms of the card it tries (a 619-byte card of `|` alternatives makes
 * 17,496), times the deals or worlds asked for, times the choices weighed; a request over the
 * budget is refused before any of it is done, with the most it may ask for on that card.
 *
 * The coefficients were measured on the project's 2-core machine (Node 20), each the slowest
 * seen over the practice card, the garden card and that 17,496-form card, with hands that
 * are far from and close to its lines (the note of issue 28):
 * - a simulated deal (/api/analyze `simulate`) tries each form of each listed line after each
 *   draw: 26 to 45 ns a form and a draw;
 * - a playout (advice, hints, reviews) plays a sampled deal to its end with every seat
 *   choosing among the card's forms: 0.35 ms + 1.3 to 1.5 µs a form on a quiet machine, about
 *   the same for three players as for four, and up to 2.2 µs with the other core busy (the
 *   largest advice the budget allowed on the 17,496-form card took 1,439 ms then at 1.5 µs:
 *   hence 2 µs).
 */

export const SIM_NS_PER_FORM_DRAW = 45;
export const PLAYOUT_MS_BASE = 0.5;
export const PLAYOUT_MS_PER_FORM = 2e-3;

/** Estimated milliseconds of one playout on a card of `forms` forms. */
export const playoutMs = (forms: number): number => PLAYOUT_MS_BASE + forms * PLAYOUT_MS_PER_FORM;

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * Simulated deals within the budget: the most `deals` may be, or a refusal naming it.
 * `forms`: the forms of the lines listed; `draws`: the draws of each deal.
 */
export function checkDeals(budgetMs: number, forms: number, deals: number, draws: number): void {
  if (budgetMs <= 0) return;
  const perDeal = (forms * Math.max(1, draws) * SIM_NS_PER_FORM_DRAW) / 1e6;
  if (deals * perDeal <= budgetMs) return;
  const most = Math.floor(budgetMs / perDeal);
  throw new TilemateError(
    'TM_TOO_COSTLY',
    most >= 1
      ? `the lines listed have ${n(forms)} hands to try and ${n(deals)} deals of ${draws} draws is more than the server works out for one request: ask for at most ${n(most)} deals with this card (or list fewer lines)`
      : `the lines listed have ${n(forms)} hands to try, more than the server can simulate for one request: list fewer lines (a smaller "top") or use a card with fewer alternatives`,
  );
}

/**
 * Worlds within the budget for `choices` choices weighed on a card of `forms` forms: the
 * worlds asked for when they fit; else, when `fit`, as many as fit (at least one), else a
 * refusal naming the most that fit.
 */
export function affordWorlds(budgetMs: number, forms: number, choices: number, worlds: number, fit: boolean): number {
  if (budgetMs <= 0) return worlds;
  const perWorld = Math.max(1, choices) * playoutMs(forms);
  if (worlds * perWorld <= budgetMs) return worlds;
  const most = Math.floor(budgetMs / perWorld);
  if (fit) return Math.max(1, most);
  throw new TilemateError(
    'TM_TOO_COSTLY',
    most >= 1
      ? `this card has ${n(forms)} hands to try and ${n(worlds)} worlds for ${choices} choices is more than the server plays out for one request: ask for at most ${n(most)} worlds with this card`
      : `this card has ${n(forms)} hands to try, too many to play ${choices} choices out even once within one request: use a card with fewer alternatives`,
  );
}

/**
 * The judge's worlds for one decision within a task's budget (agents/mah-jongg/judge.ts): half
 * of it (the coach's hint has the other half), two choices played out. The review, a drill's
 * grade and her own mistake's drill ask the same, so they give one verdict.
 */
export const judgeWorlds = (budgetMs: number, cc: CompiledCard, most = JUDGE_WORLDS): number => affordWorlds(budgetMs / 2, cc.formCount, 2, most, true);
