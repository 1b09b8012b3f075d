import { CardError, parseCard, type Card, type CardLine } from '../../engine/mah-jongg/card.js';
import { checkFormCounts, formShortfall, lineForms, type Shortfall } from '../../engine/mah-jongg/compile.js';
import { readPrintedCard, shortfallWords, type CardReading, type LineReading, type PrintedCard } from '../../engine/mah-jongg/printed-card.js';
import { TilemateError, type ErrorCode } from '../../engine/errors.js';
import { formatTiles, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';

/**
 * A card text checked as it is typed (the My card page, saving a card): every malformed line
 * with its token and what was expected, each line's form count and an example winning hand.
 * Enumerating a large card's forms takes a worker a fraction of a second, so the server runs
 * it in the worker pool (api/http/heavy-tasks.ts).
 */

/** Errors listed for one text at most (each costs a parse of the text). */
const MAX_ERRORS = 20;

export interface CardProblem {
  code: ErrorCode;
  line: number | null;
  token: string | null;
  message: string;
}
export interface CheckedLine {
  id: string;
  fileLine: number;
  pattern: string;
  value: number;
  concealed: boolean;
  forms: number;
  example: string;
  examples: string[];
  form: string;
}
/**
 * A card's check: `errors` are lines that cannot be read; `questions` lines that read, but
 * only by a rule the player may not mean (words of several numbers without a suit letter are
 * read as one suit): never guessed, so the card is not `ok` until she says.
 */
export interface CardCheck {
  ok: boolean;
  name: string | null;
  errors: CardProblem[];
  questions: CardProblem[];
  lines: CheckedLine[];
}

/** Winning hands a line shows as examples: different ways of making it (suits, shifts, choices), spread over its forms. */
const EXAMPLES = 3;

function examplesOf(line: CardLine): { forms: number; form: string; examples: string[]; impossible: Shortfall | null } {
  // only hands a set of tiles can make (compile.ts formShortfall): a line's impossible ways are never shown as examples
  const all = lineForms(line);
  const forms = all.filter((f) => formShortfall(f, !line.nojoker) === null);
  const picks = [...new Set([0, Math.floor(forms.length / 2), forms.length - 1])].filter((i) => i >= 0 && i < forms.length).slice(0, EXAMPLES);
  return {
    forms: forms.length,
    form: forms[0]?.text ?? '',
    examples: picks.map((i) => formatTiles(tilesFromCounts(forms[i].singles.map((n, t) => n + forms[i].groups[t])))),
    impossible: forms.length === 0 && all.length > 0 ? formShortfall(all[0], !line.nojoker) : null,
  };
}

/**
 * A line whose words hold numbers or D in more than one word, none with a suit letter: the
 * notation reads them as one suit, but a player typing the card as printed (three colours,
 * no letters) means three. Asked, never read one way unseen (issue 44's "FF 2026 2222 2222").
 */
function unletteredQuestion(line: CardLine): CardProblem | null {
  for (const shape of line.shapes) {
    const suited = shape.filter((tok) => tok.alternatives.some((a) => a.suited));
    if (suited.length < 2 || suited.some((tok) => tok.alternatives.some((a) => /[abc]$/.test(a.text)))) continue;
    const words = suited.map((t) => t.text);
    const list = `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
    return {
      code: 'TM_CARD_SYNTAX',
      line: line.fileLine,
      token: null,
      message: `are ${list} all in one suit? Without suit letters Tilemate would read them as one suit: add a, b or c to each (the same letter for the same colour on your card).`,
    };
  }
  return null;
}

/**
 * Every malformed line of a card text: the parser stops at the first, so each line found
 * wrong is blanked and the text parsed again (at most MAX_ERRORS times). Then the form counts
 * (bounded before anything is enumerated) and, for each line, its forms and a winning hand.
 */
export function checkCard(text: string): CardCheck {
  const errors: CardProblem[] = [];
  const rows = text.split(/\r?\n/);
  let card: Card | null = null;
  while (card === null && errors.length < MAX_ERRORS) {
    try {
      card = parseCard(rows.join('\n'));
    } catch (err) {
      if (err instanceof CardError && err.line >= 1 && err.line <= rows.length && rows[err.line - 1] !== '') {
        errors.push({ code: err.code, line: err.line, token: err.token, message: err.message });
        rows[err.line - 1] = '';
        continue;
      }
      if (err instanceof TilemateError) {
        errors.push({ code: err.code, line: null, token: null, message: err.message });
        break;
      }
      throw err;
    }
  }
  if (card === null) return { ok: false, name: null, errors, questions: [], lines: [] };
  try {
    checkFormCounts(card);
  } catch (err) {
    if (!(err instanceof CardError)) throw err;
    errors.push({ code: err.code, line: err.line, token: err.token, message: err.message });
    return { ok: false, name: card.name, errors, questions: [], lines: [] };
  }
  const questions = card.lines.map(unletteredQuestion).filter((q): q is CardProblem => q !== null);
  const lines = card.lines.map((line) => {
    const { forms, form, examples, impossible } = examplesOf(line);
    // a line no set of tiles can make is an error, in one sentence (issue 62)
    if (impossible !== null) errors.push({ code: 'TM_CARD_SYNTAX', line: line.fileLine, token: null, message: `card line ${line.fileLine}: ${shortfallWords(impossible)}` });
    return { id: line.id, fileLine: line.fileLine, pattern: line.pattern, value: line.value, concealed: line.concealed, forms, form, example: examples[0] ?? '', examples };
  });
  return { ok: errors.length === 0 && questions.length === 0, name: card.name, errors, questions, lines };
}

/** A printed card's reading for the editor: each settled line with its example hands. */
export interface EditorLine extends LineReading {
  examples: string[];
}
export interface EditorReading extends Omit<CardReading, 'lines'> {
  lines: EditorLine[];
}

/** The editor's answer (POST /api/cards/read, `tilemate card check`): every line read on its own, each settled one with examples. */
export function readForEditor(printed: PrintedCard): EditorReading {
  const reading = readPrintedCard(printed);
  const examples = new Map<string, string[]>();
  if (reading.ready > 0) for (const line of parseCard(reading.text).lines) examples.set(line.id, examplesOf(line).examples);
  return { ...reading, lines: reading.lines.map((l) => ({ ...l, examples: l.notation === null ? [] : (examples.get(l.id) ?? []) })) };
}
