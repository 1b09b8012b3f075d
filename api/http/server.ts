import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TilemateError } from '../../engine/errors.js';
import { build, type AppOptions } from './app.js';
import { hostsFromEnv } from './guard.js';
import { safeUrl, storageWhere } from '../store/db.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { readCardText } from '../../io/cards.js';
import { DEFAULT_DATA_DIR, DEFAULT_LIMITS } from '../shared/limits.js';
import { httpStatus } from '../shared/wire.js';

/**
 * Listens: `tilemate serve` and `npm start`. The app itself is built in api/http/app.ts, so
 * tests can use it without a port. Games are kept in the embedded database under the data
 * folder (default ./tilemate-data), or on the PostgreSQL server DATABASE_URL names.
 */

export interface ServeOptions extends Partial<AppOptions> {
  port?: number;
  host?: string;
  /** More names the server answers to besides the address it listens on and localhost (`--allow-host`, TILEMATE_ALLOW_HOSTS). */
  allowHosts?: readonly string[];
}

/**
 * Holds each address to `max` connections open at once: one more is answered 429
 * TM_RATE_LIMITED in one sentence and closed, before node reads a byte of it (one address
 * held 19,980 slow connections, up to the process's file limit). And to `rate` new
 * connections, a burst of `rate.burst` then `rate.perSecond` a second: one more is closed at
 * once, unread and unanswered, so an address that connects again and again (a reconnect storm)
 * costs the server next to nothing and does not slow its answers to others (issue 45).
 */
export function capConnections(
  server: Server,
  max: number,
  rate: { burst: number; perSecond: number } = { burst: DEFAULT_LIMITS.connectionsBurst, perSecond: DEFAULT_LIMITS.connectionsPerSecond },
): void {
  const open = new Map<string, number>();
  /** Each address's bucket of new connections: what is left, and when it was last filled (ms). */
  const buckets = new Map<string, { left: number; at: number }>();
  // a full bucket is forgotten: it is the same as none
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [address, b] of buckets) if (b.left + ((now - b.at) / 1000) * rate.perSecond >= rate.burst) buckets.delete(address);
  }, 60_000);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const now = performance.now();
    const b = buckets.get(address) ?? { left: rate.burst, at: now };
    b.left = Math.min(rate.burst, b.left + ((now - b.at) / 1000) * rate.perSecond);
    b.at = now;
    buckets.set(address, b);
    if (b.left < 1) {
      socket.destroy();
      return;
    }
    b.left -= 1;
    const n = open.get(address) ?? 0;
    if (n >= max) {
      const body = JSON.stringify({ code: 'TM_RATE_LIMITED', message: `this address already holds ${max} connections to the server, the most one address may: close some first` });
      socket.end(
        `HTTP/1.1 ${httpStatus('TM_RATE_LIMITED')} Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      socket.destroySoon();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

export const DEFAULT_PORT = 3000;

/** The port: the option, else PORT, else 3000. */
export function portFrom(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) return option;
  const n = Number(env.PORT);
  return env.PORT !== undefined && Number.isInteger(n) && n >= 0 && n < 65536 ? n : DEFAULT_PORT;
}

/** What a started server says about itself (api/cli/serve-lines.ts prints it). */
export interface ServeStarted {
  app: FastifyInstance;
  url: string;
  /** Where games are kept, in words. */
  where: string;
  host: string;
  port: number;
  /** The data folder, absolute. */
  dataDir: string;
  /** The PostgreSQL server's host, port and database (no user, no password); undefined for the embedded database. */
  database?: string;
  /** The card in use: its name, and its file unless it is the built-in practice card. */
  card: { name: string; file?: string };
}

export async function serve(opts: ServeOptions = {}): Promise<ServeStarted> {
  // warnings and errors only (a 500 is a bug and is logged with its stack)
  const host = opts.host ?? '127.0.0.1';
  const app = await build({ logger: { level: 'warn' }, ...opts, dataDir: resolve(opts.dataDir ?? DEFAULT_DATA_DIR), hosts: { listen: host, allow: [...(opts.allowHosts ?? []), ...hostsFromEnv()] } });
  capConnections(app.server, opts.limits?.connectionsPerAddress ?? DEFAULT_LIMITS.connectionsPerAddress, {
    burst: opts.limits?.connectionsBurst ?? DEFAULT_LIMITS.connectionsBurst,
    perSecond: opts.limits?.connectionsPerSecond ?? DEFAULT_LIMITS.connectionsPerSecond,
  });
  try {
    await app.listen({ port: portFrom(opts.port), host });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    const port = portFrom(opts.port);
    const why =
      code === 'EADDRINUSE'
        ? `port ${port} is already in use; choose another with --port or PORT (e.g. --port ${port + 1})`
        : code === 'EACCES'
          ? `port ${port} needs more rights than this user has; choose one above 1023 with --port or PORT`
          : code === 'EADDRNOTAVAIL'
            ? `this machine has no address ${host}; use --host 127.0.0.1, or --host 0.0.0.0 for every network`
            : (code ?? String(err));
    throw new TilemateError('TM_BAD_INPUT', `cannot listen on ${host}:${port}: ${why}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : portFrom(opts.port);
  const shown = host === '0.0.0.0' || host === '::' || host === '127.0.0.1' || host === '::1' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  // close cleanly on Ctrl-C or a stop signal: every acknowledged action is already committed
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  const dataDir = resolve(opts.dataDir ?? DEFAULT_DATA_DIR);
  // the card's name only (the app has compiled it already; reading its heading again is cheap)
  const card = { name: parseCard(readCardText(opts.card)).name, ...(opts.card !== undefined && { file: resolve(opts.card) }) };
  return {
    app,
    url: `http://${shown}:${port}/`,
    where: storageWhere(dataDir, opts.databaseUrl),
    host,
    port,
    dataDir,
    card,
    ...(opts.databaseUrl && { database: safeUrl(opts.databaseUrl) }),
  };
}
