import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TilemateError } from '../../engine/errors.js';
import type { RngState } from '../../engine/rng.js';
import { syncFolder, writeFileAtomic } from '../../io/files.js';

/**
 * Live games as they are played, so a restarted server takes them up again
 * (`<data>/live/<id>.jsonl`). Line 1 holds what the server needs to reopen the game (its id,
 * the token's hash, the seat, who created it) and the game's record header; each later line
 * is one request's actions, in the record's own form, with the bots' random stream after
 * them: `{"from": n, "actions": [...], "rng": [a, b, c, d]}`. A line is written in one write
 * and flushed to disk before the request is answered, so every acknowledged action is on
 * disk; a line cut off by a crash was never acknowledged and is ignored. The file goes once
 * the finished game's record is written.
 */

export interface LiveMeta {
  id: string;
  tokenHash: string;
  seat: number;
  owner: string;
  /** Mah Jongg: the seat's forced draws and declines are made for it. */
  autoPlay?: boolean;
}

export interface JournaledGame {
  meta: LiveMeta;
  /** The record header, as written (the caller checks it). */
  header: Record<string, unknown>;
  /** The actions as the game's codec wrote them (the caller reads them). */
  actions: unknown[];
  rng: RngState;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export class Journal {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  private batch(from: number, actions: readonly unknown[], rng: RngState): string {
    return JSON.stringify({ from, actions, rng: [...rng] }) + '\n';
  }

  /** A new game: its first line and the actions played so far, written atomically and durably. */
  start(meta: LiveMeta, header: string, actions: readonly unknown[], rng: RngState): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomic(this.path(meta.id), `${JSON.stringify({ live: meta, header: JSON.parse(header) })}\n${this.batch(1, actions, rng)}`);
  }

  /** One request's actions (numbered from `from`), flushed to disk before it returns. */
  append(id: string, from: number, actions: readonly unknown[], rng: RngState): void {
    if (actions.length === 0) return;
    let fd: number;
    try {
      fd = openSync(this.path(id), 'a');
    } catch (err) {
      throw new TilemateError('TM_FILE', `cannot write the journal of game ${id}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    try {
      writeSync(fd, this.batch(from, actions, rng));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  remove(id: string): void {
    rmSync(this.path(id), { force: true });
    syncFolder(this.dir);
  }

  /**
   * Every journaled game, each with its actions up to its last whole line. A file that does
   * not read as a journal is reported through `onBad` and skipped (left on disk to look at).
   */
  load(onBad: (file: string, why: string) => void): JournaledGame[] {
    let names: string[];
    try { names = readdirSync(this.dir); } catch { return []; }
    const out: JournaledGame[] = [];
    for (const name of names) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -6) : '';
      if (!ID.test(id)) continue; // temporary files start with a dot
      try {
        out.push(this.parse(readFileSync(join(this.dir, name), 'utf8')));
      } catch (err) {
        onBad(name, err instanceof Error ? err.message : String(err));
      }
    }
    return out;
  }

  private parse(text: string): JournaledGame {
    const lines = text.split('\n');
    const complete = lines.slice(0, -1); // the last piece follows the last newline: empty, or a line cut off
    const first = JSON.parse(complete[0]) as { live: LiveMeta; header: Record<string, unknown> };
    const actions: unknown[] = [];
    let rng: RngState | null = null;
    for (let i = 1; i < complete.length; i++) {
      const b = JSON.parse(complete[i]) as { from: number; actions: unknown[]; rng: RngState };
      if (b.from !== actions.length + 1) throw new Error(`line ${i + 1}: actions from ${b.from}, expected ${actions.length + 1}`);
      actions.push(...b.actions);
      rng = b.rng;
    }
    if (rng === null) throw new Error('no actions line');
    return { meta: first.live, header: first.header, actions, rng };
  }
}
