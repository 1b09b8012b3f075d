import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Agent } from '../../agents/agent.js';
import { botRng, makeBot, thinksLong } from '../../agents/bots.js';
import { forcedAction } from '../../agents/table.js';
import { TilemateError } from '../../engine/errors.js';
import type { CardSource, Game, GameSpec, GameType } from '../../engine/games.js';
import { readHeader, RecordWriter, replayRecord } from '../../engine/record.js';
import type { RngState } from '../../engine/rng.js';
import { STORAGE_SENTENCE } from '../store/db.js';
import { recordSummary, type ActionBatch, type GameStore, type NewRecord, type RecordRow, type StoredLiveGame } from '../store/games.js';
import type { GameWire } from '../shared/game-wire.js';
import type { HeavyPool } from './heavy.js';
import { admit, checkRoom, DEFAULT_TABLE_LIMITS, type Seated, type TableLimits } from './quotas.js';
import { MAX_EVENTS } from '../shared/limits.js';

/**
 * Live games against bots, for every game, each opened by a token, and the records of finished
 * ones. A game is played in memory and each request's actions are committed to the database
 * before it is answered (api/store/games.ts), so a restarted server takes it up again at its
 * last acknowledged action; its record is kept in the same transaction as its last actions.
 * Tokens are kept only as hashes and compared in constant time. Everything here goes through the game interface
 * (engine/games.ts) and each game's JSON (api/shared/game-wire.ts).
 */

export interface NewGame<G extends GameSpec> {
  game: Game<G>;
  /** The player whose game it is (her records list it). */
  player: string | null;
  /** The person's seat. */
  seat: number;
  /** A bot for every other seat, in seat order. */
  bots: readonly string[];
  seed?: number;
  /** Make the person's forced draws, declines and passes for her (default true). */
  autoPlay?: boolean;
  /** Actions (as the codec writes them) the game starts from: play on from a moment of a recorded game. */
  from?: readonly unknown[];
}

export interface LiveGame<G extends GameSpec = GameSpec> extends Seated {
  readonly id: string;
  readonly game: Game<G>;
  readonly wire: GameWire<G>;
  readonly seat: number;
  /** The player whose game it is (null: a game from before accounts). */
  readonly player: string | null;
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
  /** The game's requests, one after another (see exclusive). */
  busy: Promise<void>;
  /** Actions committed to the database. */
  committed: number;
  /** Put aside after a failed commit: the next request reads the game back from the database. */
  evicted: boolean;
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
}

/** A finished game as a list shows it (who created it is not shown; her seat is). */
export type RecordListing = Omit<RecordRow, 'owner' | 'player'>;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;
const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A fresh game seed: 48 random bits, never shown before the end (too many deals to search for the one on the table). */
export const freshSeed = (): number => randomInt(0, 2 ** 48 - 1);

export interface LiveGamesOptions {
  /** Where live games and records are kept (api/store/games.ts). */
  store: GameStore;
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

export class LiveGames {
  private readonly games = new Map<string, LiveGame>();
  /** Games being read back from the database, so two requests for one wait on one read. */
  private readonly loading = new Map<string, Promise<LiveGame | undefined>>();
  private readonly store: GameStore;
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private readonly limits: TableLimits;
  private readonly pool: HeavyPool | null;

