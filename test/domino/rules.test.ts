import { describe, expect, it } from 'vitest';
import { apply, legalActions, newMatch, newRound, tryApply, validateDomino, view, type DominoAction, type DominoState } from '../../engine/domino/game.js';
import { DISTRICT, DOMINO_RULESETS, SUN_LAKES } from '../../engine/domino/rulesets.js';
import { championshipStandings, tableAdvancers } from '../../engine/domino/tournament.js';
import { doubleOf, dominoName, fullDominoSet, HI, LO, parseDomino, parseDominoes, PIPS, SET_SIZE } from '../../engine/domino/tiles.js';
import { rig, snapshot, t1 } from './helpers.js';

const play = (seat: number, tile: string, train: number): DominoAction => ({ type: 'play', seat, tile: t1(tile), train });
const names = (acts: DominoAction[]) => acts.map((a) => (a.type === 'play' ? `${dominoName(a.tile)}@${a.train}` : a.type));

/** Applies and checks every invariant. */
function step(s: DominoState, a: DominoAction): void {
  apply(s, a);
  validateDomino(s);
}

/** A refused action names its code and leaves the state exactly as it was. */
function refused(s: DominoState, a: DominoAction, code: string): string {
  const before = snapshot(s);
  const err = tryApply(s, a);
  expect(err?.code).toBe(code);
  expect(snapshot(s)).toBe(before);
  return err!.message;
}

describe('tiles', () => {
  it('the double-12 set holds 91 dominoes, each pair of ends once', () => {
    expect(SET_SIZE).toBe(91);
    const seen = new Set(fullDominoSet().map((t) => `${HI[t]}-${LO[t]}`));
    expect(seen.size).toBe(91);
    expect(fullDominoSet().reduce((a, t) => a + PIPS[t], 0)).toBe(1092); // each end 0-12 appears 14 times
    expect(fullDominoSet().filter((t) => HI[t] === LO[t])).toHaveLength(13);
  });
  it('names read either way round and bad names are refused with TM_BAD_TILE', () => {
    expect(parseDomino('5-12')).toBe(parseDomino('12-5'));
    expect(dominoName(parseDomino('5|12'))).toBe('12-5');
    expect(() => parseDomino('13-1')).toThrow(/double-12/);
    expect(() => parseDomino('five')).toThrowError(expect.objectContaining({ code: 'TM_BAD_TILE' }));
    expect(() => parseDominoes('3-4 4-3')).toThrowError(expect.objectContaining({ code: 'TM_DUPLICATE_TILE' }));
  });
});

