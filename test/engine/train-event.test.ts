import { describe, expect, it } from 'vitest';
import { rateEvents, rateTrainEvents, ratingWords } from '../../api/shared/ratings.js';
import { nextInt, seedRng } from '../../engine/rng.js';
import { applyTrain, gameTotals, replayTrain, trainStandings, trainTables, type TrainChange, type TrainEventState } from '../../engine/tournament/train-event.js';

/**
 * The senior games' Mexican Train day (issue 47) as an event's changes: 20 players at tables of
 * four play a qualifying game of 6 hands; the lowest at each table go on to a 6-hand
 * championship; the two lowest totals of the two games added win. One wrong card is caught by
 * the player who checks it. The places equal those counted here from the hands.
 */

describe('a Mexican Train club event', () => {
  it('seats tables as even as can be', () => {
    expect(
      trainTables(
        Array.from({ length: 17 }, (_, i) => `p${i}`),
        4,
        1,
      ).map((t) => t.length),
    ).toEqual([4, 4, 3, 3, 3]);
    expect(trainTables(['a', 'b', 'c', 'd', 'e'], 8, 1).map((t) => t.length)).toEqual([5]);
  });

  it('the senior games day: a qualifying game, the lowest at each table to the championship, the two lowest totals win', () => {
    const changes: TrainChange[] = [];
    const e: TrainEventState = replayTrain([]);
    const make = (c: TrainChange) => {
      applyTrain(e, c);
      changes.push(c);
    };
    make({ type: 'create', game: 'mexican-train', name: 'Senior Games Train', ruleset: 'sun-lakes', tableSize: 4 });
    for (let i = 1; i <= 20; i++) make({ type: 'register', id: `p${i}`, name: `Player ${i}`, code: `C${i}` });
    const rng = seedRng(12);
    const hands = new Map<string, number[]>();
    const play = () => {
      const g = e.games.at(-1)!;
      for (const table of g.tables) {
        const sheet = Array.from({ length: g.hands }, () => {
          const out = nextInt(rng, table.length);
          return table.map((_, s) => (s === out ? 0 : 5 + nextInt(rng, 60)));
        });
        table.forEach((id, s) => hands.set(id, [...(hands.get(id) ?? []), ...sheet.map((h) => h[s])]));
        for (const id of table) sheet.forEach((points, h) => make({ type: 'enter', player: id, hand: h + 1, points }));
        if (g.n === 1 && table === g.tables[0]) {
          // the first table's first player writes hand 2 wrongly; the next player, checking it, catches it
          make({ type: 'enter', player: table[0], hand: 2, points: sheet[1].map((p) => p + 1) });
          expect(() => applyTrain(replayTrain(changes), { type: 'verify', player: table[0], by: table[1] })).toThrow(/hand 2 differs between Player \d+'s card and yours/);
          make({ type: 'enter', player: table[0], hand: 2, points: sheet[1] });
        }
        table.forEach((id, s) => make({ type: 'verify', player: id, by: table[(s + 1) % table.length] }));
      }
      make({ type: 'accept' });
    };
    make({ type: 'seat', seed: 7, at: 0 });
    expect(e.games[0].tables.map((t) => t.length)).toEqual([4, 4, 4, 4, 4]);
    expect(e.games[0].hands).toBe(6);
    play();
    const qualifying = gameTotals(e.games[0]);
    // the lowest at each table goes on
    const lowest = e.games[0].tables.flatMap((t) => t.filter((id) => qualifying.get(id) === Math.min(...t.map((x) => qualifying.get(x)!))));
    make({ type: 'seat', seed: 8, at: 1 });
    expect(e.games[1].championship).toBe(true);
    expect(e.games[1].tables.flat().sort()).toEqual([...lowest].sort());
    play();
    make({ type: 'finish' });
    const { rows, winners } = trainStandings(e);
    // counted here: the championship players by their twelve hands added, lowest first
    const byHands = [...lowest].sort((a, b) => hands.get(a)!.reduce((x, y) => x + y, 0) - hands.get(b)!.reduce((x, y) => x + y, 0));
    expect(winners).toEqual(byHands.slice(0, 2));
    expect(rows.slice(0, lowest.length).map((r) => r.player)).toEqual(byHands);
    for (const r of rows) expect(r.total).toBe(hands.get(r.player)!.reduce((x, y) => x + y, 0));
    expect(trainStandings(replayTrain(changes))).toEqual({ rows, winners });
    expect(() => applyTrain(replayTrain(changes), { type: 'seat', seed: 9, at: 2 })).toThrow(/the event is over/);
  });

  it('refuses what cannot be, naming it', () => {
    const e = replayTrain([{ type: 'create', game: 'mexican-train', name: 'T', ruleset: 'district', tableSize: 4 }]);
    expect(() => replayTrain([{ type: 'create', game: 'mexican-train', name: 'T', ruleset: 'district', tableSize: 9 }])).toThrow(/seats 2 to 8 players/);
    for (let i = 1; i <= 4; i++) applyTrain(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}` });
    applyTrain(e, { type: 'seat', seed: 1, at: 0 });
    const [first] = e.games[0].tables[0];
    expect(() => applyTrain(e, { type: 'enter', player: first, hand: 1, points: [0, 5] })).toThrow(/one whole number from 0 to 400 for each of the 4 players/);
    expect(() => applyTrain(e, { type: 'enter', player: first, hand: 7, points: [0, 5, 5, 5] })).toThrow(/hands 1 to 6/);
    expect(() => applyTrain(e, { type: 'accept' })).toThrow(/waits for 4 cards/);
  });
});

describe('Mexican Train club ratings', () => {
  it('rate each table of each accepted game among the players with accounts, the fewest points first, apart from Mah Jongg’s', () => {
    const e: TrainEventState = replayTrain([{ type: 'create', game: 'mexican-train', name: 'Rated train', ruleset: 'district', tableSize: 4 }]);
    for (let i = 1; i <= 4; i++) applyTrain(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}`, ...(i < 4 ? { account: `acct${i}` } : {}) });
    // each owner accepts (issue 63): an account named is asked, not taken
    for (let i = 1; i <= 3; i++) applyTrain(e, { type: 'consent', player: `p${i}`, account: `acct${i}`, accept: true });
    applyTrain(e, { type: 'seat', seed: 3, at: 0 });
    const g = e.games[0];
    const [table] = g.tables;
    // seat 0 goes out every hand; seat 2 holds the most
    const sheet = Array.from({ length: g.hands }, () => table.map((_, s) => [0, 10, 40, 20][s]));
    for (const id of table) sheet.forEach((points, h) => applyTrain(e, { type: 'enter', player: id, hand: h + 1, points }));
    expect(rateTrainEvents([e]).size).toBe(0);
    table.forEach((id, s) => applyTrain(e, { type: 'verify', player: id, by: table[(s + 1) % table.length] }));
    applyTrain(e, { type: 'accept' });
    const r = rateTrainEvents([e]);
    const account = (seat: number) => e.players.get(table[seat])!.account;
    const rated = [0, 1, 2, 3].filter((s) => account(s) !== undefined);
    expect(r.size).toBe(3);
    const best = rated.reduce((a, b) => ([0, 10, 40, 20][a] < [0, 10, 40, 20][b] ? a : b));
    const worst = rated.reduce((a, b) => ([0, 10, 40, 20][a] > [0, 10, 40, 20][b] ? a : b));
    expect(r.get(account(best)!)!.mu).toBeGreaterThan(25);
    expect(r.get(account(worst)!)!.mu).toBeLessThan(25);
    expect(ratingWords(r.get(account(best)!), 'Mexican Train')).toMatch(
      /^Your Mexican Train club rating is \d+, give or take \d+ \(still a rough guess\), from 1 table at club events; a new player starts at 25\.$/,
    );
    // a Mah Jongg rating knows nothing of it
    expect(rateEvents([]).size).toBe(0);
  });

  it('a wrong card checked at a table would hold it: its player reopens it, changes the hand, and the table is checked and accepted (issue 63)', () => {
    const e = replayTrain([{ type: 'create', game: 'mexican-train', name: 'Ring', ruleset: 'district', tableSize: 4 }]);
    for (let i = 1; i <= 4; i++) applyTrain(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}` });
    applyTrain(e, { type: 'seat', seed: 3, at: 0 });
    const g = e.games[0];
    const table = g.tables[0];
    const right = Array.from({ length: g.hands }, (_, h) => table.map((_, s) => (s === h % table.length ? 0 : 5 + s)));
    const wrong = right.map((h, i) => (i === 0 ? h.map((x) => x + 1) : h));
    // the first player's card is wrong, and her neighbour (who checks it) entered it the same way
    for (const [s, id] of table.entries()) (s <= 1 ? wrong : right).forEach((points, h) => applyTrain(e, { type: 'enter', player: id, hand: h + 1, points }));
    applyTrain(e, { type: 'verify', player: table[0], by: table[1] });
    // the last player's card is checked by the first against hers: refused, and the first cannot change a checked card
    expect(() => applyTrain(e, { type: 'verify', player: table.at(-1)!, by: table[0] })).toThrow(/hand 1 differs/);
    expect(() => applyTrain(e, { type: 'enter', player: table[0], hand: 1, points: right[0] })).toThrow(/reopen it/);
    applyTrain(e, { type: 'reopen', player: table[0] });
    expect(() => applyTrain(e, { type: 'reopen', player: table[0] })).toThrow(/not checked/);
    for (const id of table.slice(0, 2)) applyTrain(e, { type: 'enter', player: id, hand: 1, points: right[0] });
    for (const [s, id] of table.entries()) applyTrain(e, { type: 'verify', player: id, by: table[(s + 1) % table.length] });
    applyTrain(e, { type: 'accept' });
    expect(e.games[0].accepted).toBe(true);
  });
});
