import type { RngState } from '../../engine/rng.js';
import { guarded, type Db, type Row, type Sql } from './db.js';
import type { GameStore, NewRecord } from './games.js';

/**
 * Every game in progress is a table (api/http/tables.ts), kept in the database: the table (its
 * game, seats, status, deal and the bots' random stream), its members (each token kept only as
 * its hash), its game's actions and when each seat's person was last there. Every change is
 * written over the version it was made from (`UPDATE ... WHERE version = $v`), so when two
 * servers change one table at once one of them wins and the other reads the table again: an
 * action is never applied twice, whoever applied it. Once committed, a shared table's change is
 * announced (`NOTIFY tilemate_tables` with the table's id and version, `announce`), heard by
 * every server on the database.
 */

export const TABLE_CHANNEL = 'tilemate_tables';

export type SeatKind = 'empty' | 'bot' | 'person';
export interface SeatRow {
  kind: SeatKind;
  name: string | null;
  level: string | null;
}
export type TableStatus = 'open' | 'playing' | 'paused' | 'over';
export type Clock = 'off' | 'relaxed' | 'tournament';
export type Role = 'player' | 'spectator' | 'coach';

export interface TableRow {
  id: string;
  code: string;
  game: string;
  /** The game's parameters, as a record's header writes them (Mah Jongg's card text included). */
  params: Record<string, unknown>;
  hostId: string | null;
  teaching: boolean;
  clock: Clock;
  /** Seconds a person may be gone before her seat's bot plays for her. */
  awayAfter: number;
  level: string;
  status: TableStatus;
  seats: SeatRow[];
  seed: number | null;
  rng: RngState | null;
  actions: number;
  version: number;
  /** When the last change to the game was committed (ms), the clock's start. */
  turnSince: number | null;
  touchedAt: number;
  /**
   * A game against bots: one person, whose game it is; no join code (its code is its id), no
   * stand-in while she is away, its record named by the table's id, and no NOTIFY (nobody else
   * is told of it).
   */
  solo: boolean;
  /** The people's forced draws, declines and passes are made for them (a game against bots may turn it off). */
  autoPlay: boolean;
}

export interface Member {
  tokenHash: Buffer;
  tableId: string;
  role: Role;
  seat: number | null;
  name: string;
  playerId: string | null;
  host: boolean;
}

/** A new table's row: a table people share opens empty; a game against bots is dealt (`seed`, `rng`) as it is made. */
export type NewTableRow = Omit<TableRow, 'seed' | 'rng' | 'actions' | 'version' | 'turnSince' | 'touchedAt'> & { seed?: number | null; rng?: RngState | null };

/**
 * A game against bots's row, from its record's seat names ("human" at her seat, a bot's name at
 * each other): no join code (its code is its id), no clock, nobody standing in (away 0; its
 * level, unused, a bot of its own game's).
 */
export function soloRow(f: { id: string; game: string; params: Record<string, unknown>; names: readonly string[]; seat: number; seed: number; hostId: string | null; autoPlay: boolean }): TableRow {
  return {
    id: f.id,
    code: f.id,
    game: f.game,
    params: f.params,
    hostId: f.hostId,
    teaching: false,
    clock: 'off',
    awayAfter: 0,
    level: f.names[f.seat === 0 ? 1 : 0],
    status: 'playing',
    seats: f.names.map((name, s) => (s === f.seat ? { kind: 'person', name: 'human', level: null } : { kind: 'bot', name: null, level: name })),
    seed: f.seed,
    rng: null,
    actions: 0,
    version: 0,
    turnSince: null,
    touchedAt: Date.now(),
    solo: true,
    autoPlay: f.autoPlay,
  };
}

/** A committed change to a table: what the row becomes, the game's new actions, the finished records. */
export interface TableChange {
  seats?: SeatRow[];
  status?: TableStatus;
  seed?: number;
  rng?: RngState;
  /** The game's new actions from action `from` (the record's own form), each saying whether a bot played it for a person. */
  actions?: { from: number; list: readonly { action: unknown; byBot: boolean }[] };
  /** When a server should look at the table again (a clock, an absent person), in ms; null: never. */
  wakeAt?: number | null;
  /** The game changed now: the clock starts again. */
  turnStarted?: boolean;
  /** A member to add with the change (a person joining, the host). */
  member?: Member;
  /** A seat's person is here (acted): her presence with the change. */
  seen?: number;
  /** The game's end: each person's record, and who else may read it. */
  records?: { record: NewRecord; readers: string[] }[];
}