describe('the deal', () => {
  it('tiles dealt by player count: senior games 12 for up to 5 players and 10 for 6 or more; district 15 for 4 and 12 for 5; else the common table', () => {
    const expected: Record<string, number[]> = {
      'sun-lakes': [12, 12, 12, 12, 10, 10, 10],
      district: [15, 15, 15, 12, 12, 10, 10],
    };
    for (const [name, sizes] of Object.entries(expected)) {
      for (let p = 2; p <= 8; p++) {
        const size = sizes[p - 2];
        let seen = 0;
        for (let seed = 1; seen < 3; seed++) {
          const s = newRound(DOMINO_RULESETS[name], p, seed);
          expect(s.hands.reduce((a, h) => a + h.length, 0) + s.boneyard.length).toBe(90);
          // district: the engine's holder has played it from her hand; skip deals where players drew for it
          const holder = s.rules.engineSetAside ? -1 : s.starter;
          if (s.hands.reduce((a, h) => a + h.length, 0) !== p * size - (holder >= 0 ? 1 : 0)) continue;
          seen++;
          s.hands.forEach((h, seat) => expect(h.length).toBe(seat === holder ? size - 1 : size));
        }
      }
    }
  });
  it('2 to 8 players; other counts are refused', () => {
    expect(() => newRound(SUN_LAKES, 1, 1)).toThrowError(expect.objectContaining({ code: 'TM_BAD_INPUT' }));
    expect(() => newRound(DISTRICT, 9, 1)).toThrowError(expect.objectContaining({ code: 'TM_BAD_INPUT' }));
  });
  it('senior games: the double 12 is set in the station before the deal and the highest first draw plays first', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const s = newRound(SUN_LAKES, 4, seed);
      expect(s.engine).toBe(doubleOf(12));
      expect(s.hands.flat()).not.toContain(doubleOf(12));
      expect(s.hands.every((h) => h.length === 12)).toBe(true);
      expect(s.boneyard).toHaveLength(90 - 48);
      const best = Math.max(...s.firstDraw.map((t) => PIPS[t]));
      const tied = s.firstDraw.filter((t) => PIPS[t] === best).length;
      if (tied === 1) expect(PIPS[s.firstDraw[s.firstPlayer]]).toBe(best);
      expect(PIPS[s.firstDraw[s.firstPlayer]]).toBe(best); // a tie redraws among the tied only
      expect(s.turn).toBe(s.firstPlayer);
    }
  });
  it('senior games: rounds go down from the double 12, one per round, and the next seat begins each round', () => {
    const s = newMatch(SUN_LAKES, 3, 4);
    const engines: number[] = [],
      starters: number[] = [];
    let round = -1;
    while (s.phase === 'play') {
      if (s.roundPos !== round) {
        round = s.roundPos;
        engines.push(HI[s.engine]);
        starters.push(s.starter);
      }
      apply(s, legalActions(s, s.turn)[0]);
    }
    expect(engines).toEqual([12, 11, 10, 9, 8, 7]);
    expect(starters).toEqual(starters.map((_, i) => (s.firstPlayer + i) % 3));
  });
  it('district rules: the holder of the double 5 plays it as the engine and, as after any double, plays again', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const s = newRound(DISTRICT, 4, seed);
      expect(s.engine).toBe(doubleOf(5));
      expect(s.hands.flat()).not.toContain(doubleOf(5));
      expect(s.turn).toBe(s.starter);
      expect(s.step.free).toBe(true);
    }
  });
  it('district rules: when no one holds the double 5, players draw one at a time from the first-draw winner to the left until it is drawn', () => {
    let found = 0;
    for (let seed = 1; seed <= 200 && found < 3; seed++) {
      const s = newRound(DISTRICT, 2, seed);
      const dealt = 15;
      const drew = s.hands.map((h, seat) => h.length - dealt + (seat === s.starter ? 1 : 0));
      if (drew.every((x) => x === 0)) continue;
      found++;
      // the winner draws first, then they alternate: the counts differ by at most one, the first drawer never fewer
      const w = s.firstPlayer,
        o = 1 - w;
      expect(drew[w] - drew[o] === 0 || drew[w] - drew[o] === 1).toBe(true);
      // the last tile drawn was the engine, so the starter drew last
      expect(s.starter).toBe(drew[w] > drew[o] ? w : o);
      expect(s.boneyard.length).toBe(91 - 30 - drew[0] - drew[1]);
    }
    expect(found).toBeGreaterThan(0);
  });
  it('district rules: rounds go from the double 5 down, and the game ends after the double-blank round', () => {
    const s = newMatch(DISTRICT, 5, 2);
    while (s.phase === 'play') apply(s, legalActions(s, s.turn)[0]);
    expect(s.rounds.map((r) => r.engine)).toEqual([5, 4, 3, 2, 1, 0]);
  });
});

describe('trains', () => {
  it('a train starts with a tile that matches the engine; any other is refused and changes nothing', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['12-3 4-5', '1-2 6-6'] });
    expect(names(legalActions(s, 0))).toEqual(['12-3@0', '12-3@2']);
    expect(refused(s, play(0, '4-5', 0), 'TM_ILLEGAL_ACTION')).toMatch(/does not match the 12/);
    step(s, play(0, '12-3', 0));
    expect(s.trains[0].end).toBe(3);
  });
  it('a train without a marker is private: only its owner plays on it; a marked train and the Mexican train are open to all', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['3-4 9-9', '3-1 12-1'], trains: { 0: '12-3' }, turn: 1 });
    expect(refused(s, play(1, '3-1', 0), 'TM_ILLEGAL_ACTION')).toMatch(/private/);
    s.trains[0].marked = true;
    expect(names(legalActions(s, 1))).toEqual(['3-1@0', '12-1@1', '12-1@2']);
  });
  it('players need not start their own train before playing on the Mexican train', () => {
    const s = rig({ ruleset: 'district', hands: ['5-1 9-9', '2-3 8-8'] });
    expect(names(legalActions(s, 0))).toContain('5-1@2');
    step(s, play(0, '5-1', 2));
    expect(s.trains[2].tiles).toHaveLength(1);
    expect(s.trains[0].tiles).toHaveLength(0);
  });
  it('only the player to move may act (TM_NOT_YOUR_TURN), and nothing changes', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['12-3', '12-1 2-2'] });
    refused(s, play(1, '12-1', 1), 'TM_NOT_YOUR_TURN');
    refused(s, { type: 'play', seat: 0, tile: 99, train: 0 }, 'TM_BAD_TILE');
    refused(s, { type: 'play', seat: 0, tile: t1('12-3'), train: 7 }, 'TM_ILLEGAL_ACTION');
    refused(s, { type: 'play', seat: 0, tile: t1('12-1'), train: 0 }, 'TM_ILLEGAL_ACTION');
  });
});

