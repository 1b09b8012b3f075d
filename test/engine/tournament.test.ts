import { describe, expect, it } from 'vitest';
import { TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import { checkResult, sameResult, scoreResult, seatsOf, type GameResult } from '../../engine/tournament/score-card.js';
import { collectorOf, nextRound, rotated, SEATS, seatAtRandom, tableCount, verifierOf, type Seat, type Seating } from '../../engine/tournament/seating.js';
import { standings, type AcceptedRound } from '../../engine/tournament/standings.js';

/** A Mah Jongg event's bookkeeping (issue 47): seating, the rotation, score cards and standings. */

const names = (n: number) => Array.from({ length: n }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);

/** Each table of a seating holds one player per letter, and `counts` players in all. */
function tablesOf(s: Seating): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const p of s.values()) out.set(p.table, [...(out.get(p.table) ?? []), p.seat]);
  return out;
}

describe('tournament seating', () => {
  it('seats everyone four to a table, three where the count needs it, and refuses counts no tables hold', () => {
    expect(tableCount(52)).toEqual({ tables: 13, ofThree: 0 });
    expect(tableCount(51)).toEqual({ tables: 13, ofThree: 1 });
    expect(tableCount(7)).toEqual({ tables: 2, ofThree: 1 });
    expect(tableCount(9)).toEqual({ tables: 3, ofThree: 3 });
    for (const n of [1, 2, 5]) expect(() => tableCount(n)).toThrow(/cannot sit at tables of four and three/);
  });

  it('draws the first round at random from its seed: every seat once, the tables of three without South, hosts East at their tables', () => {
    const players = names(51);
    const a = seatAtRandom(players, 7);
    expect(seatAtRandom(players, 7)).toEqual(a);
    expect(seatAtRandom(players, 8)).not.toEqual(a);
    expect(new Set([...a.values()].map((p) => `${p.table}${p.seat}`)).size).toBe(51);
    const tables = tablesOf(a);
    expect(tables.size).toBe(13);
    expect([...tables.values()].filter((s) => s.length === 3).map((s) => s.includes('D'))).toEqual([false]);
    const hosted = seatAtRandom(players, 7, ['P05', 'P09']);
    expect([hosted.get('P05'), hosted.get('P09')]).toEqual([
      { table: 1, seat: 'A' },
      { table: 2, seat: 'A' },
    ]);
    expect(() => seatAtRandom([...players, 'P01'], 7)).toThrow(/registered twice/);
  });

  it('moves every player as the rules say after each round (A up one table, B down one, C up two, D down two), one of each letter at every table', () => {
    // standardized tournament rules 20, written out here for 13 tables: up is the next table number, round from the last to the first
    const expected = (table: number, seat: string) => ({ A: table % 13, B: (table + 11) % 13, C: (table + 1) % 13, D: (table + 10) % 13 })[seat]! + 1;
    let seating = seatAtRandom(names(52), 3);
    for (let round = 2; round <= 4; round++) {
      const next = nextRound(seating, names(52), round);
      expect(next.rotated).toBe(true);
      for (const [id, was] of seating) expect({ id, round, ...next.seating.get(id)! }).toEqual({ id, round, table: expected(was.table, was.seat), seat: was.seat });
      for (const seats of tablesOf(next.seating).values()) expect([...seats].sort()).toEqual([...SEATS]);
      seating = next.seating;
    }
    expect(rotated({ table: 13, seat: 'A' }, 13)).toEqual({ table: 1, seat: 'A' });
    expect(rotated({ table: 1, seat: 'D' }, 13)).toEqual({ table: 12, seat: 'D' });
  });

  it('a withdrawal leaves a seat a late arrival takes; a room the changes unbalance is seated afresh, and says so', () => {
    const first = seatAtRandom(names(52), 11);
    const gone = 'P07';
    const stay = names(52).filter((p) => p !== gone);
    const withLate = [...stay, 'Late'];
    const next = nextRound(first, withLate, 2);
    expect(next.rotated).toBe(true);
    // the late arrival sits where the one who withdrew would have been sent
    expect(next.seating.get('Late')).toEqual(rotated(first.get(gone)!, 13));
    // two gone from one table: a table of two would be left, so the round is drawn again
    const table = first.get('P01')!.table;
    const mates = [...first].filter(([, p]) => p.table === table).map(([id]) => id);
    const twoGone = names(52).filter((p) => p !== mates[0] && p !== mates[1]);
    const rotatedOnce = nextRound(first, names(52), 2).seating;
    const after = nextRound(rotatedOnce, twoGone, 3);
    const counts = [...tablesOf(after.seating).values()].map((s) => s.length).sort();
    expect(counts.filter((c) => c === 3)).toHaveLength(2);
    expect(counts.every((c) => c >= 3)).toBe(true);
  });

  it('a withdrawal from any of the four seats keeps rule 20: everyone who stays moves as the rotation sends her, and the table of three has that seat empty (rules 3.1)', () => {
    for (const size of [8, 16, 52]) {
      const first = seatAtRandom(names(size), 5);
      const tables = Math.ceil(size / 4);
      for (const letter of ['A', 'B', 'C', 'D'] as const) {
        const gone = [...first].find(([, p]) => p.seat === letter)![0];
        const next = nextRound(
          first,
          names(size).filter((p) => p !== gone),
          2,
        );
        expect(next.rotated, `${size} players, ${letter} gone`).toBe(true);
        for (const [id, place] of next.seating) expect(place, `${size}: ${id}`).toEqual(rotated(first.get(id)!, tables));
        const threes = [...tablesOf(next.seating).values()].filter((seats) => seats.length === 3);
        expect(threes).toHaveLength(1);
        expect(
          SEATS.filter((s) => !threes[0].includes(s)),
          `${size} players, ${letter} gone`,
        ).toEqual([letter]);
      }
    }
  });

  it('a table of three scores, checks and collects with the seats it has, whichever is empty', () => {
    // South (D) empty, as the first round leaves it, or North (B) after a withdrawal
    expect(Object.fromEntries(scoreResult({ winner: 'D', value: 25, thrower: 'A' }, ['A', 'C', 'D'], TOURNAMENT))).toEqual({ A: -10, C: 0, D: 25 });
    expect(['A', 'C', 'D'].map((s) => verifierOf(s as Seat, ['A', 'C', 'D']))).toEqual(['C', 'A', 'A']);
    expect(['B', 'C', 'D'].map((s) => verifierOf(s as Seat, ['B', 'C', 'D']))).toEqual(['D', 'B', 'B']);
    expect(collectorOf(1, ['B', 'C', 'D'])).toBe('B');
    const round: AcceptedRound = {
      round: 2,
      seating: new Map([
        ['Ann', { table: 1, seat: 'B' }],
        ['Bea', { table: 1, seat: 'C' }],
        ['Cy', { table: 1, seat: 'D' }],
      ]),
      games: new Map([[1, [{ winner: 'B', value: 30, selfPicked: true }, { winner: 'D', value: 25, thrower: 'C', exposures: 2 }, { winner: null }, { winner: null }]]]),
    };
    const rows = standings(['Ann', 'Bea', 'Cy'], [round], [], TOURNAMENT);
    expect(Object.fromEntries(rows.map((r) => [r.player, r.total]))).toEqual({ Ann: 40 + 20, Bea: -20 + 20, Cy: 25 + 20 });
  });

  it('East and West check each other’s cards, North and South each other’s; the collector goes round the letters', () => {
    expect(SEATS.map((s) => verifierOf(s, SEATS))).toEqual(['C', 'D', 'A', 'B']);
    expect(verifierOf('B', seatsOf(3))).toBe('A');
    expect([1, 2, 3, 4, 5].map((r) => collectorOf(r, SEATS))).toEqual(['A', 'B', 'C', 'D', 'A']);
    expect(collectorOf(4, seatsOf(3))).toBe('A');
  });
});

