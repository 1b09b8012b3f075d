import { ordinal, rate, rating, type Rating } from 'openskill';
import type { ScoringTable } from '../../engine/mah-jongg/rulesets.js';
import { acceptedRounds, type EventState } from '../../engine/tournament/event.js';
import { tablePoints } from '../../engine/tournament/standings.js';
import { gameTotals, type TrainEventState } from '../../engine/tournament/train-event.js';

/**
 * Ratings across a server's club events (issue 47), by the Weng–Lin Bayesian rating of
 * `openskill` (its default Plackett–Luce model): every table of every accepted round is one
 * match among its rated players (those registered with their Tilemate account), ranked by
 * their points in that round at that table, ties sharing a rank. A rating is a mean and an
 * uncertainty: a new player starts at 25 give or take 8.3, and each table she plays narrows it.
 * Mexican Train has a rating of its own (a different game, a different skill): each table of
 * each accepted game is a match, the fewest points first.
 */

export interface PlayerRating {
  mu: number;
  sigma: number;
  /** Tables she was rated at. */
  tables: number;
}

/** One table's result: each rated player's points there (her account's), and the better way (more points at Mah Jongg, fewer at Mexican Train). */
interface Match {
  points: { account: string; total: number }[];
  better: 'more' | 'fewer';
}

/** The tables of a Mah Jongg event's accepted rounds, among the players registered with their accounts. */
function mahJonggMatches(state: EventState, scoring: ScoringTable): Match[] {
  return acceptedRounds(state).flatMap((round) =>
    [...round.games.keys()].map((table) => ({
      better: 'more' as const,
      points: [...tablePoints(round, table, scoring)].flatMap(([id, ps]) => {
        const account = state.players.get(id)?.account;
        return account ? [{ account, total: ps.reduce((a, b) => a + b, 0) }] : [];
      }),
    })),
  );
}

/** The tables of a Mexican Train event's accepted games, among the players registered with their accounts. */
function trainMatches(state: TrainEventState): Match[] {
  return state.games
    .filter((g) => g.accepted)
    .flatMap((g) => {
      const totals = gameTotals(g);
      return g.tables.map((table) => ({
        better: 'fewer' as const,
        points: table.flatMap((id) => {
          const account = state.players.get(id)?.account;
          return account ? [{ account, total: totals.get(id) ?? 0 }] : [];
        }),
      }));
    });
}

/** Each account's rating after the matches, in the order given. */
function rateMatches(matches: readonly Match[]): Map<string, PlayerRating> {
  const out = new Map<string, PlayerRating>();
  const of = (account: string): PlayerRating => out.get(account) ?? { ...rating(), tables: 0 };
  for (const { points, better } of matches) {
    // a match needs two rated players
    if (points.length < 2) continue;
    const teams = points.map((p) => [of(p.account) as Rating]);
    // openskill ranks 1 first; the better total first, ties equal
    const rank = points.map((p) => 1 + points.filter((q) => (better === 'more' ? q.total > p.total : q.total < p.total)).length);
    const rated = rate(teams, { rank });
    points.forEach((p, i) => out.set(p.account, { mu: rated[i][0].mu, sigma: rated[i][0].sigma, tables: of(p.account).tables + 1 }));
  }
  return out;
}

/** Each account's Mah Jongg rating after the events, taken in the order given (oldest first). */
export function rateEvents(events: readonly { state: EventState; scoring: ScoringTable }[]): Map<string, PlayerRating> {
  return rateMatches(events.flatMap((e) => mahJonggMatches(e.state, e.scoring)));
}

/** Each account's Mexican Train rating after the events, taken in the order given (oldest first). */
export function rateTrainEvents(events: readonly TrainEventState[]): Map<string, PlayerRating> {
  return rateMatches(events.flatMap(trainMatches));
}

/** A rating in one plain sentence: its value (mean), how sure it is, and on how many tables; `game` names a rating other than Mah Jongg's. */
export function ratingWords(r: PlayerRating | undefined, game = ''): string {
  const club = game ? `${game} club rating` : 'club rating';
  if (r === undefined || r.tables === 0) return `You have no ${club} yet: it starts once you play a round of an event you accepted for your account.`;
  const mu = Math.round(r.mu);
  const give = Math.round(2 * r.sigma);
  const sure = r.sigma > 6 ? 'still a rough guess' : r.sigma > 3 ? 'taking shape' : 'fairly settled';
  return `Your ${club} is ${mu}, give or take ${give} (${sure}), from ${r.tables} table${r.tables === 1 ? '' : 's'} at club events; a new player starts at 25.`;
}

/** The rating's conservative value (mean less three uncertainties): what the standings of ratings sort by. */
export const ratingOrdinal = (r: PlayerRating): number => ordinal({ mu: r.mu, sigma: r.sigma });
