import { describe, expect, it } from 'vitest';
import { addGame, matchSeating, rollForEast, roundTables, standings } from '../../engine/mah-jongg/match.js';

describe('a match and the tournament, as books', () => {
  // teaching guide 7.2: "The next 'dealer' is the player to the right of the previous dealer";
  // seat s + 1 sits to the right of seat s
  it("match - the player at seat 1 (East's right) is East of the next game", () => {
    expect([0, 1, 2, 3, 4].map((g) => matchSeating(4, g))).toEqual([
      [0, 1, 2, 3],
      [1, 2, 3, 0],
      [2, 3, 0, 1],
      [3, 0, 1, 2],
      [0, 1, 2, 3],
    ]);
    expect(matchSeating(3, 1)).toEqual([1, 2, 0]);
    expect(() => matchSeating(1, 0)).toThrow(/a match of 1 players/);
  });

  it("match - a game's scores by seat go to the players sitting there", () => {
    expect(addGame([5, 0, 0, 0], [2, 3, 0, 1], [30, -10, 0, 0])).toEqual([5, 0, 30, -10]);
  });

  // tournament 20: A (East) up 1 table, B down 1, C up 2, D down 2
  it('tournament - after each round A goes up 1 table, B down 1, C up 2, D down 2, keeping the letter', () => {
    const r0 = roundTables(5, 0),
      r1 = roundTables(5, 1),
      r2 = roundTables(5, 2);
    expect(r0[0]).toEqual([0, 1, 2, 3]);
    r0.forEach((row, t) => [1, -1, 2, -2].forEach((move, k) => expect(r1[(t + move + 5) % 5][k]).toBe(row[k])));
    r1.forEach((row, t) => [1, -1, 2, -2].forEach((move, k) => expect(r2[(t + move + 5) % 5][k]).toBe(row[k])));
    // every player is seated once a round
    for (const r of [r0, r1, r2]) expect(r.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // with 5 tables, A and B players meet new tables each round
    expect(r1[1][0]).toBe(0);
    expect(r1[4][1]).toBe(1);
  });

  it('tournament - standings rank the totals highest first, a tie keeping the lower player first', () => {
    expect(standings([10, 40, 10, -5], [8, 8, 8, 8]).map((s) => s.player)).toEqual([1, 0, 2, 3]);
  });

  // tournament 3.1: tables of three; their empty D seat moves down 2 tables with the D seats
  it('tournament - 10 players at 3 tables leave two D seats empty; every table keeps 3 or 4 players', () => {
    for (let round = 0; round < 4; round++) {
      const r = roundTables(3, round, 10);
      expect(
        r
          .flat()
          .filter((p) => p >= 0)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 10 }, (_, i) => i));
      expect(r.every((row) => row.slice(0, 3).every((p) => p >= 0))).toBe(true);
      expect(r.filter((row) => row[3] < 0)).toHaveLength(2);
    }
    expect(() => roundTables(3, 0, 8)).toThrow(/8 players cannot sit at 3 tables/);
  });

  // tournament 3.1: "each player at the table will roll the dice once again to determine who is EAST"
  it('tournament - East of the fourth game at a table of three is rolled: any of the three, the same for the same seed', () => {
    const easts = new Set(Array.from({ length: 60 }, (_, seed) => rollForEast(seed, 3)));
    expect([...easts].sort()).toEqual([0, 1, 2]);
    expect(rollForEast(7, 3)).toBe(rollForEast(7, 3));
  });
});
