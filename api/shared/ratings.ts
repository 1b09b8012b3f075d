import { ordinal, rate, rating, type Rating } from 'openskill';
import type { ScoringTable } from '../../engine/mah-jongg/rulesets.js';
import { acceptedRounds, type EventState } from '../../engine/tournament/event.js';
import { tablePoints } from '../../engine/tournament/standings.js';

/**
 * Ratings across a server's club events (issue 47), by the Weng–Lin Bayesian rating of
 * `openskill` (its default Plackett–Luce model): every table of every accepted round is one
 * match among its rated players (those registered with their Tilemate account), ranked by
 * their points in that round at that table, ties sharing a rank. A rating is a mean and an
 * uncertainty: a new player starts at 25 give or take 8.3, and each table she plays narrows it.
 */

export interface PlayerRating {
  mu: number;
  sigma: number;
  /** Tables she was rated at. */
  tables: number;
}

/** Each account's rating after the events, taken in the order given (oldest first). */
export function rateEvents(events: readonly { state: EventState; scoring: ScoringTable }[]): Map<string, PlayerRating> {
  const out = new Map<string, PlayerRating>();
  const of = (account: string): PlayerRating => out.get(account) ?? { ...rating(), tables: 0 };
  for (const { state, scoring } of events) {
    for (const round of acceptedRounds(state)) {
      for (const table of round.games.keys()) {
        const points = [...tablePoints(round, table, scoring)].flatMap(([id, ps]) => {
          const account = state.players.get(id)?.account;
          return account ? [{ account, total: ps.reduce((a, b) => a + b, 0) }] : [];
        });
        // a match needs two rated players
        if (points.length < 2) continue;
        const teams = points.map((p) => [of(p.account) as Rating]);
        // openskill ranks 1 first; the most points first, ties equal
        const rank = points.map((p) => 1 + points.filter((q) => q.total > p.total).length);
        const rated = rate(teams, { rank });
        points.forEach((p, i) => out.set(p.account, { mu: rated[i][0].mu, sigma: rated[i][0].sigma, tables: of(p.account).tables + 1 }));
      }
    }
  }
  return out;
}

/** A rating in one plain sentence: its value (mean), how sure it is, and on how many tables. */
export function ratingWords(r: PlayerRating | undefined): string {
  if (r === undefined || r.tables === 0) return 'You have no club rating yet: it starts once you play a round of an event registered with your account.';
  const mu = Math.round(r.mu);
  const give = Math.round(2 * r.sigma);
  const sure = r.sigma > 6 ? 'still a rough guess' : r.sigma > 3 ? 'taking shape' : 'fairly settled';
  return `Your club rating is ${mu}, give or take ${give} (${sure}), from ${r.tables} table${r.tables === 1 ? '' : 's'} at club events; a new player starts at 25.`;
}

/** The rating's conservative value (mean less three uncertainties): what the standings of ratings sort by. */
export const ratingOrdinal = (r: PlayerRating): number => ordinal({ mu: r.mu, sigma: r.sigma });
