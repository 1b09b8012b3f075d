import type { Agent } from '../../agents/agent.js';
import { GreedyAgent } from '../../agents/mah-jongg/greedy.js';
import { RandomAgent } from '../../agents/mah-jongg/random.js';
import { playOut } from '../../agents/table.js';
import { readCardText } from '../../io/cards.js';
import { newGame, type Action, type GameState } from '../../engine/mah-jongg/game.js';
import { actionLine, endLine, recordHeader } from '../../engine/record.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard } from '../../engine/mah-jongg/compile.js';
import { type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';

/** The records' tests' games (test/engine/record.test.ts, unit; record.slow.test.ts, slow): a seeded game of bots, recorded line by line. */

export const CARD_TEXT = readCardText();
export const cc = compileCard(parseCard(CARD_TEXT));
export const gameOf = (ruleset: string): MahJonggGame => mahJonggGame(loadRuleset(ruleset), cc);

/** A seeded game of one bot at every seat, recorded: its final state, its actions and its record's lines. */
export interface Recorded {
  state: GameState;
  actions: Action[];
  /** The record's lines: header, one per action, end. */
  lines: string[];
}

export function recordGame(ruleset: string, seed: number, bot: 'random' | 'greedy'): Recorded {
  const rules = loadRuleset(ruleset);
  const state = newGame(rules, cc, seed);
  const agents: Agent[] = Array.from({ length: rules.players }, () => (bot === 'greedy' ? new GreedyAgent(cc) : new RandomAgent()));
  const game = gameOf(ruleset);
  const lines = [
    recordHeader(
      game,
      seed,
      agents.map((a) => a.name),
    ),
  ];
  const actions: Action[] = [];
  playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed + 1000), (a) => {
    actions.push(structuredClone(a));
    lines.push(actionLine(game, actions.length, a));
  });
  lines.push(endLine(game, state));
  return { state, actions, lines };
}

export const text = (lines: readonly string[]) => lines.join('\n') + '\n';

/** Everything on the table, per player. */
export const table = (s: GameState) => s.players.map((p) => ({ concealed: p.concealed, exposures: p.exposures, discards: p.discards, dead: p.dead, mahJonggs: p.mahJonggs }));
