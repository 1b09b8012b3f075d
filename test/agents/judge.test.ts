import { describe, expect, it } from 'vitest';
import { decides, dominated, judgeChoice, MISTAKE_POINTS, RIGHT_POINTS, verdictOf } from '../../agents/mah-jongg/judge.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { analyzer, cc, few, moments } from './judge-moments.js';

/**
 * The coach's one judge (issue 61): agents/mah-jongg/judge.ts. Its precision against the truth set
 * is lab/judge-study.ts's; a thrown joker at moments searched over many games is
 * test/agents/judge.slow.test.ts (slow).
 */

describe('the judge', () => {
  it('draws its lines once: the coach’s own choice is right, a rule that decides makes a mistake whatever the cost, and the cost decides the rest', () => {
    expect(verdictOf(50, true, false)).toBe('right');
    expect(verdictOf(0, true, true)).toBe('mistake');
    expect(verdictOf(0, false, true)).toBe('mistake');
    expect(verdictOf(RIGHT_POINTS - 0.01, false, false)).toBe('right');
    expect(verdictOf(RIGHT_POINTS, false, false)).toBe('asGood');
    expect(verdictOf(MISTAKE_POINTS - 0.01, false, false)).toBe('asGood');
    expect(verdictOf(MISTAKE_POINTS, false, false)).toBe('mistake');
    // which rules decide: a joker thrown, a self-picked Mah Jongg left; a called one let go, a call or a broken group only say why
    const declare: Action[] = [{ type: 'declare', seat: 0 }],
      call: Action[] = [{ type: 'callMahJongg', seat: 0 }];
    expect(decides({ rule: 'joker-thrown' }, [])).toBe(true);
    expect(decides({ rule: 'mahjongg-missed' }, declare)).toBe(true);
    expect(decides({ rule: 'mahjongg-missed' }, call)).toBe(false);
    expect(decides({ rule: 'call-no-closer' }, [])).toBe(false);
    expect(decides({ rule: 'group-broken' }, [])).toBe(false);
    expect(decides(null, declare)).toBe(false);
  });

  it('Mah Jongg left on the table is a mistake, said in words', () => {
    const [m] = moments((_v, legal) => legal.some((a) => a.type === 'declare'), 1);
    const other = m.legal.find((a) => a.type === 'discard')!;
    const j = judgeChoice(cc, analyzer, m.v, m.legal, other, m.legal.find((a) => a.type === 'declare')!, few);
    expect(j).toMatchObject({ verdict: 'mistake', rule: 'mahjongg-missed', reason: 'Your hand was complete: you could have declared Mah Jongg and won the hand.' });
  });

  it("the coach's own choice is right with nothing sampled; another is judged on paired worlds, the same moment the same way every time", () => {
    const [m] = moments((v) => v.phase === 'discard' && v.wallLeft < 80, 1);
    const discards = m.legal.filter((a): a is Extract<Action, { type: 'discard' }> => a.type === 'discard' && a.tile !== JOKER);
    const coach = discards[0],
      other = discards[discards.length - 1];
    expect(judgeChoice(cc, analyzer, m.v, m.legal, coach, coach, few)).toEqual({ verdict: 'right', cost: 0, costSe: 0, worlds: 0, reason: '' });
    const a = judgeChoice(cc, analyzer, m.v, m.legal, other, coach, few);
    expect(a.worlds).toBeGreaterThan(0);
    expect(a.costSe).toBeGreaterThan(0);
    expect(['right', 'asGood', 'mistake']).toContain(a.verdict);
    if (a.verdict === 'right') expect(a.cost).toBe(0);
    expect(judgeChoice(cc, analyzer, m.v, m.legal, other, coach, few)).toEqual(a);
    // no worlds at all: the rules and nothing else
    const none = judgeChoice(cc, analyzer, m.v, m.legal, other, coach, { maxWorlds: 0 });
    expect(none.worlds).toBe(0);
  });

  it('a call that brings no line closer is said so when the cost makes it a mistake', () => {
    const found = moments((v, legal) => v.phase === 'claims' && legal.some((a) => a.type === 'call' && dominated(cc, analyzer, v, legal, a)?.rule === 'call-no-closer'), 3);
    expect(found.length).toBeGreaterThan(0);
    for (const { v, legal } of found) {
      const call = legal.find((a) => a.type === 'call' && dominated(cc, analyzer, v, legal, a) !== null)!;
      const j = judgeChoice(cc, analyzer, v, legal, call, { type: 'decline', seat: v.seat }, few);
      if (j.verdict === 'mistake') expect(j.reason).toMatch(/^(Calling .+ brings no hand on the card closer to Mah Jongg|An exposed .+ fits no hand on the card)/);
      else expect(j.reason).toBe('');
    }
  });
});
