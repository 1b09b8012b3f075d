import { describe, expect, it } from 'vitest';
import { adviseDomino, legalFromView } from '../../agents/domino/advise.js';
import { plannedPath } from '../../agents/domino/greedy.js';
import { makeDominoAgent } from '../../agents/domino/levels.js';
import { MonteCarloDominoAgent, sampleWorld } from '../../agents/domino/montecarlo.js';
import { playOut } from '../../agents/table.js';
import { mexicanTrainGame } from '../../engine/domino/mexican-train.js';
import { apply, legalActions, newRound, validateDomino, view } from '../../engine/domino/game.js';
import { DISTRICT, SUN_LAKES } from '../../engine/domino/rulesets.js';
import { viewFromTable } from '../../engine/domino/table-state.js';
import { dominoName, hasEnd, otherEnd } from '../../engine/domino/tiles.js';
import { seedRng } from '../../engine/rng.js';
import { playDeal, summarize } from '../../training/arena.js';
import { d } from './helpers.js';

describe('greedy', () => {
  it('the planned path is the longest chain from the train end, laid in order', () => {
    const path = plannedPath(d('5-3 3-3 3-9 9-1 11-11 0-4 1-7'), 5);
    expect(path.map(dominoName)).toEqual(['5-3', '3-3', '9-3', '9-1', '7-1']);
    let end = 5;
    for (const t of path) {
      expect(hasEnd(t, end)).toBe(true);
      end = otherEnd(t, end);
    }
    expect(plannedPath(d('1-2 2-3'), 5)).toEqual([]);
  });
  it('plays its path on its own train and keeps path tiles off the other trains', () => {
    const v = viewFromTable({ players: 4, trains: { 0: '12-5', mexican: '12-1' }, handCounts: [5, 8, 9, 10] }, d('5-3 3-9 9-1 1-10 11-11'));
    const a = adviseDomino(v).action;
    expect(a).toMatchObject({ type: 'play', train: 0 });
    expect(dominoName((a as { tile: number }).tile)).toBe('5-3');
  });
  it('off-loads the most pips when an opponent is near out', () => {
    const hand = d('5-1 1-2 11-10 12-10');
    const calm = viewFromTable({ players: 2, trains: { 0: '12-5', mexican: '12-11' }, handCounts: [4, 9] }, hand);
    const hurry = viewFromTable({ players: 2, trains: { 0: '12-5', mexican: '12-11' }, handCounts: [4, 1] }, hand);
    expect(dominoName((adviseDomino(calm).action as { tile: number }).tile)).toBe('5-1');
    expect(dominoName((adviseDomino(hurry).action as { tile: number }).tile)).toBe('11-10');
  });
});

describe('sampled worlds (Monte Carlo)', () => {
  it('keep everything the seat sees and deal the unseen tiles by the hand counts', () => {
    const s = newRound(DISTRICT, 4, 21);
    const rng = seedRng(1);
    for (let i = 0; i < 30; i++) {
      const l = legalActions(s, s.turn);
      apply(s, l[i % l.length]);
    }
    const seat = s.turn;
    for (let k = 0; k < 20; k++) {
      const w = sampleWorld(view(s, seat), DISTRICT, rng);
      validateDomino(w);
      expect(w.hands[seat]).toEqual(s.hands[seat]);
      expect(w.hands.map((h) => h.length)).toEqual(s.hands.map((h) => h.length));
      expect(w.boneyard).toHaveLength(s.boneyard.length);
      expect(w.trains).toEqual(s.trains);
      expect(legalActions(w, seat)).toEqual(legalActions(s, seat));
    }
  });
  it('do not depend on what the seat cannot see: the same view gives the same worlds', () => {
    const a = newRound(SUN_LAKES, 3, 8);
    const b = structuredClone({ ...a, rules: null }) as unknown as typeof a;
    b.rules = a.rules;
    // swap tiles between two hidden hands and the boneyard: seat 0's view is unchanged
    const t1 = b.hands[1][0],
      t2 = b.hands[2][0],
      t3 = b.boneyard[0];
    b.hands[1][0] = t2;
    b.hands[2][0] = t3;
    b.boneyard[0] = t1;
    validateDomino(b);
    const wa = sampleWorld(view(a, 0), SUN_LAKES, seedRng(5));
    const wb = sampleWorld(view(b, 0), SUN_LAKES, seedRng(5));
    expect(wa.hands).toEqual(wb.hands);
    expect(wa.boneyard).toEqual(wb.boneyard);
  });
  it("legal actions from a view are the engine's", () => {
    const s = newRound(SUN_LAKES, 5, 30);
    for (let i = 0; i < 40 && s.phase === 'play'; i++) {
      expect(legalFromView(view(s, s.turn))).toEqual(legalActions(s, s.turn));
      const l = legalActions(s, s.turn);
      apply(s, l[(i * 7) % l.length]);
    }
  });
});

describe('bots play legal, repeatable games', () => {
  // the Monte Carlo player's whole rounds are test/domino/agents.slow.test.ts (slow)
  for (const name of ['random', 'greedy']) {
    it(`${name}: whole rounds of both rulesets, the same from the same seed`, () => {
      for (const rules of [SUN_LAKES, DISTRICT]) {
        const players = name === 'montecarlo' ? 2 : 4;
        const results = [0, 1].map(() => {
          const game = mexicanTrainGame(rules, players, { round: 1 });
          const s = game.newGame(17);
          const agents = Array.from({ length: players }, () => makeDominoAgent(name, rules.name));
          playOut(game, s, agents, seedRng(3), () => validateDomino(s));
          return s.rounds[0];
        });
        expect(results[0]).toEqual(results[1]);
      }
    });
  }
  it('the Monte Carlo player chooses the same whatever the hidden tiles, for the same view', () => {
    for (let seed = 0; seed < 6; seed++) {
      const a = newRound(DISTRICT, 3, seed);
      const b = structuredClone({ ...a, rules: null }) as unknown as typeof a;
      b.rules = a.rules;
      // swap tiles between the two other hands and the boneyard: the seat to move sees the same
      const seat = a.turn,
        o1 = (seat + 1) % 3,
        o2 = (seat + 2) % 3;
      const t1 = b.hands[o1][0],
        t2 = b.hands[o2][0],
        t3 = b.boneyard[0];
      b.hands[o1][0] = t2;
      b.hands[o2][0] = t3;
      b.boneyard[0] = t1;
      expect(JSON.stringify(view(b, seat))).toBe(JSON.stringify(view(a, seat)));
      const act = (s: typeof a) => new MonteCarloDominoAgent('district', { worlds: 4 }).act({ seat, phase: 'play', view: () => view(s, seat), legal: () => legalActions(s, seat), rng: seedRng(seed) });
      expect(act(a)).toEqual(act(b));
    }
  });
});

describe('arena', () => {
  it('plays each deal once per rotation of the seats, on the same tiles', () => {
    const spec = { seats: ['greedy', 'random', 'random'], seed: 4 };
    const games = playDeal(spec, mexicanTrainGame(DISTRICT, 3), 2);
    expect(games.map((g) => g.agents)).toEqual([
      ['greedy', 'random', 'random'],
      ['random', 'random', 'greedy'],
      ['random', 'greedy', 'random'],
    ]);
    for (const g of games) expect(g.winShare.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const sum = summarize(spec, games);
    expect(sum.results.map((r) => r.seatGames)).toEqual([3, 6]);
    expect(sum.deals).toBe(1);
  });
});
