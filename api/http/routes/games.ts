import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CompiledCard } from '../../../engine/mah-jongg/compile.js';
import type { Player } from '../../store/players.js';
import { AGENT_NAMES } from '../../../agents/mah-jongg/levels.js';
import { TilemateError } from '../../../engine/errors.js';
import { MAH_JONGG, mahJonggGame, type MahJonggGame, type MahJonggSpec } from '../../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset, RULESETS } from '../../../engine/mah-jongg/rulesets.js';
import { seatAnalysisInput } from '../../../engine/mah-jongg/seat.js';
import type { SeatView } from '../../../engine/mah-jongg/game.js';
import { asker, bearer } from '../accounts.js';
import { routes, type Services } from '../services.js';
import { compiledCard } from '../card-compile.js';
import { deadCalls, tileSafety } from '../../../agents/mah-jongg/defence.js';
import { tileName } from '../../../engine/mah-jongg/tiles.js';
import { type HintJson, lineResultJson } from '../../shared/wire.js';
import { Bearer, emptyBody, GameId, liveGameRoutes } from './live-games.js';
import { ActionBody, CARD_CHOICE, ERRORS, GameAnswer, LineResult, Strict } from './schemas.js';

/**
 * Mah Jongg games against bots: create, look and act (every game's routes, routes/live-games.ts),
 * and Mah Jongg's own: a hint for the decision the seat faces, and the card for the rack.
 */

interface CreateBody {
  ruleset?: string;
  level?: string;
  bots?: string[];
  seat?: number;
  seed?: number;
  autoPlay?: boolean;
  card?: string;
}

