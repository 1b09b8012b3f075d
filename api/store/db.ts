import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TilemateError } from '../../engine/errors.js';
import type { Db, Row, Sql } from './sql.js';

/**
 * The database behind the server: PostgreSQL's SQL, on an embedded PostgreSQL (PGlite, under
 * `<data>/db`) by default, or on a real server given `DATABASE_URL` (the `pg` driver). Both
 * speak the same SQL with the same `$1` parameters, so every query in api/store/ is written once
 * and runs on either; nothing outside api/store/ writes SQL.
 *
 * A failure of the database itself (a full disk, a server that refuses writes, a lost
 * connection) is a TM_STORAGE error whose message a player can read: no server paths, no
 * driver words. The cause is kept for the log.
 */

export type { Db, Row, Sql };

/** The sentence a player reads when the database cannot keep what she did. */
export const STORAGE_SENTENCE = 'The server could not save this just now, so nothing was changed; please try again in a moment.';

/** A database failure as the player's error, with its cause kept for the log. */
export function storageError(cause: unknown): TilemateError {
  if (cause instanceof TilemateError) return cause;
  const err = new TilemateError('TM_STORAGE', STORAGE_SENTENCE);
  (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/** Runs a database call, turning any failure of the database into TM_STORAGE (but those `keep` says are the caller's own). */
export async function guarded<T>(fn: () => Promise<T>, keep?: (err: unknown) => boolean): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw keep?.(err) === true ? err : storageError(err);
  }
}

export interface DbOptions {
  /** The data folder (the embedded database lives in `<dataDir>/db`). */
  dataDir: string;
  /** A PostgreSQL server's URL (`postgres://user@host:port/database`); the embedded database when absent. */
  url?: string;
}

/** The database the options name, opened (no migrations run: see api/store/migrations.ts). */
export async function openDb(opts: DbOptions): Promise<Db> {
  return opts.url ? openServer(opts.url) : openEmbedded(join(opts.dataDir, 'db'));
}

/** A URL without its password, for messages and the log. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the database server';
  }
}

/** Where games are kept, in a sentence's words: the embedded database's folder, or the server (never a password). */
export function storageWhere(dataDir: string, url?: string): string {
  return url ? `the PostgreSQL database ${safeUrl(url)}` : `the embedded database in ${join(dataDir, 'db')}`;
}

/**
 * The embedded database with the schema and nothing else, made once when Tilemate is
 * installed (`npm run build` runs api/store/db-template.ts): a fresh data folder's database is
 * unpacked from it (about 0.2 s of CPU) instead of running PostgreSQL's initdb and every
 * migration (several seconds). From TypeScript sources (tests), the one the build made.
 */
export function templateFile(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/db-template.tar.gz', here) : new URL('../../db-template.tar.gz', here));
}

/** Beside the template, the schema version it holds (written by the build once the template is whole). */
export const templateSchemaFile = (templatePath: string): string => templatePath.replace(/\.tar\.gz$/, '.json');

/**
 * Makes the embedded database of a fresh data folder: from the template when there is one
 * (initdb when there is none, it does not unpack, or its schema is newer than this code), in a
 * folder beside it renamed into place once whole, so a start cut short never leaves half a
 * database behind.
 */
export async function initialise(dir: string, templatePath = templateFile()): Promise<void> {
  const fresh = `${dir}.new`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  if (!(await unpackTemplate(templatePath, fresh))) {
    rmSync(fresh, { recursive: true, force: true });
    const { PGlite } = await import('@electric-sql/pglite');
    await (await PGlite.create(fresh)).close();
  }
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  renameSync(fresh, dir);
}

/**
 * The template's files written into `dir` by tar, without starting PostgreSQL (it starts once,
 * on the folder, when the server opens it): false when there is no template, it is broken, or
 * it holds a schema newer than this code.
 */