describe('score cards', () => {
  const four = seatsOf(4);
  it('scores a game as the tournament rules do: the value, the self-pick and jokerless bonuses, the thrower’s penalty by exposures, a wall game', () => {
    // rules 11: the winner scores the value; 11.5-11.7: the thrower -10 (0-1 exposures), -20 (2), -25 (3)
    expect(Object.fromEntries(scoreResult({ winner: 'B', value: 25, thrower: 'D', exposures: 1 }, four, TOURNAMENT))).toEqual({ A: 0, B: 25, C: 0, D: -10 });
    expect(scoreResult({ winner: 'B', value: 25, thrower: 'D', exposures: 2 }, four, TOURNAMENT).get('D')).toBe(-20);
    expect(scoreResult({ winner: 'B', value: 25, thrower: 'D', exposures: 3 }, four, TOURNAMENT).get('D')).toBe(-25);
    // 11.1 self-picked +10, 11.2 jokerless +20, none on singles and pairs
    expect(scoreResult({ winner: 'A', value: 30, selfPicked: true, jokerless: true }, four, TOURNAMENT).get('A')).toBe(60);
    expect(scoreResult({ winner: 'A', value: 50, selfPicked: true, jokerless: true, singlesAndPairs: true }, four, TOURNAMENT).get('A')).toBe(60);
    // 11.3, 11.8: a wall game, +10 to each live player, -10 to a dead one
    expect(Object.fromEntries(scoreResult({ winner: null, dead: ['C'] }, four, TOURNAMENT))).toEqual({ A: 10, B: 10, C: -10, D: 10 });
    // a table of three
    expect(Object.fromEntries(scoreResult({ winner: 'C', value: 35, thrower: 'A' }, seatsOf(3), TOURNAMENT))).toEqual({ A: -10, B: 0, C: 35 });
  });

  it('refuses an entry that cannot be, naming what is wrong', () => {
    const bad =
      (r: GameResult, seats = four) =>
      () =>
        checkResult(r, seats);
    expect(bad({ winner: 'B', value: 25 })).toThrow(/the thrower: seat undefined/);
    expect(bad({ winner: 'B', value: 25, thrower: 'B' })).toThrow(/cannot throw her own/);
    expect(bad({ winner: 'D', value: 25, thrower: 'A' }, seatsOf(3))).toThrow(/the winner: seat D is not at this table/);
    expect(bad({ winner: 'B', value: 0, thrower: 'A' })).toThrow(/value must be a whole number/);
    expect(bad({ winner: 'B', value: 25, selfPicked: true, thrower: 'A' })).toThrow(/no thrower/);
    expect(bad({ winner: null, value: 25 })).toThrow(/wall game has no winner/);
    expect(bad({ winner: 'B', value: 25, thrower: 'A', dead: ['B'] })).toThrow(/winner cannot have a dead hand/);
  });

  it('two entries of the same game agree whatever order their dead hands are listed in, and not when a fact differs', () => {
    expect(sameResult({ winner: null, dead: ['A', 'C'] }, { winner: null, dead: ['C', 'A'] })).toBe(true);
    expect(sameResult({ winner: 'B', value: 25, thrower: 'D' }, { winner: 'B', value: 25, thrower: 'D', exposures: 0 })).toBe(true);
    expect(sameResult({ winner: 'B', value: 25, thrower: 'D' }, { winner: 'B', value: 30, thrower: 'D' })).toBe(false);
  });
});

