import { Type } from 'typebox';
import { checkDrill, DRILL_KINDS, DRILL_SEEDS, DRILL_WORLDS, dailyDrill } from '../../../agents/coach/drills.js';
import { asker } from '../accounts.js';
import type { AppContext } from '../app.js';
import type { DrillGradeJson, DrillJson, MistakeJson } from '../heavy-tasks.js';
import { daysUntil } from '../../../agents/coach/practice.js';
import { TilemateError } from '../../../engine/errors.js';
import { readRecord } from './records.js';
import type { Api } from './analysis.js';
import { ActionBody, CARD_CHOICE, ERRORS, namingFields, Strict, ViewSchema } from './schemas.js';

/**
 * Drills (issue 46, agents/coach/drills.ts): a decision at a dealt position, and her answer
 * graded by the coach's hint there. A drill is named by its kind, level and number: the server
 * deals it again for each request and keeps nothing. Both run in the worker pool on the heavy
 * budget (a position is played from its deal; the grade plays the choices out as a hint does).
 */
export function drillRoutes(app: Api, ctx: AppContext): void {
  const Kind = Type.Union(
    DRILL_KINDS.map((k) => Type.Literal(k)),
    { description: 'charleston (pass three), discard (which tile), call (call the discard or let it go)' },
  );
  const LEVEL = '1 early in the game and plainer, 3 later with more on the table';
  const SEED = 'the drill number: the same number deals the same position';
  const Level = Type.Integer({ minimum: 1, maximum: 3, description: LEVEL });
  const Seed = Type.Integer({ minimum: 0, maximum: DRILL_SEEDS - 1, description: SEED });
  const Card = Type.Optional(Type.String({ pattern: CARD_CHOICE, description: "a saved card's name (or shared:CODE) to drill on; default: the server's card" }));
  const Drill = Type.Object({
    kind: Type.String(),
    level: Type.Integer(),
    seed: Type.Integer(),
    deal: Type.Integer({ description: 'the deal the position is in (the drill number, or a later deal when that one never reached such a decision)' }),
    card: Type.String(),
    question: Type.String(),
    view: ViewSchema,
    legal: Type.Array(
      Type.Object({ type: Type.String(), seat: Type.Integer() }, { additionalProperties: true, description: 'a legal answer: post it back as "answer" (a pass says how many tiles to choose)' }),
    ),
    date: Type.Optional(Type.String({ description: "the day's puzzle: its date (UTC)" })),
  });

  const cardText = async (req: Parameters<typeof asker>[0], reply: Parameters<AppContext['accounts']['player']>[1], name: string | undefined): Promise<string> =>
    name === undefined ? ctx.cardText : ctx.savedCard(await ctx.accounts.player(req, reply), name);

  app.get(
    '/drills',
    {
      preHandler: ctx.heavy,
      schemaErrorFormatter: namingFields('a drill'),
      schema: {
        summary: 'A drill: the position and its question (a new number each time unless "seed" is given)',
        querystring: Strict({
          kind: Kind,
          level: Type.String({ pattern: '^[123]$', description: LEVEL }),
          seed: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}$', description: SEED })),
          card: Card,
        }),
        response: { 200: Drill, ...ERRORS },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const drill = checkDrill(q.kind, Number(q.level), q.seed === undefined ? Math.floor(Math.random() * DRILL_SEEDS) : Number(q.seed));
      return ctx.pool.request<DrillJson>({ kind: 'drill', cardText: await cardText(req, reply, q.card), drill }, asker(req));
    },
  );

  app.get(
    '/drills/daily',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "Today's puzzle: the same drill for everyone that day (UTC), on the server's card",
        response: { 200: Drill, ...ERRORS },
      },
    },
    async (req) => {
      const { date, ...drill } = dailyDrill(new Date());
      return { ...(await ctx.pool.request<DrillJson>({ kind: 'drill', cardText: ctx.cardText, drill }, asker(req))), date };
    },
  );

  app.post(
    '/drills/answer',
    {
      preHandler: ctx.heavy,
      schemaErrorFormatter: namingFields('a drill answer'),
      schema: {
        summary: "Her answer to a drill, graded by the coach's hint at the position: right when it is the coach's choice or about as good",
        body: Strict({ kind: Kind, level: Level, seed: Seed, card: Card, answer: ActionBody }, { examples: [{ kind: 'discard', level: 1, seed: 7, answer: { type: 'discard', tile: '9C' } }] }),
        response: {
          200: Type.Object({
            right: Type.Boolean(),
            agreed: Type.Boolean({ description: "the coach's own choice" }),
            asGood: Type.Boolean({ description: "another choice the coach's figures call about as good" }),
            verdict: Type.String({ description: 'one sentence: right or not, and what the coach would do' }),
            hint: Type.Object({ text: Type.String(), action: Type.Object({ type: Type.String() }, { additionalProperties: true }) }, { additionalProperties: true }),
          }),
          ...ERRORS,
        },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const drill = checkDrill(b.kind, b.level, b.seed);
      const { after: _, ...answer } = b.answer;
      return ctx.pool.request<DrillGradeJson>({ kind: 'drill-answer', cardText: await cardText(req, reply, b.card), drill, answer, worlds: DRILL_WORLDS }, asker(req));
    },
  );

  // ------------------------------------------------------------ her own mistakes, practised again

  /** How many of her mistakes the list names at once (the soonest due). */
  const LISTED = 20;
  const MistakeKey = { recordId: Type.String({ maxLength: 64 }), decision: Type.Integer({ minimum: 1, maximum: 100_000 }) };
  const theirs = async (req: Parameters<typeof asker>[0], recordId: string, decision: number) => {
    const me = await ctx.accounts.current(req);
    const m = me === null ? null : await ctx.practice.mistake(me.id, recordId, decision);
    if (me === null || m === null)
      throw new TilemateError('TM_NOT_FOUND', `no mistake of yours at action ${decision} of game "${recordId.slice(0, 64)}": the mistakes to practise come from the reviews of your own games`);
    return { me, m };
  };

  app.get(
    '/drills/mine',
    {
      schema: {
        summary: 'Her mistakes found by the reviews of her games, as drills: those due now (the soonest first), and how many of each kind',
        response: {
          200: Type.Object({
            due: Type.Array(Type.Object({ recordId: Type.String(), decision: Type.Integer(), kind: Type.String(), finishedAt: Type.String() })),
            dueCount: Type.Integer(),
            total: Type.Integer(),
            next: Type.Union([Type.String(), Type.Null()], { description: 'when the next one not yet due comes back' }),
            kinds: Type.Array(Type.Object({ kind: Type.String(), mistakes: Type.Integer(), due: Type.Integer(), answered: Type.Integer(), right: Type.Integer() })),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const me = await ctx.accounts.current(req);
      const all = me === null ? [] : await ctx.practice.mistakes(me.id);
      const now = Date.now();
      const due = all.filter((m) => m.due.getTime() <= now);
      const later = all.find((m) => m.due.getTime() > now);
      const kinds = ['charleston', 'discard', 'claims'].map((kind) => {
        const of = all.filter((m) => m.kind === kind);
        return { kind, mistakes: of.length, due: of.filter((m) => m.due.getTime() <= now).length, answered: of.reduce((a, m) => a + m.answered, 0), right: of.reduce((a, m) => a + m.rightAnswers, 0) };
      });
      return {
        due: due.slice(0, LISTED).map((m) => ({ recordId: m.recordId, decision: m.decision, kind: m.kind, finishedAt: m.finishedAt.toISOString() })),
        dueCount: due.length,
        total: all.length,
        next: later === undefined ? null : later.due.toISOString(),
        kinds,
      };
    },
  );

  app.get(
    '/drills/mine/:recordId/:decision',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: 'One of her mistakes as a drill: the moment of her game just before it, and the question (her answer then is not shown)',
        params: Type.Object({ recordId: Type.String({ maxLength: 64 }), decision: Type.String({ pattern: '^[0-9]{1,6}$' }) }),
        response: { 200: Type.Object({ kind: Type.String(), question: Type.String(), card: Type.String(), view: ViewSchema, legal: Drill.properties.legal }), ...ERRORS },
      },
    },
    async (req) => {
      const decision = Number(req.params.decision);
      const { me, m } = await theirs(req, req.params.recordId, decision);
      const record = await readRecord(ctx, m.recordId, me.id);
      return ctx.pool.request<MistakeJson>({ kind: 'mistake', record, seat: m.seat, decision }, asker(req));
    },
  );

  app.post(
    '/drills/mine/answer',
    {
      preHandler: ctx.heavy,
      schemaErrorFormatter: namingFields('a drill answer'),
      schema: {
        summary: 'Her answer to one of her mistakes, graded as its review judged, and the day it comes back (FSRS: soon when wrong, later each time it is right)',
        body: Strict({ ...MistakeKey, answer: ActionBody }),
        response: {
          200: Type.Object({
            right: Type.Boolean(),
            agreed: Type.Boolean(),
            asGood: Type.Boolean(),
            verdict: Type.String(),
            hint: Type.Object({ text: Type.String(), action: Type.Object({ type: Type.String() }, { additionalProperties: true }) }, { additionalProperties: true }),
            due: Type.String({ description: 'when it comes back' }),
            days: Type.Integer({ description: 'days until then' }),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const b = req.body;
      const { me, m } = await theirs(req, b.recordId, b.decision);
      const record = await readRecord(ctx, m.recordId, me.id);
      const { after: _, ...answer } = b.answer;
      const g = await ctx.pool.request<DrillGradeJson>({ kind: 'mistake-answer', record, seat: m.seat, decision: b.decision, answer, worlds: m.worlds }, asker(req));
      const now = new Date();
      // committed before the answer says so: her next day is kept
      const due = await ctx.practice.answered(me.id, m.recordId, b.decision, g.right, now);
      return { ...g, due: due.toISOString(), days: daysUntil(due, now) };
    },
  );
}
