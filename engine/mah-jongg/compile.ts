import { CardError, type Alternative, type Card, type CardLine, type PatternToken } from './card.js';
import { COPIES, dragonOf, FLOWER, GREEN, isSuited, JOKER, KINDS, rankOf, RED, SOAP, suited, suitOf, SUITS, tileName, type TileId } from './tiles.js';

/**
 * Every concrete form of every card line (each shape, each choice among a token's
 * alternatives, each assignment of distinct suits to the suit variables, each allowed
 * shift), precomputed once per card into flat typed arrays so the analyzer's inner loop
 * reads nothing but small integers.
 *
 * A form is stored as its distinct tile kinds, those that singles or pairs use first:
 *   kind[i]   the tile kind
 *   need[i]   copies the form holds in all (singles, pairs and groups)
 *   single[i] copies held as singles or pairs (jokers never fill these)
 * and separately its groups (kind, size) for matching exposures.
 */
export interface CompiledCard {
  card: Card;
  lineCount: number;
  formCount: number;
  /** Forms of line l are lineStart[l] .. lineStart[l+1]-1. */
  lineStart: Uint32Array;
  formLine: Uint32Array;
  /** 1 when jokers may be used in the line (no `nojoker`). */
  lineJokers: Uint8Array;
  /** Entries of form f are entryStart[f] .. entryStart[f+1]-1; the first singleCount[f] have single > 0. */
  entryStart: Uint32Array;
  singleCount: Uint8Array;
  entryKind: Uint8Array;
  entryNeed: Uint8Array;
  entrySingle: Uint8Array;
  /** Tiles each form holds as singles or pairs, in all. */
  formSingles: Uint8Array;
  /**
   * The same entries turned around, for the fast core: for each tile kind t, the forms that
   * hold it are postForm[postStart[t] .. postStart[t+1]-1], each with postCode = need | single << 4.
   * A hand touches only the postings of the kinds it holds.
   */
  postStart: Uint32Array;
  postForm: Uint32Array;
  postCode: Uint8Array;
  /** Scratch space of the fast core, one slot per form. */
  work: Uint16Array;
  /** Groups of form f are groupStart[f] .. groupStart[f+1]-1. */
  groupStart: Uint32Array;
  groupKind: Uint8Array;
  groupSize: Uint8Array;
  /** All zeros, one per form: the dead-form flags when nothing is dead. */
  noPenalty: Uint8Array;
  /** The form as a player reads it, e.g. "222B 4444B 666C 8888C", "NEWS RRR 2026B". */
  formText: string[];
}

export interface Form {
  singles: number[]; // per kind
  groups: number[]; // per kind, tiles held in groups
  groupList: [TileId, number][];
  text: string;
}

/** All assignments of distinct suits to the variables used, honouring pins. */
function suitAssignments(used: number[], pins: (number | null)[]): number[][] {
  const out: number[][] = [];
  const assign = new Array<number>(3).fill(-1);
  const rec = (i: number): void => {
    if (i === used.length) {
      out.push([...assign]);
      return;
    }
    const v = used[i];
    for (let s = 0; s < 3; s++) {
      if (pins[v] !== null && pins[v] !== s) continue;
      if (used.some((w, j) => j < i && assign[w] === s)) continue;
      // a suit pinned to another variable is not free for this one
      if (pins.some((p, w) => p === s && w !== v && used.includes(w))) continue;
      assign[v] = s;
      rec(i + 1);
    }
    assign[v] = -1;
  };
  rec(0);
  return out;
}

function* product<T>(lists: T[][]): Generator<T[]> {
  const idx = new Array<number>(lists.length).fill(0);
  for (;;) {
    yield lists.map((l, i) => l[idx[i]]);
    let k = lists.length - 1;
    while (k >= 0 && ++idx[k] === lists[k].length) idx[k--] = 0;
    if (k < 0) return;
  }
}

