import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Agent } from '../../agents/agent.js';
import { botRng, makeBot, thinksLong } from '../../agents/bots.js';
import { forcedAction } from '../../agents/table.js';
import { TilemateError } from '../../engine/errors.js';
import type { CardSource, Game, GameSpec, GameType } from '../../engine/games.js';
import { RecordWriter, replayRecord } from '../../engine/record.js';
import { loadGame } from '../../engine/registry.js';
import type { RngState } from '../../engine/rng.js';
import { recordSummary, type NewRecord } from '../store/games.js';
import { soloRow, TABLE_CHANNEL, TableConflict, type Clock, type Member, type Role, type SeatRow, type TableChange, type TableRow, type TableStore } from '../store/tables.js';
import type { GameWire } from '../shared/game-wire.js';
import type { EventJson, GameMessage, SeatViewJson, ServerMessage, TableInfo } from '../shared/table-wire.js';
import type { HeavyPool } from './heavy.js';
import { CLOCKS, DEFAULT_LIMITS, MAX_EVENTS, MAX_TOKENS_A_SEAT, MAX_WATCHERS } from '../shared/limits.js';

/**
 * Every game in progress is a table: a game against bots (one person's seat, the bots in the
 * others: `solo`) and a table people share (docs/tables.md), on one server or many, go one way. The database holds each table
 * and its game (api/store/tables.ts); a server keeps a copy of the tables its people are at,
 * read again whenever the database's version is newer. Every change is made on the copy and
 * written over the version it was made from: when another server got there first, the copy is
 * read again and the change tried once more (the person's action is checked again against the
 * game as it now is). So an action, a bot's move included, is applied once, whichever server
 * made it, and acknowledged only once committed.
 *
 * Pushes: every commit sends NOTIFY with the table's id; every server hears it, reads what
 * changed and pushes each of its connected people her own message (her seat's view only).
 * Clocks and absent people: a table says when it must be looked at again (`wake_at`); each
 * server asks the database every second for the tables due, leased to it alone
 * (`FOR UPDATE SKIP LOCKED`), so a clock runs out once whichever servers are up.
 */

const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A table's code: six letters and digits that cannot be misread (no I, O, 0 or 1). */
function tableCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += CODE_LETTERS[randomInt(CODE_LETTERS.length)];
  return code;
}

/** What a person who takes a place at a table is given: the table, its link, her token and her place. */
const joined = (id: string, code: string, token: string, member: Member): Joined => ({ id, code, link: `/together.html?code=${code}`, token, seat: member.seat, role: member.role });
export const CODE = /^[A-HJ-NP-Z2-9]{6}$/;
/** A game against bots by its id (its table's code is its id, which no join accepts). */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A fresh game seed: 48 random bits, never shown before the end (too many deals to search for the one on the table). */
export const freshSeed = (): number => randomInt(0, 2 ** 48 - 1);

/** A new game against bots. */
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

/** A game against bots as its person's seat sees it (docs/api.md). */
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

/** How many games against bots the server holds, one address holds, and how long one may lie untouched (ms). */
export interface GameLimits {
  maxGames: number;
  perAddress: number;
  idleMs: number;
}

/** A stand-in decision for a person or a bot's move is tried at most this many times against changes by other servers. */
const ATTEMPTS = 4;

export type { GameMessage, SeatInfo, TableInfo } from '../shared/table-wire.js';

export interface Joined {
  id: string;
  code: string;
  link: string;
  token: string;
  seat: number | null;
  role: Role;
}

/** One connected person (a WebSocket), on this server. */
export interface Connection {
  send(message: ServerMessage): void;
  member: Member;
  /** Events she has been told up to. */
  told: number;
  lastTable: string;
  lastGame: string;
}

interface Cached {
  row: TableRow;
  game: Game | null;
  wire: GameWire<GameSpec> | null;
  state: GameSpec['state'] | null;
  /** Every action applied; `drawn` is the tile of its seat's own draw (told to that seat only). */
  log: { action: GameSpec['action']; drawn: string | null; byBot: boolean }[];
  rng: RngState;
  /** A bot for every seat: a bot seat's, or the table's level standing in for a person. */
  agents: Agent<GameSpec>[];
  hostName: string;
  /** Changed in memory by a change not yet committed: read again before use. */
  dirty: boolean;
}

export interface NewTable {
  game: string;
  params: Record<string, unknown>;
  name: string;
  teaching: boolean;
  clock: Clock;
  awayAfter: number;
  level: string;
  playerId: string | null;
}

export interface TablesOptions {
  store: TableStore;
  wires: readonly GameWire<GameSpec>[];
  cards: CardSource;
  pool: HeavyPool | null;
  /** This server's name in leases. */
  serverId?: string;
  /** Tables open or playing at once, on all servers. */
  maxTables?: number;
  /** Tables open or playing at once that one address opened. */
  tablesPerAddress?: number;
  /** A table untouched this long is given up (ms). */
  idleMs?: number;
  /** Games against bots: how many, and how long one may lie untouched. */
  games?: GameLimits;
  /** How often to look for tables due (ms). */
  sweepMs?: number;
  /** How long a second of the clocks and of absence lasts (ms; tests make it short). */
  secondMs?: number;
  /** How often the people connected here are written present (ms; default 5 s). */
  beatMs?: number;
  onError?: (err: unknown) => void;
  /** Told each finished game's records once they are committed (by this server): its people's reviews start in the background (api/http/reviews.ts). */
  onFinished?: (records: readonly NewRecord[]) => void;
}

const cleanName = (name: string): string => {
  const n = name
    .normalize('NFKC')
    .replace(/[\p{C}]/gu, '')
    .trim()
    .replace(/\s+/g, ' ');
  if (n.length === 0 || n.length > 24) throw new TilemateError('TM_BAD_INPUT', 'please give a name of 1 to 24 letters');
  return n;
};

export class Tables {
  private readonly cache = new Map<string, Cached>();
  private readonly connections = new Map<string, Set<Connection>>();
  private readonly store: TableStore;
  readonly serverId: string;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | null = null;
  private sweeping = false;
  private readonly onError: (err: unknown) => void;

  constructor(private readonly opts: TablesOptions) {
    this.store = opts.store;
    this.serverId = opts.serverId ?? randomBytes(6).toString('hex');
    this.onError = opts.onError ?? (() => {});
  }

  /** Listens for other servers' changes and starts looking for tables due. */
  async start(): Promise<void> {
    this.unlisten = await this.store.db.listen(TABLE_CHANNEL, (payload) => this.heard(payload));
    const sweep = setInterval(() => {
      void this.sweep();
    }, this.opts.sweepMs ?? 1_000);
    const beat = setInterval(() => {
      void this.heartbeat();
    }, this.opts.beatMs ?? 5_000);
    // idle games end on the clock, not only when someone opens another
    const idle = setInterval(
      () => {
        void this.dropIdle();
      },
      Math.min(60_000, this.gameLimits.idleMs),
    );
    for (const t of [sweep, beat, idle]) t.unref();
    this.timers = [sweep, beat, idle];
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.unlisten?.();
    this.unlisten = null;
    for (const conns of this.connections.values()) for (const c of conns) c.send({ type: 'error', code: 'TM_STORAGE', message: 'The server is restarting; you will be reconnected in a moment.' });
  }

  private get gameLimits(): GameLimits {
    return this.opts.games ?? { maxGames: DEFAULT_LIMITS.maxGames, perAddress: DEFAULT_LIMITS.gamesPerAddress, idleMs: DEFAULT_LIMITS.idleMs };
  }

  /** Gives up the tables left untouched, and forgets this server's copies of them and of those long finished. */
  async dropIdle(): Promise<void> {
    const now = Date.now();
    try {
      for (const id of await this.store.dropIdle(now - (this.opts.idleMs ?? 2 * 3_600_000), now - this.gameLimits.idleMs, now - 86_400_000)) this.forget(id);
      for (const [id, t] of this.cache) if (!this.connections.has(id) && !this.locks.has(id) && now - t.row.touchedAt > Math.min(this.gameLimits.idleMs, 3_600_000)) this.forget(id);
    } catch (err) {
      this.onError(err);
    }
  }

  private forget(id: string): void {
    this.cache.delete(id);
    this.membersOf.delete(id);
    for (const [code, r] of this.codes) if (r.id === id) this.codes.delete(code);
  }

  private get second(): number {
    return this.opts.secondMs ?? 1_000;
  }

