import { describe, it } from 'vitest';
import { LESSONS } from '../../agents/coach/lessons.js';
import { loadCard } from '../../io/cards.js';
import { expectStepChecked, judgedByCoach } from '../lesson-moves.js';

/**
 * The lesson steps (issue 46) the coach's hint and the judge decide refuse a wrong move with a
 * reason, and take a right one: the coach's move, and the costliest mistake the judge finds among
 * the farthest. Slow: each step plays out the coach's worlds and the judge's, seconds a step on a
 * busy machine. The other steps are test/agents/lessons.test.ts (unit).
 */

const cc = loadCard();

describe('lessons, the steps the coach decides', () => {
  for (const lesson of LESSONS) {
    const steps = lesson.steps.map((step, i) => ({ step, n: i + 1 })).filter(({ step }) => judgedByCoach(step));
    if (steps.length === 0) continue;
    it(`${lesson.title}: each step the coach decides refuses a wrong move and explains, and takes a right one (steps ${steps.map((s) => s.n).join(', ')})`, () => {
      for (const { step, n } of steps) expectStepChecked(cc, lesson.id, step, n);
    });
  }
});
