import { describe, expect, it } from 'vitest';
import type { Turn } from '../../agents/agent.js';
import { HeuristicAgent } from '../../agents/mah-jongg/heuristic.js';
import { MonteCarloAgent } from '../../agents/mah-jongg/montecarlo.js';
import { playOut } from '../../agents/table.js';
import { loadCard } from '../../io/cards.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { cloneState, legalActions, newGame, validate, view, waitingOn, type GameState } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';

const cc = loadCard();
const rules = RULESETS['nmjl-4p-tournament'];

/** A live game stopped at a seat's own turn with a full hand, some way in. */
function midGame(seed: number): GameState {
  const state = newGame(rules, cc, seed);
  const agents = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
  let stop: GameState | null = null;
  try {
    playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed), (_a, s) => {
      if (stop === null && s.phase.kind === 'discard' && s.discardCount >= 12) {
        stop = cloneState(s);
        throw new Error('stop');
      }
    });
  } catch (err) {
    if ((err as Error).message !== 'stop') throw err;
  }
  if (stop === null) throw new Error('the game ended too soon for this test');
  return stop;
}

const turnOf = (s: GameState, seed = 3): Turn => {
  const seat = waitingOn(s)[0];
  return { seat, phase: s.phase.kind, view: () => view(s, seat), legal: () => legalActions(s, seat), rng: seedRng(seed) };
};

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

/** A game stopped at each Charleston step as the medium bots play it (East choosing first, then the others): the state before each seat's choice. */
function charlestonSteps(seed: number): GameState[] {
  const state = newGame(rules, cc, seed);
  const agents = [0, 1, 2, 3].map(() => new HeuristicAgent(cc));
  const steps: GameState[] = [];
  try {
    playOut(mahJonggGame(state.rules, state.cc), state, agents, seedRng(seed), (_a, s) => {
      const k = s.phase.kind;
      if (k === 'charleston' || k === 'vote' || k === 'courtesy') steps.push(cloneState(s));
      else if (k === 'discard' || k === 'draw') throw new Error('stop');
    });
  } catch (err) {
    if ((err as Error).message !== 'stop') throw err;
  }
  return steps;
}

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

  it('plays whole games with heuristic opponents, every state valid', () => {
    for (let g = 0; g < 2; g++) {
      const s = newGame(rules, cc, 100 + g);
      playOut(mahJonggGame(s.rules, s.cc), s, [mc, new HeuristicAgent(cc), new HeuristicAgent(cc), new HeuristicAgent(cc)], seedRng(g), (_a, st) => validate(st));
      expect(s.phase.kind).toBe('ended');
    }
  });
});
