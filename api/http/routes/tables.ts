import { Type } from 'typebox';
import type { DominoAdvice } from '../../../agents/domino/advise.js';
import type { MexicanTrainGame } from '../../../engine/domino/mexican-train.js';
import type { DominoView } from '../../../engine/domino/game.js';
import { TilemateError } from '../../../engine/errors.js';
import type { Game } from '../../../engine/games.js';
import type { MahJonggGame } from '../../../engine/mah-jongg/mah-jongg.js';
import { adviceJson } from '../../shared/domino-wire.js';
import type { HintJson } from '../../shared/wire.js';
import { asker, bearer } from '../accounts.js';
import type { Asker } from '../heavy.js';
import { routes } from '../services.js';
import { CODE } from '../tables.js';
import type { Clock } from '../../store/tables.js';
import { Bearer, emptyBody } from './live-games.js';
import { ACTION_BODIES, CARD_CHOICE, ERRORS, namingFields, refuseUnknownFields, Strict, TableActionBody } from './schemas.js';
import type { SeatView } from '../../../engine/mah-jongg/game.js';
import { CardAnswer, seatCard, TopQuery } from './games.js';
import { checkTexts } from '../sanitise.js';
import { ClientMessage, type ServerMessage } from '../../shared/table-wire.js';

/**
 * Tables together over HTTP and a WebSocket (docs/tables.md): open, join, seat the bots,
 * start, act, pause, a coach's hint, and the pushes. Every route but opening, joining and
 * looking needs the member's token; every game message is the member's own seat's only.
 */

const Code = Type.Object({ code: Type.String({ maxLength: 12 }) });
const Name = Type.String({ minLength: 1, maxLength: 40, description: 'the name the others see' });
const Level = Type.String({ maxLength: 40, description: 'a bot: easy, medium, hard, expert (Mah Jongg); random, greedy, montecarlo (Mexican Train)' });
const Any = Type.Object({}, { additionalProperties: true });

/**
 * Why a message is not one a table accepts (`ClientMessage`), in the words a page or a script
 * can act on: a hello's token, an action's shape, `after`, or a field not known.
 */
export function refusal(msg: Record<string, unknown>): TilemateError {
  const unknown = (allowed: readonly string[]) => Object.keys(msg).find((k) => !allowed.includes(k));
  if (msg.type === 'hello') {
    if (typeof msg.token !== 'string' || msg.token.length > 100) return new TilemateError('TM_UNAUTHORIZED', 'say hello with your table token');
    return new TilemateError('TM_BAD_INPUT', `a hello is {"type":"hello","token":"..."}, without "${unknown(['type', 'token'])}"`);
  }
  if (msg.type === 'act') {
    const action = msg.action;
    if (typeof action !== 'object' || action === null || Array.isArray(action) || typeof (action as { type?: unknown }).type !== 'string')
      return new TilemateError('TM_BAD_INPUT', '"action" must be an object with its type, such as {"type":"discard","tile":"5B"}');
    if (msg.after !== undefined && !(Number.isInteger(msg.after) && (msg.after as number) >= 0)) return new TilemateError('TM_BAD_INPUT', '"after" must be a whole number');
    return new TilemateError('TM_BAD_INPUT', `an act is {"type":"act","action":{...},"after":n}, without "${unknown(['type', 'action', 'after'])}"`);
  }
  return new TilemateError('TM_BAD_INPUT', 'a message is {"type":"hello",...} or {"type":"act",...}');
}

/**
 * typebox's checker, loaded at the first WebSocket rather than at every start (about 13 ms of
 * CPU; the build points it at dist/vendor/typebox-value.js, api/vendor-typebox.ts).
 */
let check: ((schema: typeof ClientMessage, value: unknown) => boolean) | null = null;
let loading: Promise<unknown> | null = null;
const loadCheck = (): Promise<unknown> =>
  (loading ??= import('typebox/value').then((m) => {
    check = m.Check;
  }));

/** Messages a connection may send in a second before more are refused (ten times as many close it). */
const MESSAGES_PER_SECOND = 60;

