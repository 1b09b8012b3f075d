import { randomBytes } from 'node:crypto';
import { TilemateError } from '../../engine/errors.js';
import { guarded, storageError, type Db } from './db.js';

/**
 * Players, their sessions and their cards. A person who plays without an account is a guest:
 * a player with no name, made on her first game or saved card, whose browser holds a session.
 * Signing up gives that same player a name and a password, so the games and cards she made as
 * a guest are hers. Sessions and passwords are kept only as hashes (the caller hashes).
 */

export interface Player {
  id: string;
  /** Null for a guest. */
  name: string | null;
}

/** A name as it is compared: two names that differ only in case or spacing are one. */
export const nameKey = (name: string): string => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** A new player id: 16 random bytes (never guessed). */
const newId = (): string => randomBytes(16).toString('base64url');

/** Invitation codes one student holds at once. */
const MAX_INVITES = 5;

/** Postgres' code for a unique key already taken. */
const UNIQUE_VIOLATION = '23505';

export class PlayerStore {
  constructor(readonly db: Db) {}

  /** A new guest. */
  async guest(): Promise<Player> {
    const id = newId();
    await guarded(() => this.db.query('INSERT INTO players (id) VALUES ($1)', [id]));
    return { id, name: null };
  }

  /** A session for the player, until `expires`. */
  async startSession(playerId: string, tokenHash: Buffer, expires: Date): Promise<void> {
    await guarded(() => this.db.query('INSERT INTO sessions (token_hash, player_id, expires_at) VALUES ($1, $2, $3::text::timestamptz)', [tokenHash, playerId, expires.toISOString()]));
  }

  /** The player a session belongs to, while it has not expired. */
  async bySession(tokenHash: Buffer): Promise<Player | null> {
    return guarded(async () => {
      const rows = await this.db.query<{ id: string; name: string | null }>(
        'SELECT p.id, p.name FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1 AND s.expires_at > now()',
        [tokenHash],
      );
      return rows[0] ?? null;
    });
  }

  /** Sessions past their time go (at start: they open nothing, and would only fill the table). */
  async endExpiredSessions(): Promise<void> {
    await guarded(() => this.db.query('DELETE FROM sessions WHERE expires_at <= now()'));
  }

