import { TilemateError } from '../errors.js';

/**
 * Dominoes of the double-12 set (91 tiles) as small ints 0-90: the tile with ends hi >= lo is
 * hi * (hi + 1) / 2 + lo, so 0-0 is 0, 1-0 is 1, 1-1 is 2, ... 12-12 is 90. Names such as
 * `12-5` appear only at the edges; inside, the ends come from the packed tables below.
 */
export type DominoId = number;

export const MAX_PIP = 12;
export const SET_SIZE = ((MAX_PIP + 1) * (MAX_PIP + 2)) / 2; // 91

/** Each tile's ends packed as hi << 4 | lo (both 0-12), and its pip count. */
export const PACKED = new Uint8Array(SET_SIZE);
export const HI = new Uint8Array(SET_SIZE);
export const LO = new Uint8Array(SET_SIZE);
export const PIPS = new Uint8Array(SET_SIZE);
for (let hi = 0; hi <= MAX_PIP; hi++) {
  for (let lo = 0; lo <= hi; lo++) {
    const id = (hi * (hi + 1)) / 2 + lo;
    PACKED[id] = (hi << 4) | lo;
    HI[id] = hi;
    LO[id] = lo;
    PIPS[id] = hi + lo;
  }
}

export const dominoId = (a: number, b: number): DominoId => (a >= b ? (a * (a + 1)) / 2 + b : (b * (b + 1)) / 2 + a);
export const doubleOf = (pip: number): DominoId => dominoId(pip, pip);
export const isDouble = (t: DominoId): boolean => HI[t] === LO[t];
export const hasEnd = (t: DominoId, pip: number): boolean => HI[t] === pip || LO[t] === pip;
/** The end left open when t is laid against `pip` (t must have that end). */
export const otherEnd = (t: DominoId, pip: number): number => (HI[t] === pip ? LO[t] : HI[t]);

export const dominoName = (t: DominoId): string => `${HI[t]}-${LO[t]}`;
export const formatDominoes = (ts: readonly DominoId[]): string => ts.map(dominoName).join(' ');

/** The whole set, 0-90. */
export const fullDominoSet = (): DominoId[] => Array.from({ length: SET_SIZE }, (_, i) => i);

/** `12-5`, `5-12`, `5|12`, `5/12`, `5:12`: either order. */
export function parseDomino(token: string): DominoId {
  const m = /^\s*(\d{1,2})\s*[-|/:]\s*(\d{1,2})\s*$/.exec(token);
  if (!m) throw new TilemateError('TM_BAD_TILE', `"${token}" is not a domino: write its two ends, e.g. 12-5`);
  const a = Number(m[1]),
    b = Number(m[2]);
  if (a > MAX_PIP || b > MAX_PIP) throw new TilemateError('TM_BAD_TILE', `"${token}" is not in the double-12 set (ends 0 to 12)`);
  return dominoId(a, b);
}

/** A list of dominoes separated by spaces or commas; each at most once (the set holds one of each). */
export function parseDominoes(text: string): DominoId[] {
  const tokens = text.split(/[\s,]+/).filter((x) => x !== '');
  const out: DominoId[] = [];
  const seen = new Set<number>();
  for (const tok of tokens) {
    const t = parseDomino(tok);
    if (seen.has(t)) throw new TilemateError('TM_DUPLICATE_TILE', `${dominoName(t)} is given twice; the double-12 set holds one of each domino`);
    seen.add(t);
    out.push(t);
  }
  return out;
}
