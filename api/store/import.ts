import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gameTypeOfRecord } from '../../engine/registry.js';
import type { RngState } from '../../engine/rng.js';
import { MAX_FILE_BYTES, readTextFile } from '../../io/files.js';
import { recordSummary, type GameStore } from './games.js';
import type { PlayerStore } from './players.js';
import { soloRow, type TableStore } from './tables.js';

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

/** A game in progress as a journal kept it. */
export interface JournalGame {
  meta: { id: string; owner: string; tokenHash: Buffer; seat: number; autoPlay: boolean };
  /** The record header (the game's parameters, seed and seats). */
  header: Record<string, unknown>;
  /** The actions as the game's codec wrote them. */
  actions: unknown[];
  rng: RngState;
}

/** A journal's game, with its actions up to its last whole line. */
export function parseJournal(text: string): JournalGame {
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
  return { meta: { id: m.id, owner: m.owner, tokenHash: Buffer.from(m.tokenHash, 'hex'), seat: m.seat, autoPlay: m.autoPlay ?? true }, header: first.header, actions, rng };
}

/** A journal's game as a game against bots at a table of its own (api/http/tables.ts), with its actions, in one transaction. */
async function adopt(tables: TableStore, g: JournalGame): Promise<void> {
  const { format, version: _, seed, seats, ...params } = g.header;
  const type = gameTypeOfRecord(format);
  if (type === undefined || !Number.isSafeInteger(seed) || !Array.isArray(seats)) throw new Error('not a game header');
  const { id, owner, tokenHash, seat, autoPlay } = g.meta;
  await tables.create(
    { ...soloRow({ id, game: type.name, params, names: seats as string[], seat, seed: seed as number, hostId: null, autoPlay }), rng: g.rng },
    owner,
    { tokenHash, tableId: id, role: 'player', seat, name: 'You', playerId: null, host: true },
    { actions: { from: 1, list: g.actions.map((action) => ({ action, byBot: false })) } },
  );
}

/**
 * Reads the data folder's records and journals into the database, once: a file already there
 * (an import cut off by a crash and run again) is passed over, and a file that does not read
 * is reported in `skipped` and left on disk.
 */
export async function importDataFolder(store: GameStore, tables: TableStore, players: PlayerStore, dataDir: string): Promise<Imported | null> {
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
        await adopt(tables, game);
        out.live++;
      } catch (err) {
        out.skipped.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  await store.setFact(FACT, { at: new Date().toISOString(), ...out });
  return out;
}
