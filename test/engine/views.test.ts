import { describe, expect, it } from 'vitest';
import { apply as applyDomino, legalActions as dominoActions, newRound, view as dominoView } from '../../engine/domino/game.js';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { view } from '../../engine/mah-jongg/game.js';
import { nextInt, seedRng } from '../../engine/rng.js';
import { act, declineAll, table, tile } from './game-helpers.js';
import { scribble, snapshot } from './view-scribble.js';

/**
 * A view given to a bot or the server cannot change the game: its lists and objects are the
 * seat's own copies. Here a declared Mah Jongg, and random Mexican Train rounds scribbled over
 * at every step; random Mah Jongg games of every ruleset, and bots deciding from the shared view
 * of self-play as from copies, are test/engine/views.slow.test.ts (slow: whole games).
 */

describe('views cannot change the game', () => {
  it('a declared Mah Jongg and the turn it came on, written into from a view, stay as the game has them', () => {
    // 2026 #1 `FF 2026a 2222b 6666b`: seat 2 waits on a 6B, which seat 1 discards
    const s = table({
      rules: 'nmjl-3p',
      racks: ['1B 3B 4B 5B 7B 8B 9B 1C 3C 4C 5C 7C 8C', '6B 1D 2D 3D 4D 5D 7D 8D 9D 1B 3B 4B 5B 9C', 'F F 2B WD 2B 2C 2C 2C J 6C 6C 6C 6C'],
      turn: 1,
      discards: ['RD', '', ''],
    });
    act(s, { type: 'discard', seat: 1, tile: tile('6B') });
    act(s, { type: 'callMahJongg', seat: 2 });
    declineAll(s);
    expect(s.result?.winners).toEqual([2]);
    const seen = new Map<string, number>();
    const before = snapshot(s);
    for (let seat = 0; seat < 3; seat++) scribble(view(s, seat), seen);
    expect(snapshot(s)).toBe(before);
    expect(seen.get('.mahJonggs[].tiles')).toBe(3);
    expect(view(s, 0).turnFrom).toEqual(s.turnSource);
  });

  it.each(Object.keys(DOMINO_RULESETS))('mexican train %s - a bot that writes into every list of its view (hand, trains, open doubles, lacks, totals, rounds) leaves the game as it was', (name) => {
    const seen = new Map<string, number>();
    for (let g = 0; g < 3; g++) {
      const s = newRound(DOMINO_RULESETS[name], 4, 60 + g);
      const rng = seedRng(g);
      while (s.phase !== 'ended') {
        for (let seat = 0; seat < 4; seat++) {
          const before = snapshot(s);
          scribble(dominoView(s, seat), seen);
          expect(snapshot(s)).toBe(before);
        }
        const legal = dominoActions(s, s.turn);
        applyDomino(s, legal[nextInt(rng, legal.length)]);
      }
      const before = snapshot(s);
      for (let seat = 0; seat < 4; seat++) scribble(dominoView(s, seat), seen);
      expect(snapshot(s)).toBe(before);
    }
    for (const list of ['.hand', '.trains[].tiles', '.openDoubles', '.lacks', '.totals', '.rounds[].pipsLeft', '.result.totals']) expect(seen.get(list) ?? 0, list).toBeGreaterThan(0);
  });
});
