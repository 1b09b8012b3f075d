import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AGENT_NAMES } from '../../../agents/levels.js';
import { legalActions, view } from '../../../engine/game.js';
import { RULESETS } from '../../../engine/rulesets.js';
import type { AppContext } from '../app.js';
import { TilemateError } from '../../../engine/errors.js';
import type { HintJson } from '../seat-advice.js';
import { lineResultJson, parseActionJson, seenBy } from '../wire.js';
import type { Api } from './analysis.js';
import { ActionBody, Bearer, ERRORS, GameAnswer, LineResult, Strict } from './schemas.js';

/**
 * Games against bots: create, look, act, ask for a hint, see the card for the rack. Every
 * route but create needs the game's token, and every answer is that seat's view only.
 */

/** The token of `Authorization: Bearer <token>`, or undefined. */
function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}

const GameId = Type.Object({ id: Type.String({ maxLength: 64 }) });

export function gameRoutes(app: Api, ctx: AppContext): void {
  const { store } = ctx;

  // no body at all is an empty one (the schemas would see `undefined` and refuse it)
  const emptyBody = async (req: FastifyRequest) => { if (req.body === undefined) req.body = {}; };

  app.post('/games', {
    preValidation: emptyBody,
    schema: {
      summary: 'A new game against bots; the answer holds the token that opens it',
      body: Strict({
        ruleset: Type.Optional(Type.String({ maxLength: 40, description: Object.keys(RULESETS).join(', ') })),
        level: Type.Optional(Type.String({ maxLength: 40, description: AGENT_NAMES.join(', ') })),
        bots: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 8, description: 'one bot per other seat, in seat order' })),
        seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        autoPlay: Type.Optional(Type.Boolean({ description: 'make your forced draws and declines for you (default true)' })),
        card: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,39}$', description: 'the name of a saved card to play on (PUT /api/cards/:name); default: the server\'s card' })),
      }, { examples: [{ ruleset: 'nmjl-4p', level: 'medium', seed: 7 }] }),
      response: { 201: GameAnswer, ...ERRORS },
    },
  }, async (req, reply) => {
    const { card, ...opts } = req.body;
    const answer = await store.create(card === undefined ? opts : { ...opts, cardText: ctx.savedCard(card) }, req.ip);
    return reply.code(201).send(answer);
  });

  app.get('/games/:id', {
    schema: {
      summary: 'The seat\'s view of the game now, with its legal actions and the events it has not been told',
      security: Bearer,
      params: GameId,
      querystring: Type.Object({ since: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'list the events after action N' })) }),
      response: { 200: GameAnswer, ...ERRORS },
    },
  }, async (req) => {
    const g = store.open(req.params.id, bearer(req));
    return store.exclusive(g, () => store.answer(g, req.query.since === undefined ? undefined : Number(req.query.since)));
  });

  app.post('/games/:id/actions', {
    schema: {
      summary: 'The seat\'s action; the bots then move until the seat must decide again or the game ends',
      security: Bearer,
      params: GameId,
      body: ActionBody,
      response: { 200: GameAnswer, ...ERRORS },
    },
  }, async (req) => {
    const g = store.open(req.params.id, bearer(req));
    return store.act(g, parseActionJson(req.body, g.seat), req.body.after);
  });

  app.post('/games/:id/hint', {
    preHandler: ctx.heavy,
    preValidation: emptyBody,
    schema: {
      summary: 'Advice for the decision the seat faces now',
      security: Bearer,
      params: GameId,
      body: Strict({
        worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: ctx.limits.maxWorlds })),
        seed: Type.Optional(Type.Integer({ minimum: 0 })),
      }, { examples: [{ worlds: 24, seed: 1 }] }),
      response: { 200: Type.Object({ kind: Type.String(), text: Type.String(), action: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }), ...ERRORS },
    },
  }, async (req) => {
    const g = store.open(req.params.id, bearer(req));
    const b = req.body;
    const task = await store.exclusive(g, () => {
      const v = view(g.state, g.seat);
      const legal = legalActions(g.state, g.seat);
      if (legal.length === 0 || v.phase === 'ended') throw new TilemateError('TM_NOT_YOUR_TURN', `seat ${v.seat} has nothing to decide now`);
      return { kind: 'hint' as const, cardText: g.card.text, view: v, legal, worlds: b.worlds ?? ctx.limits.hintWorlds, seed: b.seed ?? g.state.actionCount + 1 };
    });
    return ctx.pool.request<HintJson>(task, req.ip);
  });

  app.get('/games/:id/card', {
    schema: {
      summary: 'The card analysed for the seat\'s rack and exposures now, with the tiles seen on the table',
      security: Bearer,
      params: GameId,
      querystring: Type.Object({ top: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })) }),
      response: { 200: Type.Object({ card: Type.String(), results: Type.Array(LineResult) }), ...ERRORS },
    },
  }, async (req) => {
    const g = store.open(req.params.id, bearer(req));
    const v = await store.exclusive(g, () => view(g.state, g.seat));
    const cc = g.card.cc;
    const input = { concealed: [...v.concealed], exposures: v.exposures[g.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers })), seen: seenBy(v) };
    const top = req.query.top === undefined ? cc.lineCount : Math.max(1, Number(req.query.top));
    const results = g.card.analyzer.analyze(input, { top });
    return { card: cc.card.name, results: results.map((r) => lineResultJson(cc, r, input.concealed, input.exposures)) };
  });
}