  async endSession(tokenHash: Buffer): Promise<void> {
    await guarded(() => this.db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]));
  }

  /** Ends every session of the player but the one kept (a password changed: other browsers are signed out). */
  async endOtherSessions(playerId: string, keep: Buffer): Promise<void> {
    await guarded(() => this.db.query('DELETE FROM sessions WHERE player_id = $1 AND token_hash <> $2', [playerId, keep]));
  }

  /** Gives a guest a name and a password (signing up); TM_NAME_TAKEN when another player has the name. */
  async signUp(playerId: string, name: string, passwordHash: string): Promise<Player> {
    let rows: { id: string }[];
    try {
      rows = await this.db.query<{ id: string }>('UPDATE players SET name = $2, name_key = $3, password_hash = $4 WHERE id = $1 AND password_hash IS NULL RETURNING id', [
        playerId,
        name,
        nameKey(name),
        passwordHash,
      ]);
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new TilemateError('TM_NAME_TAKEN', `the name "${name}" is taken: please choose another`);
      throw storageError(err);
    }
    if (rows.length !== 1) throw new TilemateError('TM_BAD_INPUT', 'you already have an account: sign out first to make another');
    return { id: playerId, name };
  }

  /**
   * A guest's games, records and cards become the player's (she signed in on a device where
   * she had played as a guest); a card of a name she already has keeps hers. The guest goes.
   */
  async adopt(guestId: string, playerId: string): Promise<void> {
    await guarded(() =>
      this.db.transaction(async (sql) => {
        const [guest] = await sql.query<{ h: string | null }>('SELECT password_hash AS h FROM players WHERE id = $1', [guestId]);
        if (guest === undefined || guest.h !== null || guestId === playerId) return; // only a guest is adopted
        await sql.query('UPDATE tables SET host_id = $2 WHERE host_id = $1', [guestId, playerId]);
        await sql.query('UPDATE table_members SET player_id = $2 WHERE player_id = $1', [guestId, playerId]);
        await sql.query('UPDATE records SET player_id = $2 WHERE player_id = $1', [guestId, playerId]);
        await sql.query('INSERT INTO cards (player_id, name, text) SELECT $2, name, text FROM cards WHERE player_id = $1 ON CONFLICT (player_id, name) DO NOTHING', [guestId, playerId]);
        // the shared cards she kept as a guest stay on her list (api/store/card-shares.ts), her own never
        await sql.query(
          'INSERT INTO card_bookmarks (player_id, code) SELECT $2, b.code FROM card_bookmarks b JOIN card_shares s ON s.code = b.code WHERE b.player_id = $1 AND s.player_id <> $2 ON CONFLICT DO NOTHING',
          [guestId, playerId],
        );
        await sql.query('DELETE FROM players WHERE id = $1', [guestId]);
      }),
    );
  }

  /** A named player's id and password hash, by name. */
  async byName(name: string): Promise<{ id: string; name: string; passwordHash: string } | null> {
    return guarded(async () => {
      const rows = await this.db.query<{ id: string; name: string; password_hash: string }>('SELECT id, name, password_hash FROM players WHERE name_key = $1 AND password_hash IS NOT NULL', [
        nameKey(name),
      ]);
      return rows[0] ? { id: rows[0].id, name: rows[0].name, passwordHash: rows[0].password_hash } : null;
    });
  }

  async passwordHash(playerId: string): Promise<string | null> {
    return guarded(async () => (await this.db.query<{ h: string | null }>('SELECT password_hash AS h FROM players WHERE id = $1', [playerId]))[0]?.h ?? null);
  }

  async setPassword(playerId: string, passwordHash: string): Promise<void> {
    await guarded(() => this.db.query('UPDATE players SET password_hash = $2 WHERE id = $1', [playerId, passwordHash]));
  }

  // ------------------------------------------------------------------ coaches

  /** A new invitation code of the student's for a coach (its hash kept), good until `expires`. */
  async invite(studentId: string, codeHash: Buffer, expires: Date): Promise<void> {
    await guarded(() =>
      this.db.transaction(async (sql) => {
        await sql.query('INSERT INTO coach_invites (code_hash, student_id, expires_at) VALUES ($1, $2, $3::text::timestamptz)', [codeHash, studentId, expires.toISOString()]);
        // a student holds a few codes at most: the expired ones and all but the newest MAX_INVITES go
        await sql.query(
          `DELETE FROM coach_invites WHERE student_id = $1 AND (expires_at <= now() OR code_hash NOT IN
           (SELECT code_hash FROM coach_invites WHERE student_id = $1 ORDER BY expires_at DESC LIMIT ${MAX_INVITES}))`,
          [studentId],
        );
      }),
    );
  }

  /** The coach takes an invitation (used once): the student's name, or null for an unknown or expired code. */
  async acceptInvite(coachId: string, codeHash: Buffer): Promise<string | null> {
    return guarded(() =>
      this.db.transaction(async (sql) => {
        const [inv] = await sql.query<{ student_id: string; name: string | null }>(
          'DELETE FROM coach_invites i USING players p WHERE i.code_hash = $1 AND i.expires_at > now() AND p.id = i.student_id RETURNING i.student_id, p.name',
          [codeHash],
        );
        if (inv === undefined) return null;
        if (inv.student_id === coachId) throw new TilemateError('TM_BAD_INPUT', 'that is your own code: give it to your coach');
        await sql.query('INSERT INTO coach_links (student_id, coach_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [inv.student_id, coachId]);
        return inv.name ?? 'a guest';
      }),
    );
  }

  /** The coach's students, by name. */
  async students(coachId: string): Promise<{ id: string; name: string }[]> {
    return guarded(() =>
      this.db.query<{ id: string; name: string }>(
        "SELECT p.id, coalesce(p.name, 'a guest') AS name FROM coach_links l JOIN players p ON p.id = l.student_id WHERE l.coach_id = $1 ORDER BY p.name_key, p.id",
        [coachId],
      ),
    );
  }

  /** The student's coaches, by name. */
  async coaches(studentId: string): Promise<{ id: string; name: string }[]> {
    return guarded(() =>
      this.db.query<{ id: string; name: string }>(
        "SELECT p.id, coalesce(p.name, 'a guest') AS name FROM coach_links l JOIN players p ON p.id = l.coach_id WHERE l.student_id = $1 ORDER BY p.name_key, p.id",
        [studentId],
      ),
    );
  }

  /** The student withdraws a coach's access; false when that coach had none. */
  async withdraw(studentId: string, coachName: string): Promise<boolean> {
    return guarded(
      async () =>
        (await this.db.query('DELETE FROM coach_links l USING players p WHERE l.student_id = $1 AND l.coach_id = p.id AND p.name_key = $2 RETURNING l.coach_id', [studentId, nameKey(coachName)]))
          .length > 0,
    );
  }

  /** The student of this name the coach follows, or null. */
  async studentNamed(coachId: string, name: string): Promise<string | null> {
    return guarded(
      async () =>
        (await this.db.query<{ id: string }>('SELECT p.id FROM coach_links l JOIN players p ON p.id = l.student_id WHERE l.coach_id = $1 AND p.name_key = $2', [coachId, nameKey(name)]))[0]?.id ??
        null,
    );
  }

  // ------------------------------------------------------------------ cards

  /**
   * The cards a player may choose, by name: her own, and the cards saved on this server before
   * accounts (`shared`) under the names she has not used herself.
   */
  async cards(playerId: string | null): Promise<{ name: string; text: string; shared: boolean }[]> {
    return guarded(() =>
      this.db.query<{ name: string; text: string; shared: boolean }>(
        `SELECT name, text, false AS shared FROM cards WHERE player_id = $1
       UNION ALL SELECT name, text, true FROM shared_cards s WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.player_id = $1 AND c.name = s.name)
       ORDER BY name`,
        [playerId],
      ),
    );
  }

  /** A card she may choose by name (hers first, then a shared one), or null. */
  async card(playerId: string | null, name: string): Promise<string | null> {
    return guarded(
      async () =>
        (
          await this.db.query<{ text: string }>(
            'SELECT text FROM (SELECT text, 0 AS o FROM cards WHERE player_id = $1 AND name = $2 UNION ALL SELECT text, 1 FROM shared_cards WHERE name = $2) c ORDER BY o LIMIT 1',
            [playerId, name],
          )
        )[0]?.text ?? null,
    );
  }

  /** A card saved on this server before accounts, read in once (an existing name is kept). */
  async shareCard(name: string, text: string): Promise<void> {
    await guarded(() => this.db.query('INSERT INTO shared_cards (name, text) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, text]));
  }

  /** Saves a card (replacing hers of that name); TM_TOO_MANY_CARDS when she keeps `max` others. */
  async saveCard(playerId: string, name: string, text: string, max: number): Promise<void> {
    await guarded(() =>
      this.db.transaction(async (sql) => {
        // one save at a time per player, so two at once cannot both pass the count
        await sql.query('SELECT id FROM players WHERE id = $1 FOR UPDATE', [playerId]);
        const [{ n }] = await sql.query<{ n: number }>('SELECT count(*)::integer AS n FROM cards WHERE player_id = $1 AND name <> $2', [playerId, name]);
        if (n >= max) throw new TilemateError('TM_TOO_MANY_CARDS', `you keep ${n} cards, the most one player may; delete one first`);
        await sql.query('INSERT INTO cards (player_id, name, text) VALUES ($1, $2, $3) ON CONFLICT (player_id, name) DO UPDATE SET text = excluded.text, updated_at = now()', [playerId, name, text]);
      }),
    );
  }

  /** Deletes her card; false when she has none of that name. */
  async deleteCard(playerId: string, name: string): Promise<boolean> {
    return guarded(async () => (await this.db.query('DELETE FROM cards WHERE player_id = $1 AND name = $2 RETURNING name', [playerId, name])).length === 1);
  }

  // ------------------------------------------------------------------ her chosen card

  /**
   * The card she chose for every page with her account (issue 62): a saved card's name,
   * shared:CODE, or '' for the practice card; null when she has never chosen one signed in.
   */
  async chosenCard(playerId: string): Promise<string | null> {
    return guarded(async () => (await this.db.query<{ card: string | null }>('SELECT chosen_card AS card FROM players WHERE id = $1', [playerId]))[0]?.card ?? null);
  }

  /** Keeps her choice of card with her account ('' the practice card); checked by the caller. */
  async chooseCard(playerId: string, card: string): Promise<void> {
    await guarded(() => this.db.query('UPDATE players SET chosen_card = $2 WHERE id = $1', [playerId, card]));
  }
}