export const gameRoutes = routes('games', ['accounts', 'card', 'cards', 'games', 'heavy', 'limits', 'pool', 'savedCard', 'tables'], (app, ctx) => {
  const { tables } = ctx;

  /**
   * A saved card for a new game: the address's games counted first, then the card compiled in
   * the worker pool on the heavy budget (a large card takes a fraction of a second), unless
   * the server has it compiled already.
   */
  const savedCard = async (req: FastifyRequest, player: Player | null, name: string): Promise<CompiledCard> => {
    await tables.checkRoom(req.ip);
    return compiledCard(ctx, req, await ctx.savedCard(player, name));
  };

  liveGameRoutes<MahJonggSpec, CreateBody>(app, ctx, {
    type: MAH_JONGG,
    prefix: '/games',
    createBody: Strict(
      {
        ruleset: Type.Optional(Type.String({ maxLength: 40, description: Object.keys(RULESETS).join(', ') })),
        level: Type.Optional(Type.String({ maxLength: 40, description: AGENT_NAMES.join(', ') })),
        bots: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 8, description: 'one bot per other seat, in seat order' })),
        seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        autoPlay: Type.Optional(Type.Boolean({ description: 'make your forced draws and declines for you (default true)' })),
        card: Type.Optional(
          Type.String({ pattern: CARD_CHOICE, description: "the name of a saved card to play on (PUT /api/cards/:name), or shared:CODE for a card shared with you; default: the server's card" }),
        ),
      },
      { examples: [{ ruleset: 'nmjl-4p', level: 'medium', seed: 7 }] },
    ),
    newGame: async (b, player, req) => {
      const rules = loadRuleset(b.ruleset ?? 'nmjl-4p');
      const game = mahJonggGame(rules, b.card === undefined ? ctx.card.cc : await savedCard(req, player, b.card));
      const bots = b.bots !== undefined && b.bots.length > 0 ? b.bots : new Array<string>(rules.players - 1).fill(b.level ?? 'medium');
      return { game, seat: b.seat ?? 0, bots, seed: b.seed, autoPlay: b.autoPlay };
    },
    actionBody: ActionBody,
    answer: GameAnswer,
  });

  app.post(
    '/games/:id/hint',
    {
      preHandler: ctx.heavy,
      preValidation: emptyBody,
      schema: {
        summary: 'Advice for the decision the seat faces now',
        security: Bearer,
        params: GameId,
        body: Strict(
          {
            // no seed: discard and call advice draw theirs from the decision, so the hint and the review agree
            worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: ctx.limits.maxWorlds })),
          },
          { examples: [{ worlds: 24 }] },
        ),
        response: { 200: Type.Object({ kind: Type.String(), text: Type.String(), action: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }), ...ERRORS },
      },
    },
    async (req) => {
      const b = req.body;
      const task = await tables.atSeat(req.params.id, bearer(req), MAH_JONGG, (game, state, seat) => {
        const v = game.view(state, seat);
        const legal = game.legalActions(state, seat);
        if (legal.length === 0 || v.phase === 'ended') throw new TilemateError('TM_NOT_YOUR_TURN', `seat ${v.seat} has nothing to decide now`);
        return { kind: 'hint' as const, cardText: (game as MahJonggGame).cc.card.text, view: v, legal, worlds: b.worlds ?? ctx.limits.hintWorlds, fit: b.worlds === undefined };
      });
      return ctx.pool.request<HintJson>(task, asker(req));
    },
  );

  // issue 29, defence: how safe each tile on the rack is to discard, for the page's warning
  // before a dangerous discard (a few card lines per opponent: no worker needed)
  app.get(
    '/games/:id/defence',
    {
      schema: {
        summary: "How safe each tile on the seat's rack is to discard now, from what the seat can see, and the hands it may call dead",
        security: Bearer,
        params: GameId,
        response: { 200: DefenceAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { game, v, at } = await tables.atSeat(req.params.id, bearer(req), MAH_JONGG, (game, state, seat) => ({ game, v: game.view(state, seat), at: state.actionCount }));
      return { at, ...seatDefence(game as MahJonggGame, v) };
    },
  );

  app.get(
    '/games/:id/card',
    {
      schema: {
        summary: "The card analysed for the seat's rack and exposures now, with the tiles seen on the table",
        security: Bearer,
        params: GameId,
        querystring: TopQuery,
        response: { 200: CardAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { game, v } = await tables.atSeat(req.params.id, bearer(req), MAH_JONGG, (game, state, seat) => ({ game, v: game.view(state, seat) }));
      return seatCard(ctx, game as MahJonggGame, v, req.query.top);
    },
  );
});

/** The defence's answer (issue 29): each tile on the seat's rack rated, and the hands she may call dead. */
export const DefenceAnswer = Type.Object({
  /** The move it answers for: a page whose game has moved on since (an answer it lost) does not warn on an old rack. */
  at: Type.Integer(),
  tiles: Type.Array(
    Type.Object({
      tile: Type.String(),
      level: Type.Union([Type.Literal('safe'), Type.Literal('risky'), Type.Literal('dangerous')]),
      why: Type.String(),
      warning: Type.Optional(Type.String()),
    }),
  ),
  deadCalls: Type.Array(Type.Object({ target: Type.Integer(), rack: Type.Integer(), text: Type.String() })),
});

/** The defence for a seat's view, with tile names (agents/mah-jongg/defence.ts; the view only, never a hidden tile). */
export function seatDefence(game: MahJonggGame, v: SeatView) {
  return {
    tiles: tileSafety(game.cc, v).map((x) => ({ tile: tileName(x.tile), level: x.level, why: x.why, ...(x.warning !== undefined && { warning: x.warning }) })),
    deadCalls: deadCalls(game.cc, v),
  };
}

export const TopQuery = Type.Object({ top: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })) });
export const CardAnswer = Type.Object({ card: Type.String(), results: Type.Array(LineResult) });

/** The card panel's answer: every line (or the closest `top`) for a seat's rack and exposures, with the tiles seen on the table. */
export function seatCard(ctx: Pick<Services, 'cards'>, game: MahJonggGame, v: SeatView, top: string | undefined) {
  const { cc } = game;
  const input = seatAnalysisInput(v);
  const results = ctx.cards.analyzer(cc).analyze(input, { top: top === undefined ? cc.lineCount : Math.max(1, Number(top)) });
  return { card: cc.card.name, results: results.map((r) => lineResultJson(cc, r, input)) };
}
