import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { docsTheme } from './docs-theme.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { isErrorCode, TilemateError, type ErrorCode } from '../../engine/errors.js';
import { guard, type HostOptions } from './guard.js';
import { sanitiseInput } from './sanitise.js';
import { openDb, type Db } from '../store/db.js';
import { RateWindows } from '../store/rate-windows.js';
import { GameStore } from '../store/games.js';
import { importDataFolder } from '../store/import.js';
import { migrate } from '../store/migrations.js';
import { CardCache, readCardText } from '../../io/cards.js';
import type { GameSpec } from '../../engine/games.js';
import type { GameWire } from '../shared/game-wire.js';
import { MEXICAN_TRAIN_WIRE } from '../shared/domino-wire.js';
import { HeavyPool } from './heavy.js';
import { Reviews } from './reviews.js';
import { DEFAULT_LIMITS, PEOPLE_PER_ADDRESS, type Limits } from '../shared/limits.js';
import { analysisRoutes } from './routes/analysis.js';
import { gameRoutes } from './routes/games.js';
import { guideRoutes } from './routes/guide.js';
import { recordRoutes } from './routes/records.js';
import { PracticeStore } from '../store/practice.js';
import { EventStore } from '../store/events.js';
import { drillRoutes } from './routes/drills.js';
import { eventRoutes } from './routes/events.js';
import { tableAdviceRoutes } from './routes/table-advice.js';
import { cardRoutes } from './routes/cards.js';
import { chosenCardRoutes } from './routes/chosen-card.js';
import { cardPhotoRoutes } from './routes/card-photo.js';
import { cardPictureRoutes } from './routes/card-picture.js';
import { cardSharingRoutes, sharedCardReader } from './routes/card-sharing.js';
import { accountRoutes } from './routes/accounts.js';
import { progressRoutes } from './routes/progress.js';
import cookie from '@fastify/cookie';
import { accounts, asker } from './accounts.js';
import { schemaController } from './lazy-schemas.js';
import { PlayerStore, type Player } from '../store/players.js';
import { qrRoutes } from './routes/qr.js';
import { dominoRoutes } from './routes/domino.js';
import { tableRoutes } from './routes/tables.js';
import websocket from '@fastify/websocket';
import { Tables } from './tables.js';
import { EventTables } from './event-tables.js';
import { TableStore } from '../store/tables.js';
import { httpStatus, MAH_JONGG_WIRE } from '../shared/wire.js';
import { offlineHeaders, offlineRoutes } from './offline-bundle.js';
import { decorateServices, type LoadedCard } from './services.js';

/**
 * The practice server as a fastify instance, built but not listening (api/http/server.ts
 * listens; tests use `app.inject()`). Every error leaves as `{code, message}` with a 4xx
 * status: the engine's TilemateErrors by their code, fastify's own (bad JSON, schema
 * validation, body too large, unknown route) mapped onto the same codes.
 */

export interface AppOptions {
  /** The data folder: the embedded database (`<dataDir>/db`) and players' saved cards. */
  dataDir: string;
  /** A PostgreSQL server's URL (`DATABASE_URL`); the embedded database in the data folder when absent. */
  databaseUrl?: string;
  /** A database already open, used instead of the two above (a test that also reaches into it); closed with the server. */
  db?: Db;
  /** A card file (default: the practice card). */
  card?: string;
  limits?: Partial<Limits>;
  logger?: FastifyServerOptions['logger'];
  /** Tables together: how often to look for clocks run out (ms) and how long their second lasts (tests make both short). */
  tableTimes?: { sweepMs?: number; secondMs?: number; beatMs?: number };
  /** The page's folder (default: api/web of the installation; null serves no page). */
  webDir?: string | null;
  /** The names the server answers to (api/http/guard.ts): the address it listens on, and more allowed. */
  hosts?: HostOptions;
  /** Compile every route's schemas at start (a test that each compiles), not each on its route's first use. */
  eagerSchemas?: boolean;
}

/** api/web of the installation, from source (api/http/app.ts) or compiled (dist/api/http/app.js). */
function defaultWebDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, '..', 'web'), join(here, '..', '..', '..', 'api', 'web')]) if (existsSync(join(dir, 'index.html'))) return dir;
  return null;
}

