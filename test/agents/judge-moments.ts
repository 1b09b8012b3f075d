import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { forcedAction, tableTurns } from '../../agents/table.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { loadCard } from '../../io/cards.js';

/** The judge's tests' moments (test/agents/judge.test.ts, unit; judge.slow.test.ts, slow): positions of medium bots' games. */

export const cc = loadCard();
export const rules = loadRuleset('nmjl-4p');
export const game = mahJonggGame(rules, cc);
export const analyzer = new Analyzer(cc);

/** Moments of medium bots' games where `want` holds, with the legal actions and the bot's own choice. */
export function moments(want: (v: SeatView, legal: Action[]) => boolean, count: number): { v: SeatView; legal: Action[]; played: Action }[] {
  const out: { v: SeatView; legal: Action[]; played: Action }[] = [];
  for (let seed = 1; out.length < count && seed < 400; seed++) {
    const state = game.newGame(seed);
    const bots = [0, 1, 2, 3].map(() => makeAgent('medium', cc, rules));
    const turns = tableTurns(game, state, seedRng(seed));
    for (let s = game.nextToAct(state); s >= 0 && out.length < count; s = game.nextToAct(state)) {
      const turn = turns[s];
      turn.phase = game.phase(state);
      const legal = game.legalActions(state, s);
      const played = bots[s].act(turn);
      if (forcedAction(legal) === null) {
        const v = game.view(state, s);
        if (want(v, legal)) {
          out.push({ v: structuredClone(v), legal, played });
          break; // one a game: moments from many deals
        }
      }
      game.apply(state, played);
    }
  }
  return out;
}

/** A few worlds for the judge: the tests ask its rules and its pairing, not its precision. */
export const few = { maxWorlds: 8 };
