import { describe, expect, it } from 'vitest';
import { LESSONS, lessonStep } from '../../agents/coach/lessons.js';
import { loadCard } from '../../io/cards.js';
import { expectStepChecked, judgedByCoach } from '../lesson-moves.js';

/**
 * Every lesson step (issue 46) refuses a wrong move with a reason, and takes a right one: here
 * the steps a rule or a drill's key decides; the moves the coach's hint and the judge decide
 * (their playouts take seconds a step) are test/agents/lessons.slow.test.ts (slow).
 */

const cc = loadCard();

describe('lessons', () => {
  for (const lesson of LESSONS) {
    const steps = lesson.steps.map((step, i) => ({ step, n: i + 1 })).filter(({ step }) => !judgedByCoach(step));
    if (steps.length === 0) continue;
    it(`${lesson.title}: each step its rule or key decides refuses a wrong move and explains, and takes a right one (steps ${steps.map((s) => s.n).join(', ')})`, () => {
      for (const { step, n } of steps) expectStepChecked(cc, lesson.id, step, n);
    });
  }

  it('most steps are checked here, in the unit tier: the coach decides the fewer', () => {
    const steps = LESSONS.flatMap((l) => l.steps);
    expect(steps.filter((s) => !judgedByCoach(s)).length).toBeGreaterThan(steps.length / 2);
  });

  it('a step is named by its lesson and number, and nothing else', () => {
    expect(lessonStep('charleston', 2).step.rule).toBe('coach');
    expect(() => lessonStep('tango', 1)).toThrow(/unknown lesson "tango"/);
    expect(() => lessonStep('charleston', 4)).toThrow(/steps 1 to 3, not 4/);
  });
});
