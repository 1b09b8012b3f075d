import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { TilemateError } from '../../../engine/errors.js';

/**
 * The card notation guide (docs/card-notation.md) served as a page at /docs/card-notation, so
 * the My card page can link to it (issue 29: the old words pointed at a file in the Tilemate
 * folder, which a player at a browser cannot open). The Markdown is the repository's own, read
 * once and rendered by marked into the pages' own frame (style.css, pages.css); no script.
 *
 * /docs is the API documentation's prefix (@fastify/swagger-ui, whose `/docs/*` serves its own
 * files): a static path is matched before a wildcard, so this page is not swallowed by it.
 */

export const GUIDE_PATH = '/docs/card-notation';

/** docs/card-notation.md from the source tree (api/http/routes) or the built one (dist/api/http/routes). */
function guideFile(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of [
    ['..', '..', '..'],
    ['..', '..', '..', '..'],
  ]) {
    const file = join(here, ...up, 'docs', 'card-notation.md');
    if (existsSync(file)) return file;
  }
  return null;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The guide as a whole page: the Markdown's first heading as the page's title, the rest as its body. */
export async function guidePage(markdown: string): Promise<string> {
  // marked is loaded when the page is first asked for, not at every start of the server
  const { Marked } = await import('marked');
  const m = /^#\s+(.+)$/m.exec(markdown);
  const title = m ? m[1].trim() : 'Writing your card';
  const body = m ? markdown.slice(0, m.index) + markdown.slice(m.index + m[0].length) : markdown;
  // the guide is the repository's own text (no one else's Markdown is rendered here)
  const html = new Marked({ gfm: true }).parse(body, { async: false });
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Tilemate: ${escapeHtml(title.toLowerCase())}</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/style.css">
  <link rel="stylesheet" href="/pages.css">
</head>
<body>
  <header class="top page-top">
    <h1>${escapeHtml(title)}</h1>
    <nav class="tools" aria-label="Pages">
      <a class="btn" href="/mycard.html">My card</a>
      <a class="btn" href="/howto.html">How to play</a>
      <a class="btn" href="/">Practice table</a>
    </nav>
  </header>
  <main class="page guide">
    <article class="panel wide">
${html}
    </article>
  </main>
</body>
</html>
`;
}

export function guideRoutes(app: FastifyInstance): void {
  const file = guideFile();
  let page: string | null = null;
  app.get(GUIDE_PATH, { schema: { hide: true } }, async (_req, reply) => {
    if (file === null) throw new TilemateError('TM_NOT_FOUND', 'the card notation guide (docs/card-notation.md) is not installed with this server');
    page ??= await guidePage(readFileSync(file, 'utf8'));
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
