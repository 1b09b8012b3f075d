import { gameTypeOfRecord } from '../../engine/registry.js';
import type { GamePlayed, ReviewSeen } from '../../agents/coach/progress.js';
import { REVIEW_METHOD } from '../../agents/coach/review.js';
import { guarded, type Db, type Row } from './db.js';

/**
 * Finished games' records in the database, with their reviews. Games in progress, against bots
 * or with friends, are tables (api/store/tables.ts): a finished game's record is written in the
 * same transaction as its table's last actions.
 */

/** A finished game as a list shows it, from its record's header and end line. */
export interface RecordRow {
  id: string;
  owner: string | null;
  /** The player whose game it was, and her seat (null: a game from before accounts). */
  player: string | null;
  seat: number | null;
  game: string;
  ruleset: string;
  card?: string;
  seed: number;
  seats: string[];
  winners: number[];
  scores: number[];
  wallGame?: boolean;
  actions: number;
  finishedAt: string;
}

/** A finished game's record to keep: its text and its summary. */
export interface NewRecord extends Omit<RecordRow, 'finishedAt'> {
  text: string;
  /** When it ended (default: now); a record imported from a file keeps the file's time. */
  finishedAt?: Date;
  /** The token's hash of the person whose record it is, so her token still opens how the game ended once its table has gone (Tables.finished). */
  tokenHash?: Buffer;
}

/** A finished game as its person's token opens it: the record and its seat. */
export interface FinishedGame {
  id: string;
  text: string;
  seat: number;
}

/** What a list shows of a record, from its header and end line (no replay: cheap), or null when it is not a finished record. */
export function recordSummary(text: string): Omit<NewRecord, 'id' | 'owner' | 'player' | 'seat' | 'text' | 'finishedAt'> | null {
  try {
    const lines = text.trimEnd().split('\n');
    if (lines.length < 2) return null;
    const header = JSON.parse(lines[0]) as Record<string, unknown>;
    const end = (JSON.parse(lines[lines.length - 1]) as { end?: Record<string, unknown> }).end;
    const type = gameTypeOfRecord(header.format);
    if (type === undefined || typeof end !== 'object' || end === null || !Number.isSafeInteger(header.seed) || !Array.isArray(header.seats)) return null;
    const s = type.recordSummary(header, end);
    return s === null ? null : { game: type.name, ...s, seed: header.seed as number, seats: header.seats as string[], actions: lines.length - 2 };
  } catch {
    return null;
  }
}

const listing = (r: Row): RecordRow => ({
  id: r.id as string,
  owner: (r.owner as string | null) ?? null,
  player: (r.player_id as string | null) ?? null,
  seat: (r.seat as number | null) ?? null,
  game: r.game as string,
  ruleset: r.ruleset as string,
  ...(r.card !== null ? { card: r.card as string } : {}),
  seed: Number(r.seed),
  seats: r.seats as string[],
  winners: r.winners as number[],
  scores: r.scores as number[],
  ...(r.wall_game !== null ? { wallGame: r.wall_game as boolean } : {}),
  actions: r.actions as number,
  finishedAt: new Date(r.finished_at as string).toISOString(),
});

const json = (v: unknown): string => JSON.stringify(v);

export class GameStore {
  constructor(readonly db: Db) {}

  /** Keeps a finished record, inside the caller's transaction (a record already kept stays as it is). */
  async insertRecord(sql: { query: Db['query'] }, r: NewRecord): Promise<void> {
    await sql.query(
      `INSERT INTO records (id, owner, player_id, seat, game, ruleset, card, seed, seats, winners, scores, wall_game, actions, text, finished_at, token_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb, $10::text::jsonb, $11::text::jsonb, $12, $13, $14, coalesce($15::text::timestamptz, now()), $16) ON CONFLICT (id) DO NOTHING`,
      [
        r.id,
        r.owner,
        r.player,
        r.seat,
        r.game,
        r.ruleset,
        r.card ?? null,
        r.seed,
        json(r.seats),
        json(r.winners),
        json(r.scores),
        r.wallGame ?? null,
        r.actions,
        r.text,
        r.finishedAt?.toISOString() ?? null,
        r.tokenHash ?? null,
      ],
    );
  }

  /** A finished record kept on its own (an imported file). */
  saveRecord(record: NewRecord): Promise<void> {
    return guarded(() => this.db.transaction((sql) => this.insertRecord(sql, record)));
  }

  /** The finished game a person's token opens once its table has gone (its record keeps the token's hash), or null. */
  async finishedGame(tokenHash: Buffer): Promise<FinishedGame | null> {
    return guarded(async () => {
      const [r] = await this.db.query('SELECT id, text, seat FROM records WHERE token_hash = $1 AND seat IS NOT NULL', [tokenHash]);
      return r === undefined ? null : { id: r.id as string, text: r.text as string, seat: r.seat as number };
    });
  }

  /** Whether an id is taken by a table or a record. */
  async idTaken(id: string): Promise<boolean> {
    return guarded(async () => (await this.db.query('SELECT 1 FROM tables WHERE id = $1 UNION ALL SELECT 1 FROM records WHERE id = $1', [id])).length > 0);
  }

