import { describe, expect, it } from 'vitest';
import { dominated, judgeChoice } from '../../agents/mah-jongg/judge.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { analyzer, cc, few, moments } from './judge-moments.js';

/**
 * The judge calls a thrown joker a mistake, with a tile on the rack that serves no line, at
 * four moments found over games of medium bots. Slow: the search plays games until it finds
 * them, seconds on a busy machine; the rest of the judge is test/agents/judge.test.ts (unit).
 */

describe('the judge', () => {
  it('a thrown joker with a tile on the rack that serves no line is never right or about as good', () => {
    const useless = (v: SeatView) => dominated(cc, analyzer, v, [], { type: 'discard', seat: v.seat, tile: JOKER });
    const found = moments((v, legal) => v.phase === 'discard' && v.concealed[JOKER] > 0 && legal.some((a) => a.type === 'discard' && a.tile === JOKER) && useless(v) !== null, 4);
    expect(found.length).toBe(4);
    for (const { v, legal, played } of found) {
      const joker: Action = { type: 'discard', seat: v.seat, tile: JOKER };
      // against whatever the coach would do, even a coach that throws nothing better
      const coach = played.type === 'discard' && played.tile === JOKER ? legal.find((a) => a.type === 'discard' && a.tile !== JOKER)! : played;
      const j = judgeChoice(cc, analyzer, v, legal, joker, coach, few);
      expect(j.verdict).toBe('mistake');
      expect(j.rule).toBe('joker-thrown');
      expect(j.reason).toMatch(/^You threw a joker, which can stand in for a tile in almost any group, while .+ on your rack helps no hand on the card\.$/);
    }
  });
});
