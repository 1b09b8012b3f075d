import { Type } from 'typebox';
import { DOMINO_AGENT_NAMES } from '../../../agents/domino/levels.js';
import type { DominoAdvice } from '../../../agents/domino/advise.js';
import { MEXICAN_TRAIN, mexicanTrainGame, type MexicanTrainGame, type MexicanTrainSpec } from '../../../engine/domino/mexican-train.js';
import { DOMINO_RULESETS, loadDominoRuleset } from '../../../engine/domino/rulesets.js';
import type { DominoView } from '../../../engine/domino/game.js';
import { viewFromTable, type TableInput } from '../../../engine/domino/table-state.js';
import { parseDominoes } from '../../../engine/domino/tiles.js';
import { TilemateError } from '../../../engine/errors.js';
import { adviceJson } from '../../shared/domino-wire.js';
import { asker, bearer } from '../accounts.js';
import type { Asker } from '../heavy.js';
import { routes } from '../services.js';
import { Bearer, emptyBody, GameId, liveGameRoutes } from './live-games.js';
import { DominoActionBody, ERRORS, Strict } from './schemas.js';

/**
 * Mexican Train over HTTP (`/api/domino/...`): create, look and act (every game's routes,
 * routes/live-games.ts), and Mexican Train's own: a hint on the seat's move (from its own
 * view), and advice on a described table.
 */

const ActionOut = Type.Object({ type: Type.String(), seat: Type.Integer(), tile: Type.Optional(Type.String()), train: Type.Optional(Type.Union([Type.Integer(), Type.String()])) });
const Answer = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String()),
  seat: Type.Integer(),
  seats: Type.Array(Type.String()),
  view: Type.Unknown({ description: "the seat's view: its hand, every train, hand counts, the boneyard count, scores" }),
  legal: Type.Array(ActionOut),
  events: Type.Array(Type.Object({ n: Type.Integer(), action: ActionOut })),
  at: Type.Integer({ description: 'actions applied so far: send it as "after" with the next action to make a retry safe' }),
  recordId: Type.Union([Type.String(), Type.Null()], { description: "the finished game's record (GET /api/records/:id)" }),
});
const AdviceAnswer = Type.Object({
  suggest: ActionOut,
  path: Type.Array(Type.String()),
  ownEnd: Type.Integer(),
  candidates: Type.Optional(Type.Array(Type.Object({ action: ActionOut, value: Type.Number() }))),
});

/** Sampled worlds a hint or advice may ask for. */
const MAX_WORLDS = 64;

interface CreateBody {
  ruleset?: string;
  players?: number;
  seat?: number;
  bots?: string[];
  seed?: number;
  round?: number;
}

export const dominoRoutes = routes('domino', ['accounts', 'cards', 'games', 'heavy', 'pool', 'tables'], (app, ctx) => {
  const { tables } = ctx;
  const advise = (from: Asker, v: DominoView, worlds?: number, seed?: number) => ctx.pool.request<DominoAdvice>({ kind: 'domino-advice', view: v, worlds, seed }, from);
  const checkWorlds = (worlds: number | undefined) => {
    if (worlds !== undefined && worlds > MAX_WORLDS) throw new TilemateError('TM_BAD_INPUT', `worlds ${worlds}: at most ${MAX_WORLDS} on this server`);
  };

  liveGameRoutes<MexicanTrainSpec, CreateBody>(app, ctx, {
    type: MEXICAN_TRAIN,
    prefix: '/domino/games',
    createBody: Strict(
      {
        ruleset: Type.Optional(Type.String({ maxLength: 40, description: Object.keys(DOMINO_RULESETS).join(', ') })),
        players: Type.Optional(Type.Integer({ minimum: 2, maximum: 8 })),
        seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
        bots: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 7, description: `${DOMINO_AGENT_NAMES.join(', ')}: one for every other seat, or one per other seat` })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        round: Type.Optional(Type.Integer({ minimum: 0, maximum: 12, description: 'one round (0 = the first engine) instead of the whole game' })),
      },
      { examples: [{ ruleset: 'sun-lakes', players: 4, bots: ['greedy'], seed: 21 }] },
    ),
    newGame: (b) => {
      const game = mexicanTrainGame(loadDominoRuleset(b.ruleset ?? 'sun-lakes'), b.players ?? 4, b.round === undefined ? 'match' : { round: b.round });
      const given = b.bots ?? ['greedy'];
      const bots = given.length === 1 ? new Array<string>(game.players - 1).fill(given[0]) : given;
      return { game, seat: b.seat ?? 0, bots, seed: b.seed };
    },
    actionBody: DominoActionBody,
    answer: Answer,
  });

  app.post(
    '/domino/games/:id/hint',
    {
      preValidation: emptyBody,
      preHandler: ctx.heavy,
      schema: {
        summary: "Advice for the seat's move now, from its own view: the suggested play and the planned path for its own train",
        security: Bearer,
        params: GameId,
        body: Strict(
          {
            worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'value every legal play by playouts in this many sampled worlds' })),
            seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
          },
          { examples: [{ worlds: 100, seed: 1 }] },
        ),
        response: { 200: AdviceAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { worlds, seed } = req.body;
      checkWorlds(worlds);
      // the seat's view only, as /advise is given a described table: the advice cannot see another hand
      const { game, v, at } = await tables.atSeat(req.params.id, bearer(req), MEXICAN_TRAIN, (game, state, seat) => {
        if (game.isOver(state)) throw new TilemateError('TM_GAME_OVER', 'the game has ended: there is no move to advise on');
        // another seat's turn: nothing of hers to advise on (the advice would have no move to choose)
        if (game.legalActions(state, seat).length === 0) throw new TilemateError('TM_NOT_YOUR_TURN', 'it is not your turn: ask for a hint when you have a move to make');
        return { game, v: game.view(state, seat), at: state.actionCount };
      });
      return adviceJson(game as MexicanTrainGame, v, await advise(asker(req), v, worlds, seed ?? at + 1));
    },
  );

  app.post(
    '/domino/advise',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: 'The suggested play and the planned path for your own train, on a described table',
        body: Strict(
          {
            hand: Type.String({ maxLength: 400, description: 'your dominoes, e.g. "12-5 5-3 3-3"' }),
            state: Strict(
              {
                players: Type.Integer({ minimum: 2, maximum: 8 }),
                ruleset: Type.Optional(Type.String({ maxLength: 40 })),
                seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
                engine: Type.Optional(Type.Integer({ minimum: 0, maximum: 12 })),
                trains: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ maxLength: 1000 }))),
                marked: Type.Optional(Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: 7 }), Type.Literal('mexican')]), { maxItems: 9 })),
                handCounts: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 91 }), { maxItems: 8 })),
                boneyard: Type.Optional(Type.Integer({ minimum: 0, maximum: 91 })),
                openDoubles: Type.Optional(Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: 7 }), Type.Literal('mexican')]), { maxItems: 9 })),
              },
              { description: 'the table, as docs/mexican-train.md describes it' },
            ),
            worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'value every legal play by playouts in this many sampled worlds' })),
            seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
          },
          { examples: [{ hand: '5-3 3-3 3-9 9-1 11-11 0-4', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' }, marked: [2], handCounts: [6, 8, 9, 10] } }] },
        ),
        response: { 200: AdviceAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { hand, state, worlds, seed } = req.body;
      checkWorlds(worlds);
      const v = viewFromTable(state as TableInput, parseDominoes(hand));
      return adviceJson(mexicanTrainGame(loadDominoRuleset(v.ruleset), v.players), v, await advise(asker(req), v, worlds, seed));
    },
  );
});
