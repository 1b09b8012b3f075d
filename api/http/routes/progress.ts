import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { progress, type Progress } from '../../../agents/coach/progress.js';
import { TilemateError } from '../../../engine/errors.js';
import { signedIn, whoseGames } from '../accounts.js';
import { routes } from '../services.js';
import { progressChart } from '../progress-chart.js';
import { ERRORS, Strict } from './schemas.js';

/**
 * A player's progress (in words, as numbers, as a chart), and her coaches: she invites a coach
 * with a code, the coach then sees her games, reviews and progress (`?student=NAME` on these
 * routes and on /api/records), and she can withdraw it at any time.
 */

/** Games and reviews progress reads at most (the newest). */
const MAX_GAMES = 1000;
const MAX_REVIEWS = 300;
/** How long an invitation code stays good. */
const INVITE_DAYS = 7;

const codeHash = (code: string): Buffer => createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest();
/** A code to read out or type: 10 letters and digits without look-alikes (0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newCode = (): string =>
  Array.from(randomBytes(10), (b) => ALPHABET[b % ALPHABET.length])
    .join('')
    .replace(/^(.{5})/, '$1-');

const Student = Type.Object({ student: Type.Optional(Type.String({ maxLength: 40, description: "a student's name (for her coach)" })) });
const ChartQuery = Type.Object({
  ...Student.properties,
  size: Type.Optional(Type.Union([Type.Literal('phone'), Type.Literal('wide')], { description: 'phone: narrower, with bigger words (default wide)' })),
});
const Names = Type.Array(Type.Object({ name: Type.String() }));

export const progressRoutes = routes('progress', ['accounts', 'games', 'heavy', 'players'], (app, ctx) => {
  const { accounts: acc, players } = ctx;

  async function progressOf(req: FastifyRequest, student: string | undefined): Promise<Progress> {
    const id = await whoseGames(acc, players, req, student);
    if (id === null) return progress([], []);
    return progress(await ctx.games.played(id, MAX_GAMES), await ctx.games.reviewsOf(id, MAX_REVIEWS), new Date(), student);
  }

  const ProgressAnswer = Type.Object({
    said: Type.Array(Type.String()),
    weeks: Type.Array(Type.Object({ week: Type.String(), game: Type.String(), against: Type.String(), games: Type.Integer(), winShare: Type.Number(), meanScore: Type.Number() })),
    mistakes: Type.Array(Type.Object({ week: Type.String(), kind: Type.String(), reviewed: Type.Integer(), mistakes: Type.Integer(), costPerGame: Type.Number() })),
    habits: Type.Array(
      Type.Object({
        kind: Type.String(),
        mistakes: Type.Integer(),
        cost: Type.Number(),
        example: Type.Object({ recordId: Type.String(), index: Type.Integer(), chosen: Type.String(), suggested: Type.String(), why: Type.String() }),
      }),
    ),
    games: Type.Integer(),
    reviewed: Type.Integer(),
  });

  app.get(
    '/progress',
    {
      schema: { summary: "Your progress week by week (or, for her coach, a student's): in words, and the numbers behind them", querystring: Student, response: { 200: ProgressAnswer, ...ERRORS } },
    },
    async (req) => progressOf(req, req.query.student),
  );

  app.get(
    '/progress/chart.svg',
    {
      preHandler: ctx.heavy,
      schema: { summary: "The progress chart (SVG): games won by the bots' level, and what mistakes cost, week by week", querystring: ChartQuery, response: { 200: Type.String(), ...ERRORS } },
    },
    async (req, reply) => reply.type('image/svg+xml').send(await progressChart(await progressOf(req, req.query.student), { narrow: req.query.size === 'phone' })),
  );

  app.post(
    '/coach/invite',
    {
      schema: {
        summary: 'A code to give your coach: with it she sees your games, reviews and progress (good for a week, used once)',
        response: { 200: Type.Object({ code: Type.String(), expires: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await signedIn(acc, req);
      const code = newCode();
      const expires = new Date(Date.now() + INVITE_DAYS * 86_400_000);
      await players.invite(me.id, codeHash(code), expires);
      return { code, expires: expires.toISOString() };
    },
  );

  app.post(
    '/coach/students',
    {
      schema: {
        summary: "A coach takes a student's code",
        body: Strict({ code: Type.String({ maxLength: 20 }) }, { examples: [{ code: 'ABCDE-FGHJK' }] }),
        response: { 200: Type.Object({ student: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await signedIn(acc, req);
      const student = await players.acceptInvite(me.id, codeHash(req.body.code));
      if (student === null) throw new TilemateError('TM_NOT_FOUND', 'that code is not one your student gave, or it is more than a week old: ask her for a new one');
      return { student };
    },
  );

  app.get(
    '/coach/students',
    {
      schema: { summary: 'The students who share their games with you', response: { 200: Type.Object({ students: Names }), ...ERRORS } },
    },
    async (req) => ({ students: (await players.students((await signedIn(acc, req)).id)).map(({ name }) => ({ name })) }),
  );

  app.get(
    '/coach/coaches',
    {
      schema: { summary: 'The coaches you share your games with', response: { 200: Type.Object({ coaches: Names }), ...ERRORS } },
    },
    async (req) => ({ coaches: (await players.coaches((await signedIn(acc, req)).id)).map(({ name }) => ({ name })) }),
  );

  app.delete(
    '/coach/coaches/:name',
    {
      schema: {
        summary: 'Stops sharing your games with a coach',
        params: Type.Object({ name: Type.String({ maxLength: 40 }) }),
        response: { 200: Type.Object({ withdrawn: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await signedIn(acc, req);
      if (!(await players.withdraw(me.id, req.params.name))) throw new TilemateError('TM_NOT_FOUND', `${req.params.name} is not one of your coaches`);
      return { withdrawn: req.params.name };
    },
  );
});
