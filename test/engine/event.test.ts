import { describe, expect, it } from 'vitest';
import { TOURNAMENT } from '../../engine/mah-jongg/rulesets.js';
import { nextInt, seedRng, type RngState } from '../../engine/rng.js';
import { apply, differences, eventStandings, replay, tableOf, timeLeft, type Change, type EventState } from '../../engine/tournament/event.js';
import type { GameResult } from '../../engine/tournament/score-card.js';
import { rateEvents, ratingWords } from '../../api/shared/ratings.js';
import { rotated, SEATS, type Seat } from '../../engine/tournament/seating.js';

/**
 * A club event (issue 47) as its changes: 52 players at 13 tables for 4 rounds, two wrong score
 * cards caught by their verifiers, a late arrival, a withdrawal and a Director's change; the
 * standings equal the points counted here from the games, by the tournament rules written out.
 */

/** A game at a table of `seats`, drawn from `rng`: a Mah Jongg (on a discard or self-picked, sometimes jokerless) or a wall game. */
function randomGame(rng: RngState, seats: readonly Seat[]): GameResult {
  if (nextInt(rng, 8) === 0) return { winner: null, ...(nextInt(rng, 3) === 0 ? { dead: [seats[nextInt(rng, seats.length)]] } : {}) };
  const winner = seats[nextInt(rng, seats.length)];
  const value = [25, 30, 35, 50][nextInt(rng, 4)];
  const jokerless = nextInt(rng, 6) === 0;
  if (nextInt(rng, 3) === 0) return { winner, value, selfPicked: true, jokerless };
  const others = seats.filter((s) => s !== winner);
  return { winner, value, thrower: others[nextInt(rng, others.length)], exposures: nextInt(rng, 4), jokerless };
}

/** Standardized tournament rules 11, written out: every seat's points for a game. */
function pointsByRule(g: GameResult, seats: readonly Seat[]): Map<Seat, number> {
  const out = new Map<Seat, number>(seats.map((s) => [s, 0]));
  if (g.winner === null) {
    for (const s of seats) out.set(s, g.dead?.includes(s) ? -10 : 10);
    return out;
  }
  out.set(g.winner, g.value! + (g.selfPicked ? 10 : 0) + (g.jokerless && !g.singlesAndPairs ? 20 : 0));
  if (!g.selfPicked) out.set(g.thrower!, (g.exposures ?? 0) >= 3 ? -25 : (g.exposures ?? 0) === 2 ? -20 : -10);
  return out;
}

