import { makeBot } from '../agents/bots.js';
import { playOut } from '../agents/table.js';
import type { Game } from '../engine/games.js';
import { seedRng } from '../engine/rng.js';

/**
 * Duplicate-deal arenas, for every game: every deal is played once per rotation of the
 * seats, so each agent plays each hand from each seat and luck of the deal cancels out. A
 * deal is a pure function of (seed, deal index): the same results however many threads play
 * them.
 */
export interface ArenaSpec {
  /** Agent names, one per seat (the first rotation). */
  seats: string[];
  seed: number;
}

/** One game: which agent sat where, who won, and what each seat scored. */
export interface ArenaGame {
  deal: number;
  rotation: number;
  /** Agent name at each seat. */
  agents: string[];
  winners: number[];
  /** Each seat's share of the win (the game's own count: a tie shares one win). */
  winShare: number[];
  scores: number[];
}

/** The seed of deal d: deals are independent, so workers can take any of them. */
export const dealSeed = (spec: ArenaSpec, deal: number): number => (spec.seed + deal * 7919) >>> 0;

/** Plays deal `deal` of the game once per rotation of the seats. */
export function playDeal(spec: ArenaSpec, game: Game, deal: number): ArenaGame[] {
  const n = spec.seats.length;
  const dealt = game.type.arenaGame(game, deal);
  const seed = dealSeed(spec, deal);
  const out: ArenaGame[] = [];
  for (let rotation = 0; rotation < n; rotation++) {
    const names = spec.seats.map((_, s) => spec.seats[(s + rotation) % n]);
    const agents = names.map((name) => makeBot(dealt, name));
    const state = dealt.newGame(seed);
    playOut(dealt, state, agents, seedRng(seed ^ Math.imul(0x9e3779b9, rotation + 1)));
    const r = dealt.outcome(state)!;
    out.push({ deal, rotation, agents: names, winners: r.winners, winShare: r.winShare, scores: r.scores });
  }
  return out;
}

export interface AgentSummary {
  agent: string;
  seatGames: number;
  /** Seat-games won (a shared win counts its share). */
  wins: number;
  winShare: number;
  /** 95% interval of the win share, over deals (each deal's seat-games are one sample, since a deal's rotations are alike). */
  ci95: [number, number];
  /** Mean score a seat-game, in the game's unit (Mah Jongg points; Mexican Train pips left, lower is better). */
  meanScore: number;
  scoreCi95: [number, number];
}

export interface ArenaSummary {
  deals: number;
  games: number;
  /** Games nobody won (Mah Jongg's wall games). */
  noWinner: number;
  noWinnerRate: number;
  /** Win share an agent would have by chance: the wins a game hands out, over the seats. */
  parity: number;
  results: AgentSummary[];
}

/** The mean of samples (one per deal) and its normal 95% interval. */
export function interval(samples: readonly number[]): { mean: number; low: number; high: number } {
  const n = samples.length;
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(samples.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half };
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Win share, mean score and their 95% intervals per distinct agent, from a list of games. */
export function summarize(spec: ArenaSpec, games: readonly ArenaGame[]): ArenaSummary {
  const deals = new Set(games.map((g) => g.deal)).size;
  const noWinner = games.filter((g) => g.winners.length === 0).length;
  const results: AgentSummary[] = [];
  for (const agent of [...new Set(spec.seats)]) {
    const perDeal = new Map<number, { wins: number; seats: number; score: number }>();
    let wins = 0,
      seatGames = 0,
      score = 0;
    for (const g of games) {
      g.agents.forEach((name, seat) => {
        if (name !== agent) return;
        const d = perDeal.get(g.deal) ?? { wins: 0, seats: 0, score: 0 };
        const won = g.winShare[seat];
        d.wins += won;
        d.seats++;
        d.score += g.scores[seat];
        perDeal.set(g.deal, d);
        wins += won;
        seatGames++;
        score += g.scores[seat];
      });
    }
    const share = interval([...perDeal.values()].map((d) => d.wins / d.seats));
    const meanScore = interval([...perDeal.values()].map((d) => d.score / d.seats));
    results.push({
      agent,
      seatGames,
      wins: round(wins),
      winShare: round(wins / seatGames),
      ci95: [round(Math.max(0, share.low)), round(Math.min(1, share.high))],
      meanScore: round(score / seatGames, 2),
      scoreCi95: [round(meanScore.low, 2), round(meanScore.high, 2)],
    });
  }
  const handedOut = games.reduce((a, g) => a + g.winShare.reduce((x, y) => x + y, 0), 0);
  return {
    deals,
    games: games.length,
    noWinner,
    noWinnerRate: round(noWinner / games.length),
    parity: round(handedOut / games.length / spec.seats.length),
    results,
  };
}
