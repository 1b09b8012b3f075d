import { describe, expect, it } from 'vitest';
import { deadCalls, tileSafety, tileWords } from '../../agents/mah-jongg/defence.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { apply, legalActions, newGame, nextToAct, view } from '../../engine/mah-jongg/game.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { cc } from '../engine/game-helpers.js';

/**
 * Defence's plain words over whole games: every sentence rating a discard or calling a hand
 * dead, at every discard of twelve seeded games of medium bots, is one sentence in the game's
 * words naming a tile on the rack. Slow: twelve whole games, seconds of work; the ratings and
 * calls one by one are test/agents/defence.test.ts (unit).
 */

describe('defence: plain words over whole games', () => {
  it("every sentence over seeded games of medium bots is one sentence in the game's words, and names a tile on the rack", () => {
    const rules = loadRuleset('nmjl-4p');
    const levels = new Set<string>();
    let rated = 0;
    for (let g = 1; g <= 12; g++) {
      const s = newGame(rules, cc, g);
      const bots = [0, 1, 2, 3].map(() => makeAgent('medium', cc, rules));
      const rng = seedRng(g);
      while (s.phase.kind !== 'ended') {
        const seat = nextToAct(s);
        if (s.phase.kind === 'discard') {
          const v = view(s, seat);
          for (const r of tileSafety(cc, v)) {
            rated++;
            levels.add(r.level);
            expect(v.concealed[r.tile]).toBeGreaterThan(0);
            for (const text of [r.why, r.warning ?? 'None.']) {
              expect(text, text).toMatch(/^[A-Z0-9][^.?!]*(\.|\?)$/);
              expect(text, text).not.toMatch(/\b(seat \d|form|share|worlds?|heuristic|\d\.\d|\d%)\b/i);
            }
            expect(r.why.toLowerCase()).toContain(tileWords(r.tile).toLowerCase());
          }
          for (const d of deadCalls(cc, v)) expect(d.text).toMatch(/^Call (Right|Across|Left)'s hand dead: [^.?!]*\.$/);
        }
        const a = bots[seat].act({ seat, phase: s.phase.kind as Exclude<typeof s.phase.kind, 'ended'>, view: () => view(s, seat), legal: () => legalActions(s, seat), rng });
        apply(s, a);
      }
    }
    expect(rated).toBeGreaterThan(1000);
    expect([...levels].sort()).toEqual(['dangerous', 'risky', 'safe']);
  });
});