/** The table changed since the version the change was made from: read it again. */
export class TableConflict extends Error {
  constructor(id: string) {
    super(`table ${id} changed meanwhile`);
  }
}

const json = (v: unknown): string => JSON.stringify(v);
const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

const tableRow = (r: Row): TableRow => ({
  id: r.id as string,
  code: r.code as string,
  game: r.game as string,
  params: r.params as Record<string, unknown>,
  hostId: (r.host_id as string | null) ?? null,
  teaching: r.teaching as boolean,
  clock: r.clock as Clock,
  awayAfter: r.away_after as number,
  level: r.level as string,
  status: r.status as TableStatus,
  seats: r.seats as SeatRow[],
  seed: r.seed === null ? null : Number(r.seed),
  rng: (r.rng as RngState | null) ?? null,
  actions: r.actions as number,
  version: r.version as number,
  turnSince: ms(r.turn_since),
  touchedAt: ms(r.touched_at)!,
  solo: r.solo as boolean,
  autoPlay: r.auto_play as boolean,
});

const memberRow = (r: Row): Member => ({
  tokenHash: Buffer.from(r.token_hash as Uint8Array),
  tableId: r.table_id as string,
  role: r.role as Role,
  seat: (r.seat as number | null) ?? null,
  name: r.name as string,
  playerId: (r.player_id as string | null) ?? null,
  host: r.host as boolean,
});

const COLUMNS = 'id, code, game, params, host_id, teaching, clock, away_after, level, status, seats, seed, rng, actions, version, turn_since, touched_at, solo, auto_play';

export class TableStore {
  constructor(
    readonly db: Db,
    readonly games: GameStore,
  ) {}

  /**
   * A new table with its host, or false when the code is taken (the caller draws another). A
   * game against bots starts playing at once: `change` holds its first actions (the bots' opening
   * moves) and, when it ended at once, the record, all in the same transaction.
   */
  async create(t: NewTableRow, owner: string, host: Member, change?: TableChange): Promise<boolean> {
    return guarded(() =>
      this.db.transaction(async (sql) => {
        const made = await sql.query(
          `INSERT INTO tables (id, code, game, params, host_id, owner, teaching, clock, away_after, level, status, seats, solo, auto_play, seed, rng, actions, turn_since)
         VALUES ($1, $2, $3, $4::text::jsonb, $5, $12, $6, $7, $8, $9, $10, $11::text::jsonb, $13, $14, $15, $16::text::jsonb, $17, CASE WHEN $15::bigint IS NULL THEN NULL ELSE now() END)
         ON CONFLICT DO NOTHING RETURNING id`,
          [
            t.id,
            t.code,
            t.game,
            json(t.params),
            t.hostId,
            t.teaching,
            t.clock,
            t.awayAfter,
            t.level,
            t.status,
            json(t.seats),
            owner,
            t.solo,
            t.autoPlay,
            t.seed ?? null,
            t.rng === undefined || t.rng === null ? null : json([...t.rng]),
            change?.actions === undefined ? 0 : change.actions.from - 1 + change.actions.list.length,
          ],
        );
        if (made.length === 0) return false;
        await this.addMember(sql, host);
        if (host.seat !== null) await this.seenIn(sql, t.id, host.seat);
        if (change !== undefined) await this.writeParts(sql, t.id, change);
        return true;
      }),
    );
  }