describe('a club event, as its changes', () => {
  it('52 players, 4 rounds: wrong cards caught, a late arrival, a withdrawal, a Director’s change; standings as the rules count them; the rotation as rule 20 says', () => {
    const changes: Change[] = [];
    const e: EventState = replay([]);
    const make = (c: Change) => {
      apply(e, c);
      changes.push(c);
    };
    const refused = (c: Change, why: RegExp) => {
      const before = JSON.stringify(changes);
      expect(() => apply(replay(changes), c)).toThrow(why);
      expect(JSON.stringify(changes)).toBe(before);
    };
    make({ type: 'create', name: 'Autumn Open', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 });
    for (let i = 1; i <= 52; i++) make({ type: 'register', id: `p${i}`, name: `Player ${i}`, code: `C${i}` });
    refused({ type: 'register', id: 'p99', name: 'player 3', code: 'C99' }, /Player 3 is registered already|player 3 is registered already/);
    const rng = seedRng(2026);
    const points = new Map<string, number>();
    const add = (id: string, p: number) => points.set(id, (points.get(id) ?? 0) + p);
    let wrongCaught = 0;
    for (let round = 1; round <= 4; round++) {
      if (round === 2) {
        // one withdraws after round 1; one arrives late for round 2 (and the Director takes 10 points for it)
        make({ type: 'withdraw', player: 'p7' });
        make({ type: 'register', id: 'late', name: 'Late Lou', code: 'CL' });
        make({ type: 'adjust', player: 'late', points: -10, reason: 'not seated when round 2 began' });
        add('late', -10);
      }
      const before = e.rounds.at(-1);
      make({ type: 'seat', seed: 100 + round, at: round * 3_600_000 });
      const r = e.rounds.at(-1)!;
      expect(r.round).toBe(round);
      if (before !== undefined) {
        expect(r.rotated).toBe(true);
        for (const [id, place] of r.seating) {
          const was = before.seating.get(id);
          // rule 20 for everyone who played the round before; the late arrival in the seat left empty
          if (was) expect({ id, place }).toEqual({ id, place: rotated(was, 13) });
          else expect(id).toBe('late');
        }
        expect(r.seating.has('p7')).toBe(false);
      }
      // the clock: 55 minutes, paused for 5
      make({ type: 'clock', action: 'pause', at: round * 3_600_000 + 10 * 60_000 });
      expect(timeLeft(e, r, round * 3_600_000 + 12 * 60_000)).toBe(45 * 60_000);
      make({ type: 'clock', action: 'resume', at: round * 3_600_000 + 15 * 60_000 });
      expect(timeLeft(e, r, round * 3_600_000 + 20 * 60_000)).toBe(40 * 60_000);
      for (let t = 1; t <= 13; t++) {
        const table = tableOf(r, t);
        // a table's seats come in their order, A first, whatever order the room was seated in
        expect([...table.keys()]).toEqual([...table.keys()].sort());
        const seats = SEATS.filter((s) => table.has(s));
        const games = Array.from({ length: 4 }, () => randomGame(rng, seats));
        for (const g of games) for (const [s, p] of pointsByRule(g, seats)) add(table.get(s)!, p);
        for (const id of table.values()) games.forEach((g, i) => make({ type: 'enter', player: id, game: i + 1, result: g }));
        // round 1, tables 1 and 2: East enters game 3 wrongly; West, her verifier, is refused until East corrects it
        if (round === 1 && t <= 2) {
          const east = table.get('A')!;
          make({ type: 'enter', player: east, game: 3, result: games[2].winner === null ? { winner: 'B', value: 25, thrower: 'A' } : { ...games[2], value: games[2].value! + 5 } });
          refused({ type: 'verify', player: east, by: table.get('C')! }, /game 3 differs between/);
          wrongCaught++;
          make({ type: 'enter', player: east, game: 3, result: games[2] });
        }
        refused({ type: 'verify', player: table.get('A')!, by: table.get('B')! }, /checked by .* who sits C/);
        for (const [s, id] of table) make({ type: 'verify', player: id, by: table.get(s === 'A' ? 'C' : s === 'C' ? 'A' : s === 'B' ? 'D' : 'B')! });
      }
      refused({ type: 'enter', player: 'p1', game: 1, result: { winner: null } }, /checked already/);
      make({ type: 'accept' });
      refused({ type: 'accept' }, /no round is waiting/);
    }
    expect(wrongCaught).toBe(2);
    // the Director changes an accepted card: round 2, table 5, game 1 becomes a wall game
    const r2 = e.rounds[1];
    const t5 = tableOf(r2, 5);
    const was = r2.cards.get(t5.get('A')!)![0]!;
    const seats5 = SEATS.filter((s) => t5.has(s));
    for (const [s, p] of pointsByRule(was, seats5)) add(t5.get(s)!, -p);
    for (const [s, p] of pointsByRule({ winner: null }, seats5)) add(t5.get(s)!, p);
    refused({ type: 'correct', round: 2, table: 5, game: 1, result: { winner: null }, reason: ' ' }, /needs the Director's reason/);
    make({ type: 'correct', round: 2, table: 5, game: 1, result: { winner: null }, reason: 'the players agreed at the desk it was a wall game' });
    make({ type: 'finish' });

    const rows = eventStandings(e, TOURNAMENT);
    expect(rows).toHaveLength(53);
    for (const row of rows) expect({ player: row.player, total: row.total }).toEqual({ player: row.player, total: points.get(row.player) ?? 0 });
    expect(rows.map((r) => r.total)).toEqual([...rows.map((r) => r.total)].sort((a, b) => b - a));
    // the same changes give the same event
    expect(eventStandings(replay(changes), TOURNAMENT)).toEqual(rows);
    refused({ type: 'seat', seed: 1, at: 0 }, /the event is over/);
  });

  it('a split table (issue 63): each pair agrees with itself and not with the other; the players reopen and change, or the Director settles the game, and the round is accepted', () => {
    const split = () => {
      const e = replay([{ type: 'create', name: 'Split', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 }]);
      for (let i = 1; i <= 4; i++) apply(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}` });
      apply(e, { type: 'seat', seed: 1, at: 0 });
      const t = tableOf(e.rounds[0], 1);
      const mahJongg: GameResult = { winner: 'A', value: 25, thrower: 'B' };
      for (const [s, id] of t) for (let g = 1; g <= 4; g++) apply(e, { type: 'enter', player: id, game: g, result: g === 1 && (s === 'B' || s === 'D') ? { winner: null } : mahJongg });
      for (const [s, id] of t) apply(e, { type: 'verify', player: id, by: t.get(s === 'A' ? 'C' : s === 'C' ? 'A' : s === 'B' ? 'D' : 'B')! });
      expect(() => apply(e, { type: 'accept' })).toThrow(/table 1's cards differ at game 1/);
      expect(differences(e.rounds[0], 1)).toEqual([
        {
          game: 1,
          entries: [
            { seats: ['A', 'C'], result: mahJongg },
            { seats: ['B', 'D'], result: { winner: null } },
          ],
        },
      ]);
      return { e, t, mahJongg };
    };
    // the players: North reopens (South's check, made against North's card, is undone too), both change game 1
    const byPlayers = split();
    const north = byPlayers.t.get('B')!;
    const south = byPlayers.t.get('D')!;
    apply(byPlayers.e, { type: 'reopen', player: north });
    expect([byPlayers.e.rounds[0].verified.has(north), byPlayers.e.rounds[0].verified.has(south)]).toEqual([false, false]);
    for (const id of [north, south]) apply(byPlayers.e, { type: 'enter', player: id, game: 1, result: byPlayers.mahJongg });
    apply(byPlayers.e, { type: 'verify', player: north, by: south });
    apply(byPlayers.e, { type: 'verify', player: south, by: north });
    apply(byPlayers.e, { type: 'accept' });
    // the Director: her ruling on the round not yet accepted settles game 1 on every card
    const byDirector = split();
    apply(byDirector.e, { type: 'correct', round: 1, table: 1, game: 1, result: { winner: null }, reason: 'ruled at the desk' });
    expect(differences(byDirector.e.rounds[0], 1)).toEqual([]);
    apply(byDirector.e, { type: 'reopen', player: byDirector.t.get('A')! });
    expect(() => apply(byDirector.e, { type: 'enter', player: byDirector.t.get('A')!, game: 1, result: byDirector.mahJongg })).toThrow(/the Director settled game 1/);
    apply(byDirector.e, { type: 'verify', player: byDirector.t.get('A')!, by: byDirector.t.get('C')! });
    apply(byDirector.e, { type: 'verify', player: byDirector.t.get('C')!, by: byDirector.t.get('A')! });
    apply(byDirector.e, { type: 'accept' });
    expect(eventStandings(byDirector.e, TOURNAMENT).find((r) => r.player === byDirector.t.get('A'))!.total).toBe(10 + 3 * 25);
  });

  it('refuses what cannot be done, naming it', () => {
    const e = replay([{ type: 'create', name: 'Small', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 }]);
    for (let i = 1; i <= 4; i++) apply(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}` });
    expect(() => apply(e, { type: 'accept' })).toThrow(/no round is waiting/);
    apply(e, { type: 'seat', seed: 1, at: 0 });
    expect(() => apply(e, { type: 'seat', seed: 2, at: 0 })).toThrow(/round 1 is not accepted yet/);
    expect(() => apply(e, { type: 'enter', player: 'p1', game: 5, result: { winner: null } })).toThrow(/games 1 to 4/);
    expect(() => apply(e, { type: 'enter', player: 'nobody', game: 1, result: { winner: null } })).toThrow(/has no seat in round 1/);
    expect(() => apply(e, { type: 'accept' })).toThrow(/waits for 4 cards to be checked/);
    expect(() => apply(e, { type: 'adjust', player: 'p1', points: 10, reason: '' })).toThrow(/needs its reason/);
    expect(() => apply(e, { type: 'clock', action: 'resume', at: 5 })).toThrow(/is not paused/);
  });
});

