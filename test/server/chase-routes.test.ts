import { describe, expect, it } from 'vitest';
import { courtesyAdvice, voteAdvice } from '../../agents/mah-jongg/advice.js';
import { COPIES } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';
import { call, server } from './helpers.js';

/** The routes the "Which hand should I chase?" page adds, and the form marks it draws from. */

const app = await server();
const HANDS = [
  '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J', // the README's own hand
  '2B 2B 4B 4B 6B 6B 6B 8B 8B F F J N S',
  '1B 1B 2C 3D N RD F J 5D 5D 7C 8C 9C',
  'N E W S GD RD WD F F 2B J 2B 6B',
];

describe('POST /api/vote and /api/courtesy', () => {
  it("answer as the CLI's advise vote and advise courtesy do", async () => {
    const cc = loadCard();
    for (const hand of HANDS.slice(1, 3)) {
      const v = await call(app, { method: 'POST', url: '/api/vote', payload: { hand } });
      expect(v.status).toBe(200);
      expect(v.body).toEqual(JSON.parse(JSON.stringify(voteAdvice(cc, COPIES, { hand }))));
      const c = await call(app, { method: 'POST', url: '/api/courtesy', payload: { hand } });
      expect(c.status).toBe(200);
      expect(c.body).toEqual(JSON.parse(JSON.stringify(courtesyAdvice(cc, COPIES, { hand }))));
      expect(c.body.offer.length).toBeLessThanOrEqual(3);
    }
  });

  it('bad input is refused with a code naming what was wrong', async () => {
    const bad = await call(app, { method: 'POST', url: '/api/vote', payload: { hand: '2B 2B 4X' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_BAD_TILE');
    expect(bad.body.message).toMatch(/4X/);
    const typo = await call(app, { method: 'POST', url: '/api/courtesy', payload: { hand: HANDS[1], hnd: 'x' } });
    expect(typo.status).toBe(400);
    expect(typo.body.code).toBe('TM_BAD_INPUT');
    const none = await call(app, { method: 'POST', url: '/api/courtesy', payload: {} });
    expect(none.body.code).toBe('TM_BAD_INPUT');
    const long = await call(app, { method: 'POST', url: '/api/vote', payload: { hand: '1B '.repeat(1000) } });
    expect(long.body.code).toBe('TM_BAD_INPUT');
    const count = await call(app, { method: 'POST', url: '/api/vote', payload: { hand: '1B 2B 3B' } });
    expect(count.status).toBe(400);
    expect(count.body.code).toBe('TM_HAND_SIZE');
  });
});

describe('the form tile by tile agrees with "still needed"', () => {
  it("the tiles marked missing are exactly the analyzer's need, jokers standing where it put them", async () => {
    let checked = 0;
    for (const hand of HANDS) {
      const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand, all: true } });
      expect(r.status).toBe(200);
      for (const line of r.body.results.filter((x: any) => x.possible)) {
        const missing = line.groups
          .flat()
          .filter((t: any) => t.status === 'need' || t.status === 'joker')
          .map((t: any) => t.tile);
        expect(missing.sort(), `${hand}: ${line.id}`).toEqual([...line.need].sort());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
