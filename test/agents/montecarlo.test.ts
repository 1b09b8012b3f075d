import { describe, expect, it } from 'vitest';
import { MonteCarloAgent } from '../../agents/mah-jongg/montecarlo.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { cloneState, legalActions, validate, view, waitingOn, type GameState } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { cc, charlestonSteps, midGame, rules, turnOf } from './montecarlo-games.js';

/**
 * The worlds the Monte Carlo player samples keep what the seat sees and nothing it cannot, and
 * its choice is legal and repeatable; whole games are test/agents/montecarlo.slow.test.ts (slow).
 */

describe('determinize', () => {
  it('a sampled world keeps everything the seat can see and accounts for all 152 tiles', () => {
    const real = midGame(5);
    const seat = real.turn;
    const v = view(real, seat);
    const world = determinize(v, rules, cc, seedRng(1));
    validate(world);
    expect(world.players[seat].concealed).toEqual(real.players[seat].concealed);
    expect(world.players.map((p) => p.exposures)).toEqual(real.players.map((p) => p.exposures));
    expect(world.players.map((p) => p.discards)).toEqual(real.players.map((p) => p.discards));
    expect(world.wall.length - world.wallPos).toBe(real.wall.length - real.wallPos);
    world.players.forEach((p, s) => expect(p.concealed.reduce((a, b) => a + b, 0)).toBe(v.concealedCounts[s]));
  });

  it('hidden information stays hidden: worlds depend on the view alone, not on the real racks or wall', () => {
    const real = midGame(7);
    const seat = real.turn;
    const other = (seat + 1) % 4;
    // swap a tile between another rack and the wall: the seat's view does not change
    const altered = cloneState(real);
    altered.wall = [...altered.wall];
    const fromRack = altered.players[other].concealed.findIndex((n) => n > 0);
    const wallTile = altered.wall[altered.wallPos];
    altered.players[other].concealed[fromRack]--;
    altered.players[other].concealed[wallTile]++;
    altered.wall[altered.wallPos] = fromRack;
    expect(JSON.stringify(view(altered, seat))).toBe(JSON.stringify(view(real, seat)));
    const a = determinize(view(real, seat), rules, cc, seedRng(9));
    const b = determinize(view(altered, seat), rules, cc, seedRng(9));
    expect(b.players.map((p) => p.concealed)).toEqual(a.players.map((p) => p.concealed));
    expect(b.wall).toEqual(a.wall);
  });
});

describe('determinize before play', () => {
  it('hidden information stays hidden: a pass another seat has set aside does not reach the world', () => {
    const real = charlestonSteps(23).find((s) => s.phase.kind === 'charleston' && waitingOn(s).length === 3)!;
    const chosen = [0, 1, 2, 3].find((s) => !waitingOn(real).includes(s))!;
    const seat = waitingOn(real)[0];
    // the same table with a different pass set aside by the seat that chose: the seat's view is the same, and so are its worlds
    const altered = cloneState(real);
    const ph = altered.phase as Extract<GameState['phase'], { kind: 'charleston' }>;
    const hand = altered.players[chosen].concealed;
    const was = ph.choices[chosen]!.tiles;
    for (const t of was) hand[t]++;
    const other = hand
      .map((n, t) => (n > 0 && t !== JOKER && !was.includes(t) ? t : -1))
      .filter((t) => t >= 0)
      .slice(0, 3);
    expect(other).toHaveLength(3);
    for (const t of other) hand[t]--;
    ph.choices[chosen] = { tiles: other, blind: 0 };
    expect(JSON.stringify(view(altered, seat))).toBe(JSON.stringify(view(real, seat)));
    const a = determinize(view(real, seat), rules, cc, seedRng(4));
    const b = determinize(view(altered, seat), rules, cc, seedRng(4));
    expect(b.players.map((p) => p.concealed)).toEqual(a.players.map((p) => p.concealed));
    expect(b.wall).toEqual(a.wall);
  });
});

describe('the Monte Carlo player', () => {
  const mc = new MonteCarloAgent(cc, rules, { worlds: 4, candidates: 2 }, 'test');

  it('chooses a legal action, the same one for the same seed', () => {
    const s = midGame(11);
    const a = mc.act(turnOf(s, 4));
    expect(legalActions(s, s.turn).map((x) => JSON.stringify(x))).toContain(JSON.stringify(a));
    expect(mc.act(turnOf(s, 4))).toEqual(a);
  });
});
