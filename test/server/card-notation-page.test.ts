import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guidePage } from '../../api/http/routes/guide.js';
import { server } from './helpers.js';

/** The card notation guide served as a page (issue 29): /docs/card-notation beside the API docs, not swallowed by them. */

describe('GET /docs/card-notation', () => {
  it('answers the guide rendered as a page: its title, its tables, its card examples, no script', async () => {
    const app = await server();
    const r = await app.inject({ method: 'GET', url: '/docs/card-notation' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toMatch(/<h1>Writing your card<\/h1>/);
    expect(r.body).toMatch(/<h2>Tiles in a line<\/h2>/);
    expect(r.body).toMatch(/<table>/);
    expect(r.body).toContain('<code class="language-card">card: My practice card');
    expect(r.body).not.toMatch(/<script/i);
    // the Markdown's own words are not left as Markdown
    expect(r.body).not.toMatch(/^## /m);
  });

  it('the API docs under /docs still answer: the guide took one path, not the prefix', async () => {
    const app = await server();
    expect((await app.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/docs/card-notation-nothing' })).statusCode).toBe(404);
  });

  it('the page is made from docs/card-notation.md: a heading added to the file is a heading on the page', async () => {
    const md = readFileSync('docs/card-notation.md', 'utf8');
    expect(await guidePage(md)).toContain('<h2>The shape of a card</h2>');
    expect(await guidePage(`${md}\n## A new part\n`)).toContain('<h2>A new part</h2>');
    expect(await guidePage('# A <b> title\nwords')).toContain('<h1>A &lt;b&gt; title</h1>');
  });
});
