import { describe, expect, it } from 'vitest';
import { drillHint, drillPosition, gradeDrill, type DrillKind } from '../../agents/coach/drills.js';
import { encodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import { loadCard } from '../../io/cards.js';
import { affordWorlds } from '../../api/http/task-cost.js';
import { DEFAULT_LIMITS } from '../../api/shared/limits.js';
import { call, newJar, server, signUp } from './helpers.js';

/**
 * Drills a coach gives (issue 46): to one student or to every student; the student finds them
 * on her drills page and answers them; the coach sees how she did, for as long as the student
 * shares her games; nobody else answers or sees them.
 */

const cc = loadCard();

/** A legal answer to a drill, as posted, and whether the coach calls it right. */
function answerTo(kind: DrillKind, level: 1 | 2 | 3, seed: number, right: boolean): Record<string, unknown> | null {
  const pos = drillPosition(cc, { kind, level, seed });
  // the key as the server works it out: the hint with the worlds half a request's budget affords (api/http/heavy-tasks.ts, 'drill-answer')
  const hint = drillHint(cc, pos, { afford: (choices, worlds) => affordWorlds(DEFAULT_LIMITS.taskMs / 2, cc.formCount, choices, worlds, true) });
  const a = right ? hint.action : pos.legal.find((x) => !gradeDrill(cc, pos, hint, x).right);
  if (a === undefined) return null;
  const { seat: _, ...json } = encodeAction(a);
  return json;
}

describe('drills a coach gives', () => {
  it('a coach gives her student drills; the student answers them; the coach sees the answers until the student stops sharing', async () => {
    const app = await server();
    const rose = newJar(),
      ann = newJar(),
      thorn = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, ann, 'Ann');
    await signUp(app, thorn, 'Thorn');
    // not her student yet: refused
    expect((await call(app, { method: 'POST', url: '/api/coach/drills', payload: { student: 'Rose', kind: 'discard', level: 1, count: 3 } }, ann)).status).toBe(404);
    const invite = (await call(app, { method: 'POST', url: '/api/coach/invite' }, rose)).body;
    expect((await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: invite.code } }, ann)).status).toBe(200);

    const given = await call(app, { method: 'POST', url: '/api/coach/drills', payload: { student: 'Rose', kind: 'discard', level: 1, count: 3 } }, ann);
    expect(given.status).toBe(200);
    expect(given.body.given).toEqual([{ student: 'Rose', id: expect.any(String) }]);
    const mine = (await call(app, { method: 'GET', url: '/api/drills/given' }, rose)).body.sets;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ coach: 'Ann', student: 'Rose', kind: 'discard', level: 1, answers: {} });
    const [first, second] = mine[0].seeds as number[];
    const set = mine[0].id as string;

    // she answers two of them: the coach's choice, and one the coach calls worse
    const r1 = await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 1, seed: first, set, answer: answerTo('discard', 1, first, true) } }, rose);
    expect(r1.body).toMatchObject({ right: true });
    // (graded on the server as a table's hint is, with the worlds its budget affords: a busy
    // machine affords fewer, and may call this one about as good; the coach sees the grade given)
    const wrong = answerTo('discard', 1, second, false);
    let secondRight: boolean | null = null;
    if (wrong !== null) {
      const r2 = await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 1, seed: second, set, answer: wrong } }, rose);
      expect(r2.status).toBe(200);
      secondRight = r2.body.right as boolean;
    }
    // the first answer counts: answering the first again, wrongly, changes nothing the coach sees
    const again = answerTo('discard', 1, first, false);
    if (again !== null) await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 1, seed: first, set, answer: again } }, rose);
    const seen = (await call(app, { method: 'GET', url: '/api/coach/drills' }, ann)).body.sets;
    expect(seen).toHaveLength(1);
    expect(seen[0].answers).toEqual({ [String(first)]: true, ...(secondRight === null ? {} : { [String(second)]: secondRight }) });

    // nobody else answers her set, or sees it
    expect((await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 1, seed: first, set, answer: answerTo('discard', 1, first, true) } }, thorn)).status).toBe(
      404,
    );
    // a drill that is not in the set
    expect((await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 2, seed: first, set, answer: { type: 'discard', tile: '1B' } } }, rose)).status).toBe(404);
    expect((await call(app, { method: 'GET', url: '/api/coach/drills' }, thorn)).body.sets).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/drills/given' }, thorn)).body.sets).toEqual([]);
    // a guest is no coach
    expect((await call(app, { method: 'GET', url: '/api/coach/drills' }, newJar())).status).toBe(401);

    // to every student at once (Rose is Ann's only one); a name and "everyone" together are refused
    const all = await call(app, { method: 'POST', url: '/api/coach/drills', payload: { everyone: true, kind: 'call', level: 2, count: 2 } }, ann);
    expect(all.body.given.map((g: { student: string }) => g.student)).toEqual(['Rose']);
    expect((await call(app, { method: 'POST', url: '/api/coach/drills', payload: { everyone: true, student: 'Rose', kind: 'call', level: 2, count: 2 } }, ann)).status).toBe(400);
    expect((await call(app, { method: 'POST', url: '/api/coach/drills', payload: { student: 'Rose', kind: 'call', level: 2, count: 21 } }, ann)).status).toBe(400);

    // she stops sharing: the coach sees none of it, and her page lists none of that coach's drills
    expect((await call(app, { method: 'DELETE', url: '/api/coach/coaches/Ann' }, rose)).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/coach/drills' }, ann)).body.sets).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/drills/given' }, rose)).body.sets).toEqual([]);
  }, 180_000);
});
