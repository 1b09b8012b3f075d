import { ruleViolation } from '../../engine/errors.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHANCE_CALIBRATION_FILE, DEFAULT_MODEL_FILE } from '../../agents/mah-jongg/default-model.js';

/**
 * The engine for Which hand? with no connection: api/web-src/offline-engine.ts bundled for the
 * browser by esbuild when the page first asks for it, and kept in memory. It is built by the
 * server, not at install time, so that it carries what this server answers with: its card
 * (which `serve --card` may change) and the model files the advice reads, and so a fresh
 * clone needs nothing more than `npm ci && npm start`. A bundle takes esbuild a fraction of
 * a second.
 *
 * The engine and agents code is the server's own, unchanged; the few node modules they touch
 * to read the model files (node:fs, node:path, node:url and node:worker_threads in agents/mah-jongg/default-model.ts) are
 * replaced by small stand-ins that read those files from the bundle.
 */

/** The project's root folder (the one holding package.json and models/), from source or from dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'api', 'web-src'))) return dir;
    dir = dirname(dir);
  }
  ruleViolation('api/web-src is missing from the installation');
}

/**
 * The entry, compiled as the server's worker threads run it (api/http/heavy.ts): from
 * dist/ (the one `npm run build` compiled, also when the server itself runs from the
 * TypeScript sources, as in tests), so the page's answers come from the same code as the
 * server's; from the sources only before anything was compiled.
 */
function entryFile(root: string): string {
  const compiled = join(root, 'dist', 'api', 'web-src', 'offline-engine.js');
  return existsSync(compiled) ? compiled : join(root, 'api', 'web-src', 'offline-engine.ts');
}

/** Where the bundle's code thinks it is: its files are kept under this made-up folder. */
const ROOT = '/tilemate';

/** The stand-ins for the node modules, over a table of files (absolute path to text). */
const SHIMS: Record<string, string> = {
  'node:fs': `
    import { FILES } from 'tilemate:offline-files';
    const missing = (p) => Object.assign(new Error('ENOENT: no such file, open ' + p), { code: 'ENOENT' });
    export const existsSync = (p) => Object.hasOwn(FILES, p);
    export const readFileSync = (p) => { if (!Object.hasOwn(FILES, p)) throw missing(p); return FILES[p]; };`,
  'node:path': `
    export const join = (...parts) => parts.join('/').replace(/\\/+/g, '/').replace(/\\/\\.\\//g, '/');
    export const dirname = (p) => p.replace(/\\/[^/]*$/, '') || '/';`,
  'node:url': `export const fileURLToPath = (u) => new URL(u).pathname;`,
  // the page's code runs on its own: no worker of the server's to keep quiet
  'node:worker_threads': `export const isMainThread = true;`,
  process: `export const process = { stderr: { write: (s) => console.warn(s) }, env: {} };`,
};

export interface OfflineBundle {
  code: string;
  /** A hash of the code: the ETag, and what the service worker's cache is keyed by. */
  etag: string;
}

const made = new Map<string, Promise<OfflineBundle>>();

/** The bundle for a server's card text (made once per card text, then kept). */
export function offlineBundle(cardText: string): Promise<OfflineBundle> {
  let p = made.get(cardText);
  if (p === undefined) {
    p = makeBundle(cardText);
    made.set(cardText, p);
    p.catch(() => made.delete(cardText));
  }
  return p;
}

async function makeBundle(cardText: string): Promise<OfflineBundle> {
  const root = projectRoot();
  const files: Record<string, string> = { [`${ROOT}/package.json`]: '{}' };
  for (const file of [DEFAULT_MODEL_FILE, CHANCE_CALIBRATION_FILE]) {
    const path = join(root, file);
    if (existsSync(path)) files[`${ROOT}/${file.replaceAll('\\', '/')}`] = readFileSync(path, 'utf8');
  }
  const virtual: Plugin = {
    name: 'tilemate-offline',
    setup(b) {
      b.onResolve({ filter: /^node:(fs|path|url|worker_threads)$|^tilemate:offline-files$/ }, (a) => ({ path: a.path, namespace: 'tilemate' }));
      b.onResolve({ filter: /^node:/ }, (a) => ({ errors: [{ text: `${a.path} (imported by ${a.importer}) has no stand-in in the browser bundle` }] }));
      b.onLoad({ filter: /.*/, namespace: 'tilemate' }, (a) => {
        if (a.path === 'tilemate:offline-files') return { contents: `export const SERVER_CARD = ${JSON.stringify(cardText)};\nexport const FILES = ${JSON.stringify(files)};`, loader: 'js' };
        return { contents: SHIMS[a.path], loader: 'js' };
      });
    },
  };
  // esbuild is loaded when a page first asks for the bundle, not at every start of the server
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [entryFile(root)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'import.meta.url': JSON.stringify(`file://${ROOT}/agents/mah-jongg/default-model.js`) },
    // \`process\` in the bundled code (a missing model is told on standard error) is the stand-in's
    banner: { js: SHIMS.process.replace('export ', '') },
    plugins: [virtual],
  });
  const code = out.outputFiles[0].text;
  return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 22)}"` };
}

/** The files of the page's folder the service worker keeps for use with no connection (api/web/sw.js). */
const SHELL = /\.(html|css|js|svg|png|webmanifest)$/;

/** The page's folder's files (and one level of folders, the icons), as paths from the root. */
export function shellFiles(webDir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(webDir, { withFileTypes: true })) {
    if (e.isFile() && SHELL.test(e.name) && e.name !== 'sw.js') out.push(`/${e.name}`);
    else if (e.isDirectory()) for (const f of readdirSync(join(webDir, e.name))) if (SHELL.test(f)) out.push(`/${e.name}/${f}`);
  }
  return out.sort();
}

/**
 * GET /offline-engine.js (the bundle) and GET /offline-files.json (what the service worker
 * keeps: the pages' files, the bundle, and the address of the table page), both with an ETag.
 */
export function offlineRoutes(app: FastifyInstance, webDir: string, cardText: string): void {
  const withEtag = (req: FastifyRequest, reply: FastifyReply, etag: string, type: string, body: string): FastifyReply | string => {
    reply.header('content-type', type).header('cache-control', 'no-cache').header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return body;
  };
  app.get('/offline-engine.js', { schema: { hide: true } }, async (req, reply) => {
    const b = await offlineBundle(cardText);
    return withEtag(req, reply, b.etag, 'text/javascript; charset=utf-8', b.code);
  });
  app.get('/offline-files.json', { schema: { hide: true } }, async (req, reply) => {
    const files = ['/', ...shellFiles(webDir), '/offline-engine.js'];
    const etag = `"${createHash('sha256').update(files.join('\n')).digest('base64url').slice(0, 22)}"`;
    return withEtag(req, reply, etag, 'application/json; charset=utf-8', JSON.stringify({ files }));
  });
}

/**
 * The service worker may control the whole site. (It is never kept stale: the static files are
 * served with max-age=0, and browsers look for a new worker past their HTTP cache.)
 */
export function offlineHeaders(res: { setHeader(name: string, value: string): unknown }, path: string): void {
  if (/[\\/]sw\.js$/.test(path)) res.setHeader('service-worker-allowed', '/');
}
