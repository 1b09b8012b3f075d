import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { initialise, openDb, templateFile, templateSchemaFile } from '../../api/store/db.js';
import { migrate, MIGRATIONS } from '../../api/store/migrations.js';

/**
 * A first start loads the embedded database from the template the build made (issue 45),
 * never from a broken or newer one, and never leaves half a database behind.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'tilemate-first-'));
  dirs.push(d);
  return d;
};

async function version(dir: string): Promise<number> {
  const pg = await PGlite.create(dir);
  try {
    const [{ t }] = (await pg.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t")).rows;
    if (t === null) return 0;
    const [{ v }] = (await pg.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')).rows;
    return v ?? 0;
  } finally {
    await pg.close();
  }
}

describe('the embedded database of a fresh data folder', () => {
  it("comes from the build's template, with the schema already in it", async () => {
    expect(existsSync(templateFile()), 'the build makes the template').toBe(true);
    expect(JSON.parse(readFileSync(templateSchemaFile(templateFile()), 'utf8')), 'and says which schema it holds').toEqual({ schema: MIGRATIONS.length });
    const data = folder();
    const db = await openDb({ dataDir: data });
    await db.close();
    expect(await version(join(data, 'db'))).toBe(MIGRATIONS.length);
    expect(existsSync(join(data, 'db.new'))).toBe(false);
  });

  it('is made by initdb when the template is missing, broken, cut short, unlabelled or newer than this code; a start cut short is started over', async () => {
    const data = folder();
    const labelled = (name: string, schema = MIGRATIONS.length) => writeFileSync(join(data, `${name}.json`), JSON.stringify({ schema }));
    // no template
    await initialise(join(data, 'none'), join(data, 'missing.tar.gz'));
    expect(await version(join(data, 'none'))).toBe(0);
    // the build's own, but without the line that says its schema (a build stopped between the two)
    copyFileSync(templateFile(), join(data, 'unlabelled.tar.gz'));
    await initialise(join(data, 'unlabelled'), join(data, 'unlabelled.tar.gz'));
    expect(await version(join(data, 'unlabelled'))).toBe(0);
    // the build's own, cut off half way
    const whole = readFileSync(templateFile());
    writeFileSync(join(data, 'half.tar.gz'), whole.subarray(0, whole.length >> 1));
    labelled('half');
    await initialise(join(data, 'half'), join(data, 'half.tar.gz'));
    expect(await version(join(data, 'half'))).toBe(0);
    // a broken one, and half a database left by a start that was cut short
    writeFileSync(join(data, 'broken.tar.gz'), 'not a database');
    labelled('broken');
    mkdirSync(join(data, 'broken.new'));
    writeFileSync(join(data, 'broken.new', 'PG_VERSION'), '17');
    await initialise(join(data, 'broken'), join(data, 'broken.tar.gz'));
    expect(await version(join(data, 'broken'))).toBe(0);
    expect(existsSync(join(data, 'broken.new'))).toBe(false);
    // one a newer Tilemate made
    const newer = await PGlite.create(join(data, 'newer-source'));
    await newer.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL)');
    await newer.query('INSERT INTO schema_migrations VALUES ($1, $2)', [MIGRATIONS.length + 1, 'from the future']);
    writeFileSync(join(data, 'newer.tar.gz'), Buffer.from(await (await newer.dumpDataDir('gzip')).arrayBuffer()));
    await newer.close();
    labelled('newer', MIGRATIONS.length + 1);
    await initialise(join(data, 'newer'), join(data, 'newer.tar.gz'));
    expect(await version(join(data, 'newer'))).toBe(0);
    // each opens and takes the schema
    const db = await openDb({ dataDir: join(data, 'x') });
    expect(await migrate(db)).toBe(MIGRATIONS.length);
    await db.close();
  }, 120_000);
});