describe('drawing and markers', () => {
  it('a player who can play may not draw; one who cannot draws one tile and plays it if it fits', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['1-2 3-4', '12-6 5-5'], boneyardTop: '12-9 0-0' });
    expect(names(legalActions(s, 0))).toEqual(['draw']);
    refused(s, { type: 'pass', seat: 0 }, 'TM_ILLEGAL_ACTION');
    step(s, { type: 'draw', seat: 0 });
    expect(s.hands[0]).toContain(t1('12-9'));
    expect(names(legalActions(s, 0))).toEqual(['12-9@0', '12-9@2']);
    refused(s, { type: 'draw', seat: 0 }, 'TM_ILLEGAL_ACTION');
    step(s, play(0, '12-9', 2));
    expect(s.turn).toBe(1);
    const s2 = rig({ ruleset: 'sun-lakes', hands: ['12-6 5-5', '1-1'], turn: 0 });
    refused(s2, { type: 'draw', seat: 0 }, 'TM_ILLEGAL_ACTION');
  });
  it('a drawn tile that does not play leaves the player to pass, and her train is marked public', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['1-2 3-4', '12-6 5-5'], boneyardTop: '0-0' });
    step(s, { type: 'draw', seat: 0 });
    expect(names(legalActions(s, 0))).toEqual(['pass']);
    step(s, { type: 'pass', seat: 0 });
    expect(s.trains[0].marked).toBe(true);
    expect(s.turn).toBe(1);
    // now seat 1 may start seat 0's train
    expect(names(legalActions(s, 1))).toEqual(['12-6@0', '12-6@1', '12-6@2']);
  });
  it('the owner playing on her marked train makes it private again; another player playing on it does not', () => {
    const s = rig({ ruleset: 'district', hands: ['3-1 1-7 9-9', '4-3 12-12'], trains: { 0: '5-4' }, marked: [0], turn: 1 });
    step(s, play(1, '4-3', 0));
    expect(s.trains[0].marked).toBe(true);
    expect(names(legalActions(s, 0))).toEqual(['3-1@0']);
    step(s, play(0, '3-1', 0));
    expect(s.trains[0].marked).toBe(false);
  });
  it('everyone sees that a player who draws lacks the ends open to her', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['1-2 3-4', '12-6 5-5'], trains: { 1: '12-7' }, marked: [1], boneyardTop: '0-0' });
    step(s, { type: 'draw', seat: 0 });
    // open to her: her own train (12), the Mexican train (12) and seat 1's marked train (7)
    expect(view(s, 1).lacks[0]).toBe((1 << 12) | (1 << 7));
    expect(view(s, 1).lacks[1]).toBe(0);
  });
  it('with the boneyard empty a player who cannot play passes without drawing, and her train is marked', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['1-2 3-4', '12-6 5-5'] });
    s.hands[1].push(...s.boneyard.splice(0));
    validateDomino(s);
    expect(names(legalActions(s, 0))).toEqual(['pass']);
    step(s, { type: 'pass', seat: 0 });
    expect(s.trains[0].marked).toBe(true);
  });
});