  private clockMs(t: Cached): number | null {
    const s = CLOCKS[t.row.clock];
    return s === null ? null : s * this.second;
  }

  private wireOf(game: Game): GameWire<GameSpec> {
    const wire = this.opts.wires.find((w) => w.type === game.type);
    if (wire === undefined) throw new Error(`rule violation: no JSON for the game ${game.type.name}`);
    return wire;
  }

  // ------------------------------------------------------------------ opening and joining

  /** A new table; the host takes seat 0, or no seat as a teaching table's coach. */
  async create(t: NewTable, address: string): Promise<Joined> {
    const game = loadGame(t.game, t.params, this.opts.cards); // refuses an unknown ruleset, players or card
    makeBot(game, t.level); // refuses an unknown level
    const name = cleanName(t.name);
    const live = await this.store.countLive(address, false, 0);
    if (this.opts.maxTables !== undefined && live.all >= this.opts.maxTables) {
      throw new TilemateError('TM_TOO_MANY_GAMES', 'the server has as many tables as it can hold just now; please try again later');
    }
    if (this.opts.tablesPerAddress !== undefined && live.owner >= this.opts.tablesPerAddress) {
      throw new TilemateError('TM_TOO_MANY_GAMES', `you already have ${live.owner} tables open: finish one, or wait for an unused one to close`);
    }
    const seats: SeatRow[] = Array.from({ length: game.players }, () => ({ kind: 'empty', name: null, level: null }));
    if (!t.teaching) seats[0] = { kind: 'person', name, level: null };
    const token = randomBytes(24).toString('base64url');
    const id = randomBytes(12).toString('base64url');
    for (;;) {
      const code = tableCode();
      const member: Member = { tokenHash: hash(token), tableId: id, role: t.teaching ? 'coach' : 'player', seat: t.teaching ? null : 0, name, playerId: t.playerId, host: true };
      const made = await this.store.create(
        {
          id,
          code,
          game: game.type.name,
          params: { ...game.params },
          hostId: t.playerId,
          teaching: t.teaching,
          clock: t.clock,
          awayAfter: t.awayAfter,
          level: t.level,
          status: 'open',
          seats,
          solo: false,
          autoPlay: true,
        },
        address,
        member,
      );
      if (made) return joined(id, code, token, member);
    }
  }

  /**
   * Refuses one more member where there is no room: watchers (`seat` null) are counted apart from
   * the seats, so they never crowd out a seat's player; a seat holds a few tokens (her phones), so
   * nobody with its card code can fill the table by asking again and again.
   */
  private roomFor(tableId: string, seat: number | null): void {
    const members = this.membersOf.get(tableId) ?? [];
    if (seat === null) {
      if (members.filter((m) => m.role === 'spectator' && !m.host).length >= MAX_WATCHERS)
        throw new TilemateError('TM_SEAT_TAKEN', `this table has ${MAX_WATCHERS} people watching, as many as it takes: its seats are kept for its players`);
      return;
    }
    if (members.filter((m) => m.role === 'player' && m.seat === seat).length >= MAX_TOKENS_A_SEAT)
      throw new TilemateError('TM_SEAT_TAKEN', `this seat has been opened on ${MAX_TOKENS_A_SEAT} phones already, as many as it takes: go back to one of them`);
  }

