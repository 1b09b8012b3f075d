import { randomInt } from 'node:crypto';
import { TilemateError } from '../../engine/errors.js';
import { applyAny, replayAny, type AnyChange, type AnyEvent } from '../../engine/tournament/any-event.js';
import { SHARE_ALPHABET } from './card-shares.js';
import { guarded, type Db } from './db.js';

/**
 * Club events (issue 47) on the shared database: an event is its list of changes
 * (engine/tournament/event.ts), each kept with who made it and when (its audit log). A change
 * is checked against the event as it stands inside the transaction that keeps it, the event's
 * row locked, so two servers never keep two changes the event cannot take; once this answers,
 * the change is kept. A score card entry carries the phone's own id for it: sent again (a phone
 * back on the room's Wi-Fi), it is kept once.
 */

/** Characters of an event's code and of a player's card code (the shared cards' alphabet: none that looks like another). */
const EVENT_CODE_LENGTH = 6;
const PLAYER_CODE_LENGTH = 8;
/**
 * Changes an event keeps at most from its desk (the director's and its online tables'); 52
 * players' cards over 8 rounds are about 2,000 in all. The players' cards are bounded apart,
 * each on its own (issue 63): nobody with a card code can use up the room the Director's accept,
 * clock and finish need, nor another card's.
 */
export const MAX_CHANGES = 20_000;
/**
 * Games one player's card enters at most (a round is four games and a check: 8 rounds are about
 * 40); her checks and reopenings have room beyond it, so a card that has entered all it may can
 * still check its partner's and be checked.
 */
export const MAX_CARD_CHANGES = 200;
/** Room a card keeps beyond its entries for its checks and reopenings. */
export const CARD_CHECKS_ROOM = 50;

export const newCode = (length: number): string => Array.from({ length }, () => SHARE_ALPHABET[randomInt(SHARE_ALPHABET.length)]).join('');
export const newPlayerCode = (): string => newCode(PLAYER_CODE_LENGTH);

export interface EventRow {
  code: string;
  directorId: string;
  name: string;
  createdAt: Date;
}

/** One kept change: the audit log's line. */
export interface LoggedChange {
  n: number;
  change: AnyChange;
  by: string;
  at: Date;
}

const rowOf = (r: Record<string, unknown>): EventRow => ({ code: r.code as string, directorId: r.director_id as string, name: r.name as string, createdAt: new Date(r.created_at as string) });

export class EventStore {
  /** Each event as it stood after its change `n`, kept between requests: checked against the database's last change before use (another server may have kept one since). */
  private readonly known = new Map<string, { n: number; state: AnyEvent }>();
  /** Each event's change kept inside a transaction not yet committed (the event's row lock lets one at a time). */
  private readonly pending = new Map<string, { n: number; state: AnyEvent }>();

  constructor(private readonly db: Db) {}

  /** The event after its last change, from what this server knows when nothing came since, else from all its changes. */
  private async current(sql: Pick<Db, 'query'>, code: string): Promise<{ n: number; state: AnyEvent }> {
    const last = Number((await sql.query('SELECT coalesce(max(n), 0) AS n FROM event_changes WHERE event_code = $1', [code]))[0].n);
    const kept = this.known.get(code);
    if (kept !== undefined && kept.n === last) return kept;
    const rows = await sql.query('SELECT change FROM event_changes WHERE event_code = $1 ORDER BY n', [code]);
    const now = { n: rows.length, state: replayAny(rows.map((r) => (typeof r.change === 'string' ? JSON.parse(r.change) : r.change) as AnyChange)) };
    if (this.known.size > 200) this.known.clear();
    this.known.set(code, now);
    return now;
  }

  /** A new event, its first change its creation; its code is answered. */
  async create(directorId: string, change: Extract<AnyChange, { type: 'create' }>): Promise<string> {
    replayAny([change]);
    return guarded(() =>
      this.db.transaction(async (sql) => {
        for (;;) {
          const code = newCode(EVENT_CODE_LENGTH);
          const taken = await sql.query('SELECT 1 FROM events WHERE code = $1', [code]);
          if (taken.length > 0) continue;
          await sql.query('INSERT INTO events (code, director_id, name) VALUES ($1, $2, $3)', [code, directorId, change.name]);
          await sql.query('INSERT INTO event_changes (event_code, n, change, by_whom) VALUES ($1, 1, $2::text::jsonb, $3)', [code, JSON.stringify(change), 'the director']);
          return code;
        }
      }),
    );
  }

  async row(code: string): Promise<EventRow | null> {
    return guarded(async () => {
      const rows = await this.db.query('SELECT code, director_id, name, created_at FROM events WHERE code = $1', [code]);
      const r = rows[0];
      return r === undefined ? null : rowOf(r);
    });
  }

  /** The director's events, the newest first. */
  async mine(directorId: string): Promise<EventRow[]> {
    return guarded(async () => (await this.db.query('SELECT code, director_id, name, created_at FROM events WHERE director_id = $1 ORDER BY created_at DESC LIMIT 100', [directorId])).map(rowOf));
  }

