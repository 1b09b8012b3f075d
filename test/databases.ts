import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The storage and server tests run twice in CI: on the embedded database (the default), and
 * with TILEMATE_TEST_DATABASE_URL set (.ci/run) on that PostgreSQL server, where each data
 * folder a test makes gets a database of its own, dropped once the test file is done.
 */

export const SERVER_URL = process.env.TILEMATE_TEST_DATABASE_URL || undefined;

const made: string[] = [];

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A new empty database on the test server, and its URL; undefined when the tests use the embedded database. */
export async function freshDatabase(): Promise<string | undefined> {
  if (SERVER_URL === undefined) return undefined;
  const name = `tm_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  made.push(name);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops every database this file made (their connections are closed first by the servers' close). */
export async function dropDatabases(): Promise<void> {
  if (SERVER_URL === undefined || made.length === 0) return;
  await admin(async (c) => {
    for (const name of made.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}
