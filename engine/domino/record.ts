import { TilemateError } from '../errors.js';
import { apply, newMatch, newRound, type DominoAction, type DominoState } from './game.js';
import { loadDominoRuleset } from './rulesets.js';
import { dominoName, parseDomino } from './tiles.js';

/**
 * Mexican Train records (docs/mexican-train.md, "Records"): JSON Lines like the Mah Jongg
 * records. Line 1 the header (format, version, ruleset, players, seed, whether one round or
 * the whole game, who sat where), then one line per action, `{"n":1,"action":{...}}`, then
 * `{"end":{...}}` once the game has ended. Tiles by name (`12-5`), the Mexican train as
 * `"mexican"`, a seat's train by its seat number.
 */

export const DOMINO_RECORD_FORMAT = 'tilemate-domino-record';
export const DOMINO_RECORD_VERSION = 1;

export interface DominoRecordHeader {
  format: typeof DOMINO_RECORD_FORMAT;
  version: typeof DOMINO_RECORD_VERSION;
  ruleset: string;
  players: number;
  seed: number;
  /** `{"round": r}`: one round (index into the ruleset's engines); `"match"`: every round. */
  game: { round: number } | 'match';
  seats: string[];
}

export interface DominoRecordEnd {
  totals: number[];
  winners: number[];
  rounds: { engine: number; outBy: number; pipsLeft: number[] }[];
}

export function dominoRecordHeader(h: Omit<DominoRecordHeader, 'format' | 'version'>): string {
  const header: DominoRecordHeader = { format: DOMINO_RECORD_FORMAT, version: DOMINO_RECORD_VERSION, ruleset: h.ruleset, players: h.players, seed: h.seed, game: h.game, seats: [...h.seats] };
  return JSON.stringify(header);
}

export function dominoActionLine(n: number, a: DominoAction, players: number): string {
  const action = a.type === 'play' ? { type: 'play', seat: a.seat, tile: dominoName(a.tile), train: a.train === players ? 'mexican' : a.train } : { type: a.type, seat: a.seat };
  return JSON.stringify({ n, action });
}

export function dominoEndLine(state: DominoState): string {
  if (state.phase !== 'ended' || !state.result) throw new Error('dominoEndLine: the game has not ended');
  const end: DominoRecordEnd = { totals: state.result.totals, winners: state.result.winners, rounds: state.rounds.map((r) => ({ engine: r.engine, outBy: r.outBy, pipsLeft: r.pipsLeft })) };
  return JSON.stringify({ end });
}

/** A new game as the header describes it. */
export function gameFromHeader(h: DominoRecordHeader): DominoState {
  const rules = loadDominoRuleset(h.ruleset);
  return h.game === 'match' ? newMatch(rules, h.players, h.seed) : newRound(rules, h.players, h.seed, h.game.round);
}

/** An action line's action, from its JSON (tile names and train names parsed). */
export function parseDominoAction(raw: unknown, players: number): DominoAction {
  const a = raw as Record<string, unknown> | null;
  if (!a || typeof a !== 'object') throw new TilemateError('TM_BAD_INPUT', 'an action is a JSON object');
  const seat = a.seat;
  if (typeof seat !== 'number' || !Number.isInteger(seat)) throw new TilemateError('TM_BAD_INPUT', 'an action needs a whole-number "seat"');
  if (a.type === 'draw' || a.type === 'pass') return { type: a.type, seat };
  if (a.type !== 'play') throw new TilemateError('TM_BAD_INPUT', `unknown action type ${JSON.stringify(a.type)}: play, draw or pass`);
  if (typeof a.tile !== 'string') throw new TilemateError('TM_BAD_TILE', 'a play needs a "tile" such as "12-5"');
  const tile = parseDomino(a.tile);
  const train = a.train === 'mexican' ? players : a.train;
  if (typeof train !== 'number' || !Number.isInteger(train)) throw new TilemateError('TM_BAD_INPUT', 'a play needs a "train": a seat number or "mexican"');
  return { type: 'play', seat, tile, train };
}

export interface DominoReplay {
  header: DominoRecordHeader;
  state: DominoState;
  actions: number;
}

/** Replays a record, checking every action against the rules and the outcome against the end line. */
export function replayDominoRecord(text: string): DominoReplay {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const bad = (i: number, why: string): never => { throw new TilemateError('TM_BAD_RECORD', `record line ${i + 1}: ${why}`); };
  const parse = (i: number): Record<string, unknown> => {
    try {
      const v = JSON.parse(lines[i]) as unknown;
      if (!v || typeof v !== 'object') bad(i, 'not a JSON object');
      return v as Record<string, unknown>;
    } catch (err) {
      if (err instanceof TilemateError) throw err;
      return bad(i, 'not JSON: the record is cut off or edited here');
    }
  };
  if (lines.length === 0) bad(0, 'the record is empty');
  const h = parse(0) as unknown as DominoRecordHeader;
  if (h.format !== DOMINO_RECORD_FORMAT) bad(0, `not a Mexican Train record (format ${JSON.stringify(h.format)})`);
  if (h.version !== DOMINO_RECORD_VERSION) bad(0, `version ${JSON.stringify(h.version)} is not one this reader knows (${DOMINO_RECORD_VERSION})`);
  if (typeof h.seed !== 'number' || typeof h.players !== 'number' || typeof h.ruleset !== 'string') bad(0, 'the header lacks ruleset, players or seed');
  let state: DominoState;
  try {
    state = gameFromHeader(h);
  } catch (err) {
    return bad(0, err instanceof TilemateError ? err.message : String(err));
  }
  let n = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = parse(i);
    if ('end' in line) {
      if (i !== lines.length - 1) bad(i, 'lines after the end line');
      if (state.phase !== 'ended') bad(i, 'the record ends before the game does');
      const end = line.end as DominoRecordEnd;
      if (JSON.stringify(end?.totals) !== JSON.stringify(state.result!.totals)) bad(i, `the end line's totals ${JSON.stringify(end?.totals)} are not the replay's ${JSON.stringify(state.result!.totals)}`);
      return { header: h, state, actions: n };
    }
    if (line.n !== n + 1) bad(i, `action number ${JSON.stringify(line.n)}, expected ${n + 1}`);
    try {
      apply(state, parseDominoAction(line.action, state.players));
    } catch (err) {
      if (err instanceof TilemateError) bad(i, `${err.code}: ${err.message}`);
      throw err;
    }
    n++;
  }
  return bad(lines.length - 1, state.phase === 'ended' ? 'no end line: the record is cut off' : 'the record is cut off before the game ended');
}