  /** The codes of the server's most recent events, the oldest of them first (ratings read them in order). */
  async recent(limit: number): Promise<string[]> {
    return guarded(async () =>
      (await this.db.query('SELECT code FROM (SELECT code, created_at FROM events ORDER BY created_at DESC LIMIT $1) e ORDER BY created_at', [limit])).map((r) => r.code as string),
    );
  }

  /**
   * The codes of the online events not finished, the latest changed first (api/http/event-tables.ts
   * looks after them): an event left unfinished long ago does not crowd out one in play, however
   * many there are.
   */
  async liveOnline(limit: number): Promise<string[]> {
    return guarded(async () =>
      (
        await this.db.query(
          `SELECT e.code FROM events e JOIN event_changes c ON c.event_code = e.code AND c.n = 1
           WHERE c.change -> 'online' IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM event_changes f WHERE f.event_code = e.code AND f.change ->> 'type' = 'finish')
           ORDER BY (SELECT max(l.at) FROM event_changes l WHERE l.event_code = e.code) DESC, e.created_at DESC LIMIT $1`,
          [limit],
        )
      ).map((r) => r.code as string),
    );
  }

  /** The event's changes, in order (its audit log). */
  async log(code: string): Promise<LoggedChange[]> {
    return guarded(async () =>
      (await this.db.query('SELECT n, change, by_whom, at FROM event_changes WHERE event_code = $1 ORDER BY n', [code])).map((r) => ({
        n: Number(r.n),
        change: (typeof r.change === 'string' ? JSON.parse(r.change) : r.change) as AnyChange,
        by: r.by_whom as string,
        at: new Date(r.at as string),
      })),
    );
  }

  /** The event as it stands (TM_NOT_FOUND when there is none). */
  async state(code: string): Promise<AnyEvent> {
    const { n, state } = await guarded(() => this.current(this.db, code));
    if (n === 0) throw new TilemateError('TM_NOT_FOUND', `no event has the code ${code.slice(0, 12)}`);
    return state;
  }

  /**
   * Keeps a change the event can take, made by `by` (a person's words for the log: "the
   * director", "Rose's phone"), and answers the event after it; refused (TM_BAD_INPUT, naming
   * why) and nothing kept when it cannot be made. `entry`: a phone's own id for a score card
   * entry, kept once however often it is sent (the event as it stands answers a repeat). `card`:
   * the player whose card makes the change (her id); her entry ids are hers alone, and her
   * changes are counted apart from the desk's.
   */
  async change(code: string, change: AnyChange, by: string, entry?: string, card?: string): Promise<AnyEvent> {
    return guarded(
      () =>
        this.db.transaction(async (sql) => {
          const ev = await sql.query('SELECT code FROM events WHERE code = $1 FOR UPDATE', [code]);
          if (ev.length === 0) throw new TilemateError('TM_NOT_FOUND', `no event has the code ${code.slice(0, 12)}`);
          if (entry !== undefined && (await sql.query("SELECT 1 FROM event_changes WHERE event_code = $1 AND entry = $2 AND coalesce(card, '') = $3", [code, entry, card ?? ''])).length > 0)
            return (await this.current(sql, code)).state;
          const { n, state } = await this.current(sql, code);
          const [made] = await sql.query(
            card === undefined ? 'SELECT count(*) AS k FROM event_changes WHERE event_code = $1 AND card IS NULL' : 'SELECT count(*) AS k FROM event_changes WHERE event_code = $1 AND card = $2',
            card === undefined ? [code] : [code, card],
          );
          if (card !== undefined && Number(made.k) >= MAX_CARD_CHANGES + (change.type === 'enter' ? 0 : CARD_CHECKS_ROOM))
            throw new TilemateError(
              'TM_BAD_INPUT',
              change.type === 'enter'
                ? `your card has made ${MAX_CARD_CHANGES} changes to this event, as many as a card makes: ask the Director to enter the rest`
                : `your card has made ${MAX_CARD_CHANGES + CARD_CHECKS_ROOM} changes to this event, as many as a card makes: ask the Director`,
            );
          if (card === undefined && Number(made.k) >= MAX_CHANGES) throw new TilemateError('TM_BAD_INPUT', `an event keeps at most ${MAX_CHANGES} changes from its desk`);
          // what this server knows is changed in place: forgotten unless the change is kept
          this.known.delete(code);
          applyAny(state, change);
          await sql.query('INSERT INTO event_changes (event_code, n, change, by_whom, entry, card) VALUES ($1, $2, $3::text::jsonb, $4, $5, $6)', [
            code,
            n + 1,
            JSON.stringify(change),
            by,
            entry ?? null,
            card ?? null,
          ]);
          this.pending.set(code, { n: n + 1, state });
          return state;
        }),
      (err) => err instanceof TilemateError,
    )
      .then((state) => {
        // committed: the next request starts from here
        const kept = this.pending.get(code);
        if (kept !== undefined) this.known.set(code, kept);
        return state;
      })
      .finally(() => this.pending.delete(code));
  }
}
