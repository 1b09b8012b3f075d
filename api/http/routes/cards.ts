import { Type } from 'typebox';
import { parseCard } from '../../../engine/mah-jongg/card.js';
import { NOTE_PHRASES, printedFromText, PRINTED_LIMITS, type PrintedCard } from '../../../engine/mah-jongg/printed-card.js';
import type { EditorReading } from '../../shared/card-check.js';
import { TilemateError } from '../../../engine/errors.js';
import type { CardCheck } from '../../shared/card-check.js';
import type { FastifyRequest } from 'fastify';
import { asker } from '../accounts.js';
import { routes } from '../services.js';
import { CARD_CHOICE, ERRORS, Strict } from './schemas.js';
import { offeredCards, refuseSharedChange } from './card-sharing.js';

/**
 * The player's own cards: checked as they are typed (every malformed line with its token and
 * what was expected, each line's form count and an example winning hand) and saved as hers
 * in the database (api/store/players.ts), bounded in count and size, to be chosen by the
 * analyzer, the advice and a new game. Nobody else sees them unless she shares one, and then only
 * to read and play on (routes/card-sharing.ts); nobody else changes them.
 */

import { CARD_LIMITS, type CardLimits } from '../../shared/limits.js';

export { checkCard, type CardCheck } from '../../shared/card-check.js';

const Problem = Type.Object({ code: Type.String(), line: Type.Union([Type.Integer(), Type.Null()]), token: Type.Union([Type.String(), Type.Null()]), message: Type.String() });
const CheckAnswer = Type.Object({
  ok: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
  errors: Type.Array(Problem),
  questions: Type.Array(Problem, {
    description: 'lines that read only by a rule the player may not mean (words of several numbers without a suit letter): asked, never guessed; the card is not ok until they are answered',
  }),
  lines: Type.Array(
    Type.Object({
      id: Type.String(),
      fileLine: Type.Integer(),
      pattern: Type.String(),
      value: Type.Integer(),
      concealed: Type.Boolean(),
      forms: Type.Integer(),
      form: Type.String(),
      example: Type.String(),
      examples: Type.Array(Type.String()),
    }),
  ),
});
const L = PRINTED_LIMITS;
const Colour = Type.Union([Type.Literal('green'), Type.Literal('red'), Type.Literal('blue'), Type.Null()], {
  description: 'the colour the card prints the group in (green, red, blue: one colour, one suit); null for winds, flowers and Soap, or not chosen yet',
});
const Numbers = Type.Union([Type.Literal('fixed'), Type.Literal('consec')]);
const Suit = Type.Union([Type.Literal('B'), Type.Literal('C'), Type.Literal('D')]);
const Answers = Type.Object(
  {
    numbers: Type.Optional(
      Type.Union([
        Numbers,
        Type.Literal('other', { description: 'each different number printed is any number, different from the others ("any number, any other number")' }),
        Type.Array(Type.Integer({ minimum: 0, maximum: 8 }), { maxItems: 9 }),
      ]),
    ),
    pins: Type.Optional(Type.Object({ green: Type.Optional(Suit), red: Type.Optional(Suit), blue: Type.Optional(Suit) }, { additionalProperties: false })),
    nojoker: Type.Optional(Type.Boolean()),
    remark: Type.Optional(Type.String({ maxLength: L.noteChars })),
  },
  { additionalProperties: false },
);
const PrintedLineSchema = Type.Object(
  {
    number: Type.Optional(Type.Integer({ minimum: 1, maximum: 999 })),
    groups: Type.Array(Type.Object({ text: Type.String({ maxLength: L.groupChars }), colour: Colour }, { additionalProperties: false }), { maxItems: L.groups }),
    note: Type.String({ maxLength: L.noteChars }),
    concealed: Type.Union([Type.Boolean(), Type.Null()]),
    value: Type.Union([Type.Integer(), Type.Null()]),
    answers: Type.Optional(Answers),
    unsure: Type.Optional(Type.String({ maxLength: 300 })),
  },
  { additionalProperties: false },
);
/** A card as printed (engine/mah-jongg/printed-card.ts): sections as headed, each line its groups in colour, its note, X/C and value. */
export const PrintedCardSchema = Type.Object(
  {
    name: Type.String({ maxLength: L.nameChars }),
    sections: Type.Array(
      Type.Object(
        {
          title: Type.String({ minLength: 1, maxLength: L.nameChars }),
          numbers: Type.Optional(Numbers),
          lines: Type.Array(PrintedLineSchema, { maxItems: L.lines }),
        },
        { additionalProperties: false },
      ),
      { maxItems: L.sections },
    ),
  },
  { additionalProperties: false },
);
const Question = Type.Object({
  about: Type.String(),
  text: Type.String(),
  options: Type.Array(Type.Object({ label: Type.String(), patch: Type.Object({}, { additionalProperties: true }) })),
});
const ReadAnswer = Type.Object({
  name: Type.String(),
  text: Type.String({ description: 'the card in the notation: every settled line, each unsettled one kept as a "// draft:" comment' }),
  ready: Type.Integer({ description: 'lines settled and usable' }),
  lines: Type.Array(
    Type.Object({
      section: Type.String(),
      id: Type.String(),
      notation: Type.Union([Type.String(), Type.Null()]),
      questions: Type.Array(Question),
      problems: Type.Array(Type.String()),
      understood: Type.Array(Type.String()),
      groups: Type.Array(Type.Object({ text: Type.String(), colour: Colour })),
      forms: Type.Integer(),
      examples: Type.Array(Type.String()),
    }),
  ),
});