/**
 * fastify's own errors, each mapped onto one of our codes: the answer carries our code and
 * that code's status from the one table (engine/errors.ts), never fastify's status. A 4xx
 * error of fastify's not listed here is answered as TM_BAD_INPUT.
 */
export const FASTIFY_CODES = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'TM_BAD_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'TM_BAD_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'TM_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'TM_BAD_INPUT',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'TM_BAD_INPUT',
  FST_ERR_VALIDATION: 'TM_BAD_INPUT',
  FST_ERR_BAD_URL: 'TM_BAD_INPUT',
  FST_ERR_INVALID_URL: 'TM_BAD_INPUT',
  // a path parameter longer than any id names nothing
  FST_ERR_MAX_PARAM_LENGTH: 'TM_NOT_FOUND',
  FST_ERR_NOT_FOUND: 'TM_NOT_FOUND',
} as const satisfies Record<string, ErrorCode>;

const fastifyCode = (code: string | undefined): ErrorCode | undefined => (code !== undefined && Object.hasOwn(FASTIFY_CODES, code) ? FASTIFY_CODES[code as keyof typeof FASTIFY_CODES] : undefined);

/** The errors node's HTTP parser finds that have a code of their own (any other is TM_BAD_INPUT). */
const PARSER_CODES: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ['TM_HEADERS_TOO_LARGE', 'the request headers are larger than the server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: ['TM_TIMEOUT', 'the request took too long to arrive'],
};

const errorBody = (code: ErrorCode, message: string): string => JSON.stringify({ code, message });

/**
 * Errors node's HTTP parser finds before fastify sees a request (headers too large, a
 * request too slow, a malformed request line): answered with a code too, then closed.
 */
function clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] = (err.code !== undefined && Object.hasOwn(PARSER_CODES, err.code) ? PARSER_CODES[err.code] : undefined) ?? ['TM_BAD_INPUT', 'the request is not well-formed HTTP'];
  const status = httpStatus(code);
  const body = errorBody(code, message);
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  socket.destroy(err);
}

