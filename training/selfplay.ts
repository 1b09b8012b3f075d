import type { Agent } from '../agents/agent.js';
import { FEATURES } from '../agents/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/heuristic.js';
import { LearnedAgent } from '../agents/learned.js';
import type { ValueModel } from '../agents/model.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/compile.js';
import { newGame } from '../engine/game.js';
import { nextU32, seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/rulesets.js';

/**
 * Self-play for training: games in which some seats play the learned policy (exploring a
 * little) and the rest the medium habits, the opponents the bots meet at the practice table.
 * Every afterstate a learned seat chose is an example, labelled with how the game went for
 * that seat: whether it won, and its score / 100.
 */
export interface SelfPlaySpec {
  ruleset: Ruleset;
  cc: CompiledCard;
  model: ValueModel | null;
  explore: number;
  scoreWeight: number;
  /** Share of games where every seat is learned; the rest seat one learned player among medium ones. */
  allLearned: number;
}

export interface Examples {
  /** rows x FEATURES */
  x: Float32Array;
  /** rows x 2: won (0/1), score / 100 */
  y: Float32Array;
  rows: number;
}

export interface SelfPlayStats {
  games: number;
  /** Seat-games played by the learned policy, and how many of them it won. */
  learnedSeats: number;
  learnedWins: number;
  wallGames: number;
}

/** Plays the games of seeds `seeds` and returns their examples. */
export function selfPlay(spec: SelfPlaySpec, seeds: readonly number[]): { examples: Examples; stats: SelfPlayStats } {
  const rowsX: Float32Array[] = [];
  const labels: number[] = [];
  const stats: SelfPlayStats = { games: 0, learnedSeats: 0, learnedWins: 0, wallGames: 0 };
  const medium = new HeuristicAgent(spec.cc, MEDIUM_HABITS, 'medium');
  const players = spec.ruleset.players;
  for (const seed of seeds) {
    const rng = seedRng(seed ^ 0x5bd1e995);
    const all = nextU32(rng) / 0x100000000 < spec.allLearned;
    const lone = nextU32(rng) % players;
    const trace: { seat: number; row: Float32Array }[] = [];
    const record = (seat: number, row: Float32Array) => { trace.push({ seat, row }); };
    const learned = new LearnedAgent(spec.cc, spec.model, { explore: spec.explore, scoreWeight: spec.scoreWeight, record });
    const agents: Agent[] = Array.from({ length: players }, (_, s) => (all || s === lone ? learned : medium));
    const state = newGame(spec.ruleset, spec.cc, seed);
    playOut(state, agents, rng);
    const r = state.result!;
    stats.games++;
    if (r.wallGame) stats.wallGames++;
    for (let s = 0; s < players; s++) {
      if (agents[s] !== learned) continue;
      stats.learnedSeats++;
      if (r.winners.includes(s)) stats.learnedWins++;
    }
    for (const { seat, row } of trace) {
      rowsX.push(row);
      labels.push(r.winners.includes(seat) ? 1 : 0, r.scores[seat] / 100);
    }
  }
  const rows = rowsX.length;
  const x = new Float32Array(rows * FEATURES);
  rowsX.forEach((row, i) => x.set(row, i * FEATURES));
  return { examples: { x, y: Float32Array.from(labels), rows }, stats };
}
