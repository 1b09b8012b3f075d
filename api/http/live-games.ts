import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../../agents/agent.js';
import { botRng, makeBot, thinksLong } from '../../agents/bots.js';
import { forcedAction } from '../../agents/table.js';
import { TilemateError } from '../../engine/errors.js';
import type { CardSource, Game, GameSpec, GameType } from '../../engine/games.js';
import { readHeader, RecordWriter } from '../../engine/record.js';
import { gameTypeOfRecord } from '../../engine/registry.js';
import type { RngState } from '../../engine/rng.js';
import { writeFileAtomic } from '../../io/files.js';
import type { GameWire } from '../shared/game-wire.js';
import type { HeavyPool } from './heavy.js';
import { Journal } from './journal.js';
import { admit, DEFAULT_TABLE_LIMITS, type Seated, type TableLimits } from './quotas.js';

/**
 * Live games against bots, for every game, each opened by a token, and the records of finished
 * ones. A game is played in memory and journaled as it goes (`<data>/live/`,
 * api/http/journal.ts), so a restarted server takes it up again; once it ends its record is
 * written atomically into `<data>/records/<id>.jsonl`. Tokens are kept only as hashes and
 * compared in constant time. Everything here goes through the game interface
 * (engine/games.ts) and each game's JSON (api/shared/game-wire.ts).
 */

export interface NewGame<G extends GameSpec> {
  game: Game<G>;
  /** The person's seat. */
  seat: number;
  /** A bot for every other seat, in seat order. */
  bots: readonly string[];
  seed?: number;
  /** Make the person's forced draws, declines and passes for her (default true). */
  autoPlay?: boolean;
}

export interface LiveGame<G extends GameSpec = GameSpec> extends Seated {
  readonly id: string;
  readonly game: Game<G>;
  readonly wire: GameWire<G>;
  readonly seat: number;
  readonly names: string[];
  readonly state: G['state'];
  /** The bots by seat (null at the person's); a bot that thinks long plays its turns in the worker pool. */
  readonly agents: (Agent<G> | null)[];
  readonly rng: RngState;
  readonly writer: RecordWriter<G>;
  readonly autoPlay: boolean;
  readonly tokenHash: Buffer;
  /** Every action applied, in order (action n is log[n - 1]), with the tile it drew when it was the person's own draw. */
  readonly log: { action: G['action']; drawn: string | null }[];
  /** Actions the seat has been told of. */
  told: number;
  touched: number;
  recordId: string | null;
  recordError: TilemateError | null;
  /** The game's requests, one after another (see exclusive). */
  busy: Promise<void>;
  /** Actions written to the game's journal (api/http/journal.ts). */
  journaled: number;
}

export interface GameAnswer {
  id: string;
  token?: string;
  seat: number;
  seats: string[];
  view: unknown;
  legal: unknown[];
  events: unknown[];
  /** Actions applied so far: post it back as `after` with the next action to make a retry safe. */
  at: number;
  recordId: string | null;
  /** Set when the finished game's record could not be written (it is tried again at the next answer). */
  recordError?: { code: string; message: string };
}

export interface RecordListing {
  id: string;
  game: string;
  ruleset: string;
  card?: string;
  seed: number;
  seats: string[];
  winners: number[];
  scores: number[];
  wallGame?: boolean;
  actions: number;
  finishedAt: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_EVENTS = 400;
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;
const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A fresh game seed: 48 random bits, never shown before the end (too many deals to search for the one on the table). */
export const freshSeed = (): number => randomInt(0, 2 ** 48 - 1);

export interface LiveGamesOptions {
  dataDir: string;
  /** Each game's JSON, by game type name. */
  wires: readonly GameWire<GameSpec>[];
  /** Compiles a Mah Jongg card's text (the server's cache). */
  cards: CardSource;
  limits?: TableLimits;
  now?: () => number;
  onError?: (err: unknown) => void;
  /** Where the bots that think long play their turns (null: on the event loop). */
  pool?: HeavyPool | null;
}

/** The journal folders: one for every game; Mexican Train's games of before it were kept apart. */
const JOURNALS = ['live', 'live-domino'];

export class LiveGames {
  private readonly games = new Map<string, LiveGame>();
  private readonly recordsDir: string;
  private readonly journal: Journal;
  private readonly journals: Journal[];
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private readonly limits: TableLimits;
  private readonly pool: HeavyPool | null;

