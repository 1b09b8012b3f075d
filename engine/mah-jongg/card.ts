import { TilemateError } from '../errors.js';
import { FLOWER, GREEN, NORTH, EAST, WEST, SOUTH, RED, SOAP, type Suit, type TileId } from './tiles.js';

/**
 * The card notation of card-notation.md, parsed into data. Nothing is guessed: every line
 * that is not blank, a comment, a `card:` header, a `[Section]` or a well-formed card line
 * is refused with its line number, the token and what was expected.
 */

/** One symbol of a pattern token. */
export type CardSymbol =
  | { kind: 'number'; n: number } // 1-9, shifts with consec/shift=, takes the token's suit
  | { kind: 'dragon' } // D: the dragon of the token's suit
  | { kind: 'tile'; tile: TileId }; // 0 (Soap), R, G, F, N, E, W, S: fixed, never suited

/** One alternative of a token (`NNNN` in `NNNN|SSSS`), written in full. */
export interface Alternative {
  text: string;
  symbols: CardSymbol[];
  /** Suit variable: 0 for a (also the default), 1 for b, 2 for c. */
  suitVar: number;
  /** True when some symbol takes the suit (a number or D). */
  suited: boolean;
  /**
   * A year (`2026a`): singles of numbers and Soap as zero. Its numbers are the year as printed,
   * so they never move with `consec` or `shift=` (teaching guide, Part 5.5: Soap is the "0" of a year).
   */
  year: boolean;
}

/** A pattern token: a group (one repeated symbol) or a run of singles. */
export interface PatternToken {
  text: string;
  alternatives: Alternative[];
  size: number;
  /** One symbol repeated 3-6 times: a pung, kong, quint or sextet, which jokers may fill. */
  group: boolean;
}

export interface CardLine {
  /** `Section #n`: n is the line's own `#n` if it carries one, else one more than the line before it in its section (from 1). */
  id: string;
  section: string;
  /** Line number in the card file (1-based), for messages. */
  fileLine: number;
  /** The pattern as written, without options. */
  pattern: string;
  /** One or more shapes (`or`), each holding exactly 14 tiles. */
  shapes: PatternToken[][];
  concealed: boolean;
  value: number;
  /**
   * Shifts of every number in the line: [0] without `consec` or `shift=`; with them, every shift
   * some shape can take. A form whose numbers a shift would take out of 1..9 does not exist, so
   * each shape (and each alternative) keeps its own range (`shapeShifts`).
   */
  shifts: number[];
  /** The shifts each shape can take (`consec`: those keeping its numbers in 1..9, for some choice of alternatives). */
  shapeShifts: number[][];
  /**
   * `other` ("any number, any other number"): each different number printed stands for any
   * number, and different numbers printed stay different numbers (`11111a 22222b 3333c ; x 45
   * other` is three groups of three different numbers, any ones). A year stays as printed.
   * Exclusive of `consec` and `shift=` (shifts is then [0]).
   */
  other: boolean;
  /** Suit pinned for variables a, b, c (`a=B`), or null. */
  pins: (Suit | null)[];
  nojoker: boolean;
}

export interface Card {
  name: string;
  sections: string[];
  lines: CardLine[];
  /** The text it was read from: what a game's record keeps, so the game replays on the same card. */
  text: string;
}

export class CardError extends TilemateError {
  readonly line: number;
  readonly token: string | null;
  constructor(line: number, token: string | null, expected: string) {
    super('TM_CARD_SYNTAX', `card line ${line}: ${token === null ? '' : `"${token}": `}${expected}`);
    this.line = line;
    this.token = token;
  }
}

const DECORATION = new Set(['+', '=', 'x', 'X', '×', '-']);
const FIXED: Record<string, TileId> = { '0': SOAP, R: RED, G: GREEN, F: FLOWER, N: NORTH, E: EAST, W: WEST, S: SOUTH };
const SUIT_LETTERS: Record<string, Suit> = { B: 0, C: 1, D: 2 };
const MAX_GROUP = 6; // a sextet is the largest group

function parseSymbol(ch: string): CardSymbol | null {
  if (ch >= '1' && ch <= '9') return { kind: 'number', n: ch.charCodeAt(0) - 48 };
  const up = ch.toUpperCase();
  if (up === 'D') return { kind: 'dragon' };
  const tile = FIXED[up];
  return tile === undefined ? null : { kind: 'tile', tile };
}