/** Refuses to start on a data folder the server could not write in. */
function checkWritable(dir: string): void {
  const probe = join(dir, `.write-check.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    throw new TilemateError('TM_FILE', `cannot write in the data folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

export async function build(opts: AppOptions): Promise<FastifyInstance> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };
  checkWritable(resolve(opts.dataDir));
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: limits.bodyLimit,
    // a body of the wrong type is refused, not coerced ("0" is not a seat); an unknown field
    // is refused where the schema says so (additionalProperties: false), never dropped quietly
    ajv: { customOptions: { coerceTypes: false, allErrors: false, removeAdditional: false } },
    // each route's schemas compiled on its first use, not all at start (api/http/lazy-schemas.ts)
    schemaController: schemaController(opts.eagerSchemas) as FastifyServerOptions['schemaController'],
    clientErrorHandler: clientError,
    // a request must arrive whole within this (slow bodies hold no connection for ever: 408 TM_TIMEOUT); an idle kept-alive connection closes
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveMs,
    // node looks for requests past their time every 30 s unless told otherwise, and only while
    // its headers' time (60 s) is within the request's
    http: { connectionsCheckingInterval: Math.max(100, Math.min(5_000, limits.requestTimeoutMs / 4)), headersTimeout: Math.min(60_000, limits.requestTimeoutMs) },
    // errors met while routing (a malformed address, an over-long path parameter), mapped like the rest
    frameworkErrors: (err, _req, res) => {
      const code = fastifyCode(err.code) ?? 'TM_BAD_INPUT';
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'no such game or record (the id is too long to be one)'
          : err.code === 'FST_ERR_BAD_URL'
            ? 'the address is not a valid URL (a stray or broken % escape)'
            : err.message;
      return (res as unknown as FastifyReply).code(httpStatus(code)).send({ code, message });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const cards = new CardCache();
  const cc = cards.compile(readCardText(opts.card));
  const cardText = cc.card.text;
  const card: LoadedCard = { cc, analyzer: cards.analyzer(cc) };
  const gameLimits = { maxGames: limits.maxGames, perAddress: limits.gamesPerAddress, idleMs: limits.idleMs };
  const db = opts.db ?? (await openDb({ dataDir: resolve(opts.dataDir), url: opts.databaseUrl }));
  let store: GameStore;
  let players: PlayerStore;
  try {
    await migrate(db);
    store = new GameStore(db);
    players = new PlayerStore(db);
    await players.endExpiredSessions();
    const imported = await importDataFolder(store, new TableStore(db, store), players, resolve(opts.dataDir));
    if (imported !== null && imported.records + imported.live + imported.cards + imported.skipped.length > 0) {
      app.log.warn(
        `the data folder's files read into the database: ${imported.records} records, ${imported.live} games in progress, ${imported.cards} cards${imported.skipped.length > 0 ? `; not read: ${imported.skipped.join('; ')}` : ''}`,
      );
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  const pool = new HeavyPool({
    threads: limits.threads,
    botThreads: limits.botThreads,
    maxQueue: limits.maxQueue,
    deadlineMs: limits.deadlineMs,
    perPerson: limits.heavyAtOnce,
    taskMs: limits.taskMs,
  });
  app.addHook('onClose', async () => {
    await pool.close();
    await db.close();
  });
  // once listening (ready), the requests' workers start, checking the server's card: the first
  // hint does not wait for them, and the start does not either
  app.addHook('onListen', async () => {
    pool.warm({ kind: 'check-card', text: cardText });
  });
  // a signed-in player's finished game is reviewed in the background, so that her mistakes come back
  const reviews = new Reviews({
    pool,
    games: store,
    players,
    worlds: limits.reviewWorlds,
    background: limits.backgroundReviews,
    log: { warn: (m) => app.log.warn(m), info: (m) => app.log.info(m) },
  });
  const tables = new Tables({
    store: new TableStore(db, store),
    wires: [MAH_JONGG_WIRE, MEXICAN_TRAIN_WIRE] as unknown as GameWire<GameSpec>[],
    cards: cards.compile,
    pool,
    maxTables: limits.maxGames,
    tablesPerAddress: limits.gamesPerAddress,
    games: gameLimits,
    onError: (err) => app.log.error(err),
    onFinished: (records) => reviews.finished(records),
    ...opts.tableTimes,
  });
  await tables.start();
  const events = new EventStore(db);
  const eventTables = new EventTables(
    events,
    tables,
    { name: cc.card.name, text: cardText },
    (err) => app.log.error(err),
    opts.tableTimes?.sweepMs === undefined ? undefined : Math.max(100, opts.tableTimes.sweepMs * 2),
  );
  eventTables.start();
  app.addHook('preClose', async () => {
    reviews.stop();
    await eventTables.stop();
    await tables.stop();
  });

  // every answer's status is its code's, from the one table (httpStatus)
  app.setErrorHandler((err: FastifyError | TilemateError, request, reply) => {
    const answer = (code: ErrorCode, message: string) => reply.code(httpStatus(code)).send({ code, message });
    if (err instanceof TilemateError) {
      // the player reads one plain sentence; the database's own words go to the log
      if (err.code === 'TM_STORAGE') {
        const cause = (err as Error & { cause?: { message?: string; code?: string } }).cause;
        request.log.error(`database failure: ${cause?.message ?? err.message}${cause?.code ? ` (${cause.code})` : ''}`);
      }
      return answer(err.code, err.message);
    }
    const e = err as FastifyError & { code?: string };
    if (e.validation) return answer('TM_BAD_INPUT', `${e.validationContext ?? 'request'}${e.message.startsWith('/') ? '' : ' '}${e.message.replace(/^(body|querystring|params)\s*/, '')}`);
    // an error object that carries one of our codes (the rate limiter's answer)
    if (isErrorCode(e.code)) return answer(e.code, e.message);
    const mapped = fastifyCode(e.code);
    if (mapped) return answer(mapped, e.message);
    if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) return answer('TM_BAD_INPUT', e.message);
    request.log.error(err);
    return answer('TM_INTERNAL', 'the server failed on this request (a bug, logged)');
  });
  sanitiseInput(app); // every text from outside: no NUL, control character or half a character (api/http/sanitise.ts)
  await guard(app, opts.hosts); // the Host and Origin checks and the security headers, before every route
  app.setNotFoundHandler((request, reply) => reply.code(httpStatus('TM_NOT_FOUND')).send({ code: 'TM_NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` }));

  // The general limit counts every request of an address (heavy ones too); the heavy budget
  // is one more bucket per person and per address, shared by every route that plays deals out.
  await app.register(rateLimit, {
    global: limits.ratePerMinute > 0,
    max: Math.max(1, limits.ratePerMinute),
    timeWindow: 60_000,
    // the pages' own files (and the API docs, the offline engine) are not counted: a tablet
    // that installs Tilemate fetches every file once (api/web/sw.js), about forty, and four
    // tablets at a club behind one address would otherwise spend the table's moves on them
    allowList: (req) => req.method === 'GET' && !req.url.startsWith('/api/'),
    errorResponseBuilder: (_req, c) => ({ code: 'TM_RATE_LIMITED', message: `more than ${c.max} requests a minute from this address; try again in ${c.after}` }),
  });
  // the budget of the requests that play deals out is counted in the database, so every
  // server on it counts the same (api/store/rate-windows.ts): two servers allow it once, not twice
  const windows = new RateWindows(db);
  const heavy = async (req: FastifyRequest): Promise<void> => {
    if (limits.heavyPerMinute <= 0) return;
    // a person's budget, and her address's for the people behind it (a club's tablets)
    const from = asker(req);
    const wait = await windows.count([
      { key: `heavy:${from.person}`, max: limits.heavyPerMinute },
      { key: `heavy-address:${from.address}`, max: limits.heavyPerMinute * PEOPLE_PER_ADDRESS },
    ]);
    if (wait !== null) {
      throw new TilemateError(
        'TM_RATE_LIMITED',
        `more than ${limits.heavyPerMinute} requests a minute from you (or ${limits.heavyPerMinute * PEOPLE_PER_ADDRESS} from your address) that play deals out (advice, hints, reviews, simulations); try again in ${wait} s`,
      );
    }
  };
  await app.register(cookie);
  const sharedCard = sharedCardReader(db);
  const savedCard = async (player: Player | null, name: string): Promise<string> => {
    // shared:CODE is a card shared with her (routes/card-sharing.ts), as its owner has it now
    const text = (await sharedCard(name)) ?? (await players.card(player?.id ?? null, name));
    if (text === null) throw new TilemateError('TM_NOT_FOUND', `no saved card named ${name}`);
    return text;
  };
  decorateServices(app, {
    card,
    cardText,
    cards,
    limits,
    heavy,
    pool,
    savedCard,
    accounts: accounts(players),
    players,
    games: store,
    reviews,
    tables,
    practice: new PracticeStore(db),
    events,
    eventTables,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tilemate practice server', version: '1', description: 'A practice partner for American Mah Jongg: analysis, advice, games against bots, records and reviews (docs/api.md).' },
      components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
    },
  });
  // readable on a phone too (docs-theme.ts: a viewport and a style sheet for narrow screens)
  await app.register(swaggerUi, { routePrefix: '/docs', theme: docsTheme });
  guideRoutes(app); // /docs/card-notation: a page of its own beside the API docs

  // a message is a small JSON object: 16 KB is far more than any
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  await app.register(
    async (api) => {
      // each file's routes a plugin naming the services it needs (api/http/services.ts)
      for (const plugin of [
        tableRoutes,
        analysisRoutes,
        gameRoutes,
        recordRoutes,
        tableAdviceRoutes,
        drillRoutes,
        eventRoutes,
        cardRoutes,
        cardPhotoRoutes,
        cardPictureRoutes,
        cardSharingRoutes,
        chosenCardRoutes,
        accountRoutes,
        progressRoutes,
        dominoRoutes,
        qrRoutes,
      ])
        await api.register(plugin);
    },
    { prefix: '/api' },
  );

  const webDir = opts.webDir === undefined ? defaultWebDir() : opts.webDir;
  if (webDir !== null && existsSync(webDir)) {
    await app.register(fastifyStatic, { root: resolve(webDir), prefix: '/', setHeaders: offlineHeaders });
    offlineRoutes(app, webDir, cardText); // Which hand? with no connection: the engine bundled for the browser, and what the service worker keeps
    // browsers ask for /favicon.ico on their own; the icon is an SVG
    app.get('/favicon.ico', { schema: { hide: true } }, (_req, reply) => reply.redirect('/favicon.svg', 301));
  }
  return app;
}