async function unpackTemplate(templatePath: string, dir: string): Promise<boolean> {
  try {
    const { schema } = JSON.parse(readFileSync(templateSchemaFile(templatePath), 'utf8')) as { schema?: unknown };
    const { MIGRATIONS } = await import('./migrations.js');
    if (typeof schema !== 'number' || !Number.isInteger(schema) || schema > MIGRATIONS.length) return false;
    const { x } = await import('tar');
    // its names start with "/" (PGlite's dump): made relative to the folder, the one warning taken
    const wrong: string[] = [];
    // at once (sync): nothing is still being written when a broken template is set aside
    x({ sync: true, file: templatePath, cwd: dir, onwarn: (code, message) => void (code !== 'TAR_ENTRY_INFO' && wrong.push(`${code}: ${String(message)}`)) });
    return wrong.length === 0 && existsSync(join(dir, 'PG_VERSION'));
  } catch {
    return false;
  }
}

/**
 * PostgreSQL's settings for the embedded database, on top of PGlite's own. Its shared buffers
 * are 128 MB by default, made and cleared at every start (0.4 s of CPU, a third of opening the
 * database); one household's games fit in 32 MB many times over, and a page not in the buffers
 * is still read from the data folder's files.
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=32MB'];

async function openEmbedded(dir: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let pg: InstanceType<typeof PGlite>;
  try {
    if (!existsSync(join(dir, 'PG_VERSION'))) await initialise(dir);
    pg = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] });
  } catch (err) {
    throw new TilemateError(
      'TM_STORAGE',
      `the embedded database in ${dir} could not be opened (${err instanceof Error ? err.message : String(err)}); is another Tilemate server using this data folder?`,
    );
  }
  // PGlite runs one statement at a time: a transaction holds it until it ends
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const query = async <T extends Row>(text: string, params: readonly unknown[] = []): Promise<T[]> => (await pg.query<T>(text, [...params])).rows;
  return {
    kind: 'embedded',
    where: dir,
    query: (text, params) => serial(() => query(text, params)),
    transaction: (fn) => serial(() => pg.transaction((tx) => fn({ query: async (text, params = []) => (await tx.query(text, [...params])).rows as never }))),
    listen: async (channel, fn) => {
      const stop = await pg.listen(channel, fn);
      return () => stop();
    },
    close: () => serial(() => pg.close()),
  };
}

async function openServer(url: string): Promise<Db> {
  const { default: pg } = await import('pg');
  // bigint columns (ids, seeds) come back as numbers: every one of ours is below 2^53
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // an idle connection the server drops is an error event: logged by the next query's failure, never a crash
  pool.on('error', () => {});
  try {
    (await pool.connect()).release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new TilemateError('TM_STORAGE', `the database server at ${safeUrl(url)} could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
  return {
    kind: 'server',
    where: safeUrl(url),
    query: async (text, params = []) => (await pool.query(text, [...params])).rows,
    async transaction(fn) {
      const client = await pool.connect();
      // a connection that dies while the transaction holds it is an error event: the query
      // under way fails with it, and the process must not (an unheard error event ends it)
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const out = await fn({ query: async (text, params = []) => (await client.query(text, [...params])).rows });
        await client.query('COMMIT');
        return out;
      } catch (err) {
        broken ??= await client.query('ROLLBACK').then(
          () => undefined,
          (e: Error) => e,
        );
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken); // a broken connection is closed, never handed out again
      }
    },
    async listen(channel, fn) {
      // one connection of its own, kept open; made again (and fn('*')) when it is lost
      let client: InstanceType<typeof pg.Client> | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (again: boolean): Promise<void> => {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
        c.on('error', () => {
          if (client === c) lost();
        });
        c.on('end', () => {
          if (client === c) lost();
        });
        c.on('notification', (m) => {
          if (m.channel === channel) fn(m.payload ?? '');
        });
        await c.connect();
        await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
        client = c;
        if (again) fn('*');
      };
      const lost = () => {
        const c = client;
        client = null;
        c?.end().catch(() => {});
        if (stopped) return;
        retry = setTimeout(function again() {
          if (stopped) return;
          connect(true).catch(() => {
            retry = setTimeout(again, 1_000);
          });
        }, 250);
      };
      await connect(false);
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const c = client;
        client = null;
        await c?.end().catch(() => {});
      };
    },
    close: () => pool.end(),
  };
}