  /**
   * Which records a player may read: her own, her students' (she is their coach), those she
   * was made a reader of (a teaching table's coach), and the
   * games kept before accounts (owned by nobody, read by everyone as they were). Nobody else's.
   */
  private static readonly VISIBLE =
    '(player_id = $1 OR player_id IS NULL OR player_id IN (SELECT student_id FROM coach_links WHERE coach_id = $1) OR id IN (SELECT record_id FROM record_readers WHERE player_id = $1))';

  /** A record's text, when the player may read it; else null (as if there were none). */
  async recordText(id: string, player: string | null): Promise<string | null> {
    return guarded(async () => (await this.db.query<{ text: string }>(`SELECT text FROM records WHERE id = $2 AND ${GameStore.VISIBLE}`, [player, id]))[0]?.text ?? null);
  }

  /**
   * Records newest first, a page at a time: those the player may read (her own and those from
   * before accounts), or with `only`, that player's own alone (a coach's student: the caller checks the link).
   */
  async records(player: string | null, page: { offset: number; limit: number }, only = false): Promise<{ records: RecordRow[]; total: number }> {
    const where = only ? 'player_id = $1' : '(player_id = $1 OR player_id IS NULL)';
    return guarded(async () => {
      const rows = await this.db.query(
        `SELECT id, owner, player_id, seat, game, ruleset, card, seed, seats, winners, scores, wall_game, actions, finished_at FROM records WHERE ${where} ORDER BY finished_at DESC, id LIMIT $2 OFFSET $3`,
        [player, page.limit, page.offset],
      );
      const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM records WHERE ${where}`, [player]);
      return { records: rows.map(listing), total: n };
    });
  }

  /** A player's own finished games (newest `limit`), as her progress reads them. */
  async played(player: string, limit: number): Promise<GamePlayed[]> {
    return guarded(async () =>
      (
        await this.db.query('SELECT id, game, seat, seats, winners, scores, finished_at FROM records WHERE player_id = $1 AND seat IS NOT NULL ORDER BY finished_at DESC LIMIT $2', [player, limit])
      ).map((r) => ({
        id: r.id as string,
        game: r.game as string,
        seat: r.seat as number,
        seats: r.seats as string[],
        winners: r.winners as number[],
        scores: r.scores as number[],
        finishedAt: new Date(r.finished_at as string).toISOString(),
      })),
    );
  }

  /** The kept reviews of a player's own seat in her games (newest `limit`), by today's method (the one judge's verdicts), each decision's kind, verdict, cost and words only. */
  async reviewsOf(player: string, limit: number): Promise<ReviewSeen[]> {
    return guarded(async () =>
      (
        await this.db.query(
          `SELECT DISTINCT ON (c.finished_at, r.record_id) r.record_id,
              (SELECT coalesce(jsonb_agg(jsonb_build_object('index', d->'index', 'phase', d->'phase', 'agreed', d->'agreed', 'verdict', d->'verdict', 'loss', d->'loss', 'chosen', d->'chosen', 'suggested', d->'suggested', 'why', d->'why', 'reason', d->'reason')), '[]'::jsonb)
                 FROM jsonb_array_elements(r.review->'decisions') d) AS decisions,
              r.review->'dead' AS dead
       FROM reviews r JOIN records c ON c.id = r.record_id AND c.seat = r.seat
       WHERE c.player_id = $1 AND r.method = $3 ORDER BY c.finished_at DESC, r.record_id, r.worlds DESC LIMIT $2`,
          [player, limit, REVIEW_METHOD],
        )
      ).map((r) => ({ recordId: r.record_id as string, decisions: r.decisions as ReviewSeen['decisions'], dead: (r.dead as { index: number } | null) ?? null })),
    );
  }

  /** A review kept for the record, seat and deals by today's method, or null. */
  async review(recordId: string, seat: number, worlds: number): Promise<unknown> {
    return guarded(
      async () => (await this.db.query('SELECT review FROM reviews WHERE record_id = $1 AND seat = $2 AND worlds = $3 AND method = $4', [recordId, seat, worlds, REVIEW_METHOD]))[0]?.review ?? null,
    );
  }

  /** Keeps a record's review (the first one computed stands). */
  async saveReview(recordId: string, seat: number, worlds: number, review: unknown): Promise<void> {
    await guarded(() =>
      this.db.query('INSERT INTO reviews (record_id, seat, worlds, method, review) VALUES ($1, $2, $3, $4, $5::text::jsonb) ON CONFLICT DO NOTHING', [
        recordId,
        seat,
        worlds,
        REVIEW_METHOD,
        json(review),
      ]),
    );
  }

  /** Every record's text, oldest first, a page at a time (`tilemate export`). */
  async recordTexts(after: string | null, limit: number): Promise<{ id: string; text: string; finishedAt: string }[]> {
    return guarded(async () => {
      const rows = await this.db.query('SELECT id, text, finished_at FROM records WHERE $1::text IS NULL OR id > $1 ORDER BY id LIMIT $2', [after, limit]);
      return rows.map((r) => ({ id: r.id as string, text: r.text as string, finishedAt: new Date(r.finished_at as string).toISOString() }));
    });
  }

  /** A fact about this database (null when never set). */
  async fact(name: string): Promise<unknown> {
    return guarded(async () => (await this.db.query('SELECT value FROM store_facts WHERE name = $1', [name]))[0]?.value ?? null);
  }

  async setFact(name: string, value: unknown): Promise<void> {
    await guarded(() => this.db.query('INSERT INTO store_facts (name, value) VALUES ($1, $2::text::jsonb) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, json(value)]));
  }
}
