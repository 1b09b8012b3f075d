import { REVIEW_METHOD } from '../../agents/coach/review.js';
import { nextSchedule, type Schedule } from '../../agents/coach/practice.js';
import { guarded, type Db, type Row } from './db.js';

/**
 * Her mistakes as drills (issue 46): read from the kept reviews of her own games (a decision the
 * review charged, of a kind a drill asks: a Charleston pass, a discard, a call), each with its
 * schedule once she has answered it (practice_cards). A mistake she has not answered yet is due
 * since its review was kept. Nothing is copied out of the reviews: a review kept later brings
 * its mistakes in, and a record deleted takes them away.
 */

export interface Mistake {
  recordId: string;
  seat: number;
  /** The decision's action number in the record (the review's `index`). */
  decision: number;
  kind: 'charleston' | 'discard' | 'claims';
  due: Date;
  answered: number;
  rightAnswers: number;
  lastRight: boolean | null;
  finishedAt: Date;
  /** The sampled deals of the review that found it: its drill is graded on the same. */
  worlds: number;
}

/** Reviews read at most (her newest games'). */
const MAX_REVIEWS = 300;

const MISTAKES = `
  WITH hers AS (
    SELECT r.record_id, r.seat, r.review, r.created_at, r.worlds, c.finished_at
    FROM reviews r JOIN records c ON c.id = r.record_id AND c.seat = r.seat
    WHERE c.player_id = $1 AND r.method = $2
    ORDER BY c.finished_at DESC LIMIT $3
  ), mistakes AS (
    SELECT DISTINCT ON (h.record_id, (d->>'index')::int)
           h.record_id, h.seat, (d->>'index')::int AS decision, d->>'phase' AS kind, h.created_at, h.finished_at, h.worlds
    FROM hers h CROSS JOIN LATERAL jsonb_array_elements(h.review->'decisions') d
    WHERE (d->>'agreed')::boolean = false AND coalesce((d->>'asGood')::boolean, false) = false
      AND ((d->>'loss')::numeric > 0 OR coalesce((d->>'tilesLost')::int, 0) > 0)
      AND d->>'phase' IN ('charleston', 'discard', 'claims')
    ORDER BY h.record_id, (d->>'index')::int, h.worlds DESC
  )
  SELECT m.record_id, m.seat, m.decision, m.kind, m.finished_at, m.worlds, coalesce(p.due, m.created_at) AS due,
         coalesce(p.answered, 0) AS answered, coalesce(p.right_answers, 0) AS right_answers, p.last_right
  FROM mistakes m LEFT JOIN practice_cards p ON p.player_id = $1 AND p.record_id = m.record_id AND p.decision = m.decision`;

const mistakeOf = (r: Row): Mistake => ({
  recordId: r.record_id as string,
  seat: Number(r.seat),
  decision: Number(r.decision),
  kind: r.kind as Mistake['kind'],
  due: new Date(r.due as string),
  answered: Number(r.answered),
  rightAnswers: Number(r.right_answers),
  lastRight: (r.last_right as boolean | null) ?? null,
  finishedAt: new Date(r.finished_at as string),
  worlds: Number(r.worlds),
});

export class PracticeStore {
  constructor(private readonly db: Db) {}

  /** Every mistake of her reviewed games, the soonest due first. */
  async mistakes(player: string): Promise<Mistake[]> {
    return guarded(async () => (await this.db.query(`${MISTAKES} ORDER BY due, m.record_id, m.decision`, [player, REVIEW_METHOD, MAX_REVIEWS])).map(mistakeOf));
  }

  /** One of her mistakes, or null when it is none of hers (or no mistake). */
  async mistake(player: string, recordId: string, decision: number): Promise<Mistake | null> {
    return guarded(async () => {
      const rows = await this.db.query(`${MISTAKES} WHERE m.record_id = $4 AND m.decision = $5`, [player, REVIEW_METHOD, MAX_REVIEWS, recordId, decision]);
      return rows.length === 0 ? null : mistakeOf(rows[0]);
    });
  }

  /** Her answer to a mistake's drill at `now`, committed: its next day by FSRS. */
  async answered(player: string, recordId: string, decision: number, right: boolean, now: Date): Promise<Date> {
    return guarded(() =>
      this.db.transaction(async (sql) => {
        const kept = (await sql.query('SELECT fsrs FROM practice_cards WHERE player_id = $1 AND record_id = $2 AND decision = $3 FOR UPDATE', [player, recordId, decision]))[0];
        const next = nextSchedule((kept?.fsrs as Schedule | undefined) ?? null, right, now);
        await sql.query(
          `INSERT INTO practice_cards (player_id, record_id, decision, fsrs, due, answered, right_answers, last_right, answered_at)
           VALUES ($1, $2, $3, $4::text::jsonb, $5, 1, $6, $7, $8)
           ON CONFLICT (player_id, record_id, decision) DO UPDATE SET fsrs = EXCLUDED.fsrs, due = EXCLUDED.due,
             answered = practice_cards.answered + 1, right_answers = practice_cards.right_answers + EXCLUDED.right_answers,
             last_right = EXCLUDED.last_right, answered_at = EXCLUDED.answered_at`,
          [player, recordId, decision, JSON.stringify(next), next.due, right ? 1 : 0, right, now.toISOString()],
        );
        return new Date(next.due);
      }),
    );
  }
}