  constructor(private readonly opts: LiveGamesOptions) {
    this.recordsDir = join(opts.dataDir, 'records');
    this.journals = JOURNALS.map((dir) => new Journal(join(opts.dataDir, dir)));
    this.journal = this.journals[0];
    this.now = opts.now ?? Date.now;
    this.onError = opts.onError ?? (() => {});
    this.limits = opts.limits ?? DEFAULT_TABLE_LIMITS;
    this.pool = opts.pool ?? null;
  }

  private wireOf<G extends GameSpec>(type: GameType<G>): GameWire<G> {
    const wire = this.opts.wires.find((w) => w.type === (type as unknown as GameType));
    if (wire === undefined) throw new Error(`rule violation: no JSON for the game ${type.name}`);
    return wire as unknown as GameWire<G>;
  }

  get size(): number {
    return this.games.size;
  }

  /**
   * Takes up the games in progress when the server stopped, from their journals: each
   * replayed to its last acknowledged action, with the bots' random stream as it was. A
   * journal that does not replay is skipped and reported.
   */
  restore(): number {
    let restored = 0;
    for (const journal of this.journals) {
      for (const j of journal.load((file, why) => this.onError(new Error(`live game journal ${file} skipped: ${why}`)))) {
        try {
          const { header, game } = readHeader(j.header, this.opts.cards);
          const bots = header.seats.filter((_, s) => s !== j.meta.seat);
          const g = this.live(j.meta.id, j.meta.owner, game, j.meta.seat, bots, header.seed, j.meta.autoPlay ?? true, Buffer.from(j.meta.tokenHash, 'hex'));
          // Bots that keep something between turns (an easy bot's target) decide again as the
          // game replays, from the bots' stream as it was, so they are where they were. The
          // bots that think long keep nothing (each turn is a task of its own); at their tables
          // the stream is taken from the journal instead.
          const again = !g.names.some((name, s) => s !== g.seat && thinksLong(game.type, name));
          for (const raw of j.actions) {
            const action = game.decodeAction(raw);
            const seat = action.seat;
            if (again && seat !== g.seat) g.agents[seat]!.act({ seat, phase: game.phase(g.state), view: () => game.view(g.state, seat), legal: () => game.legalActions(g.state, seat), rng: g.rng });
            game.apply(g.state, action);
            this.logged(g, action);
          }
          g.rng.splice(0, 4, ...j.rng);
          g.journaled = g.told = g.log.length;
          this.games.set(g.id, g);
          this.save(g); // a game that ended just before the stop gets its record now
          restored++;
        } catch (err) {
          this.onError(new Error(`live game ${j.meta.id} not restored: ${err instanceof Error ? err.message : String(err)}`));
        }
      }
    }
    return restored;
  }

  private live<G extends GameSpec>(id: string, owner: string, game: Game<G>, seat: number, bots: readonly string[], seed: number, autoPlay: boolean, tokenHash: Buffer): LiveGame<G> {
    if (bots.length !== game.players - 1) {
      throw new TilemateError('TM_BAD_INPUT', `"bots" names ${bots.length} bot${bots.length === 1 ? '' : 's'} for the ${game.players - 1} other seats: name one per other seat, or give "level" for all`);
    }
    const names = [...bots];
    names.splice(seat, 0, 'human');
    const agents = names.map((name, s) => (s === seat ? null : makeBot(game, name))); // refuses unknown bots
    return {
      id, owner, game, wire: this.wireOf(game.type), seat, names,
      state: game.newGame(seed),
      agents,
      rng: botRng(seed),
      writer: new RecordWriter(game, seed, names),
      autoPlay,
      tokenHash,
      log: [],
      told: 0,
      touched: this.now(),
      recordId: null,
      recordError: null,
      busy: Promise.resolve(),
      journaled: 0,
    };
  }

