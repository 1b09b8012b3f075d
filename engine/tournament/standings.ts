import { TilemateError } from '../errors.js';
import type { ScoringTable } from '../mah-jongg/rulesets.js';
import { scoreResult, type GameResult } from './score-card.js';
import { SEATS, type Seat, type Seating } from './seating.js';

/**
 * A Mah Jongg event's standings (issue 47), pure: each round's games at each table scored by the
 * engine's scorer (score-card.ts), the Director's penalties and adjustments added with their
 * reasons, and the players ranked by their totals.
 *
 * The rule documents give no tie-break; ours, said on the standings page: more Mah Jonggs,
 * then the best single game, then the same place (shared, as "=3").
 */

/** One round as the scorekeeper accepted it: its seating and, at each table, its games in order. */
export interface AcceptedRound {
  round: number;
  seating: Seating;
  /** Each table's games (four in a round, fewer when the round's clock ended one). */
  games: Map<number, GameResult[]>;
}

/** A change to a player's points by the Director (a late arrival's penalty, a ruling), always with its reason. */
export interface Adjustment {
  player: string;
  round: number | null;
  points: number;
  reason: string;
}

export interface Standing {
  player: string;
  /** Her points in each round; null for a round she did not play (she came late, or had withdrawn). */
  rounds: (number | null)[];
  /** The Director's adjustments, added. */
  adjusted: number;
  total: number;
  mahJonggs: number;
  bestGame: number;
  /** Her place: 1 for the first; players tied on every tie-break share it. */
  place: number;
}

/** Each player's points at a table's games, by seat (the table's players read off the round's seating). */
export function tablePoints(round: AcceptedRound, table: number, scoring: ScoringTable): Map<string, number[]> {
  const at = [...round.seating].filter(([, p]) => p.table === table);
  const bySeat = new Map<Seat, string>(at.map(([id, p]) => [p.seat, id]));
  // the seats the table has: four, or three with whichever seat is empty (rules 3.1)
  const seats = SEATS.filter((s) => bySeat.has(s));
  if (seats.length < 3) throw new TilemateError('TM_BAD_INPUT', `round ${round.round}, table ${table}: ${seats.length} players cannot play a game`);
  const out = new Map<string, number[]>(at.map(([id]) => [id, []]));
  for (const game of round.games.get(table) ?? []) {
    const points = scoreResult(game, seats, scoring);
    for (const [seat, p] of points) out.get(bySeat.get(seat)!)!.push(p);
  }
  return out;
}

/** The standings after the accepted rounds, with the Director's adjustments. */
export function standings(players: readonly string[], rounds: readonly AcceptedRound[], adjustments: readonly Adjustment[], scoring: ScoringTable): Standing[] {
  const ordered = [...rounds].sort((a, b) => a.round - b.round);
  const rows = new Map<string, Standing>(players.map((p) => [p, { player: p, rounds: ordered.map(() => null), adjusted: 0, total: 0, mahJonggs: 0, bestGame: -Infinity, place: 0 }]));
  ordered.forEach((round, r) => {
    for (const table of round.games.keys()) {
      for (const [id, points] of tablePoints(round, table, scoring)) {
        const row = rows.get(id);
        if (row === undefined) throw new TilemateError('TM_BAD_INPUT', `round ${round.round}: ${id} is not registered`);
        row.rounds[r] = (row.rounds[r] ?? 0) + points.reduce((a, b) => a + b, 0);
        for (const p of points) row.bestGame = Math.max(row.bestGame, p);
      }
      const seated = [...round.seating].filter(([, p]) => p.table === table);
      for (const g of round.games.get(table) ?? []) {
        const winner = seated.find(([, p]) => p.seat === g.winner);
        if (winner) rows.get(winner[0])!.mahJonggs++;
      }
    }
  });
  for (const a of adjustments) {
    const row = rows.get(a.player);
    if (row === undefined) throw new TilemateError('TM_BAD_INPUT', `an adjustment for ${a.player}, who is not registered`);
    row.adjusted += a.points;
  }
  const out = [...rows.values()].map((row) => ({ ...row, total: row.rounds.reduce((a: number, b) => a + (b ?? 0), 0) + row.adjusted, bestGame: row.bestGame === -Infinity ? 0 : row.bestGame }));
  const order = (a: Standing, b: Standing) => b.total - a.total || b.mahJonggs - a.mahJonggs || b.bestGame - a.bestGame;
  out.sort((a, b) => order(a, b) || a.player.localeCompare(b.player));
  out.forEach((row, i) => {
    row.place = i > 0 && order(out[i - 1], row) === 0 ? out[i - 1].place : i + 1;
  });
  return out;
}
