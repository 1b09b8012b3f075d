import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextSchedule } from '../../agents/coach/practice.js';
import { type Answer, call, firstChoice, newJar, playThrough, server } from './helpers.js';

/**
 * Her own mistakes as drills (issue 46): a review of her game finds mistakes; each comes back
 * as a drill at that very position (GET /api/drills/mine), graded as the review judged; her
 * answer schedules it by FSRS (ts-fsrs), and it is due again on that day, not before. Nobody
 * else sees or answers her mistakes.
 */

afterEach(() => {
  vi.useRealTimers();
});

/** A careless player: she throws a joker whenever she can, calls whatever she can, and else takes the first choice. */
function careless(a: Answer): unknown {
  const joker = a.legal.find((l: { type: string; tile?: string }) => l.type === 'discard' && l.tile === 'J');
  return joker ?? a.legal.find((l: { type: string }) => l.type === 'call') ?? firstChoice(a);
}

describe('her mistakes as drills', () => {
  it('FSRS brings a wrong answer back within two days and a right one later each time', () => {
    const t0 = new Date('2026-11-28T10:00:00Z');
    const days = (from: Date, iso: string) => Math.round((new Date(iso).getTime() - from.getTime()) / 86_400_000);
    const wrong = nextSchedule(null, false, t0);
    expect(days(t0, wrong.due)).toBeGreaterThanOrEqual(1);
    expect(days(t0, wrong.due)).toBeLessThanOrEqual(2);
    const right = nextSchedule(null, true, t0);
    const at = new Date(right.due);
    const again = nextSchedule(right, true, at);
    expect(days(t0, right.due)).toBeGreaterThan(days(t0, wrong.due));
    expect(days(at, again.due)).toBeGreaterThan(days(t0, right.due));
    // the same answers give the same days (no random fuzz)
    expect(nextSchedule(null, true, t0)).toEqual(right);
  });

  it('a reviewed game’s mistakes come back as drills on the days FSRS schedules them, hers alone', async () => {
    const app = await server();
    const rose = newJar();
    const g = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 60 } }, rose)).body as Answer;
    await playThrough(app, g, careless);
    // nothing is due before a review has found anything
    expect((await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body).toMatchObject({ dueCount: 0, total: 0, next: null });
    const review = (await call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 2 } }, rose)).body;
    // the one judge's mistakes, of the kinds a drill asks
    const charged = review.decisions.filter((d: { verdict: string; phase: string }) => d.verdict === 'mistake' && ['charleston', 'courtesy', 'discard', 'claims'].includes(d.phase));
    expect(charged.length).toBeGreaterThan(1);

    const mine = (await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body;
    expect(mine.total).toBe(charged.length);
    expect(mine.dueCount).toBe(charged.length);
    expect(mine.due.map((m: { decision: number }) => m.decision).sort((a: number, b: number) => a - b)).toEqual(
      charged
        .map((d: { index: number }) => d.index)
        .sort((a: number, b: number) => a - b)
        .slice(0, 20),
    );

    // the drill is the moment of her game just before her mistake (a pass where there is one: its
    // grade is the tiles kept, not playouts a busy server may afford fewer of)
    const d = charged.find((x: { phase: string }) => x.phase === 'charleston') ?? charged[0];
    const drill = (await call(app, { method: 'GET', url: `/api/drills/mine/${g.id}/${d.index}` }, rose)).body;
    expect(drill.view.rack).toEqual(d.moment.rack);
    expect(drill.question).toMatch(/\?$/);

    // answered as she played it then: wrong, as the review said, and back within two days
    const { seat: _s, ...chosen } = d.chosenAction;
    const wrong = (await call(app, { method: 'POST', url: '/api/drills/mine/answer', payload: { recordId: g.id, decision: d.index, answer: chosen } }, rose)).body;
    expect(wrong).toMatchObject({ right: false });
    expect(wrong.days).toBeGreaterThanOrEqual(1);
    expect(wrong.days).toBeLessThanOrEqual(2);
    const now = (await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body;
    expect(now.dueCount).toBe(charged.length - 1);
    expect(now.due.some((m: { decision: number }) => m.decision === d.index)).toBe(false);
    expect(now.next).toBe(wrong.due);

    // the day before it is due it stays away; on the day FSRS gave it, it is back
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(wrong.due).getTime() - 3_600_000);
    expect((await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body.due.some((m: { decision: number }) => m.decision === d.index)).toBe(false);
    vi.setSystemTime(new Date(wrong.due).getTime() + 1000);
    expect((await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body.due.some((m: { decision: number }) => m.decision === d.index)).toBe(true);

    // answered as the coach would: right, and it goes further off than after the wrong answer
    const { seat: _t, ...suggested } = d.suggestedAction;
    const right = (await call(app, { method: 'POST', url: '/api/drills/mine/answer', payload: { recordId: g.id, decision: d.index, answer: suggested } }, rose)).body;
    expect(right).toMatchObject({ right: true, agreed: true });
    expect(right.days).toBeGreaterThan(wrong.days);
    vi.useRealTimers();
    const kinds = (await call(app, { method: 'GET', url: '/api/drills/mine' }, rose)).body.kinds;
    expect(kinds.find((k: { kind: string }) => k.kind === d.phase)).toMatchObject({ answered: 2, right: 1 });

    // another person: none of it
    const thorn = newJar();
    expect((await call(app, { method: 'GET', url: '/api/drills/mine' }, thorn)).body.total).toBe(0);
    expect((await call(app, { method: 'GET', url: `/api/drills/mine/${g.id}/${d.index}` }, thorn)).status).toBe(404);
    expect((await call(app, { method: 'POST', url: '/api/drills/mine/answer', payload: { recordId: g.id, decision: d.index, answer: suggested } }, thorn)).status).toBe(404);
    // a decision that is no mistake of hers
    const agreed = review.decisions.find((x: { agreed: boolean }) => x.agreed);
    if (agreed) expect((await call(app, { method: 'GET', url: `/api/drills/mine/${g.id}/${agreed.index}` }, rose)).status).toBe(404);
  }, 240_000);
});
