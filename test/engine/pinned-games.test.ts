import { describe, expect, it } from 'vitest';
import { makeAgent } from '../../agents/levels.js';
import { playOut } from '../../agents/table.js';
import { botRng } from '../../api/shared/records.js';
import { newGame } from '../../engine/game.js';
import { actionLine } from '../../engine/record.js';
import { RULESETS } from '../../engine/rulesets.js';
import { loadCard } from '../../io/cards.js';

/**
 * The same seeds give the same games: a few seeded games per ruleset and bot, pinned by
 * counted facts (actions applied, winners, scores) and a hash of the whole action stream as
 * records write it. Taken before the engine's speed work (issue 17) and unchanged by it; a
 * change that alters any game, however slightly, fails here.
 */
const PINNED: [ruleset: string, bot: string, seed: number, actions: number, winners: number[], scores: number[], hash: string][] = [
  ['nmjl-4p', 'random', 1, 480, [], [0, 0, 0, 0], 'b7682858'],
  ['nmjl-4p', 'random', 2, 482, [], [0, 0, 0, 0], '5ab9f298'],
  ['nmjl-4p', 'random', 3, 460, [], [0, 0, 0, 0], 'd2534a8b'],
  ['nmjl-4p', 'greedy', 4, 445, [3], [-30, -60, -30, 120], '1d84ad7a'],
  ['nmjl-4p', 'greedy', 5, 488, [2], [-50, -25, 100, -25], 'b52ddde3'],
  ['nmjl-4p', 'medium', 6, 259, [3], [-80, -80, -80, 240], 'b3195f7f'],
  ['nmjl-3p-courtesy', 'random', 7, 335, [], [0, 0, 0], 'cfa903cf'],
  ['nmjl-3p-courtesy', 'random', 8, 323, [], [0, 0, 0], 'ae01d843'],
  ['nmjl-4p-tournament', 'greedy', 9, 303, [2], [0, -20, 35, 0], 'cb3260a8'],
  ['siamese-2p', 'random', 10, 243, [], [-100, 0], '22ad574f'],
  ['siamese-2p', 'random', 11, 203, [], [-100, 0], '396f95c0'],
  ['siamese-2p', 'random', 12, 254, [], [-100, 0], 'b09bbd6a'],
  ['siamese-2p', 'greedy', 13, 297, [0, 1], [25, 35], 'c58917fa'],
  ['siamese-2p', 'medium', 14, 299, [0, 1], [30, 30], 'a393f56a'],
  ['royale-siamese-4p', 'random', 15, 614, [], [0, -100, 0, 0], '72e5f0ce'],
  ['royale-siamese-4p', 'random', 16, 724, [], [0, 0, -100, 0], '31445cba'],
  ['royale-siamese-4p', 'greedy', 17, 924, [0, 3, 2], [50, 0, 85, 75], 'a6e9adf9'],
];

/** FNV-1a over the text, continuing from h. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h;
}

describe('pinned games', () => {
  const cc = loadCard();
  it.each(PINNED)('%s, %s bots, seed %i: the same actions, winners and scores', (ruleset, bot, seed, actions, winners, scores, hash) => {
    const rules = RULESETS[ruleset];
    const agents = Array.from({ length: rules.players }, () => makeAgent(bot, cc, rules));
    const state = newGame(rules, cc, seed);
    let h = 0x811c9dc5, n = 0;
    playOut(state, agents, botRng(seed), (a) => { h = fnv(h, actionLine(++n, a)); });
    expect({ actions: n, winners: state.result!.winners, scores: state.result!.scores, hash: h.toString(16) }).toEqual({ actions, winners, scores, hash });
  });
});