export const tableRoutes = routes('tables', ['accounts', 'cardText', 'cards', 'heavy', 'limits', 'pool', 'savedCard', 'tables'], (app, ctx) => {
  const { tables } = ctx;

  /** A field the table's game does not know (a Mexican Train `train` at a Mah Jongg table) is refused by its name before anything is tried. */
  const knownFields = async (code: string, action: Record<string, unknown>): Promise<void> => {
    const body = ACTION_BODIES[await tables.gameName(code)];
    if (body !== undefined) refuseUnknownFields(body.schema, action, body.what);
  };

  /** A student's hint, as her own page asks for one: Mah Jongg's coach hint, Mexican Train's advice. */
  const hintFor =
    (from: Asker) =>
    async (game: Game, view: unknown, legal: readonly unknown[], seed: number): Promise<unknown> => {
      if (game.type.name === 'mah-jongg') {
        // as many deals as the server's budget fits, up to a hint's number (a big card plays fewer)
        return ctx.pool.request<HintJson>({ kind: 'hint', cardText: (game as MahJonggGame).cc.card.text, view: view as never, legal: legal as never, worlds: ctx.limits.hintWorlds, fit: true }, from);
      }
      const advice = await ctx.pool.request<DominoAdvice>({ kind: 'domino-advice', view: view as DominoView, seed }, from);
      return adviceJson(game as MexicanTrainGame, view as DominoView, advice);
    };

  app.post(
    '/tables',
    {
      schema: {
        summary: "Open a table for friends (and bots in the empty seats); the answer holds the host's token, the code and the link",
        body: Strict(
          {
            game: Type.Union([Type.Literal('mah-jongg'), Type.Literal('mexican-train')]),
            ruleset: Type.Optional(Type.String({ maxLength: 40 })),
            players: Type.Optional(Type.Integer({ minimum: 2, maximum: 8, description: 'Mexican Train: 2 to 8' })),
            card: Type.Optional(Type.String({ pattern: CARD_CHOICE, description: "Mah Jongg: one of your saved cards, or shared:CODE for a card shared with you (default: the server's card)" })),
            name: Name,
            teaching: Type.Optional(Type.Boolean({ description: 'a teaching table: you are its coach, without a seat, and see every rack' })),
            clock: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('relaxed'), Type.Literal('tournament')])),
            awayAfter: Type.Optional(Type.Integer({ minimum: 15, maximum: 600, description: "seconds a person may be gone before her seat's bot plays for her" })),
            level: Type.Optional(Level),
          },
          { examples: [{ game: 'mah-jongg', ruleset: 'nmjl-4p', name: 'Ruth', clock: 'relaxed' }] },
        ),
        response: { 201: Any, ...ERRORS },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const player = await ctx.accounts.player(req, reply);
      let params: Record<string, unknown>;
      if (b.game === 'mah-jongg') {
        const cardText = b.card === undefined ? ctx.cardText : await ctx.savedCard(player, b.card);
        const cc = ctx.cards.compile(cardText);
        params = { ruleset: b.ruleset ?? 'nmjl-4p', card: { name: cc.card.name, text: cc.card.text } };
        if (b.players !== undefined) params.players = b.players;
      } else {
        if (b.card !== undefined) throw new TilemateError('TM_BAD_INPUT', 'Mexican Train is played without a card');
        params = { ruleset: b.ruleset ?? 'sun-lakes', players: b.players ?? 4 };
      }
      const joined = await tables.create(
        {
          game: b.game,
          params,
          name: b.name,
          teaching: b.teaching ?? false,
          clock: (b.clock ?? 'off') as Clock,
          awayAfter: b.awayAfter ?? 60,
          level: b.level ?? (b.game === 'mah-jongg' ? 'medium' : 'greedy'),
          playerId: player.id,
        },
        req.ip,
      );
      return reply.code(201).send(joined);
    },
  );

  app.get(
    '/tables/:code',
    {
      schema: { summary: 'A table as anyone sees it: its game, seats and status', params: Code, response: { 200: Any, ...ERRORS } },
    },
    async (req) => tables.info(req.params.code.toUpperCase()),
  );

  app.get(
    '/tables/:code/qr.svg',
    {
      schema: { summary: "The table's link as a QR code, for people in the same room", params: Code },
    },
    async (req, reply) => {
      const code = req.params.code.toUpperCase();
      if (!CODE.test(code)) throw new TilemateError('TM_NOT_FOUND', `no table has the code ${code}`);
      await tables.info(code); // an unknown code is TM_NOT_FOUND
      // qrcode is loaded when a table's code is first shown, not at every start of the server
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(`${req.protocol}://${req.host}/together.html?code=${code}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );

  app.post(
    '/tables/:code/join',
    {
      schema: {
        summary: 'Join a table: a free seat (or the one asked for), or to watch',
        params: Code,
        body: Strict(
          {
            name: Name,
            seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
            agree: Type.Optional(Type.Boolean({ description: 'at a teaching table: you agree that its coach sees your tiles' })),
            watch: Type.Optional(Type.Boolean({ description: 'watch without a seat' })),
          },
          { examples: [{ name: 'Edna' }, { name: 'Pearl', seat: 2, agree: true }, { name: 'Sam', watch: true }] },
        ),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req, reply) => {
      const player = await ctx.accounts.player(req, reply);
      return tables.join(req.params.code.toUpperCase(), req.body, player.id);
    },
  );

  app.post(
    '/tables/:code/seats',
    {
      schema: {
        summary: 'The host puts a bot in an empty seat, or takes it out (bot: null)',
        security: Bearer,
        params: Code,
        body: Strict(
          { seat: Type.Integer({ minimum: 0, maximum: 7 }), bot: Type.Union([Level, Type.Null()]) },
          {
            examples: [
              { seat: 3, bot: 'medium' },
              { seat: 3, bot: null },
            ],
          },
        ),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => tables.setSeat(req.params.code.toUpperCase(), bearer(req), req.body.seat, req.body.bot),
  );

  app.post(
    '/tables/:code/start',
    {
      preValidation: emptyBody,
      schema: {
        summary: 'The host starts the game (fill: a bot level for every empty seat)',
        security: Bearer,
        params: Code,
        body: Strict({ fill: Type.Optional(Level) }, { examples: [{}, { fill: 'easy' }] }),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => tables.begin(req.params.code.toUpperCase(), bearer(req), req.body.fill),
  );

  app.get(
    '/tables/:code/state',
    {
      schema: {
        summary: "Your seat's game now (for a page that polls instead of listening)",
        security: Bearer,
        params: Code,
        querystring: Type.Object({ since: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'list the events after action N' })) }),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => {
      const msg = await tables.state(req.params.code.toUpperCase(), bearer(req), req.query.since === undefined ? undefined : Number(req.query.since));
      if (msg === null) throw new TilemateError('TM_BAD_INPUT', 'the game at this table has not started yet');
      return msg;
    },
  );

  app.post(
    '/tables/:code/actions',
    {
      schemaErrorFormatter: namingFields('an action'),
      schema: {
        summary: 'Your action at the table, with "after" (the "at" it was chosen from)',
        security: Bearer,
        params: Code,
        body: TableActionBody,
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => {
      const code = req.params.code.toUpperCase();
      const { after, ...action } = req.body as Record<string, unknown> & { after?: number };
      await knownFields(code, action);
      return tables.act(code, bearer(req), action, after);
    },
  );

  app.post(
    '/tables/:code/pause',
    {
      schema: {
        summary: "The coach (or an ordinary table's host) pauses or resumes the game",
        security: Bearer,
        params: Code,
        body: Strict({ paused: Type.Boolean() }, { examples: [{ paused: true }] }),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => tables.pause(req.params.code.toUpperCase(), bearer(req), req.body.paused),
  );

  app.post(
    '/tables/:code/hint',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "A player's hint for her own decision; or a teaching table's coach shows one student (seat) a hint: pushed to her alone, and answered here",
        security: Bearer,
        params: Code,
        body: Strict({ seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })) }, { examples: [{}, { seat: 2 }] }),
        response: { 200: Any, ...ERRORS },
      },
    },
    async (req) => tables.coachHint(req.params.code.toUpperCase(), bearer(req), req.body.seat, hintFor(asker(req))),
  );

  app.get(
    '/tables/:code/card',
    {
      schema: {
        summary: 'Mah Jongg: the card analysed for your rack and exposures now, with the tiles seen on the table',
        security: Bearer,
        params: Code,
        querystring: TopQuery,
        response: { 200: CardAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { game, view } = await tables.seatView(req.params.code.toUpperCase(), bearer(req));
      if (game.type.name !== 'mah-jongg') throw new TilemateError('TM_BAD_INPUT', 'Mexican Train is played without a card');
      return seatCard(ctx, game as MahJonggGame, view as SeatView, req.query.top);
    },
  );

  app.get('/tables/:code/ws', { websocket: true, schema: { hide: true, params: Code } }, (socket, req) => {
    loadCheck().catch((err: unknown) => req.log.error(err));
    const code = (req.params as { code: string }).code.toUpperCase();
    const send = (m: ServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    const fail = (err: unknown) => {
      if (err instanceof TilemateError) send({ type: 'error', code: err.code, message: err.message });
      else {
        req.log.error(err);
        send({ type: 'error', code: 'TM_INTERNAL', message: 'the server failed on this (a bug, logged)' });
      }
    };
    let token: string | undefined;
    let close: (() => void) | null = null;
    /** One registration a socket: a second hello, even one sent before the first is answered, is refused. */
    let helloed = false;
    let second = 0;
    let count = 0;
    // a connection that says nothing within 10 s, or that stops answering pings, is closed
    const hello = setTimeout(() => {
      if (!helloed) socket.close(4001, 'no hello');
    }, 10_000);
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const ping = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, 20_000);
    socket.on('close', () => {
      clearTimeout(hello);
      clearInterval(ping);
      close?.();
      close = null;
    });
    socket.on('message', (data, isBinary) => {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) {
        second = now;
        count = 0;
      }
      // too many in a second: each one more is refused in words (a page sends a few); far too many close the connection
      if (++count > 10 * MESSAGES_PER_SECOND) {
        socket.close(4008, 'too many messages');
        return;
      }
      if (count > MESSAGES_PER_SECOND) {
        fail(new TilemateError('TM_RATE_LIMITED', `more than ${MESSAGES_PER_SECOND} messages a second on this connection: this one was not read`));
        return;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(isBinary ? '' : data.toString());
        if (typeof raw !== 'object' || raw === null) throw new Error('not an object');
      } catch {
        fail(new TilemateError('TM_BAD_JSON', 'each message is one JSON object, such as {"type":"hello","token":"..."}'));
        return;
      }
      // the same check as every HTTP route's (issue 63): no NUL, control character or half a character
      try {
        checkTexts(raw, 'message', undefined);
      } catch (err) {
        return fail(err);
      }
      // then the message itself, against what a table accepts (api/shared/table-wire.ts); a
      // message before the checker is loaded waits for it (in order: later ones wait behind it)
      if (check === null) loadCheck().then(() => take(raw), fail);
      else take(raw);
    });

    /** A message read and its texts checked: refused unless a table accepts it, else said hello with or acted on. */
    const take = (raw: unknown) => {
      if (!check!(ClientMessage, raw)) return fail(refusal(raw as Record<string, unknown>));
      const msg = raw as ClientMessage;
      if (msg.type === 'hello') {
        if (helloed) return fail(new TilemateError('TM_BAD_INPUT', 'this connection has already said hello: open another connection for another place'));
        helloed = true;
        token = msg.token;
        tables.connect(code, token, send).then(
          (c) => {
            if (socket.readyState !== socket.OPEN) c.close();
            else close = c.close;
          },
          (err: unknown) => {
            fail(err);
            socket.close(4004, 'not at this table');
          },
        );
        return;
      }
      if (msg.type === 'act') {
        if (close === null) return fail(new TilemateError('TM_UNAUTHORIZED', 'say hello with your table token first'));
        const action = msg.action;
        knownFields(code, action)
          .then(() => tables.act(code, token, action, msg.after))
          .catch(fail);
      }
    };
  });
});
