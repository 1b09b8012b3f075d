import { describe, expect, it } from 'vitest';
import { botRng, makeBot } from '../../agents/bots.js';
import { playOut } from '../../agents/table.js';
import type { GameSpec } from '../../engine/games.js';
import { TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import type { GameState } from '../../engine/mah-jongg/state.js';
import { loadGame } from '../../engine/registry.js';
import { apply, MAX_PLAYERS, replay, type Change } from '../../engine/tournament/event.js';
import { resultOfGame, seatsForGame } from '../../engine/tournament/online.js';
import { checkResult, scoreResult, seatsOf } from '../../engine/tournament/score-card.js';
import { cc } from './game-helpers.js';

/** Online events (issue 47): who sits where for each game at a Tilemate table, and a finished game scored as a card entry. */

describe('an event game at a Tilemate table', () => {
  it('passes East with each game (rules 3), and rolls again for the fourth at a table of three (rules 3.1)', () => {
    expect([1, 2, 3, 4].map((g) => seatsForGame(seatsOf(4), g, 0))).toEqual([
      ['A', 'D', 'C', 'B'],
      ['D', 'C', 'B', 'A'],
      ['C', 'B', 'A', 'D'],
      ['B', 'A', 'D', 'C'],
    ]);
    expect([1, 2, 3].map((g) => seatsForGame(seatsOf(3), g, 0))).toEqual([
      ['A', 'C', 'B'],
      ['C', 'B', 'A'],
      ['B', 'A', 'C'],
    ]);
    expect(new Set([0, 1, 2].map((roll) => seatsForGame(seatsOf(3), 4, roll)[0]))).toEqual(new Set(['A', 'B', 'C']));
    expect(() => seatsForGame(['A', 'B'], 1, 0)).toThrow(/table of 2/);
    // a table of three whose empty seat is North's (a withdrawal): play goes East, South, West
    expect([1, 2, 3].map((g) => seatsForGame(['A', 'C', 'D'], g, 0))).toEqual([
      ['A', 'D', 'C'],
      ['D', 'C', 'A'],
      ['C', 'A', 'D'],
    ]);
  });

  it("enters a finished game as the card entry that scores each seat exactly as the engine scored it (four and three at a table, every game's East)", () => {
    const kinds = new Map<string, number>();
    for (const [ruleset, players] of [
      ['nmjl-4p-tournament', 4],
      ['nmjl-3p', 3],
    ] as const) {
      const game = loadGame('mah-jongg', { ruleset, card: { name: cc.card.name, text: cc.card.text } });
      for (let seed = 1; seed <= 40; seed++) {
        const state = game.newGame(seed) as GameSpec['state'];
        const agents = Array.from({ length: players }, (_, s) => makeBot<GameSpec>(game, s % 2 === 0 ? 'medium' : 'easy'));
        playOut(game, state, agents, botRng(seed));
        const outcome = (state as unknown as GameState).result!;
        const seats = seatsForGame(seatsOf(players), (seed % 4) + 1, seed);
        const result = resultOfGame(outcome.outcome, seats);
        checkResult(result, seatsOf(players));
        const scored = scoreResult(result, seatsOf(players), TOURNAMENT);
        for (let i = 0; i < players; i++) expect(scored.get(seats[i])).toBe(outcome.scores[i]);
        const kind = result.winner === null ? 'wall' : result.selfPicked ? 'self-picked' : 'thrown';
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    // the games met each kind of ending
    expect([...kinds.keys()].sort()).toEqual(['self-picked', 'thrown', 'wall']);
  });

  it('scores a game not finished in time zero for everyone (rules 11.4)', () => {
    expect([...scoreResult({ winner: null, incomplete: true }, seatsOf(4), TOURNAMENT).values()]).toEqual([0, 0, 0, 0]);
    expect(() => checkResult({ winner: 'A', value: 25, selfPicked: true, incomplete: true }, seatsOf(4))).toThrow(/not finished in time/);
  });
});

describe('an online event', () => {
  const start: Change[] = [
    { type: 'create', name: 'Online', ruleset: 'nmjl-4p-tournament', roundMinutes: 55, online: { level: 'medium', awayAfter: 60, card: null } },
    ...['Ann', 'Bea', 'Cy', 'Di'].map((name, i): Change => ({ type: 'register', id: `p${i}`, name, code: `CODE${i}` })),
    { type: 'seat', seed: 3, at: 0 },
  ];

  it('takes each game once from its table, on every card at the table, and accepts the round when all four are in', () => {
    const e = replay(start);
    expect(() => apply(e, { type: 'enter', player: 'p0', game: 1, result: { winner: null } })).toThrow(/tables score the games/);
    expect(() => apply(e, { type: 'open-game', table: 1, game: 2, code: 'BBBBBB' })).toThrow(/game 1 at table 1 is not over yet/);
    apply(e, { type: 'open-game', table: 1, game: 1, code: 'AAAAAA' });
    expect(() => apply(e, { type: 'open-game', table: 1, game: 1, code: 'CCCCCC' })).toThrow(/has its table already/);
    expect(() => apply(e, { type: 'accept' })).toThrow(/waits for 4 cards/);
    apply(e, { type: 'played', table: 1, game: 1, result: { winner: 'C', value: 30, thrower: 'A', exposures: 2 } });
    expect(() => apply(e, { type: 'played', table: 1, game: 1, result: { winner: null } })).toThrow(/scored already/);
    for (const g of [2, 3, 4]) apply(e, { type: 'played', table: 1, game: g, result: { winner: null, incomplete: true } });
    const r = e.rounds[0];
    expect(['p0', 'p1', 'p2', 'p3'].map((p) => r.cards.get(p)![0])).toEqual(new Array(4).fill({ winner: 'C', value: 30, thrower: 'A', exposures: 2 }));
    expect(r.verified.size).toBe(4);
    apply(e, { type: 'accept' });
    expect(r.accepted).toBe(true);
    expect(() => apply(replay(start.slice(0, 1).map((c) => ({ ...c, online: undefined }) as Change)), { type: 'open-game', table: 1, game: 1, code: 'AAAAAA' })).toThrow(/real tiles/);
  });
});

describe('an event’s size', () => {
  it('registers at most MAX_PLAYERS players, refused by name after', () => {
    const e = replay([{ type: 'create', name: 'Big', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 }]);
    for (let i = 0; i < MAX_PLAYERS; i++) apply(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}` });
    expect(() => apply(e, { type: 'register', id: 'late', name: 'Late', code: 'LATE' })).toThrow(`an event registers at most ${MAX_PLAYERS} players`);
    expect(e.players.size).toBe(MAX_PLAYERS);
  });
});
