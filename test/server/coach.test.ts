import { describe, expect, it } from 'vitest';
import { progress, weekOf, type GamePlayed, type ReviewSeen } from '../../agents/coach/progress.js';
import { call, newJar, playThrough, server, type Answer, signUp } from './helpers.js';

/** A player's progress in words and as a chart, and the coach she invites: what the coach sees, and only while she shares it. */

describe('progress', () => {
  it("week by week: games won by the bots' level, what each kind of mistake cost a reviewed game, this week against last in words, and the costliest habits with an example", () => {
    const now = new Date('2026-11-25T12:00:00Z'); // a Wednesday
    expect(weekOf(now.toISOString())).toBe('2026-11-23');
    const game = (id: string, at: string, won: boolean, against = 'medium'): GamePlayed => ({
      id,
      game: 'mah-jongg',
      seat: 0,
      seats: ['human', against, against, against],
      winners: won ? [0] : [1],
      scores: won ? [50, -25, -25, 0] : [-25, 50, -25, 0],
      finishedAt: at,
    });
    const games = [game('a', '2026-11-17T10:00:00Z', false), game('b', '2026-11-18T10:00:00Z', true), game('c', '2026-11-24T10:00:00Z', true), game('d', '2026-11-24T11:00:00Z', true, 'easy')];
    const call = (loss: number, index: number) => ({
      index,
      phase: 'claims',
      agreed: false,
      verdict: 'mistake',
      loss,
      chosen: `call ${index}`,
      suggested: 'decline',
      why: 'the call breaks your pairs',
    });
    const reviews: ReviewSeen[] = [
      {
        recordId: 'a',
        decisions: [
          call(8, 10),
          call(4, 30),
          { index: 5, phase: 'discard', agreed: true, verdict: 'right', loss: 0, chosen: 'x', suggested: 'x', why: '' },
          // another choice than the coach's, but no mistake by the judge: no habit, no cost
          { index: 7, phase: 'discard', agreed: false, verdict: 'asGood', loss: 0, chosen: 'y', suggested: 'x', why: '' },
        ],
      },
      { recordId: 'c', decisions: [call(7, 12)], dead: { index: 90 } },
    ];
    const p = progress(games, reviews, now);
    expect(p.weeks).toEqual([
      { week: '2026-11-16', game: 'mah-jongg', against: 'medium', games: 2, winShare: 50, meanScore: 12.5 },
      { week: '2026-11-23', game: 'mah-jongg', against: 'easy', games: 1, winShare: 100, meanScore: 50 },
      { week: '2026-11-23', game: 'mah-jongg', against: 'medium', games: 1, winShare: 100, meanScore: 50 },
    ]);
    expect(p.said).toEqual(['This week you played 2 Mah Jongg games and made Mah Jongg in 2 of them; last week 1 of 2.', 'You gave away about 12 points a game in calls last week, 7 this week.']);
    expect(p.habits[0]).toMatchObject({ kind: 'call', mistakes: 3, cost: 19, example: { recordId: 'a', index: 10, chosen: 'call 10' } });
    expect(p.habits.map((h) => h.kind)).toEqual(['call', 'dead hand']);
    expect(p.reviewed).toBe(2);
  });
});