describe('club ratings', () => {
  it('rates each table of each accepted round among the players registered with their accounts: the winner up, the loser down, the uncertainty narrower', () => {
    const e = replay([{ type: 'create', name: 'Rated', ruleset: 'nmjl-4p-tournament', roundMinutes: 55 }]);
    for (let i = 1; i <= 4; i++) apply(e, { type: 'register', id: `p${i}`, name: `P${i}`, code: `C${i}`, ...(i < 4 ? { account: `acct${i}` } : {}) });
    // an account named is asked, not taken: nothing is rated before its owner accepts (issue 63)
    expect([...e.players.values()].map((p) => p.account)).toEqual([undefined, undefined, undefined, undefined]);
    for (let i = 1; i <= 3; i++) apply(e, { type: 'consent', player: `p${i}`, account: `acct${i}`, accept: true });
    expect(() => apply(e, { type: 'consent', player: 'p4', account: 'acct1', accept: true })).toThrow(/has not asked for your account/);
    apply(e, { type: 'seat', seed: 3, at: 0 });
    const table = tableOf(e.rounds[0], 1);
    const games: GameResult[] = [{ winner: 'A', value: 50, thrower: 'B' }, { winner: 'A', value: 25, selfPicked: true }, { winner: null }, { winner: 'C', value: 25, thrower: 'B' }];
    for (const id of table.values()) games.forEach((g, i) => apply(e, { type: 'enter', player: id, game: i + 1, result: g }));
    const partner: Record<Seat, Seat> = { A: 'C', C: 'A', B: 'D', D: 'B' };
    for (const [s, id] of table) apply(e, { type: 'verify', player: id, by: table.get(partner[s])! });
    expect(rateEvents([{ state: e, scoring: TOURNAMENT }]).size).toBe(0);
    apply(e, { type: 'accept' });
    const r = rateEvents([{ state: e, scoring: TOURNAMENT }]);
    // the unrated player (no account) is no part of it; of the rated, the most points rises and the fewest falls
    expect(r.size).toBe(3);
    const totals = eventStandings(e, TOURNAMENT).filter((row) => e.players.get(row.player)!.account !== undefined);
    expect(r.get(e.players.get(totals[0].player)!.account!)!.mu).toBeGreaterThan(25);
    expect(r.get(e.players.get(totals.at(-1)!.player)!.account!)!.mu).toBeLessThan(25);
    for (const x of r.values()) {
      expect(x.sigma).toBeLessThan(25 / 3);
      expect(x.tables).toBe(1);
      expect(ratingWords(x)).toMatch(/^Your club rating is \d+, give or take \d+ \(still a rough guess\), from 1 table at club events; a new player starts at 25\.$/);
    }
    expect(ratingWords(undefined)).toMatch(/^You have no club rating yet/);
  });
});
