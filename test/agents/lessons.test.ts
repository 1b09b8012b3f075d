import { describe, expect, it } from 'vitest';
import { drillHint, drillPosition, gradeDrill } from '../../agents/coach/drills.js';
import { checkStep, LESSONS, lessonStep } from '../../agents/coach/lessons.js';
import { tileSafety } from '../../agents/mah-jongg/defence.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { loadCard } from '../../io/cards.js';

/** Every lesson step (issue 46) refuses a wrong move with a reason, and takes a right one. */

const cc = loadCard();

/** A wrong move and a right one at the step, as a player could make them. */
function moves(id: string, n: number): { wrong: Action; right: Action } {
  const { step } = lessonStep(id, n);
  const pos = drillPosition(cc, step.drill);
  const hint = drillHint(cc, pos);
  switch (step.rule) {
    case 'legal': {
      // a joker among the three: the rules refuse it
      const rack = [...pos.view.concealed.keys()].flatMap((t) => new Array<number>(pos.view.concealed[t]).fill(t));
      expect(rack).toContain(JOKER);
      const others = rack.filter((t) => t !== JOKER).slice(0, 2);
      return { wrong: { type: 'pass', seat: pos.seat, tiles: [JOKER, ...others], blind: 0 }, right: { type: 'pass', seat: pos.seat, tiles: rack.filter((t) => t !== JOKER).slice(0, 3), blind: 0 } };
    }
    case 'call':
      return { wrong: pos.legal.find((a) => a.type === 'decline')!, right: pos.legal.find((a) => a.type === 'call')! };
    case 'safest': {
      const s = tileSafety(cc, pos.view);
      return {
        wrong: { type: 'discard', seat: pos.seat, tile: s.find((x) => x.level === 'dangerous')!.tile },
        right: { type: 'discard', seat: pos.seat, tile: s.find((x) => x.level === 'safe')!.tile },
      };
    }
    case 'coach':
      return { wrong: pos.legal.find((a) => !gradeDrill(cc, pos, hint, a).right)!, right: hint.action };
  }
}

describe('lessons', () => {
  for (const lesson of LESSONS) {
    it(`${lesson.title}: each step refuses a wrong move and explains, and takes a right one`, () => {
      lesson.steps.forEach((step, i) => {
        const { wrong, right } = moves(lesson.id, i + 1);
        expect(wrong).toBeDefined();
        const no = checkStep(cc, step, wrong);
        expect(no.ok).toBe(false);
        expect(no.words).toMatch(/^Not yet: .{12,}[.]$/);
        const yes = checkStep(cc, step, right);
        expect(yes.ok).toBe(true);
        expect(yes.words).toMatch(/^[A-Z].{8,}[.!]$/);
      });
    });
  }

  it('a step is named by its lesson and number, and nothing else', () => {
    expect(lessonStep('charleston', 2).step.rule).toBe('coach');
    expect(() => lessonStep('tango', 1)).toThrow(/unknown lesson "tango"/);
    expect(() => lessonStep('charleston', 3)).toThrow(/steps 1 to 2, not 3/);
  });
});
