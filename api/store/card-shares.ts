import { randomInt } from 'node:crypto';
import { TilemateError } from '../../engine/errors.js';
import { guarded, type Db } from './db.js';

/**
 * Saved cards shared read-only by a short code (issue 44, "Share a card"). A code names its
 * owner's saved card, never a copy: whoever opens it reads her latest text, shown with her
 * name, and the code stops working when she stops sharing or deletes the card. Another player
 * may keep a shared card on her list of cards (a bookmark by its code); a coach's shared cards
 * are offered to her students without one. Nobody but the owner changes or deletes the card.
 */

/** The letters and digits of a code: none that looks like another (no 0 O, 1 I L). */
export const SHARE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters in a code: 31^8, about 850 billion codes, read aloud in one breath. */
export const SHARE_CODE_LENGTH = 8;
export const SHARE_CODE = /^[2-9A-HJKMNP-Z]{8}$/;

/** How a shared card is chosen wherever a saved card's name is taken (a game, a table, GET /api/cards/:name). */
export const SHARED_PREFIX = 'shared:';

/** A code as a person types it, made comparable: capitals, no spaces or hyphens. */
export const normalShareCode = (typed: string): string => typed.replace(/[\s-]+/g, '').toUpperCase();

/** The code a card reference names (`shared:K7MQ2PXR`, in any case), or null for the name of a saved card of one's own. */
export function sharedCode(reference: string): string | null {
  return reference.startsWith(SHARED_PREFIX) ? normalShareCode(reference.slice(SHARED_PREFIX.length)) : null;
}

export const sharedReference = (code: string): string => `${SHARED_PREFIX}${code}`;

/** The sentence for a code that opens nothing (the code shown only as far as it could be one). */
export function noSuchShare(code: string): TilemateError {
  const shown = /^[A-Za-z0-9]{1,20}$/.test(code) ? `the code ${code}` : 'that code';
  return new TilemateError('TM_NOT_FOUND', `No shared card has ${shown}; check the code with the person who gave it.`);
}

/** A new code from node:crypto's uniform random integers. */
export function newShareCode(): string {
  let code = '';
  for (let i = 0; i < SHARE_CODE_LENGTH; i++) code += SHARE_ALPHABET[randomInt(SHARE_ALPHABET.length)];
  return code;
}

export type SharedCard = {
  code: string;
  ownerId: string;
  /** The owner's name ('a guest' never: only a player with an account shares). */
  owner: string;
  /** The owner's name for the card (her saved card's name). */
  name: string;
  text: string;
};

/** One of the owner's shares. */
export type MyShare = { code: string; name: string; text: string };

/** A shared card on a player's list: kept by her, or offered because its owner is her coach. */
export type OfferedCard = { code: string; owner: string; text: string; coach: boolean };

/** Fresh codes tried before giving up (one clash in 850 billion is already rare). */
const CODE_TRIES = 5;

export class CardShareStore {
  constructor(readonly db: Db) {}

  /**
   * Shares the owner's saved card: its code, the one it already has when it is shared. Null
   * when she has no card of that name.
   */
  async share(ownerId: string, name: string): Promise<{ code: string; isNew: boolean } | null> {
    return guarded(() =>
      this.db.transaction(async (sql) => {
        // the card's row held first, so two shares of it at once make one code
        const card = await sql.query('SELECT 1 FROM cards WHERE player_id = $1 AND name = $2 FOR UPDATE', [ownerId, name]);
        if (card.length === 0) return null;
        const [had] = await sql.query<{ code: string }>('SELECT code FROM card_shares WHERE player_id = $1 AND name = $2', [ownerId, name]);
        if (had !== undefined) return { code: had.code, isNew: false };
        for (let i = 0; i < CODE_TRIES; i++) {
          const code = newShareCode();
          // a code another card has already is passed over for another
          const made = await sql.query('INSERT INTO card_shares (code, player_id, name) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING RETURNING code', [code, ownerId, name]);
          if (made.length === 1) return { code, isNew: true };
        }
        throw new TilemateError('TM_STORAGE', 'no free code could be found for the card just now; please try again');
      }),
    );
  }

  /** Stops sharing the owner's card: the code it had (now opening nothing), or null when it was not shared. */
  async unshare(ownerId: string, name: string): Promise<string | null> {
    return guarded(async () => (await this.db.query<{ code: string }>('DELETE FROM card_shares WHERE player_id = $1 AND name = $2 RETURNING code', [ownerId, name]))[0]?.code ?? null);
  }

