import { describe, expect, it } from 'vitest';
import { checkDrill, dailyDrill, drillPosition, gradeChoice } from '../../agents/coach/drills.js';
import { loadCard } from '../../io/cards.js';

/**
 * Drills (issue 46): positions dealt from a drill's name alone, graded by the coach's hint or the
 * drill's key. Here the answers graded by a drill's key and the names; every kind and level dealt
 * twice alike, moves graded by the one judge and the balanced answers are
 * test/agents/drills.slow.test.ts, the 200-position key check test/agents/drill-keys.test.ts (both slow).
 */

const cc = loadCard();

describe('drills', () => {
  it('a choice drill grades one of its answers by its key, with the reason, and refuses any other; a move is refused there', () => {
    const pos = drillPosition(cc, { kind: 'safe', level: 2, seed: 4 });
    const right = gradeChoice(pos, pos.key!.right);
    expect(right).toMatchObject({ right: true, verdict: 'Right.', reason: pos.key!.reason });
    const other = pos.choices!.find((c) => c.id !== pos.key!.right)!;
    const wrong = gradeChoice(pos, other.id);
    expect(wrong.right).toBe(false);
    expect(wrong.verdict).toBe(`Not this time: the answer is "${pos.choices!.find((c) => c.id === pos.key!.right)!.words}".`);
    expect(() => gradeChoice(pos, 'maybe')).toThrow(/"maybe" is not one of this drill's answers \(safe, risky, dangerous\)/);
    const move = drillPosition(cc, { kind: 'discard', level: 1, seed: 5 });
    expect(() => gradeChoice(move, 'safe')).toThrow(/answered by a move/);
  });

  it('a score drill scores as the engine scored the game, and its reason adds up to its answer', () => {
    for (const level of [1, 2, 3] as const) {
      for (const seed of [11, 12]) {
        const pos = drillPosition(cc, { kind: 'score', level, seed });
        const e = pos.state.result!.outcome.mahJonggs[0];
        const jokerless = e.jokerless && !e.singlesAndPairs;
        // social play (teaching guide 6.2): the game's own score; a tournament (rules 11.1, 11.2): the value and its bonuses
        const want = level === 3 ? e.value + (e.selfPick ? 10 : 0) + (jokerless ? 20 : 0) : pos.state.result!.scores[pos.seat];
        expect(pos.key!.right).toBe(String(want));
        expect(pos.key!.reason).toMatch(new RegExp(`${want}( points)?\\.$`));
        expect(pos.choices!.map((c) => Number(c.id))).toEqual([...pos.choices!.map((c) => Number(c.id))].sort((x, y) => x - y));
      }
    }
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
