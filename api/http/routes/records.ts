import { Type } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import { asker, whoseGames } from '../accounts.js';
import { routes, type Services } from '../services.js';
import { compileRecordCard } from '../card-compile.js';
import { recordSteps } from '../../shared/steps.js';
import type { ReviewJson } from '../../shared/wire.js';
import { ERRORS, Strict } from './schemas.js';

/** Finished games' records, and the review of a record for one seat. */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

/** A finished game's record text, when the player may read it (hers, her student's, or from before accounts). */
export async function readRecord(ctx: Pick<Services, 'games'>, id: string, player: string | null): Promise<string> {
  const text = ID.test(id) ? await ctx.games.recordText(id, player) : null;
  if (text === null) throw new TilemateError('TM_NOT_FOUND', `no record "${id}"`);
  return text;
}

/** The finished records the player may read, newest first, a page at a time; `only`: hers alone (a coach's student's). Who created each is not shown; her seat is. */
async function listRecords(ctx: Pick<Services, 'games'>, player: string | null, page: { offset: number; limit: number }, only: boolean) {
  const { records, total } = await ctx.games.records(player, page, only);
  return { records: records.map(({ owner: _, player: __, ...r }) => r), total };
}

const RecordSummary = Type.Object({
  id: Type.String(),
  game: Type.String({ description: 'mah-jongg or mexican-train' }),
  ruleset: Type.String(),
  card: Type.Optional(Type.String({ description: "the card's name (Mah Jongg)" })),
  seed: Type.Integer(),
  seats: Type.Array(Type.String()),
  winners: Type.Array(Type.Integer()),
  scores: Type.Array(Type.Number({ description: 'points (Mah Jongg), pips left (Mexican Train)' })),
  wallGame: Type.Optional(Type.Boolean()),
  actions: Type.Integer(),
  finishedAt: Type.String(),
  seat: Type.Union([Type.Integer(), Type.Null()], { description: 'your seat in it (null: a game kept before accounts)' }),
});

