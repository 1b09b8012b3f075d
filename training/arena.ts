import { makeAgent } from '../agents/levels.js';
import { playOut } from '../agents/table.js';
import type { CompiledCard } from '../engine/compile.js';
import { newGame } from '../engine/game.js';
import { seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/rulesets.js';

/**
 * Duplicate-deal arenas: every deal is played once per rotation of the seats, so each agent
 * plays each hand from each seat and luck of the deal cancels out. A deal is a pure
 * function of (seed, deal index): the same results however many threads play them.
 */
export interface ArenaSpec {
  ruleset: Ruleset;
  /** Agent names, one per seat (the first rotation). */
  seats: string[];
  seed: number;
}

/** One game: which agent sat where, and what each seat scored. */
export interface ArenaGame {
  deal: number;
  rotation: number;
  /** Agent name at each seat. */
  agents: string[];
  winners: number[];
  wallGame: boolean;
  scores: number[];
}

/** The seed of deal d: deals are independent, so workers can take any of them. */
export const dealSeed = (spec: ArenaSpec, deal: number): number => (spec.seed + deal * 7919) >>> 0;

/** Plays deal `deal` once per rotation of the seats. */
export function playDeal(spec: ArenaSpec, cc: CompiledCard, deal: number): ArenaGame[] {
  const n = spec.seats.length;
  const out: ArenaGame[] = [];
  for (let rotation = 0; rotation < n; rotation++) {
    const names = spec.seats.map((_, s) => spec.seats[(s + rotation) % n]);
    const agents = names.map((name) => makeAgent(name, cc, spec.ruleset));
    const seed = dealSeed(spec, deal);
    const state = newGame(spec.ruleset, cc, seed);
    playOut(state, agents, seedRng(seed ^ (0x9e3779b9 * (rotation + 1))));
    const r = state.result!;
    out.push({ deal, rotation, agents: names, winners: [...new Set(r.winners)], wallGame: r.wallGame, scores: r.scores });
  }
  return out;
}

export interface AgentSummary {
  agent: string;
  seatGames: number;
  wins: number;
  winShare: number;
  /** 95% interval of the win share, over deals (each deal's seat-games are one sample, since a deal's rotations are alike). */
  ci95: [number, number];
  meanScore: number;
  scoreCi95: [number, number];
}

export interface ArenaSummary {
  deals: number;
  games: number;
  wallGames: number;
  wallGameRate: number;
  /** Win share an agent would have by chance: (1 - wall-game rate) / seats. */
  parity: number;
  results: AgentSummary[];
}

function meanInterval(samples: number[]): { mean: number; ci: [number, number] } {
  const n = samples.length;
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? samples.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return { mean, ci: [mean - half, mean + half] };
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Win share, mean score and their 95% intervals per distinct agent, from a list of games. */
export function summarize(spec: ArenaSpec, games: ArenaGame[]): ArenaSummary {
  const deals = new Set(games.map((g) => g.deal)).size;
  const wallGames = games.filter((g) => g.wallGame).length;
  const results: AgentSummary[] = [];
  for (const agent of [...new Set(spec.seats)]) {
    const perDealWins = new Map<number, { wins: number; seats: number; score: number }>();
    let wins = 0, seatGames = 0, score = 0;
    for (const g of games) {
      g.agents.forEach((name, seat) => {
        if (name !== agent) return;
        const d = perDealWins.get(g.deal) ?? { wins: 0, seats: 0, score: 0 };
        const won = g.winners.includes(seat) ? 1 : 0;
        d.wins += won; d.seats++; d.score += g.scores[seat];
        perDealWins.set(g.deal, d);
        wins += won; seatGames++; score += g.scores[seat];
      });
    }
    const share = meanInterval([...perDealWins.values()].map((d) => d.wins / d.seats));
    const meanScore = meanInterval([...perDealWins.values()].map((d) => d.score / d.seats));
    results.push({
      agent,
      seatGames,
      wins,
      winShare: round(wins / seatGames),
      ci95: [round(Math.max(0, share.ci[0])), round(Math.min(1, share.ci[1]))],
      meanScore: round(score / seatGames, 2),
      scoreCi95: [round(meanScore.ci[0], 2), round(meanScore.ci[1], 2)],
    });
  }
  const wallGameRate = wallGames / games.length;
  return { deals, games: games.length, wallGames, wallGameRate: round(wallGameRate), parity: round((1 - wallGameRate) / spec.seats.length), results };
}
