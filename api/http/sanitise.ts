import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TilemateError } from '../../engine/errors.js';

/**
 * The one check every text from outside passes before any route sees it (issue 63): a string
 * anywhere in a request's body, query or address parameters (and the names of an object's
 * fields) holding a NUL, another control character, or half of a character (a lone UTF-16
 * surrogate, which no keyboard types) is refused with 400 TM_BAD_INPUT and a sentence naming
 * the field, before the schema's own checks and before anything is read or written. The
 * database cannot keep such a text, and refused it as a storage failure (503) before.
 *
 * Tab, line feed and carriage return are allowed where a multi-line text is: a field whose
 * schema is a long text (maxLength of 1,000 or more: a card, a list of tiles) or that no schema
 * describes; a short field (a name, a title, a reason) is one line.
 */

/** A string schema at least this long may hold several lines. */
const MULTI_LINE_CHARS = 1000;

type Schema = Record<string, unknown>;
type Step = string | number;

/** The schemas that may describe the value at `path` under `schema` (none when it cannot be told). */
function schemasAt(schema: unknown, path: readonly Step[], depth = 0): Schema[] {
  if (schema === null || typeof schema !== 'object' || depth > 32) return [];
  const s = schema as Schema;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[k])) return (s[k] as unknown[]).flatMap((sub) => schemasAt(sub, path, depth + 1));
  }
  if (path.length === 0) return [s];
  const [step, ...rest] = path;
  if (typeof step === 'number') {
    if (Array.isArray(s.prefixItems) && step < s.prefixItems.length) return schemasAt(s.prefixItems[step], rest, depth + 1);
    if (Array.isArray(s.items)) return step < s.items.length ? schemasAt(s.items[step], rest, depth + 1) : [];
    return schemasAt(s.items, rest, depth + 1);
  }
  const props = s.properties as Record<string, unknown> | undefined;
  if (props !== undefined && Object.hasOwn(props, step)) return schemasAt(props[step], rest, depth + 1);
  const patterns = s.patternProperties as Record<string, unknown> | undefined;
  if (patterns !== undefined) {
    const found = Object.entries(patterns).filter(([p]) => {
      try {
        return new RegExp(p, 'u').test(step);
      } catch {
        return false;
      }
    });
    if (found.length > 0) return found.flatMap(([, sub]) => schemasAt(sub, rest, depth + 1));
  }
  if (s.additionalProperties !== null && typeof s.additionalProperties === 'object') return schemasAt(s.additionalProperties, rest, depth + 1);
  return [];
}

/** Whether the field at `path` may hold several lines (a long text, or one no schema describes). */
function multiLine(schema: unknown, path: readonly Step[]): boolean {
  const found = schemasAt(schema, path);
  return found.length === 0 || found.some((s) => s.type !== 'string' || typeof s.maxLength !== 'number' || s.maxLength >= MULTI_LINE_CHARS);
}

/** What is wrong with a text, in words, or null when it is fine. */
export function textProblem(text: string, lines: boolean): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return 'holds half of a character (a broken emoji or symbol)';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'holds half of a character (a broken emoji or symbol)';
    if (c === 0) return 'holds an empty character (NUL)';
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      if (lines) continue;
      return c === 0x09 ? 'holds a tab, and it must be one line of text' : 'holds a line break, and it must be one line of text';
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return `holds a hidden control character (number ${c})`;
  }
  return null;
}

/** How a field is named to the player: "name", "sections[0].title", or the part of the request. */
function fieldName(part: string, path: readonly Step[]): string {
  if (path.length === 0) return part === 'body' ? 'the request' : `the ${part}`;
  const name = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  return `the field "${name.length > 60 ? `${name.slice(0, 60)}…` : name}"`;
}

/** Throws TM_BAD_INPUT for the first text in `value` that cannot be kept. */
export function checkTexts(value: unknown, part: string, schema: unknown): void {
  const walk = (v: unknown, path: Step[], depth: number): void => {
    if (depth > 64) return; // the body parser's own nesting limit is far below any real one
    if (typeof v === 'string') {
      const problem = textProblem(v, multiLine(schema, path));
      if (problem !== null) throw new TilemateError('TM_BAD_INPUT', `${fieldName(part, path)} ${problem}; please type it again without it.`);
      return;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v) || ArrayBuffer.isView(v)) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i], depth + 1));
      return;
    }
    for (const [k, item] of Object.entries(v)) {
      const problem = textProblem(k, false);
      if (problem !== null) throw new TilemateError('TM_BAD_INPUT', `a field's name in ${part === 'body' ? 'the request' : `the ${part}`} ${problem}; please send it again without it.`);
      walk(item, [...path, k], depth + 1);
    }
  };
  walk(value, [], 0);
}

/** Checks every route's input (body, query, address parameters) before its schema does. */
export function sanitiseInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const schema = (req.routeOptions.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
    checkTexts(req.params, 'address', schema.params);
    checkTexts(req.query, 'query', schema.querystring);
    checkTexts(req.body, 'body', schema.body);
  });
}
