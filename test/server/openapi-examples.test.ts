import { describe, expect, it } from 'vitest';
import { server } from './helpers.js';

/** Every request body in the OpenAPI document carries an example, so "Try it out" starts from one that works. */

interface Op {
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown; examples?: Record<string, { value: unknown }> }> };
}

describe('the OpenAPI document', () => {
  it("every request body has an example, and every example passes the route's own checks", async () => {
    const app = await server();
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, Op>> };
    const bodies: { method: string; path: string; examples: unknown[] }[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const media = op.requestBody?.content['application/json'];
        if (!media) continue;
        const examples = media.examples ? Object.values(media.examples).map((e) => e.value) : media.example !== undefined ? [media.example] : [];
        bodies.push({ method, path, examples });
      }
    }
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    expect(bodies.filter((b) => b.examples.length === 0).map((b) => `${b.method} ${b.path}`)).toEqual([]);
    // posted as they are, no example is refused by the body's schema (a game route then asks for its token instead)
    for (const b of bodies) {
      for (const example of b.examples) {
        const url = b.path.replace('{id}', 'no-such-game');
        const res = await app.inject({ method: b.method.toUpperCase() as 'POST', url, payload: example as object, headers: { authorization: 'Bearer x' } });
        const why = `${b.method} ${b.path} ${JSON.stringify(example)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode === 400 && /body/.test(res.body), why).toBe(false);
        expect(res.statusCode, why).toBeLessThan(500);
      }
    }
  }, 120_000);
});