/** The different numbers a shape prints, but a year's: what `other` gives a number each. */
function printedNumbers(shape: PatternToken[]): number[] {
  const out = new Set<number>();
  for (const tok of shape) for (const alt of tok.alternatives) if (!alt.year) for (const s of alt.symbols) if (s.kind === 'number') out.add(s.n);
  return [...out].sort((a, b) => a - b);
}

/**
 * Each way the numbers of a shape may be read, as a table from the printed number to the
 * number played: the line's shifts (the printed number plus the shift), or with `other` every
 * way of giving each different printed number a different number 1..9.
 */
function numberings(line: CardLine, shape: PatternToken[]): number[][] {
  if (!line.other) return line.shifts.map((shift) => Array.from({ length: 10 }, (_, n) => n + shift));
  const printed = printedNumbers(shape);
  const out: number[][] = [];
  const table = Array.from({ length: 10 }, (_, n) => n);
  const rec = (k: number, taken: number): void => {
    if (k === printed.length) {
      out.push([...table]);
      return;
    }
    for (let n = 1; n <= 9; n++) {
      if (taken & (1 << n)) continue;
      table[printed[k]] = n;
      rec(k + 1, taken | (1 << n));
    }
  };
  rec(0, 0);
  return out;
}

/** How many numberings a shape has, without making them: 9 x 8 x ... for `other`'s different numbers. */
function numberingCount(line: CardLine, shape: PatternToken[]): number {
  if (!line.other) return line.shifts.length;
  let n = 1;
  for (let k = 0; k < printedNumbers(shape).length; k++) n *= 9 - k;
  return n;
}

function formsOfShape(line: CardLine, shape: PatternToken[]): Form[] {
  const used = [...new Set(shape.flatMap((t) => t.alternatives.filter((a) => a.suited).map((a) => a.suitVar)))].sort();
  const forms: Form[] = [];
  const tables = numberings(line, shape);
  for (const choice of product(shape.map(distinctAlternatives))) {
    for (const suits of suitAssignments(used, line.pins)) {
      for (const numbering of tables) {
        const singles = new Array<number>(KINDS).fill(0);
        const groups = new Array<number>(KINDS).fill(0);
        const groupList: [TileId, number][] = [];
        const words: string[] = [];
        let ok = true;
        choice.forEach((alt, i) => {
          const tok = shape[i];
          const tiles = alt.symbols.map((s) => {
            if (s.kind === 'tile') return s.tile;
            const suit = suits[alt.suitVar];
            if (s.kind === 'dragon') return dragonOf(suit);
            const n = alt.year ? s.n : numbering[s.n]; // a year never moves (card.ts Alternative.year)
            if (n < 1 || n > 9) ok = false;
            return suited(suit, Math.min(9, Math.max(1, n)));
          });
          for (const t of tiles) (tok.group ? groups : singles)[t]++;
          if (tok.group) groupList.push([tiles[0], tiles.length]);
          words.push(concreteToken(tiles));
        });
        if (ok) forms.push({ singles, groups, groupList, text: words.join(' ') });
      }
    }
  }
  return forms;
}

/**
 * The most concrete forms a card may compile to, counted before anything is enumerated
 * (checkFormCounts): a line's forms multiply (alternatives x suit assignments x shifts), so
 * a short line can ask for millions. The practice card's largest line has 216 forms, its
 * whole 711; a published card has a few hundred lines' worth at most.
 */
export interface FormLimits {
  perLine: number;
  perCard: number;
}
export const FORM_LIMITS: FormLimits = { perLine: 5_000, perCard: 20_000 };

