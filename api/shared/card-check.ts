import { CardError, parseCard, type Card } from '../../engine/card.js';
import { checkFormCounts, lineForms } from '../../engine/compile.js';
import { TilemateError, type ErrorCode } from '../../engine/errors.js';
import { formatTiles, tilesFromCounts } from '../../engine/tiles.js';

/**
 * A card text checked as it is typed (the My card page, saving a card): every malformed line
 * with its token and what was expected, each line's form count and an example winning hand.
 * Enumerating a large card's forms takes a worker a fraction of a second, so the server runs
 * it in the worker pool (api/http/heavy-tasks.ts).
 */

/** Errors listed for one text at most (each costs a parse of the text). */
const MAX_ERRORS = 20;

export interface CardProblem { code: ErrorCode; line: number | null; token: string | null; message: string }
export interface CheckedLine { id: string; fileLine: number; pattern: string; value: number; concealed: boolean; forms: number; example: string; form: string }
export interface CardCheck { ok: boolean; name: string | null; errors: CardProblem[]; lines: CheckedLine[] }

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
      if (err instanceof TilemateError) { errors.push({ code: err.code, line: null, token: null, message: err.message }); break; }
      throw err;
    }
  }
  if (card === null) return { ok: false, name: null, errors, lines: [] };
  try {
    checkFormCounts(card);
  } catch (err) {
    if (!(err instanceof CardError)) throw err;
    errors.push({ code: err.code, line: err.line, token: err.token, message: err.message });
    return { ok: false, name: card.name, errors, lines: [] };
  }
  const lines = card.lines.map((line) => {
    const forms = lineForms(line);
    const f = forms[0];
    return {
      id: line.id, fileLine: line.fileLine, pattern: line.pattern, value: line.value, concealed: line.concealed,
      forms: forms.length, form: f?.text ?? '', example: f ? formatTiles(tilesFromCounts(f.singles.map((n, t) => n + f.groups[t]))) : '',
    };
  });
  return { ok: errors.length === 0, name: card.name, errors, lines };
}

