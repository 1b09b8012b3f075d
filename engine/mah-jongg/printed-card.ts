import { CardError, parseCard, type Card, type CardLine, type PatternToken } from './card.js';
import { checkFormCounts, countLineForms, FORM_LIMITS, formShortfall, lineForms, type Shortfall } from './compile.js';
import { FLOWER, GREEN, isSuited, NORTH, RED, rankOf, SOAP, suitOf, type TileId } from './tiles.js';
import { TilemateError } from '../errors.js';

/**
 * A card as the player holds it (STYLE.md, "A card as the player holds it"): each line its
 * groups as printed (`FF`, `2026`, `2222`, `NEWS`, `DDDD`), each group in the colour the card
 * prints it (one colour, one suit; winds, flowers and Soap have none), the line's note as
 * printed ("Any 3 Suits", "These Nos. Only"), X or C and the value, under the card's section
 * headings. This is the editor's model; the notation of card-notation.md is what it writes
 * underneath, and a notation card reads back into it (the two round-trip).
 *
 * Nothing is guessed (card-notation.md: "Nothing is guessed"). What the printed line and its
 * note do not settle (the suits of uncoloured groups, whether the numbers may move, which
 * dragon an uncoloured D is, note words Tilemate does not know) becomes one plain question
 * with the answers that settle it; the line is written in the notation only once nothing is
 * left open. Every line is read on its own, so one bad line never hides another, and the
 * lines that are settled make a usable card while the others wait as drafts.
 */

/** The three colours a card prints its suits in. Colours are suits, not particular suits: green, red and blue are any three different suits. */
export type Colour = 'green' | 'red' | 'blue';
export const COLOURS: readonly Colour[] = ['green', 'red', 'blue'];
/** The notation's suit variable for each colour (card-notation.md: "the colour on the printed card"). */
const SUIT_VAR: Record<Colour, string> = { green: 'a', red: 'b', blue: 'c' };
const COLOUR_OF_VAR: readonly Colour[] = ['green', 'red', 'blue'];

export type SuitName = 'B' | 'C' | 'D';
const SUIT_WORDS: Record<SuitName, string> = { B: 'Bams', C: 'Craks', D: 'Dots' };

export interface PrintedGroup {
  /**
   * The tiles as printed, upper case and without a suit: `FF`, `2026`, `2222`, `NEWS`, `DDD`.
   * Alternatives are joined by `|` (`NNN|EEE|WWW|SSS`, "any wind"). `+`, `=`, `x` and `-` are
   * the card's decoration between groups; `OR` separates two ways of making the line.
   */
  text: string;
  /** The colour it is printed in; null for winds, flowers and Soap, or while not chosen. */
  colour: Colour | null;
}

/** What the printed words leave open, once the player has answered. */
export interface LineAnswers {
  /**
   * The numbers: only as printed, moving up or down together ("consec"), by exactly these
   * amounts, or each different number any number, different from the others ("other": "any
   * number, any other number").
   */
  numbers?: 'fixed' | 'consec' | 'other' | number[];
  /** A colour pinned to one suit ("Bams only"). */
  pins?: Partial<Record<Colour, SuitName>>;
  /** No jokers anywhere in this line. */
  nojoker?: boolean;
  /** Note words Tilemate does not know, that the player answered (what they mean is in the answers and groups; kept while the note keeps them). */
  remark?: string;
}

export interface PrintedLine {
  /** The line's printed number, when the card (or the notation's `#n`) gives one. */
  number?: number;
  groups: PrintedGroup[];
  /** The note as printed, e.g. "Any 3 Suits", "Any Like Nos.", "These Nos. Only". */
  note: string;
  /** C (true) or X (false); null while not chosen. */
  concealed: boolean | null;
  value: number | null;
  answers?: LineAnswers;
  /** Why a photo's reading of this line may be wrong (set by the photo import, for the player to check). */
  unsure?: string;
}

export interface PrintedSection {
  title: string;
  /** The section's answer for its lines whose note says nothing of their numbers. */
  numbers?: 'fixed' | 'consec';
  lines: PrintedLine[];
}

export interface PrintedCard {
  name: string;
  sections: PrintedSection[];
}

/** A change that answers a question: new colours for some groups, answers for the line, or an answer for its section. */
export interface LinePatch {
  colours?: { group: number; colour: Colour }[];
  /** Group texts to replace (e.g. `DDD` by `RRR|GGG|000`, "any dragon"). */
  texts?: { group: number; text: string }[];
  answers?: LineAnswers;
  section?: { numbers: 'fixed' | 'consec' };
}

export interface Question {
  /** What it asks about: 'suits', 'numbers', 'dragon', 'note'. */
  about: 'suits' | 'numbers' | 'dragon' | 'note';
  /** One plain question, in the card's own terms. */
  text: string;
  /** The answers that settle it; a question may also be settled by tapping colours or mending the note. */
  options: { label: string; patch: LinePatch }[];
}

export interface LineReading {
  section: string;
  /** The line's id as the analyzer names it, `2468 #3`. */
  id: string;
  /** The line in the notation, once nothing is open; null while a question or a problem remains. */
  notation: string | null;
  questions: Question[];
  /** What is wrong with the line as entered, each one plain sentence. */
  problems: string[];
  /** What Tilemate understood of the note and the colours, one sentence each. */
  understood: string[];
  /** The groups as they will be played: colours settled by the note included. */
  groups: PrintedGroup[];
  /** Ways the line can be made (its concrete forms), once it compiles. */
  forms: number;
}

export interface CardReading {
  name: string;
  /** The card in the notation: every settled line; each unsettled line kept as a `// draft:` comment. */
  text: string;
  lines: LineReading[];
  /** Lines settled and usable. */
  ready: number;
}

/**
 * Bounds on what one printed card may ask of the reader (routes/cards.ts takes no more). The work
 * a line asks for is bounded by its ways of making it (compile.ts FORM_LIMITS), so its groups
 * are bounded only to keep a request small: a line of several ways joined by "or", as a notation
 * line reads back (up to 14 groups a way), holds more than a printed row (issue 62: a line of
 * eight ways drawn as Tilemate prints it had 31 groups, refused at 24).
 */
export const PRINTED_LIMITS = { sections: 40, lines: 200, groups: 64, groupChars: 40, noteChars: 200, nameChars: 80 } as const;

// ------------------------------------------------------------------ groups

const TILE_CHARS = new Set('1234567890NEWSFDRG');
const DECORATION = new Set(['+', '=', 'x', 'X', '×', '-']);

/** A line typed as printed ("FF 2026 2222 2222", "ff 2026, 2222") split into its groups, uncoloured. */
export function groupsFromText(text: string): PrintedGroup[] {
  return text
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map((t) => {
      // "NNN/SSS" as a card may print two choices of one group: the notation's NNN|SSS
      const up = DECORATION.has(t) ? t : t.toUpperCase().replace(/(?<=.)\/(?=.)/g, '|');
      return { text: up === 'X' ? 'x' : up, colour: null };
    });
}

