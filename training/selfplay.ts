import type { Agent } from '../agents/agent.js';
import { featureWidth } from '../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import type { ValueModel } from '../agents/mah-jongg/model.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { nextU32, seedRng, type RngState } from '../engine/rng.js';
import type { Ruleset } from '../engine/mah-jongg/rulesets.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';

/**
 * Self-play for training: games in which some seats play the learned policy (exploring a
 * little) and the rest the medium habits, the opponents the bots meet at the practice table.
 * Every afterstate a learned seat chose is an example, labelled with how the game went for
 * that seat: whether it won, and its score / 100.
 */
export interface SelfPlaySpec extends PlaySettings {
  ruleset: Ruleset;
  cc: CompiledCard;
  model: ValueModel | null;
  /** The feature version recorded: the model's own (the two must agree), or a first generation's without one. */
  featureVersion: number;
}

/** How self-play games are played and labelled (plain data: it goes to the workers). */
export interface PlaySettings {
  explore: number;
  scoreWeight: number;
  /** Share of games where every seat is learned; the rest seat one learned player among medium ones. */
  allLearned: number;
  /**
   * The λ of the targets: each example learns λ-return of what followed, (1 - λ) of the model's
   * rating of the seat's next chosen afterstate plus λ of that one's target, the last one the
   * game's outcome (TD(λ), as TD-Gammon). 1 (or no model yet) is the plain outcome.
   */
  lambda: number;
}

export interface Examples {
  /** rows x the feature version's width */
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

/**
 * Which seats of a self-play game of seed `seed` play the learned policy (all of them in a share
 * `allLearned` of games, else one), and the game's random draws that follow.
 */
export function selfPlaySeats(seed: number, players: number, allLearned: number): { rng: RngState; learnedSeats: boolean[] } {
  const rng = seedRng(seed ^ 0x5bd1e995);
  const all = nextU32(rng) / 0x100000000 < allLearned;
  const lone = nextU32(rng) % players;
  return { rng, learnedSeats: Array.from({ length: players }, (_, s) => all || s === lone) };
}

/** Plays the games of seeds `seeds` and returns their examples. */
export function selfPlay(spec: SelfPlaySpec, seeds: readonly number[]): { examples: Examples; stats: SelfPlayStats } {
  // the chosen afterstates' features, row after row (one buffer, grown by doubling, not an array a row)
  if (spec.model !== null && spec.model.featureVersion !== spec.featureVersion)
    throw new Error(`self-play: a model of feature version ${spec.model.featureVersion} asked to record version ${spec.featureVersion}`);
  const FEATURES = featureWidth(spec.featureVersion);
  let x = new Float32Array(1024 * FEATURES);
  let rows = 0;
  const labels: number[] = [];
  const stats: SelfPlayStats = { games: 0, learnedSeats: 0, learnedWins: 0, wallGames: 0 };
  const medium = new HeuristicAgent(spec.cc, MEDIUM_HABITS, 'medium');
  const players = spec.ruleset.players;
  for (const seed of seeds) {
    const { rng, learnedSeats } = selfPlaySeats(seed, players, spec.allLearned);
    // this game's decisions, in step with their rows in x
    const trace: { seat: number; predicted: { win: number; score: number } | null }[] = [];
    const record = (seat: number, from: Float32Array, offset: number, predicted: { win: number; score: number } | null) => {
      if ((rows + 1) * FEATURES > x.length) {
        const grown = new Float32Array(2 * x.length);
        grown.set(x);
        x = grown;
      }
      x.set(from.subarray(offset, offset + FEATURES), rows * FEATURES);
      rows++;
      trace.push({ seat, predicted });
    };
    const learned = new LearnedAgent(spec.cc, spec.model, { explore: spec.explore, scoreWeight: spec.scoreWeight, featureVersion: spec.featureVersion, record });
    const agents: Agent[] = learnedSeats.map((l) => (l ? learned : medium));
    const state = newGame(spec.ruleset, spec.cc, seed);
    playOut(mahJonggGame(spec.ruleset, spec.cc), state, agents, rng);
    const r = state.result!;
    stats.games++;
    if (r.wallGame) stats.wallGames++;
    for (let s = 0; s < players; s++) {
      if (agents[s] !== learned) continue;
      stats.learnedSeats++;
      if (r.winners.includes(s)) stats.learnedWins++;
    }
    // targets, from each seat's last decision back to its first
    const targets: number[][] = new Array(trace.length);
    const ahead = new Map<number, { win: number; score: number }>();
    for (let i = trace.length - 1; i >= 0; i--) {
      const { seat, predicted } = trace[i];
      const g = ahead.get(seat) ?? { win: r.winners.includes(seat) ? 1 : 0, score: r.scores[seat] / 100 };
      targets[i] = [g.win, g.score];
      const l = spec.lambda;
      ahead.set(seat, predicted === null ? g : { win: (1 - l) * predicted.win + l * g.win, score: (1 - l) * predicted.score + l * g.score });
    }
    for (let i = 0; i < trace.length; i++) labels.push(targets[i][0], targets[i][1]);
  }
  // a view of the rows (its readers copy it: into shared memory, or into a generation's examples)
  return { examples: { x: x.subarray(0, rows * FEATURES), y: Float32Array.from(labels), rows }, stats };
}
