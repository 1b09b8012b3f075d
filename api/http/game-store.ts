import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../../agents/agent.js';
import { Analyzer } from '../../engine/analyzer.js';
import { parseCard } from '../../engine/card.js';
import { compileCard, type CompiledCard } from '../../engine/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, newGame, view, waitingOn, type Action, type GameState } from '../../engine/game.js';
import type { RngState } from '../../engine/rng.js';
import type { Ruleset } from '../../engine/rulesets.js';
import { tileName, type TileId } from '../../engine/tiles.js';
import type { HeavyPool } from './heavy.js';
import { forcedChoice } from '../shared/turns.js';
import { actionLine, parseAction, parseHeader } from '../../engine/record.js';
import { Journal } from './journal.js';
import { admit, DEFAULT_TABLE_LIMITS, type Seated, type TableLimits } from './quotas.js';
import { botRng, parseBots, RecordWriter, rulesetByName, writeFileAtomic } from '../shared/records.js';
import { eventJson, legalJson, viewJson, type EventJson, type LegalJson, type ViewJson } from './wire.js';

/**
 * Live games against bots, each opened by a token, and the records of finished ones.
 * A game is played in memory and journaled as it goes (`<data>/live/`, api/http/journal.ts), so
 * a restarted server takes it up again; once it ends its record is written atomically into
 * `<data>/records/<id>.jsonl`. Tokens are kept only as hashes and compared in constant time.
 */

/** Live games held at once, per address, and how long an untouched game is kept (api/http/quotas.ts). */
export type StoreLimits = TableLimits;
export const DEFAULT_STORE_LIMITS: StoreLimits = DEFAULT_TABLE_LIMITS;

export interface NewGameOptions {
  ruleset?: string;
  level?: string;
  bots?: string[];
  seat?: number;
  seed?: number;
  autoPlay?: boolean;
  /** The text of the card to play on (a saved card, api/http/routes/cards.ts); default: the server's card. */
  cardText?: string;
}

/** A card a game is played on, compiled once, with its analyzer (the seat's Card panel). */
export interface GameCard { cc: CompiledCard; text: string; analyzer: Analyzer }
/** Cards other than the server's kept compiled at once (the players' own; compiled again when dropped). */
const CARDS_KEPT = 8;

interface LoggedAction { action: Action; drew: TileId | null }

export interface LiveGame extends Seated {
  readonly id: string;
  readonly seat: number;
  readonly names: string[];
  readonly rules: Ruleset;
  readonly card: GameCard;
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
  view: ViewJson;
  legal: LegalJson[];
  events: EventJson[];
  /** Actions applied so far: post it back as `after` with the next action to make a retry safe. */
  at: number;
  recordId: string | null;
  /** Set when the finished game's record could not be written (it is tried again at the next answer). */
  recordError?: { code: string; message: string };
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
/** The bots whose turns play deals out (agents/levels.ts): played in the worker pool. */
const SEARCHING_BOTS = new Set(['hard', 'expert', 'montecarlo']);
const MAX_EVENTS = 400;
const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

export class GameStore {
  private readonly games = new Map<string, LiveGame>();
  private readonly cards = new Map<string, GameCard>();
  private readonly recordsDir: string;
  private readonly now: () => number;

  constructor(
    private readonly cc: CompiledCard,
    private readonly cardText: string,
    dataDir: string,
    private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS,
    now: () => number = Date.now,
    private readonly onError: (err: unknown) => void = () => {},
    /** Where the searching bots think (null: on the event loop). */
    private readonly pool: HeavyPool | null = null,
  ) {
    this.recordsDir = join(dataDir, 'records');
    this.journal = new Journal(join(dataDir, 'live'), { encode: (n, a) => JSON.parse(actionLine(n, a)).action, decode: parseAction });
    this.now = now;
  }

  private readonly journal: Journal<Action>;

