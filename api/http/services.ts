import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginCallback, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import type { CardCache } from '../../io/cards.js';
import type { Limits } from '../shared/limits.js';
import type { EventStore } from '../store/events.js';
import type { GameStore } from '../store/games.js';
import type { Player, PlayerStore } from '../store/players.js';
import type { PracticeStore } from '../store/practice.js';
import type { Accounts } from './accounts.js';
import type { EventTables } from './event-tables.js';
import type { HeavyPool } from './heavy.js';
import type { Reviews } from './reviews.js';
import type { Tables } from './tables.js';

/**
 * The services the server's routes use, each one decorated on the app by name (api/http/app.ts
 * builds and decorates them); a file's routes are a fastify plugin that names the services it
 * needs (`routes` below), the fastify-demo way: no route file imports the file that registers it.
 */

/** The fastify instance the routes are added to: TypeBox schemas type the requests. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A card with its analyzer (scratch space reused across requests). */
export interface LoadedCard {
  cc: CompiledCard;
  analyzer: Analyzer;
}

export interface Services {
  /** The server's card. */
  card: LoadedCard;
  cardText: string;
  /** Players' cards compiled from their text, the latest kept, with their analyzers. */
  cards: CardCache;
  limits: Limits;
  /** The heavy budget (a preHandler): refuses with TM_RATE_LIMITED once the person, or her address, has spent its requests that play deals out. */
  heavy: (req: FastifyRequest) => Promise<void>;
  /** Where the work that plays deals out runs (api/http/heavy.ts). */
  pool: HeavyPool;
  /** A saved card's text by its name, of those the player may choose, or a shared one by `shared:CODE` (TM_NOT_FOUND when there is none). */
  savedCard: (player: Player | null, name: string) => Promise<string>;
  /** Who is asking (api/http/accounts.ts). */
  accounts: Accounts;
  /** Players, their sessions and cards in the database. */
  players: PlayerStore;
  /** Finished games' records and kept reviews in the database (games in progress are `tables`). */
  games: GameStore;
  /** The reviews of kept games being worked out, with their progress, and those of finished games in the background (api/http/reviews.ts). */
  reviews: Reviews;
  /** Tables people share (api/http/tables.ts). */
  tables: Tables;
  /** Her mistakes as drills, with their schedules (api/store/practice.ts). */
  practice: PracticeStore;
  /** Club events, each its list of changes (api/store/events.ts). */
  events: EventStore;
  /** Online events' rounds at Tilemate tables (api/http/event-tables.ts). */
  eventTables: EventTables;
}

/** Decorates the app with every service by its name, for the routes' plugins to ask for. */
export function decorateServices(app: FastifyInstance, services: Services): void {
  for (const [name, service] of Object.entries(services)) app.decorate(name, service);
}

/**
 * One file's routes as a fastify plugin named `name` that needs the services `needs`: fastify
 * refuses to register it where one is not decorated (FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE,
 * naming the plugin), and `add` is handed those services alone, typed, so a service used and
 * not named does not compile.
 */
export function routes<K extends keyof Services, O extends object = Record<never, never>>(
  name: string,
  needs: readonly K[],
  add: (app: Api, ctx: Pick<Services, K>, opts: O) => void,
): FastifyPluginCallback<O> {
  const plugin: FastifyPluginCallback<O> = (app, opts, done) => {
    const ctx = Object.fromEntries(needs.map((k) => [k, app.getDecorator<Services[K]>(k)])) as Pick<Services, K>;
    add(app.withTypeProvider<TypeBoxTypeProvider>(), ctx, opts);
    done();
  };
  return Object.assign(plugin, {
    [Symbol.for('plugin-meta')]: { name, decorators: { fastify: [...needs] } },
    [Symbol.for('fastify.display-name')]: name,
  });
}