const symbolKey = (s: CardSymbol): string => (s.kind === 'number' ? String(s.n) : s.kind === 'dragon' ? 'D' : `t${s.tile}`);

function parseAlternative(text: string, line: number, token: string): Alternative {
  let body = text;
  let suitVar = 0;
  let lettered = false;
  const last = body.at(-1) ?? '';
  if ('ABC'.includes(last) && last !== '' && body.length > 1) {
    throw new CardError(
      line,
      token,
      `the suit letter is lower case a, b or c ("${last}" would not mean ${{ A: 'any suit', B: 'Bams', C: 'Craks' }[last]}; to pin a suit, write ${last.toLowerCase()}=B, C or D after ";")`,
    );
  }
  if ('abc'.includes(last) && last !== '' && body.length > 1) {
    suitVar = 'abc'.indexOf(last);
    body = body.slice(0, -1);
    lettered = true;
  }
  if (body === '') throw new CardError(line, token, 'expected tile symbols before the suit letter');
  const symbols: CardSymbol[] = [];
  for (const ch of body) {
    // symbols are upper case: a lower-case letter inside a token is a typo, never guessed (`33ea` is not 3, 3, East)
    if (ch !== ch.toUpperCase()) {
      throw new CardError(line, token, `"${ch}" is not a tile symbol (symbols are 1-9, 0 and upper-case D, R, G, F, N, E, W, S; the only lower-case letter is the suit letter a, b or c, last)`);
    }
    const sym = parseSymbol(ch);
    if (sym === null) {
      throw new CardError(line, token, `unknown symbol "${ch}" (expected 1-9, 0, D, R, G, F, N, E, W, S, then an optional suit letter a, b or c)`);
    }
    symbols.push(sym);
  }
  const suited = symbols.some((s) => s.kind !== 'tile');
  if (lettered && !suited) throw new CardError(line, token, 'a suit letter needs a number or D in the token (winds, flowers, R, G and 0 have no suit)');
  const year = symbols.some((s) => s.kind === 'tile' && s.tile === SOAP) && symbols.some((s) => s.kind === 'number');
  return { text, symbols, suitVar, suited, year };
}

function parseToken(text: string, line: number): PatternToken {
  const alternatives = text.split('|').map((alt) => {
    if (alt === '') throw new CardError(line, text, 'expected an alternative on each side of "|"');
    return parseAlternative(alt, line, text);
  });
  const size = alternatives[0].symbols.length;
  let group = false;
  alternatives.forEach((alt, i) => {
    if (alt.symbols.length !== size) {
      throw new CardError(line, text, `alternatives must have the same length ("${alternatives[0].text}" has ${size} tiles, "${alt.text}" has ${alt.symbols.length})`);
    }
    const same = alt.symbols.every((s) => symbolKey(s) === symbolKey(alt.symbols[0]));
    if (same && size > MAX_GROUP) throw new CardError(line, text, `a group holds at most ${MAX_GROUP} tiles (a sextet)`);
    const isGroup = same && size >= 3;
    if (i === 0) group = isGroup;
    else if (isGroup !== group) throw new CardError(line, text, 'alternatives must all be groups or all be singles');
  });
  return { text, alternatives, size, group };
}

function parseShift(spec: string, line: number, token: string): number[] {
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^(\d)(?:-(\d))?$/.exec(part);
    if (!m) throw new CardError(line, token, 'expected shift=N,N,... or shift=N-M with amounts 0-8');
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) throw new CardError(line, token, `expected a rising range, got ${lo}-${hi}`);
    for (let s = lo; s <= hi; s++) out.add(s);
  }
  return [...out].sort((a, b) => a - b);
}

/** Shifts (-8..8) that keep the shape's numbers in 1..9 for some choice of each token's alternatives; null without numbers. */
function consecShifts(shape: PatternToken[]): number[] | null {
  const inRange = (alt: Alternative, s: number): boolean => alt.year || alt.symbols.every((sym) => sym.kind !== 'number' || (sym.n + s >= 1 && sym.n + s <= 9));
  if (numberRange(shape) === null) return null;
  const out: number[] = [];
  for (let s = -8; s <= 8; s++) if (shape.every((tok) => tok.alternatives.some((alt) => inRange(alt, s)))) out.push(s);
  return out;
}