const isDecoration = (g: PrintedGroup): boolean => DECORATION.has(g.text);
const isOr = (g: PrintedGroup): boolean => g.text.toUpperCase() === 'OR';

/** A group's alternatives, each its symbols and an optional suit letter of its own (the notation's, kept on a round trip). */
function alternativesOf(text: string): { body: string; letter: string | null }[] {
  // `|` in the model; `/` as a card draws it (asPrinted)
  return text.split(/[|/]/).map((alt) => {
    const last = alt.at(-1) ?? '';
    return alt.length > 1 && 'abc'.includes(last) ? { body: alt.slice(0, -1), letter: last } : { body: alt, letter: null };
  });
}

/** A group whose tiles take a suit: it holds a number or a D (Soap as zero, winds, flowers, R and G have none). */
export function isSuitedGroup(g: PrintedGroup): boolean {
  return !isDecoration(g) && !isOr(g) && alternativesOf(g.text).some((a) => /[1-9D]/.test(a.body));
}

const isDragonGroup = (g: PrintedGroup): boolean => /^D+$/.test(g.text);
/** The tiles of a group joined by `|` as the notation writes them (a card draws `/`). */
const modelText = (text: string): string => text.replace(/(?<=.)\/(?=.)/g, '|');
const isWindGroup = (g: PrintedGroup): boolean => /^(N+|E+|W+|S+)$/.test(g.text);

