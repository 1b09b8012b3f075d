import { resolve } from 'node:path';
import type { Command } from 'commander';
import { printable, writeFileAtomic } from '../../io/files.js';
import { DEFAULT_DATA_DIR } from '../shared/limits.js';
import { openDb } from '../store/db.js';
import { GameStore } from '../store/games.js';
import { migrate } from '../store/migrations.js';
import { databaseUrl } from './options.js';

/**
 * `tilemate export --out DIR`: every finished game kept by the server, written as record files
 * (`DIR/<id>.jsonl`, docs/records.md), each one whole or not at all, for `tilemate replay`,
 * `tilemate review` and other programs. The embedded database is read while no server runs
 * on the data folder.
 */

const PAGE = 200;

export function registerExport(cmd: Command, exit: (code: number) => void): void {
  cmd
    .command('export')
    .description('write every finished game the server kept as a record file (DIR/<id>.jsonl)')
    .requiredOption('--out <dir>', 'the folder to write the records in (made if missing)')
    .option('--data <dir>', "the server's data folder (its embedded database)", DEFAULT_DATA_DIR)
    .option('--database <url>', 'read a PostgreSQL server instead (default: DATABASE_URL)')
    .action(async (f: { out: string; data: string; database?: string }) => {
      const db = await openDb({ dataDir: resolve(f.data), url: databaseUrl(f.database) });
      let written = 0;
      try {
        await migrate(db);
        const store = new GameStore(db);
        for (let after: string | null = null; ; ) {
          const page = await store.recordTexts(after, PAGE);
          for (const r of page) writeFileAtomic(resolve(f.out, `${r.id}.jsonl`), r.text);
          written += page.length;
          if (page.length < PAGE) break;
          after = page[page.length - 1].id;
        }
      } finally {
        await db.close();
      }
      process.stdout.write(`${written} record${written === 1 ? '' : 's'} written to ${printable(resolve(f.out))}\n`);
      exit(0);
    });
}
