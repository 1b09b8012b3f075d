import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCodes } from 'fastify';
import { describe, expect, it } from 'vitest';
import { FASTIFY_CODES } from '../../api/http/app.js';
import { httpStatus } from '../../api/shared/wire.js';
import { ERRORS, isErrorCode } from '../../engine/errors.js';
import { call, server } from './helpers.js';

/** The one table of error codes, and the server answering every error with its code's status. */

const ROOT = join(import.meta.dirname, '..', '..');

/** The TypeScript files under a folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => join(d.parentPath, d.name));
}

describe('the error table', () => {
  it('every code has an HTTP error status (400-599) and a description', () => {
    for (const [code, { status, description }] of Object.entries(ERRORS)) {
      expect(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`).toBe(true);
      expect(description.length, code).toBeGreaterThan(10);
      expect(httpStatus(code as keyof typeof ERRORS)).toBe(status);
    }
  });

  it('every TM_ code written in the engine, the bots, training and the server is in the table', () => {
    const written = new Set<string>();
    for (const dir of ['engine', 'agents', 'training', 'api']) {
      for (const file of sources(dir)) for (const m of readFileSync(file, 'utf8').matchAll(/'(TM_[A-Z_]+)'/g)) written.add(m[1]);
    }
    expect(written.size).toBeGreaterThan(20);
    expect([...written].filter((c) => !isErrorCode(c))).toEqual([]);
  });
});

describe('fastify errors through the table', () => {
  it("each fastify error the server maps is answered with its code and the table's status, whatever fastify's own", async () => {
    const app = await server();
    // a route that throws fastify's own error of the code it is given, as fastify would
    app.get('/throw/:code', { schema: { hide: true } }, (req) => {
      const make = errorCodes[(req.params as { code: keyof typeof errorCodes }).code];
      throw new make();
    });
    for (const [fst, code] of Object.entries(FASTIFY_CODES)) {
      const r = await call(app, { method: 'GET', url: `/throw/${fst}` });
      expect({ fst, status: r.status, code: r.body.code }).toEqual({ fst, status: ERRORS[code].status, code });
    }
  });

  it("the same errors met for real answer with the table's status", async () => {
    const app = await server({ bodyLimit: 1024 });
    const json = { 'content-type': 'application/json' };
    const cases: [what: string, answer: Promise<{ status: number; body: { code: string } }>, code: keyof typeof ERRORS][] = [
      ['broken JSON', call(app, { method: 'POST', url: '/api/analyze', headers: json, payload: '{"hand": "1B' }), 'TM_BAD_JSON'],
      ['an empty JSON body', call(app, { method: 'POST', url: '/api/analyze', headers: json, payload: '' }), 'TM_BAD_JSON'],
      ['a body over the limit', call(app, { method: 'POST', url: '/api/analyze', headers: json, payload: JSON.stringify({ hand: 'x'.repeat(2000) }) }), 'TM_BODY_TOO_LARGE'],
      ['a body that is not JSON', call(app, { method: 'POST', url: '/api/analyze', headers: { 'content-type': 'text/csv' }, payload: 'a,b' }), 'TM_BAD_INPUT'],
      ['a field of the wrong type', call(app, { method: 'POST', url: '/api/analyze', payload: { hand: 7 } }), 'TM_BAD_INPUT'],
      ['a malformed URL', call(app, { method: 'GET', url: '/api/records/%E0%A4%A' }), 'TM_BAD_INPUT'],
      ['an over-long id', call(app, { method: 'GET', url: `/api/games/${'a'.repeat(200)}` }), 'TM_NOT_FOUND'],
      ['an unknown route', call(app, { method: 'GET', url: '/api/nowhere' }), 'TM_NOT_FOUND'],
    ];
    for (const [what, answer, code] of cases) {
      const r = await answer;
      expect({ what, status: r.status, code: r.body.code }).toEqual({ what, status: ERRORS[code].status, code });
    }
  });
});