function listWords(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

// ------------------------------------------------------------------ the note

/** What a note (or a part of it) settles. */
interface NoteMeaning {
  suits?: number;
  /** "Any 1 or 3 Suits": the line as coloured, or all of it in one suit. */
  oneOr?: number;
  numbers?: 'fixed' | 'consec' | 'other';
  /** "Any No.": any number; like numbers if the line prints one number, else asked. */
  anyNumber?: boolean;
  /** "Any 3 Consec. Nos.": how many different numbers the line holds. */
  distinct?: number;
  anyWind?: boolean;
  anyDragon?: boolean;
  only?: SuitName;
  nojoker?: boolean;
  /** "Matching Dragons": a check, not a change. */
  matching?: boolean;
  /** "Nos. also +2, +4": the numbers as printed or shifted by exactly these amounts. */
  shifts?: number[];
  /** "Green Craks": one colour pinned to a suit. */
  pin?: [Colour, SuitName];
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const num = (s: string): number => NUMBER_WORDS[s] ?? Number(s);
const N = '(\\d|one|two|three|four|five|six|seven)';

/**
 * The card's own phrases, as its notes print them (the editor offers them to choose), each
 * with what it settles and the sentence that says so. Read case-blind, with the card's
 * abbreviations ("Nos.", "Consec.", "w/") spelt out first.
 */
const PHRASES: { re: RegExp; mean: (m: RegExpExecArray) => NoteMeaning; words: (m: RegExpExecArray) => string }[] = [
  { re: new RegExp(`\\bany ${N} or ${N} suits?\\b`), mean: (m) => ({ oneOr: num(m[2]) }), words: (m) => `Any ${num(m[1])} or ${num(m[2])} Suits: the line as coloured, or all of it in one suit.` },
  {
    re: new RegExp(`\\bany ${N} suits?\\b`),
    mean: (m) => ({ suits: num(m[1]) }),
    words: (m) => (num(m[1]) === 1 ? 'Any 1 Suit: every coloured group is in the same suit, any suit.' : `Any ${num(m[1])} Suits: the colours are ${num(m[1])} different suits, any ones.`),
  },
  {
    re: new RegExp(`\\bany numbers?,? (and |with )?any (other|different) numbers?\\b|\\bany (${N} )?(other|different) numbers?\\b|\\b(${N} )?different numbers\\b`),
    mean: () => ({ numbers: 'other' }),
    words: () => 'Any Other No.: each different number printed may be any number, and different numbers stay different.',
  },
  {
    re: /\bany like numbers\b|\blike numbers\b|\bsame numbers?\b|\bmatching numbers\b/,
    mean: () => ({ numbers: 'consec' }),
    words: () => 'Any Like Nos.: the numbers may be any number, the same in every group.',
  },
  {
    re: new RegExp(`\\bany ${N} consecutive numbers\\b`),
    mean: (m) => ({ numbers: 'consec', distinct: num(m[1]) }),
    words: (m) => `Any ${num(m[1])} Consec. Nos.: any ${num(m[1])} numbers in a row; they move up or down together.`,
  },
  {
    re: /\bany consecutive( numbers| run)?\b|\bconsecutive( numbers| run)?\b|\bany run\b/,
    mean: () => ({ numbers: 'consec' }),
    words: () => 'Consecutive: the numbers may move up or down together, keeping their spacing.',
  },
  { re: /\bany numbers?\b/, mean: () => ({ anyNumber: true }), words: () => 'Any No.: the number may be any number.' },
  { re: /\bthese numbers only\b|\bnumbers as printed\b|\bonly these numbers\b/, mean: () => ({ numbers: 'fixed' }), words: () => 'These Nos. Only: only the numbers printed.' },
  {
    re: /\bnumbers also ((\+\d\s?)+)/,
    mean: (m) => ({
      shifts: [
        0,
        ...m[1]
          .trim()
          .split(/\s+/)
          .map((t) => Number(t.slice(1))),
      ],
    }),
    words: (m) => `Nos. also ${m[1].trim().split(/\s+/).join(', ')}: the numbers as printed, or all of them that much higher.`,
  },
  {
    re: /\b(green|red|blue) (in )?(bams?|craks?|dots?)\b/,
    mean: (m) => ({ pin: [m[1] as Colour, m[3][0].toUpperCase() as SuitName] }),
    words: (m) => `${m[1][0].toUpperCase()}${m[1].slice(1)} ${SUIT_WORDS[m[3][0].toUpperCase() as SuitName]}: the ${m[1]} groups are ${SUIT_WORDS[m[3][0].toUpperCase() as SuitName]}.`,
  },
  { re: /\bany winds?\b/, mean: () => ({ anyWind: true }), words: () => 'Any Wind: a group of one wind may be of any wind.' },
  { re: /\bany dragons?\b/, mean: () => ({ anyDragon: true }), words: () => 'Any Dragon: a dragon group printed without a colour may be of any dragon.' },
  { re: /\bmatching dragons?\b|\bdragons? (to )?match\b/, mean: () => ({ matching: true }), words: () => 'Matching Dragons: each dragon goes with the suit of its colour.' },
  { re: /\b(bams?|bamboos?)( only)?\b/, mean: () => ({ only: 'B' }), words: () => 'Bams only: the line is in Bams.' },
  { re: /\b(craks?|cracks?|characters?)( only)?\b/, mean: () => ({ only: 'C' }), words: () => 'Craks only: the line is in Craks.' },
  { re: /\b(dots?|circles?)( only)?\b/, mean: () => ({ only: 'D' }), words: () => 'Dots only: the line is in Dots.' },
  { re: /\bno jokers?\b|\bjokerless\b|\bwithout jokers?\b/, mean: () => ({ nojoker: true }), words: () => 'No jokers: no joker may be used anywhere in this line.' },
];

/** The phrases the editor offers to choose, as a card prints them. */
export const NOTE_PHRASES: readonly string[] = [
  'Any 1 Suit',
  'Any 2 Suits',
  'Any 3 Suits',
  'Any 1 or 2 Suits',
  'Any 1 or 3 Suits',
  'Any Like Nos.',
  'Any No., Any Other No.',
  'Any 3 Consec. Nos.',
  'Any 4 Consec. Nos.',
  'Any 5 Consec. Nos.',
  'Any Consec. Nos.',
  'These Nos. Only',
  'Any Wind',
  'Any Dragon',
  'Matching Dragons',
  'Bams Only',
  'Craks Only',
  'Dots Only',
  'Green Bams',
  'Red Craks',
  'Blue Dots',
  'Nos. also +2, +4',
  'No Jokers',
];

function normalizeNote(note: string): string {
  return ` ${note
    .toLowerCase()
    .replace(/\bw\//g, 'with ')
    .replace(/&/g, ' and ')
    .replace(/\bnos\b\.?|\bnumbers?\b|#s\b|\bno\.(?=\s*($|[,;)]))/g, 'numbers')
    .replace(/\bconsec\b\.?|\bconsecutive\b/g, 'consecutive')
    .replace(/[.,;:()!]/g, ' ')
    .replace(/\s+/g, ' ')} `;
}

/** Words that carry no meaning of their own in a note. */
const FILLER = new Set(['and', 'in', 'of', 'or', 'with', 'the', 'a', 'note', 'only', 'suit', 'suits', 'any']);

export interface NoteReading {
  meaning: NoteMeaning;
  understood: string[];
  unknown: string;
}

/** A note read into what it settles, the sentences that say so, and the words Tilemate does not know. */
export function readNote(note: string): NoteReading {
  let rest = normalizeNote(note.slice(0, PRINTED_LIMITS.noteChars));
  const meaning: NoteMeaning = {};
  const understood: string[] = [];
  for (const p of PHRASES) {
    for (;;) {
      const m = p.re.exec(rest);
      if (!m) break;
      const mean = p.mean(m);
      Object.assign(meaning, mean);
      const words = p.words(m);
      if (!understood.includes(words)) understood.push(words);
      rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`;
    }
  }
  const unknown = rest.split(' ').filter((w) => w !== '' && !FILLER.has(w)).length === 0 ? '' : rest.trim().replace(/\s+/g, ' ');
  return { meaning, understood, unknown };
}

// ------------------------------------------------------------------ reading a line

interface Settled {
  groups: PrintedGroup[];
  ways: Way[];
  /** The second shape for "Any 1 or 3 Suits". */
  oneSuitToo: boolean;
  numbers: 'fixed' | 'consec' | 'other' | number[];
  pins: Partial<Record<Colour, SuitName>>;
  nojoker: boolean;
}

function problemWordsForSymbols(groups: PrintedGroup[]): string[] {
  const problems: string[] = [];
  for (const g of groups) {
    if (isDecoration(g) || isOr(g)) continue;
    if (g.text.length > PRINTED_LIMITS.groupChars) {
      problems.push(`The group "${g.text.slice(0, 12)}…" is too long for a group on a card.`);
      continue;
    }
    const alts = alternativesOf(g.text);
    for (const { body } of alts) {
      if (body === '') {
        problems.push(`The group "${g.text}" has an empty choice beside "|".`);
        continue;
      }
      const bad = [...body].find((c) => !TILE_CHARS.has(c));
      if (bad !== undefined) problems.push(`"${bad}" in "${g.text}" is not a tile on a card (the tiles are 1 to 9, 0 for Soap, N, E, W, S, F, D, and R or G for a red or green dragon).`);
      else if ([...body].every((c) => c === body[0]) && body.length > 6) problems.push(`"${g.text}" holds ${body.length} of one tile; a group holds at most 6.`);
    }
    if (alts.some((a) => a.body.length !== alts[0].body.length)) problems.push(`The choices in "${g.text}" must have the same number of tiles.`);
  }
  return problems;
}

/**
 * One way of making a line: its slots in order, each the groups it may be made of (one group,
 * or the groups a printed "or" chooses between: `2222 or 6666` is either one). Decoration
 * (`+`, `=`) stands as a slot of its own, holding no tiles.
 */
type Way = number[][];

const tilesOf = (g: PrintedGroup): number => (isDecoration(g) || isOr(g) ? 0 : alternativesOf(g.text)[0].body.length);

/**
 * The ways of making a line as a printed card uses "or" (issue 62): between two whole lines of
 * 14 tiles each, the one or the other (card-notation.md, "Alternative shapes of one line");
 * between two groups of the same size, either group (`2026 DDD 2222 or 6666 DDD`, a chain
 * `2222 or 4444 or 6666` any one of them); between two runs of groups, the run before it or the
 * run after it, each as many tiles as makes the line 14 (the runs are then found by counting).
 * A reading that makes no 14-tile line is a problem, never guessed.
 */
function waysOf(groups: PrintedGroup[]): { ways: Way[]; problem: string | null } {
  const segs: number[][] = [[]];
  groups.forEach((g, i) => {
    if (isOr(g)) segs.push([]);
    else segs.at(-1)!.push(i);
  });
  const single = (seg: number[]): Way => seg.map((i) => [i]);
  const sum = (seg: number[]): number => seg.reduce((n, i) => n + tilesOf(groups[i]), 0);
  const real = (seg: number[]): number[] => seg.filter((i) => !isDecoration(groups[i]));
  if (segs.length === 1) return { ways: [single(segs[0])], problem: null };
  if (segs.some((s) => real(s).length === 0)) return { ways: segs.filter((s) => real(s).length > 0).map(single), problem: '"or" needs a group on each side of it.' };
  // whole ways, each of 14 tiles
  if (segs.every((s) => sum(s) === 14)) return { ways: segs.map(single), problem: null };
  // "or" between two groups: either of them
  const slots: Way = [];
  let chain = true;
  segs.forEach((s, k) =>
    s.forEach((i, j) => {
      if (k > 0 && j === 0) {
        const before = slots.at(-1)!;
        if (isDecoration(groups[i]) || isDecoration(groups[before[0]]) || tilesOf(groups[i]) !== tilesOf(groups[before[0]])) chain = false;
        before.push(i);
      } else slots.push([i]);
    }),
  );
  const slotTiles = slots.reduce((n, sl) => n + tilesOf(groups[sl[0]]), 0);
  if (chain && slotTiles === 14) return { ways: [slots], problem: null };
  // one "or" between runs of groups: the run before it or the run after it
  if (segs.length === 2) {
    const [a, b] = segs;
    const t = sum(a) + sum(b) - 14;
    let l = a.length,
      n = 0;
    while (l > 0 && n < t) n += tilesOf(groups[a[--l]]);
    let r = 0,
      m = 0;
    while (r < b.length && m < t) m += tilesOf(groups[b[r++]]);
    if (t > 0 && n === t && m === t) return { ways: [single([...a, ...b.slice(r)]), single([...a.slice(0, l), ...b])], problem: null };
  }
  // a reading of the tiles is still offered, so that the count of the likeliest one is said
  if (chain) return { ways: [slots], problem: null };
  if (segs.every((s) => sum(s) >= 7)) return { ways: segs.map(single), problem: null };
  return { ways: segs.map(single), problem: 'Tilemate cannot tell which groups "or" chooses between: each way of making the line must hold 14 tiles, so check the groups against the card.' };
}

/** A year as printed (`2026`): singles of numbers with Soap as zero. Its numbers never move (card.ts Alternative.year). */
const isYearGroup = (g: PrintedGroup): boolean => alternativesOf(g.text).some(({ body }) => body.includes('0') && /[1-9]/.test(body));

/** The numbers of a line that may move: every number printed, but a year's. */
function numbersIn(groups: PrintedGroup[]): number[] {
  const out: number[] = [];
  for (const g of groups) if (!isDecoration(g) && !isOr(g) && !isYearGroup(g)) for (const { body } of alternativesOf(g.text)) for (const c of body) if (c >= '1' && c <= '9') out.push(Number(c));
  return out;
}

const KIND_SIZES: Record<string, number> = { single: 1, pair: 2, pung: 3, kong: 4, quint: 5, sextet: 6 };
const KIND_NAMES = ['', 'single', 'pair', 'pung', 'kong', 'quint', 'sextet'];

/**
 * The question for note words Tilemate does not know: what they could mean, each in terms the
 * editor can write (a group's number among others, the numbers moving, different numbers, no
 * jokers), and last that they add nothing to the line as typed. Every answer is a choice she
 * makes; the line waits until she makes one.
 */
function unknownNoteQuestion(unknown: string, groups: PrintedGroup[], m: NoteMeaning, answers: LineAnswers): Question {
  const remark = { remark: unknown };
  const options: Question['options'] = [];
  const parity = /\beven\b/.test(unknown) ? 'even' : /\bodd\b/.test(unknown) ? 'odd' : null;
  const kinds = [...unknown.matchAll(/\b(single|pair|pung|kong|quint|sextet)s?\b/g)].map((k) => KIND_SIZES[k[1]]);
  const numbersOf = (n: number): number[] => [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((k) => parity === null || (k % 2 === 0) === (parity === 'even') || k === n);
  // a group of one number repeated, of a size the words name (or any size when they name a parity only): it may be another number
  const texts: { group: number; text: string; label: string }[] = [];
  if (kinds.length > 0 || parity !== null)
    groups.forEach((g, i) => {
      const d = /^([1-9])\1*$/.exec(g.text);
      if (!d || (kinds.length > 0 && !kinds.includes(g.text.length)) || (parity !== null && Number(d[1]) % 2 !== (parity === 'even' ? 0 : 1))) return;
      const choices = numbersOf(Number(d[1])).map((k) => String(k).repeat(g.text.length));
      const what = `${parity === null ? 'any' : `any ${parity}`} number`;
      texts.push({ group: i, text: choices.join('|'), label: `The ${KIND_NAMES[g.text.length] ?? 'group'} ${g.text} may be ${what} (${listWords(choices).replace(/ and /, ' or ')})` });
    });
  // a line whose every number is a group so answered has nothing left to move
  const allNumbered = (chosen: typeof texts): boolean => groups.every((g, i) => !/[1-9]/.test(g.text) || isYearGroup(g) || chosen.some((t) => t.group === i));
  const patchOf = (chosen: typeof texts): LinePatch => ({
    texts: chosen.map((t) => ({ group: t.group, text: t.text })),
    answers: allNumbered(chosen) && m.numbers === undefined ? { ...remark, numbers: 'fixed' } : remark,
  });
  for (const t of texts.slice(0, 4)) options.push({ label: t.label, patch: patchOf([t]) });
  if (texts.length > 1 && texts.length <= 4) options.push({ label: `All of these groups may be ${parity === null ? 'any' : `any ${parity}`} number`, patch: patchOf(texts) });
  // the line's numbers, when neither the note nor an answer has said how they go
  const nums = numbersIn(groups);
  if (nums.length > 0 && m.numbers === undefined && m.shifts === undefined && answers.numbers === undefined) {
    if (Math.min(...nums) > 1 || Math.max(...nums) < 9) options.push({ label: 'The numbers may move up or down together', patch: { answers: { ...remark, numbers: 'consec' } } });
    if (new Set(nums).size > 1) options.push({ label: 'Each different number may be any number, as long as they stay different', patch: { answers: { ...remark, numbers: 'other' } } });
  }
  if (!m.nojoker && answers.nojoker === undefined) options.push({ label: 'No jokers may be used in this line', patch: { answers: { ...remark, nojoker: true } } });
  options.push({ label: 'Nothing more: the line is only as it is typed', patch: { answers: remark } });
  return { about: 'note', text: `Tilemate does not know what "${unknown}" in the note allows: choose what the card means.`, options };
}

/** Reads one printed line: its notation when nothing is open, else its questions and problems. */
export function readLine(line: PrintedLine, section: PrintedSection, id: string, budget: number = FORM_LIMITS.perCard): LineReading {
  const out: LineReading = { section: section.title, id, notation: null, questions: [], problems: [], understood: [], groups: line.groups.map((g) => ({ ...g, text: modelText(g.text) })), forms: 0 };
  const groups = out.groups;
  if (groups.length === 0) {
    out.problems.push('The line has no groups yet: type them as the card prints them, such as FF 2026 2222 2222.');
    return out;
  }
  if (groups.length > PRINTED_LIMITS.groups) {
    out.problems.push(`The line has ${groups.length} groups; a card line has at most ${PRINTED_LIMITS.groups}.`);
    return out;
  }
  out.problems.push(...problemWordsForSymbols(groups));

  const { ways, problem: orProblem } = waysOf(groups);
  if (orProblem !== null) out.problems.push(orProblem);
  else
    ways.forEach((way, k) => {
      const n = way.reduce((t, slot) => t + tilesOf(groups[slot[0]]), 0);
      if (n !== 14) {
        const which = ways.length > 1 ? `The ${['first', 'second', 'third', 'fourth'][k] ?? `number ${k + 1}`} way of making this line` : 'This line';
        out.problems.push(`${which} holds ${n} tiles; every line of a card holds 14. Check its groups against the card.`);
      }
    });
  if (line.concealed === null) out.problems.push('Choose X (exposed) or C (concealed), as the card prints at the end of the line.');
  if (line.value === null) out.problems.push('Type the value printed at the end of the line.');
  else if (!Number.isInteger(line.value) || line.value < 1 || line.value > 1000) out.problems.push('The value must be a whole number from 1 to 1000.');

  const note = readNote(line.note);
  out.understood.push(...note.understood);
  const m = note.meaning;
  const answers = line.answers ?? {};

  // Note words Tilemate does not know: a question that must be answered, never ignored unseen nor read narrower than printed (issue 62)
  if (note.unknown !== '' && answers.remark !== note.unknown) out.questions.push(unknownNoteQuestion(note.unknown, groups, m, answers));

  // Dragons: a D printed without a colour is any dragon, or the dragon of one of the line's suits.
  groups.forEach((g, i) => {
    if (!isDragonGroup(g) || g.colour !== null) return;
    if (m.anyDragon) {
      g.text = anyDragonText(g.text.length);
      return;
    }
    out.questions.push({
      about: 'dragon',
      text: `Which dragon is ${g.text}: any dragon, or the dragon of one of this line's suits (tap its colour)?`,
      options: [
        { label: 'Any dragon', patch: { texts: [{ group: i, text: anyDragonText(g.text.length) }] } },
        ...COLOURS.map((c) => ({ label: `The ${c} suit's dragon`, patch: { colours: [{ group: i, colour: c }] } })),
      ],
    });
  });
  // a group already written as any wind (a line from the notation) says what the note says: nothing more to make
  if (m.anyWind && !groups.some(isAnyWindGroup)) {
    let made = false;
    groups.forEach((g) => {
      if (isWindGroup(g)) {
        g.text = anyWindText(g.text.length);
        made = true;
      }
    });
    if (!made) out.problems.push('The note says Any Wind, but no group of the line is one wind repeated, such as NNN.');
  }

  // Suits: every group with a number or a dragon needs a colour, or the note must settle it.
  const suitedIdx = groups.map((g, i) => (isSuitedGroup(g) && !(isDragonGroup(g) && g.colour === null) ? i : -1)).filter((i) => i >= 0);
  const uncoloured = suitedIdx.filter((i) => groups[i].colour === null && alternativesOf(groups[i].text).some((a) => a.letter === null));
  const coloursUsed = (): Colour[] => [...new Set(suitedIdx.map((i) => groups[i].colour).filter((c): c is Colour => c !== null))];
  const suitCount = m.suits ?? m.oneOr;
  if (uncoloured.length > 0) {
    const used = coloursUsed();
    // the groups a printed "or" chooses between are one group of the line: asked about, and coloured, together
    const slotOf = (i: number): number[] => ways.flat().find((slot) => slot.includes(i)) ?? [i];
    const units: number[][] = [];
    for (const i of uncoloured) if (!units.some((u) => u.includes(i))) units.push(slotOf(i).filter((j) => uncoloured.includes(j)));
    const suitedUnits = new Set(suitedIdx.map((i) => slotOf(i)[0])).size;
    const names = units.map((u) => u.map((i) => groups[i].text).join(' or '));
    const colourUnits = (colour: (k: number) => Colour): LinePatch['colours'] => units.flatMap((u, k) => u.map((i) => ({ group: i, colour: colour(k) })));
    if (suitCount === 1 && used.length <= 1) {
      for (const i of uncoloured) groups[i].colour = used[0] ?? 'green';
      out.understood.push(`${listWords(names)} ${names.length === 1 ? 'is' : 'are'} all in one suit, as the note says.`);
    } else if (suitCount !== undefined && suitCount > 1 && used.length === 0 && units.length === suitCount) {
      units.forEach((u, k) => {
        for (const i of u) groups[i].colour = COLOURS[k];
      });
      out.understood.push(`${listWords(names)} are each in a suit of their own, as the note's ${suitCount} suits say.`);
    } else if (used.length === 0 && suitedUnits === 1) {
      for (const i of uncoloured) groups[i].colour = 'green'; // one suited group: any suit, whatever its colour
    } else {
      const sameNumber = names.every((t) => /^([1-9])\1*$/.test(t) && t[0] === names[0][0]);
      const what = sameNumber && names.length > 1 ? `these ${names.length === 2 ? 'two' : names.length === 3 ? 'three' : names.length} groups of ${names[0][0]}s` : listWords(names);
      const fresh = COLOURS.filter((c) => !used.includes(c));
      const options: Question['options'] = [];
      if (units.length <= fresh.length) {
        options.push({ label: 'Yes, each in a suit of its own', patch: { colours: colourUnits((k) => fresh[k]) } });
      }
      if (used.length <= 1) options.push({ label: 'No, all in one suit', patch: { colours: colourUnits(() => used[0] ?? 'green') } });
      out.questions.push({
        about: 'suits',
        text:
          used.length === 0
            ? `Are ${what} in different suits, as the card's colours show? Tap each group's colour, or answer here.`
            : `What colour does the card print ${listWords(names)} in? Tap ${uncoloured.length === 1 ? 'it' : 'each'} to choose.`,
        options,
      });
    }
  }
  const finalColours = coloursUsed();
  if (suitCount !== undefined && finalColours.length !== suitCount && out.questions.every((q) => q.about !== 'suits')) {
    const phrase = m.oneOr !== undefined ? `Any 1 or ${m.oneOr} Suits` : `Any ${suitCount} Suit${suitCount === 1 ? '' : 's'}`;
    out.problems.push(`The note says ${phrase}, but the line is printed in ${finalColours.length} colour${finalColours.length === 1 ? '' : 's'}: check the colours.`);
  }
  if (m.matching && !groups.some((g) => isDragonGroup(g) && g.colour !== null)) {
    out.problems.push("The note says Matching Dragons, but no dragon group has a colour: tap each dragon's colour.");
  }

  // Pins: "Bams only" and the answers'.
  const pins: Partial<Record<Colour, SuitName>> = { ...answers.pins };
  if (m.pin !== undefined) pins[m.pin[0]] = m.pin[1];
  if (m.only !== undefined) {
    if (finalColours.length === 1) pins[finalColours[0]] = m.only;
    else out.problems.push(`The note says ${SUIT_WORDS[m.only]} only, but the line is printed in ${finalColours.length} colours.`);
  }
  for (const c of Object.keys(pins) as Colour[]) {
    if (!finalColours.includes(c)) out.problems.push(`The ${c} suit is pinned to ${SUIT_WORDS[pins[c]!]}, but no group of the line is ${c}.`);
  }
  const pinned = Object.values(pins);
  if (new Set(pinned).size !== pinned.length) out.problems.push('Two colours are pinned to one suit; different colours are different suits.');

  // Numbers: only as printed, or moving together. A line whose numbers cannot move is not asked.
  const nums = numbersIn(groups);
  const years = groups.filter(isYearGroup).map((g) => g.text);
  const canMove = nums.length > 0 && (Math.min(...nums) > 1 || Math.max(...nums) < 9);
  const distinct = new Set(nums).size;
  // "Any No." of a line printing one number is like numbers; of several, it does not say how they go together, so it is asked
  const noteNumbers = m.numbers ?? (m.anyNumber && distinct === 1 ? 'consec' : undefined);
  let numbers: Settled['numbers'] = 'fixed';
  const stated = answers.numbers ?? m.shifts ?? noteNumbers ?? section.numbers;
  if (m.numbers !== undefined && answers.numbers !== undefined && JSON.stringify(m.numbers) !== JSON.stringify(answers.numbers) && !Array.isArray(answers.numbers)) {
    const says = { consec: 'may move', other: 'are any different numbers', fixed: 'are only those printed' }[m.numbers];
    out.problems.push(`The note says the numbers ${says}, but the line was answered otherwise: change the note or the answer.`);
  }
  if (nums.length === 0) {
    if (m.numbers === 'consec' || m.numbers === 'other')
      out.problems.push(
        groups.some(isYearGroup) ? 'The note says the numbers move, but the only numbers of the line are a year, which stays as printed.' : 'The note speaks of numbers, but the line has none.',
      );
  } else if (stated === undefined) {
    if (canMove) {
      out.questions.push({
        about: 'numbers',
        text:
          years.length === 0
            ? 'May these numbers move up or down together (any consecutive numbers), or are they only the numbers printed?'
            : `May the numbers of ${listWords(groups.filter((g) => isSuitedGroup(g) && !isYearGroup(g) && /[1-9]/.test(g.text)).map((g) => g.text))} move up or down together, while ${listWords(years)} ${years.length === 1 ? 'stays' : 'stay'} as printed, or are they only the numbers printed?`,
        options: [
          { label: 'Only the numbers printed', patch: { answers: { numbers: 'fixed' } } },
          { label: 'They may move together', patch: { answers: { numbers: 'consec' } } },
          { label: `Only the numbers printed, for every line of ${section.title} whose note says nothing`, patch: { section: { numbers: 'fixed' } } },
          { label: `They may move, for every line of ${section.title} whose note says nothing`, patch: { section: { numbers: 'consec' } } },
          ...(distinct > 1 ? [{ label: 'Each different number may be any number, as long as they stay different', patch: { answers: { numbers: 'other' as const } } }] : []),
        ],
      });
    }
  } else {
    numbers = stated;
    if (stated === 'consec' && !canMove) out.problems.push('The numbers are said to move, but 1 and 9 are both printed, so they cannot move and stay 1 to 9.');
    if (m.distinct !== undefined && distinct !== m.distinct) {
      out.problems.push(`The note says ${m.distinct} consecutive numbers, but the line holds ${distinct} different numbers.`);
    }
    if (stated === 'fixed' && answers.numbers === undefined && m.numbers === undefined) out.understood.push(`${section.title}: only the numbers printed.`);
    if (stated === 'consec' && answers.numbers === undefined && m.numbers === undefined) out.understood.push(`${section.title}: the numbers may move up or down together.`);
  }

  if (out.questions.length > 0 || out.problems.length > 0) return out;
  // "Any 1 or 3 Suits" adds the one-suit way, unless the line already spells out its ways with OR (a line from the notation)
  const settled: Settled = { groups, ways, oneSuitToo: m.oneOr !== undefined && ways.length === 1, numbers, pins, nojoker: answers.nojoker === true || m.nojoker === true };
  const notation = notationOf(settled, line);
  // the notation is the authority: read it back as the card parser will, and count its forms
  try {
    const card = parseCard(`[${section.title}]\n${notation}`);
    checkFormCounts(card);
    // counted before anything is enumerated: the card's forms in all are bounded as a notation card's are
    if (countLineForms(card.lines[0]) > budget) {
      out.problems.push(`With this line the card makes more than ${FORM_LIMITS.perCard.toLocaleString('en-US')} ways of making its lines, the most a card may make.`);
      return out;
    }
    // a line no set of tiles can make is never ready (issue 62: "22222 2222 2222 F" all in one suit needs thirteen 2s)
    const all = lineForms(card.lines[0]);
    const possible = all.filter((f) => formShortfall(f, !card.lines[0].nojoker) === null).length;
    if (possible === 0 && all.length > 0) {
      out.problems.push(shortfallWords(formShortfall(all[0], !card.lines[0].nojoker)!));
      return out;
    }
    out.forms = possible;
    out.notation = notation;
  } catch (err) {
    if (!(err instanceof TilemateError)) throw err;
    out.problems.push(plainCardError(err));
  }
  return out;
}

