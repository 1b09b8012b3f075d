import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDb, templateFile, templateSchemaFile } from './db.js';
import { migrate, MIGRATIONS } from './migrations.js';

/**
 * Run by the build (`npm run build`, and so by `npm ci`): makes the embedded database with
 * the schema and nothing else, that a fresh data folder is loaded from (api/store/db.ts), so a
 * first start skips PostgreSQL's initdb and the migrations, with the schema version it holds
 * beside it (db-template.json). Made from scratch (never from an
 * older template) and written beside the compiled code, whole or not at all.
 */
const file = templateFile();
rmSync(templateSchemaFile(file), { force: true });
rmSync(file, { force: true });
const work = mkdtempSync(join(tmpdir(), 'tilemate-template-'));
try {
  const db = await openDb({ dataDir: work });
  await migrate(db);
  await db.close();
  const pg = await PGlite.create(join(work, 'db'));
  const dump = await pg.dumpDataDir('gzip');
  await pg.close();
  const part = join(dirname(file), `.db-template-${process.pid}.part`);
  writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  renameSync(part, file);
  // last, once the template is whole: a fresh data folder is unpacked from it only when this says its schema
  writeFileSync(templateSchemaFile(file), `${JSON.stringify({ schema: MIGRATIONS.length })}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
