import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Agent } from '../../agents/agent.js';
import { makeAgent } from '../../agents/levels.js';
import { playOut } from '../../agents/table.js';
import type { CompiledCard } from '../../engine/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { newGame, type Action, type GameState } from '../../engine/game.js';
import { actionLine, endLine, recordHeader } from '../../engine/record.js';
import { seedRng, type RngState } from '../../engine/rng.js';
import { loadRuleset, type Ruleset } from '../../engine/rulesets.js';
import { MAX_FILE_BYTES, readTextFile } from '../../training/text-files.js';

/** Tables of bots, the records of their games (engine/record.ts), and record files on disk. */

/** A ruleset by name (unknown names, "constructor" among them, are refused). */
export const rulesetByName = (name: string): Ruleset => loadRuleset(name);

/** Bots by name: one name for every seat, or a comma-separated list with one name per seat. */
export function parseBots(spec: string, seats: number, cc: CompiledCard, rules: Ruleset): { names: string[]; agents: Agent[] } {
  const given = spec.split(',').map((s) => s.trim());
  const names = given.length === 1 ? new Array<string>(seats).fill(given[0]) : given;
  if (names.length !== seats) throw new TilemateError('TM_BAD_INPUT', `--bots lists ${names.length} bots for ${seats} seats (give one name, or one per seat)`);
  const agents = names.map((name) => makeAgent(name, cc, rules));
  return { names, agents };
}

/**
 * The bots' random stream for a game: seeded from the game seed, so a game is repeatable,
 * but not the same stream as the shuffle's (that would tie the bots' choices to the deal).
 */
export const botRng = (seed: number): RngState => seedRng((seed ^ 0x5bd1e995) >>> 0);

/** Collects a game's record line by line as it is played. */
export class RecordWriter {
  private readonly lines: string[];
  private actions = 0;

  constructor(rules: Ruleset, cc: CompiledCard, cardText: string, seed: number, seats: string[]) {
    this.lines = [recordHeader({ ruleset: rules.name, card: { name: cc.card.name, text: cardText }, seed, seats })];
  }

  action(a: Action): void {
    this.lines.push(actionLine(++this.actions, a));
  }

  /** The header line. */
  get header(): string {
    return this.lines[0];
  }

  /** The whole record; with its end line once the game has ended. */
  text(state: GameState): string {
    const end = state.phase.kind === 'ended' ? [endLine(state)] : [];
    return [...this.lines, ...end].join('\n') + '\n';
  }
}

export interface SelfPlayGame {
  rules: Ruleset;
  cc: CompiledCard;
  cardText: string;
  seed: number;
  bots: { names: string[]; agents: Agent[] };
}

/**
 * Plays one game of bots to its end and returns the final state, and its record when asked
 * for (building a record's lines is a large share of a fast game's time).
 */
export function playRecordedGame(g: SelfPlayGame, record = true): { state: GameState; record: string | null } {
  const state = newGame(g.rules, g.cc, g.seed);
  if (!record) {
    playOut(state, g.bots.agents, botRng(g.seed));
    return { state, record: null };
  }
  const writer = new RecordWriter(g.rules, g.cc, g.cardText, g.seed, g.bots.names);
  playOut(state, g.bots.agents, botRng(g.seed), (a) => writer.action(a));
  return { state, record: writer.text(state) };
}

/**
 * Writes a file atomically and durably: a temporary file in the same folder, flushed to
 * disk, renamed into place, then the folder flushed so the rename itself survives a crash.
 * Readers never see half a file; a failure is reported as TM_FILE with its cause (the
 * clean-up of the temporary file never masks it).
 */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    syncFolder(dir);
  } catch (err) {
    try { rmSync(tmp, { force: true }); } catch { /* the folder itself is the problem: the error below says so */ }
    throw new TilemateError('TM_FILE', `cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Flushes a folder's entries (a rename) to disk; a no-op where folders cannot be opened (Windows). */
export function syncFolder(dir: string): void {
  let fd: number;
  try { fd = openSync(dir, 'r'); } catch { return; }
  try { fsyncSync(fd); } catch { /* some file systems refuse fsync on a folder */ } finally { closeSync(fd); }
}

export function readRecordFile(path: string): string {
  return readTextFile(path, MAX_FILE_BYTES.record, 'record file');
}
