import { describe, expect, it } from 'vitest';
import { HeuristicAgent } from '../../agents/mah-jongg/heuristic.js';
import { MonteCarloAgent } from '../../agents/mah-jongg/montecarlo.js';
import { playOut } from '../../agents/table.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { newGame, validate, view, waitingOn } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { cc, charlestonSteps, rules } from './montecarlo-games.js';

/**
 * The Monte Carlo player and the worlds it samples over whole games: two games against
 * heuristic opponents, every state valid, and a world sampled at every Charleston pass, vote
 * and courtesy offer of a deal, each played to its end. Slow: whole games, seconds of work;
 * the worlds' rules and the player's choice are test/agents/montecarlo.test.ts (unit).
 */

describe('determinize before play', () => {
  it("samples a world at every Charleston pass, vote and courtesy offer, even when others have chosen: the seat's rack kept, the others' racks full, every tile accounted for, and the world plays on legally", () => {
    const steps = charlestonSteps(21);
    const kinds = new Set(steps.map((s) => s.phase.kind));
    expect([...kinds].sort()).toEqual(['charleston', 'courtesy', 'vote']);
    let sampled = 0,
      afterOthers = 0;
    for (const real of steps) {
      for (const seat of waitingOn(real)) {
        const v = view(real, seat);
        if (real.phase.kind === 'charleston' && v.concealedCounts.some((c, s) => s !== seat && c < (s === 0 ? 14 : 13))) afterOthers++;
        const world = determinize(v, rules, cc, seedRng(sampled));
        validate(world);
        expect(world.phase.kind).toBe(real.phase.kind);
        if (world.phase.kind === 'charleston' && real.phase.kind === 'charleston') expect(world.phase.pass).toBe(real.phase.pass);
        expect(world.players[seat].concealed).toEqual(real.players[seat].concealed);
        world.players.forEach((p, s) => expect(p.concealed.reduce((a, b) => a + b, 0)).toBe(s === 0 ? 14 : 13));
        expect(world.wall.length - world.wallPos).toBe(real.wall.length - real.wallPos);
        // every seat chooses afresh in the world: nobody's choice is known
        expect(waitingOn(world).sort()).toEqual([0, 1, 2, 3]);
        const agents = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
        playOut(mahJonggGame(world.rules, world.cc), world, agents, seedRng(sampled), (_a, s) => validate(s));
        expect(world.phase.kind).toBe('ended');
        sampled++;
      }
    }
    expect(afterOthers).toBeGreaterThan(0);
  });
});

describe('the Monte Carlo player', () => {
  const mc = new MonteCarloAgent(cc, rules, { worlds: 4, candidates: 2 }, 'test');

  it('plays whole games with heuristic opponents, every state valid', () => {
    for (let g = 0; g < 2; g++) {
      const s = newGame(rules, cc, 100 + g);
      playOut(mahJonggGame(s.rules, s.cc), s, [mc, new HeuristicAgent(cc), new HeuristicAgent(cc), new HeuristicAgent(cc)], seedRng(g), (_a, st) => validate(st));
      expect(s.phase.kind).toBe('ended');
    }
  });
});