describe('doubles', () => {
  it('senior games: the player who plays a double plays again, and that play must cover the double', () => {
    const t = rig({ ruleset: 'sun-lakes', hands: ['4-4 4-1 12-9 0-0', '1-1 2-2'], trains: { 2: '12-4' } });
    step(t, play(0, '4-4', 2));
    expect(t.turn).toBe(0);
    expect(t.openDoubles).toEqual([2]);
    // only a cover of the double: not 12-9 on her own train
    expect(names(legalActions(t, 0))).toEqual(['4-1@2']);
    refused(t, play(0, '12-9', 0), 'TM_ILLEGAL_ACTION');
    step(t, play(0, '4-1', 2));
    expect(t.openDoubles).toEqual([]);
    expect(t.turn).toBe(1); // the cover ends her turn: two tiles
  });
  it('senior games: a doubler who cannot cover draws; failing that her train goes up and the next player must cover it or draw', () => {
    const t = rig({ ruleset: 'sun-lakes', hands: ['4-4 9-9 12-8', '4-2 12-3 1-1', '0-0 12-5'], trains: { 3: '12-4' }, boneyardTop: '8-8 7-7 4-3' });
    step(t, play(0, '4-4', 3));
    expect(names(legalActions(t, 0))).toEqual(['draw']);
    step(t, { type: 'draw', seat: 0 }); // 8-8: no cover
    expect(names(legalActions(t, 0))).toEqual(['pass']);
    step(t, { type: 'pass', seat: 0 });
    expect(t.trains[0].marked).toBe(true);
    expect(t.openDoubles).toEqual([3]);
    // seat 1 holds 12-3 for her own train, but the double blocks every other play
    expect(names(legalActions(t, 1))).toEqual(['4-2@3']);
    step(t, play(1, '4-2', 3));
    expect(t.openDoubles).toEqual([]);
    expect(t.turn).toBe(2);
    // seat 2 could not have covered: she draws 7-7, then passes
    const u = rig({ ruleset: 'sun-lakes', hands: ['4-4 9-9 12-8', '1-2 12-3', '0-0 12-5'], trains: { 3: '12-4' }, boneyardTop: '8-8 7-7 4-3' });
    step(u, play(0, '4-4', 3));
    step(u, { type: 'draw', seat: 0 });
    step(u, { type: 'pass', seat: 0 });
    step(u, { type: 'draw', seat: 1 });
    step(u, { type: 'pass', seat: 1 });
    expect(u.trains[1].marked).toBe(true);
    step(u, { type: 'draw', seat: 2 }); // 4-3 covers
    expect(names(legalActions(u, 2))).toEqual(['4-3@3']);
    step(u, play(2, '4-3', 3));
    expect(u.openDoubles).toEqual([]);
  });
  it('district rules: the doubler plays again as a normal turn, anywhere; the double left open makes its train public and blocks the next player', () => {
    const t = rig({ ruleset: 'district', hands: ['3-3 5-9 1-2 4-4', '3-6 5-8 0-0'], trains: { 0: '5-3' } });
    step(t, play(0, '3-3', 0));
    expect(t.step.free).toBe(true);
    // a free turn: 5-9 on the Mexican train is allowed, though the double is not covered
    expect(names(legalActions(t, 0))).toEqual(['9-5@2']);
    step(t, play(0, '5-9', 2));
    expect(t.turn).toBe(1);
    expect(t.trains[0].marked).toBe(true); // "the train becomes public"
    // seat 1 holds 5-8 for her own train, but must cover the double first
    expect(names(legalActions(t, 1))).toEqual(['6-3@0']);
    step(t, play(1, '3-6', 0));
    expect(t.trains[0].marked).toBe(true); // only the owner takes her marker down
  });
  it('district rules: two doubles in a turn are covered in order, the first before the second', () => {
    const s = rig({ ruleset: 'district', hands: ['3-3 9-9 1-2 11-10', '3-6 9-4 0-0', '9-8 3-1 12-12'], trains: { 0: '5-3', 3: '5-9' } });
    step(s, play(0, '3-3', 0));
    step(s, play(0, '9-9', 3));
    expect(s.openDoubles).toEqual([0, 3]);
    expect(s.turn).toBe(0); // a third play after the second double
    expect(names(legalActions(s, 0))).toEqual(['draw']);
    s.boneyard.push(s.boneyard.splice(s.boneyard.indexOf(t1('7-7')), 1)[0]);
    step(s, { type: 'draw', seat: 0 });
    step(s, { type: 'pass', seat: 0 });
    // seat 1 holds 9-4 for the second double, but the first comes first
    expect(names(legalActions(s, 1))).toEqual(['6-3@0']);
    step(s, play(1, '3-6', 0));
    expect(s.openDoubles).toEqual([3]);
    expect(s.turn).toBe(2);
    expect(names(legalActions(s, 2))).toEqual(['9-8@3']);
    refused(s, play(2, '3-1', 0), 'TM_ILLEGAL_ACTION');
    step(s, play(2, '9-8', 3));
    expect(s.openDoubles).toEqual([]);
  });
  it("a double that is a player's last tile need not be covered: the round ends", () => {
    for (const ruleset of ['sun-lakes', 'district']) {
      const pip = ruleset === 'sun-lakes' ? 12 : 5;
      const s = rig({ ruleset, hands: ['4-4', '3-9 1-1'], trains: { 0: `${pip}-4` } });
      step(s, play(0, '4-4', 0));
      expect(s.phase).toBe('ended');
      expect(s.rounds[0].outBy).toBe(0);
      expect(s.rounds[0].pipsLeft).toEqual([0, 12 + 2]);
    }
  });
});

