import type { Agent, Turn } from '../agents/agent.js';
import { defaultModel } from '../agents/mah-jongg/default-model.js';
import { HeuristicAgent, MEDIUM_HABITS, STRONG_HABITS } from '../agents/mah-jongg/heuristic.js';
import { sameChoice } from '../agents/mah-jongg/judge.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { playCandidates } from '../agents/mah-jongg/montecarlo.js';
import { continuationSeed } from '../agents/mah-jongg/paired-worlds.js';
import { forcedAction, tableTurns } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { beforePlay, legalActions, type Action, type GameState } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import type { Ruleset } from '../engine/mah-jongg/rulesets.js';
import { seedRng } from '../engine/rng.js';
import { dealSeed } from '../training/arena.js';

/**
 * The ceiling (issue 61): a seat that sees every rack and the wall order. At each of its
 * decisions (a Charleston pass, the vote, the courtesy offer, a discard, an answer to a
 * discard, its own turn's Mah Jongg, exchanges and dead-hand calls) it values its candidates
 * with the judge's evaluation in the true world: each candidate played out to the end of the
 * game from the TRUE state (not a sampled world), the seat continuing by the strong habits and
 * the others as medium players (as PairedWorlds and playCandidates play them), the same
 * continuation seeds for every candidate, and it takes the best mean score (then the most wins,
 * then the first listed).
 *
 * The candidates: the strong habits' own choice first, then every legal action at a discard
 * or an answer to a discard (every discard, every call with each number of jokers, declining,
 * Mah Jongg, exchanges, dead-hand calls; `discards` > 0: the policy's best that many discards
 * instead of all), the policy's best `passes` passes at a pass, both votes, the policy's
 * courtesy offers.
 *
 * The continuation is deterministic: the engine draws nothing after the deal, and the strong
 * and medium habits use no randomness (no noise), so every continuation seed plays the same
 * game (`seeds` > 1 only checks this; `differed` counts the decisions where it did not hold).
 * As the real opponents are the same medium players, the oracle's playout of a candidate is
 * exactly the game that follows if it then plays the strong habits: taking the best of a set
 * that holds the habits' own choice, at every decision, it never ends a deal below the strong
 * habits' game from any of its positions (a rollout policy on a known world).
 *
 * Lab only: the true state never reaches a product bot; the oracle is not an Agent.
 */
export interface OracleOptions {
  /** Continuation seeds per candidate (the same for every candidate). */
  seeds: number;
  /** Charleston passes weighed beside the habits' own: the policy's best this many. */
  passes: number;
  /** Discards weighed: 0, every legal discard; otherwise the policy's best this many beside the habits' own. */
  discards: number;
}

export const ORACLE_DEFAULTS: OracleOptions = { seeds: 1, passes: 6, discards: 0 };

/** What the oracle did in a game: its decisions valued, the candidates and playouts, and the decisions whose seeds disagreed. */
export interface OracleWork {
  decisions: number;
  candidates: number;
  playouts: number;
  /** Actions applied by the playouts. */
  steps: number;
  differed: number;
}

export class OracleSeat {
  readonly work: OracleWork = { decisions: 0, candidates: 0, playouts: 0, steps: 0, differed: 0 };
  private readonly habits: HeuristicAgent;
  private readonly policy: LearnedAgent;
  /** The playouts' players, one a seat: the oracle's seat the strong habits, the others medium. */
  private readonly playout: Agent[];

  constructor(
    cc: CompiledCard,
    rules: Ruleset,
    private readonly seat: number,
    private readonly opts: OracleOptions = ORACLE_DEFAULTS,
    private readonly seed = 0,
  ) {
    this.habits = new HeuristicAgent(cc, STRONG_HABITS, 'oracle-habits');
    this.policy = new LearnedAgent(cc, defaultModel(), {}, 'oracle-policy');
    this.playout = Array.from({ length: rules.players }, (_, s) => new HeuristicAgent(cc, s === seat ? STRONG_HABITS : MEDIUM_HABITS, 'playout'));
  }

