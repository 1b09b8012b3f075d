import { TilemateError } from './errors.js';
import { show, type CardSource, type Game, type GameSpec, type GameType } from './games.js';
import { GAMES, gameTypeOfRecord } from './registry.js';

/**
 * Game records, one format for every game (docs/records.md): one JSON object per line. Line 1
 * is the header (format and version, the game's parameters, the seed, who sat where), then one
 * line per action applied, `{"n":1,"action":{...}}` as the game's action codec writes it, then
 * `{"end":{...}}` once the game has ended. A game replays exactly from its seed and its
 * actions, so that is all a record keeps; the end line is a checksum of the outcome. Tiles are
 * written by name (`5B`, `12-5`), never by id. Each game has its own format name
 * (`tilemate-record` for Mah Jongg, `tilemate-domino-record` for Mexican Train).
 */

/** Readers refuse other versions; fields may be added within a version, and readers ignore those they do not know. */
export interface RecordHeader {
  format: string;
  version: number;
  /** The game's parameters (Mah Jongg: ruleset and card; Mexican Train: ruleset, players and rounds). */
  [param: string]: unknown;
  seed: number;
  /** Who sat in each seat: a bot's name, or `human`. */
  seats: string[];
}

// ------------------------------------------------------------------ writing

export function recordHeader(game: Game, seed: number, seats: readonly string[]): string {
  const { format, version } = game.type.record;
  return JSON.stringify({ format, version, ...game.params, seed, seats: [...seats] });
}

/** The line for the n-th action applied (n counts from 1). */
export function actionLine<G extends GameSpec>(game: Game<G>, n: number, action: G['action']): string {
  return JSON.stringify({ n, action: game.encodeAction(action) });
}

/** The last line, written once the game has ended. */
export function endLine<G extends GameSpec>(game: Game<G>, state: G['state']): string {
  if (!game.isOver(state)) throw new Error('endLine: the game has not ended');
  return JSON.stringify({ end: game.endSummary(state) });
}

/** Collects a game's record line by line as it is played. */
export class RecordWriter<G extends GameSpec = GameSpec> {
  private readonly lines: string[];

  constructor(
    private readonly game: Game<G>,
    seed: number,
    seats: readonly string[],
  ) {
    this.lines = [recordHeader(game, seed, seats)];
  }

  action(a: G['action']): void {
    this.lines.push(actionLine(this.game, this.lines.length, a));
  }

  /** The header line. */
  get header(): string {
    return this.lines[0];
  }

  /** The whole record; with its end line once the game has ended. */
  text(state: G['state']): string {
    const end = this.game.isOver(state) ? [endLine(this.game, state)] : [];
    return [...this.lines, ...end].join('\n') + '\n';
  }
}

// ------------------------------------------------------------------ reading

