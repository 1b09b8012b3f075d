import { describe, expect, it } from 'vitest';
import { checkDrill, dailyDrill, drillHint, drillPosition, DRILL_KINDS, gradeDrill } from '../../agents/coach/drills.js';
import { TilemateError } from '../../engine/errors.js';
import { loadCard } from '../../io/cards.js';

/** Drills (issue 46): positions dealt from a drill's name alone, graded by the coach's hint. The 200-position key check is test/agents/drill-keys.test.ts (slow). */

const cc = loadCard();

describe('drills', () => {
  it('a drill is the same position every time, of its kind and level', () => {
    for (const kind of DRILL_KINDS) {
      for (const level of [1, 2, 3] as const) {
        const a = drillPosition(cc, { kind, level, seed: 77 });
        const b = drillPosition(cc, { kind, level, seed: 77 });
        expect(b.view).toEqual(a.view);
        expect(b.seat).toBe(a.seat);
        const v = a.view;
        if (kind === 'charleston') {
          expect(v.phase).toBe('charleston');
          // level 1 the first pass (right), 2 across, 3 the first left, where a blind pass is allowed
          expect(v.pass).toBe(level - 1);
          expect(v.blindAllowed).toBe(level === 3);
        } else if (kind === 'discard') {
          expect(v.phase).toBe('discard');
          expect(v.wallLeft >= [70, 40, 0][level - 1] && v.wallLeft < [Infinity, 70, 40][level - 1]).toBe(true);
        } else {
          expect(v.phase).toBe('claims');
          expect(a.legal.some((x) => x.type === 'call' || x.type === 'callMahJongg')).toBe(true);
          expect(v.wallLeft >= [60, 30, 0][level - 1] && v.wallLeft < [Infinity, 60, 30][level - 1]).toBe(true);
        }
      }
    }
  });

  it("the coach's own choice is right, a clearly worse one is not, and an answer she could not make is refused", () => {
    const pos = drillPosition(cc, { kind: 'discard', level: 1, seed: 5 });
    const hint = drillHint(cc, pos, { worlds: 24 });
    const mine = gradeDrill(cc, pos, hint, hint.action);
    expect(mine).toMatchObject({ right: true, agreed: true, verdict: "Right: that is the coach's choice." });
    const behind = hint.alternatives!.find((x) => !x.aboutEqual && x.legal !== null && x.legal !== hint.action);
    if (behind) {
      const g = gradeDrill(cc, pos, hint, behind.legal!);
      expect(g.right).toBe(false);
      expect(g.verdict).toMatch(/^Not this time: the coach would discard /);
    }
    // a tile not on her rack, and another seat's move
    const missing = [...Array(36).keys()].find((t) => pos.view.concealed[t] === 0)!;
    expect(() => gradeDrill(cc, pos, hint, { type: 'discard', seat: pos.seat, tile: missing })).toThrow(/not a move you could make here/);
    expect(() => gradeDrill(cc, pos, hint, { type: 'discard', seat: (pos.seat + 1) % 4, tile: missing })).toThrow(TilemateError);
  });

  it('a pass keeping her closest line as close as the coach’s is right too, and its verdict lists the coach’s tiles', () => {
    const pos = drillPosition(cc, { kind: 'charleston', level: 1, seed: 9 });
    const hint = drillHint(cc, pos);
    const passes = pos.legal.filter((a) => a.type === 'pass');
    const grades = passes.map((a) => gradeDrill(cc, pos, hint, a));
    expect(grades.some((g) => g.agreed)).toBe(true);
    expect(grades.some((g) => !g.right)).toBe(true);
    for (const g of grades) expect(g.right).toBe(g.agreed || g.tilesLost === 0);
    expect(grades.find((g) => !g.right)!.verdict).toMatch(/^Not this time: the coach would pass \w+, \w+ and \w+\.$/);
  });

  it('a drill named from outside is checked: kind, level and number', () => {
    expect(checkDrill('discard', 2, 5)).toEqual({ kind: 'discard', level: 2, seed: 5 });
    expect(() => checkDrill('dance', 1, 1)).toThrow(/unknown drill "dance"/);
    expect(() => checkDrill('call', 4, 1)).toThrow(/level 4/);
    expect(() => checkDrill('call', 1, -1)).toThrow(/drill number -1/);
    expect(() => checkDrill('call', 1, 2 ** 31)).toThrow(/drill number/);
  });

  it("the day's puzzle is the same all day for everyone, and another the next day", () => {
    const morning = dailyDrill(new Date('2026-11-28T00:00:01Z'));
    const evening = dailyDrill(new Date('2026-11-28T23:59:59Z'));
    const next = dailyDrill(new Date('2026-11-29T08:00:00Z'));
    expect(evening).toEqual(morning);
    expect(morning.date).toBe('2026-11-28');
    expect(next.seed).not.toBe(morning.seed);
    expect(next.kind).not.toBe(morning.kind);
  });
});
