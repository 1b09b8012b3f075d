import { createHash } from 'node:crypto';
import { guarded, type Db } from './db.js';

/**
 * Sign-in attempts counted in the database, so every server on it counts the same: a window a
 * minute for each key (a name tried, an address, an account's password change), kept only as
 * the key's hash. An attempt counts in its key's window, or starts a new window once the old
 * one is over; windows over are pruned as attempts come. One statement a check, so two servers
 * counting one name at once each see the other's attempt.
 */

export interface Limit { key: string; max: number }

const keyHash = (key: string): string => createHash('sha256').update(key).digest('base64url');

export class SignInAttempts {
  constructor(private readonly db: Db, private readonly windowMs = 60_000) {}

  /** Counts an attempt under every key; the seconds to wait when one of them is over its limit, else null. */
  async attempt(limits: readonly Limit[]): Promise<number | null> {
    const max = new Map<string, number>();
    for (const l of limits) max.set(keyHash(l.key), Math.min(max.get(keyHash(l.key)) ?? Infinity, l.max));
    if (max.size === 0) return null;
    const rows = await guarded(() => this.db.query<{ key: string; attempts: number; left: number }>(
      `WITH keys AS (SELECT k FROM jsonb_array_elements_text($1::text::jsonb) k),
            over AS (DELETE FROM sign_in_attempts WHERE window_start <= now() - $2 * interval '1 millisecond' AND key NOT IN (SELECT k FROM keys))
       INSERT INTO sign_in_attempts AS a (key, window_start, attempts) SELECT k, now(), 1 FROM keys
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN a.window_start <= now() - $2 * interval '1 millisecond' THEN 1 ELSE a.attempts + 1 END,
         window_start = CASE WHEN a.window_start <= now() - $2 * interval '1 millisecond' THEN now() ELSE a.window_start END
       RETURNING key, attempts, (extract(epoch FROM a.window_start + $2 * interval '1 millisecond' - now()))::float8 AS left`,
      [JSON.stringify([...max.keys()]), this.windowMs]));
    let wait: number | null = null;
    for (const r of rows) {
      if (r.attempts > max.get(r.key)!) wait = Math.max(wait ?? 1, Math.ceil(Number(r.left)));
    }
    return wait;
  }
}