/** A token's alternatives with repeats (the same tiles in the same suit) counted once. */
function distinctAlternatives(tok: PatternToken): Alternative[] {
  const seen = new Set<string>();
  return tok.alternatives.filter((alt) => {
    const key = `${alt.suited ? alt.suitVar : '-'}:${alt.symbols.map((s) => (s.kind === 'number' ? s.n : s.kind === 'dragon' ? 'D' : `t${s.tile}`)).join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * How many forms the enumeration of a line visits, from the parsed line alone: per shape,
 * the product of each token's distinct alternatives, the suit assignments and the shifts.
 * An upper bound of lineForms(line).length (forms equal as tiles count once there).
 */
export function countLineForms(line: CardLine): number {
  let n = 0;
  for (const shape of line.shapes) {
    const used = [...new Set(shape.flatMap((t) => t.alternatives.filter((a) => a.suited).map((a) => a.suitVar)))].sort();
    let p = suitAssignments(used, line.pins).length * numberingCount(line, shape);
    for (const tok of shape) p *= distinctAlternatives(tok).length;
    n += p;
  }
  return n;
}

/** Refuses a card whose lines would compile to more forms than the limits, naming the first line over. */
export function checkFormCounts(card: Card, limits: FormLimits = FORM_LIMITS): void {
  let total = 0;
  for (const line of card.lines) {
    const n = countLineForms(line);
    const many = n > 1e9 ? 'more than a billion' : n.toLocaleString('en-US');
    if (n > limits.perLine) {
      throw new CardError(line.fileLine, null, `${line.id} makes ${many} concrete forms (alternatives x suits x shifts); a line may make at most ${limits.perLine.toLocaleString('en-US')}`);
    }
    total += n;
    if (total > limits.perCard) {
      throw new CardError(line.fileLine, null, `with ${line.id} the card makes more than ${limits.perCard.toLocaleString('en-US')} concrete forms in all, the most a card may make`);
    }
  }
}

const HONOUR_SYMBOLS: Record<number, string> = { [GREEN]: 'G', [RED]: 'R', [SOAP]: '0', [FLOWER]: 'F' };

/** A token with its suit settled, in the card's own notation: `2026B`, `RRRR`, `NEWS`, `FF`. */
function concreteToken(tiles: TileId[]): string {
  let suit = '';
  const symbols = tiles.map((t) => {
    if (isSuited(t)) {
      suit = SUITS[suitOf(t)];
      return String(rankOf(t));
    }
    return HONOUR_SYMBOLS[t] ?? tileName(t);
  });
  return symbols.join('') + suit;
}

function formKey(f: Form): string {
  const gl = f.groupList
    .map(([k, n]) => `${k}:${n}`)
    .sort()
    .join(',');
  return `${f.singles.join('')}|${f.groups.join(',')}|${gl}`;
}

/** What keeps a form from being made with one set's tiles: a tile its singles and pairs need more of than the set has, a tile it needs more of than the set and its jokers hold, or more jokers in all. */
export type Shortfall = { kind: 'singles'; tile: TileId; need: number } | { kind: 'tile'; tile: TileId; need: number; jokers: number } | { kind: 'jokers'; need: number; jokers: number };

/**
 * Whether a form can be made with the tiles of one set (4 of each tile, 8 flowers, 8 jokers:
 * tiles.ts COPIES), or what it lacks. Jokers fill pungs, kongs, quints and sextets, even
 * wholly, never a single or a pair (teaching guide Part 5.6; senior games rules 9), and none
 * fills a `nojoker` line: so its singles and pairs need natural tiles, and its groups the
 * natural tiles left and at most the set's jokers.
 */
export function formShortfall(form: Form, jokersAllowed: boolean): Shortfall | null {
  const jokers = jokersAllowed ? COPIES[JOKER] : 0;
  let lacking = 0;
  let worst: { tile: TileId; need: number } | null = null;
  for (let t = 0; t < KINDS; t++) {
    if (form.singles[t] > COPIES[t]) return { kind: 'singles', tile: t, need: form.singles[t] };
    const need = form.singles[t] + form.groups[t];
    if (need > COPIES[t]) {
      lacking += need - COPIES[t];
      if (worst === null || need - COPIES[t] > worst.need - COPIES[worst.tile]) worst = { tile: t, need };
    }
  }
  if (lacking <= jokers) return null;
  return worst !== null && worst.need - COPIES[worst.tile] > jokers ? { kind: 'tile', ...worst, jokers } : { kind: 'jokers', need: lacking, jokers };
}

/** Distinct concrete forms of one line (forms equal as tiles, singles and groups count once). */
export function lineForms(line: CardLine): Form[] {
  const seen = new Set<string>();
  const out: Form[] = [];
  for (const shape of line.shapes) {
    for (const f of formsOfShape(line, shape)) {
      const key = formKey(f);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(f);
      }
    }
  }
  return out;
}

export function compileCard(card: Card, limits: FormLimits = FORM_LIMITS): CompiledCard {
  checkFormCounts(card, limits);
  const all = card.lines.map(lineForms);
  const formCount = all.reduce((n, fs) => n + fs.length, 0);
  let entries = 0,
    groups = 0;
  for (const fs of all)
    for (const f of fs) {
      for (let t = 0; t < KINDS; t++) if (f.singles[t] + f.groups[t] > 0) entries++;
      groups += f.groupList.length;
    }
  const c: CompiledCard = {
    card,
    lineCount: card.lines.length,
    formCount,
    lineStart: new Uint32Array(card.lines.length + 1),
    formLine: new Uint32Array(formCount),
    lineJokers: Uint8Array.from(card.lines, (l) => (l.nojoker ? 0 : 1)),
    entryStart: new Uint32Array(formCount + 1),
    singleCount: new Uint8Array(formCount),
    entryKind: new Uint8Array(entries),
    entryNeed: new Uint8Array(entries),
    entrySingle: new Uint8Array(entries),
    formSingles: new Uint8Array(formCount),
    postStart: new Uint32Array(KINDS + 1),
    postForm: new Uint32Array(entries),
    postCode: new Uint8Array(entries),
    work: new Uint16Array(formCount),
    groupStart: new Uint32Array(formCount + 1),
    groupKind: new Uint8Array(groups),
    groupSize: new Uint8Array(groups),
    formText: [],
    noPenalty: new Uint8Array(formCount),
  };
  let f = 0,
    e = 0,
    g = 0;
  all.forEach((fs, l) => {
    c.lineStart[l] = f;
    for (const form of fs) {
      c.formLine[f] = l;
      c.entryStart[f] = e;
      const kinds = [];
      for (let t = 0; t < KINDS; t++) if (form.singles[t] + form.groups[t] > 0) kinds.push(t);
      kinds.sort((a, b) => Number(form.singles[b] > 0) - Number(form.singles[a] > 0) || a - b);
      for (const t of kinds) {
        c.entryKind[e] = t;
        c.entryNeed[e] = form.singles[t] + form.groups[t];
        c.entrySingle[e] = form.singles[t];
        c.formSingles[f] += form.singles[t];
        if (form.singles[t] > 0) c.singleCount[f]++;
        e++;
      }
      c.groupStart[f] = g;
      for (const [k, n] of form.groupList) {
        c.groupKind[g] = k;
        c.groupSize[g] = n;
        g++;
      }
      c.formText.push(form.text);
      f++;
    }
  });
  c.lineStart[card.lines.length] = f;

  c.entryStart[f] = e;
  c.groupStart[f] = g;
  // Postings: the entries turned around, kind by kind.
  for (let i = 0; i < entries; i++) c.postStart[c.entryKind[i] + 1]++;
  for (let t = 0; t < KINDS; t++) c.postStart[t + 1] += c.postStart[t];
  const next = c.postStart.slice(0, KINDS);
  for (let form = 0; form < formCount; form++) {
    for (let i = c.entryStart[form]; i < c.entryStart[form + 1]; i++) {
      const p = next[c.entryKind[i]]++;
      c.postForm[p] = form;
      c.postCode[p] = c.entryNeed[i] | (c.entrySingle[i] << 4);
    }
  }
  return c;
}
