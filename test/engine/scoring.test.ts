import { describe, expect, it } from 'vitest';
import { SIAMESE, SOCIAL, TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import type { ScoringTable } from '../../engine/mah-jongg/rulesets.js';
import { scoreGame } from '../../engine/mah-jongg/scoring.js';
import type { GameOutcome, MahJonggEvent } from '../../engine/mah-jongg/scoring.js';

/** A Mah Jongg by `seat` on a `value`-point line: with jokers, claimed, first, no exposures unless told. */
function mj(seat: number, value: number, more: Partial<MahJonggEvent> = {}): MahJonggEvent {
  return {
    seat,
    value,
    singlesAndPairs: false,
    jokerless: false,
    selfPick: false,
    heavenly: false,
    discarder: null,
    exposuresBefore: 0,
    ordinal: 1,
    simultaneous: false,
    ...more,
  };
}

function game(players: number, mahJonggs: MahJonggEvent[], more: Partial<GameOutcome> = {}): GameOutcome {
  return { players, mahJonggs, wallGame: false, deadHands: new Array<number>(players).fill(0), racks: 1, lowestValue: 25, ...more };
}

/** Siamese: two players, two racks each. */
function siamese(mahJonggs: MahJonggEvent[], more: Partial<GameOutcome> = {}): GameOutcome {
  return game(2, mahJonggs, { racks: 2, ...more });
}

const scores = (table: ScoringTable, outcome: GameOutcome): number[] => scoreGame(table, outcome).scores;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('social scoring (teaching guide part 6)', () => {
  // 25-point hand, discard by seat 2: seat 2 pays 2 x 25 = 50, seats 1 and 3 pay 25 each; winner +100
  it('social scoring - the discarder pays double, every other player pays the card value', () => {
    expect(scores(SOCIAL, game(4, [mj(0, 25, { discarder: 2 })]))).toEqual([100, -25, -50, -25]);
  });

  // 25-point hand, self-picked: seats 1, 2, 3 pay 2 x 25 = 50 each; winner +150
  it('social scoring - a self-picked Mah Jongg is paid double by every player', () => {
    expect(scores(SOCIAL, game(4, [mj(0, 25, { selfPick: true })]))).toEqual([150, -50, -50, -50]);
  });

  // teaching guide 6.2's own example: 25-point hand, self-picked, no jokers: each pays 25 x 2 x 2 = 100 ("1.00"); winner +300
  it('social scoring - a jokerless self-picked 25 hand is paid 100 by each player', () => {
    expect(scores(SOCIAL, game(4, [mj(0, 25, { selfPick: true, jokerless: true })]))).toEqual([300, -100, -100, -100]);
  });

  // 25-point hand, no jokers, discard by seat 2: seat 2 pays 2 x 25 x 2 = 100, seats 1 and 3 pay 25 x 2 = 50; winner +200
  it('social scoring - a jokerless hand doubles every payment', () => {
    const { scores: s, lines } = scoreGame(SOCIAL, game(4, [mj(0, 25, { discarder: 2, jokerless: true })]));
    expect(s).toEqual([200, -50, -100, -50]);
    expect(lines.find((l) => l.seat === 2)?.why).toMatch(/x 2 with no jokers \(teaching guide part 6\.2\)/);
  });

  // 50-point singles-and-pairs hand, no jokers (none could fit), discard by seat 1:
  // no doubling: seat 1 pays 100, seats 2 and 3 pay 50; winner +200
  it('social scoring - a jokerless singles-and-pairs hand is not doubled', () => {
    const { scores: s, lines } = scoreGame(SOCIAL, game(4, [mj(0, 50, { discarder: 1, jokerless: true, singlesAndPairs: true })]));
    expect(s).toEqual([200, -100, -50, -50]);
    expect(lines.find((l) => l.seat === 1)?.why).toMatch(/singles-and-pairs/);
  });

  // 30-point hand by seat 2, discard by seat 0, seat 3 dead: seat 0 pays 60, seat 1 pays 30,
  // dead seat 3 still pays 30; winner +120
  it('social scoring - a dead hand still pays the winner', () => {
    const { scores: s, lines } = scoreGame(SOCIAL, game(4, [mj(2, 30, { discarder: 0 })], { deadHands: [0, 0, 0, 1] }));
    expect(s).toEqual([-60, -30, 120, -30]);
    expect(lines.find((l) => l.seat === 3)?.why).toMatch(/dead hand still pays \(teaching guide part 6\.3\)/);
  });

  // East's dealt hand worth 25 counts as self-picked at a social table: each pays 50; East +150
  it('social scoring - a heavenly hand is paid as self-picked', () => {
    expect(scores(SOCIAL, game(4, [mj(0, 25, { heavenly: true })]))).toEqual([150, -50, -50, -50]);
  });

  // 25-point hand in a three-player game, discard by seat 1: seat 1 pays 50, seat 2 pays 25; winner +75
  it('social scoring - with three players only the two others pay', () => {
    expect(scores(SOCIAL, game(3, [mj(0, 25, { discarder: 1 })]))).toEqual([75, -50, -25]);
  });

  it('social scoring - a wall game pays nobody', () => {
    const { scores: s, lines } = scoreGame(SOCIAL, game(4, [], { wallGame: true, deadHands: [0, 1, 0, 0] }));
    expect(s).toEqual([0, 0, 0, 0]);
    expect(lines).toEqual([]);
  });

  it('social scoring - payments always sum to zero', () => {
    let games = 0;
    for (const selfPick of [false, true])
      for (const jokerless of [false, true])
        for (const singlesAndPairs of [false, true])
          for (const heavenly of [false, true])
            for (const dead of [0, 1])
              for (const players of [3, 4]) {
                const discarder = selfPick || heavenly ? null : 1;
                const deadHands = new Array<number>(players).fill(0);
                deadHands[players - 1] = dead;
                const s = scores(SOCIAL, game(players, [mj(0, 35, { selfPick, jokerless, singlesAndPairs, heavenly, discarder })], { deadHands }));
                expect(sum(s)).toBe(0);
                expect(s[0]).toBeGreaterThan(0);
                games++;
              }
    expect(games).toBe(64);
  });
});

describe('tournament scoring (standardized tournament rules 11)', () => {
  // 25-point hand by seat 1, discard by seat 3: winner 25, discarder by the winner's exposures, others 0
  const penalties: [number, number, string][] = [
    [0, -10, '11.5'],
    [1, -10, '11.5'],
    [2, -20, '11.6'],
    [3, -25, '11.7'],
    [4, -25, '11.7'],
  ];
  for (const [exposures, penalty, rule] of penalties) {
    it(`tournament scoring - the discarder scores ${penalty} when the winner shows ${exposures} exposure${exposures === 1 ? '' : 's'}`, () => {
      const { scores: s, lines } = scoreGame(TOURNAMENT, game(4, [mj(1, 25, { discarder: 3, exposuresBefore: exposures })]));
      expect(s).toEqual([0, 25, 0, penalty]);
      expect(lines.find((l) => l.seat === 3)?.why).toContain(`(tournament ${rule})`);
    });
  }

  it('tournament scoring - the discarder pays -20 when the winner shows two exposures', () => {
    const { lines } = scoreGame(TOURNAMENT, game(4, [mj(1, 25, { discarder: 3, exposuresBefore: 2 })]));
    expect(lines).toContainEqual({ seat: 3, points: -20, why: 'discarder of the winning tile, winner has 2 exposures (tournament 11.6)' });
  });

  // 25-point hand self-picked: 25 + 10 = 35; nobody else scores
  it('tournament scoring - a self-picked Mah Jongg adds 10', () => {
    expect(scores(TOURNAMENT, game(4, [mj(0, 25, { selfPick: true })]))).toEqual([35, 0, 0, 0]);
  });

  // 25-point hand, no jokers, discard by seat 2 with one exposure: 25 + 20 = 45; seat 2 -10
  it('tournament scoring - a jokerless Mah Jongg adds 20', () => {
    expect(scores(TOURNAMENT, game(4, [mj(0, 25, { jokerless: true, discarder: 2, exposuresBefore: 1 })]))).toEqual([45, 0, -10, 0]);
  });

  // 30-point hand, self-picked, no jokers: 30 + 10 + 20 = 60
  it('tournament scoring - self-picked and jokerless adds both bonuses', () => {
    expect(scores(TOURNAMENT, game(4, [mj(2, 30, { selfPick: true, jokerless: true })]))).toEqual([0, 0, 60, 0]);
  });

  // 50-point singles-and-pairs hand, self-picked, no jokers: 50 + 10 = 60, no +20
  it('tournament scoring - no jokerless bonus on a singles-and-pairs hand', () => {
    const { scores: s, lines } = scoreGame(TOURNAMENT, game(4, [mj(0, 50, { selfPick: true, jokerless: true, singlesAndPairs: true })]));
    expect(s).toEqual([60, 0, 0, 0]);
    expect(lines).toContainEqual({ seat: 0, points: 0, why: 'no jokerless bonus on a singles-and-pairs hand (tournament 11.2)' });
  });

  // East's dealt 25-point hand: 25, no +10 for self-pick; with no jokers 25 + 20 = 45
  it('tournament scoring - a heavenly hand gets no self-pick bonus', () => {
    const { scores: s, lines } = scoreGame(TOURNAMENT, game(4, [mj(0, 25, { heavenly: true })]));
    expect(s).toEqual([25, 0, 0, 0]);
    expect(lines.some((l) => /tournament 4\.4, 11\.10/.test(l.why))).toBe(true);
    expect(scores(TOURNAMENT, game(4, [mj(0, 25, { heavenly: true, selfPick: true, jokerless: true })]))).toEqual([45, 0, 0, 0]);
  });

  // wall game, seat 2 dead: live seats +10 each, seat 2 -10
  it('tournament scoring - a wall game gives +10 to each live player and -10 to a dead one', () => {
    const { scores: s, lines } = scoreGame(TOURNAMENT, game(4, [], { wallGame: true, deadHands: [0, 0, 1, 0] }));
    expect(s).toEqual([10, 10, -10, 10]);
    expect(lines.find((l) => l.seat === 2)?.why).toBe('wall game, dead hand (tournament 11.4, 11.8)');
  });

  // 25-point hand by seat 0 self-picked; seat 1 dead scores zero (no wall-game points): [35, 0, 0, 0]
  it('tournament scoring - a dead player scores zero when another player wins', () => {
    expect(scores(TOURNAMENT, game(4, [mj(0, 25, { selfPick: true })], { deadHands: [0, 1, 0, 0] }))).toEqual([35, 0, 0, 0]);
  });

  // three players, 30-point hand by seat 2 claimed from seat 0 with 3 exposures: +30, seat 0 -25
  it('tournament scoring - a table of three scores the same way', () => {
    expect(scores(TOURNAMENT, game(3, [mj(2, 30, { discarder: 0, exposuresBefore: 3 })]))).toEqual([-25, 0, 30]);
  });

  // 11.4: a game not finished in time scores zero for everyone
  it('tournament scoring - an incomplete game scores zero', () => {
    expect(scores(TOURNAMENT, game(4, []))).toEqual([0, 0, 0, 0]);
  });
});

describe('Siamese scoring (Siamese rules 12, 17)', () => {
  // first Mah Jongg, 25 points, claimed from seat 1: +25; no penalty for the discarder (17B reminder)
  it('Siamese scoring - a first Mah Jongg scores its value and its discarder is not penalised', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { discarder: 1, exposuresBefore: 3 })]))).toEqual([25, 0]);
  });

  // first Mah Jongg, 25 points, self-picked: still 25 (17B: regardless if self-picked)
  it('Siamese scoring - a self-picked first Mah Jongg earns no bonus', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { selfPick: true })]))).toEqual([25, 0]);
  });

  // jokerless first Mah Jongg, 30 points: 30 x 2 = 60; jokerless singles-and-pairs 50: not doubled, 50
  it('Siamese scoring - a jokerless first Mah Jongg is doubled, except singles and pairs', () => {
    expect(scores(SIAMESE, siamese([mj(1, 30, { jokerless: true, selfPick: true })]))).toEqual([0, 60]);
    expect(scores(SIAMESE, siamese([mj(1, 50, { jokerless: true, singlesAndPairs: true, selfPick: true })]))).toEqual([0, 50]);
  });

  // seat 0: first 25 self-picked, then second 30 claimed from seat 1: 25 + 30 x 2 = 85; seat 1 -25
  it('Siamese scoring - a second Mah Jongg is doubled and its discarder scores -25', () => {
    const { scores: s, lines } = scoreGame(SIAMESE, siamese([mj(0, 25, { selfPick: true }), mj(0, 30, { discarder: 1, ordinal: 2 })]));
    expect(s).toEqual([85, -25]);
    expect(lines).toContainEqual({ seat: 1, points: -25, why: "discarded the tile claimed for seat 0's second Mah Jongg (Siamese 17E)" });
  });

  // second Mah Jongg self-picked: 25 + 30 x 2 = 85, doubled regardless; nobody discarded, so no -25
  it('Siamese scoring - a self-picked second Mah Jongg is doubled too', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { selfPick: true }), mj(0, 30, { selfPick: true, ordinal: 2 })]))).toEqual([85, 0]);
  });

  // first 30 with jokers, then jokerless second 25 claimed from seat 0: 30 + 25 x 2 x 2 = 130; seat 0 -25
  it('Siamese scoring - a jokerless second Mah Jongg is doubled twice', () => {
    expect(scores(SIAMESE, siamese([mj(1, 30, { discarder: 0 }), mj(1, 25, { discarder: 0, ordinal: 2, jokerless: true })]))).toEqual([-25, 130]);
  });

  // seat 0 first 25 (self-picked); seat 1 first 30 from seat 0's discard (no penalty); seat 0 second 35
  // from seat 1's discard: seat 0 25 + 70 = 95, seat 1 30 - 25 = 5
  it('Siamese scoring - both players can score, and only the second Mah Jongg costs its discarder', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { selfPick: true }), mj(1, 30, { discarder: 0 }), mj(0, 35, { discarder: 1, ordinal: 2 })]))).toEqual([95, 5]);
  });

  // two at once, 25 and 30, tile claimed from seat 1 into the first: each doubled once (not x4):
  // 50 + 60 = 110; seat 1 -25 once (17F)
  it('Siamese scoring - two Mah Jonggs declared together are each doubled once and cost the discarder -25', () => {
    const { scores: s, lines } = scoreGame(SIAMESE, siamese([mj(0, 25, { discarder: 1, simultaneous: true }), mj(0, 30, { ordinal: 2, simultaneous: true })]));
    expect(s).toEqual([110, -25]);
    expect(lines.filter((l) => l.seat === 1)).toHaveLength(1);
    expect(lines.find((l) => l.seat === 1)?.why).toMatch(/Siamese 17E-F/);
  });

  // two at once, both naming the discarder, the 30 jokerless: 25 x 2 + 30 x 2 x 2 = 170; seat 1 -25 once
  it('Siamese scoring - a simultaneous pair is one turn, so its discarder is penalised once', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { discarder: 1, simultaneous: true }), mj(0, 30, { discarder: 1, ordinal: 2, simultaneous: true, jokerless: true })]))).toEqual([170, -25]);
  });

  // two at once, self-picked, 25 and 40: 50 + 80 = 130; no discarder
  it('Siamese scoring - two self-picked Mah Jonggs declared together cost the opponent nothing', () => {
    expect(scores(SIAMESE, siamese([mj(1, 25, { selfPick: true, simultaneous: true }), mj(1, 40, { selfPick: true, ordinal: 2, simultaneous: true })]))).toEqual([0, 130]);
  });

  // wall game: +10 each, a single dead rack changes nothing
  it('Siamese scoring - a wall game gives each player +10', () => {
    expect(scores(SIAMESE, siamese([], { wallGame: true }))).toEqual([10, 10]);
    expect(scores(SIAMESE, siamese([], { wallGame: true, deadHands: [1, 0] }))).toEqual([10, 10]);
  });

  // seat 0 exposed a 30 Mah Jongg (+30); seat 1 dead on both hands: -4 x 30 = -120
  it("Siamese scoring - dead on both hands scores -4 times the opponent's Mah Jongg", () => {
    const { scores: s, lines } = scoreGame(SIAMESE, siamese([mj(0, 30, { selfPick: true })], { deadHands: [0, 2] }));
    expect(s).toEqual([30, -120]);
    expect(lines).toContainEqual({ seat: 1, points: -120, why: "dead on both hands: -4 x 30, seat 0's Mah Jongg (Siamese 12)" });
  });

  // seat 0 has 25 and a self-picked second 40 (25 + 80 = 105); seat 1 dead on both: -4 x the larger, 40 = -160
  it("Siamese scoring - dead on both hands counts the opponent's larger Mah Jongg", () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { selfPick: true }), mj(0, 40, { selfPick: true, ordinal: 2 })], { deadHands: [0, 2] }))).toEqual([105, -160]);
  });

  // no Mah Jongg exposed, seat 0 dead on both, lowest value on the card 25: -4 x 25 = -100
  it('Siamese scoring - dead on both hands with no opposing Mah Jongg scores -4 times the lowest value', () => {
    expect(scores(SIAMESE, siamese([], { deadHands: [2, 0], lowestValue: 25 }))).toEqual([-100, 0]);
  });

  // seat 1 exposed a 25 Mah Jongg, then was found dead on both hands (18B): its 25 is not paid,
  // -4 x 30 for seat 0's exposed 30; seat 0 +30
  it("Siamese scoring - a Mah Jongg is not paid once both of its owner's hands are dead", () => {
    expect(scores(SIAMESE, siamese([mj(1, 25, { selfPick: true }), mj(0, 30, { selfPick: true })], { deadHands: [0, 2] }))).toEqual([30, -120]);
  });

  // seat 1 has one dead hand and seat 0 a 25 Mah Jongg: one dead hand costs nothing (rule 13)
  it('Siamese scoring - one dead hand is no penalty', () => {
    expect(scores(SIAMESE, siamese([mj(0, 25, { selfPick: true })], { deadHands: [0, 1] }))).toEqual([25, 0]);
  });
});