  /**
   * Takes up the games in progress when the server stopped, from their journals: each
   * replayed to its last acknowledged action, with the bots' random stream as it was. A
   * journal of another card, or one that does not replay, is skipped and reported.
   */
  restore(): number {
    let restored = 0;
    for (const j of this.journal.load((file, why) => this.onError(new Error(`live game journal ${file} skipped: ${why}`)))) {
      try {
        const header = parseHeader(j.header);
        const card = this.cardFor(header.card.text);
        const rules = rulesetByName(header.ruleset);
        const bots = parseBots(header.seats.filter((_, s) => s !== j.meta.seat).join(','), rules.players - 1, card.cc, rules);
        const agents: (Agent | null)[] = [...bots.agents];
        agents.splice(j.meta.seat, 0, null);
        const g = this.live(j.meta.id, j.meta.owner, j.meta.seat, header.seats, agents, rules, card, header.seed, j.meta.autoPlay ?? true, Buffer.from(j.meta.tokenHash, 'hex'));
        // Bots that keep something between turns (an easy bot's target) decide again as the
        // game replays, from the bots' stream as it was, so they are where they were. The
        // searching bots keep nothing (each turn is a task of its own); at their tables the
        // stream is taken from the journal instead.
        const again = !header.seats.some((name) => SEARCHING_BOTS.has(name));
        for (const action of j.actions) {
          const seat = action.seat;
          if (again && seat !== g.seat) g.agents[seat]!.act({ seat, phase: g.state.phase.kind, view: () => view(g.state, seat), legal: () => legalActions(g.state, seat), rng: g.rng });
          const drawAt = g.state.wallPos;
          apply(g.state, action);
          this.logged(g, action, action.type === 'draw' ? g.state.wall[drawAt] : null);
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
    return restored;
  }

  /** The compiled card of a card text: the server's, or one of the players' own (bounded by compileCard's form limits). */
  cardFor(text: string): GameCard {
    let c = this.cards.get(text);
    if (c === undefined) {
      const cc = text === this.cardText ? this.cc : compileCard(parseCard(text));
      c = { cc, text, analyzer: new Analyzer(cc) };
      this.cards.set(text, c);
      for (const k of this.cards.keys()) if (this.cards.size > CARDS_KEPT + 1 && k !== this.cardText) this.cards.delete(k);
    }
    return c;
  }

  private live(id: string, owner: string, seat: number, names: string[], agents: (Agent | null)[], rules: Ruleset, card: GameCard, seed: number, autoPlay: boolean, tokenHash: Buffer): LiveGame {
    return {
      id, owner, seat, names, rules, card,
      state: newGame(rules, card.cc, seed),
      agents,
      rng: botRng(seed),
      writer: new RecordWriter(rules, card.cc, card.text, seed, names),
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
  private journalUp(g: LiveGame): void {
    if (g.recordId !== null) return; // finished and saved: its journal is gone
    try {
      this.journal.append(g.id, g.journaled + 1, g.log.slice(g.journaled).map((l) => l.action), g.rng);
      g.journaled = g.log.length;
    } catch (err) {
      this.onError(err);
    }
  }

  private drop(id: string): void {
    this.games.delete(id);
    try { this.journal.remove(id); } catch (err) { this.onError(err); }
  }

  get size(): number {
    return this.games.size;
  }

  /** A new game; the bots move until the person must decide. The token is in the answer only. */
  async create(opts: NewGameOptions, owner = 'local'): Promise<GameAnswer> {
    const rules = rulesetByName(opts.ruleset ?? 'nmjl-4p');
    const seat = opts.seat ?? 0;
    if (!Number.isInteger(seat) || seat < 0 || seat >= rules.players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected a seat from 0 to ${rules.players - 1} for ${rules.name}`);
    if (opts.bots && opts.bots.length > 0 && opts.bots.length !== rules.players - 1) {
      throw new TilemateError('TM_BAD_INPUT', `"bots" names ${opts.bots.length} bot${opts.bots.length === 1 ? '' : 's'} for the ${rules.players - 1} other seats of ${rules.name}: name one per other seat, or give "level" for all`);
    }
    const spec = opts.bots && opts.bots.length > 0 ? opts.bots.join(',') : (opts.level ?? 'medium');
    const card = this.cardFor(opts.cardText ?? this.cardText);
    const bots = parseBots(spec, rules.players - 1, card.cc, rules); // refuses unknown levels
    admit(this.games, owner, this.limits, this.now(), (g) => g.recordId !== null, (id) => this.drop(id));
    const names = [...bots.names];
    const agents: (Agent | null)[] = [...bots.agents];
    names.splice(seat, 0, 'human');
    agents.splice(seat, 0, null);
    // a fresh seed of 48 bits, never shown before the end (too many deals to search for the one on the table)
    const seed = opts.seed ?? freshSeed();
    const token = randomBytes(24).toString('base64url');
    let id: string;
    do id = randomBytes(12).toString('base64url'); while (this.games.has(id) || this.recordExists(id));
    const g = this.live(id, owner, seat, names, agents, rules, card, seed, opts.autoPlay ?? true, hash(token));
    this.games.set(id, g);
    await this.exclusive(g, async () => {
      await this.advance(g);
      try {
        this.journal.start({ id, tokenHash: g.tokenHash.toString('hex'), seat, autoPlay: g.autoPlay, owner }, g.writer.header, g.log.map((l) => l.action), g.rng);
        g.journaled = g.log.length;
      } catch (err) {
        this.onError(err);
      }
      this.save(g);
    });
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
  act(g: LiveGame, action: Action, after?: number): Promise<GameAnswer> {
    return this.exclusive(g, async () => {
      this.check(g, action, after);
      const drawAt = g.state.wallPos;
      apply(g.state, action);
      this.logged(g, action, action.type === 'draw' ? g.state.wall[drawAt] : null);
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
  exclusive<T>(g: LiveGame, fn: () => Promise<T> | T): Promise<T> {
    const run = g.busy.then(fn);
    g.busy = run.then(() => undefined, () => undefined);
    return run;
  }

  private check(g: LiveGame, action: Action, after?: number): void {
    if (after !== undefined && after !== g.log.length) {
      throw new TilemateError('TM_STALE_ACTION', `this action was sent after action ${after}, but the game is at action ${g.log.length}: it may be a retry of one already applied, so it was not applied again (ask for the game to see where it stands)`);
    }
    if (g.state.phase.kind === 'ended') throw new TilemateError('TM_GAME_OVER', 'the game has ended');
    if (legalActions(g.state, g.seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', `the game is not waiting on seat ${g.seat} now`);
    // the engine checks the action in full before changing anything (apply, in act)
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
      legal: [...legalJson(legal, v), ...inErrorJson(g.state, g.seat, legal)],
      events,
      at: g.log.length,
      recordId: g.recordId,
      ...(g.recordError ? { recordError: { code: g.recordError.code, message: `the finished game could not be saved as a record: ${g.recordError.message}` } } : {}),
    };
  }

  private logged(g: LiveGame, action: Action, drew: TileId | null): void {
    g.writer.action(action);
    g.log.push({ action, drew });
  }

  /**
   * The bots move (and the seat's forced draws and declines are made) until the seat must
   * decide or the game ends, as api/shared/turns.ts runBots plays them; the searching bots' turns
   * are played in the worker pool, each from the seat's view and the bots' random stream,
   * so the game is the same wherever they are played.
   */
  private async advance(g: LiveGame): Promise<void> {
    const state = g.state;
    while (state.phase.kind !== 'ended') {
      const seat = waitingOn(state)[0];
      if (seat === undefined) throw new Error('rule violation: nobody to act in a live game');
      let action: Action;
      if (seat === g.seat) {
        const forced = g.autoPlay ? forcedChoice(state, seat) : null;
        if (forced === null) break;
        action = forced;
      } else if (this.pool !== null && SEARCHING_BOTS.has(g.names[seat])) {
        const move = await this.pool.bot({
          kind: 'bot', cardText: g.card.text, ruleset: g.rules.name, bot: g.names[seat], seat,
          phase: state.phase.kind, view: view(state, seat), legal: legalActions(state, seat), rng: [...g.rng],
        });
        g.rng.splice(0, 4, ...move.rng);
        action = move.action;
      } else {
        action = g.agents[seat]!.act({ seat, phase: state.phase.kind, view: () => view(state, seat), legal: () => legalActions(state, seat), rng: g.rng });
      }
      const drawAt = state.wallPos;
      apply(state, action);
      this.logged(g, action, action.type === 'draw' ? state.wall[drawAt] : null);
    }
  }

  /** Writes a finished game's record once; a failed write is tried again at the next answer. */
  private save(g: LiveGame): void {
    if (g.state.phase.kind !== 'ended' || g.recordId !== null) return;
    try {
      writeFileAtomic(join(this.recordsDir, `${g.id}.jsonl`), g.writer.text(g.state));
      g.recordId = g.id;
      g.recordError = null;
      this.journal.remove(g.id);
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
    if (summarizeOrNull(id, text, new Date(0)) === null) throw new TilemateError('TM_NOT_FOUND', `record "${id}" is damaged on the server and cannot be read`);
    return text;
  }

  /**
   * Finished records on disk, newest first, a page at a time. Each file is read once and its
   * summary kept (records never change once written); the folder is listed again only when
   * its modification time says a file came or went.
   */
  listRecords(page: { offset?: number; limit?: number } = {}): { records: RecordSummary[]; total: number } {
    let folder: number;
    try { folder = statSync(this.recordsDir).mtimeMs; } catch { return { records: [], total: 0 }; }
    if (folder !== this.index.folder) {
      const names = new Set(readdirSync(this.recordsDir));
      for (const name of this.index.byName.keys()) if (!names.has(name)) this.index.byName.delete(name);
      for (const name of names) {
        const id = name.endsWith('.jsonl') ? name.slice(0, -6) : '';
        if (!ID.test(id) || this.index.byName.has(name)) continue; // temporary files start with a dot
        let s: RecordSummary | null = null;
        try {
          const path = join(this.recordsDir, name);
          s = summarizeOrNull(id, readFileSync(path, 'utf8'), statSync(path).mtime);
        } catch { /* unreadable: not listed */ }
        this.index.byName.set(name, s);
      }
      this.index.folder = folder;
      this.index.sorted = null;
    }
    this.index.sorted ??= [...this.index.byName.values()].filter((r): r is RecordSummary => r !== null)
      .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt) || a.id.localeCompare(b.id));
    const offset = page.offset ?? 0;
    return { records: this.index.sorted.slice(offset, offset + (page.limit ?? DEFAULT_PAGE)), total: this.index.sorted.length };
  }

  private readonly index: { folder: number; byName: Map<string, RecordSummary | null>; sorted: RecordSummary[] | null } = { folder: -1, byName: new Map(), sorted: null };
}

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;

/** A fresh game seed: 48 random bits. */
export const freshSeed = (): number => randomInt(0, 2 ** 48 - 1);

/** summarize, with anything that does not parse as a finished record answered null. */
function summarizeOrNull(id: string, text: string, finished: Date): RecordSummary | null {
  try { return summarize(id, text, finished); } catch { return null; }
}

/**
 * Mah Jongg in error (standardized rules 14.2): a player may declare, or call a discard for,
 * Mah Jongg when her hand is not one; the engine accepts it and her hand is dead. So the
 * answer offers it too, marked `inError`, after the legal actions, where the seat could
 * declare but the hand is not Mah Jongg.
 */
function inErrorJson(state: GameState, seat: number, legal: readonly Action[]): LegalJson[] {
  const ph = state.phase;
  if (ph.kind === 'discard' && state.turn === seat && legal.some((a) => a.type === 'discard') && !legal.some((a) => a.type === 'declare')) {
    return [{ type: 'declare', seat, inError: true }];
  }
  if (ph.kind === 'claims' && ph.responses[seat] === null && legal.some((a) => a.type === 'decline') && !legal.some((a) => a.type === 'callMahJongg')) {
    return [{ type: 'callMahJongg', seat, inError: true, claimTile: tileName(ph.tile) }];
  }
  return [];
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