/** A tile in a player's words: 2 Bam, North, Red dragon, Soap, flower. */
function tileWords(t: TileId): string {
  if (isSuited(t)) return `${rankOf(t)} ${['Bam', 'Crak', 'Dot'][suitOf(t)]}`;
  if (t === FLOWER) return 'flower';
  if (t === SOAP) return 'Soap';
  if (t === GREEN || t === RED) return t === GREEN ? 'Green dragon' : 'Red dragon';
  return ['North', 'East', 'West', 'South'][t - NORTH];
}

/** Why no hand can make a line, in one plain sentence. */
export function shortfallWords(s: Shortfall): string {
  if (s.kind === 'singles')
    return `No hand can make this line: it needs ${s.need} of the ${tileWords(s.tile)} as single tiles or pairs, and a set has only ${s.tile === FLOWER ? 8 : 4}, with no joker standing in for a single or a pair.`;
  const jokers = s.jokers === 0 ? 'no joker may be used in it' : `a set has only ${s.jokers} jokers`;
  if (s.kind === 'jokers') return `No hand can make this line: its groups need ${s.need} jokers in all, and ${jokers}.`;
  const one = isSuited(s.tile) ? ` (such as ${tileWords(s.tile)})` : ` (${tileWords(s.tile)})`;
  return `No hand can make this line: it needs ${s.need} tiles of one kind${one}, and a set has only ${s.tile === FLOWER ? 8 : 4} of each and ${s.jokers === 0 ? 'this line takes no jokers' : `${s.jokers} jokers`}.`;
}