export const recordRoutes = routes('records', ['accounts', 'cards', 'games', 'heavy', 'limits', 'players', 'pool', 'reviews'], (app, ctx) => {
  app.get(
    '/records',
    {
      schema: {
        summary: 'Your finished games (and those kept before accounts), newest first, a page at a time (?offset=N&limit=M)',
        querystring: Type.Object({
          offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$', description: 'skip the newest N (default 0)' })),
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: `at most M records (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})` })),
          student: Type.Optional(Type.String({ maxLength: 40, description: "a student's name: her games (for her coach)" })),
        }),
        response: { 200: Type.Object({ records: Type.Array(RecordSummary), total: Type.Integer() }), ...ERRORS },
      },
    },
    async (req) => {
      const limit = req.query.limit === undefined ? DEFAULT_PAGE : Number(req.query.limit);
      if (limit < 1 || limit > MAX_PAGE) throw new TilemateError('TM_BAD_INPUT', `limit ${limit}: expected 1 to ${MAX_PAGE}`);
      const whose = await whoseGames(ctx.accounts, ctx.players, req, req.query.student);
      return listRecords(ctx, whose, { offset: req.query.offset === undefined ? 0 : Number(req.query.offset), limit }, req.query.student !== undefined);
    },
  );

  app.get(
    '/records/:id',
    {
      schema: {
        summary: 'One finished game: its header, end line and the record itself (JSONL); ?format=jsonl sends the file',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('jsonl')])) }),
        response: {
          200: Type.Union([
            Type.Object({
              id: Type.String(),
              header: Type.Object({}, { additionalProperties: true }),
              end: Type.Object({}, { additionalProperties: true }),
              actions: Type.Integer(),
              text: Type.String(),
            }),
            Type.String(),
          ]),
          ...ERRORS,
        },
      },
    },
    async (req, reply) => {
      const text = await readRecord(ctx, req.params.id, (await ctx.accounts.current(req))?.id ?? null);
      if (req.query.format === 'jsonl') return reply.type('application/x-ndjson').send(text);
      const lines = text.trimEnd().split('\n');
      return { id: req.params.id, header: JSON.parse(lines[0]), end: JSON.parse(lines[lines.length - 1]).end ?? {}, actions: lines.length - 2, text };
    },
  );

  app.get(
    '/records/:id/steps',
    {
      schema: {
        summary: "A finished Mah Jongg game move by move, as one seat saw it: each move, and after it her rack, every seat's exposures and discards (to step through)",
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ seat: Type.Optional(Type.String({ pattern: '^[0-7]$' })) }),
        response: { 200: Type.Object({ seat: Type.Integer(), seats: Type.Array(Type.String()), steps: Type.Array(Type.Object({}, { additionalProperties: true })) }), ...ERRORS },
      },
    },
    async (req) => {
      const text = await readRecord(ctx, req.params.id, (await ctx.accounts.current(req))?.id ?? null);
      await compileRecordCard(ctx, req, text);
      return recordSteps(text, req.query.seat === undefined ? undefined : Number(req.query.seat), ctx.cards.compile);
    },
  );

  app.post(
    '/review',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "Each of a seat's decisions in a finished game against the engine's choice, biggest mistakes first",
        body: Strict(
          {
            record: Type.Optional(Type.String({ description: 'a record (JSONL text)' })),
            recordId: Type.Optional(Type.String({ maxLength: 64, description: 'or the id of a record on this server' })),
            seat: Type.Integer({ minimum: 0, maximum: 7 }),
            worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: ctx.limits.maxReviewWorlds })),
            seed: Type.Optional(Type.Integer({ minimum: 0 })),
            top: Type.Optional(Type.Integer({ minimum: 1, description: 'send only the first N decisions (the summary still counts them all)' })),
          },
          { examples: [{ recordId: 'the id from GET /api/records', seat: 0, top: 10 }] },
        ),
        response: {
          200: Type.Object({
            seat: Type.Integer(),
            ruleset: Type.String(),
            card: Type.String(),
            worlds: Type.Integer(),
            summary: Type.Object({
              decisions: Type.Integer(),
              agreed: Type.Integer(),
              disagreed: Type.Integer(),
              mistakes: Type.Optional(Type.Integer()),
              totalLoss: Type.Number(),
              totalTilesLost: Type.Integer(),
              text: Type.Optional(Type.String()),
            }),
            decisions: Type.Array(Type.Object({ index: Type.Integer(), phase: Type.String(), loss: Type.Number() }, { additionalProperties: true })),
            dead: Type.Optional(Type.Object({ index: Type.Integer(), by: Type.Integer(), why: Type.String() })),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const b = req.body;
      if ((b.record === undefined) === (b.recordId === undefined)) throw new TilemateError('TM_BAD_INPUT', 'give one of "record" (the JSONL text) or "recordId"');
      const text = b.record ?? (await readRecord(ctx, b.recordId!, (await ctx.accounts.current(req))?.id ?? null));
      const worlds = b.worlds ?? ctx.limits.reviewWorlds;
      // a kept record's review on the default seeds is the same each time: computed once (joined while
      // it is worked out, in the background or for someone else), then kept with the game (api/http/reviews.ts)
      const review =
        b.recordId !== undefined && b.seed === undefined
          ? await ctx.reviews.review(b.recordId, b.seat, worlds, text, asker(req))
          : await ctx.pool.request<ReviewJson>({ kind: 'review', record: text, seat: b.seat, worlds, seed: b.seed }, asker(req));
      // one review may answer several people: each answer is cut from it, never it
      return b.top === undefined ? review : { ...review, decisions: review.decisions.slice(0, b.top) };
    },
  );

  app.get(
    '/review/progress',
    {
      schema: {
        summary:
          "How far the review of a kept game's seat has got while it is worked out on this server (for whoever asked for it, and the player whose game it is); running false when none is (not yet, done, or not hers to see)",
        querystring: Type.Object({
          recordId: Type.String({ maxLength: 64, description: 'the id of a record on this server' }),
          seat: Type.String({ pattern: '^[0-7]$' }),
        }),
        response: {
          200: Type.Object({
            running: Type.Boolean({ description: 'a review of it is being worked out for you now' }),
            done: Type.Optional(Type.Integer({ description: "the action number reached: the review has looked at the record's actions up to it" })),
            total: Type.Optional(Type.Integer({ description: 'the actions in the record' })),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const { recordId } = req.query;
      const seat = Number(req.query.seat);
      // a page asks every 2 seconds while its review request is open: none under way is an answer, not an error
      const progress = await ctx.reviews.progress(recordId, seat, asker(req).person, async () => (await ctx.accounts.current(req))?.id ?? null);
      return progress === null ? { running: false } : { running: true, ...progress };
    },
  );
});