function numberRange(shape: PatternToken[]): [number, number] | null {
  let lo = 10,
    hi = 0;
  for (const tok of shape)
    for (const alt of tok.alternatives)
      for (const s of alt.year ? [] : alt.symbols) {
        if (s.kind === 'number') {
          lo = Math.min(lo, s.n);
          hi = Math.max(hi, s.n);
        }
      }
  return hi === 0 ? null : [lo, hi];
}

function parseLine(text: string, fileLine: number, section: string, index: number): CardLine {
  const semi = text.indexOf(';');
  if (semi < 0) throw new CardError(fileLine, null, 'expected ";" followed by the options (x or c, and a value)');
  if (text.indexOf(';', semi + 1) >= 0) throw new CardError(fileLine, ';', 'expected one ";" between pattern and options');
  const pattern = text.slice(0, semi).trim();
  const options = text
    .slice(semi + 1)
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');

  // Pattern: tokens, `or` between shapes, decoration ignored.
  const shapes: PatternToken[][] = [[]];
  for (const raw of pattern.split(/\s+/)) {
    if (raw === '' || DECORATION.has(raw)) continue;
    if (raw.toLowerCase() === 'or') {
      if (shapes.at(-1)!.length === 0) throw new CardError(fileLine, raw, 'expected a pattern before "or"');
      shapes.push([]);
      continue;
    }
    shapes.at(-1)!.push(parseToken(raw, fileLine));
  }
  if (shapes.at(-1)!.length === 0) {
    throw new CardError(fileLine, null, shapes.length > 1 ? 'expected a pattern after "or"' : 'expected a pattern of 14 tiles before ";"');
  }
  shapes.forEach((shape, i) => {
    const n = shape.reduce((sum, tok) => sum + tok.size, 0);
    if (n !== 14) {
      const which = shapes.length > 1 ? `shape ${i + 1} of the line` : 'the line';
      throw new CardError(fileLine, null, `${which} holds ${n} tiles; every line holds exactly 14`);
    }
  });

  // Options.
  let concealed: boolean | null = null;
  let value: number | null = null;
  let shifts: number[] | null = null;
  let consec = false;
  let other = false;
  let nojoker = false;
  const pins: (Suit | null)[] = [null, null, null];
  for (const opt of options) {
    const low = opt.toLowerCase();
    if (low === 'x' || low === 'c') {
      if (concealed !== null) throw new CardError(fileLine, opt, 'expected only one of x (exposed) or c (concealed)');
      concealed = low === 'c';
    } else if (/^\d+$/.test(opt)) {
      if (value !== null) throw new CardError(fileLine, opt, `expected one value (already ${value})`);
      value = Number(opt);
      if (value < 1 || value > 1000) throw new CardError(fileLine, opt, 'expected a value from 1 to 1000');
    } else if (low === 'consec') {
      if (consec || shifts || other) throw new CardError(fileLine, opt, 'expected one of consec or shift=, or other, once');
      consec = true;
    } else if (low === 'other') {
      if (consec || shifts || other) throw new CardError(fileLine, opt, 'expected one of consec or shift=, or other, once');
      other = true;
    } else if (low.startsWith('shift=')) {
      if (consec || shifts || other) throw new CardError(fileLine, opt, 'expected one of consec or shift=, or other, once');
      shifts = parseShift(opt.slice(6), fileLine, opt);
    } else if (/^[abc]=[bcd]$/i.test(opt)) {
      const v = 'abc'.indexOf(opt[0].toLowerCase());
      const suit = SUIT_LETTERS[opt[2].toUpperCase()];
      if (pins[v] !== null) throw new CardError(fileLine, opt, `expected suit ${opt[0]} to be pinned once`);
      if (pins.includes(suit)) throw new CardError(fileLine, opt, 'different suit letters are different suits; two cannot be pinned to one suit');
      pins[v] = suit;
    } else if (low === 'nojoker') {
      nojoker = true;
    } else {
      throw new CardError(fileLine, opt, 'unknown option (expected x, c, a value, consec, shift=, other, a=B/C/D, nojoker)');
    }
  }
  if (concealed === null) throw new CardError(fileLine, null, 'expected x (exposed) or c (concealed) after ";"');
  if (value === null) throw new CardError(fileLine, null, 'expected a value after ";"');

  const usedVars = new Set<number>();
  for (const shape of shapes) for (const tok of shape) for (const alt of tok.alternatives) if (alt.suited) usedVars.add(alt.suitVar);
  pins.forEach((p, v) => {
    if (p !== null && !usedVars.has(v)) throw new CardError(fileLine, `${'abc'[v]}=${'BCD'[p]}`, `the pattern has no suit ${'abc'[v]} to pin`);
  });

  // Shifts: consec = every amount keeping all numbers in 1..9; shift= must keep them there.
  const ranges = shapes.map(numberRange);
  if ((consec || shifts || other) && ranges.every((r) => r === null)) {
    throw new CardError(fileLine, consec ? 'consec' : other ? 'other' : 'shift=', 'the pattern has no numbers to shift');
  }
  let allowed: number[];
  let shapeShifts: number[][];
  if (consec) {
    // each shape its own range: one shape (or alternative) spanning 1..9 no longer stops the others shifting
    const perShape = shapes.map(consecShifts);
    shapeShifts = perShape.map((r) => r ?? [0]);
    allowed = [...new Set(perShape.flatMap((r) => r ?? []))].sort((a, b) => a - b);
    if (allowed.length === 1) {
      throw new CardError(fileLine, 'consec', 'the numbers of this line can never shift and stay in 1..9; remove consec, or write the numbers that should move');
    }
  } else if (shifts) {
    for (const s of shifts)
      for (const r of ranges) {
        if (r && r[1] + s > 9) throw new CardError(fileLine, `shift=${s}`, `expected shifts that keep numbers in 1..9 (${r[1]} + ${s} = ${r[1] + s})`);
      }
    allowed = shifts;
    shapeShifts = shapes.map(() => shifts as number[]);
  } else {
    allowed = [0];
    shapeShifts = shapes.map(() => [0]);
  }

  return {
    id: `${section} #${index}`,
    section,
    fileLine,
    pattern,
    shapes,
    concealed,
    value,
    shifts: allowed,
    shapeShifts,
    other,
    pins,
    nojoker,
  };
}

