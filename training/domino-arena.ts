import { makeDominoAgent } from '../agents/domino/levels.js';
import { playDominoOut } from '../agents/domino/table.js';
import { newRound } from '../engine/domino/game.js';
import { loadDominoRuleset } from '../engine/domino/rulesets.js';
import { seedRng } from '../engine/rng.js';

/**
 * Mexican Train arenas on duplicate deals: every deal (one round, its engine cycling through
 * the ruleset's) is played once per rotation of the seats, so each agent plays each hand from
 * each seat. A deal is a pure function of (seed, deal index), so threads do not change results.
 */
export interface DominoArenaSpec {
  ruleset: string;
  /** Agent names, one per seat (the first rotation). */
  seats: string[];
  seed: number;
}

export interface DominoArenaGame {
  deal: number;
  rotation: number;
  agents: string[];
  /** Each seat's share of the win: 1 for going out; a blocked round is won by the fewest pips, shared on a tie. */
  winShare: number[];
  pipsLeft: number[];
}

export const dominoDealSeed = (spec: DominoArenaSpec, deal: number): number => (spec.seed + deal * 7919) >>> 0;

export function playDominoDeal(spec: DominoArenaSpec, deal: number): DominoArenaGame[] {
  const rules = loadDominoRuleset(spec.ruleset);
  const n = spec.seats.length;
  const out: DominoArenaGame[] = [];
  for (let rotation = 0; rotation < n; rotation++) {
    const names = spec.seats.map((_, s) => spec.seats[(s + rotation) % n]);
    const agents = names.map((name) => makeDominoAgent(name, spec.ruleset));
    const seed = dominoDealSeed(spec, deal);
    const state = newRound(rules, n, seed, deal % rules.engines.length);
    playDominoOut(state, agents, seedRng(seed ^ Math.imul(0x9e3779b9, rotation + 1)));
    const r = state.rounds[0];
    const low = Math.min(...r.pipsLeft);
    const winners = r.outBy >= 0 ? [r.outBy] : r.pipsLeft.flatMap((p, s) => (p === low ? [s] : []));
    out.push({ deal, rotation, agents: names, winShare: names.map((_, s) => (winners.includes(s) ? 1 / winners.length : 0)), pipsLeft: r.pipsLeft });
  }
  return out;
}

export interface DominoAgentSummary {
  agent: string;
  seatGames: number;
  winShare: number;
  /** 95% interval of the win share over deals (a deal's rotations are one sample: they share the tiles). */
  ci95: [number, number];
  meanPipsLeft: number;
  pipsCi95: [number, number];
}

export interface DominoArenaSummary {
  deals: number;
  games: number;
  /** Win share by chance: 1 / players. */
  parity: number;
  results: DominoAgentSummary[];
}

/** Mean and normal 95% interval of per-deal samples. */
export function meanCi(samples: number[]): { mean: number; ci: [number, number] } {
  const n = samples.length;
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? samples.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return { mean, ci: [mean - half, mean + half] };
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export function summarizeDomino(spec: DominoArenaSpec, games: DominoArenaGame[]): DominoArenaSummary {
  const deals = new Set(games.map((g) => g.deal)).size;
  const results: DominoAgentSummary[] = [];
  for (const agent of [...new Set(spec.seats)]) {
    const perDeal = new Map<number, { win: number; pips: number; seats: number }>();
    let seatGames = 0, win = 0, pips = 0;
    for (const g of games) {
      g.agents.forEach((name, s) => {
        if (name !== agent) return;
        const d = perDeal.get(g.deal) ?? { win: 0, pips: 0, seats: 0 };
        d.win += g.winShare[s]; d.pips += g.pipsLeft[s]; d.seats++;
        perDeal.set(g.deal, d);
        seatGames++; win += g.winShare[s]; pips += g.pipsLeft[s];
      });
    }
    const w = meanCi([...perDeal.values()].map((d) => d.win / d.seats));
    const p = meanCi([...perDeal.values()].map((d) => d.pips / d.seats));
    results.push({
      agent, seatGames,
      winShare: round(win / seatGames),
      ci95: [round(Math.max(0, w.ci[0])), round(Math.min(1, w.ci[1]))],
      meanPipsLeft: round(pips / seatGames, 2),
      pipsCi95: [round(p.ci[0], 2), round(p.ci[1], 2)],
    });
  }
  return { deals, games: games.length, parity: round(1 / spec.seats.length), results };
}
