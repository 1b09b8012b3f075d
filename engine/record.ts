import { parseCard } from './card.js';
import { compileCard, type CompiledCard } from './compile.js';
import { TilemateError } from './errors.js';
import { apply, newGame, type Action, type GameState } from './game.js';
import { loadRuleset, RULESETS } from './rulesets.js';
import { parseTile, tileName } from './tiles.js';

/**
 * Game records (docs/records.md): one JSON object per line. Line 1 is the header (format,
 * version, ruleset, the full card text, seed, who sat where), then one line per action
 * applied, `{"n":1,"action":{...}}`, then `{"end":{...}}` once the game has ended. A game
 * replays exactly from its seed and its actions, so that is all a record keeps; the end
 * line is a checksum of the outcome. Tiles are written by name (`5B`), never by id.
 */

export const RECORD_FORMAT = 'tilemate-record';
/** Readers refuse other versions; fields may be added within a version, and readers ignore those they do not know. */
export const RECORD_VERSION = 1;

export interface RecordHeader {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  ruleset: string;
  card: { name: string; text: string };
  seed: number;
  /** Who sat in each seat: a bot's name, or `human`. */
  seats: string[];
}

export interface RecordEnd {
  winners: number[];
  wallGame: boolean;
  scores: number[];
}

// ------------------------------------------------------------------ writing

export function recordHeader(h: Omit<RecordHeader, 'format' | 'version'>): string {
  const header: RecordHeader = { format: RECORD_FORMAT, version: RECORD_VERSION, ruleset: h.ruleset, card: { name: h.card.name, text: h.card.text }, seed: h.seed, seats: [...h.seats] };
  return JSON.stringify(header);
}

/** The line for the n-th action applied (n counts from 1). */
export function actionLine(n: number, action: Action): string {
  const out: Record<string, unknown> = { type: action.type, seat: action.seat };
  const a = action as unknown as Record<string, unknown>;
  for (const [key, kind] of Object.entries(ACTION_FIELDS[action.type])) {
    const v = a[key];
    if (v === undefined) continue;
    out[key] = kind === 'tile' ? tileName(v as number) : kind === 'tiles' ? (v as number[]).map(tileName) : v;
  }
  return JSON.stringify({ n, action: out });
}

/** The last line, written once the game has ended. */
export function endLine(state: GameState): string {
  const r = state.result;
  if (state.phase.kind !== 'ended' || !r) throw new Error('endLine: the game has not ended');
  const end: RecordEnd = { winners: r.winners, wallGame: r.wallGame, scores: r.scores };
  return JSON.stringify({ end });
}

// ------------------------------------------------------------------ reading

/** The fields of each action beyond `type` and `seat`, and how they are written. */
type FieldKind = 'int' | 'int?' | 'bool' | 'bool?' | 'tile' | 'tiles';
const ACTION_FIELDS: Record<Action['type'], Record<string, FieldKind>> = {
  pass: { tiles: 'tiles', blind: 'int?' },
  vote: { yes: 'bool' },
  courtesy: { tiles: 'tiles' },
  draw: {},
  discard: { tile: 'tile' },
  exchange: { owner: 'int', exposure: 'int' },
  declare: { rack: 'int?', both: 'bool?' }, // both: Siamese, two Mah Jonggs at once
  decline: {},
  call: { size: 'int', jokers: 'int', rack: 'int?' },
  callMahJongg: { rack: 'int?', both: 'bool?' },
  callDead: { target: 'int', rack: 'int?' },
  timeUp: {}, // the director calls time (tournament 11.4)
};

function bad(line: number, message: string): never {
  throw new TilemateError('TM_BAD_RECORD', `record line ${line}: ${message}`);
}