  private async addMember(sql: Sql, m: Member): Promise<void> {
    await sql.query('INSERT INTO table_members (token_hash, table_id, role, seat, name, player_id, host) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      m.tokenHash,
      m.tableId,
      m.role,
      m.seat,
      m.name,
      m.playerId,
      m.host,
    ]);
  }

  async byCode(code: string): Promise<TableRow | null> {
    return guarded(async () => {
      const [r] = await this.db.query(`SELECT ${COLUMNS} FROM tables WHERE code = $1`, [code]);
      return r === undefined ? null : tableRow(r);
    });
  }

  async byId(id: string): Promise<TableRow | null> {
    return guarded(async () => {
      const [r] = await this.db.query(`SELECT ${COLUMNS} FROM tables WHERE id = $1`, [id]);
      return r === undefined ? null : tableRow(r);
    });
  }

  /** The member a token opens, or null. */
  async member(tokenHash: Buffer): Promise<Member | null> {
    return guarded(async () => {
      const [r] = await this.db.query('SELECT * FROM table_members WHERE token_hash = $1', [tokenHash]);
      return r === undefined ? null : memberRow(r);
    });
  }

  async members(tableId: string): Promise<Member[]> {
    return guarded(async () => (await this.db.query('SELECT * FROM table_members WHERE table_id = $1 ORDER BY created_at', [tableId])).map(memberRow));
  }

  /** The game's actions after action `after` up to action `upTo` (the table row's count, read before: later ones may be committed meanwhile), in order, as written. */
  async actionsAfter(tableId: string, after: number, upTo: number): Promise<{ action: unknown; byBot: boolean }[]> {
    return guarded(async () =>
      (await this.db.query('SELECT action, by_bot FROM table_actions WHERE table_id = $1 AND n > $2 AND n <= $3 ORDER BY n', [tableId, after, upTo])).map((r) => ({
        action: r.action,
        byBot: r.by_bot as boolean,
      })),
    );
  }

  /**
   * Writes a change over `version` in one transaction; TableConflict (nothing written) when the
   * table is no longer at that version. The new version is announced by the caller (announce).
   */
  async commit(id: string, version: number, c: TableChange): Promise<number> {
    if (c.member === undefined && c.records === undefined) return this.commitActions(id, version, c);
    return guarded(
      () =>
        this.db.transaction(async (sql) => {
          const sets: string[] = ['version = version + 1', 'touched_at = now()', 'lease_owner = NULL', 'lease_until = NULL'];
          const params: unknown[] = [id, version];
          const set = (column: string, value: unknown, cast = '') => {
            params.push(value);
            sets.push(`${column} = $${params.length}${cast}`);
          };
          if (c.seats !== undefined) set('seats', json(c.seats), '::text::jsonb');
          if (c.status !== undefined) set('status', c.status);
          if (c.seed !== undefined) set('seed', c.seed);
          if (c.rng !== undefined) set('rng', json([...c.rng]), '::text::jsonb');
          if (c.actions !== undefined) set('actions', c.actions.from - 1 + c.actions.list.length);
          if (c.wakeAt !== undefined) set('wake_at', c.wakeAt === null ? null : new Date(c.wakeAt).toISOString(), '::timestamptz');
          if (c.turnStarted === true) sets.push('turn_since = now()');
          const moved = await sql.query<{ version: number }>(`UPDATE tables SET ${sets.join(', ')} WHERE id = $1 AND version = $2 RETURNING version`, params);
          if (moved.length !== 1) throw new TableConflict(id);
          await this.writeParts(sql, id, c);
          return moved[0].version;
        }),
      (err) => err instanceof TableConflict,
    );
  }

  /** What a change adds beside the table's row: its actions, a member, a presence, the records. */
  private async writeParts(sql: Sql, id: string, c: TableChange): Promise<void> {
    if (c.actions !== undefined && c.actions.list.length > 0) {
      const { from, list } = c.actions;
      await sql.query(
        `INSERT INTO table_actions (table_id, n, action, by_bot)
         SELECT $1, $2 + o - 1, a->'action', (a->>'byBot')::boolean FROM jsonb_array_elements($3::text::jsonb) WITH ORDINALITY AS t(a, o)`,
        [id, from, json(list)],
      );
    }
    if (c.member !== undefined) await this.addMember(sql, c.member);
    if (c.seen !== undefined) await this.seenIn(sql, id, c.seen);
    for (const { record, readers } of c.records ?? []) {
      await this.games.insertRecord(sql, record);
      for (const reader of readers) await sql.query('INSERT INTO record_readers (record_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [record.id, reader]);
    }
  }

  /**
   * The common change (a game's actions, a seat's presence, the row's fields) as one
   * statement, so one round trip: a statement is a transaction of its own, and each part of
   * it runs only when the row was at `version` (they read `moved`, empty otherwise).
   */
  private async commitActions(id: string, version: number, c: TableChange): Promise<number> {
    const sets: string[] = ['version = version + 1', 'touched_at = now()', 'lease_owner = NULL', 'lease_until = NULL'];
    const params: unknown[] = [id, version];
    const p = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (c.seats !== undefined) sets.push(`seats = ${p(json(c.seats))}::text::jsonb`);
    if (c.status !== undefined) sets.push(`status = ${p(c.status)}`);
    if (c.seed !== undefined) sets.push(`seed = ${p(c.seed)}`);
    if (c.rng !== undefined) sets.push(`rng = ${p(json([...c.rng]))}::text::jsonb`);
    if (c.actions !== undefined) sets.push(`actions = ${p(c.actions.from - 1 + c.actions.list.length)}`);
    if (c.wakeAt !== undefined) sets.push(`wake_at = ${p(c.wakeAt === null ? null : new Date(c.wakeAt).toISOString())}::timestamptz`);
    if (c.turnStarted === true) sets.push('turn_since = now()');
    const parts = [`moved AS (UPDATE tables SET ${sets.join(', ')} WHERE id = $1 AND version = $2 RETURNING version)`];
    if (c.actions !== undefined && c.actions.list.length > 0) {
      parts.push(`added AS (INSERT INTO table_actions (table_id, n, action, by_bot)
        SELECT $1, ${p(c.actions.from)}::integer + o - 1, a->'action', (a->>'byBot')::boolean FROM moved, jsonb_array_elements(${p(json(c.actions.list))}::text::jsonb) WITH ORDINALITY AS t(a, o))`);
    }
    if (c.seen !== undefined) {
      parts.push(`here AS (INSERT INTO table_presence (table_id, seat, seen_at) SELECT $1, ${p(c.seen)}::integer, now() FROM moved
        ON CONFLICT (table_id, seat) DO UPDATE SET seen_at = now())`);
    }
    const rows = await guarded(() => this.db.query<{ version: number }>(`WITH ${parts.join(', ')} SELECT version FROM moved`, params));
    if (rows.length !== 1) throw new TableConflict(id);
    return rows[0].version;
  }

  private async seenIn(sql: Sql, id: string, seat: number): Promise<void> {
    await sql.query('INSERT INTO table_presence (table_id, seat, seen_at) VALUES ($1, $2, now()) ON CONFLICT (table_id, seat) DO UPDATE SET seen_at = now()', [id, seat]);
  }

  /** A message for every server listening (a coach's hint for a student connected anywhere). */
  async notify(payload: string): Promise<void> {
    await this.announce([payload]);
  }

  /**
   * Messages for every server listening, in one statement: the changes committed meanwhile
   * (each table's "id:version"). PostgreSQL takes one lock for all the database's NOTIFYs at
   * each commit that sends one, held through the commit's write to disk: sent inside every
   * change's own commit, it made the changes of 1,000 tables wait in line for it; sent after,
   * a batch at a time, the changes commit side by side.
   */
  async announce(payloads: readonly string[]): Promise<void> {
    if (payloads.length === 0) return;
    await guarded(() => this.db.query('SELECT count(pg_notify($1, p)) FROM jsonb_array_elements_text($2::text::jsonb) AS t(p)', [TABLE_CHANNEL, json(payloads)]));
  }

  /**
   * The seats' people are here now (connected to this server). Each (table, seat) once: two
   * tabs on one seat are two connections, and a row proposed twice would fail the whole
   * statement ("cannot affect row a second time"), leaving every seat on the server unmarked.
   */
  async seen(pairs: readonly { tableId: string; seat: number }[]): Promise<void> {
    const once = [...new Map(pairs.map((p) => [`${p.seat}:${p.tableId}`, { tableId: p.tableId, seat: p.seat }])).values()];
    if (once.length === 0) return;
    await guarded(() =>
      this.db.query(
        `INSERT INTO table_presence (table_id, seat, seen_at)
       SELECT t->>'tableId', (t->>'seat')::integer, now() FROM jsonb_array_elements($1::text::jsonb) t
       ON CONFLICT (table_id, seat) DO UPDATE SET seen_at = now()`,
        [json(once)],
      ),
    );
  }

  /** How long ago (ms) each seat's person was last here, by seat (absent: never). */
  async presence(tableId: string): Promise<Map<number, number>> {
    return (await this.presenceOf([tableId])).get(tableId)!;
  }

  /** `presence` of many tables in one statement, by table (each listed, with no seat when nobody was ever here). */
  async presenceOf(tableIds: readonly string[]): Promise<Map<string, Map<number, number>>> {
    const out = new Map(tableIds.map((id) => [id, new Map<number, number>()]));
    if (tableIds.length === 0) return out;
    const rows = await guarded(() =>
      this.db.query<{ table_id: string; seat: number; ago: number }>(
        'SELECT table_id, seat, (extract(epoch FROM now() - seen_at) * 1000)::float8 AS ago FROM table_presence WHERE table_id IN (SELECT jsonb_array_elements_text($1::text::jsonb))',
        [json(tableIds)],
      ),
    );
    for (const r of rows) out.get(r.table_id)?.set(r.seat, Number(r.ago));
    return out;
  }

  /** The tables' versions now, by id (a table that has closed is not in it). */
  async versions(tableIds: readonly string[]): Promise<Map<string, number>> {
    if (tableIds.length === 0) return new Map();
    const rows = await guarded(() =>
      this.db.query<{ id: string; version: number }>('SELECT id, version FROM tables WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb))', [json(tableIds)]),
    );
    return new Map(rows.map((r) => [r.id, Number(r.version)]));
  }

  /** Look at the table again by then at the latest (a person's connection dropped). */
  async wakeBy(tableId: string, at: number): Promise<void> {
    await guarded(() =>
      this.db.query("UPDATE tables SET wake_at = least(coalesce(wake_at, $2::timestamptz), $2::timestamptz) WHERE id = $1 AND status = 'playing'", [tableId, new Date(at).toISOString()]),
    );
  }

  /**
   * The tables due a look (a clock run out, a person gone too long), each leased to this server
   * for `leaseMs` so that no other server acts on it meanwhile; a lease a dead server left runs out.
   */
  async claimDue(owner: string, limit: number, leaseMs: number): Promise<string[]> {
    return guarded(async () =>
      (
        await this.db.query<{ id: string }>(
          `UPDATE tables SET lease_owner = $1, lease_until = now() + $3 * interval '1 millisecond'
       WHERE id IN (SELECT id FROM tables WHERE status = 'playing' AND wake_at <= now() AND (lease_until IS NULL OR lease_until < now())
                    ORDER BY wake_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
          [owner, limit, leaseMs],
        )
      ).map((r) => r.id),
    );
  }

  /** A table looked at with nothing to do: look again by `wakeAt`, the lease given back. */
  async snooze(id: string, owner: string, wakeAt: number | null): Promise<void> {
    await guarded(() =>
      this.db.query('UPDATE tables SET wake_at = $3::timestamptz, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [
        id,
        owner,
        wakeAt === null ? null : new Date(wakeAt).toISOString(),
      ]),
    );
  }

  /**
   * Tables untouched since `before` (ms) that never finished, games against bots untouched since
   * `soloBefore`, and finished ones untouched since `overBefore` (their records are kept apart):
   * their rows go.
   */
  async dropIdle(before: number, soloBefore: number, overBefore: number): Promise<string[]> {
    return guarded(async () =>
      (
        await this.db.query<{ id: string }>(
          "DELETE FROM tables WHERE (status <> 'over' AND touched_at < (CASE WHEN solo THEN $2 ELSE $1 END)::timestamptz) OR touched_at < $3::timestamptz RETURNING id",
          [new Date(before).toISOString(), new Date(soloBefore).toISOString(), new Date(overBefore).toISOString()],
        )
      ).map((r) => r.id),
    );
  }

  /**
   * Tables not finished, of one kind (games against bots, or tables people share), touched
   * since `since` (ms; an idle one makes room before it is swept), for the limits: on the
   * server, and opened by this address.
   */
  async countLive(owner: string, solo: boolean, since: number): Promise<{ all: number; owner: number }> {
    return guarded(async () => {
      const [r] = await this.db.query<{ all: number; mine: number }>(
        "SELECT count(*)::integer AS all, (count(*) FILTER (WHERE owner = $1))::integer AS mine FROM tables WHERE status <> 'over' AND solo = $2 AND touched_at >= $3::timestamptz",
        [owner, solo, new Date(since).toISOString()],
      );
      return { all: Number(r.all), owner: Number(r.mine) };
    });
  }
}
