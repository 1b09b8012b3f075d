import { createHash } from 'node:crypto';
import { guarded, type Db } from './db.js';

/**
 * Limits a minute counted in the database, so every server on it counts the same: a window a
 * minute for each key (sign-in attempts per name tried, per address and per account's password
 * change, api/http/routes/accounts.ts; requests that play deals out per address, api/http/app.ts),
 * kept only as the key's hash. A use counts in its key's window, or starts a new window once the
 * old one is over; windows over are pruned as uses come. One statement a check, so two servers
 * counting one key at once each see the other's use.
 */

export interface Limit {
  key: string;
  max: number;
}

const keyHash = (key: string): string => createHash('sha256').update(key).digest('base64url');

export class RateWindows {
  constructor(
    private readonly db: Db,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts a use under every key; the seconds to wait when one of them is over its limit, else null. */
  async count(limits: readonly Limit[]): Promise<number | null> {
    const max = new Map<string, number>();
    for (const l of limits) max.set(keyHash(l.key), Math.min(max.get(keyHash(l.key)) ?? Infinity, l.max));
    if (max.size === 0) return null;
    const rows = await guarded(() =>
      this.db.query<{ key: string; count: number; left: number }>(
        `WITH keys AS (SELECT k FROM jsonb_array_elements_text($1::text::jsonb) k),
            over AS (DELETE FROM rate_windows WHERE window_start <= now() - $2 * interval '1 millisecond' AND key NOT IN (SELECT k FROM keys))
       INSERT INTO rate_windows AS a (key, window_start, count) SELECT k, now(), 1 FROM keys
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN a.window_start <= now() - $2 * interval '1 millisecond' THEN 1 ELSE a.count + 1 END,
         window_start = CASE WHEN a.window_start <= now() - $2 * interval '1 millisecond' THEN now() ELSE a.window_start END
       RETURNING key, count, (extract(epoch FROM a.window_start + $2 * interval '1 millisecond' - now()))::float8 AS left`,
        [JSON.stringify([...max.keys()]), this.windowMs],
      ),
    );
    let wait: number | null = null;
    for (const r of rows) {
      if (r.count > max.get(r.key)!) wait = Math.max(wait ?? 1, Math.ceil(Number(r.left)));
    }
    return wait;
  }
}