// a card shared with her is read by shared:CODE too, never changed (routes/card-sharing.ts)
const Name = Type.Object({ name: Type.String({ pattern: CARD_CHOICE, description: 'lower-case letters, digits and hyphens, up to 40; or shared:CODE, a card shared with you (read only)' }) });

export const cardRoutes = routes('cards', ['accounts', 'card', 'cardText', 'heavy', 'players', 'pool', 'savedCard'], (app, ctx, opts: { limits?: Partial<CardLimits> }) => {
  const limits = { ...CARD_LIMITS, ...opts.limits };
  const { accounts: acc, players } = ctx;
  const Text = Type.String({ maxLength: limits.maxChars, description: `a whole card in the notation (docs/card-notation.md), up to ${limits.maxChars.toLocaleString('en-US')} characters` });

  // a card is checked in the worker pool, on the heavy budget: enumerating a large card's forms takes a fraction of a second
  const check = (req: FastifyRequest, text: string): Promise<CardCheck> => ctx.pool.request<CardCheck>({ kind: 'check-card', text }, asker(req));

  app.post(
    '/cards/check',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "A card text checked as it is typed: every malformed line (line, token, what was expected), each line's forms and an example winning hand",
        body: Strict({ text: Text }, { examples: [{ text: 'card: My card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n' }] }),
        response: { 200: CheckAnswer, ...ERRORS },
      },
    },
    async (req) => check(req, req.body.text),
  );

  app.post(
    '/cards/read',
    {
      preHandler: ctx.heavy,
      schema: {
        summary:
          'A card as printed (groups, their colours, the note, X or C, the value) read into the notation: each line on its own, with the questions it leaves open, its problems, what was understood of its note, and example hands',
        body: Strict(
          { card: PrintedCardSchema },
          {
            examples: [
              {
                card: {
                  name: 'My card',
                  sections: [
                    {
                      title: 'Evens',
                      lines: [
                        {
                          groups: [
                            { text: 'FF', colour: null },
                            { text: '2222', colour: 'green' },
                            { text: '4444', colour: 'red' },
                            { text: '6666', colour: 'blue' },
                          ],
                          note: 'Any 3 Suits, These Nos. Only',
                          concealed: false,
                          value: 25,
                        },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ),
        response: { 200: ReadAnswer, ...ERRORS },
      },
    },
    async (req) => ctx.pool.request<EditorReading>({ kind: 'read-printed', card: req.body.card as PrintedCard }, asker(req)),
  );

  app.get(
    '/cards/phrases',
    {
      schema: {
        summary: 'The notes a printed card uses that the editor understands ("Any 3 Suits", "These Nos. Only"), to offer as choices',
        response: { 200: Type.Object({ phrases: Type.Array(Type.String()) }), ...ERRORS },
      },
    },
    async () => ({ phrases: [...NOTE_PHRASES] }),
  );

  // beside GET /api/card (its lines): the server's card whole, for My card's "Start from the practice card"
  app.get(
    '/card/text',
    {
      schema: {
        summary: "The server's own card (the practice card) in the notation, to start a card of your own from",
        response: { 200: Type.Object({ name: Type.String(), text: Type.String() }), ...ERRORS },
      },
    },
    async () => ({ name: ctx.card.cc.card.name, text: ctx.cardText }),
  );

  app.post(
    '/cards/printed',
    {
      schema: {
        summary: 'A card in the notation read back into the card as printed, for the editor (refused as a malformed card is)',
        body: Strict({ text: Text }, { examples: [{ text: 'card: My card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n' }] }),
        response: { 200: Type.Object({ card: PrintedCardSchema }), ...ERRORS },
      },
    },
    async (req) => ({ card: printedFromText(req.body.text) }),
  );

  app.get(
    '/cards',
    {
      schema: {
        summary:
          "Your saved cards, then the cards shared with you (your coach's and those you keep: name shared:CODE, with owner) and the cards saved on this server before accounts (marked shared): name, the card's own title, lines",
        response: {
          200: Type.Object({
            cards: Type.Array(
              Type.Object({
                name: Type.String(),
                title: Type.String(),
                lines: Type.Integer(),
                chars: Type.Integer(),
                shared: Type.Boolean(),
                owner: Type.Optional(Type.String({ description: 'a card shared with you (name shared:CODE): the name of the player who shares it, who alone changes it' })),
                coach: Type.Optional(Type.Boolean({ description: 'a card shared with you: its owner is your coach' })),
              }),
            ),
            max: Type.Integer(),
            chosen: Type.Optional(
              Type.Union([Type.String(), Type.Null()], {
                description: "signed in only: the card you chose for every page, kept with your account (GET /api/chosen-card); '' the practice card, null when you have not chosen one signed in",
              }),
            ),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const me = await acc.current(req);
      return {
        max: limits.maxCards,
        cards: (await players.cards(me?.id ?? null))
          .flatMap((c) => {
            try {
              const card = parseCard(c.text);
              return [{ name: c.name, title: card.name, lines: card.lines.length, chars: c.text.length, shared: c.shared }];
            } catch {
              return [];
            } // a card that no longer reads is not offered
          })
          .concat(await offeredCards(ctx, me)),
        // her choice follows her account to every device (routes/chosen-card.ts)
        ...(me !== null && me.name !== null && { chosen: await players.chosenCard(me.id) }),
      };
    },
  );

  app.get(
    '/cards/:name',
    {
      schema: { summary: "A saved card's text (yours, or a shared one)", params: Name, response: { 200: Type.Object({ name: Type.String(), text: Type.String() }), ...ERRORS } },
    },
    async (req) => ({ name: req.params.name, text: await ctx.savedCard(await acc.current(req), req.params.name) }),
  );

  app.put(
    '/cards/:name',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: 'Saves a card of yours under a name (replacing yours of that name); refused unless every line is well formed',
        params: Name,
        body: Strict({ text: Text }, { examples: [{ text: 'card: My card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n' }] }),
        response: { 200: Type.Object({ name: Type.String(), title: Type.String(), lines: Type.Integer() }), ...ERRORS },
      },
    },
    async (req, reply) => {
      const { name } = req.params;
      await refuseSharedChange(ctx, name);
      const checked = await check(req, req.body.text);
      if (!checked.ok) {
        const all = [...checked.errors, ...checked.questions];
        const e = all[0];
        throw new TilemateError(e.code, `${e.message}${all.length > 1 ? ` (and ${all.length - 1} more)` : ''}`);
      }
      const me = await acc.player(req, reply);
      await players.saveCard(me.id, name, req.body.text, limits.maxCards); // committed whole, or not at all
      return { name, title: checked.name ?? name, lines: checked.lines.length };
    },
  );

  app.delete(
    '/cards/:name',
    {
      schema: { summary: 'Deletes a saved card of yours', params: Name, response: { 200: Type.Object({ deleted: Type.String() }), ...ERRORS } },
    },
    async (req) => {
      await refuseSharedChange(ctx, req.params.name);
      const me = await acc.current(req);
      if (me === null || !(await players.deleteCard(me.id, req.params.name))) throw new TilemateError('TM_NOT_FOUND', `you have no saved card named ${req.params.name}`);
      return { deleted: req.params.name };
    },
  );
});
