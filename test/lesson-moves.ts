import { expect } from 'vitest';
import { CHOICE_KINDS, drillHint, drillPosition, gradeDrill, type Position } from '../agents/coach/drills.js';
import type { Hint } from '../agents/coach/hint.js';
import { Analyzer } from '../engine/mah-jongg/analyzer.js';
import { checkStep, type LessonStep, lessonStep } from '../agents/coach/lessons.js';
import { tileSafety } from '../agents/mah-jongg/defence.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import type { Action } from '../engine/mah-jongg/game.js';
import { EAST, JOKER, NORTH, SOUTH, WEST } from '../engine/mah-jongg/tiles.js';

/**
 * A wrong move and a right one at a lesson's step, as a player could make them (the lessons'
 * tests, test/agents/lessons.test.ts and test/web/lessons.test.ts): a joker in a pass, a
 * discard where a call or an exchange is asked, the most dangerous tile, a choice the coach
 * calls worse, a tile that is not a Wind; at a choice step, a wrong answer and the right one;
 * and what the step asks.
 */
export function lessonMoves(cc: CompiledCard, id: string, n: number): { wrong: Action | { choice: string }; right: Action | { choice: string } } {
  const { step } = lessonStep(id, n);
  const pos = drillPosition(cc, step.drill);
  if (pos.choices !== undefined && pos.key !== undefined) {
    const right = pos.key.right;
    return { wrong: { choice: pos.choices.find((c) => c.id !== right)!.id }, right: { choice: right } };
  }
  switch (step.rule) {
    case 'wind': {
      const winds = [NORTH, EAST, WEST, SOUTH];
      const discards = pos.legal.filter((a) => a.type === 'discard');
      return { wrong: discards.find((a) => !winds.includes(a.tile))!, right: discards.find((a) => winds.includes(a.tile))! };
    }
    case 'legal': {
      const rack = [...pos.view.concealed.keys()].flatMap((t) => new Array<number>(pos.view.concealed[t]).fill(t));
      if (!rack.includes(JOKER)) throw new Error(`lesson ${id} step ${n}: the rack holds no joker to try passing`);
      const others = rack.filter((t) => t !== JOKER);
      return { wrong: { type: 'pass', seat: pos.seat, tiles: [JOKER, ...others.slice(0, 2)], blind: 0 }, right: { type: 'pass', seat: pos.seat, tiles: others.slice(0, 3), blind: 0 } };
    }
    case 'call':
      return { wrong: pos.legal.find((a) => a.type === 'decline')!, right: pos.legal.find((a) => a.type === 'call')! };
    case 'exchange':
      return { wrong: pos.legal.find((a) => a.type === 'discard')!, right: pos.legal.find((a) => a.type === 'exchange')! };
    case 'safest': {
      const s = tileSafety(cc, pos.view);
      return {
        wrong: { type: 'discard', seat: pos.seat, tile: s.find((x) => x.level === 'dangerous')!.tile },
        right: { type: 'discard', seat: pos.seat, tile: s.find((x) => x.level === 'safe')!.tile },
      };
    }
    case 'coach': {
      // the coach's hint only where the step asks it: its playouts are most of a lesson test's time
      const hint = drillHint(cc, pos);
      return { wrong: clearlyWrong(cc, pos, hint), right: hint.action };
    }
  }
}

/**
 * A step the coach's hint and the judge decide: a move at a 'coach' step (a choice step is
 * graded by its drill's key). Its check plays out the coach's worlds and the judge's, seconds
 * each: test/agents/lessons.slow.test.ts checks these steps, test/agents/lessons.test.ts the rest.
 */
export function judgedByCoach(step: LessonStep): boolean {
  return step.rule === 'coach' && !CHOICE_KINDS.includes(step.drill.kind);
}

/** The judge's worlds for a lesson's or a drill's answer in the tests: few, for a short test. */
export const TEST_JUDGE_WORLDS = 16;

/**
 * A move the judge (agents/mah-jongg/judge.ts) calls a mistake by a wide margin, so that any
 * number of worlds calls it one: the choices that leave the closest line farthest first (a
 * pass or discard breaking the hand), the costliest of the first few the judge weighs.
 */
export function clearlyWrong(cc: CompiledCard, pos: Position, hint: Hint): Action {
  const analyzer = new Analyzer(cc);
  const mine = pos.view.exposures[pos.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
  const away = (a: Action): number => {
    const tiles = a.type === 'discard' ? [a.tile] : a.type === 'pass' || a.type === 'courtesy' ? a.tiles : [];
    if (tiles.length === 0) return 0;
    const kept = [...pos.view.concealed];
    for (const t of tiles) kept[t]--;
    return mine.length > 0 ? 0 : analyzer.analyze({ concealed: kept, exposures: [], seen: new Array<number>(kept.length).fill(0), copies: pos.view.copies }, { top: 1 })[0].tilesAway;
  };
  const ranked = pos.legal.map((a) => ({ a, away: away(a) })).sort((x, y) => y.away - x.away);
  let worst: { a: Action; cost: number } | null = null;
  for (const { a } of ranked.slice(0, 8)) {
    const g = gradeDrill(cc, pos, hint, a, TEST_JUDGE_WORLDS);
    if (!g.right && (worst === null || g.cost > worst.cost)) worst = { a, cost: g.cost };
  }
  if (worst === null) throw new Error('no choice here that the judge calls a mistake among the farthest');
  return worst.a;
}

/** A lesson's step refuses her wrong move with a reason in a sentence, and takes the right one (test/agents/lessons.test.ts and lessons.slow.test.ts). */
export function expectStepChecked(cc: CompiledCard, id: string, step: LessonStep, n: number): void {
  const { wrong, right } = lessonMoves(cc, id, n);
  expect(wrong).toBeDefined();
  const no = checkStep(cc, step, wrong, { judgeWorlds: TEST_JUDGE_WORLDS });
  expect(no.ok).toBe(false);
  expect(no.words).toMatch(/^Not yet: .{12,}[.]$/);
  const yes = checkStep(cc, step, right, { judgeWorlds: TEST_JUDGE_WORLDS });
  expect(yes.ok).toBe(true);
  expect(yes.words).toMatch(/^[A-Z].{8,}[.!]$/);
}