describe('scoring reads the table, never its name', () => {
  it('scoring - a renamed table scores the same', () => {
    const outcome = game(4, [mj(1, 25, { discarder: 3, exposuresBefore: 2, jokerless: true })]);
    expect(scores({ ...TOURNAMENT, name: 'social' }, outcome)).toEqual(scores(TOURNAMENT, outcome));
    expect(scores({ ...SOCIAL, name: 'tournament' }, outcome)).toEqual(scores(SOCIAL, outcome));
  });

  it('scoring - every line names the rule it applies', () => {
    const outcomes: [ScoringTable, GameOutcome][] = [
      [SOCIAL, game(4, [mj(0, 25, { discarder: 2, jokerless: true, singlesAndPairs: true })], { deadHands: [0, 0, 0, 1] })],
      [TOURNAMENT, game(4, [mj(0, 25, { heavenly: true, jokerless: true, singlesAndPairs: true })])],
      [TOURNAMENT, game(4, [mj(0, 25, { discarder: 1, exposuresBefore: 3, jokerless: true })])],
      [TOURNAMENT, game(4, [], { wallGame: true, deadHands: [1, 0, 0, 0] })],
      [SIAMESE, siamese([mj(0, 25, { discarder: 1, simultaneous: true }), mj(0, 30, { ordinal: 2, simultaneous: true, jokerless: true })])],
      [SIAMESE, siamese([mj(0, 25, { selfPick: true })], { deadHands: [0, 2] })],
      [SIAMESE, siamese([], { wallGame: true })],
    ];
    for (const [table, outcome] of outcomes) {
      const { scores: s, lines } = scoreGame(table, outcome);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.why).toMatch(/\((teaching guide part|tournament|Siamese) \d/);
      // the lines add up to the scores
      const fromLines = new Array<number>(outcome.players).fill(0);
      for (const line of lines) fromLines[line.seat] += line.points;
      expect(fromLines).toEqual(s);
    }
  });

  it('scoring - a malformed outcome is a rule violation', () => {
    expect(() => scoreGame(TOURNAMENT, game(4, [mj(0, 25, { selfPick: true })], { wallGame: true }))).toThrow(/rule violation: a wall game/);
    expect(() => scoreGame(TOURNAMENT, game(4, [mj(0, 25, { discarder: 0 })]))).toThrow(/rule violation/);
    expect(() => scoreGame(TOURNAMENT, game(4, [mj(0, 25)]))).toThrow(/names no discarder/);
    expect(() => scoreGame(SIAMESE, siamese([mj(0, 25, { selfPick: true, simultaneous: true })]))).toThrow(/rule violation/);
    expect(() => scoreGame(TOURNAMENT, game(4, [], { deadHands: [0, 0, 0] }))).toThrow(/rule violation/);
  });
});
