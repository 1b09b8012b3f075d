import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RngState } from '../../engine/rng.js';
import { MAX_FILE_BYTES, readTextFile } from '../../io/files.js';
import { recordSummary, type GameStore, type StoredLiveGame } from './games.js';
import type { PlayerStore } from './players.js';

/**
 * The data folder as Tilemate kept it before the database: saved cards as
 * `<data>/cards/<name>.card` (shared: everyone may choose them), finished records as
 * `<data>/records/<id>.jsonl` and live games as journals in `<data>/live/` and
 * `<data>/live-domino/` (line 1 what reopens the game and its record header, then one line per
 * request: `{"from": n, "actions": [...], "rng": [a, b, c, d]}`; a last line cut off by a
 * crash was never acknowledged). On the first start with a database they are read into it,
 * so no player loses a game; the files stay where they are, and are not read again.
 */

const FACT = 'data-folder-imported';
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface Imported {
  records: number;
  live: number;
  cards: number;
  skipped: string[];
}

/** The `.jsonl` files of a folder with an id for a name (temporary files start with a dot). */
function files(dir: string): { id: string; path: string }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl') && ID.test(n.slice(0, -6)))
    .sort()
    .map((n) => ({ id: n.slice(0, -6), path: join(dir, n) }));
}

/** A journal's game, with its actions up to its last whole line. */
export function parseJournal(text: string): StoredLiveGame {
  const lines = text.split('\n');
  const complete = lines.slice(0, -1); // the last piece follows the last newline: empty, or a line cut off
  const first = JSON.parse(complete[0]) as { live: { id: string; tokenHash: string; seat: number; owner: string; autoPlay?: boolean }; header: Record<string, unknown> };
  const actions: unknown[] = [];
  let rng: RngState | null = null;
  for (let i = 1; i < complete.length; i++) {
    const b = JSON.parse(complete[i]) as { from: number; actions: unknown[]; rng: RngState };
    if (b.from !== actions.length + 1) throw new Error(`line ${i + 1}: actions from ${b.from}, expected ${actions.length + 1}`);
    actions.push(...b.actions);
    rng = b.rng;
  }
  if (rng === null) throw new Error('no actions line');
  const m = first.live;
  return { meta: { id: m.id, owner: m.owner, player: null, tokenHash: Buffer.from(m.tokenHash, 'hex'), seat: m.seat, autoPlay: m.autoPlay ?? true }, header: first.header, actions, rng };
}

/**
 * Reads the data folder's records and journals into the database, once: a file already there
 * (an import cut off by a crash and run again) is passed over, and a file that does not read
 * is reported in `skipped` and left on disk.
 */
export async function importDataFolder(store: GameStore, players: PlayerStore, dataDir: string): Promise<Imported | null> {
  if ((await store.fact(FACT)) !== null) return null;
  const out: Imported = { records: 0, live: 0, cards: 0, skipped: [] };
  const cardsDir = join(dataDir, 'cards');
  let cardNames: string[] = [];
  try {
    cardNames = readdirSync(cardsDir)
      .filter((n) => /^[a-z0-9][a-z0-9-]{0,39}\.card$/.test(n))
      .sort();
  } catch {
    /* no cards saved */
  }
  for (const n of cardNames) {
    try {
      await players.shareCard(n.slice(0, -5), readTextFile(join(cardsDir, n), MAX_FILE_BYTES.card, 'card file'));
      out.cards++;
    } catch (err) {
      out.skipped.push(`${join(cardsDir, n)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const { id, path } of files(join(dataDir, 'records'))) {
    try {
      const text = readTextFile(path, MAX_FILE_BYTES.record, 'record file');
      const summary = recordSummary(text);
      if (summary === null) throw new Error('not a finished record');
      await store.saveRecord({ id, ...summary, owner: null, player: null, seat: null, text, finishedAt: statSync(path).mtime });
      out.records++;
    } catch (err) {
      out.skipped.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const dir of ['live', 'live-domino']) {
    for (const { path } of files(join(dataDir, dir))) {
      try {
        const game = parseJournal(readTextFile(path, MAX_FILE_BYTES.record, 'live game journal'));
        if (await store.idTaken(game.meta.id)) continue;
        await store.start(game.meta, game.header, { from: 1, actions: game.actions, rng: game.rng });
        out.live++;
      } catch (err) {
        out.skipped.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  await store.setFact(FACT, { at: new Date().toISOString(), ...out });
  return out;
}
