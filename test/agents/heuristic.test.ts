import { describe, expect, it } from 'vitest';
import { EASY_HABITS, HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS, type Habits } from '../../agents/mah-jongg/heuristic.js';
import { playOut } from '../../agents/table.js';
import { legalActions, newGame, view, type Action } from '../../engine/mah-jongg/game.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { tileName } from '../../engine/mah-jongg/tiles.js';
import { act, cc, table, tile } from '../engine/game-helpers.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';

const OTHERS = ['1C 1C 1C 3C 3C 3C 4C 4C 4C 5C 5C 5C 7C', '1D 1D 1D 3D 3D 3D 4D 4D 4D 5D 5D 5D 7D', 'N N N E E E W W W S S S RD'];

/** What seat 0 discards from `hand` (14 tiles) with these habits, the others holding OTHERS and `seen` discarded by seat 1. */
function discard(hand: string, habits: Habits, seen = '') {
  const s = table({ rules: 'nmjl-4p', racks: [hand, ...OTHERS], discards: ['', seen, '', ''] });
  const agent = new HeuristicAgent(cc, habits, 'h');
  return agent.act({ seat: 0, phase: s.phase.kind, view: () => view(s, 0), legal: () => legalActions(s, 0), rng: seedRng(1) });
}

describe("the heuristic's habits", () => {
  it('live: a line whose pair can no longer be made is given up; without the habit the heuristic still waits for the flower', () => {
    // 2468 #1 `22a 444a 6666a 888a FF` lacks one flower (a pair tile jokers cannot fill), and
    // the seven other flowers are on the table; the 9D is a stray
    const hand = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F 9D';
    expect(discard(hand, { ...MEDIUM_HABITS, live: false }, 'F F F F F F F')).toEqual({ type: 'discard', seat: 0, tile: tile('9D') });
    expect(discard(hand, { ...MEDIUM_HABITS, live: true }, 'F F F F F F F')).toEqual({ type: 'discard', seat: 0, tile: tile('F') });
  });

  it('pairCost: between two lines as far away, the searching players keep the one made of groups; the medium player the one worth more', () => {
    // three tiles from two lines (Bams for a, Craks for b):
    //   2468 #1 `22a 444a 6666a 888a FF` (x 25), mostly groups: of the 8B, F and F it lacks, the
    //     8B can be called or filled by a joker;
    //   Singles and Pairs #2 `FF 22a 44a 66a 88a 22b 44b` (c 50), all pairs: the F, F and 4C it
    //     lacks come only from the wall.
    // The third 4B and the third and fourth 6B serve only 2468 #1; the 2C, 2C and 4C only the pairs.
    const hand = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 2C 2C 4C';
    const medium = discard(hand, MEDIUM_HABITS),
      strong = discard(hand, STRONG_HABITS);
    expect(medium.type === 'discard' && ['4B', '6B'].includes(tileName(medium.tile))).toBe(true);
    expect(strong.type === 'discard' && ['2C', '4C'].includes(tileName(strong.tile))).toBe(true);
  });
});

/** What seat 0, holding `hand` (13 tiles), answers when seat 1 discards its 4B. */
function answer(hand: string, habits: Habits) {
  const s = table({ rules: 'nmjl-4p', racks: [hand, `${OTHERS[0]} 4B`, OTHERS[1], OTHERS[2]], turn: 1 });
  act(s, { type: 'discard', seat: 1, tile: tile('4B') });
  const agent = new HeuristicAgent(cc, habits, 'h');
  return agent.act({ seat: 0, phase: s.phase.kind, view: () => view(s, 0), legal: () => legalActions(s, 0), rng: seedRng(1) });
}

describe("a beginner's habits (easy)", () => {
  it('callWithin: four tiles from 2468 #1, the medium player calls the 4B and the beginner lets it go; three tiles away, both call', () => {
    // 2468 #1 `22a 444a 6666a 888a FF`: the first hand lacks 4B 6B 6B 8B, the second 4B 6B 8B
    const far = '2B 2B 4B 4B 6B 6B 8B 8B F F 1D 3D 5D',
      near = '2B 2B 4B 4B 6B 6B 6B 8B 8B F F 1D 3D';
    expect(answer(far, MEDIUM_HABITS)).toMatchObject({ type: 'call', seat: 0, size: 3 });
    expect(answer(far, EASY_HABITS)).toEqual({ type: 'decline', seat: 0 });
    expect(answer(near, MEDIUM_HABITS)).toMatchObject({ type: 'call', seat: 0, size: 3 });
    expect(answer(near, EASY_HABITS)).toMatchObject({ type: 'call', seat: 0, size: 3 });
  });

  it("ownJokersOnly: a joker in another player's exposure is exchanged by the medium player, not by the beginner", () => {
    // seat 2 shows a pung of 6D with a joker; seat 0 holds a 6D
    const s = table({
      rules: 'nmjl-4p',
      racks: ['2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F F 6D 9C', OTHERS[0], '1D 1D 1D 3D 3D 3D 4D 4D 4D 7D', OTHERS[2]],
      exposures: [{ seat: 2, tiles: '6D 6D J' }],
    });
    const decide = (habits: Habits) => new HeuristicAgent(cc, habits, 'h').act({ seat: 0, phase: s.phase.kind, view: () => view(s, 0), legal: () => legalActions(s, 0), rng: seedRng(1) });
    expect(decide(MEDIUM_HABITS)).toEqual({ type: 'exchange', seat: 0, owner: 2, exposure: 0 });
    expect(decide(EASY_HABITS).type).toBe('discard');
  });
});

describe('the heuristic player', () => {
  it('plays the same games when one player serves every seat: what it keeps between decisions belongs to the hand, not the seat', () => {
    // the medium player remembers the hand's tiles away from one call window to the next;
    // shared by four seats, a memo keyed on less than the whole hand would answer for the wrong one
    const rules = loadRuleset('nmjl-4p');
    let calls = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const logs = [true, false].map((shared) => {
        const one = new HeuristicAgent(cc, MEDIUM_HABITS, 'h');
        const agents = [0, 1, 2, 3].map(() => (shared ? one : new HeuristicAgent(cc, MEDIUM_HABITS, 'h')));
        const log: Action[] = [];
        playOut(mahJonggGame(rules, cc), newGame(rules, cc, seed), agents, seedRng(seed), (a) => log.push(a));
        return log;
      });
      expect(logs[0]).toEqual(logs[1]);
      calls += logs[0].filter((a) => a.type === 'call').length;
    }
    expect(calls).toBeGreaterThan(0);
  });
});
