import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../agents/agent.js';
import type { CompiledCard } from '../engine/compile.js';
import { TilemateError } from '../engine/errors.js';
import { apply, legalActions, newGame, view, type Action, type GameState } from '../engine/game.js';
import type { RngState } from '../engine/rng.js';
import type { Ruleset } from '../engine/rulesets.js';
import { type TileId } from '../engine/tiles.js';
import { runBots } from './play.js';
import { botRng, parseBots, RecordWriter, rulesetByName, writeFileAtomic } from './records.js';
import { eventJson, legalJson, viewJson, type EventJson, type LegalJson, type ViewJson } from './wire.js';

/**
 * Live games against bots, each opened by a token, and the records of finished ones.
 * A game is in memory until it ends; then its record is written atomically into
 * `<data>/records/<id>.jsonl`, so a server killed mid-game loses at most the games in
 * progress. Tokens are kept only as hashes and compared in constant time.
 */

export interface StoreLimits {
  /** Live games held at once (finished games waiting to be read count too, and go first). */
  maxGames: number;
  /** A game nobody has touched for this long may be dropped to make room (ms). */
  idleMs: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { maxGames: 200, idleMs: 6 * 60 * 60 * 1000 };

export interface NewGameOptions {
  ruleset?: string;
  level?: string;
  bots?: string[];
  seat?: number;
  seed?: number;
  autoPlay?: boolean;
}

interface LoggedAction { action: Action; drew: TileId | null }

export interface LiveGame {
  readonly id: string;
  readonly seat: number;
  readonly names: string[];
  readonly rules: Ruleset;
  readonly state: GameState;
  readonly agents: (Agent | null)[];
  readonly rng: RngState;
  readonly writer: RecordWriter;
  readonly autoPlay: boolean;
  readonly tokenHash: Buffer;
  /** Every action applied, in order (action n is log[n - 1]). */
  readonly log: LoggedAction[];
  /** Actions the seat has been told of. */
  told: number;
  touched: number;
  recordId: string | null;
}

export interface GameAnswer {
  id: string;
  token?: string;
  seat: number;
  seats: string[];
  view: ViewJson;
  legal: LegalJson[];
  events: EventJson[];
  recordId: string | null;
}

export interface RecordSummary {
  id: string;
  ruleset: string;
  card: string;
  seed: number;
  seats: string[];
  winners: number[];
  wallGame: boolean;
  scores: number[];
  actions: number;
  finishedAt: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_EVENTS = 400;
const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

export class GameStore {
  private readonly games = new Map<string, LiveGame>();
  private readonly recordsDir: string;
  private readonly now: () => number;

  constructor(
    private readonly cc: CompiledCard,
    private readonly cardText: string,
    dataDir: string,
    private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS,
    now: () => number = Date.now,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.recordsDir = join(dataDir, 'records');
    this.now = now;
  }

  get size(): number {
    return this.games.size;
  }