  /** Writes the actions applied since the last call to the game's journal, before the request is answered. */
  private journalUp<G extends GameSpec>(g: LiveGame<G>): void {
    if (g.recordId !== null) return; // finished and saved: its journal is gone
    try {
      this.journal.append(g.id, g.journaled + 1, g.log.slice(g.journaled).map((l) => g.game.encodeAction(l.action)), g.rng);
      g.journaled = g.log.length;
    } catch (err) {
      this.onError(err);
    }
  }

  private drop(id: string): void {
    this.games.delete(id);
    for (const journal of this.journals) {
      try { journal.remove(id); } catch (err) { this.onError(err); }
    }
  }

  /** A new game; the bots move until the person must decide. The token is in the answer only. */
  async create<G extends GameSpec>(opts: NewGame<G>, owner = 'local'): Promise<GameAnswer> {
    const { game } = opts;
    const seat = opts.seat;
    if (!Number.isInteger(seat) || seat < 0 || seat >= game.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected a seat from 0 to ${game.players - 1}`);
    const seed = opts.seed ?? freshSeed();
    const token = randomBytes(24).toString('base64url');
    let id: string;
    do id = randomBytes(12).toString('base64url'); while (this.games.has(id) || this.recordExists(id));
    const g = this.live(id, owner, game, seat, opts.bots, seed, opts.autoPlay ?? true, hash(token));
    // a full table refuses the new game; it never evicts another player's game in progress
    admit(this.games, owner, this.limits, this.now(), (x) => x.recordId !== null || x.game.isOver(x.state), (x) => this.drop(x));
    this.games.set(id, g as unknown as LiveGame);
    await this.exclusive(g, async () => {
      await this.advance(g);
      try {
        this.journal.start({ id, tokenHash: g.tokenHash.toString('hex'), seat, autoPlay: g.autoPlay, owner }, g.writer.header, g.log.map((l) => game.encodeAction(l.action)), g.rng);
        g.journaled = g.log.length;
      } catch (err) {
        this.onError(err);
      }
      this.save(g);
    });
    return { ...this.answer(g), token };
  }

  /**
   * The game the token opens, of this game type. No token: TM_UNAUTHORIZED; an unknown id, a
   * game of another type or another game's token: the same TM_NOT_FOUND.
   */
  open<G extends GameSpec>(id: string, token: string | undefined, type: GameType<G>): LiveGame<G> {
    if (token === undefined || token === '') throw new TilemateError('TM_UNAUTHORIZED', 'this game needs its token: send "Authorization: Bearer <token>"');
    const g = ID.test(id) ? this.games.get(id) : undefined;
    if (!g || g.game.type !== (type as unknown as GameType) || !timingSafeEqual(g.tokenHash, hash(token))) throw new TilemateError('TM_NOT_FOUND', `no ${type.title} game "${id}" opens with this token`);
    g.touched = this.now();
    return g as unknown as LiveGame<G>;
  }

  /**
   * The seat's action, posted as JSON, then the bots' until the seat must decide again or the
   * game ends. The engine checks the action in full before changing anything, so a refused
   * one (TM_NOT_YOUR_TURN, TM_ILLEGAL_ACTION, TM_GAME_OVER) leaves the game as it was.
   */
  act<G extends GameSpec>(g: LiveGame<G>, body: Record<string, unknown>, after?: number): Promise<GameAnswer> {
    return this.exclusive(g, async () => {
      if (after !== undefined && after !== g.log.length) {
        throw new TilemateError('TM_STALE_ACTION', `this action was sent after action ${after}, but the game is at action ${g.log.length}: it may be a retry of one already applied, so it was not applied again (ask for the game to see where it stands)`);
      }
      if (g.game.isOver(g.state)) throw new TilemateError('TM_GAME_OVER', 'the game has ended');
      // the token says which seat acts: an action naming another seat is refused, never applied for this one
      if (body.seat !== undefined && body.seat !== g.seat) throw new TilemateError('TM_NOT_YOUR_TURN', `this token plays seat ${g.seat}, not seat ${String(body.seat)}`);
      if (g.game.legalActions(g.state, g.seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', `the game is not waiting on seat ${g.seat} now`);
      const action = g.game.decodeAction({ ...body, seat: g.seat });
      g.game.apply(g.state, action);
      this.logged(g, action);
      await this.advance(g);
      this.journalUp(g);
      this.save(g);
      return this.answer(g);
    });
  }

  /**
   * Runs `fn` once the game's earlier requests are done: an action and the bots' answers to
   * it are applied as one step, and a request never sees a game half-way through the bots' turns.
   */
  exclusive<T>(g: { busy: Promise<void> }, fn: () => Promise<T> | T): Promise<T> {
    const run = g.busy.then(fn);
    g.busy = run.then(() => undefined, () => undefined);
    return run;
  }

  /** The seat's answer now; `since` (an action number) lists the events after it instead of the untold ones. */
  answer<G extends GameSpec>(g: LiveGame<G>, since?: number): GameAnswer {
    this.save(g);
    const { game, wire, state } = g;
    const v = game.view(state, g.seat);
    const legal = game.legalActions(state, g.seat);
    let from = since === undefined ? g.told : Math.max(0, Math.min(since, g.log.length));
    const to = Math.max(from, wire.heard?.(game, state, g.log.map((l) => l.action)) ?? g.log.length);
    from = Math.max(from, to - MAX_EVENTS);
    const events: unknown[] = [];
    for (let i = from; i < to; i++) events.push(wire.eventJson(game, i + 1, g.log[i].action, g.seat, g.log[i].drawn));
    if (since === undefined) g.told = to;
    return {
      id: g.id,
      seat: g.seat,
      seats: [...g.names],
      view: wire.viewJson(game, v, legal),
      legal: wire.legalJson(game, legal, v),
      events,
      at: g.log.length,
      recordId: g.recordId,
      ...(g.recordError ? { recordError: { code: g.recordError.code, message: `the finished game could not be saved as a record: ${g.recordError.message}` } } : {}),
    };
  }

  private logged<G extends GameSpec>(g: LiveGame<G>, action: G['action']): void {
    g.writer.action(action);
    g.log.push({ action, drawn: action.seat === g.seat ? g.game.drawnTile(g.state, action) : null });
  }

  /**
   * The bots move (and the seat's forced draws, declines and passes are made) until the seat
   * must decide or the game ends; the bots that think long play their turns in the worker
   * pool, each from the seat's view and the bots' random stream, so the game is the same
   * wherever they are played.
   */
  private async advance<G extends GameSpec>(g: LiveGame<G>): Promise<void> {
    const { game, state } = g;
    for (;;) {
      const seat = game.nextToAct(state);
      if (seat < 0) {
        if (game.isOver(state)) return;
        throw new Error('rule violation: nobody to act in a live game');
      }
      let action: G['action'];
      if (seat === g.seat) {
        const forced = g.autoPlay ? forcedAction(game.legalActions(state, seat)) : null;
        if (forced === null) return;
        action = forced;
      } else if (this.pool !== null && thinksLong(game.type, g.names[seat])) {
        const move = await this.pool.bot({
          kind: 'bot', game: game.type.name, params: { ...game.params }, bot: g.names[seat], seat,
          phase: game.phase(state), view: game.view(state, seat), legal: game.legalActions(state, seat), rng: [...g.rng],
        });
        g.rng.splice(0, 4, ...move.rng);
        action = move.action as G['action'];
      } else {
        action = g.agents[seat]!.act({ seat, phase: game.phase(state), view: () => game.view(state, seat), legal: () => game.legalActions(state, seat), rng: g.rng });
      }
      game.apply(state, action);
      this.logged(g, action);
    }
  }

  /** Writes a finished game's record once; a failed write is tried again at the next answer. */
  private save<G extends GameSpec>(g: LiveGame<G>): void {
    if (!g.game.isOver(g.state) || g.recordId !== null) return;
    try {
      writeFileAtomic(join(this.recordsDir, `${g.id}.jsonl`), g.writer.text(g.state));
      g.recordId = g.id;
      g.recordError = null;
      for (const journal of this.journals) journal.remove(g.id);
    } catch (err) {
      g.recordError = err instanceof TilemateError ? err : new TilemateError('TM_FILE', String(err));
      this.onError(err);
    }
  }

  // ------------------------------------------------------------------ records

  private recordPath(id: string): string {
    if (!ID.test(id)) throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
    return join(this.recordsDir, `${id}.jsonl`);
  }

  private recordExists(id: string): boolean {
    try { return statSync(join(this.recordsDir, `${id}.jsonl`)).isFile(); } catch { return false; }
  }

  /** A finished game's record text; a file that is not a finished record (damaged on disk) is not one, as in the listing. */
  readRecord(id: string): string {
    let text: string;
    try {
      text = readFileSync(this.recordPath(id), 'utf8');
    } catch (err) {
      if (err instanceof TilemateError) throw err;
      throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
    }
    if (listingOf(id, text, new Date(0)) === null) throw new TilemateError('TM_NOT_FOUND', `record "${id}" is damaged on the server and cannot be read`);
    return text;
  }

  /**
   * Finished records on disk, newest first, a page at a time. Each file is read once and its
   * summary kept (records never change once written); the folder is listed again only when
   * its modification time says a file came or went.
   */
  listRecords(page: { offset?: number; limit?: number } = {}): { records: RecordListing[]; total: number } {
    let folder: number;
    try { folder = statSync(this.recordsDir).mtimeMs; } catch { return { records: [], total: 0 }; }
    if (folder !== this.index.folder) {
      const names = new Set(readdirSync(this.recordsDir));
      for (const name of this.index.byName.keys()) if (!names.has(name)) this.index.byName.delete(name);
      for (const name of names) {
        const id = name.endsWith('.jsonl') ? name.slice(0, -6) : '';
        if (!ID.test(id) || this.index.byName.has(name)) continue; // temporary files start with a dot
        let s: RecordListing | null = null;
        try {
          const path = join(this.recordsDir, name);
          s = listingOf(id, readFileSync(path, 'utf8'), statSync(path).mtime);
        } catch { /* unreadable: not listed */ }
        this.index.byName.set(name, s);
      }
      this.index.folder = folder;
      this.index.sorted = null;
    }
    this.index.sorted ??= [...this.index.byName.values()].filter((r): r is RecordListing => r !== null)
      .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt) || a.id.localeCompare(b.id));
    const offset = page.offset ?? 0;
    return { records: this.index.sorted.slice(offset, offset + (page.limit ?? DEFAULT_PAGE)), total: this.index.sorted.length };
  }

  private readonly index: { folder: number; byName: Map<string, RecordListing | null>; sorted: RecordListing[] | null } = { folder: -1, byName: new Map(), sorted: null };
}

/** A record's header and end line (no replay: listing stays cheap), or null when it is not a finished record. */
export function listingOf(id: string, text: string, finished: Date): RecordListing | null {
  try {
    const lines = text.trimEnd().split('\n');
    if (lines.length < 2) return null;
    const header = JSON.parse(lines[0]) as Record<string, unknown>;
    const end = (JSON.parse(lines[lines.length - 1]) as { end?: Record<string, unknown> }).end;
    const type = gameTypeOfRecord(header.format);
    if (type === undefined || typeof end !== 'object' || end === null || !Number.isSafeInteger(header.seed) || !Array.isArray(header.seats)) return null;
    const s = type.recordSummary(header, end);
    return s === null ? null : { id, game: type.name, ...s, seed: header.seed as number, seats: header.seats as string[], actions: lines.length - 2, finishedAt: finished.toISOString() };
  } catch {
    return null;
  }
}