/** A value quoted in a message: short, and never a crash (a value nested thousands deep overflows JSON.stringify's stack). */
function show(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    return 'a value nested too deeply to show';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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

export function parseHeader(h: Record<string, unknown>): RecordHeader {
  if (h.format !== RECORD_FORMAT) bad(1, `not a Tilemate record (format ${show(h.format)}, expected "${RECORD_FORMAT}")`);
  if (h.version !== RECORD_VERSION) bad(1, `unknown record version ${show(h.version)} (this reader knows version ${RECORD_VERSION})`);
  const { ruleset, card, seed, seats } = h;
  // own keys only: a name like "constructor" must not find Object.prototype
  if (typeof ruleset !== 'string' || !Object.hasOwn(RULESETS, ruleset)) bad(1, `unknown ruleset ${show(ruleset)} (expected one of ${Object.keys(RULESETS).join(', ')})`);
  if (!isObject(card) || typeof card.name !== 'string' || typeof card.text !== 'string') bad(1, 'expected "card": {"name": ..., "text": ...}');
  if (!Number.isSafeInteger(seed)) bad(1, `expected a whole number seed, got ${show(seed)}`);
  const players = RULESETS[ruleset].players;
  if (!Array.isArray(seats) || seats.length !== players || !seats.every((s) => typeof s === 'string')) bad(1, `expected "seats": ${players} names, one per seat`);
  return { format: RECORD_FORMAT, version: RECORD_VERSION, ruleset, card: { name: card.name as string, text: card.text as string }, seed: seed as number, seats };
}

export function parseAction(a: unknown, line: number): Action {
  if (!isObject(a)) return bad(line, 'expected "action": {...}');
  const type = a.type;
  if (typeof type !== 'string' || !Object.hasOwn(ACTION_FIELDS, type)) return bad(line, `unknown action type ${show(type)}`);
  if (!Number.isInteger(a.seat)) bad(line, `expected a seat number, got ${show(a.seat)}`);
  const out: Record<string, unknown> = { type, seat: a.seat };
  for (const [key, kind] of Object.entries(ACTION_FIELDS[type as Action['type']])) {
    const v = a[key];
    if ((kind === 'int?' || kind === 'bool?') && v === undefined) continue;
    const expected = (what: string): never => bad(line, `${type}: expected "${key}" to be ${what}, got ${show(v)}`);
    if ((kind === 'int' || kind === 'int?') && !Number.isInteger(v)) expected('a whole number');
    if ((kind === 'bool' || kind === 'bool?') && typeof v !== 'boolean') expected('true or false');
    if (kind === 'tile' && typeof v !== 'string') expected('a tile name');
    if (kind === 'tiles' && !(Array.isArray(v) && v.every((t) => typeof t === 'string'))) expected('a list of tile names');
    try {
      out[key] = kind === 'tile' ? parseTile(v as string) : kind === 'tiles' ? (v as string[]).map(parseTile) : v;
    } catch (err) {
      if (err instanceof TilemateError) bad(line, `${type}: ${err.message}`);
      throw err;
    }
  }
  return out as unknown as Action;
}

function checkEnd(end: unknown, state: GameState, line: number): void {
  if (state.phase.kind !== 'ended' || !state.result) return bad(line, 'an end line, but the game has not ended');
  if (!isObject(end)) return bad(line, 'expected "end": {...}');
  const r = state.result;
  const diffs: string[] = [];
  const same = (a: unknown, b: readonly unknown[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(end.winners, r.winners)) diffs.push(`winners ${show(end.winners)}, replayed ${show(r.winners)}`);
  if (end.wallGame !== r.wallGame) diffs.push(`wallGame ${show(end.wallGame)}, replayed ${show(r.wallGame)}`);
  if (!same(end.scores, r.scores)) diffs.push(`scores ${show(end.scores)}, replayed ${show(r.scores)}`);
  if (diffs.length > 0) bad(line, `the end line disagrees with the replay: ${diffs.join('; ')}`);
}

export interface Replay {
  header: RecordHeader;
  /** The finished game, as the record's actions leave it. */
  state: GameState;
  /** Actions replayed. */
  actions: number;
}

/** Compiles a card from its text (the default for `replayRecord`; callers may cache). */
export const cardFromText = (text: string): CompiledCard => compileCard(parseCard(text));

/**
 * Replays a finished game's record, checking every action against the rules and the
 * outcome against the end line. Any problem is a TM_BAD_RECORD naming the line. A record
 * of a game still in progress is refused too: replay is for finished games.
 */
export function replayRecord(text: string, loadCardFromText: (text: string) => CompiledCard = cardFromText): Replay {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline
  const last = lines.length;
  if (last === 1 && lines[0].trim() === '') bad(1, 'the record is empty');
  const header = parseHeader(parseLine(lines[0], 1, last === 1));
  let cc: CompiledCard;
  try {
    cc = loadCardFromText(header.card.text);
  } catch (err) {
    if (err instanceof TilemateError) bad(1, `the card does not load: ${err.message}`);
    throw err;
  }
  if (cc.card.name !== header.card.name) bad(1, `the card text is named "${cc.card.name}" but the header says "${header.card.name}"`);
  const state = newGame(loadRuleset(header.ruleset), cc, header.seed);

  let actions = 0;
  let endAt = 0;
  for (let line = 2; line <= last; line++) {
    const obj = parseLine(lines[line - 1], line, line === last);
    if (endAt > 0) bad(line, `a line after the end line (line ${endAt})`);
    if ('end' in obj) {
      checkEnd(obj.end, state, line);
      endAt = line;
      continue;
    }
    if (state.phase.kind === 'ended') bad(line, `an action after the game has ended (at line ${line - 1}), where the end line belongs`);
    if (obj.n !== actions + 1) bad(line, `action number ${show(obj.n)} is out of sequence (expected ${actions + 1})`);
    const action = parseAction(obj.action, line);
    try {
      apply(state, action);
    } catch (err) {
      if (err instanceof TilemateError) bad(line, `${action.type} refused: ${err.message}`);
      throw err; // not the record's fault: an engine bug
    }
    actions++;
  }
  if (endAt === 0) {
    if (state.phase.kind === 'ended') bad(last, 'the game ends here but the end line is missing');
    bad(last, 'the record stops before the game ends (replay needs a finished game)');
  }
  return { header, state, actions };
}
