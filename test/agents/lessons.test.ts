import { describe, expect, it } from 'vitest';
import { checkStep, LESSONS, lessonStep } from '../../agents/coach/lessons.js';
import { loadCard } from '../../io/cards.js';
import { lessonMoves, TEST_JUDGE_WORLDS } from '../lesson-moves.js';

/** Every lesson step (issue 46) refuses a wrong move with a reason, and takes a right one. */

const cc = loadCard();

describe('lessons', () => {
  for (const lesson of LESSONS) {
    it(`${lesson.title}: each step refuses a wrong move and explains, and takes a right one`, () => {
      lesson.steps.forEach((step, i) => {
        const { wrong, right } = lessonMoves(cc, lesson.id, i + 1);
        expect(wrong).toBeDefined();
        const no = checkStep(cc, step, wrong, { judgeWorlds: TEST_JUDGE_WORLDS });
        expect(no.ok).toBe(false);
        expect(no.words).toMatch(/^Not yet: .{12,}[.]$/);
        const yes = checkStep(cc, step, right, { judgeWorlds: TEST_JUDGE_WORLDS });
        expect(yes.ok).toBe(true);
        expect(yes.words).toMatch(/^[A-Z].{8,}[.!]$/);
      });
    });
  }

  it('a step is named by its lesson and number, and nothing else', () => {
    expect(lessonStep('charleston', 2).step.rule).toBe('coach');
    expect(() => lessonStep('tango', 1)).toThrow(/unknown lesson "tango"/);
    expect(() => lessonStep('charleston', 4)).toThrow(/steps 1 to 3, not 4/);
  });
});