  /** A person joins: a free seat (the first, or the one she asks for) or, with `watch`, to watch. */
  async join(code: string, b: { name: string; seat?: number; agree?: boolean; watch?: boolean }, playerId: string | null): Promise<Joined> {
    const name = cleanName(b.name);
    const token = randomBytes(24).toString('base64url');
    const row = await this.row(code);
    const out = await this.change(row.id, async (t) => {
      const member: Member = { tokenHash: hash(token), tableId: t.row.id, role: 'spectator', seat: null, name, playerId, host: false };
      if (b.watch === true) {
        this.roomFor(t.row.id, null);
        return { change: { member }, out: member };
      }
      if (t.row.status !== 'open') throw new TilemateError('TM_SEAT_TAKEN', 'this table has started: you can watch it, but its seats are taken');
      if (t.row.teaching && b.agree !== true) {
        throw new TilemateError('TM_BAD_INPUT', `this is a teaching table: ${t.hostName}, the coach, will see your tiles; join with "agree": true if that is all right`);
      }
      const seat = b.seat ?? t.row.seats.findIndex((s) => s.kind === 'empty');
      if (seat < 0) throw new TilemateError('TM_SEAT_TAKEN', 'every seat at this table is taken: you can watch instead');
      if (!Number.isInteger(seat) || seat >= t.row.seats.length) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: this table has seats 0 to ${t.row.seats.length - 1}`);
      if (t.row.seats[seat].kind !== 'empty') throw new TilemateError('TM_SEAT_TAKEN', `seat ${seat} is taken: choose an empty one`);
      this.roomFor(t.row.id, seat);
      const seats = t.row.seats.map((s, i) => (i === seat ? { kind: 'person' as const, name, level: null } : s));
      member.role = 'player';
      member.seat = seat;
      return { change: { seats, member, seen: seat }, out: member };
    });
    return joined(row.id, row.code, token, out);
  }

  /** The host puts a bot in an empty seat (or takes one out) before the start. */
  async setSeat(code: string, token: string | undefined, seat: number, bot: string | null): Promise<TableInfo> {
    const { member, row } = await this.open(code, token);
    if (!member.host) throw new TilemateError('TM_NOT_ALLOWED', 'only the host can choose the bots');
    await this.change(row.id, async (t) => {
      if (t.row.status !== 'open') throw new TilemateError('TM_BAD_INPUT', 'the game has started: the seats are set');
      if (!Number.isInteger(seat) || seat < 0 || seat >= t.row.seats.length) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: this table has seats 0 to ${t.row.seats.length - 1}`);
      if (t.row.seats[seat].kind === 'person') throw new TilemateError('TM_SEAT_TAKEN', `${t.row.seats[seat].name} sits there`);
      if (bot !== null) makeBot(this.gameOf(t.row), bot);
      const seats = t.row.seats.map((s, i) => (i === seat ? (bot === null ? { kind: 'empty' as const, name: null, level: null } : { kind: 'bot' as const, name: null, level: bot }) : s));
      return { change: { seats }, out: undefined };
    });
    return this.info(code);
  }

  /** The host starts the game: the empty seats get `fill` bots, the deal is made, the bots move. */
  async begin(code: string, token: string | undefined, fill?: string): Promise<TableInfo> {
    const { member, row } = await this.open(code, token);
    if (!member.host) throw new TilemateError('TM_NOT_ALLOWED', 'only the host can start the game');
    await this.change(row.id, async (t) => {
      if (t.row.status !== 'open') throw new TilemateError('TM_BAD_INPUT', 'the game has already started');
      const game = this.gameOf(t.row);
      if (fill !== undefined) makeBot(game, fill);
      const seats = t.row.seats.map((s) => (s.kind === 'empty' && fill !== undefined ? { kind: 'bot' as const, name: null, level: fill } : s));
      const empty = seats.findIndex((s) => s.kind === 'empty');
      if (empty >= 0) throw new TilemateError('TM_BAD_INPUT', `seat ${empty} is empty: wait for someone to take it, or fill it with a bot`);
      if (!seats.some((s) => s.kind === 'person')) throw new TilemateError('TM_BAD_INPUT', 'nobody sits at this table yet: bots alone do not need a table');
      const seed = freshSeed();
      t.row = { ...t.row, seats, seed, status: 'playing', rng: botRng(seed) };
      this.startGame(t);
      t.dirty = true;
      await this.advance(t, await this.presence(t), new Set());
      return { change: { seats, seed, status: this.statusOf(t), ...this.gameChange(t, 0) }, out: undefined };
    });
    return this.info(code);
  }

  // ------------------------------------------------------------------ playing

  /**
   * The member's action (her own seat only), then the bots (and the stand-ins of absent
   * people) until a person must decide; committed before the answer. `after`: the `at` her
   * choice was made from; refused when her seat has acted since (a retry, or her clock ran out),
   * never applied twice. Another person's move meanwhile (a pass at the same time) is no reason to refuse.
   */
  async act(code: string, token: string | undefined, body: Record<string, unknown>, after?: number): Promise<GameMessage> {
    const { member, row } = await this.open(code, token);
    const from = await this.play(member, row.id, body, after);
    return this.exclusive(row.id, async () => this.messageFor(await this.current(row.id), member, from));
  }

  /** The member's action and what follows it, committed; the action it was made after (the first event to tell her). */
  private play(member: Member, id: string, body: Record<string, unknown>, after?: number): Promise<number> {
    if (member.role !== 'player' || member.seat === null) throw new TilemateError('TM_NOT_YOUR_TURN', 'you are watching this table: only its players act');
    const seat = member.seat;
    if (body.seat !== undefined && body.seat !== seat) throw new TilemateError('TM_NOT_YOUR_TURN', `this token plays seat ${seat}, not seat ${String(body.seat)}`);
    return this.change(id, async (t) => {
      const { game, state } = this.playing(t);
      if (after !== undefined) {
        if (!Number.isInteger(after) || after < 0 || after > t.log.length)
          throw new TilemateError('TM_BAD_INPUT', `"after": ${String(after)} is not a moment of this game (it is at action ${t.log.length})`);
        if (t.log.slice(after).some((l) => l.action.seat === seat)) {
          throw new TilemateError(
            'TM_STALE_ACTION',
            `this action was sent after action ${after}, but the game is at action ${t.log.length} and your seat has moved since (it may be a retry, or your clock ran out), so it was not applied again`,
          );
        }
      }
      if (game.isOver(state)) throw new TilemateError('TM_GAME_OVER', 'the game has ended');
      if (t.row.status === 'over') throw new TilemateError('TM_GAME_OVER', "the game was stopped before its end: the round's time is up");
      if (t.row.status === 'paused') throw new TilemateError('TM_NOT_YOUR_TURN', 'the game is paused for a moment: wait for it to go on');
      if (this.legal(t, seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', 'the game is not waiting on you now');
      const action = game.decodeAction({ ...body, seat });
      const at = t.log.length;
      game.apply(state, action); // checks it in full first: a refused action changes nothing
      t.dirty = true;
      this.logged(t, action, false);
      await this.advance(t, await this.presence(t), new Set());
      // a game against bots keeps no presence: nobody stands in for her
      return { change: { status: this.statusOf(t), ...this.gameChange(t, at), ...(t.row.solo ? {} : { seen: seat }) }, out: after ?? at };
    });
  }

  /** The member's game message now (polling; a reconnect). */
  async state(code: string, token: string | undefined, since?: number): Promise<GameMessage | null> {
    const { member, row } = await this.open(code, token);
    // a person who looks is here: her seat's bot does not take over
    if (member.role === 'player' && member.seat !== null) await this.store.seen([{ tableId: row.id, seat: member.seat }]);
    return this.exclusive(row.id, async () => {
      const t = await this.sync(row.id);
      return t.game === null ? null : this.messageFor(t, member, since ?? 0);
    });
  }

  /** The coach (or an ordinary table's host) pauses or resumes the game. */
  async pause(code: string, token: string | undefined, paused: boolean): Promise<TableInfo> {
    const { member } = await this.open(code, token);
    if (!member.host) throw new TilemateError('TM_NOT_ALLOWED', 'only the coach or the host can pause the game');
    await this.hold(code, paused);
    return this.info(code);
  }

  /** Pauses or resumes a table's game (its host, or an event's round clock paused: issue 47); the turn clock starts again on resuming. */
  async hold(code: string, paused: boolean): Promise<void> {
    const row = await this.row(code);
    await this.change(row.id, async (t) => {
      if (t.row.status !== 'playing' && t.row.status !== 'paused') throw new TilemateError('TM_BAD_INPUT', 'only a game in progress can be paused');
      const status = paused ? ('paused' as const) : ('playing' as const);
      t.row = { ...t.row, status };
      return { change: { status, turnStarted: true, wakeAt: paused ? null : this.wakeAt(t, Date.now()) }, out: undefined };
    });
  }

  /**
   * A teaching table's coach asks for a student's hint: `compute` gives it from that seat's
   * view; it is pushed to the student alone (on whichever server she is) and answered to the coach.
   */
  async coachHint(
    code: string,
    token: string | undefined,
    seat: number | undefined,
    compute: (game: Game, view: unknown, legal: readonly unknown[], seed: number) => Promise<unknown>,
  ): Promise<unknown> {
    const { member, row } = await this.open(code, token);
    if (member.role === 'player' && (seat === undefined || seat === member.seat)) return this.ownHint(row.id, member.seat!, compute);
    if (member.role !== 'coach') throw new TilemateError('TM_NOT_ALLOWED', 'only the coach of a teaching table can show another player a hint');
    if (seat === undefined) throw new TilemateError('TM_BAD_INPUT', 'say which student the hint is for ("seat")');
    const task = await this.exclusive(row.id, async () => {
      const t = await this.sync(row.id);
      const { game, state } = this.playing(t);
      if (!Number.isInteger(seat) || seat < 0 || seat >= game.players || t.row.seats[seat].kind !== 'person') throw new TilemateError('TM_BAD_INPUT', `seat ${seat} has no student`);
      const legal = [...this.legal(t, seat)];
      if (legal.length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', `${t.row.seats[seat].name} has nothing to decide now`);
      return { game, view: game.view(state, seat), legal, seed: t.log.length + 1 };
    });
    const hint = await compute(task.game, task.view, task.legal, task.seed);
    const payload = JSON.stringify({ id: row.id, seat, hint });
    if (Buffer.byteLength(payload) < 7_900) await this.store.notify(payload);
    else this.deliverHint(row.id, seat, hint); // too long for NOTIFY: this server's connections only
    return hint;
  }

  /** A player's own hint for the decision she faces, from her own seat's view (as at a game against bots). */
  private async ownHint(id: string, seat: number, compute: (game: Game, view: unknown, legal: readonly unknown[], seed: number) => Promise<unknown>): Promise<unknown> {
    const task = await this.exclusive(id, async () => {
      const t = await this.sync(id);
      const { game, state } = this.playing(t);
      const legal = [...this.legal(t, seat)];
      if (legal.length === 0 || t.row.status !== 'playing') throw new TilemateError('TM_NOT_YOUR_TURN', 'you have nothing to decide just now');
      return { game, view: game.view(state, seat), legal, seed: t.log.length + 1 };
    });
    return compute(task.game, task.view, task.legal, task.seed);
  }

  /** A player's own seat's view (the card panel reads her rack from it). */
  async seatView(code: string, token: string | undefined): Promise<{ game: Game; view: unknown }> {
    const { member, row } = await this.open(code, token);
    if (member.role !== 'player' || member.seat === null) throw new TilemateError('TM_NOT_YOUR_TURN', 'only a player at the table has a rack to look at');
    return this.exclusive(row.id, async () => {
      const t = await this.sync(row.id);
      const { game, state } = this.playing(t);
      return { game, view: game.view(state, member.seat!) };
    });
  }

  // ------------------------------------------------------------------ games against bots

  /** Refuses (TM_TOO_MANY_GAMES) when `owner` could not open a new game against bots now; asked before the work a new game needs (a card compiled). */
  async checkRoom(owner: string): Promise<void> {
    const l = this.gameLimits;
    const live = await this.store.countLive(owner, true, Date.now() - l.idleMs);
    if (live.owner >= l.perAddress) {
      throw new TilemateError('TM_TOO_MANY_GAMES', `this address already has ${live.owner} games in progress, the most one address may play at once; finish one first`);
    }
    if (live.all >= l.maxGames) throw new TilemateError('TM_TOO_MANY_GAMES', `the server holds ${l.maxGames} live games, its limit; try again in a few minutes`);
  }

  /** Games against bots in progress, on every server. */
  async gamesInProgress(): Promise<number> {
    return (await this.store.countLive('', true, Date.now() - this.gameLimits.idleMs)).all;
  }

  /**
   * A new game against bots: a table with her seat and a bot in each other, dealt and played
   * until she must decide (from a recorded game's moment, with `from`), made in one
   * transaction with its first actions. The token is in the answer only.
   */
  async solo<G extends GameSpec>(opts: NewGame<G>, owner: string): Promise<GameAnswer> {
    const game = opts.game as unknown as Game;
    const seat = opts.seat;
    if (!Number.isInteger(seat) || seat < 0 || seat >= game.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected a seat from 0 to ${game.players - 1}`);
    if (opts.bots.length !== game.players - 1) {
      throw new TilemateError(
        'TM_BAD_INPUT',
        `"bots" names ${opts.bots.length} bot${opts.bots.length === 1 ? '' : 's'} for the ${game.players - 1} other seats: name one per other seat, or give "level" for all`,
      );
    }
    for (const bot of opts.bots) makeBot(game, bot); // refuses an unknown bot
    await this.checkRoom(owner);
    const seed = opts.seed ?? freshSeed();
    const names = [...opts.bots];
    names.splice(seat, 0, 'human');
    const token = randomBytes(24).toString('base64url');
    const id = randomBytes(12).toString('base64url');
    const member: Member = { tokenHash: hash(token), tableId: id, role: 'player', seat, name: 'You', playerId: opts.player, host: true };
    const row = soloRow({ id, game: game.type.name, params: { ...game.params }, names, seat, seed, hostId: opts.player, autoPlay: opts.autoPlay ?? true });
    const t = this.fresh(row, 'You', game);
    if (opts.from !== undefined) {
      try {
        this.replay(
          t,
          opts.from.map((action) => ({ action, byBot: false })),
        );
      } catch (err) {
        throw new TilemateError('TM_BAD_RECORD', `the game cannot be set up from its record: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (game.isOver(t.state!)) throw new TilemateError('TM_GAME_OVER', 'the game had ended by then: choose an earlier moment');
    }
    await this.advance(t, new Map(), new Set());
    this.membersOf.set(id, [member]);
    const change = this.gameChange(t, 0);
    t.row = { ...row, status: this.statusOf(t), rng: [...t.rng] as RngState, actions: t.log.length };
    if (!(await this.store.create(t.row, owner, member, change))) throw new Error(`rule violation: game id ${id} drawn twice`);
    this.cache.set(id, t);
    this.remember(member);
    this.tell(member.tokenHash.toString('hex'), 0);
    return { ...this.answerFor(t, member), token };
  }

  /** A game against bots as its seat sees it now; `since` (an action number) lists the events after it instead of the untold ones. */
  async gameAnswer(id: string, token: string | undefined, type: GameType, since?: number): Promise<GameAnswer> {
    return this.atGame(id, token, type, (t, m) => this.answerFor(t, m, since));
  }

  /**
   * The seat's action in a game against bots, then the bots' until she must decide again or the
   * game ends, committed before the answer (as at any table).
   */
  async gameAct(id: string, token: string | undefined, type: GameType, body: Record<string, unknown>, after?: number): Promise<GameAnswer> {
    const found = await this.resolve(id, token, type);
    if ('finished' in found) throw new TilemateError('TM_GAME_OVER', 'the game has ended');
    const { member } = found;
    const from = await this.play(member, id, body, after);
    const key = member.tokenHash.toString('hex');
    if (!this.told.has(key)) this.tell(key, from);
    return this.exclusive(id, async () => this.answerFor(await this.current(id), member));
  }

  /** Runs `fn` on a game against bots as it stands, with the seat its token plays (the hint, the card panel, the defence read her view from it). */
  async atSeat<G extends GameSpec, T>(id: string, token: string | undefined, type: GameType<G>, fn: (game: Game<G>, state: G['state'], seat: number) => T): Promise<T> {
    return this.atGame(id, token, type as unknown as GameType, (t, m) => fn(t.game as unknown as Game<G>, t.state as G['state'], m.seat!));
  }

  private async atGame<T>(id: string, token: string | undefined, type: GameType, fn: (t: Cached, m: Member) => T): Promise<T> {
    const found = await this.resolve(id, token, type);
    if ('finished' in found) return fn(found.finished.t, found.finished.member);
    const { member } = found;
    try {
      return await this.exclusive(id, async () => fn(await this.sync(id), member));
    } catch (err) {
      if (!(err instanceof TilemateError && err.code === 'TM_NOT_FOUND')) throw err;
      // the table went meanwhile (given up, or finished long ago): its record may still open
      const done = await this.finished(id, member.tokenHash, type);
      if (done === null) throw this.noGame(id, type);
      return fn(done.t, done.member);
    }
  }

  private noGame(id: string, type: GameType): TilemateError {
    return new TilemateError('TM_NOT_FOUND', `no ${type.title} game "${id.slice(0, 64)}" opens with this token`);
  }

  /**
   * The member a game's token opens, when it opens a game against bots of this type in progress
   * (or finished, its table still there); else how the game ended, from its record, when the token
   * opens a finished one whose table has gone. No token: TM_UNAUTHORIZED; an unknown id, a game of
   * another type, a table people share or another game's token: the same TM_NOT_FOUND.
   */
  private async resolve(id: string, token: string | undefined, type: GameType): Promise<{ member: Member } | { finished: { t: Cached; member: Member } }> {
    if (token === undefined || token === '') throw new TilemateError('TM_UNAUTHORIZED', 'this game needs its token: send "Authorization: Bearer <token>"');
    if (!ID.test(id)) throw this.noGame(id, type);
    const key = hash(token);
    const member = await this.memberOf(key);
    if (member !== null && member.tableId === id && member.seat !== null) {
      let row = this.codes.get(id);
      if (row === undefined) {
        row = (await this.store.byId(id)) ?? undefined;
        if (row !== undefined) this.codes.set(id, row);
      }
      if (row !== undefined) {
        if (!row.solo || row.game !== type.name) throw this.noGame(id, type);
        return { member };
      }
    }
    const done = await this.finished(id, key, type);
    if (done === null) throw this.noGame(id, type);
    return { finished: done };
  }

  /**
   * A finished game against bots whose table has gone, read-only, from its record (which keeps
   * its token's hash): a player whose last answer was cut off, even long after, still opens how
   * it ended. Games finished before every game was a table are read the same way.
   */
  private async finished(id: string, tokenHash: Buffer, type: GameType): Promise<{ t: Cached; member: Member } | null> {
    const kept = await this.store.games.finishedGame(tokenHash);
    if (kept === null || kept.id !== id) return null;
    try {
      const { header, game, played } = replayRecord(kept.text, { cards: this.opts.cards });
      if (game.type !== type) return null;
      const row = {
        ...soloRow({ id, game: game.type.name, params: { ...game.params }, names: header.seats, seat: kept.seat, seed: header.seed, hostId: null, autoPlay: true }),
        status: 'over' as const,
      };
      const t = this.fresh(row, 'You', game);
      for (const action of played) {
        game.apply(t.state!, action);
        this.logged(t, action, false);
      }
      return { t, member: { tokenHash, tableId: id, role: 'player', seat: kept.seat, name: 'You', playerId: null, host: true } };
    } catch (err) {
      this.onError(new Error(`finished game ${id} not opened: ${err instanceof Error ? err.message : String(err)}`));
      return null;
    }
  }

  /** Events each person's game answers have told her up to, by token (this server's; another server's answers start from where her action was made). */
  private readonly told = new Map<string, { told: number }>();
  private tell(key: string, at: number): { told: number } {
    if (this.told.size >= 20_000) this.told.clear();
    const told = { told: at };
    this.told.set(key, told);
    return told;
  }

  /** Her seat's answer in a game against bots: the events after `since`, or those she has not been told. */
  private answerFor(t: Cached, m: Member, since?: number): GameAnswer {
    const key = m.tokenHash.toString('hex');
    const msg = since === undefined ? this.messageFor(t, m, undefined, this.told.get(key) ?? this.tell(key, t.log.length)) : this.messageFor(t, m, Math.max(0, Math.min(since, t.log.length)));
    return { id: t.row.id, seat: m.seat!, seats: msg.seats, view: msg.view, legal: msg.legal, events: msg.events, at: msg.at, recordId: msg.recordId };
  }

  // ------------------------------------------------------------------ what a member sees

  /** The game a table plays (its name: mah-jongg, mexican-train), known once read. */
  async gameName(code: string): Promise<string> {
    return (await this.row(code)).game;
  }

  // ------------------------------------------------------------------ tables an event seats

  /**
   * A table whose seats someone else set (an event's round, issue 47): each person named in her
   * seat, bots in the rest, dealt at once. Every person has the table's `awayAfter` from now to
   * come and take her seat (`claim`); one who has not come, or has gone, longer is played by the
   * table's bot, as at every table (docs/tables.md). Answers the table's code.
   */
  async seated(t: Omit<NewTable, 'name' | 'teaching'> & { seats: readonly SeatRow[]; owner: string }): Promise<string> {
    const game = loadGame(t.game, t.params, this.opts.cards);
    makeBot(game, t.level);
    if (t.seats.length !== game.players) throw new TilemateError('TM_BAD_INPUT', `this game seats ${game.players}, not ${t.seats.length}`);
    // the server's room for tables holds for these too
    if (this.opts.maxTables !== undefined && (await this.store.countLive(t.owner, false, 0)).all >= this.opts.maxTables) {
      throw new TilemateError('TM_TOO_MANY_GAMES', 'the server has as many tables as it can hold just now; please try again later');
    }
    const people = t.seats.flatMap((s, seat) => (s.kind === 'person' ? [seat] : []));
    const id = randomBytes(12).toString('base64url');
    // the event's director holds the table (she may pause it); the token is never given out
    const director: Member = { tokenHash: hash(randomBytes(24).toString('base64url')), tableId: id, role: 'spectator', seat: null, name: 'the director', playerId: t.playerId, host: true };
    for (;;) {
      const code = tableCode();
      const seed = freshSeed();
      const row: TableRow = {
        id,
        code,
        game: game.type.name,
        params: { ...game.params },
        hostId: t.playerId,
        teaching: false,
        clock: t.clock,
        awayAfter: t.awayAfter,
        level: t.level,
        status: 'playing',
        seats: [...t.seats],
        seed,
        rng: botRng(seed),
        actions: 0,
        version: 0,
        turnSince: null,
        touchedAt: Date.now(),
        solo: false,
        autoPlay: true,
      };
      const c = this.fresh(row, 'the director', game);
      await this.advance(c, new Map(people.map((seat) => [seat, 0])), new Set());
      this.membersOf.set(id, [director]);
      const change = this.gameChange(c, 0);
      c.row = { ...row, status: this.statusOf(c), rng: [...c.rng] as RngState, actions: c.log.length };
      if (!(await this.store.create(c.row, t.owner, director, change))) continue;
      // her time to come runs from now; the table is looked at again when it is up
      await this.store.seen(people.map((seat) => ({ tableId: id, seat })));
      if (change.wakeAt != null) await this.store.wakeBy(id, change.wakeAt);
      this.cache.set(id, c);
      return code;
    }
  }

  /** A person takes the seat a table seated for her (`seated`): her token for it (a second phone gets one of its own). */
  async claim(code: string, seat: number, playerId: string | null): Promise<Joined> {
    const token = randomBytes(24).toString('base64url');
    const row = await this.row(code);
    const member = await this.change(row.id, async (t) => {
      const s = t.row.seats[seat];
      if (s?.kind !== 'person') throw new TilemateError('TM_NOT_FOUND', `seat ${seat} at table ${code} is nobody's to take`);
      this.roomFor(t.row.id, seat);
      const m: Member = { tokenHash: hash(token), tableId: t.row.id, role: 'player', seat, name: s.name ?? 'a player', playerId, host: false };
      return { change: { member: m, seen: seat }, out: m };
    });
    return joined(row.id, row.code, token, member);
  }

  /** A table's game as it ended: null while it is played, else the game's outcome (null there when it was stopped before its end). */
  async ending(code: string): Promise<{ outcome: unknown } | null> {
    const row = await this.row(code);
    return this.exclusive(row.id, async () => {
      const t = await this.sync(row.id);
      if (t.row.status !== 'over') return null;
      const over = t.game !== null && t.game.isOver(t.state!);
      return { outcome: over ? ((t.state as { result?: { outcome?: unknown } }).result?.outcome ?? null) : null };
    });
  }

  /** Stops a table's game before its end (an event round's time is up: standardized rules 11.4); true when it was still being played. */
  async halt(code: string): Promise<boolean> {
    const row = await this.row(code);
    return this.change(row.id, async (t) => {
      if (t.row.status === 'over' || (t.game !== null && t.game.isOver(t.state!))) throw new TilemateError('TM_GAME_OVER', 'the game has ended');
      return { change: { status: 'over', wakeAt: null }, out: true };
    }).catch((err) => {
      if (err instanceof TilemateError && err.code === 'TM_GAME_OVER') return false;
      throw err;
    });
  }

  /** The table as anyone sees it. */
  async info(code: string): Promise<TableInfo> {
    const row = await this.row(code);
    const t = await this.exclusive(row.id, () => this.sync(row.id));
    return this.infoOf(t, t.row.status === 'playing' ? await this.presence(t) : new Map());
  }

  private infoOf(t: Cached, presence: Map<number, number>): TableInfo {
    const r = t.row;
    const awayMs = r.awayAfter * this.second;
    const info: TableInfo = {
      code: r.code,
      game: r.game,
      ruleset: String(r.params.ruleset ?? ''),
      players: r.seats.length,
      teaching: r.teaching,
      clock: r.clock,
      awayAfter: r.awayAfter,
      level: r.level,
      status: r.status,
      host: t.hostName,
      seats: r.seats.map((s, seat) => ({
        seat,
        kind: s.kind,
        name: s.name,
        ...(s.level !== null ? { level: s.level } : {}),
        ...(s.kind === 'person' && r.status === 'playing' ? { away: (presence.get(seat) ?? Infinity) > awayMs } : {}),
      })),
    };
    const card = r.params.card as { name?: unknown } | undefined;
    if (typeof card?.name === 'string') info.card = card.name;
    if (r.status === 'over') {
      info.recordIds = Object.fromEntries(r.seats.flatMap((s, seat) => (s.kind === 'person' ? [[seat, recordIdOf(r, seat)]] : [])));
    }
    return info;
  }

  private messageFor(t: Cached, m: Member, since: number | undefined, conn?: { told: number }): GameMessage {
    const { game, state, wire } = this.playing(t);
    const paused = t.row.status === 'paused';
    const seat = m.role === 'player' ? m.seat : null;
    const legal = seat === null || paused ? [] : this.legal(t, seat);
    const view = seat === null ? this.publicView(t) : wire.viewJson(game, game.view(state, seat), legal);
    let from = since ?? conn?.told ?? 0;
    const to = Math.max(
      from,
      wire.heard?.(
        game,
        state,
        t.log.map((l) => l.action),
      ) ?? t.log.length,
    );
    from = Math.max(from, to - MAX_EVENTS);
    const events: EventJson[] = [];
    for (let i = from; i < to; i++) {
      const l = t.log[i];
      events.push(wire.eventJson(game, i + 1, l.action, seat ?? -1, seat !== null && l.action.seat === seat ? l.drawn : null));
    }
    if (conn !== undefined) conn.told = to;
    const msg: GameMessage = {
      type: 'game',
      at: t.log.length,
      seat,
      seats: this.seatNames(t.row),
      view,
      legal: seat === null ? [] : wire.legalJson(game, legal, game.view(state, seat)),
      events,
      recordId: game.isOver(state) && seat !== null && t.row.seats[seat].kind === 'person' ? recordIdOf(t.row, seat) : null,
      paused,
    };
    const clockMs = this.clockMs(t);
    if (clockMs !== null && t.row.turnSince !== null && t.row.status === 'playing') {
      const waiting = this.peopleWaitedOn(t);
      if (waiting.length > 0) msg.clock = { seats: waiting, endsAt: t.row.turnSince + clockMs };
    }
    if (m.role === 'coach') {
      msg.racks = Object.fromEntries(t.row.seats.map((_, s) => [s, wire.viewJson(game, game.view(state, s), this.legal(t, s))]));
    }
    return msg;
  }

  /** What someone standing behind no one sees: the table, no rack or hand. */
  private publicView(t: Cached): SeatViewJson {
    const { game, state, wire } = this.playing(t);
    const v: SeatViewJson & Record<string, unknown> = wire.viewJson(game, game.view(state, 0), []);
    for (const field of wire.secret) if (field in v) v[field] = Array.isArray(v[field]) ? [] : null;
    return { ...v, seat: null };
  }

  /** The seats' names: a game against bots names them as its record does ("human", the bots' levels). */
  private seatNames(r: TableRow): string[] {
    return r.seats.map((s) => (s.kind === 'person' ? s.name! : s.kind === 'bot' ? (r.solo ? s.level! : `Bot (${s.level})`) : 'Empty seat'));
  }

  // ------------------------------------------------------------------ connections

  /** A WebSocket whose hello named this member's token: told the table and the game now, then every change. */
  async connect(code: string, token: string | undefined, send: (m: ServerMessage) => void): Promise<{ conn: Connection; close: () => void }> {
    const { member, row } = await this.open(code, token);
    const conn: Connection = { send, member, told: 0, lastTable: '', lastGame: '' };
    let set = this.connections.get(row.id);
    if (set === undefined) this.connections.set(row.id, (set = new Set()));
    set.add(conn);
    if (member.seat !== null && member.role === 'player') {
      await this.store.seen([{ tableId: row.id, seat: member.seat }]);
      this.markHere(row.id, member.seat);
    }
    await this.push(row.id, [conn]);
    const close = () => {
      set!.delete(conn);
      if (set!.size === 0) this.connections.delete(row.id);
      if (member.seat !== null && member.role === 'player' && !this.hasSeat(row.id, member.seat)) {
        this.markHere(row.id, member.seat);
        // look again once she has been gone long enough for her seat's bot to take over
        this.store.wakeBy(row.id, Date.now() + row.awayAfter * this.second + this.second).catch(this.onError);
      }
    };
    return { conn, close };
  }

  private hasSeat(tableId: string, seat: number): boolean {
    for (const c of this.connections.get(tableId) ?? []) if (c.member.seat === seat && c.member.role === 'player') return true;
    return false;
  }

  /** A NOTIFY: a table changed (its id), a coach's hint (JSON), or '*' (some may have been missed). */
  private heard(payload: string): void {
    if (payload.startsWith('{')) {
      try {
        const { id, seat, hint } = JSON.parse(payload) as { id: string; seat: number; hint: unknown };
        this.deliverHint(id, seat, hint);
      } catch (err) {
        this.onError(err);
      }
      return;
    }
    if (payload === '*') {
      for (const id of this.connections.keys()) this.push(id).catch(this.onError);
      return;
    }
    // "id:version": a copy already at that version need not be read again
    const [id, version] = payload.split(':');
    if (this.connections.has(id)) this.push(id, undefined, Number(version)).catch((err: unknown) => this.pushAgain(id, err));
  }

  private deliverHint(id: string, seat: number, hint: unknown): void {
    for (const c of this.connections.get(id) ?? []) if (c.member.role === 'player' && c.member.seat === seat) c.send({ type: 'hint', hint });
  }

  /** Tells each connection (or those given) what changed for her. */
  private async push(id: string, only?: Connection[], version?: number): Promise<void> {
    const conns = only ?? [...(this.connections.get(id) ?? [])];
    if (conns.length === 0) return;
    await this.exclusive(id, async () => {
      let t: Cached;
      try {
        const cached = this.cache.get(id);
        t = cached !== undefined && version !== undefined && !cached.dirty && cached.row.version >= version ? cached : await this.sync(id);
      } catch (err) {
        if (err instanceof TilemateError && err.code === 'TM_NOT_FOUND') for (const c of conns) c.send({ type: 'error', code: err.code, message: 'This table has closed.' });
        throw err;
      }
      const info = JSON.stringify(this.infoOf(t, t.row.status === 'playing' ? await this.presence(t) : new Map()));
      for (const c of conns) {
        const you = { seat: c.member.seat, role: c.member.role, name: c.member.name, host: c.member.host };
        const tableText = `${info}|${JSON.stringify(you)}`;
        if (tableText !== c.lastTable) {
          c.lastTable = tableText;
          c.send({ type: 'table', table: JSON.parse(info) as TableInfo, you });
        }
        if (t.game === null) continue;
        const key = `${t.log.length}|${t.row.status}|${t.row.version}`;
        if (key === c.lastGame) continue;
        c.lastGame = key;
        try {
          c.send(this.messageFor(t, c.member, undefined, c));
        } catch (err) {
          this.onError(err); // one person's message failing never keeps the others' from them
        }
      }
      // every seat here has been told: the moment's legal actions (a Charleston's are hundreds a
      // seat) are not kept in memory until the table's next change
      this.legalKept.delete(t);
    });
  }

  /**
   * Every seat connected to this server is here (so her seat's bot does not take over); and
   * each table's people are told what they have not heard: a push that could not be made (the
   * database busy a moment) is made now, at worst a few seconds late, and who is away. The
   * tables' versions and presence are read in one statement each for all of them, so a
   * heartbeat of 1,000 tables is three statements, not 2,000.
   */
  private async heartbeat(): Promise<void> {
    const pairs: { tableId: string; seat: number }[] = [];
    for (const [tableId, conns] of this.connections) for (const c of conns) if (c.member.role === 'player' && c.member.seat !== null) pairs.push({ tableId, seat: c.member.seat });
    await this.store.seen(pairs).catch(this.onError);
    const ids = [...this.connections.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const some = ids.slice(i, i + 1000);
      let versions: Map<string, number>;
      try {
        const [v, seen] = await Promise.all([this.store.versions(some), this.store.presenceOf(some)]);
        versions = v;
        const at = Date.now();
        for (const [id, ago] of seen) this.keepPresence(id, at, ago);
      } catch (err) {
        this.onError(err);
        versions = new Map();
      }
      // a table not found is read again, and its people told if it has closed
      for (const id of some) this.push(id, undefined, versions.get(id)).catch(this.onError);
    }
  }

  /** A push that failed (the table could not be read just now) is tried again shortly; the heartbeat catches any still missed. */
  private pushAgain(id: string, err: unknown): void {
    this.onError(err);
    setTimeout(() => {
      if (this.connections.has(id)) this.push(id).catch(this.onError);
    }, 500).unref();
  }

  // ------------------------------------------------------------------ clocks and absent people

  /** Looks at the tables due (a lease each), once at a time on this server. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    let acted = 0;
    try {
      for (const id of await this.store.claimDue(this.serverId, 16, 15_000)) {
        try {
          acted += await this.wake(id);
        } catch (err) {
          if (!(err instanceof TilemateError && err.code === 'TM_NOT_FOUND')) this.onError(err);
        }
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.sweeping = false;
    }
    return acted;
  }

  /** The table's clock ran out or a person is gone: her seat's bot plays her decision, then the game goes on. */
  private async wake(id: string): Promise<number> {
    let moved = 0;
    await this.exclusive(id, async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const t = await this.sync(id);
        if (t.row.status !== 'playing' || t.game === null) return this.store.snooze(id, this.serverId, null);
        const now = Date.now();
        const presence = await this.presence(t);
        const clockMs = this.clockMs(t);
        const timedOut = new Set(clockMs !== null && t.row.turnSince !== null && now >= t.row.turnSince + clockMs ? this.peopleWaitedOn(t) : []);
        const from = t.log.length;
        const before = this.snapshot(t);
        try {
          await this.advance(t, presence, timedOut);
        } catch (err) {
          Object.assign(t, before);
          throw err;
        }
        if (t.log.length === from) return this.store.snooze(id, this.serverId, this.wakeAt(t, now));
        try {
          await this.commitChange(t, { status: this.statusOf(t), ...this.gameChange(t, from) });
          moved = t.log.length - from;
          return;
        } catch (err) {
          Object.assign(t, before);
          if (!(err instanceof TableConflict)) throw err;
        }
      }
    });
    return moved;
  }

  /** The people the game waits on who have a real choice to make. */
  private peopleWaitedOn(t: Cached): number[] {
    const { game, state } = this.playing(t);
    return game.waitingOn(state).filter((s) => t.row.seats[s].kind === 'person' && forcedAction(this.legal(t, s)) === null && this.legal(t, s).length > 0);
  }

  /** When to look at the table again: the clock's end, or when a person waited on could have been gone long enough. */
  private wakeAt(t: Cached, now: number): number | null {
    if (t.row.solo || t.row.status !== 'playing' || t.game === null || t.game.isOver(t.state!)) return null;
    if (this.peopleWaitedOn(t).length === 0) return null;
    const clockMs = this.clockMs(t);
    const away = now + t.row.awayAfter * this.second;
    return clockMs === null ? away : Math.min(away, now + clockMs);
  }

  // ------------------------------------------------------------------ the game

  /**
   * The bots move, the people's forced moves are made, and the seats of people gone longer than
   * the table allows (or, once, those whose clock ran out) are played by the table's bot, until
   * a person must decide or the game ends. Seats act in the order the game waits on them, and a
   * person's own decision holds the seats after her (in a Charleston pass, a call): so a table
   * plays the same actions in the same order whoever sits at it, the same as a game against bots
   * always has.
   */
  private async advance(t: Cached, presence: Map<number, number>, timedOut: Set<number>): Promise<void> {
    const { game, state } = this.playing(t);
    const awayMs = t.row.awayAfter * this.second;
    // away 0: nobody stands in (a game against bots waits for her)
    const standIn = (seat: number) => timedOut.has(seat) || (awayMs > 0 && (presence.get(seat) ?? Infinity) > awayMs);
    for (;;) {
      if (game.isOver(state)) return;
      const seat = game.waitingOn(state).find((s) => this.legal(t, s).length > 0);
      if (seat === undefined) return;
      let action: GameSpec['action'] | null;
      let byBot = false;
      if (t.row.seats[seat].kind === 'person') {
        action = t.row.autoPlay ? forcedAction(this.legal(t, seat)) : null;
        if (action === null && standIn(seat)) {
          action = await this.botMove(t, seat, t.row.level);
          byBot = true;
          timedOut.delete(seat);
        }
        if (action === null) return;
      } else {
        action = await this.botMove(t, seat, t.row.seats[seat].level!);
      }
      game.apply(state, action);
      this.logged(t, action, byBot);
    }
  }

  private async botMove(t: Cached, seat: number, level: string): Promise<GameSpec['action']> {
    const { game, state } = this.playing(t);
    if (this.opts.pool !== null && thinksLong(game.type, level)) {
      const move = await this.opts.pool.bot({
        kind: 'bot',
        game: game.type.name,
        params: { ...game.params },
        bot: level,
        seat,
        phase: game.phase(state),
        view: game.view(state, seat),
        legal: game.legalActions(state, seat),
        rng: [...t.rng],
      });
      t.rng.splice(0, 4, ...move.rng);
      return move.action as GameSpec['action'];
    }
    return t.agents[seat].act({ seat, phase: game.phase(state), view: () => game.view(state, seat), legal: () => game.legalActions(state, seat), rng: t.rng });
  }

  /**
   * The seat's legal actions at the copy's state now, worked out once a state however many ask
   * (the advance, the wake time, each seat's message): a Charleston pass has hundreds. The
   * engine changes the state in place, and every change is logged, so the state and the log's
   * length name the moment.
   */
  private legal(t: Cached, seat: number): readonly GameSpec['action'][] {
    const { game, state } = this.playing(t);
    let kept = this.legalKept.get(t);
    if (kept === undefined || kept.state !== state || kept.at !== t.log.length) {
      kept = { state, at: t.log.length, bySeat: new Map() };
      this.legalKept.set(t, kept);
    }
    let legal = kept.bySeat.get(seat);
    if (legal === undefined) kept.bySeat.set(seat, (legal = game.legalActions(state, seat)));
    return legal;
  }

  private readonly legalKept = new WeakMap<Cached, { state: GameSpec['state']; at: number; bySeat: Map<number, readonly GameSpec['action'][]> }>();

  private logged(t: Cached, action: GameSpec['action'], byBot: boolean): void {
    const { game, state } = this.playing(t);
    t.log.push({ action, drawn: game.drawnTile(state, action), byBot });
  }

  private statusOf(t: Cached): TableRow['status'] {
    return t.game !== null && t.game.isOver(t.state!) ? 'over' : t.row.status;
  }

  /** The change a game's new actions (after action `committed`) make: the actions, the stream, the clock, the records at the end. */
  private gameChange(t: Cached, committed: number): TableChange {
    const { game, state } = this.playing(t);
    const change: TableChange = {
      actions: { from: committed + 1, list: t.log.slice(committed).map((l) => ({ action: game.encodeAction(l.action), byBot: l.byBot })) },
      rng: [...t.rng] as RngState,
      turnStarted: true,
      wakeAt: this.wakeAt(t, Date.now()),
    };
    if (game.isOver(state)) change.records = this.records(t);
    return change;
  }

  /** Each person's record of the finished game (her seat), readable by the teaching table's coach too; her token still opens it once the table has gone. */
  private records(t: Cached): { record: NewRecord; readers: string[] }[] {
    const { game, state } = this.playing(t);
    const names = t.row.seats.map((s) => (s.kind === 'person' ? 'human' : s.level!));
    const writer = new RecordWriter(game, t.row.seed!, names);
    for (const l of t.log) writer.action(l.action);
    const text = writer.text(state);
    const summary = recordSummary(text);
    if (summary === null) throw new Error(`rule violation: the record of table ${t.row.id} does not read back`);
    const members = this.membersOf.get(t.row.id) ?? [];
    const coach = members.find((m) => m.role === 'coach')?.playerId ?? null;
    return t.row.seats.flatMap((s, seat) => {
      if (s.kind !== 'person') return [];
      const person = members.find((m) => m.role === 'player' && m.seat === seat);
      const player = person?.playerId ?? null;
      const record: NewRecord = { id: recordIdOf(t.row, seat), ...summary, owner: t.row.solo ? null : `table ${t.row.code}`, player, seat, text, tokenHash: person?.tokenHash };
      return [{ record, readers: coach !== null && coach !== player ? [coach] : [] }];
    });
  }

  private readonly membersOf = new Map<string, Member[]>();

  /** The deal: the game at its start, the bots' stream at its start (the database's is put in once the actions are read). */
  private startGame(t: Cached, loaded?: Game): void {
    const game = loaded ?? this.gameOf(t.row);
    t.game = game;
    t.wire = this.wireOf(game);
    t.state = game.newGame(t.row.seed!);
    t.log = [];
    t.rng = botRng(t.row.seed!);
    t.agents = t.row.seats.map((s) => makeBot<GameSpec>(game, s.kind === 'bot' ? s.level! : t.row.level));
  }

  /** A new copy of a table, dealt when its game has started. */
  private fresh(row: TableRow, hostName: string, game?: Game): Cached {
    const t: Cached = { row, game: null, wire: null, state: null, log: [], rng: [0, 0, 0, 0] as unknown as RngState, agents: [], hostName, dirty: false };
    if (row.seed !== null) this.startGame(t, game);
    return t;
  }

  /**
   * Applies a table's actions, as written, to its copy. The bots that keep something between
   * turns (an easy bot's target) decide again as the game replays, from the bots' stream as it
   * was, so they are where they were, whichever server plays on; at a table where a bot thinks
   * long (each of its turns a task of its own, from the stream it is given) the stream is not
   * replayed: it is read from the database.
   */
  private replay(t: Cached, list: readonly { action: unknown; byBot: boolean }[]): void {
    const { game, state } = this.playing(t);
    const again = !t.row.seats.some((s) => thinksLong(game.type, s.kind === 'bot' ? s.level! : t.row.level));
    for (const { action: raw, byBot } of list) {
      const action = game.decodeAction(raw);
      const seat = action.seat;
      if (again && (t.row.seats[seat].kind === 'bot' || byBot)) {
        t.agents[seat].act({ seat, phase: game.phase(state), view: () => game.view(state, seat), legal: () => game.legalActions(state, seat), rng: t.rng });
      }
      game.apply(state, action);
      this.logged(t, action, byBot);
    }
  }

  private gameOf(row: TableRow): Game {
    return loadGame(row.game, row.params, this.opts.cards);
  }

  private playing(t: Cached): { game: Game; state: GameSpec['state']; wire: GameWire<GameSpec> } {
    if (t.game === null || t.state === null || t.wire === null) throw new TilemateError('TM_BAD_INPUT', 'the game at this table has not started yet');
    return { game: t.game, state: t.state, wire: t.wire };
  }

  // ------------------------------------------------------------------ the copy and the database

  /**
   * A table by its code: what never changes of it (its id, code, game, away time) is kept
   * once read; whether it still exists is known when it is brought up to date (sync).
   */
  private async row(code: string): Promise<TableRow> {
    const known = this.codes.get(code);
    if (known !== undefined) return known;
    const row = CODE.test(code) ? await this.store.byCode(code) : null;
    if (row === null) throw new TilemateError('TM_NOT_FOUND', `no table has the code ${code.slice(0, 12)}: check the code and try again`);
    if (this.codes.size >= 20_000) this.codes.clear();
    this.codes.set(code, row);
    return row;
  }

  private readonly codes = new Map<string, TableRow>();

  /** The member a token opens at this table; the same TM_NOT_FOUND for an unknown table or a token of another. */
  private async open(code: string, token: string | undefined): Promise<{ member: Member; row: TableRow }> {
    if (token === undefined || token === '') throw new TilemateError('TM_UNAUTHORIZED', 'this needs your table token: join the table first');
    const row = await this.row(code);
    const key = hash(token);
    const member = await this.memberOf(key);
    if (member === null || member.tableId !== row.id || !timingSafeEqual(member.tokenHash, key)) throw new TilemateError('TM_NOT_FOUND', `no place at table ${code} opens with this token`);
    return { member, row };
  }

  /** The member a token's hash opens (at any table), or null. */
  private async memberOf(key: Buffer): Promise<Member | null> {
    const member = this.memberCache.get(key.toString('hex')) ?? (await this.store.member(key));
    if (member !== null) this.remember(member);
    return member;
  }

  /** Members by token hash: a member never changes once made (a table given up takes its members with it, and its row is looked up first). */
  private readonly memberCache = new Map<string, Member>();
  private remember(m: Member): void {
    if (this.memberCache.size >= 20_000) this.memberCache.clear();
    this.memberCache.set(m.tokenHash.toString('hex'), m);
  }

  /**
   * How long ago each seat's person was here. Read at most once a heartbeat a table (the
   * heartbeat reads every connected table's at once): what is read ages with the clock, a seat
   * connected to this server is here now, and only a person coming back to another server is
   * seen a few seconds late. A game against bots keeps none.
   */
  private readonly presenceCache = new Map<string, { at: number; seen: Map<number, number> }>();
  private async presence(t: Cached): Promise<Map<number, number>> {
    if (t.row.solo) return new Map();
    const id = t.row.id;
    const now = Date.now();
    let c = this.presenceCache.get(id);
    if (c === undefined || now - c.at >= (this.opts.beatMs ?? 5_000) + Math.min(1_000, this.second)) {
      c = this.keepPresence(id, now, await this.store.presence(id));
    }
    const seen = new Map([...c.seen].map(([seat, ago]) => [seat, ago + now - c.at]));
    for (const conn of this.connections.get(id) ?? []) if (conn.member.role === 'player' && conn.member.seat !== null) seen.set(conn.member.seat, 0);
    return seen;
  }

  /** A seat's person is here now (she connected, or her last connection here closed): the kept presence says so until it is read again. */
  private markHere(id: string, seat: number): void {
    const c = this.presenceCache.get(id);
    if (c !== undefined) c.seen.set(seat, c.at - Date.now());
  }

  private keepPresence(id: string, at: number, seen: Map<number, number>): { at: number; seen: Map<number, number> } {
    if (this.presenceCache.size >= 5_000 && !this.presenceCache.has(id)) this.presenceCache.clear();
    const kept = { at, seen };
    this.presenceCache.set(id, kept);
    return kept;
  }

  /** The table's copy, brought up to the database's version (read in full when it is behind in a way actions cannot mend). */
  private async sync(id: string): Promise<Cached> {
    const row = await this.store.byId(id);
    if (row === null) {
      this.forget(id);
      throw new TilemateError('TM_NOT_FOUND', 'this table has closed');
    }
    let t = this.cache.get(id);
    if (t !== undefined && t.row.version === row.version && !t.dirty) return t;
    let members = this.membersOf.get(id);
    if (members === undefined || t === undefined || JSON.stringify(t.row.seats) !== JSON.stringify(row.seats)) {
      members = await this.store.members(id);
      this.membersOf.set(id, members);
    }
    const hostName = members.find((m) => m.host)?.name ?? '';
    if (t === undefined || t.dirty || t.row.seed !== row.seed || t.log.length > row.actions) t = this.fresh(row, hostName);
    t.row = row;
    t.hostName = hostName;
    if (t.game !== null && t.log.length < row.actions) {
      this.replay(t, await this.store.actionsAfter(id, t.log.length, row.actions));
      if (t.log.length !== row.actions) throw new Error(`table ${id}: ${t.log.length} actions read for ${row.actions}`);
    }
    if (row.rng !== null) t.rng = [...row.rng] as RngState;
    this.cache.set(id, t);
    return t;
  }

  /** The copy as this server's last change left it (committed, so not read again), or read. */
  private async current(id: string): Promise<Cached> {
    return this.cache.get(id) ?? (await this.sync(id));
  }

  /** Runs `fn` after the table's earlier work on this server. */
  private exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const lock = this.locks.get(id) ?? { busy: Promise.resolve(), waiting: 0 };
    this.locks.set(id, lock);
    lock.waiting++;
    const run = lock.busy.then(fn);
    lock.busy = run
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (--lock.waiting === 0 && this.locks.get(id) === lock) this.locks.delete(id);
      });
    return run;
  }

  private readonly locks = new Map<string, { busy: Promise<void>; waiting: number }>();

  /** A change made on the copy, written over the version it was made from, tried again from the database's table when another server got there first (or the copy refused it). */
  private change<T>(id: string, fn: (t: Cached) => Promise<{ change: TableChange; out: T }>): Promise<T> {
    return this.exclusive(id, async () => {
      for (let attempt = 0; ; attempt++) {
        // the copy this server last committed or read is trusted at first, without reading the
        // table again: the commit is written only over the version it was made from, so a copy
        // another server has moved past is found out there, and a refusal is checked against the
        // database's table before it is given
        const cached = this.cache.get(id);
        const trusted = attempt === 0 && cached !== undefined && !cached.dirty;
        const t = trusted ? cached : await this.sync(id);
        const before = this.snapshot(t);
        let made: { change: TableChange; out: T };
        try {
          made = await fn(t);
        } catch (err) {
          Object.assign(t, before); // refused: the copy is as it was
          if (trusted && err instanceof TilemateError) continue;
          throw err;
        }
        try {
          await this.commitChange(t, made.change);
          return made.out;
        } catch (err) {
          Object.assign(t, before); // not written: the copy is as it was, and is brought up to the database's next
          if (!(err instanceof TableConflict)) throw err;
          if (attempt + 1 >= ATTEMPTS) throw new TilemateError('TM_BUSY', 'the table is very busy just now; please try again');
        }
      }
    });
  }

  /** Changes committed and not yet announced, and whether an announcement is on its way. */
  private announcing: string[] = [];
  private sending = false;

  /**
   * Announces a committed change to every server (the NOTIFY each hears, this one too), with
   * the others committed meanwhile, one statement at a time (TableStore.announce). An
   * announcement lost (the database busy a moment) is made up by each server's heartbeat, which
   * pushes its people whatever they have not heard within a few seconds.
   */
  private announce(payload: string): void {
    this.announcing.push(payload);
    if (this.sending) return;
    this.sending = true;
    void (async () => {
      while (this.announcing.length > 0) {
        const batch = this.announcing.splice(0, 500);
        await this.store.announce(batch).catch(this.onError);
      }
      this.sending = false;
    })();
  }

  /** What a change may alter of the copy, to put back when it is refused or not written (cheaper than reading the game again). */
  private snapshot(t: Cached): Partial<Cached> {
    return {
      row: t.row,
      game: t.game,
      wire: t.wire,
      agents: t.agents,
      state: t.game !== null && t.state !== null ? t.game.clone(t.state) : t.state,
      log: [...t.log],
      rng: [...t.rng] as RngState,
      dirty: false,
    };
  }

  private async commitChange(t: Cached, c: TableChange): Promise<void> {
    const version = await this.store.commit(t.row.id, t.row.version, c);
    // a game against bots: nobody else is told (one person, who is answered)
    if (!t.row.solo) this.announce(`${t.row.id}:${version}`);
    t.row = {
      ...t.row,
      version,
      touchedAt: Date.now(),
      actions: t.log.length,
      ...(c.seats !== undefined ? { seats: c.seats } : {}),
      ...(c.status !== undefined ? { status: c.status } : {}),
      ...(c.seed !== undefined ? { seed: c.seed } : {}),
      ...(c.rng !== undefined ? { rng: c.rng } : {}),
      ...(c.turnStarted === true ? { turnSince: Date.now() } : {}),
    };
    t.dirty = false;
    if (c.member !== undefined) this.membersOf.set(t.row.id, [...(this.membersOf.get(t.row.id) ?? []), c.member]);
    if (c.records !== undefined && c.records.length > 0) {
      try {
        this.opts.onFinished?.(c.records.map((r) => r.record));
      } catch (err) {
        this.onError(err); // what follows a finished game never undoes it
      }
    }
  }
}

/** A person's record of the game at a table: a game against bots's is the table's id, as its answer says. */
const recordIdOf = (r: TableRow, seat: number): string => (r.solo ? r.id : `${r.id}-${seat}`);