describe('standings', () => {
  it('adds each round’s games and the Director’s adjustments, ranks by total, then Mah Jonggs, then the best game, sharing a place only when all tie', () => {
    const seating: Seating = new Map([
      ['Ann', { table: 1, seat: 'A' }],
      ['Bea', { table: 1, seat: 'B' }],
      ['Cy', { table: 1, seat: 'C' }],
      ['Di', { table: 1, seat: 'D' }],
    ]);
    const round: AcceptedRound = {
      round: 1,
      seating,
      games: new Map([[1, [{ winner: 'A', value: 25, thrower: 'B' }, { winner: 'C', value: 25, thrower: 'B' }, { winner: null }, { winner: 'A', value: 30, selfPicked: true }]]]),
    };
    const rows = standings(['Ann', 'Bea', 'Cy', 'Di'], [round], [{ player: 'Di', round: 1, points: -10, reason: 'late for round 1' }], TOURNAMENT);
    expect(rows.map((r) => [r.player, r.total, r.mahJonggs, r.place])).toEqual([
      ['Ann', 25 + 10 + 40, 2, 1],
      ['Cy', 25 + 10, 1, 2],
      ['Di', 10 - 10, 0, 3],
      ['Bea', -10 - 10 + 10, 0, 4],
    ]);
    // a player registered after the round (a late arrival) did not play it: missed, never 0
    const late = standings(['Ann', 'Bea', 'Cy', 'Di', 'Eve'], [round], [], TOURNAMENT);
    expect(late.find((r) => r.player === 'Eve')!.rounds).toEqual([null]);
    expect(late.find((r) => r.player === 'Ann')!.rounds).toEqual([75]);
    expect(late.find((r) => r.player === 'Eve')!.total).toBe(0);
    // two players with the same total, Mah Jonggs and best game share the place
    const tied = standings(['Ann', 'Bea', 'Cy', 'Di'], [], [], TOURNAMENT);
    expect(tied.map((r) => r.place)).toEqual([1, 1, 1, 1]);
    expect(() => standings(['Ann'], [], [{ player: 'Zed', round: null, points: 5, reason: 'x' }], TOURNAMENT)).toThrow(/Zed, who is not registered/);
  });
});
