import { REVIEW_METHOD } from '../../agents/coach/review.js';
import { nextSchedule, type Schedule } from '../../agents/coach/practice.js';
import { randomUUID } from 'node:crypto';
import { guarded, type Db, type Row } from './db.js';

/**
 * Her mistakes as drills (issue 46): read from the kept reviews of her own games (a decision the
 * judge called a mistake, agents/mah-jongg/judge.ts, of a kind a drill asks: a Charleston pass, a
 * courtesy offer, a discard, a call), each with its
 * schedule once she has answered it (practice_cards). A mistake she has not answered yet is due
 * since its review was kept. Nothing is copied out of the reviews: a review kept later brings
 * its mistakes in, and a record deleted takes them away.
 */

export interface Mistake {
  recordId: string;
  seat: number;
  /** The decision's action number in the record (the review's `index`). */
  decision: number;
  kind: 'charleston' | 'courtesy' | 'discard' | 'claims';
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
    WHERE d->>'verdict' = 'mistake'
      AND d->>'phase' IN ('charleston', 'courtesy', 'discard', 'claims')
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

/** Drills a coach gave: as the student sees them, with her answers so far. */
export interface DrillSet {
  id: string;
  coach: string;
  student: string;
  kind: string;
  level: number;
  seeds: number[];
  /** Her first answer to each drill answered, by its number. */
  answers: Record<string, boolean>;
  createdAt: string;
}

const setOf = (r: Row): DrillSet => ({
  id: r.id as string,
  coach: r.coach as string,
  student: r.student as string,
  kind: r.kind as string,
  level: Number(r.level),
  seeds: (r.seeds as number[]).map(Number),
  answers: (r.answers as Record<string, boolean> | null) ?? {},
  createdAt: new Date(r.created_at as string).toISOString(),
});

const SETS = `
  SELECT s.id, coalesce(c.name, 'a guest') AS coach, coalesce(st.name, 'a guest') AS student, s.kind, s.level, s.seeds, s.created_at,
         (SELECT jsonb_object_agg(a.seed::text, a.right_answer) FROM drill_set_answers a WHERE a.set_id = s.id) AS answers
  FROM drill_sets s JOIN players c ON c.id = s.coach_id JOIN players st ON st.id = s.student_id`;

/** Sets a list shows at most (the newest). */
const MAX_SETS = 100;

export class PracticeStore {
  constructor(private readonly db: Db) {}

  /** A coach gives each student the same drills: one set each, its id first. */
  async give(coachId: string, studentIds: readonly string[], kind: string, level: number, seeds: readonly number[]): Promise<string[]> {
    return guarded(() =>
      this.db.transaction(async (sql) => {
        const ids: string[] = [];
        for (const student of studentIds) {
          const id = randomUUID();
          await sql.query('INSERT INTO drill_sets (id, coach_id, student_id, kind, level, seeds) VALUES ($1, $2, $3, $4, $5, $6::text::jsonb)', [
            id,
            coachId,
            student,
            kind,
            level,
            JSON.stringify(seeds),
          ]);
          ids.push(id);
        }
        return ids;
      }),
    );
  }

  /** The sets her coaches gave her (the newest first), from coaches she still shares her games with. */
  async setsFor(studentId: string): Promise<DrillSet[]> {
    return guarded(async () =>
      (
        await this.db.query(
          `${SETS} WHERE s.student_id = $1 AND EXISTS (SELECT 1 FROM coach_links l WHERE l.student_id = s.student_id AND l.coach_id = s.coach_id) ORDER BY s.created_at DESC, s.id LIMIT $2`,
          [studentId, MAX_SETS],
        )
      ).map(setOf),
    );
  }

  /** The sets a coach gave, with her students' answers: only students who still share their games with her. */
  async setsBy(coachId: string): Promise<DrillSet[]> {
    return guarded(async () =>
      (
        await this.db.query(
          `${SETS} WHERE s.coach_id = $1 AND EXISTS (SELECT 1 FROM coach_links l WHERE l.student_id = s.student_id AND l.coach_id = s.coach_id) ORDER BY s.created_at DESC, s.id LIMIT $2`,
          [coachId, MAX_SETS],
        )
      ).map(setOf),
    );
  }

  /** Her answer to a drill of a set of hers (the first answer counts); null when the set is none of hers or holds no such drill. */
  async answerSet(studentId: string, setId: string, seed: number, right: boolean): Promise<DrillSet | null> {
    return guarded(async () => {
      const [set] = (await this.db.query(`${SETS} WHERE s.id = $1 AND s.student_id = $2`, [setId, studentId])).map(setOf);
      if (set === undefined || !set.seeds.includes(seed)) return null;
      await this.db.query('INSERT INTO drill_set_answers (set_id, seed, right_answer) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [setId, seed, right]);
      return set;
    });
  }

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