  constructor(private readonly opts: LiveGamesOptions) {
    this.store = opts.store;
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
   * Takes up the games in progress when the server stopped, from the database: each replayed
   * to its last committed action, with the bots' random stream as it was. A game that does not
   * replay is skipped and reported (its rows stay, to look at).
   */
  async restore(): Promise<number> {
    let restored = 0;
    for (const stored of await this.store.live()) {
      try {
        const g = this.rebuild(stored);
        this.games.set(g.id, g);
        if (g.game.isOver(g.state)) await this.commit(g); // a game imported as it ended: its record now
        restored++;
      } catch (err) {
        this.onError(new Error(`live game ${stored.meta.id} not restored: ${err instanceof Error ? err.message : String(err)}`));
      }
    }
    return restored;
  }

  /** A stored game replayed to its last committed action. */
  private rebuild(stored: StoredLiveGame): LiveGame {
    const { meta } = stored;
    const { header, game } = readHeader(stored.header, this.opts.cards);
    const bots = header.seats.filter((_, s) => s !== meta.seat);
    const g = this.live(meta.id, meta.owner, meta.player, game, meta.seat, bots, header.seed, meta.autoPlay, meta.tokenHash);
    this.replay(g, stored.actions);
    // the bots that think long keep nothing of the stream as they replay: it is taken from the database
    g.rng.splice(0, 4, ...stored.rng);
    g.committed = g.told = g.log.length;
    return g as unknown as LiveGame;
  }

  /**
   * Applies actions written by the game's codec to a new game. Bots that keep something between
   * turns (an easy bot's target) decide again as the game replays, from the bots' stream as it
   * was, so they are where they were; the bots that think long keep nothing (each turn is a
   * task of its own), and at their tables the stream is not replayed.
   */
  private replay<G extends GameSpec>(g: LiveGame<G>, actions: readonly unknown[]): void {
    const { game } = g;
    const again = !g.names.some((name, s) => s !== g.seat && thinksLong(game.type, name));
    for (const raw of actions) {
      const action = game.decodeAction(raw);
      const seat = action.seat;
      if (again && seat !== g.seat) g.agents[seat]!.act({ seat, phase: game.phase(g.state), view: () => game.view(g.state, seat), legal: () => game.legalActions(g.state, seat), rng: g.rng });
      game.apply(g.state, action);
      this.logged(g, action);
    }
  }

  private live<G extends GameSpec>(
    id: string,
    owner: string,
    player: string | null,
    game: Game<G>,
    seat: number,
    bots: readonly string[],
    seed: number,
    autoPlay: boolean,
    tokenHash: Buffer,
  ): LiveGame<G> {
    if (bots.length !== game.players - 1) {
      throw new TilemateError(
        'TM_BAD_INPUT',
        `"bots" names ${bots.length} bot${bots.length === 1 ? '' : 's'} for the ${game.players - 1} other seats: name one per other seat, or give "level" for all`,
      );
    }
    const names = [...bots];
    names.splice(seat, 0, 'human');
    const agents = names.map((name, s) => (s === seat ? null : makeBot(game, name))); // refuses unknown bots
    return {
      id,
      owner,
      player,
      game,
      wire: this.wireOf(game.type),
      seat,
      names,
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
      busy: Promise.resolve(),
      committed: 0,
      evicted: false,
    };
  }

  /** The actions applied since the last commit, as the database keeps them. */
  private batch<G extends GameSpec>(g: LiveGame<G>): ActionBatch {
    return { from: g.committed + 1, actions: g.log.slice(g.committed).map((l) => g.game.encodeAction(l.action)), rng: [...g.rng] as RngState };
  }

  /** A finished game's record, with what a list shows of it. */
  private recordOf<G extends GameSpec>(g: LiveGame<G>): NewRecord | undefined {
    if (!g.game.isOver(g.state) || g.recordId !== null) return undefined;
    const text = g.writer.text(g.state);
    const summary = recordSummary(text);
    if (summary === null) throw new Error(`rule violation: the record of game ${g.id} does not read back`);
    return { id: g.id, ...summary, owner: g.owner, player: g.player, seat: g.seat, text, tokenHash: g.tokenHash };
  }

  /**
   * Commits the actions applied since the last commit (and the record, once the game has
   * ended) before the request is answered: an action is acknowledged only once committed.
   */
  private async commit<G extends GameSpec>(g: LiveGame<G>): Promise<void> {
    const batch = this.batch(g);
    const record = this.recordOf(g);
    if (batch.actions.length === 0 && record === undefined) return;
    await this.store.append(g.id, batch, record);
    g.committed = g.log.length;
    if (record !== undefined) g.recordId = g.id;
  }

  /**
   * A game whose request failed part-way (its actions not committed) is put aside: the next
   * request reads it back from the database at its last committed action, so nothing that was
   * not acknowledged stays applied.
   */
  private evict(g: LiveGame): void {
    g.evicted = true;
    if (this.games.get(g.id) === g) this.games.delete(g.id);
  }

  private drop(id: string): void {
    this.games.delete(id);
    this.store.drop(id).catch((err: unknown) => this.onError(err));
  }

  /** Refuses (TM_TOO_MANY_GAMES) when `owner` could not open a new game now; asked before the work a new game needs (a card compiled). */
  checkRoom(owner: string): void {
    checkRoom(this.games, owner, this.limits, this.now(), (x) => x.recordId !== null || x.game.isOver(x.state));
  }

  /** Drops the games nobody has acted in for the idle time (the server sweeps every minute); the number dropped. */
  sweep(): number {
    const now = this.now();
    let dropped = 0;
    for (const [id, g] of this.games)
      if (now - g.touched > this.limits.idleMs) {
        this.drop(id);
        dropped++;
      }
    return dropped;
  }

  /** A new game; the bots move until the person must decide. The token is in the answer only. */
  async create<G extends GameSpec>(opts: NewGame<G>, owner = 'local'): Promise<GameAnswer> {
    const { game } = opts;
    const seat = opts.seat;
    if (!Number.isInteger(seat) || seat < 0 || seat >= game.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected a seat from 0 to ${game.players - 1}`);
    const seed = opts.seed ?? freshSeed();
    const token = randomBytes(24).toString('base64url');
    let id: string;
    do id = randomBytes(12).toString('base64url');
    while (this.games.has(id));
    const g = this.live(id, owner, opts.player, game, seat, opts.bots, seed, opts.autoPlay ?? true, hash(token));
    if (opts.from !== undefined) {
      try {
        this.replay(g, opts.from);
      } catch (err) {
        throw new TilemateError('TM_BAD_RECORD', `the game cannot be set up from its record: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (game.isOver(g.state)) throw new TilemateError('TM_GAME_OVER', 'the game had ended by then: choose an earlier moment');
    }
    // a full table refuses the new game; it never evicts another player's game in progress
    admit(
      this.games,
      owner,
      this.limits,
      this.now(),
      (x) => x.recordId !== null || x.game.isOver(x.state),
      (x) => this.drop(x),
    );
    this.games.set(id, g as unknown as LiveGame);
    await this.exclusive(g, async () => {
      try {
        await this.advance(g);
        const record = this.recordOf(g);
        await this.store.start({ id, owner, player: g.player, tokenHash: g.tokenHash, seat, autoPlay: g.autoPlay }, JSON.parse(g.writer.header) as Record<string, unknown>, this.batch(g), record);
        g.committed = g.log.length;
        if (record !== undefined) g.recordId = id;
      } catch (err) {
        this.evict(g as unknown as LiveGame); // never acknowledged: the game is not there
        throw err;
      }
    });
    return { ...this.answer(g), token };
  }

  /**
   * The game the token opens, of this game type. No token: TM_UNAUTHORIZED; an unknown id, a
   * game of another type or another game's token: the same TM_NOT_FOUND. A game not in memory
   * (put aside after a failed commit) is read back from the database.
   */
  async open<G extends GameSpec>(id: string, token: string | undefined, type: GameType<G>): Promise<LiveGame<G>> {
    if (token === undefined || token === '') throw new TilemateError('TM_UNAUTHORIZED', 'this game needs its token: send "Authorization: Bearer <token>"');
    const g = ID.test(id) ? (this.games.get(id) ?? (await this.load(id))) : undefined;
    if (!g || g.game.type !== (type as unknown as GameType) || !timingSafeEqual(g.tokenHash, hash(token)))
      throw new TilemateError('TM_NOT_FOUND', `no ${type.title} game "${id}" opens with this token`);
    // looking at a game does not keep it: only the person's actions do (act), so polling cannot hold a place for ever
    return g as unknown as LiveGame<G>;
  }

  private load(id: string): Promise<LiveGame | undefined> {
    let loading = this.loading.get(id);
    if (loading === undefined) {
      loading = (async () => {
        const [stored] = await this.store.live(id);
        if (stored === undefined) return this.finished(id);
        const g = this.games.get(id) ?? this.rebuild(stored);
        this.games.set(id, g);
        return g;
      })().finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  /**
   * A finished game's end, read-only, from its record: its live rows went with its last actions,
   * so after a restart (or once put aside) its token still opens how it ended, for a player
   * whose last answer was cut off. Acting in it is TM_GAME_OVER, as before the restart.
   */
  private async finished(id: string): Promise<LiveGame | undefined> {
    const kept = await this.store.finishedGame(id);
    if (kept === null) return undefined;
    let g: LiveGame;
    try {
      const { header, game, played } = replayRecord(kept.text, { cards: this.opts.cards });
      g = this.live(
        id,
        kept.owner ?? 'local',
        kept.player,
        game,
        kept.seat,
        header.seats.filter((_, s) => s !== kept.seat),
        header.seed,
        true,
        kept.tokenHash,
      );
      for (const action of played) {
        game.apply(g.state, action);
        this.logged(g, action);
      }
    } catch (err) {
      this.onError(new Error(`finished game ${id} not opened: ${err instanceof Error ? err.message : String(err)}`));
      return undefined;
    }
    g.committed = g.told = g.log.length;
    g.recordId = id;
    const known = this.games.get(id);
    if (known !== undefined) return known;
    this.games.set(id, g);
    return g;
  }

  /**
   * The seat's action, posted as JSON, then the bots' until the seat must decide again or the
   * game ends, all committed to the database before the answer. The engine checks the action
   * in full before changing anything, so a refused one (TM_NOT_YOUR_TURN, TM_ILLEGAL_ACTION,
   * TM_GAME_OVER) leaves the game as it was; a failed commit (TM_STORAGE) leaves it at its last
   * committed action.
   */
  act<G extends GameSpec>(g: LiveGame<G>, body: Record<string, unknown>, after?: number): Promise<GameAnswer> {
    return this.exclusive(g, async () => {
      if (after !== undefined && after !== g.log.length) {
        throw new TilemateError(
          'TM_STALE_ACTION',
          `this action was sent after action ${after}, but the game is at action ${g.log.length}: it may be a retry of one already applied, so it was not applied again (ask for the game to see where it stands)`,
        );
      }
      if (g.game.isOver(g.state)) throw new TilemateError('TM_GAME_OVER', 'the game has ended');
      // the token says which seat acts: an action naming another seat is refused, never applied for this one
      if (body.seat !== undefined && body.seat !== g.seat) throw new TilemateError('TM_NOT_YOUR_TURN', `this token plays seat ${g.seat}, not seat ${String(body.seat)}`);
      if (g.game.legalActions(g.state, g.seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', `the game is not waiting on seat ${g.seat} now`);
      const action = g.game.decodeAction({ ...body, seat: g.seat });
      g.game.apply(g.state, action);
      this.logged(g, action);
      g.touched = this.now();
      try {
        await this.advance(g);
        await this.commit(g);
      } catch (err) {
        this.evict(g as unknown as LiveGame);
        throw err;
      }
      return this.answer(g);
    });
  }

  /**
   * Runs `fn` once the game's earlier requests are done: an action and the bots' answers to
   * it are applied as one step, and a request never sees a game half-way through the bots'
   * turns. A game put aside meanwhile (an earlier request's commit failed) is not used: the
   * request is refused, and the next one reads the game back.
   */
  exclusive<T>(g: { busy: Promise<void>; evicted?: boolean }, fn: () => Promise<T> | T): Promise<T> {
    const run = g.busy.then(() => {
      if (g.evicted === true) throw new TilemateError('TM_STORAGE', STORAGE_SENTENCE);
      return fn();
    });
    g.busy = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** The seat's answer now; `since` (an action number) lists the events after it instead of the untold ones. */
  answer<G extends GameSpec>(g: LiveGame<G>, since?: number): GameAnswer {
    const { game, wire, state } = g;
    const v = game.view(state, g.seat);
    const legal = game.legalActions(state, g.seat);
    let from = since === undefined ? g.told : Math.max(0, Math.min(since, g.log.length));
    const to = Math.max(
      from,
      wire.heard?.(
        game,
        state,
        g.log.map((l) => l.action),
      ) ?? g.log.length,
    );
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
          kind: 'bot',
          game: game.type.name,
          params: { ...game.params },
          bot: g.names[seat],
          seat,
          phase: game.phase(state),
          view: game.view(state, seat),
          legal: game.legalActions(state, seat),
          rng: [...g.rng],
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

  // ------------------------------------------------------------------ records

  /** A finished game's record text, when the player may read it (hers, or from before accounts). */
  async readRecord(id: string, player: string | null): Promise<string> {
    const text = ID.test(id) ? await this.store.recordText(id, player) : null;
    if (text === null) throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
    return text;
  }

  /** The finished records the player may read, newest first, a page at a time; `only`: hers alone (a coach's student's). */
  async listRecords(player: string | null, page: { offset?: number; limit?: number } = {}, only = false): Promise<{ records: RecordListing[]; total: number }> {
    const { records, total } = await this.store.records(player, { offset: page.offset ?? 0, limit: page.limit ?? DEFAULT_PAGE }, only);
    return { records: records.map(({ owner: _, player: __, ...r }) => r), total };
  }
}
