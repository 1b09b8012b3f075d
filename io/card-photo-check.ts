import { parseCard, type CardLine } from '../engine/mah-jongg/card.js';
import { lineForms } from '../engine/mah-jongg/compile.js';
import { TilemateError } from '../engine/errors.js';
import type { PhotoDraft } from './card-photo.js';

/**
 * A photo's draft held to the card it was taken of (the measurement, bench/card-photo.ts, and
 * the tests): a line is recovered exactly when the draft's line compiles to the same forms
 * as the card's (every concrete way of making it), with the same X or C, value and jokers.
 * Lines are paired in reading order, the exact ones first (the longest run of them in order),
 * then the rest in the gaps between, so a line the photo lost, or one it read twice, does not
 * make every line after it count as wrong.
 */

/** What became of one line of the card. */
export type LineOutcome =
  /** read into the same forms, X or C, value and jokers */
  | 'exact'
  /** read wrong, and marked for the player to check */
  | 'flagged'
  /** read wrong and not marked: the reading that matters most to avoid */
  | 'wrong'
  /** not read at all: no line of the draft stands for it */
  | 'missing';

export interface DraftCheck {
  lines: { id: string; outcome: LineOutcome; read: string | null; unsure: boolean }[];
  /** Lines of the draft that stand for no line of the card (read from something else, or one line read as two). */
  extra: { flagged: number; sure: number };
  /** Lines read exactly but marked to check all the same. */
  needlessFlags: number;
  /** The card's headings found word for word, of how many. */
  headings: { exact: number; of: number };
}

/** A line's meaning: its forms (each one's tiles, order aside), X or C, value and jokers. */
export function lineKey(line: CardLine): string {
  const forms = lineForms(line)
    .map((f) => f.text.split(' ').sort().join(' '))
    .sort();
  return `${line.concealed ? 'c' : 'x'} ${line.value}${line.nojoker ? ' nojoker' : ''}: ${forms.join(' | ')}`;
}

function notationKey(notation: string | null): string | null {
  if (notation === null) return null;
  try {
    return lineKey(parseCard(`[S]\n${notation}`).lines[0]);
  } catch (err) {
    if (err instanceof TilemateError) return null;
    throw err;
  }
}

/** Pairs two lists in order: the longest common run of equal keys, then the rest in the gaps, in order. */
function pairInOrder(a: (string | null)[], b: (string | null)[]): { pairs: [number, number][]; loneA: number[]; loneB: number[] } {
  const n = a.length,
    m = b.length;
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      L[i][j] = a[i] !== null && a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    }
  const anchors: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] !== null && a[i] === b[j]) {
      anchors.push([i, j]);
      i++;
      j++;
    } else if (L[i + 1][j] >= L[i][j + 1]) i++;
    else j++;
  }
  const pairs: [number, number][] = [];
  const loneA: number[] = [],
    loneB: number[] = [];
  let pi = 0,
    pj = 0;
  for (const [ai, bj] of [...anchors, [n, m] as [number, number]]) {
    const ga = Array.from({ length: ai - pi }, (_, k) => pi + k),
      gb = Array.from({ length: bj - pj }, (_, k) => pj + k);
    const k = Math.min(ga.length, gb.length);
    for (let t = 0; t < k; t++) pairs.push([ga[t], gb[t]]);
    loneA.push(...ga.slice(k));
    loneB.push(...gb.slice(k));
    if (ai < n) pairs.push([ai, bj]);
    pi = ai + 1;
    pj = bj + 1;
  }
  return { pairs, loneA, loneB };
}

const normalTitle = (t: string): string => t.trim().toLowerCase().replace(/\s+/g, ' ');

/** The draft of a photo held to the card text it was taken of. */
export function checkDraft(cardText: string, draft: PhotoDraft): DraftCheck {
  const card = parseCard(cardText);
  const want = card.lines.map(lineKey);
  const drafted = draft.card.sections.flatMap((s) => s.lines);
  const got = draft.reading.lines.map((r) => notationKey(r.notation));
  const { pairs, loneB } = pairInOrder(want, got);
  const lines: DraftCheck['lines'] = card.lines.map((l) => ({ id: l.id, outcome: 'missing', read: null, unsure: false }));
  let needlessFlags = 0;
  for (const [i, j] of pairs) {
    const unsure = drafted[j].unsure !== undefined;
    const exact = want[i] === got[j];
    if (exact && unsure) needlessFlags++;
    lines[i] = { id: card.lines[i].id, outcome: exact ? 'exact' : unsure ? 'flagged' : 'wrong', read: draft.reading.lines[j].notation ?? drafted[j].groups.map((g) => g.text).join(' '), unsure };
  }
  const extra = { flagged: loneB.filter((j) => drafted[j].unsure !== undefined).length, sure: loneB.filter((j) => drafted[j].unsure === undefined).length };
  const titles = pairInOrder(
    card.sections.map(normalTitle),
    draft.card.sections.map((s) => normalTitle(s.title)),
  );
  const exactHeadings = titles.pairs.filter(([i, j]) => normalTitle(card.sections[i]) === normalTitle(draft.card.sections[j].title)).length;
  return { lines, extra, needlessFlags, headings: { exact: exactHeadings, of: card.sections.length } };
}
