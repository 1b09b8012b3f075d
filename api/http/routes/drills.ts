import { type Static, Type } from 'typebox';
import { checkDrill, DRILL_KINDS, DRILL_SEEDS, DRILL_WORLDS, dailyDrill } from '../../../agents/coach/drills.js';
import { asker, signedIn } from '../accounts.js';
import { routes, type Services } from '../services.js';
import type { DrillAnswer, DrillGradeJson, DrillJson, MistakeJson } from '../heavy-tasks.js';
import { daysUntil } from '../../../agents/coach/practice.js';
import { LESSONS, lessonStep, type StepCheck } from '../../../agents/coach/lessons.js';
import { TilemateError } from '../../../engine/errors.js';
import { readRecord } from './records.js';
import { ActionBody, CARD_CHOICE, ERRORS, namingFields, Strict, ViewSchema } from './schemas.js';

/**
 * Drills (issue 46, agents/coach/drills.ts): a decision at a dealt position, and her answer
 * graded by the coach's hint there. A drill is named by its kind, level and number: the server
 * deals it again for each request and keeps nothing. Both run in the worker pool on the heavy
 * budget (a position is played from its deal; the grade plays the choices out as a hint does).
 */
export const drillRoutes = routes('drills', ['accounts', 'cardText', 'games', 'heavy', 'players', 'pool', 'practice', 'savedCard'], (app, ctx) => {
  const Kind = Type.Union(
    DRILL_KINDS.map((k) => Type.Literal(k)),
    {
      description:
        'charleston (pass three), courtesy (the courtesy offer, the second Charleston), discard (which tile), call (call the discard or let it go), exchange (take a joker or discard), hand (which line to aim for), safe (is this tile safe), dead (is that hand dead), score (what the Mah Jongg scores)',
    },
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
    situation: Type.Optional(Type.String({ description: 'a choice drill: what the table shows that the view does not say (the Mah Jongg to score)' })),
    choices: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          words: Type.String({ description: 'the answer as its button says it (a card line by its name: "The second 2468 line (25 points)")' }),
          form: Type.Optional(Type.String({ description: "a card line's answer: the line as the card writes it" })),
        }),
        { description: 'a choice drill: its answers; post one\'s id back as "choice"' },
      ),
    ),
  });
  /** Her answer: a move (a move drill) or one of the drill's answers (a choice drill), exactly one. */
  const answerOf = (b: { answer?: Static<typeof ActionBody>; choice?: string }, what: string): DrillAnswer => {
    if ((b.answer === undefined) === (b.choice === undefined)) throw new TilemateError('TM_BAD_INPUT', `${what} needs exactly one of "answer" (a move) or "choice" (one of the drill's answers)`);
    if (b.choice !== undefined) return { choice: b.choice };
    const { after: _, ...action } = b.answer!;
    return { action };
  };
  const Choice = Type.Optional(Type.String({ maxLength: 40, description: "a choice drill's answer: one of its choices' ids" }));

  const cardText = async (req: Parameters<typeof asker>[0], reply: Parameters<Services['accounts']['player']>[1], name: string | undefined): Promise<string> =>
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
      schemaErrorFormatter: namingFields("today's puzzle"),
      schema: {
        summary: "Today's puzzle: the same drill for everyone that day (UTC), on the server's card or on her own",
        querystring: Strict({ card: Card }),
        response: { 200: Drill, ...ERRORS },
      },
    },
    async (req, reply) => {
      const { date, ...drill } = dailyDrill(new Date());
      return { ...(await ctx.pool.request<DrillJson>({ kind: 'drill', cardText: await cardText(req, reply, req.query.card), drill }, asker(req))), date };
    },
  );

  app.post(
    '/drills/answer',
    {
      preHandler: ctx.heavy,
      schemaErrorFormatter: namingFields('a drill answer'),
      schema: {
        summary: "Her answer to a drill, graded by the coach's hint at the position: right when it is the coach's choice or about as good",
        body: Strict(
          {
            kind: Kind,
            level: Level,
            seed: Seed,
            card: Card,
            answer: Type.Optional(ActionBody),
            choice: Choice,
            set: Type.Optional(Type.String({ maxLength: 64, description: 'the set her coach gave her that this drill is one of: her first answer is kept for the coach' })),
          },
          {
            examples: [
              { kind: 'discard', level: 1, seed: 7, answer: { type: 'discard', tile: '9C' } },
              { kind: 'safe', level: 2, seed: 7, choice: 'risky' },
            ],
          },
        ),
        response: {
          200: Type.Object({
            right: Type.Boolean(),
            agreed: Type.Boolean({ description: "the coach's own choice" }),
            asGood: Type.Boolean({ description: "another choice than the coach's that the judge calls no mistake" }),
            judged: Type.Union([Type.Literal('right'), Type.Literal('asGood'), Type.Literal('mistake')], { description: "the coach's judge: right, about as good, or a mistake" }),
            cost: Type.Number({ description: "the judge's estimate of the points a game the answer gives up against the coach's choice" }),
            reason: Type.String({ description: "the judge's reason in one sentence" }),
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
      const answer = answerOf(b, 'a drill answer');
      // a drill of a set her coach gave her: hers, and holding this drill, before any work is done
      const me = b.set === undefined ? null : await ctx.accounts.current(req);
      if (b.set !== undefined) {
        const set = me === null ? undefined : (await ctx.practice.setsFor(me.id)).find((x) => x.id === b.set);
        if (set === undefined || set.kind !== drill.kind || set.level !== drill.level || !set.seeds.includes(drill.seed)) {
          throw new TilemateError('TM_NOT_FOUND', 'that drill is not one of the drills your coach gave you');
        }
      }
      const g = await ctx.pool.request<DrillGradeJson>({ kind: 'drill-answer', cardText: await cardText(req, reply, b.card), drill, answer, worlds: DRILL_WORLDS }, asker(req));
      if (me !== null && b.set !== undefined) await ctx.practice.answerSet(me.id, b.set, drill.seed, g.right);
      return g;
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
      const kinds = ['charleston', 'courtesy', 'discard', 'claims'].map((kind) => {
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
        body: Strict({ ...MistakeKey, answer: ActionBody }, { examples: [{ recordId: 'the id from GET /api/drills/mine', decision: 12, answer: { type: 'discard', tile: '5B' } }] }),
        response: {
          200: Type.Object({
            right: Type.Boolean(),
            agreed: Type.Boolean(),
            asGood: Type.Boolean(),
            judged: Type.Union([Type.Literal('right'), Type.Literal('asGood'), Type.Literal('mistake')]),
            cost: Type.Number(),
            reason: Type.String(),
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

  // ------------------------------------------------------------ drills a coach gives

  const SetJson = Type.Object({
    id: Type.String(),
    coach: Type.String(),
    student: Type.String(),
    kind: Type.String(),
    level: Type.Integer(),
    seeds: Type.Array(Type.Integer()),
    answers: Type.Record(Type.String(), Type.Boolean(), { description: 'her first answer to each drill answered, right or not, by its number' }),
    createdAt: Type.String(),
  });
  /** Drills a coach gives at once, at most. */
  const MAX_GIVEN = 20;

  app.post(
    '/coach/drills',
    {
      schemaErrorFormatter: namingFields('drills to give'),
      schema: {
        summary: 'A coach gives a student (or every student) a set of drills of one kind and level; each student answers them on her drills page',
        body: Strict(
          {
            student: Type.Optional(Type.String({ maxLength: 40, description: "a student's name" })),
            everyone: Type.Optional(Type.Boolean({ description: 'every student who shares her games with you' })),
            kind: Kind,
            level: Level,
            count: Type.Integer({ minimum: 1, maximum: MAX_GIVEN }),
          },
          { examples: [{ student: 'Rose', kind: 'discard', level: 2, count: 5 }] },
        ),
        response: { 200: Type.Object({ given: Type.Array(Type.Object({ student: Type.String(), id: Type.String() })) }), ...ERRORS },
      },
    },
    async (req) => {
      const coach = await signedIn(ctx.accounts, req);
      const b = req.body;
      if ((b.student === undefined) === (b.everyone !== true)) throw new TilemateError('TM_BAD_INPUT', 'name one "student", or give the drills to "everyone"');
      let students: { id: string; name: string }[];
      if (b.student !== undefined) {
        const id = await ctx.players.studentNamed(coach.id, b.student);
        if (id === null) throw new TilemateError('TM_NOT_FOUND', `${b.student.slice(0, 40)} has not shared her games with you`);
        students = [{ id, name: b.student }];
      } else {
        students = await ctx.players.students(coach.id);
        if (students.length === 0) throw new TilemateError('TM_BAD_INPUT', 'no student shares her games with you yet');
      }
      const drill = checkDrill(b.kind, b.level, 0);
      const seeds = Array.from({ length: b.count }, () => Math.floor(Math.random() * DRILL_SEEDS));
      const ids = await ctx.practice.give(
        coach.id,
        students.map((x) => x.id),
        drill.kind,
        drill.level,
        seeds,
      );
      return { given: students.map((x, i) => ({ student: x.name, id: ids[i] })) };
    },
  );

  app.get(
    '/coach/drills',
    {
      schema: {
        summary: 'The drills a coach gave, with how her students answered them (while they share their games with her)',
        response: { 200: Type.Object({ sets: Type.Array(SetJson) }), ...ERRORS },
      },
    },
    async (req) => ({ sets: await ctx.practice.setsBy((await signedIn(ctx.accounts, req)).id) }),
  );

  app.get(
    '/drills/given',
    {
      schema: { summary: 'The drills her coaches gave her, with her answers so far', response: { 200: Type.Object({ sets: Type.Array(SetJson) }), ...ERRORS } },
    },
    async (req) => {
      const me = await ctx.accounts.current(req);
      return { sets: me === null ? [] : await ctx.practice.setsFor(me.id) };
    },
  );

  // ------------------------------------------------------------ lessons

  app.get(
    '/lessons',
    {
      schema: {
        summary: "The lessons, in the teaching guide's order: each one's id, title, where its rule is written and how many steps it has",
        response: { 200: Type.Object({ lessons: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), source: Type.String(), steps: Type.Integer() })) }) },
      },
    },
    async () => ({ lessons: LESSONS.map((l) => ({ id: l.id, title: l.title, source: l.source, steps: l.steps.length })) }),
  );

  app.get(
    '/lessons/:id/:step',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "A lesson's step: what to do, and the dealt position to do it at",
        params: Type.Object({ id: Type.String({ maxLength: 40 }), step: Type.String({ pattern: '^[0-9]{1,2}$' }) }),
        response: { 200: Type.Object({ lesson: Type.String(), title: Type.String(), step: Type.Integer(), steps: Type.Integer(), say: Type.String(), drill: Drill }), ...ERRORS },
      },
    },
    async (req) => {
      const n = Number(req.params.step);
      const { lesson, step } = lessonStep(req.params.id, n);
      const drill = await ctx.pool.request<DrillJson>({ kind: 'drill', cardText: ctx.cardText, drill: step.drill }, asker(req));
      return { lesson: lesson.id, title: lesson.title, step: n, steps: lesson.steps.length, say: step.say, drill };
    },
  );

  app.post(
    '/lessons/check',
    {
      preHandler: ctx.heavy,
      schemaErrorFormatter: namingFields('a lesson answer'),
      schema: {
        summary: "Her move at a lesson's step, checked by the engine and the step's rule: done, or not yet and why",
        body: Strict(
          { lesson: Type.String({ maxLength: 40 }), step: Type.Integer({ minimum: 1, maximum: 99 }), answer: Type.Optional(ActionBody), choice: Choice },
          { examples: [{ lesson: 'charleston', step: 1, answer: { type: 'pass', tiles: ['1B', '2B', '3B'], blind: 0 } }] },
        ),
        response: { 200: Type.Object({ ok: Type.Boolean(), words: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const b = req.body;
      lessonStep(b.lesson, b.step);
      const answer = answerOf(b, 'a lesson answer');
      return ctx.pool.request<StepCheck>({ kind: 'lesson-check', cardText: ctx.cardText, lesson: b.lesson, step: b.step, answer, worlds: DRILL_WORLDS }, asker(req));
    },
  );
});
