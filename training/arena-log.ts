import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { TilemateError } from '../engine/errors.js';
import type { Game } from '../engine/games.js';
import type { ArenaGame } from './arena.js';

/**
 * A log of records as they finish, one JSON line each after a header line, so a long run
 * stopped (Ctrl-C, kill -9, the end of a session) resumes where it was. `open` checks the
 * header (a log of another run is refused with `refusal`), cuts off a last line that a kill
 * left half written (else the next record would be glued onto it) and gives back the lines
 * after the header; `append` adds finished records.
 */
export class JsonLog {
  private constructor(readonly file: string) {}

  static open(file: string, header: unknown, refusal: string): { log: JsonLog; lines: string[] } {
    const head = JSON.stringify(header);
    if (!existsSync(file)) {
      appendFileSync(file, `${head}\n`);
      return { log: new JsonLog(file), lines: [] };
    }
    const text = readFileSync(file, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, end)));
    const lines = text
      .slice(0, end)
      .split('\n')
      .filter((l) => l.length > 0);
    if (lines.length === 0 || lines[0] !== head) throw new TilemateError('TM_BAD_INPUT', refusal);
    return { log: new JsonLog(file), lines: lines.slice(1) };
  }

  append(records: readonly unknown[]): void {
    if (records.length > 0) appendFileSync(this.file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
}

/** What an arena log is the log of: a run resumed with another game, bots, deals or card would mix two arenas. */
export interface ArenaLogHeader {
  arenaLog: 1;
  game: string;
  params: string;
  seats: string[];
  seed: number;
}

/** The game's parameters as a short hash (a Mah Jongg card's whole text is too long to keep in every log). */
export const arenaLogHeader = (game: Game, seats: string[], seed: number): ArenaLogHeader => ({
  arenaLog: 1,
  game: game.type.name,
  params: createHash('sha256').update(JSON.stringify(game.params)).digest('hex').slice(0, 16),
  seats,
  seed,
});

/** An arena's log (a JsonLog of its games) and the games of every deal it holds in full (a deal cut short is played again). */
export function openArenaLog(file: string, header: ArenaLogHeader, players: number): { log: JsonLog; games: ArenaGame[] } {
  const { log, lines } = JsonLog.open(file, header, `${file} is not the log of this arena (other bots, ruleset, seed or card); give another --log file`);
  // a deal played again after a stop is logged again: its last games count
  const byDeal = new Map<number, Map<number, ArenaGame>>();
  lines.forEach((line, i) => {
    let g: ArenaGame;
    try {
      g = JSON.parse(line) as ArenaGame;
    } catch {
      throw new TilemateError('TM_BAD_INPUT', `${file} line ${i + 2} is not a game of an arena log`);
    }
    if (!Array.isArray(g.winShare) || !Array.isArray(g.winners) || !Array.isArray(g.scores)) throw new TilemateError('TM_BAD_INPUT', `${file} line ${i + 2} is not a game of an arena log`);
    const games = byDeal.get(g.deal) ?? new Map<number, ArenaGame>();
    games.set(g.rotation, g);
    byDeal.set(g.deal, games);
  });
  const games = [...byDeal.values()].filter((gs) => gs.size === players).flatMap((gs) => [...gs.values()]);
  return { log, games };
}
