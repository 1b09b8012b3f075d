import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TilemateError } from '../../engine/errors.js';

/**
 * What a browser may ask of the server, checked before any route (issue 28):
 * - the Host header names the server by an address it was told to serve (`serve --host`,
 *   localhost, 127.0.0.1, [::1], every address of the machine when it listens on all of them,
 *   and the names of `--allow-host` or TILEMATE_ALLOW_HOSTS), so a page of another site whose
 *   name was pointed at this machine (DNS rebinding) cannot read it: 421 TM_BAD_HOST. The port
 *   is not checked: the rebound page's name is what gives it away, and a proxy in front may
 *   pass on the port its own visitors used;
 * - a change (POST, PUT, PATCH, DELETE) or a WebSocket opened by a page of another site (its
 *   Origin is not this server's) is refused: 403 TM_BAD_ORIGIN; a request without Origin (the
 *   command line, curl, a test) is not a browser's page and goes on;
 * - every answer carries the security headers of @fastify/helmet: a Content-Security-Policy
 *   the pages work under (scripts and style sheets from the server only; style attributes;
 *   images and fonts also as data: for the API docs; connections to the server itself over
 *   HTTP and WebSocket), no framing by any page, nosniff.
 */

export interface HostOptions {
  /** The address the server listens on (`serve --host`; default 127.0.0.1). */
  listen?: string;
  /** More names the server answers to (a name a proxy or the club's network gives it). */
  allow?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const EVERY = new Set(['0.0.0.0', '::', '']);

/** The names a Host header may carry, lower case, IPv6 without brackets. */
export function allowedHosts(opts: HostOptions = {}): Set<string> {
  const names = new Set(LOOPBACK);
  const listen = (opts.listen ?? '127.0.0.1').toLowerCase();
  if (EVERY.has(listen)) {
    // listening on every interface: each of the machine's addresses serves it
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address.toLowerCase());
  } else names.add(bare(listen));
  for (const name of opts.allow ?? []) if (name.trim() !== '') names.add(bare(name.trim().toLowerCase()));
  return names;
}

/** `[::1]` as `::1`; a name as it is. */
const bare = (name: string): string => (name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);

/** A Host header's name and port (`[::1]:3000` → `::1`, `3000`), or null when it is not one. */
export function splitHost(host: string): { name: string; port: string | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  return m ? { name: bare(m[1].toLowerCase()), port: m[2] ?? null } : null;
}

/** The names from TILEMATE_ALLOW_HOSTS (comma-separated). */
export const hostsFromEnv = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.TILEMATE_ALLOW_HOSTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function guard(app: FastifyInstance, opts: HostOptions = {}): Promise<void> {
  const names = allowedHosts(opts);
  const listen = opts.listen ?? '127.0.0.1';
  const shown = EVERY.has(listen) || LOOPBACK.includes(listen) ? "localhost or this machine's address" : `localhost or ${listen}`;
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const upgrade = req.method === 'GET' && /\bwebsocket\b/i.test(String(req.headers.upgrade ?? ''));
    /** A refusal; a refused upgrade's socket is node's no longer, so it is closed once the answer is out (else it holds the server open). */
    const refuse = (err: TilemateError): TilemateError => {
      if (upgrade) {
        const socket = req.raw.socket;
        reply.raw.once('finish', () => socket.destroy());
      }
      return err;
    };
    const host = req.headers.host;
    const parsed = typeof host === 'string' ? splitHost(host) : null;
    if (parsed === null || !names.has(parsed.name)) {
      throw refuse(
        new TilemateError(
          'TM_BAD_HOST',
          `this server does not answer to the name ${typeof host === 'string' && host.length <= 100 ? JSON.stringify(host) : 'given'}: open it at ${shown}, or start it with --allow-host naming it`,
        ),
      );
    }
    const origin = req.headers.origin;
    if (origin === undefined || (!CHANGES.has(req.method) && !upgrade)) return;
    if (!sameOrigin(origin, host!)) {
      throw refuse(
        new TilemateError(
          'TM_BAD_ORIGIN',
          `a page of ${origin.length <= 100 ? origin : 'another site'} may not ${upgrade ? 'connect to' : 'change anything on'} this server: open Tilemate at its own address`,
        ),
      );
    }
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // the pages set a few style attributes (the home page's buttons); style sheets come from the server
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        // the server itself, over HTTP and over a WebSocket (the shared tables' pushed views)
        connectSrc: ["'self'", (req: IncomingMessage) => `ws://${safeHost(req)}`, (req: IncomingMessage) => `wss://${safeHost(req)}`],
        // the service worker (api/web/sw.js) and the home-screen manifest, both from the server itself
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // served over plain HTTP on a club's network as often as behind TLS: HSTS is the proxy's to send
    strictTransportSecurity: false,
  });
}

/** The Host header as it may stand in a CSP source (it was checked on the way in). */
function safeHost(req: IncomingMessage): string {
  const h = req.headers.host ?? '';
  return /^[a-z0-9.\-[\]:]+$/i.test(h) ? h : "'none'";
}

/** Whether a page's Origin is this server as the request addressed it (`http://host:port`). */
export function sameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed page, a file) and anything else that is not a URL
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return (
    url.host.toLowerCase() === host.trim().toLowerCase() ||
    // a default port is left out of Origin, and may be given in Host
    (url.port === '' && host.trim().toLowerCase() === `${url.hostname.toLowerCase()}:${url.protocol === 'https:' ? 443 : 80}`)
  );
}