  /** The owner's shares (one at most per saved card, so as many as her cards), by card name. */
  async sharesOf(ownerId: string, max: number): Promise<MyShare[]> {
    return guarded(() =>
      this.db.query<MyShare>(
        `SELECT s.code, s.name, c.text FROM card_shares s JOIN cards c ON c.player_id = s.player_id AND c.name = s.name
       WHERE s.player_id = $1 ORDER BY s.name LIMIT ${Math.max(1, Math.floor(max))}`,
        [ownerId],
      ),
    );
  }

  /** The card a code opens, as its owner has it now; null for a code that opens nothing. */
  async open(code: string): Promise<SharedCard | null> {
    if (!SHARE_CODE.test(code)) return null; // never asked of the database: it could be no code
    return guarded(
      async () =>
        (
          await this.db.query<SharedCard>(
            `SELECT s.code, s.player_id AS "ownerId", coalesce(p.name, 'a guest') AS owner, s.name, c.text
       FROM card_shares s JOIN cards c ON c.player_id = s.player_id AND c.name = s.name JOIN players p ON p.id = s.player_id
       WHERE s.code = $1`,
            [code],
          )
        )[0] ?? null,
    );
  }

  /** Whether the player keeps the shared card on her list. */
  async isKept(playerId: string, code: string): Promise<boolean> {
    return guarded(async () => (await this.db.query('SELECT 1 FROM card_bookmarks WHERE player_id = $1 AND code = $2', [playerId, code])).length === 1);
  }

  /**
   * The player keeps a shared card on her list (kept already: nothing changes). False for a code
   * that opens nothing; TM_TOO_MANY_CARDS when she keeps `max` others.
   */
  async keep(playerId: string, code: string, max: number): Promise<boolean> {
    if (!SHARE_CODE.test(code)) return false;
    return guarded(() =>
      this.db.transaction(async (sql) => {
        // one change to her list at a time, so two at once cannot both pass the count
        await sql.query('SELECT id FROM players WHERE id = $1 FOR UPDATE', [playerId]);
        const [share] = await sql.query<{ owner: string }>('SELECT player_id AS owner FROM card_shares WHERE code = $1', [code]);
        if (share === undefined) return false;
        if (share.owner === playerId) return true; // her own card is on her list already
        const [{ n }] = await sql.query<{ n: number }>('SELECT count(*)::integer AS n FROM card_bookmarks WHERE player_id = $1 AND code <> $2', [playerId, code]);
        if (n >= max) throw new TilemateError('TM_TOO_MANY_CARDS', `you keep ${n} shared card${n === 1 ? '' : 's'} on your list, the most one player may; take one off first`);
        await sql.query('INSERT INTO card_bookmarks (player_id, code) VALUES ($1, $2) ON CONFLICT DO NOTHING', [playerId, code]);
        return true;
      }),
    );
  }

  /** Takes a shared card off her list; false when it was not on it. */
  async forget(playerId: string, code: string): Promise<boolean> {
    if (!SHARE_CODE.test(code)) return false;
    return guarded(async () => (await this.db.query('DELETE FROM card_bookmarks WHERE player_id = $1 AND code = $2 RETURNING code', [playerId, code])).length === 1);
  }

  /**
   * The shared cards on a player's list, at most `max`: the ones her coaches share (offered
   * without asking), then the ones she keeps; never her own. Each with its owner's name.
   */
  async offered(playerId: string, max: number): Promise<OfferedCard[]> {
    return guarded(() =>
      this.db.query<OfferedCard>(
        `WITH listed AS (
         SELECT s.code, true AS coach FROM card_shares s JOIN coach_links l ON l.coach_id = s.player_id WHERE l.student_id = $1
         UNION ALL SELECT b.code, false FROM card_bookmarks b WHERE b.player_id = $1)
       SELECT s.code, coalesce(p.name, 'a guest') AS owner, c.text, bool_or(l.coach) AS coach
       FROM listed l JOIN card_shares s ON s.code = l.code
       JOIN cards c ON c.player_id = s.player_id AND c.name = s.name
       JOIN players p ON p.id = s.player_id
       WHERE s.player_id <> $1
       GROUP BY s.code, s.name, p.name, p.name_key, c.text
       ORDER BY bool_or(l.coach) DESC, p.name_key, s.name, s.code
       LIMIT ${Math.max(1, Math.floor(max))}`,
        [playerId],
      ),
    );
  }
}