describe('ending a round and the game', () => {
  it('a player who plays her last tile ends the round; each other player scores the pips left in her hand', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['12-3', '4-5 6-6 0-0'] });
    step(s, play(0, '12-3', 0));
    expect(s.phase).toBe('ended');
    expect(s.result).toEqual({ totals: [0, 21], winners: [0] });
  });
  it('a round with the boneyard empty and no one able to move ends, everyone scoring her pips', () => {
    let checked = 0;
    for (let seed = 0; seed < 200 && checked < 10; seed++) {
      const s = newRound(seed % 2 ? SUN_LAKES : DISTRICT, 2 + (seed % 7), seed);
      while (s.phase === 'play') {
        const legal = legalActions(s, s.turn);
        apply(s, legal[seed % legal.length]);
      }
      if (s.rounds[0].outBy >= 0) continue;
      checked++;
      // blocked: no one holds a tile for any train end, or for the first open double
      expect(s.boneyard).toHaveLength(0);
      const ends = s.openDoubles.length ? [s.trains[s.openDoubles[0]].end] : s.trains.map((t) => t.end);
      for (const h of s.hands) for (const t of h) for (const e of ends) expect(HI[t] === e || LO[t] === e).toBe(false);
      expect(s.rounds[0].pipsLeft).toEqual(s.hands.map((h) => h.reduce((a, t) => a + PIPS[t], 0)));
    }
    expect(checked).toBeGreaterThan(0);
  });
  it('a game is a series of rounds whose scores are added; the lowest total wins', () => {
    const s = newMatch(SUN_LAKES, 4, 11);
    while (s.phase === 'play') apply(s, legalActions(s, s.turn)[0]);
    expect(s.rounds).toHaveLength(6);
    const totals = [0, 1, 2, 3].map((p) => s.rounds.reduce((a, r) => a + r.pipsLeft[p], 0));
    expect(s.result!.totals).toEqual(totals);
    expect(s.result!.winners).toEqual(totals.flatMap((x, p) => (x === Math.min(...totals) ? [p] : [])));
    expect(tryApply(s, { type: 'pass', seat: 0 })?.code).toBe('TM_GAME_OVER');
  });
  it('senior games tournament: the lowest at each table advances; qualifying and championship totals are added and the 2 lowest place', () => {
    expect(tableAdvancers(SUN_LAKES, { players: ['ann', 'bea', 'cy', 'di'], totals: [120, 80, 95, 200] })).toEqual(['bea']);
    expect(tableAdvancers(SUN_LAKES, { players: ['ann', 'bea', 'cy'], totals: [80, 80, 95] })).toEqual(['ann', 'bea']);
    const { places } = championshipStandings(
      SUN_LAKES,
      [
        { players: ['ann', 'bea'], totals: [50, 90] },
        { players: ['cy', 'di'], totals: [70, 40] },
      ],
      [{ players: ['ann', 'di', 'cy'], totals: [60, 100, 30] }],
    );
    expect(places.map((p) => [p.player, p.total])).toEqual([
      ['cy', 100],
      ['ann', 110],
    ]);
    expect(() => tableAdvancers(DISTRICT, { players: ['a'], totals: [1] })).toThrowError(expect.objectContaining({ code: 'TM_BAD_INPUT' }));
  });
});

describe('views', () => {
  it('a seat sees its own hand, every train and the counts of the other hands; never their tiles, the boneyard or the seed', () => {
    const s = newRound(SUN_LAKES, 4, 3);
    const v = view(s, 1);
    const text = JSON.stringify(v);
    expect(v.hand).toEqual(s.hands[1]);
    expect(v.handCounts).toEqual([12, 12, 12, 12]);
    expect(v.boneyard).toBe(42);
    expect(text).not.toContain('"seed"');
    expect(text).not.toContain('rng');
    expect(Object.keys(v)).not.toContain('hands');
    for (const other of [0, 2, 3]) expect(text).not.toContain(JSON.stringify(s.hands[other]));
    while (s.phase === 'play') apply(s, legalActions(s, s.turn)[0]);
    expect(view(s, 1).reveal?.seed).toBe(3);
  });
  it('the tile a player drew is shown to her, and to the others only as "drew"', () => {
    const s = rig({ ruleset: 'sun-lakes', hands: ['1-2', '3-4'], boneyardTop: '0-0' });
    apply(s, { type: 'draw', seat: 0 });
    expect(view(s, 0).drawn).toBe(t1('0-0'));
    expect(view(s, 1).drawn).toBe(-1);
    expect(view(s, 1).step.drew).toBe(true);
    expect(view(s, 1).handCounts[0]).toBe(2);
  });
});
