import { describe, expect, it } from 'vitest';
import { replayRecord } from '../../engine/record.js';
import { MAH_JONGG } from '../../engine/mah-jongg/mah-jongg.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { recordGame, table, text } from './record-games.js';

/**
 * A record replays to the identical final state for every ruleset and both bots, three seeds
 * each: 36 whole games recorded and replayed. Slow: seconds of work; a record's lines and every
 * refusal are test/engine/record.test.ts (unit).
 */

describe('game records', () => {
  it('a record replays to the identical final state, for every ruleset and both bots', () => {
    for (const ruleset of Object.keys(RULESETS)) {
      for (const bot of ['random', 'greedy'] as const) {
        for (const seed of [1, 2, 3]) {
          const g = recordGame(ruleset, seed, bot);
          const replay = replayRecord(text(g.lines), { type: MAH_JONGG });
          expect(replay.actions).toBe(g.actions.length);
          expect(replay.header).toMatchObject({ ruleset, seed, seats: g.state.players.map(() => bot) });
          expect(replay.state.result).toEqual(g.state.result);
          expect(table(replay.state)).toEqual(table(g.state));
          expect(replay.state.wallPos).toBe(g.state.wallPos);
        }
      }
    }
  });
});