function bad(line: number, message: string): never {
  throw new TilemateError('TM_BAD_RECORD', `record line ${line}: ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseLine(text: string, line: number, last: boolean): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return bad(line, last ? 'not JSON: the record is cut off here' : 'not JSON');
  }
  return isObject(v) ? v : bad(line, `expected a JSON object, got ${show(v)}`);
}

/**
 * A record's header, checked, and the game it describes (its parameters loaded: an unknown
 * ruleset or a card that does not load is refused on line 1).
 */
export function readHeader(h: Record<string, unknown>, cards?: CardSource): { header: RecordHeader; game: Game } {
  const type = gameTypeOfRecord(h.format);
  if (type === undefined)
    bad(
      1,
      `not a Tilemate record (format ${show(h.format)}, expected ${Object.values(GAMES)
        .map((t) => `"${t.record.format}"`)
        .join(' or ')})`,
    );
  if (h.version !== type!.record.version) bad(1, `unknown record version ${show(h.version)} (this reader knows version ${type!.record.version})`);
  if (!Number.isSafeInteger(h.seed)) bad(1, `expected a whole number seed, got ${show(h.seed)}`);
  let game: Game;
  try {
    game = type!.load(h, cards);
  } catch (err) {
    if (err instanceof TilemateError) bad(1, err.message);
    throw err;
  }
  const seats = h.seats;
  if (!Array.isArray(seats) || seats.length !== game.players || !seats.every((s) => typeof s === 'string')) bad(1, `expected "seats": ${game.players} names, one per seat`);
  return { header: h as RecordHeader, game };
}

function checkEnd(game: Game, end: unknown, state: object, line: number): void {
  if (!game.isOver(state)) bad(line, 'an end line, but the game has not ended');
  if (!isObject(end)) bad(line, 'expected "end": {...}');
  const diffs: string[] = [];
  for (const [key, replayed] of Object.entries(game.endSummary(state))) {
    if (JSON.stringify(end[key]) !== JSON.stringify(replayed)) diffs.push(`${key} ${show(end[key])}, replayed ${show(replayed)}`);
  }
  if (diffs.length > 0) bad(line, `the end line disagrees with the replay: ${diffs.join('; ')}`);
}

export interface Replay<G extends GameSpec = GameSpec> {
  header: RecordHeader;
  game: Game<G>;
  /** The game as the record's actions leave it (finished, unless `partial` was asked for). */
  state: G['state'];
  /** Actions replayed. */
  actions: number;
  /** The actions, in order. */
  played: G['action'][];
}

export interface ReplayOptions<G extends GameSpec> {
  /** Only records of this game (others are refused on line 1). */
  type?: GameType<G>;
  /** Compiles a Mah Jongg card's text (callers may cache). */
  cards?: CardSource;
  /** Accept a record of a game still in progress (a journal; a prefix of a record). */
  partial?: boolean;
}

/**
 * Replays a record, checking every action against the rules and the outcome against the end
 * line. Any problem is a TM_BAD_RECORD naming the line. A record of a game still in progress
 * is refused unless `partial`: replay is for finished games.
 */
export function replayRecord<G extends GameSpec = GameSpec>(text: string, opts: ReplayOptions<G> = {}): Replay<G> {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline
  const last = lines.length;
  if (last === 1 && lines[0].trim() === '') bad(1, 'the record is empty');
  const first = parseLine(lines[0], 1, last === 1);
  const other = gameTypeOfRecord(first.format);
  if (opts.type !== undefined && other !== undefined && other !== (opts.type as unknown as GameType)) bad(1, `a record of ${other.title}, not of ${opts.type.title}`);
  const { header, game: loaded } = readHeader(first, opts.cards);
  const game = loaded as unknown as Game<G>;
  const state = game.newGame(header.seed);

  const played: G['action'][] = [];
  let endAt = 0;
  for (let line = 2; line <= last; line++) {
    const obj = parseLine(lines[line - 1], line, line === last);
    if (endAt > 0) bad(line, `a line after the end line (line ${endAt})`);
    if ('end' in obj) {
      checkEnd(game, obj.end, state, line);
      endAt = line;
      continue;
    }
    if (game.isOver(state)) bad(line, `an action after the game has ended (at line ${line - 1}), where the end line belongs`);
    if (obj.n !== played.length + 1) bad(line, `action number ${show(obj.n)} is out of sequence (expected ${played.length + 1})`);
    let action: G['action'];
    try {
      action = game.decodeAction(obj.action);
    } catch (err) {
      if (err instanceof TilemateError) bad(line, err.message);
      throw err;
    }
    const refused = game.tryApply(state, action);
    if (refused !== null) bad(line, `${action.type} refused: ${refused.message}`);
    played.push(action);
  }
  if (endAt === 0 && !opts.partial) {
    if (game.isOver(state)) bad(last, 'the game ends here but the end line is missing');
    bad(last, 'the record stops before the game ends (replay needs a finished game)');
  }
  return { header, game, state, actions: played.length, played };
}
