import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import type { GameSpec, GameType } from '../../../engine/games.js';
import { replayRecord } from '../../../engine/record.js';
import { bearer } from '../accounts.js';
import type { Api, Services } from '../services.js';
import { compileRecordCard } from '../card-compile.js';
import type { NewGame } from '../tables.js';
import { readRecord } from './records.js';
import type { Player } from '../../store/players.js';
import { ACTION_BODIES, ERRORS, namingFields, Strict } from './schemas.js';

/**
 * Games against bots over HTTP, for every game: create one, look at the seat's view, post the
 * seat's action (the bots then move until the seat must act again). Each is a table (one
 * person's seat, bots in the others) played by the one live-game path, api/http/tables.ts.
 * Every route but create needs the game's token, and every answer is that seat's view only.
 * Each game adds its own routes beside these (a hint, the card panel).
 */

export const GameId = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const Bearer = [{ token: [] as string[] }];

/** No body at all is an empty one (a schema would see `undefined` and refuse it). */
export const emptyBody = async (req: FastifyRequest): Promise<void> => {
  if (req.body === undefined) req.body = {};
};

export interface LiveGameRoutes<G extends GameSpec, Body> {
  type: GameType<G>;
  /** Where the routes are: `/games` (Mah Jongg), `/domino/games` (Mexican Train). */
  prefix: string;
  /** The body of a new game, and the game it asks for (its bots, seat, seed). */
  createBody: TSchema;
  /** The game the body asks for, checked before anything is made; `player` is the session's (null: none yet). */
  newGame(body: Body, player: Player | null, req: FastifyRequest): Omit<NewGame<G>, 'player'> | Promise<Omit<NewGame<G>, 'player'>>;
  /** The action body (checked again in full by the game's codec and the engine). */
  actionBody: TSchema;
  /** The game answer, as the docs describe it. */
  answer: TSchema;
  examples?: unknown[];
}

export function liveGameRoutes<G extends GameSpec, Body>(app: Api, ctx: Pick<Services, 'accounts' | 'cards' | 'games' | 'heavy' | 'pool' | 'tables'>, r: LiveGameRoutes<G, Body>): void {
  const { tables } = ctx;
  const type = r.type as unknown as GameType;
  const id = (req: FastifyRequest): string => (req.params as { id: string }).id;

  app.post(
    r.prefix,
    {
      preValidation: emptyBody,
      schema: {
        summary: `A new ${r.type.title} game against bots; the answer holds the token that opens it`,
        body: r.createBody,
        response: { 201: r.answer, ...ERRORS },
      },
    },
    async (req, reply) => {
      const asked = await r.newGame(req.body as Body, await ctx.accounts.current(req), req);
      // a person without a session yet becomes a guest, whose game it is
      const player = await ctx.accounts.player(req, reply);
      return reply.code(201).send(await tables.solo({ ...asked, player: player.id }, req.ip));
    },
  );

  app.post(
    `${r.prefix}/from`,
    {
      schema: {
        summary: `A new ${r.type.title} game from a moment of a finished game you may read: the same deal and bots, played on from just before move N (a review's decision index)`,
        body: Strict(
          {
            recordId: Type.String({ maxLength: 64 }),
            before: Type.Integer({ minimum: 1, description: 'play on from just before this move' }),
          },
          { examples: [{ recordId: 'the id from GET /api/records', before: 40 }] },
        ),
        response: { 201: r.answer, ...ERRORS },
      },
    },
    async (req, reply) => {
      const { recordId, before } = req.body as { recordId: string; before: number };
      const text = await readRecord(ctx, recordId, (await ctx.accounts.current(req))?.id ?? null);
      await tables.checkRoom(req.ip);
      await compileRecordCard(ctx, req, text);
      const { header, game, played } = replayRecord(text, { type: r.type, cards: ctx.cards.compile });
      const seat = header.seats.indexOf('human');
      if (seat < 0) throw new TilemateError('TM_BAD_INPUT', 'bots alone played that game: there is no seat of yours to play on from');
      if (before > played.length) throw new TilemateError('TM_BAD_INPUT', `that game has ${played.length} moves: choose one from 1 to ${played.length}`);
      const actions = played.slice(0, before - 1).map((a) => game.encodeAction(a));
      const player = await ctx.accounts.player(req, reply);
      const asked = { game, seat, bots: header.seats.filter((_, s) => s !== seat), seed: header.seed, player: player.id, from: actions };
      return reply.code(201).send(await tables.solo(asked, req.ip));
    },
  );

  app.get(
    `${r.prefix}/:id`,
    {
      schema: {
        summary: "The seat's view of the game now, with its legal actions and the events it has not been told",
        security: Bearer,
        params: GameId,
        querystring: Type.Object({ since: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'list the events after action N' })) }),
        response: { 200: r.answer, ...ERRORS },
      },
    },
    async (req) => tables.gameAnswer(id(req), bearer(req), type, req.query.since === undefined ? undefined : Number(req.query.since)),
  );

  app.post(
    `${r.prefix}/:id/actions`,
    {
      // a field the action does not know is refused by its name, and nothing is applied
      schemaErrorFormatter: namingFields(ACTION_BODIES[r.type.name]?.what ?? 'an action'),
      schema: {
        summary: "The seat's action; the bots then move until the seat must decide again or the game ends",
        security: Bearer,
        params: GameId,
        body: r.actionBody,
        response: { 200: r.answer, ...ERRORS },
      },
    },
    async (req) => {
      const { after, ...action } = req.body as Record<string, unknown> & { after?: number };
      return tables.gameAct(id(req), bearer(req), type, action, after);
    },
  );
}