const anyDragonText = (n: number): string => ['R', 'G', '0'].map((d) => d.repeat(n)).join('|');
const anyWindText = (n: number): string => ['N', 'E', 'W', 'S'].map((w) => w.repeat(n)).join('|');
const isAnyWindGroup = (g: PrintedGroup): boolean => g.text === anyWindText(g.text.split('|')[0].length);

/** A parser's message in a player's words: the card line's number and the token dropped (the editor shows the line itself). */
function plainCardError(err: TilemateError): string {
  const words = err.message.replace(/^card line \d+: /, '').replace(/^"[^"]*": /, '');
  return `${words[0].toUpperCase()}${words.slice(1)}${words.endsWith('.') ? '' : '.'}`;
}

/** The notation of a settled line: each group with its colour's suit letter, the options after `;`. */
function notationOf(s: Settled, line: PrintedLine): string {
  const token = (g: PrintedGroup, one: boolean): string => {
    if (isDecoration(g)) return g.text;
    return alternativesOf(g.text)
      .map(({ body, letter }) => {
        const suited = /[1-9D]/.test(body);
        if (!suited) return body;
        return body + (one ? 'a' : (letter ?? SUIT_VAR[g.colour ?? 'green']));
      })
      .join('|');
  };
  const way = (w: Way, one: boolean): string => w.map((slot) => slot.map((i) => token(s.groups[i], one)).join('|')).join(' ');
  let pattern = s.ways.map((w) => way(w, false)).join(' or ');
  if (s.oneSuitToo) pattern += ` or ${way(s.ways[0], true)}`;
  const opts = [line.concealed ? 'c' : 'x', String(line.value)];
  if (s.numbers === 'consec') opts.push('consec');
  else if (s.numbers === 'other') opts.push('other');
  else if (Array.isArray(s.numbers) && !(s.numbers.length === 1 && s.numbers[0] === 0)) opts.push(`shift=${s.numbers.join(',')}`);
  for (const c of COLOURS) if (s.pins[c] !== undefined) opts.push(`${SUIT_VAR[c]}=${s.pins[c]}`);
  if (s.nojoker) opts.push('nojoker');
  const number = line.number !== undefined ? `#${line.number} ` : '';
  return `${number}${pattern} ; ${opts.join(' ')}`;
}

