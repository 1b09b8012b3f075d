import { Type } from 'typebox';
import { analysisInput } from '../../../engine/mah-jongg/analyzer.js';
import { TilemateError } from '../../../engine/errors.js';
import { COPIES } from '../../../engine/mah-jongg/tiles.js';
import { asker } from '../accounts.js';
import { routes } from '../services.js';
import type { AnalyzeJson } from '../heavy-tasks.js';
import { cardJson, lineResultJson } from '../../shared/wire.js';
import { CardText, ERRORS, LineResult, Strict, Tiles } from './schemas.js';

/** The routes that need no game: health, the card, analysis, Charleston and decision advice. */

const MAX_DEALS = 2000;

export const analysisRoutes = routes('analysis', ['card', 'cardText', 'heavy', 'limits', 'pool', 'tables'], (app, ctx) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Ready: 200 once the server can answer',
        response: { 200: Type.Object({ ok: Type.Boolean(), card: Type.String(), games: Type.Integer() }) },
      },
    },
    async () => ({ ok: true, card: ctx.card.cc.card.name, games: await ctx.tables.gamesInProgress() }),
  );

  app.get(
    '/card',
    {
      schema: {
        summary: "The server's card: every line with its pattern, value, concealed, jokers",
        response: {
          200: Type.Object({
            name: Type.String(),
            sections: Type.Array(Type.String()),
            lines: Type.Array(
              Type.Object({
                index: Type.Integer(),
                id: Type.String(),
                section: Type.String(),
                pattern: Type.String(),
                value: Type.Integer(),
                concealed: Type.Boolean(),
                jokers: Type.Boolean(),
              }),
            ),
          }),
          ...ERRORS,
        },
      },
    },
    async () => cardJson(ctx.card.cc),
  );

  // Analysis on the server's card is cheap and has the general limit. With `simulate` it plays
  // deals out, and a posted card must be compiled first (a fraction of a second for a large
  // one): those run in the worker pool and spend the heavy budget (checked once the body is read).
  const heavyAnalysis = (req: { body: unknown }): boolean => {
    const b = req.body as { simulate?: unknown; card?: unknown } | undefined;
    return (b?.simulate !== undefined && b.simulate !== false) || (b?.card !== undefined && b.card !== ctx.cardText);
  };
  app.post(
    '/analyze',
    {
      preHandler: async (req) => {
        if (heavyAnalysis(req)) await ctx.heavy(req);
      },
      schema: {
        summary: "Which card lines a hand should chase (the CLI's analyze --json), each form tile by tile",
        body: Strict(
          {
            hand: Tiles('concealed tiles, e.g. "1B 1B 2C 3D N RD F J ..."'),
            card: CardText,
            exposed: Type.Optional(Tiles('groups exposed on the rack, separated by ";"')),
            seen: Type.Optional(Tiles('tiles discarded on the table')),
            others: Type.Optional(
              Strict(
                {
                  right: Type.Optional(Tiles('exposures of the player to your right')),
                  across: Type.Optional(Tiles('exposures of the player across')),
                  left: Type.Optional(Tiles('exposures of the player to your left')),
                },
                { description: "other players' exposures: seen, and still part of their 13 tiles (not gone from the wall)" },
              ),
            ),
            top: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
            all: Type.Optional(Type.Boolean()),
            simulate: Type.Optional(Type.Union([Type.Boolean(), Type.Integer({ minimum: 1, maximum: MAX_DEALS })], { description: "each line's chance over N simulated deals (true: 200)" })),
            seed: Type.Optional(Type.Integer({ minimum: 0 })),
            wall: Type.Optional(Type.Integer({ minimum: 0 })),
          },
          { examples: [{ hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J', top: 3 }] },
        ),
        response: {
          200: Type.Object({
            hand: Type.String(),
            card: Type.String(),
            simulation: Type.Optional(Type.Object({ deals: Type.Integer(), seed: Type.Integer(), wall: Type.Integer(), draws: Type.Integer(), model: Type.String() })),
            results: Type.Array(LineResult),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const b = req.body;
      if (heavyAnalysis(req)) return ctx.pool.request<AnalyzeJson>({ kind: 'analyze', cardText: b.card ?? ctx.cardText, body: b }, asker(req));
      const { cc, analyzer } = ctx.card;
      const input = analysisInput(COPIES, b.hand, b.exposed ?? '', b.seen ?? '', b.others ?? {}); // a typed hand, no game: the standard set
      const results = analyzer.analyze(input, { top: b.all ? cc.lineCount : (b.top ?? 5) });
      return {
        hand: b.hand,
        card: cc.card.name,
        results: results.map((r) => lineResultJson(cc, r, input)),
      };
    },
  );

  app.post(
    '/charleston',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "The three tiles to pass, whether to pass blind, and why (the CLI's advise charleston --json)",
        body: Strict(
          {
            hand: Tiles('13 or 14 tiles (East holds 14)'),
            direction: Type.Optional(Type.Union([Type.Literal('right'), Type.Literal('across'), Type.Literal('left')])),
            blind: Type.Optional(Type.Boolean({ description: 'a blind pass is allowed on this pass' })),
            card: CardText,
          },
          { examples: [{ hand: '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E', direction: 'right', blind: false }] },
        ),
        response: { 200: Type.Object({}, { additionalProperties: true }), ...ERRORS },
      },
    },
    async (req) => {
      const b = req.body;
      return ctx.pool.request<Record<string, unknown>>({ kind: 'charleston', cardText: b.card ?? ctx.cardText, hand: b.hand, direction: b.direction ?? 'right', blind: b.blind === true }, asker(req));
    },
  );

  app.post(
    '/advice',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "Discard, call or joker-exchange advice from playouts of sampled deals (the CLI's advise discard|call --json)",
        body: Strict(
          {
            question: Type.Union([Type.Literal('discard'), Type.Literal('call')]),
            hand: Tiles('concealed tiles: 14 on your turn to discard, 13 to answer a discard (fewer with exposures)'),
            exposed: Type.Optional(Tiles('groups exposed on your rack, separated by ";"')),
            seen: Type.Optional(Tiles('tiles discarded on the table')),
            others: Type.Optional(
              Strict(
                {
                  right: Type.Optional(Tiles('exposures of the player to your right')),
                  across: Type.Optional(Tiles('exposures of the player across')),
                  left: Type.Optional(Tiles('exposures of the player to your left')),
                },
                { additionalProperties: false },
              ),
            ),
            tile: Type.Optional(Type.String({ maxLength: 10, description: 'call: the discard' })),
            from: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Integer()], { description: 'call: who discarded it (right, across, left, or seats to your right)' })),
            wall: Type.Optional(Type.Integer({ minimum: 0 })),
            ruleset: Type.Optional(Type.String({ maxLength: 40 })),
            worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: ctx.limits.maxWorlds, description: 'sampled deals (default: the one budget the in-game hint and the review use)' })),
            seed: Type.Optional(Type.Integer({ minimum: 0, description: "default: drawn from the situation itself, so the answer is the in-game hint's and the review's for the same moment" })),
            candidates: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
            card: CardText,
          },
          { examples: [{ question: 'call', hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J', tile: '2B', from: 'right', worlds: 8, seed: 1 }] },
        ),
        response: { 200: Type.Object({}, { additionalProperties: true }), ...ERRORS },
      },
    },
    async (req) => {
      const b = req.body;
      if (b.question === 'call' && b.tile === undefined) throw new TilemateError('TM_BAD_INPUT', 'call advice needs "tile": the discard to answer');
      const input = { hand: b.hand, exposed: b.exposed, seen: b.seen, others: b.others, wall: b.wall, ruleset: b.ruleset, tile: b.tile, from: b.from };
      return ctx.pool.request<Record<string, unknown>>(
        { kind: 'advice', cardText: b.card ?? ctx.cardText, question: b.question, input, search: { worlds: b.worlds, seed: b.seed, candidates: b.candidates } },
        asker(req),
      );
    },
  );
});
