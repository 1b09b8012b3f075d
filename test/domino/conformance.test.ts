import { describe, expect, it } from 'vitest';
import { apply, cloneDominoState, legalActions, newMatch, newRound, tryApply, validateDomino, view, type DominoAction, type DominoState } from '../../engine/domino/game.js';
import { dominoActionLine, dominoEndLine, dominoRecordHeader, replayDominoRecord } from '../../engine/domino/record.js';
import { DOMINO_RULESETS } from '../../engine/domino/rulesets.js';
import { nextInt, seedRng, type RngState } from '../../engine/rng.js';
import { SET_SIZE } from '../../engine/domino/tiles.js';

const key = (a: DominoAction) => JSON.stringify(a);

/** An action that is not among the legal ones: a random tile, train and type. */
function randomOther(s: DominoState, rng: RngState, legal: Set<string>): DominoAction | null {
  for (let i = 0; i < 20; i++) {
    const r = nextInt(rng, 10);
    const seat = nextInt(rng, 10) < 8 ? s.turn : nextInt(rng, s.players);
    const a: DominoAction = r < 1 ? { type: 'draw', seat } : r < 2 ? { type: 'pass', seat } : { type: 'play', seat, tile: nextInt(rng, SET_SIZE), train: nextInt(rng, s.players + 1) };
    if (!legal.has(key(a))) return a;
  }
  return null;
}

/** Plays a game with random legal actions, checking every invariant after every action. */
function playChecked(s: DominoState, seed: number, lines?: string[]): number {
  const rng = seedRng(seed ^ 0x5bd1e995);
  let n = 0;
  while (s.phase === 'play') {
    const legal = legalActions(s, s.turn);
    expect(legal.length).toBeGreaterThan(0);
    if (n % 7 === 0) {
      for (let other = 0; other < s.players; other++) if (other !== s.turn && legalActions(s, other).length > 0) throw new Error(`seat ${other} may act out of turn`);
      // a random action the rules do not allow is refused and changes nothing
      const wrong = randomOther(s, rng, new Set(legal.map(key)));
      if (wrong) {
        const before = JSON.stringify({ ...s, rules: null });
        expect(tryApply(s, wrong)).not.toBeNull();
        expect(JSON.stringify({ ...s, rules: null })).toBe(before);
      }
    }
    const a = legal[nextInt(rng, legal.length)];
    apply(s, a);
    n++;
    lines?.push(dominoActionLine(n, a, s.players));
    validateDomino(s);
  }
  return n;
}

describe('conformance: random games of every ruleset and player count', () => {
  for (const rules of Object.values(DOMINO_RULESETS)) {
    it(`${rules.name}: 1,400 seeded rounds (2-8 players, every engine) keep every invariant after every action`, () => {
      let rounds = 0, outs = 0, blocked = 0;
      for (let p = 2; p <= 8; p++) {
        for (let seed = 0; seed < 200; seed++) {
          const s = newRound(rules, p, seed * 31 + p, seed % rules.engines.length);
          playChecked(s, seed);
          rounds++;
          if (s.rounds[0].outBy >= 0) { outs++; expect(s.rounds[0].pipsLeft[s.rounds[0].outBy]).toBe(0); } else blocked++;
        }
      }
      expect(rounds).toBe(1400);
      // both ways of ending a round happen
      expect(outs).toBeGreaterThan(0);
      expect(blocked).toBeGreaterThan(0);
    });
    it(`${rules.name}: whole games of six rounds, 2-8 players`, () => {
      for (let p = 2; p <= 8; p++) {
        for (let seed = 0; seed < 10; seed++) {
          const s = newMatch(rules, p, seed);
          playChecked(s, seed);
          expect(s.rounds).toHaveLength(rules.engines.length);
        }
      }
    });
  }
  it('a game replays exactly from its seed and its actions, and its record replays', () => {
    for (const rules of Object.values(DOMINO_RULESETS)) {
      for (let seed = 0; seed < 20; seed++) {
        const players = 2 + (seed % 7);
        const a = newMatch(rules, players, seed);
        const lines = [dominoRecordHeader({ ruleset: rules.name, players, seed, game: 'match', seats: new Array(players).fill('random') })];
        playChecked(a, seed, lines);
        lines.push(dominoEndLine(a));
        const r = replayDominoRecord(lines.join('\n') + '\n');
        expect(r.state.result).toEqual(a.result);
        expect(r.state.rounds).toEqual(a.rounds);
        expect(r.actions).toBe(lines.length - 2);
      }
    }
  });
  it('a truncated or edited record is refused with TM_BAD_RECORD naming the line', () => {
    const s = newRound(DOMINO_RULESETS['sun-lakes'], 3, 5);
    const lines = [dominoRecordHeader({ ruleset: 'sun-lakes', players: 3, seed: 5, game: { round: 0 }, seats: ['random', 'random', 'random'] })];
    playChecked(s, 5, lines);
    lines.push(dominoEndLine(s));
    const text = lines.join('\n');
    expect(() => replayDominoRecord(text.slice(0, text.length - 30))).toThrowError(expect.objectContaining({ code: 'TM_BAD_RECORD', message: expect.stringMatching(/^record line \d+: not JSON/) }));
    expect(() => replayDominoRecord(lines.slice(0, -1).join('\n'))).toThrowError(/no end line/);
    const edited = [...lines];
    edited[3] = edited[3].replace('"seat":', '"seat":9,"x":');
    expect(() => replayDominoRecord(edited.join('\n'))).toThrowError(expect.objectContaining({ code: 'TM_BAD_RECORD' }));
  });
  it('a seat\'s view never holds another hand, however the game goes', () => {
    const s = newRound(DOMINO_RULESETS.district, 4, 9);
    const rng = seedRng(9);
    while (s.phase === 'play') {
      for (let seat = 0; seat < 4; seat++) {
        const v = view(s, seat);
        expect(v.hand).toBe(s.hands[seat]);
        expect(Object.keys(v)).not.toContain('boneyardTiles');
        expect(v.reveal).toBeUndefined();
      }
      const legal = legalActions(s, s.turn);
      apply(s, legal[nextInt(rng, legal.length)]);
    }
  });
  it('a copied state plays on independently of its original', () => {
    const s = newRound(DOMINO_RULESETS['sun-lakes'], 4, 2);
    const c = cloneDominoState(s);
    apply(c, legalActions(c, c.turn)[0]);
    expect(s.actionCount).toBe(0);
    validateDomino(s);
    validateDomino(c);
  });
});