// ------------------------------------------------------------------ a whole card

/** A printed card's shape checked before anything is read: bounded, so no one request can ask for unbounded work. */
export function checkPrintedShape(card: PrintedCard): void {
  const bad = (what: string): never => {
    throw new TilemateError('TM_BAD_INPUT', what);
  };
  if (card.name.length > PRINTED_LIMITS.nameChars || /\n|\/\//.test(card.name)) bad(`the card's name must be one line of at most ${PRINTED_LIMITS.nameChars} characters, without "//"`);
  if (card.sections.length > PRINTED_LIMITS.sections) bad(`the card has ${card.sections.length} sections; a card may have ${PRINTED_LIMITS.sections}`);
  const lines = card.sections.reduce((n, s) => n + s.lines.length, 0);
  if (lines > PRINTED_LIMITS.lines) bad(`the card has ${lines} lines; a card may have ${PRINTED_LIMITS.lines}`);
  for (const s of card.sections) {
    if (s.title.trim() === '' || /[[\]\n]/.test(s.title) || s.title.length > PRINTED_LIMITS.nameChars) bad(`the heading "${s.title.slice(0, 40)}" must be a short line of words, without brackets`);
    for (const l of s.lines) {
      if (l.note.length > PRINTED_LIMITS.noteChars || /\n|\/\//.test(l.note)) bad(`a note in ${s.title} is longer than ${PRINTED_LIMITS.noteChars} characters, or holds a line break or "//"`);
    }
  }
  if (new Set(card.sections.map((s) => s.title.trim())).size !== card.sections.length) bad('two sections have the same heading');
}

/**
 * Reads a printed card: every line on its own (one bad line never hides another), ids as
 * the analyzer will name them, and the notation of the card with each unsettled line kept
 * as a draft comment, so that what the player entered is never lost and the settled lines
 * make a usable card.
 */
export function readPrintedCard(card: PrintedCard): CardReading {
  checkPrintedShape(card);
  const out: string[] = [`card: ${card.name.trim() || 'My card'}`];
  const lines: LineReading[] = [];
  let ready = 0;
  let budget = FORM_LIMITS.perCard;
  const ids = new Set<string>();
  for (const section of card.sections) {
    out.push('', `[${section.title.trim()}]`);
    let expected = 1; // the number positional numbering gives the next written line
    let n = 0;
    for (const line of section.lines) {
      n = line.number ?? n + 1;
      const id = `${section.title.trim()} #${n}`;
      const r = readLine(line, section, id, budget);
      if (ids.has(id)) {
        r.problems.push(`Two lines of ${section.title.trim()} are numbered ${n}: give this one its own number.`);
        r.notation = null;
      }
      ids.add(id);
      lines.push(r);
      if (r.notation !== null) {
        budget -= r.forms;
        // a line whose number positional numbering would not give it carries its number, so ids never move when a draft is settled
        const numbered = line.number !== undefined || n === expected ? r.notation : `#${n} ${r.notation}`;
        out.push(`${numbered}${line.note.trim() ? ` // note: ${line.note.trim()}` : ''}${line.answers?.remark ? ` // remark: ${line.answers.remark}` : ''}`);
        expected = n + 1;
        ready++;
      } else {
        out.push(`// draft: ${JSON.stringify({ ...line, number: n })}`);
      }
    }
  }
  return { name: card.name.trim() || 'My card', text: `${out.join('\n')}\n`, lines, ready };
}

// ------------------------------------------------------------------ from the notation

/** A token of the notation as printed: its symbols without the suit letter, its colour from the suit variable. */
function groupOfToken(tok: PatternToken): PrintedGroup {
  const alts = tok.alternatives;
  const vars = new Set(alts.filter((a) => a.suited).map((a) => a.suitVar));
  // alternatives in different suits keep their own letters (rare: the printed model's escape to the notation)
  if (vars.size > 1) return { text: alts.map((a) => (a.suited ? `${a.text.replace(/[abc]$/, '')}${'abc'[a.suitVar]}` : a.text)).join('|'), colour: null };
  return { text: alts.map((a) => a.text.replace(/[abc]$/, '')).join('|'), colour: vars.size > 0 ? COLOUR_OF_VAR[[...vars][0]] : null };
}

/** The printed model of a notation card: every line settled (the notation states everything), notes from `// note:` comments, drafts from `// draft:`. */
export function printedFromNotation(card: Card): PrintedCard {
  const rows = card.text.split(/\r?\n/);
  const sections: PrintedSection[] = card.sections.map((title) => ({ title, lines: [] }));
  const byTitle = new Map(sections.map((s) => [s.title, s]));
  // drafts: comment lines, placed in the section they appear under
  const placed: { row: number; section: string; line: PrintedLine }[] = [];
  let current: string | null = null;
  rows.forEach((raw, i) => {
    const t = raw.trim();
    const head = /^\[([^\]]+)\]$/.exec(t);
    if (head) {
      current = head[1].trim();
      return;
    }
    const draft = /^\/\/\s*draft:\s*(\{.*\})\s*$/.exec(t);
    if (draft && current !== null && byTitle.has(current)) {
      const line = draftLine(draft[1]);
      if (line) placed.push({ row: i + 1, section: current, line });
    }
  });
  for (const l of card.lines) {
    const raw = rows[l.fileLine - 1] ?? '';
    const note = /\/\/\s*note:\s*(.*?)\s*(\/\/|$)/.exec(raw)?.[1] ?? '';
    const remark = /\/\/\s*remark:\s*(.*?)\s*(\/\/|$)/.exec(raw)?.[1];
    placed.push({ row: l.fileLine, section: l.section, line: printedLineOf(l, raw, note, remark) });
  }
  placed.sort((a, b) => a.row - b.row);
  for (const p of placed) byTitle.get(p.section)!.lines.push(p.line);
  return { name: card.name, sections };
}

function draftLine(json: string): PrintedLine | null {
  try {
    const v = JSON.parse(json) as PrintedLine;
    if (!Array.isArray(v.groups) || typeof v.note !== 'string') return null;
    return {
      ...(typeof v.number === 'number' ? { number: v.number } : {}),
      groups: v.groups.filter((g) => typeof g?.text === 'string').map((g) => ({ text: g.text, colour: COLOURS.includes(g.colour as Colour) ? g.colour : null })),
      note: v.note,
      concealed: typeof v.concealed === 'boolean' ? v.concealed : null,
      value: typeof v.value === 'number' ? v.value : null,
      ...(v.answers && typeof v.answers === 'object' ? { answers: v.answers } : {}),
      ...(typeof v.unsure === 'string' ? { unsure: v.unsure } : {}),
    };
  } catch {
    return null;
  }
}

function printedLineOf(l: CardLine, raw: string, note: string, remark: string | undefined): PrintedLine {
  const words = l.pattern.split(/\s+/).filter((t) => t !== '');
  const groups: PrintedGroup[] = [];
  let shape = 0,
    k = 0;
  for (const t of words) {
    if (t.toLowerCase() === 'or') {
      groups.push({ text: 'OR', colour: null });
      shape++;
      k = 0;
      continue;
    }
    if (DECORATION.has(t)) {
      groups.push({ text: t, colour: null });
      continue;
    }
    groups.push(groupOfToken(l.shapes[shape][k++]));
  }
  // words of several numbers with no suit letter at all: the notation reads one suit, but a card typed as
  // printed without its colours means nothing yet, so they come back uncoloured and the editor asks (card-check.ts asks too)
  let start = 0;
  for (const shape of l.shapes) {
    const idx = groups.map((_, i) => i).filter((i) => i >= start && isSuitedGroup(groups[i]));
    const end = groups.findIndex((g, i) => i >= start && isOr(g));
    const mine = idx.filter((i) => end < 0 || i < end);
    const lettered = shape.some((tok) => tok.alternatives.some((a) => a.suited && /[abc]$/.test(a.text)));
    if (mine.length >= 2 && !lettered) for (const i of mine) groups[i].colour = null;
    start = end < 0 ? groups.length : end + 1;
  }
  const nums = l.shapes.flatMap((s) => s.flatMap((t) => t.alternatives.flatMap((a) => a.symbols.filter((x) => x.kind === 'number'))));
  const answers: LineAnswers = {};
  const options = (raw.split('//')[0].split(';')[1] ?? '').toLowerCase().split(/\s+/);
  if (nums.length > 0) answers.numbers = options.includes('consec') ? 'consec' : options.includes('other') ? 'other' : l.shifts.length === 1 && l.shifts[0] === 0 ? 'fixed' : l.shifts;
  const pins: Partial<Record<Colour, SuitName>> = {};
  l.pins.forEach((p, v) => {
    if (p !== null) pins[COLOUR_OF_VAR[v]] = (['B', 'C', 'D'] as const)[p];
  });
  if (Object.keys(pins).length > 0) answers.pins = pins;
  if (l.nojoker) answers.nojoker = true;
  if (remark) answers.remark = remark;
  // a line that carried its printed number keeps it; the others are numbered by their place, as before
  const number = raw.trim().startsWith('#') ? { number: Number(l.id.slice(l.id.lastIndexOf('#') + 1)) } : {};
  return { ...number, groups, note, concealed: l.concealed, value: l.value, answers };
}

/** A notation card's text read into the printed model (refused as the parser refuses it). */
export function printedFromText(text: string): PrintedCard {
  return printedFromNotation(parseCard(text));
}

export { CardError };

// ------------------------------------------------------------------ a note for a line that has none

/**
 * The note a card would print for a line, in the card's own phrases, from what the line
 * states (a notation line has no printed note): the number of suits, whether the numbers
 * move, pinned suits, any wind or dragon, no jokers. Read back by readNote, it settles
 * exactly what the line's answers settle (a test holds the three cards to that), so a card
 * drawn with these notes (`tilemate card render`) can be read back from its picture.
 */
export function printedNote(line: PrintedLine): string {
  if (line.note.trim() !== '') return line.note.trim();
  const a = line.answers ?? {};
  const groups = line.groups.filter((g) => !isDecoration(g));
  const ways = waysOf(line.groups).ways;
  const first = ways[0].flat().map((i) => line.groups[i]);
  const out: string[] = [];
  const colours = [
    ...new Set(
      first
        .filter(isSuitedGroup)
        .map((g) => g.colour)
        .filter((c): c is Colour => c !== null),
    ),
  ];
  const pins = a.pins ?? {};
  const pinned = Object.keys(pins) as Colour[];
  if (pinned.length === 1 && colours.length === 1) out.push(`${SUIT_WORDS[pins[pinned[0]]!]} Only`);
  else {
    if (colours.length >= 1 && ways.length === 1) out.push(colours.length === 1 ? 'Any 1 Suit' : `Any ${colours.length} Suits`);
    for (const c of pinned) out.push(`${c[0].toUpperCase()}${c.slice(1)} ${SUIT_WORDS[pins[c]!]}`);
  }
  const nums = numbersIn(groups);
  const distinct = [...new Set(nums)].sort((x, y) => x - y);
  // "Any 3 Consec. Nos." only of numbers in a row (1, 2, 3); numbers apart (1 and 3) that move together are "Any Consec. Nos."
  const inRow = distinct.every((n, i) => i === 0 || n === distinct[i - 1] + 1);
  if (a.numbers === 'other') out.push('Any Other Nos.');
  else if (a.numbers === 'consec') out.push(distinct.length === 1 ? 'Any Like Nos.' : inRow ? `Any ${distinct.length} Consec. Nos.` : 'Any Consec. Nos.');
  else if (Array.isArray(a.numbers))
    out.push(
      `Nos. also ${a.numbers
        .filter((n) => n !== 0)
        .map((n) => `+${n}`)
        .join(', ')}`,
    );
  else if (a.numbers === 'fixed' && nums.length > 0 && (Math.min(...nums) > 1 || Math.max(...nums) < 9)) out.push('These Nos. Only');
  if (!groups.some(isWindGroup) && groups.some(isAnyWindGroup)) out.push('Any Wind');
  if (groups.some((g) => g.text === anyDragonText(g.text.split('|')[0].length))) out.push('Any Dragon');
  if (a.nojoker) out.push('No Jokers');
  return out.join(', ');
}

/**
 * A line as the card would print it: a note of its own (printedNote), any wind or dragon
 * drawn as its first choice with the note saying so, answers dropped where the note says
 * them. What `card render` draws and a photo of the card can be read back into.
 */
export function asPrinted(line: PrintedLine): PrintedLine {
  const note = printedNote(line);
  // "Any Wind" makes every group of one wind any wind: a line that also holds a wind of its own keeps its choices written out
  const ownWind = line.groups.some(isWindGroup);
  const groups = line.groups.map((g) => {
    const n = g.text.split('|')[0].length;
    if (isAnyWindGroup(g)) return ownWind ? { ...g, text: g.text.replace(/\|/g, '/') } : { text: 'N'.repeat(n), colour: null };
    if (g.text === anyDragonText(n)) return { text: 'D'.repeat(n), colour: null };
    return { ...g, text: g.text.replace(/\|/g, '/') };
  });
  const { remark, ...rest } = line.answers ?? {};
  return { ...line, groups, note, answers: line.note.trim() === '' ? (remark === undefined ? {} : { remark }) : rest };
}
