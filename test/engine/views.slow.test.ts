import { describe, expect, it } from 'vitest';
import type { Agent, Turn } from '../../agents/agent.js';
import { makeDominoAgent } from '../../agents/domino/levels.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { apply as applyDomino, legalActions as dominoActions, newRound, sharedView as sharedDominoView, view as dominoView, type DominoState, type DominoView } from '../../engine/domino/game.js';
import type { MexicanTrainSpec } from '../../engine/domino/mexican-train.js';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { apply, legalActions, newGame, nextToAct, sharedView, view, type GameState, type SeatView } from '../../engine/mah-jongg/game.js';
import { nextInt, seedRng, type RngState } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { cc } from './game-helpers.js';
import { scribble, snapshot } from './view-scribble.js';

/**
 * A view given to a bot or the server cannot change the game: its lists and objects are the
 * seat's own copies. Self-play may take the shared view instead (sharedView: the game's own
 * arrays, read-only by type), which must lead every bot to the same decisions. Here over whole
 * games: two random games of every ruleset scribbled over at every step, and ten bot games
 * played twice (Monte Carlo and hard bots among them). Slow: seconds each, most of a minute on a
 * busy machine; a declared Mah Jongg and Mexican Train's views are test/engine/views.test.ts (unit).
 */

/** Seeded random play, with a bot that scribbles over its view of every seat at every step. */
function playScribbling(s: GameState, seed: number, seen: Map<string, number>): void {
  const rng = seedRng(seed);
  while (s.phase.kind !== 'ended') {
    for (let seat = 0; seat < s.rules.players; seat++) {
      const before = snapshot(s);
      scribble(view(s, seat), seen);
      expect(snapshot(s)).toBe(before);
    }
    const legal = legalActions(s, nextToAct(s));
    apply(s, legal[nextInt(rng, legal.length)]);
  }
  const before = snapshot(s);
  for (let seat = 0; seat < s.rules.players; seat++) scribble(view(s, seat), seen);
  expect(snapshot(s)).toBe(before);
}

describe('views cannot change the game', () => {
  it.each(Object.keys(RULESETS))('%s - a bot that writes into every list of its view (rack, exposures, discards, dead racks, dice, tile set, result) leaves the game as it was', (name) => {
    const seen = new Map<string, number>();
    for (let g = 0; g < 2; g++) playScribbling(newGame(RULESETS[name], cc, 40 + g), g, seen);
    // the views written into held the table's lists, not only empty ones
    for (const list of ['.concealed', '.discards[]', '.exposures[]', '.dead[]', '.dice', '.copies', '.result.scores']) expect(seen.get(list) ?? 0, list).toBeGreaterThan(0);
  });
});

/** A game's actions, each seat's bot deciding from the view `see` gives it. */
function botGame(s: GameState, agents: readonly Agent[], rng: RngState, see: (s: GameState, seat: number) => SeatView): string[] {
  const out: string[] = [];
  while (s.phase.kind !== 'ended') {
    const seat = nextToAct(s);
    const turn: Turn = { seat, phase: s.phase.kind, view: () => see(s, seat), legal: () => legalActions(s, seat), rng };
    const a = agents[seat].act(turn);
    out.push(JSON.stringify(a));
    apply(s, a);
  }
  return out;
}

function dominoBotGame(s: DominoState, agents: readonly Agent<MexicanTrainSpec>[], rng: RngState, see: (s: DominoState, seat: number) => DominoView): string[] {
  const out: string[] = [];
  while (s.phase !== 'ended') {
    const seat = s.turn;
    const a = agents[seat].act({ seat, phase: s.phase, view: () => see(s, seat), legal: () => dominoActions(s, seat), rng });
    out.push(JSON.stringify(a));
    applyDomino(s, a);
  }
  return out;
}

describe('the shared view of self-play', () => {
  const games: [ruleset: string, bots: string[], seed: number][] = [
    ['nmjl-4p', ['random', 'greedy', 'medium', 'strong'], 1],
    ['nmjl-4p-tournament', ['medium', 'medium', 'easy', 'greedy'], 2],
    ['nmjl-3p-courtesy', ['greedy', 'medium', 'random'], 3],
    ['siamese-2p', ['medium', 'greedy'], 4],
    ['royale-siamese-4p', ['greedy', 'medium', 'greedy', 'medium'], 5],
    ['nmjl-4p', ['montecarlo', 'medium', 'medium', 'medium'], 6],
    ['nmjl-4p', ['hard', 'medium', 'medium', 'medium'], 7],
  ];
  it.each(games)('%s, %j, seed %i: bots deciding from shared views take the same actions as from their own copies', (ruleset, bots, seed) => {
    const rules = RULESETS[ruleset];
    const play = (see: (s: GameState, seat: number) => SeatView): string[] =>
      botGame(
        newGame(rules, cc, seed),
        bots.map((b) => makeAgent(b, cc, rules)),
        seedRng(seed),
        see,
      );
    const copied = play(view);
    expect(copied.length).toBeGreaterThan(50);
    expect(play(sharedView)).toEqual(copied);
  });

  it.each([
    ['sun-lakes', 'greedy'],
    ['district', 'greedy'],
    ['sun-lakes', 'montecarlo'],
  ])('mexican train %s, %s bots: the same actions from shared views as from copies', (ruleset, bot) => {
    const play = (see: (s: DominoState, seat: number) => DominoView): string[] =>
      dominoBotGame(
        newRound(DOMINO_RULESETS[ruleset], 4, 9),
        [0, 1, 2, 3].map(() => makeDominoAgent(bot, ruleset)),
        seedRng(9),
        see,
      );
    const copied = play(dominoView);
    expect(copied.length).toBeGreaterThan(20);
    expect(play(sharedDominoView)).toEqual(copied);
  });
});