  /** A new game; the bots move until the person must decide. The token is in the answer only. */
  create(opts: NewGameOptions): GameAnswer {
    const rules = rulesetByName(opts.ruleset ?? 'nmjl-4p');
    const seat = opts.seat ?? 0;
    if (!Number.isInteger(seat) || seat < 0 || seat >= rules.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected a seat from 0 to ${rules.players - 1} for ${rules.name}`);
    const spec = opts.bots && opts.bots.length > 0 ? opts.bots.join(',') : (opts.level ?? 'medium');
    const bots = parseBots(spec, rules.players - 1, this.cc, rules); // refuses unknown levels
    this.makeRoom();
    const names = [...bots.names];
    const agents: (Agent | null)[] = [...bots.agents];
    names.splice(seat, 0, 'human');
    agents.splice(seat, 0, null);
    // a fresh seed, never shown before the end
    const seed = opts.seed ?? randomInt(0, 2 ** 31);
    const token = randomBytes(24).toString('base64url');
    let id: string;
    do id = randomBytes(12).toString('base64url'); while (this.games.has(id) || this.recordExists(id));
    const g: LiveGame = {
      id, seat, names, rules,
      state: newGame(rules, this.cc, seed),
      agents,
      rng: botRng(seed),
      writer: new RecordWriter(rules, this.cc, this.cardText, seed, names),
      autoPlay: opts.autoPlay ?? true,
      tokenHash: hash(token),
      log: [],
      told: 0,
      touched: this.now(),
      recordId: null,
    };
    this.games.set(id, g);
    this.advance(g);
    return { ...this.answer(g), token };
  }

  /** The game the token opens. No token: TM_UNAUTHORIZED; an unknown id or another game's token: the same TM_NOT_FOUND. */
  open(id: string, token: string | undefined): LiveGame {
    if (token === undefined || token === '') throw new TilemateError('TM_UNAUTHORIZED', 'this game needs its token: send "Authorization: Bearer <token>"');
    const g = ID.test(id) ? this.games.get(id) : undefined;
    if (!g || !timingSafeEqual(g.tokenHash, hash(token))) throw new TilemateError('TM_NOT_FOUND', `no game "${id}" opens with this token`);
    g.touched = this.now();
    return g;
  }

  /**
   * The seat's action, then the bots' until the seat must decide again or the game ends.
   * The engine checks the action in full before changing anything, so a refused one
   * (TM_NOT_YOUR_TURN, TM_ILLEGAL_ACTION, TM_GAME_OVER) leaves the game as it was.
   */
  act(g: LiveGame, action: Action): GameAnswer {
    if (g.state.phase.kind === 'ended') throw new TilemateError('TM_GAME_OVER', 'the game has ended');
    if (legalActions(g.state, g.seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', `the game is not waiting on seat ${g.seat} now`);
    const drawAt = g.state.wallPos;
    apply(g.state, action);
    this.logged(g, action, action.type === 'draw' ? g.state.wall[drawAt] : null);
    this.advance(g);
    return this.answer(g);
  }

  /** The seat's answer now; `since` (an action number) lists the events after it instead of the untold ones. */
  answer(g: LiveGame, since?: number): GameAnswer {
    this.save(g);
    const v = view(g.state, g.seat);
    const legal = legalActions(g.state, g.seat);
    let from = since === undefined ? g.told : Math.max(0, Math.min(since, g.log.length));
    let to = g.log.length;
    // In an open claim window the other seats' answers are not known yet at a real table:
    // they are told once it closes.
    if (g.state.phase.kind === 'claims') {
      let lastDiscard = to - 1;
      while (lastDiscard >= 0 && g.log[lastDiscard].action.type !== 'discard') lastDiscard--;
      to = Math.max(from, lastDiscard + 1);
    }
    from = Math.max(from, to - MAX_EVENTS);
    const events: EventJson[] = [];
    for (let i = from; i < to; i++) events.push(eventJson(i + 1, g.log[i].action, g.seat, g.log[i].drew ?? undefined));
    if (since === undefined) g.told = to;
    return {
      id: g.id,
      seat: g.seat,
      seats: [...g.names],
      view: viewJson(v, legal, g.rules.charleston?.first.length ?? 3),
      legal: legalJson(legal, v),
      events,
      recordId: g.recordId,
    };
  }

  private logged(g: LiveGame, action: Action, drew: TileId | null): void {
    g.writer.action(action);
    g.log.push({ action, drew });
  }

  private advance(g: LiveGame): void {
    runBots(g.state, g.agents, g.rng, g.seat, (a, drew) => this.logged(g, a, drew), g.autoPlay);
    this.save(g);
  }

  /** Writes a finished game's record once; a failed write is tried again at the next answer. */
  private save(g: LiveGame): void {
    if (g.state.phase.kind !== 'ended' || g.recordId !== null) return;
    try {
      writeFileAtomic(join(this.recordsDir, `${g.id}.jsonl`), g.writer.text(g.state));
      g.recordId = g.id;
    } catch (err) {
      this.onError(err);
    }
  }

  /** Drops finished games first, then the longest idle past the idle limit; refuses when still full. */
  private makeRoom(): void {
    if (this.games.size < this.limits.maxGames) return;
    const byAge = [...this.games.values()].sort((a, b) => a.touched - b.touched);
    const victim = byAge.find((g) => g.recordId !== null) ?? byAge.find((g) => this.now() - g.touched > this.limits.idleMs);
    if (!victim) throw new TilemateError('TM_TOO_MANY_GAMES', `the server holds ${this.limits.maxGames} live games, its limit; finish one or try again later`);
    this.games.delete(victim.id);
  }

  // ------------------------------------------------------------------ records

  private recordPath(id: string): string {
    if (!ID.test(id)) throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
    return join(this.recordsDir, `${id}.jsonl`);
  }

  private recordExists(id: string): boolean {
    try { return statSync(join(this.recordsDir, `${id}.jsonl`)).isFile(); } catch { return false; }
  }

  /** A finished game's record text. */
  readRecord(id: string): string {
    try {
      return readFileSync(this.recordPath(id), 'utf8');
    } catch (err) {
      if (err instanceof TilemateError) throw err;
      throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
    }
  }

  /** Every finished record on disk, newest first (files that are not records are skipped). */
  listRecords(): RecordSummary[] {
    let names: string[];
    try { names = readdirSync(this.recordsDir); } catch { return []; }
    const out: RecordSummary[] = [];
    for (const name of names) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -6) : '';
      if (!ID.test(id)) continue; // temporary files start with a dot
      try {
        const path = join(this.recordsDir, name);
        const s = summarize(id, readFileSync(path, 'utf8'), statSync(path).mtime);
        if (s) out.push(s);
      } catch { /* unreadable or not a record: not listed */ }
    }
    return out.sort((a, b) => b.finishedAt.localeCompare(a.finishedAt) || a.id.localeCompare(b.id));
  }
}

/** A record's header and end line (no replay: listing stays cheap), or null when it is not a finished record. */
export function summarize(id: string, text: string, finished: Date): RecordSummary | null {
  const lines = text.trimEnd().split('\n');
  if (lines.length < 2) return null;
  const header = JSON.parse(lines[0]) as { format?: string; ruleset: string; card: { name: string }; seed: number; seats: string[] };
  const last = JSON.parse(lines[lines.length - 1]) as { end?: { winners: number[]; wallGame: boolean; scores: number[] } };
  if (header.format !== 'tilemate-record' || !last.end) return null;
  return {
    id, ruleset: header.ruleset, card: header.card?.name, seed: header.seed, seats: header.seats,
    winners: last.end.winners, wallGame: last.end.wallGame, scores: last.end.scores,
    actions: lines.length - 2, finishedAt: finished.toISOString(),
  };
}
