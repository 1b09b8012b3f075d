/**
 * What the store's code is handed to run SQL (api/store/db.ts opens it, on PGlite or a
 * PostgreSQL server): the types alone, so the migrations name them without importing the code
 * that opens a database (db.ts exports them too).
 */

export type Row = Record<string, unknown>;

/** Runs SQL: outside a transaction each call commits on its own. */
export interface Sql {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Sql {
  /** `embedded` (PGlite in the data folder) or `server` (DATABASE_URL). */
  readonly kind: 'embedded' | 'server';
  /** Where the data is, as a person would say it (the folder, or the server's host and database: never a password). */
  readonly where: string;
  /**
   * Runs `fn` in one transaction: committed when it returns, rolled back when it throws. What
   * `fn` wrote is acknowledged only once this resolves.
   */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Hears PostgreSQL's NOTIFY on a channel: every payload sent by any process on this database,
   * once the transaction that sent it commits (a rolled-back one sends nothing). After a lost
   * connection to a server is made again, `fn('*')` says that some may have been missed.
   * Answers a function that stops listening.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