/** Parses a card file. Blank lines and `//` comments are skipped; everything else must be meaningful. */
export function parseCard(text: string): Card {
  let name = '';
  const sections: string[] = [];
  const lines: CardLine[] = [];
  let section: string | null = null;
  let index = 0;
  const ids = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const fileLine = i + 1;
    const comment = raw.indexOf('//');
    const line = (comment >= 0 ? raw.slice(0, comment) : raw).trim();
    if (line === '') return;
    const header = /^card\s*:(.*)$/i.exec(line);
    if (header) {
      if (name !== '') throw new CardError(fileLine, 'card:', 'expected one "card:" header');
      name = header[1].trim();
      if (name === '') throw new CardError(fileLine, 'card:', 'expected a card name after "card:"');
      return;
    }
    if (line.startsWith('[')) {
      const m = /^\[([^\]]+)\]$/.exec(line);
      if (!m || m[1].trim() === '') throw new CardError(fileLine, line, 'expected a section name in brackets, like [2468]');
      const s = m[1].trim();
      if (sections.includes(s)) throw new CardError(fileLine, line, `expected a new section; [${s}] appears earlier`);
      sections.push(s);
      section = s;
      index = 0;
      return;
    }
    if (section === null) throw new CardError(fileLine, null, 'expected a [Section] before the first card line');
    // `#5` at a line's start: the line's own number, as printed on the card; otherwise one more than the line before
    let body = line;
    const numbered = /^#(\S*)\s*/.exec(line);
    if (numbered) {
      if (!/^[1-9]\d{0,2}$/.test(numbered[1])) throw new CardError(fileLine, `#${numbered[1]}`, 'expected a line number from #1 to #999 at the start of the line');
      index = Number(numbered[1]);
      body = line.slice(numbered[0].length);
    } else index++;
    const id = `${section} #${index}`;
    const earlier = ids.get(id);
    if (earlier !== undefined) throw new CardError(fileLine, numbered ? `#${index}` : null, `line ${id} appears earlier (card line ${earlier}); every line of a section needs its own number`);
    ids.set(id, fileLine);
    lines.push(parseLine(body, fileLine, section, index));
  });
  if (lines.length === 0) throw new TilemateError('TM_CARD_EMPTY', 'the card has no lines');
  return { name: name || 'Unnamed card', sections, lines, text };
}
