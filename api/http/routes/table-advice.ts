import { Type } from 'typebox';
import type { CourtesyAdvice, VoteAdvice } from '../../../agents/mah-jongg/advice.js';
import { asker } from '../accounts.js';
import { routes } from '../services.js';
import { CardText, ERRORS, Strict, Tiles } from './schemas.js';

/**
 * Advice for the two moments between the Charlestons that have no game to ask: the vote on a
 * second Charleston and the courtesy pass (the CLI's `advise vote` and `advise courtesy`).
 * Both look ahead over sampled passes, so they run in the worker pool on the heavy budget.
 */
export const tableAdviceRoutes = routes('table-advice', ['cardText', 'heavy', 'pool'], (app, ctx) => {
  const body = Strict(
    { hand: Tiles('your 13 tiles (14 for East) after the first Charleston, e.g. "1B 1B 2C 3D N RD F J ..."'), card: CardText },
    {
      examples: [{ hand: '2B 2B 4B 4B 6B 6B 6B 8B 8B F F J N' }],
    },
  );

  app.post(
    '/vote',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "After the first Charleston: vote to go on to the second, or stop it (the CLI's advise vote --json)",
        body,
        response: {
          200: Type.Object({ hand: Type.String(), secondCharleston: Type.Boolean(), tilesAwayNow: Type.Integer(), expectedAway: Type.Number(), why: Type.String() }),
          ...ERRORS,
        },
      },
    },
    async (req) => ctx.pool.request<VoteAdvice>({ kind: 'vote', cardText: req.body.card ?? ctx.cardText, hand: req.body.hand }, asker(req)),
  );

  app.post(
    '/courtesy',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "The courtesy pass: how many tiles (0-3) to offer across, and which (the CLI's advise courtesy --json)",
        body,
        response: {
          200: Type.Object({ hand: Type.String(), offer: Type.Array(Type.String()), tilesAwayNow: Type.Integer(), expectedAway: Type.Number(), why: Type.String() }),
          ...ERRORS,
        },
      },
    },
    async (req) => ctx.pool.request<CourtesyAdvice>({ kind: 'courtesy', cardText: req.body.card ?? ctx.cardText, hand: req.body.hand }, asker(req)),
  );
});
