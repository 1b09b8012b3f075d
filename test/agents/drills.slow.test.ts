import { describe, expect, it } from 'vitest';
import { drillHint, drillPosition, DRILL_KINDS, gradeDrill } from '../../agents/coach/drills.js';
import { tileWords } from '../../agents/mah-jongg/defence.js';
import { TilemateError } from '../../engine/errors.js';
import { MISTAKE_POINTS } from '../../agents/mah-jongg/judge.js';
import { clearlyWrong, TEST_JUDGE_WORLDS } from '../lesson-moves.js';
import { loadCard } from '../../io/cards.js';

/**
 * Drills (issue 46), the tests that deal many positions or grade by the judge's playouts: every
 * kind and level dealt twice alike (54 positions, each found by playing a game of medium bots),
 * moves graded by the one judge, the balanced answers over 24 positions. Slow: most of a minute
 * on a busy machine. The rest is test/agents/drills.test.ts (unit).
 */

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
        } else if (kind === 'courtesy') {
          // level 1 the courtesy offer; 2 and 3 the second Charleston's first pass (left) and last (right, blind allowed)
          expect(v.phase).toBe(level === 1 ? 'courtesy' : 'charleston');
          if (level > 1) expect([v.pass, v.blindAllowed]).toEqual([[3, 5][level - 2], level === 3]);
        } else if (kind === 'call' || kind === 'exchange') {
          expect(v.phase).toBe(kind === 'call' ? 'claims' : 'discard');
          expect(a.legal.some((x) => (kind === 'call' ? x.type === 'call' || x.type === 'callMahJongg' : x.type === 'exchange'))).toBe(true);
          expect(v.wallLeft >= [60, 30, 0][level - 1] && v.wallLeft < [Infinity, 60, 30][level - 1]).toBe(true);
        } else {
          // a choice drill: its answers, one of them right, and the key kept from the page
          expect(a.choices!.length).toBeGreaterThanOrEqual(2);
          expect(a.choices!.filter((c) => c.id === a.key!.right)).toHaveLength(1);
          expect(b.choices).toEqual(a.choices);
          if (kind === 'hand') {
            expect(v.phase).toBe(level === 1 ? 'charleston' : 'discard');
            if (level === 1) expect(v.pass).toBe(0);
            if (level === 2) expect(v.discards[v.seat]).toEqual([]);
            if (level === 3) expect(v.wallLeft >= 30 && v.wallLeft < 60).toBe(true);
            expect(a.choices).toHaveLength(4);
          } else if (kind === 'safe') {
            expect(v.phase).toBe('discard');
            expect(v.wallLeft >= [50, 25, 0][level - 1] && v.wallLeft < [Infinity, 50, 25][level - 1]).toBe(true);
            expect(v.concealed[a.key!.tiles[0]]).toBeGreaterThan(0);
            expect(a.question).toBe(`Is ${tileWords(a.key!.tiles[0])} safe to discard now?`);
          } else if (kind === 'dead') {
            expect(['draw', 'discard']).toContain(v.phase);
            expect(a.question).toMatch(/^Is (Right|Across|Left)'s hand dead\?$/);
          } else {
            expect(v.phase).toBe('ended');
            const e = a.state.result!.outcome.mahJonggs[0];
            expect(e.seat).toBe(a.seat);
            if (level === 1) expect(e.selfPick).toBe(false);
            if (level === 2) expect(e.selfPick).toBe(true);
            expect(a.situation).toMatch(level === 2 ? /picking the winning tile from the wall yourself\.$/ : /discard\.$|yourself\.$/);
          }
        }
      }
    }
  });

  it("the coach's own choice is right, a choice the judge calls a mistake is not (with the judge's reason), and an answer she could not make is refused", () => {
    const pos = drillPosition(cc, { kind: 'discard', level: 1, seed: 5 });
    const hint = drillHint(cc, pos, { worlds: 24 });
    const mine = gradeDrill(cc, pos, hint, hint.action, TEST_JUDGE_WORLDS);
    expect(mine).toMatchObject({ right: true, agreed: true, judged: 'right', verdict: "Right: that is the coach's choice." });
    const wrong = clearlyWrong(cc, pos, hint);
    const g = gradeDrill(cc, pos, hint, wrong, TEST_JUDGE_WORLDS);
    expect(g).toMatchObject({ right: false, judged: 'mistake' });
    expect(g.cost).toBeGreaterThanOrEqual(MISTAKE_POINTS);
    expect(g.verdict).toBe(`Not this time: ${g.reason.replace(/^./, (c) => c.toLowerCase())}`);
    // a tile not on her rack, and another seat's move
    const missing = [...Array(36).keys()].find((t) => pos.view.concealed[t] === 0)!;
    expect(() => gradeDrill(cc, pos, hint, { type: 'discard', seat: pos.seat, tile: missing })).toThrow(/not a move you could make here/);
    expect(() => gradeDrill(cc, pos, hint, { type: 'discard', seat: (pos.seat + 1) % 4, tile: missing })).toThrow(TilemateError);
  });

  it('a pass is graded by the one judge: right is right, about as good is nearly right, a mistake is not', () => {
    const pos = drillPosition(cc, { kind: 'charleston', level: 1, seed: 9 });
    const hint = drillHint(cc, pos);
    const wrong = clearlyWrong(cc, pos, hint);
    const g = gradeDrill(cc, pos, hint, wrong, TEST_JUDGE_WORLDS);
    expect(g).toMatchObject({ right: false, judged: 'mistake' });
    expect(g.verdict).toMatch(/^Not this time: .{20,}\.$/);
    // every other grade follows the judge's verdict
    for (const a of pos.legal.filter((x) => x.type === 'pass').slice(0, 4)) {
      const other = gradeDrill(cc, pos, hint, a, TEST_JUDGE_WORLDS);
      expect(other.right).toBe(other.agreed || other.judged === 'right');
      if (!other.agreed && other.judged === 'asGood') expect(other.verdict).toMatch(/^Nearly: yours is about as good, but the coach would pass .+, about \d+ points? a game better\.$/);
    }
  });

  it('a balanced drill asks each of its answers: dead hands and live ones, safe tiles, risky and dangerous ones', () => {
    const answers = (kind: 'dead' | 'safe') => new Set([...Array(12).keys()].map((i) => drillPosition(cc, { kind, level: 3, seed: 300 + i }).key!.right));
    expect([...answers('dead')].sort()).toEqual(['dead', 'live']);
    expect([...answers('safe')].sort()).toEqual(['dangerous', 'risky', 'safe']);
  });
});