  /** The candidates at this decision, the habits' own choice first, each once. */
  candidates(state: GameState, turn: Turn, legal: readonly Action[]): Action[] {
    const out: Action[] = [];
    const add = (a: Action) => {
      if (!out.some((b) => sameChoice(a, b))) out.push(a);
    };
    add(this.habits.act(turn));
    const phase = turn.phase;
    if (beforePlay(phase)) {
      if (phase === 'vote') for (const a of legal) add(a);
      else for (const c of this.policy.choices(turn).slice(0, phase === 'charleston' ? this.opts.passes : 4)) add(c.action);
      return out;
    }
    for (const a of legal) if (a.type !== 'discard' || this.opts.discards === 0) add(a);
    if (this.opts.discards > 0 && state.phase.kind === 'discard') {
      for (const c of this.policy.choices(turn).slice(0, this.opts.discards)) add(c.action);
    }
    return out;
  }

  /** The seat's action in the true state (`turn` is the seat's turn at that state, as the table asks). */
  act(state: GameState, turn: Turn): Action {
    const legal = legalActions(state, this.seat);
    const forced = forcedAction(legal);
    if (forced !== null) return forced;
    const list = this.candidates(state, turn, legal);
    if (list.length === 1) return list[0];
    const n = list.length;
    const score = new Float64Array(n),
      wins = new Float64Array(n);
    let first: number[] | null = null,
      differed = false;
    const base = (this.seed ^ Math.imul(state.actionCount + 1, 0x27d4eb2d)) >>> 0;
    for (let k = 0; k < this.opts.seeds; k++) {
      const played = playCandidates(state, list, this.playout, continuationSeed(base, k), this.seat);
      this.work.playouts += n;
      this.work.steps += played.steps;
      played.scores.forEach((x, i) => {
        score[i] += x;
        if (played.won[i]) wins[i]++;
      });
      if (first === null) first = played.scores;
      else if (played.scores.some((x, i) => x !== first![i])) differed = true;
    }
    this.work.decisions++;
    this.work.candidates += n;
    if (differed) this.work.differed++;
    let best = 0;
    for (let i = 1; i < n; i++) if (score[i] > score[best] || (score[i] === score[best] && wins[i] > wins[best])) best = i;
    return list[best];
  }
}

/** One game of a deal: where the seat sat, who won, what it scored, and the oracle's work (null for a bot). */
export interface SeatGame {
  rotation: number;
  seat: number;
  winners: number[];
  scores: number[];
  work: OracleWork | null;
  ms: number;
}

/**
 * Deal `deal` of a duplicate arena with seed `seed`, once per seat (4 games): `who` ('oracle',
 * or a bot's name) at one seat, three medium bots at the others, exactly as the duplicate arena
 * (training/arena.ts playDeal) seats [who, medium, medium, medium] and rotates them, with the
 * same deal seed and the same table generator for each rotation, so a bot's games here are the
 * games lab/paired-study.ts plays with the same seed. `who` = 'medium': four medium bots.
 */
export function playSeatDeal(cc: CompiledCard, rules: Ruleset, seed: number, deal: number, who: string, opts: OracleOptions = ORACLE_DEFAULTS): SeatGame[] {
  const game = mahJonggGame(rules, cc);
  const n = rules.players;
  const gameSeed = dealSeed({ seats: [], seed }, deal);
  const out: SeatGame[] = [];
  for (let rotation = 0; rotation < n; rotation++) {
    // playDeal's rotation: seat s gets seats[(s + rotation) % n], so the first name sits at (n - rotation) % n
    const seat = (n - rotation) % n;
    const t0 = performance.now();
    const state = game.newGame(gameSeed);
    const oracle = who === 'oracle' ? new OracleSeat(cc, rules, seat, opts, gameSeed) : null;
    const agents: Agent[] = Array.from({ length: n }, (_, s) => makeAgent(s === seat && oracle === null ? who : 'medium', cc, rules));
    const turns = tableTurns(game, state, seedRng(gameSeed ^ Math.imul(0x9e3779b9, rotation + 1)));
    for (let s = game.nextToAct(state); s >= 0; s = game.nextToAct(state)) {
      const turn = turns[s];
      turn.phase = game.phase(state);
      game.apply(state, s === seat && oracle !== null ? oracle.act(state, turn) : agents[s].act(turn));
    }
    const r = game.outcome(state)!;
    out.push({ rotation, seat, winners: r.winners, scores: r.scores, work: oracle?.work ?? null, ms: performance.now() - t0 });
  }
  return out;
}