describe('a coach and her student', () => {
  it('the student invites a coach with a code; the coach sees her games, reviews and progress; another player sees nothing; withdrawn, the coach sees nothing either', async () => {
    const app = await server();
    const rose = newJar(),
      ann = newJar(),
      thorn = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, ann, 'Ann');
    await signUp(app, thorn, 'Thorn');
    const g = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 60 } }, rose)).body as Answer;
    await playThrough(app, g);
    expect((await call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 2 } }, rose)).status).toBe(200);
    const mine = (await call(app, { method: 'GET', url: '/api/progress' }, rose)).body;
    expect(mine.games).toBe(1);
    expect(mine.reviewed).toBe(1);
    expect(mine.said[0]).toMatch(/^This week you played 1 Mah Jongg game and made Mah Jongg in [01] of them\.$/);
    const chart = await call(app, { method: 'GET', url: '/api/progress/chart.svg' }, rose);
    expect(chart.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(String(chart.body)).toMatch(/^<svg[\s\S]*won \(%\)[\s\S]*<\/svg>$/);
    // drawn for a phone: narrower, and its words bigger
    const phone = await call(app, { method: 'GET', url: '/api/progress/chart.svg?size=phone' }, rose);
    const width = (svg: unknown) => Number(/^<svg[^>]* width="([\d.]+)"/.exec(String(svg))?.[1]);
    const labels = (svg: unknown) => Math.min(...[...String(svg).matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1])));
    expect(width(phone.body)).toBeLessThan(width(chart.body) * 0.8);
    expect(labels(phone.body)).toBeGreaterThan(labels(chart.body));
    expect((await call(app, { method: 'GET', url: '/api/progress/chart.svg?size=huge' }, rose)).status).toBe(400);

    // before any code, nobody else sees her games
    for (const jar of [ann, thorn]) {
      expect((await call(app, { method: 'GET', url: '/api/records?student=Rose' }, jar)).status).toBe(404);
      expect((await call(app, { method: 'GET', url: '/api/progress?student=Rose' }, jar)).status).toBe(404);
      expect((await call(app, { method: 'GET', url: `/api/records/${g.id}` }, jar)).status).toBe(404);
    }
    const invite = (await call(app, { method: 'POST', url: '/api/coach/invite' }, rose)).body;
    expect(invite.code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const taken = await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: invite.code.toLowerCase().replace('-', ' ') } }, ann);
    expect(taken.body).toEqual({ student: 'Rose' });
    expect((await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: invite.code } }, thorn)).status).toBe(404); // used once
    expect((await call(app, { method: 'GET', url: '/api/coach/students' }, ann)).body).toEqual({ students: [{ name: 'Rose' }] });
    expect((await call(app, { method: 'GET', url: '/api/coach/coaches' }, rose)).body).toEqual({ coaches: [{ name: 'Ann' }] });

    const listed = (await call(app, { method: 'GET', url: '/api/records?student=rose' }, ann)).body;
    expect(listed.records.map((r: any) => r.id)).toEqual([g.id]);
    expect((await call(app, { method: 'GET', url: `/api/records/${g.id}` }, ann)).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 2 } }, ann)).status).toBe(200);
    const hers = (await call(app, { method: 'GET', url: '/api/progress?student=Rose' }, ann)).body;
    expect(hers.games).toBe(1);
    expect(hers.said[0]).toMatch(/^This week Rose played 1 Mah Jongg game/); // in words about her, for her coach
    expect((await call(app, { method: 'GET', url: '/api/records' }, ann)).body.records).toEqual([]); // her own list is her own
    for (const url of ['/api/records?student=Rose', '/api/progress?student=Rose', `/api/records/${g.id}`]) expect((await call(app, { method: 'GET', url }, thorn)).status, url).toBe(404);

    expect((await call(app, { method: 'DELETE', url: '/api/coach/coaches/ann' }, rose)).body).toEqual({ withdrawn: 'ann' });
    for (const url of ['/api/records?student=Rose', '/api/progress?student=Rose', `/api/records/${g.id}`]) expect((await call(app, { method: 'GET', url }, ann)).status, url).toBe(404);
    expect((await call(app, { method: 'GET', url: '/api/coach/students' }, ann)).body).toEqual({ students: [] });
  });
});

describe('invitation codes', () => {
  it('a student holds 5 codes at most: a sixth retires the oldest, which no longer works', async () => {
    const app = await server();
    const rose = newJar(),
      ann = newJar();
    await signUp(app, rose, 'Rose');
    await signUp(app, ann, 'Ann');
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push((await call(app, { method: 'POST', url: '/api/coach/invite' }, rose)).body.code);
      await new Promise((r) => setTimeout(r, 5)); // each newer than the last
    }
    expect((await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: codes[0] } }, ann)).status).toBe(404);
    expect((await call(app, { method: 'POST', url: '/api/coach/students', payload: { code: codes[5] } }, ann)).body).toEqual({ student: 'Rose' });
    // a code only a signed-in player can make
    expect((await call(app, { method: 'POST', url: '/api/coach/invite' }, newJar())).status).toBe(401);
  });
});
