import { randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import { loadRuleset, RULESETS } from '../../../engine/mah-jongg/rulesets.js';
import {
  collector,
  differences,
  eventStandings,
  GAMES_A_ROUND,
  type EventPlayer,
  type OnlinePlay,
  tableOf,
  timeLeft,
  type Change,
  type EventState,
  type RoundState,
} from '../../../engine/tournament/event.js';
import { scoreResult, type GameResult } from '../../../engine/tournament/score-card.js';
import type { SheetTable } from '../../shared/event-pdf.js';
import { SEAT_WINDS, verifierOf, type Seat } from '../../../engine/tournament/seating.js';
import { rateEvents, rateTrainEvents, ratingWords, type PlayerRating } from '../../shared/ratings.js';
import type { AnyChange, AnyEvent } from '../../../engine/tournament/any-event.js';
import { trainStandings, type TrainEventState } from '../../../engine/tournament/train-event.js';
import { DOMINO_RULESETS, loadDominoRuleset } from '../../../engine/domino/rulesets.js';
import { newPlayerCode } from '../../store/events.js';
import { makeBot } from '../../../agents/bots.js';
import { loadGame } from '../../../engine/registry.js';
import { tableFor } from '../event-tables.js';
import { CARD_CHOICE } from './schemas.js';
import { asker, signedIn } from '../accounts.js';
import { routes } from '../services.js';
import { ERRORS, Strict } from './schemas.js';

/**
 * Club events (issue 47): the director's desk, each player's score card on her phone, and the
 * standings. The director is a signed-in player, and only she changes her event; a player opens
 * her own card with the card code the director gives her (no account needed); the standings
 * are open to anyone with the event's code, for the room's projector. Every change goes through
 * api/store/events.ts: checked against the event as it stands, and kept in its audit log.
 */

/** Rulesets an event is scored by: those that score points, not payments (standardized tournament rules 11). */
export const EVENT_RULESETS = Object.keys(RULESETS).filter((r) => !RULESETS[r].scoring.payments && RULESETS[r].racks === 1);

const SeatType = Type.Union(['A', 'B', 'C', 'D'].map((s) => Type.Literal(s)));
const Result = Strict(
  {
    winner: Type.Union([SeatType, Type.Null()], { description: 'the seat that made Mah Jongg (A East, B North, C West, D South), or null for a wall game' }),
    value: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    selfPicked: Type.Optional(Type.Boolean()),
    thrower: Type.Optional(SeatType),
    exposures: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    jokerless: Type.Optional(Type.Boolean()),
    singlesAndPairs: Type.Optional(Type.Boolean()),
    dead: Type.Optional(Type.Array(SeatType, { maxItems: 4 })),
    incomplete: Type.Optional(Type.Boolean({ description: "not finished in the round's time: zero for everyone (standardized rules 11.4)" })),
    heavenly: Type.Optional(Type.Boolean({ description: "East's dealt Mah Jongg, before any discard: no thrower and no self-picked bonus (rules 4.4, 11.10)" })),
    misnamed: Type.Optional(Type.Boolean({ description: 'the thrower misnamed the winning tile: she pays -25 whatever the exposures (rules 11.9, 12.3)' })),
    intact: Type.Optional(
      Type.Array(SeatType, { maxItems: 4, description: 'with winner null: the game ended on a Mah Jongg in error that left these hands intact (rules 14.4: 10 points to the one intact hand)' }),
    ),
  },
  { description: "a game's result as a player enters it on her score card" },
);
const Code = Type.String({ pattern: '^[A-Za-z0-9]{4,12}$', description: "the event's code" });
const CardCode = Type.String({ pattern: '^[A-Za-z0-9]{4,12}$', description: 'her card code, from the director' });
const Reason = Type.String({ minLength: 1, maxLength: 300 });

/**
 * One cell of a CSV file: quoted when it holds a quote, a comma or a line break; a text a
 * spreadsheet would run as a formula (beginning with = + - @, a tab or a carriage return, such
 * as a player named "=HYPERLINK(...)") begins with a single quote, so it is shown as typed.
 * A number stays a number, a score of -25 too.
 */
export function csvCell(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number' || /^-?\d+(\.\d+)?$/.test(v)) return String(v);
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A round's tables for its score sheets, each table's seats in order (A, B, C, D: tableOf's) with the players' names. */
export function sheetTables(e: EventState, r: RoundState): SheetTable[] {
  return [...new Set([...r.seating.values()].map((p) => p.table))]
    .sort((a, b) => a - b)
    .map((t) => ({ table: t, seats: [...tableOf(r, t)].map(([seat, id]) => `${seat} (${SEAT_WINDS[seat]}): ${e.players.get(id)!.name}`) }));
}

export const eventRoutes = routes('events', ['accounts', 'cardText', 'cards', 'eventTables', 'events', 'heavy', 'players', 'pool', 'savedCard', 'tables'], (app, ctx) => {
  /** The event, refused (TM_NOT_FOUND) to anyone but its director. */
  const directed = async (req: FastifyRequest, code: string) => {
    const me = await signedIn(ctx.accounts, req);
    const row = await ctx.events.row(code.toUpperCase());
    if (row === null || row.directorId !== me.id) throw new TilemateError('TM_NOT_FOUND', `you direct no event with the code ${code.slice(0, 12)}`);
    return { me, code: row.code };
  };
  const change = async (req: FastifyRequest, code: string, c: AnyChange) => {
    const d = await directed(req, code);
    return desk(await ctx.events.change(d.code, c, `the director, ${d.me.name}`), d.code);
  };
  /** A Mah Jongg event's own change (the round clock, a corrected game): refused at a Mexican Train event. */
  const mahJonggOnly = async (req: FastifyRequest, code: string, c: Change, what: string) => {
    const ev = await ctx.events.state(code.toUpperCase());
    if (ev.game !== 'mah-jongg') throw new TilemateError('TM_BAD_INPUT', `a Mexican Train event has no ${what}`);
    return change(req, code, c);
  };

  app.post(
    '/events',
    {
      schema: {
        summary: 'A new club event, directed by the signed-in player: Mah Jongg (its ruleset and round time) or Mexican Train (its ruleset and table size)',
        body: Strict(
          {
            name: Type.String({ minLength: 1, maxLength: 80 }),
            game: Type.Optional(Type.Union([Type.Literal('mah-jongg'), Type.Literal('mexican-train')], { description: 'default: mah-jongg' })),
            ruleset: Type.Optional(Type.Union([...EVENT_RULESETS, ...Object.keys(DOMINO_RULESETS)].map((r) => Type.Literal(r)))),
            roundMinutes: Type.Optional(Type.Integer({ minimum: 10, maximum: 180, description: 'Mah Jongg: the round clock (standardized rules 20: about 55 minutes)' })),
            tableSize: Type.Optional(Type.Integer({ minimum: 2, maximum: 8, description: 'Mexican Train: players a table seats at most (default 4)' })),
            online: Type.Optional(
              Strict(
                {
                  level: Type.Optional(Type.String({ maxLength: 40, description: 'the bot that plays for a player who has not come or has gone: easy, medium, hard, expert (default medium)' })),
                  awayAfter: Type.Optional(Type.Integer({ minimum: 15, maximum: 600, description: 'seconds a player may be gone before the bot plays for her (default 120)' })),
                  card: Type.Optional(Type.String({ pattern: CARD_CHOICE, description: "one of the director's saved cards, or shared:CODE (default: the server's card)" })),
                },
                { description: 'Mah Jongg: played at Tilemate tables, the games scored by the tables (none entered by hand)' },
              ),
            ),
          },
          {
            examples: [
              { name: 'Tuesday Club Open', roundMinutes: 55 },
              { name: 'Thursday Online', roundMinutes: 55, online: { level: 'medium', awayAfter: 120 } },
              { name: 'Senior Games Train', game: 'mexican-train', ruleset: 'sun-lakes', tableSize: 4 },
            ],
          },
        ),
        response: { 200: Type.Object({ code: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await signedIn(ctx.accounts, req);
      const b = req.body;
      const name = b.name.trim();
      if (b.game === 'mexican-train') {
        const ruleset = b.ruleset ?? 'sun-lakes';
        if (!(ruleset in DOMINO_RULESETS)) throw new TilemateError('TM_BAD_INPUT', `a Mexican Train event is played by ${Object.keys(DOMINO_RULESETS).join(' or ')} rules, not ${ruleset}`);
        if (b.online !== undefined) throw new TilemateError('TM_BAD_INPUT', 'a Mexican Train event is played with real dominoes: it has no online tables');
        return { code: await ctx.events.create(me.id, { type: 'create', game: 'mexican-train', name, ruleset, tableSize: b.tableSize ?? 4 }) };
      }
      const ruleset = b.ruleset ?? 'nmjl-4p-tournament';
      if (!EVENT_RULESETS.includes(ruleset)) throw new TilemateError('TM_BAD_INPUT', `a Mah Jongg event is scored by ${EVENT_RULESETS.join(', ')}, not ${ruleset}`);
      let online: OnlinePlay | undefined;
      if (b.online !== undefined) {
        const text = b.online.card === undefined ? ctx.cardText : await ctx.savedCard(me, b.online.card);
        const card = { name: ctx.cards.compile(text).card.name, text };
        const level = b.online.level ?? 'medium';
        makeBot(loadGame('mah-jongg', { ruleset, card }, ctx.cards.compile), level); // refuses an unknown level
        online = { level, awayAfter: b.online.awayAfter ?? 120, card };
      }
      return { code: await ctx.events.create(me.id, { type: 'create', name, ruleset, roundMinutes: b.roundMinutes ?? 55, ...(online ? { online } : {}) }) };
    },
  );

  app.get('/events', { schema: { summary: 'The events the signed-in player directs' } }, async (req) => {
    const me = await signedIn(ctx.accounts, req);
    return { events: (await ctx.events.mine(me.id)).map((e) => ({ code: e.code, name: e.name, createdAt: e.createdAt.toISOString() })) };
  });

  const P = { params: Type.Object({ code: Code }) };
  app.get('/events/:code/desk', { schema: { summary: "The director's desk: players with their card codes, each round's tables and cards", ...P } }, async (req) => {
    const d = await directed(req, req.params.code);
    return desk(await ctx.events.state(d.code), d.code);
  });

  app.post(
    '/events/:code/players',
    {
      schema: {
        summary:
          'Registers a player (before any round, or late: she plays from the next round seated); naming her Tilemate account asks its owner to join the event with it, and her rating follows the event only once she accepts',
        ...P,
        body: Strict(
          {
            name: Type.String({ minLength: 1, maxLength: 60 }),
            host: Type.Optional(Type.Boolean()),
            account: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "her account's name" })),
          },
          { examples: [{ name: 'Ruth' }] },
        ),
      },
    },
    async (req) => {
      const id = `p${randomInt(1e9).toString(36)}`;
      const b = req.body;
      const account = b.account === undefined ? undefined : await ctx.players.byName(b.account.trim());
      if (account === null) throw new TilemateError('TM_NOT_FOUND', `no Tilemate account is named ${b.account!.slice(0, 40)}`);
      return change(req, req.params.code, { type: 'register', id, name: b.name.trim(), code: newPlayerCode(), host: b.host === true, ...(account ? { account: account.id } : {}) });
    },
  );

  /** The events of this server that ask for the signed-in player's account and wait for her answer. */
  app.get(
    '/events/asks',
    { schema: { summary: 'The events that ask for her account (a director named it for a player): each waits for her to accept or decline before it counts in her club rating' } },
    async (req) => {
      const me = await signedIn(ctx.accounts, req);
      const asks = [];
      for (const code of await ctx.events.recent(RATED_EVENTS)) {
        const ev = await ctx.events.state(code);
        for (const p of ev.state.players.values())
          if (p.invited === me.id)
            asks.push({
              code,
              event: ev.state.name,
              player: p.id,
              name: p.name,
              words: `${ev.state.name} asks to count your play there, as ${p.name}, in your club rating: accept it only if that is you.`,
            });
      }
      return { asks };
    },
  );

  app.post(
    '/events/:code/consent',
    {
      schema: {
        summary: 'She answers an event that asks for her account: accepted, the player it names is hers and its rounds count in her club rating; declined, the account is let go',
        ...P,
        body: Strict({ player: Type.String({ maxLength: 20 }), accept: Type.Boolean() }, { examples: [{ player: 'p1abc', accept: true }] }),
      },
    },
    async (req) => {
      const me = await signedIn(ctx.accounts, req);
      const code = req.params.code.toUpperCase();
      const ev = await ctx.events.change(
        code,
        { type: 'consent', player: req.body.player, account: me.id, accept: req.body.accept },
        `${me.name}, ${req.body.accept ? 'accepting' : 'declining'} for her account`,
      );
      const p = ev.state.players.get(req.body.player)!;
      return {
        code,
        event: ev.state.name,
        player: p.id,
        name: p.name,
        joined: p.account === me.id,
        words: p.account === me.id ? `Your account plays ${ev.state.name} as ${p.name}: its rounds count in your club rating.` : `Your account stays out of ${ev.state.name}.`,
      };
    },
  );

  app.post(
    '/events/:code/players/:player/withdraw',
    { schema: { summary: 'A player withdraws: from the next round seated; her scores so far stay', params: Type.Object({ code: Code, player: Type.String({ maxLength: 20 }) }) } },
    async (req) => change(req, req.params.code, { type: 'withdraw', player: req.params.player }),
  );

  app.post(
    '/events/:code/rounds',
    { schema: { summary: "Seats the next round (the first at random, then by the rotation) and starts its clock; an online event's tables open at once", ...P } },
    async (req) => {
      const answer = await change(req, req.params.code, { type: 'seat', seed: randomInt(2 ** 31), at: Date.now() });
      if (answer.game !== 'mah-jongg' || answer.online === null) return answer;
      await ctx.eventTables.lookAfter(answer.code);
      return desk(await ctx.events.state(answer.code), answer.code);
    },
  );

  app.post(
    '/events/:code/clock',
    {
      schema: {
        summary: "Pauses, resumes or ends the round's clock",
        ...P,
        body: Strict({ action: Type.Union([Type.Literal('pause'), Type.Literal('resume'), Type.Literal('end')]) }, { examples: [{ action: 'pause' }] }),
      },
    },
    async (req) => mahJonggOnly(req, req.params.code, { type: 'clock', action: req.body.action, at: Date.now() }, 'round clock'),
  );

  app.post('/events/:code/accept', { schema: { summary: "The scorekeeper accepts the round: only when every card is checked and each table's cards agree", ...P } }, async (req) =>
    change(req, req.params.code, { type: 'accept' }),
  );

  app.post(
    '/events/:code/adjustments',
    {
      schema: {
        summary: "A penalty (lateness) or the Director's adjustment of a player's points, with its reason",
        ...P,
        body: Strict(
          { player: Type.String({ maxLength: 20 }), points: Type.Integer({ minimum: -1000, maximum: 1000 }), reason: Reason },
          { examples: [{ player: 'p1abc', points: -10, reason: 'not seated when the round began' }] },
        ),
      },
    },
    async (req) => change(req, req.params.code, { type: 'adjust', player: req.body.player, points: req.body.points, reason: req.body.reason }),
  );

  app.post(
    '/events/:code/corrections',
    {
      schema: {
        summary:
          "The Director's ruling on a game at a table, with her reason: before the round is accepted it settles the game on all four cards (standardized rules 23: her ruling is final); after, it corrects the accepted card (rules 22: no other change once accepted)",
        ...P,
        body: Strict(
          {
            round: Type.Integer({ minimum: 1, maximum: 99 }),
            table: Type.Integer({ minimum: 1, maximum: 999 }),
            game: Type.Integer({ minimum: 1, maximum: GAMES_A_ROUND }),
            result: Result,
            reason: Reason,
            present: Type.Optional(
              Type.Array(Type.String({ maxLength: 20 }), { maxItems: 4, description: "the table's players present at the desk for the ruling, by id (standardized rules 22), kept with it" }),
            ),
          },
          { examples: [{ round: 1, table: 3, game: 1, result: { winner: null }, reason: 'the table agreed at the desk it was a wall game' }] },
        ),
      },
    },
    async (req) => mahJonggOnly(req, req.params.code, { type: 'correct', ...req.body, result: req.body.result as GameResult }, 'Mah Jongg games to correct'),
  );

  app.post('/events/:code/finish', { schema: { summary: 'Ends the event (the last round accepted)', ...P } }, async (req) => change(req, req.params.code, { type: 'finish' }));

  app.get('/events/:code/log', { schema: { summary: "The event's audit log: every change, who made it and when", ...P } }, async (req) => {
    const d = await directed(req, req.params.code);
    return { changes: (await ctx.events.log(d.code)).map((l) => ({ n: l.n, by: l.by, at: l.at.toISOString(), change: l.change })) };
  });

  // ------------------------------------------------------------ her score card, from her phone

  /** The player a card code opens, and the event. */
  const hers = async (code: string, cardCode: string) => {
    const e = await ctx.events.state(code.toUpperCase());
    const player = [...e.state.players.values()].find((p) => p.code === cardCode.toUpperCase());
    if (player === undefined) throw new TilemateError('TM_NOT_FOUND', 'no player of this event has that card code: check it with the director');
    return { e, player };
  };

  app.get(
    '/events/:code/card',
    { schema: { summary: 'Her score card this round: her table and seat, who sits where, her entries, whose card she checks', ...P, querystring: Strict({ card: CardCode }) } },
    async (req) => {
      const { e, player } = await hers(req.params.code, req.query.card);
      return cardView(e, player.id);
    },
  );

  app.put(
    '/events/:code/card',
    {
      schema: {
        summary: "Enters a game on her card (Mah Jongg: `game` and `result`; Mexican Train: `hand` and every seat's `points`); `entry` is her phone's own id for it: sent again, it is kept once",
        ...P,
        body: Strict(
          {
            card: CardCode,
            game: Type.Optional(Type.Integer({ minimum: 1, maximum: GAMES_A_ROUND })),
            result: Type.Optional(Result),
            hand: Type.Optional(Type.Integer({ minimum: 1, maximum: 13 })),
            points: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 400 }), { maxItems: 8, description: "Mexican Train: each seat's points in the hand, in seat order" })),
            entry: Type.String({ pattern: '^[A-Za-z0-9-]{8,64}$' }),
          },
          {
            examples: [
              { card: 'K82RDWXA', game: 1, result: { winner: 'B', value: 25, thrower: 'D', exposures: 1 }, entry: 'b3f1c2d4-0001' },
              { card: 'K82RDWXA', hand: 1, points: [0, 12, 31, 7], entry: 'b3f1c2d4-0002' },
            ],
          },
        ),
      },
    },
    async (req) => {
      const b = req.body;
      const { e: ev, player } = await hers(req.params.code, b.card);
      let c: AnyChange;
      if (ev.game === 'mexican-train') {
        if (b.hand === undefined || b.points === undefined) throw new TilemateError('TM_BAD_INPUT', "a Mexican Train card takes a hand and every seat's points in it");
        c = { type: 'enter', player: player.id, hand: b.hand, points: b.points };
      } else {
        if (b.game === undefined || b.result === undefined) throw new TilemateError('TM_BAD_INPUT', 'a Mah Jongg card takes a game and its result');
        c = { type: 'enter', player: player.id, game: b.game, result: b.result as GameResult };
      }
      return cardView(await ctx.events.change(req.params.code.toUpperCase(), c, `${player.name}'s card`, b.entry, player.id), player.id);
    },
  );

  app.post(
    '/events/:code/card/play',
    {
      schema: {
        summary: 'An online event: her seat at the table of her game now, with its token (a second phone gets its own)',
        ...P,
        body: Strict({ card: CardCode }, { examples: [{ card: 'K82RDWXA' }] }),
        response: { 200: Type.Object({ code: Type.String(), link: Type.String(), token: Type.String(), seat: Type.Integer(), table: Type.Integer(), game: Type.Integer() }), ...ERRORS },
      },
    },
    async (req) => {
      const code = req.params.code.toUpperCase();
      const { e, player } = await hers(code, req.body.card);
      if (e.game !== 'mah-jongg' || e.state.online === null) throw new TilemateError('TM_BAD_INPUT', 'this event is played with real tiles: enter your games on your card');
      await ctx.eventTables.lookAfter(code);
      const now = await ctx.events.state(code);
      const at = now.game === 'mah-jongg' ? tableFor(now.state, player.id) : null;
      if (at === null) throw new TilemateError('TM_NOT_FOUND', 'you have no game to play just now: the director will seat the next round');
      const joined = await ctx.tables.claim(at.code, at.seat, player.account ?? null);
      return { code: joined.code, link: joined.link, token: joined.token, seat: at.seat, table: at.table, game: at.game };
    },
  );

  app.post(
    '/events/:code/card/reopen',
    {
      schema: {
        summary: 'She reopens her checked card to change a game (until the round is accepted): her card, and the card she checked against it, are checked again',
        ...P,
        body: Strict({ card: CardCode }, { examples: [{ card: 'K82RDWXA' }] }),
      },
    },
    async (req) => {
      const { player } = await hers(req.params.code, req.body.card);
      const e = await ctx.events.change(req.params.code.toUpperCase(), { type: 'reopen', player: player.id }, `${player.name}, reopening her card`, undefined, player.id);
      return cardView(e, player.id);
    },
  );

  app.post(
    '/events/:code/card/check',
    {
      schema: {
        summary: "She checks a card at her table against her own (Mah Jongg: East and West each other's, North and South each other's; Mexican Train: the player before her)",
        ...P,
        body: Strict({ card: CardCode, player: Type.String({ maxLength: 20 }) }, { examples: [{ card: 'K82RDWXA', player: 'p1abc' }] }),
      },
    },
    async (req) => {
      const { e: now, player } = await hers(req.params.code, req.body.card);
      // a check she has made already (a phone sending it again) is answered as it stands: no change to keep
      const open = now.game === 'mah-jongg' ? now.state.rounds.at(-1) : now.state.games.at(-1);
      if (open !== undefined && !open.accepted && open.verified.get(req.body.player) === player.id) return cardView(now, player.id);
      const e = await ctx.events.change(req.params.code.toUpperCase(), { type: 'verify', player: req.body.player, by: player.id }, `${player.name}, checking`, undefined, player.id);
      return cardView(e, player.id);
    },
  );

  // ------------------------------------------------------------ ratings across events

  /** Events ratings read at most (the server's most recent): a request's work stays bounded. */
  const RATED_EVENTS = 200;

  app.get(
    '/ratings/me',
    { schema: { summary: "Her club ratings across this server's events (openskill's Weng–Lin), Mah Jongg's and Mexican Train's apart, each in a plain sentence" } },
    async (req) => {
      const me = await signedIn(ctx.accounts, req);
      const events = await Promise.all((await ctx.events.recent(RATED_EVENTS)).map((code) => ctx.events.state(code)));
      const rated = (mine: PlayerRating | undefined, game?: string) => ({
        rated: mine !== undefined,
        words: ratingWords(mine, game),
        ...(mine ? { mu: mine.mu, sigma: mine.sigma, tables: mine.tables } : {}),
      });
      const mahJongg = rateEvents(events.flatMap((ev) => (ev.game === 'mah-jongg' ? [{ state: ev.state, scoring: loadRuleset(ev.state.ruleset).scoring }] : []))).get(me.id);
      const train = rateTrainEvents(events.flatMap((ev) => (ev.game === 'mexican-train' ? [ev.state] : []))).get(me.id);
      return { ...rated(mahJongg), mexicanTrain: rated(train, 'Mexican Train') };
    },
  );

  // ------------------------------------------------------------ the standings, for the room

  app.get('/events/:code/standings', { schema: { summary: 'The standings: each player’s rounds, adjustments and total, with her place; the round’s clock', ...P } }, async (req) => {
    const code = req.params.code.toUpperCase();
    return standingsView(await ctx.events.state(code), code);
  });

  app.get('/events/:code/standings.csv', { schema: { summary: 'The standings as a spreadsheet (CSV)', ...P } }, async (req, reply) => {
    const code = req.params.code.toUpperCase();
    const s = standingsView(await ctx.events.state(code), code);
    const mj = s.game === 'mah-jongg';
    const lines = [
      ['Place', 'Player', ...s.columns, 'Adjustments', 'Total', ...(mj ? ['Mah Jonggs'] : [])],
      ...s.rows.map((r) => [r.place, r.name, ...r.rounds, r.adjusted, r.total, ...(mj ? [r.mahJonggs] : [])]),
    ];
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="standings-${code}.csv"`);
    return `${lines.map((l) => l.map(csvCell).join(',')).join('\n')}\n`;
  });

  /** A PDF drawn in the worker pool, sent as a file. */
  const pdf = async (req: FastifyRequest, reply: FastifyReply, task: Parameters<typeof ctx.pool.request>[0], name: string) => {
    const bytes = await ctx.pool.request<Uint8Array>(task, asker(req));
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };

  app.get('/events/:code/standings.pdf', { preHandler: ctx.heavy, schema: { summary: 'The standings to print (PDF, letter pages)', ...P } }, async (req, reply) => {
    const code = req.params.code.toUpperCase();
    const s = standingsView(await ctx.events.state(code), code);
    const rows = s.rows.map((r, i) => ({
      place: s.rows.some((x, j) => j !== i && x.place === r.place) ? `=${r.place}` : String(r.place),
      name: r.name,
      // a round she did not play is printed missed, never 0
      rounds: r.rounds,
      adjusted: r.adjusted,
      total: r.total,
      mahJonggs: r.mahJonggs,
      withdrawn: r.withdrawn,
    }));
    const what = s.game === 'mah-jongg' ? 'round' : 'game';
    // the tie-break as the standings page states it
    const ties =
      s.game === 'mah-jongg'
        ? 'Ties are broken by more Mah Jonggs, then the best single game; players equal on all three share the place.'
        : 'The lowest total wins; in a championship, its players come first by their two games added.';
    const subtitle = s.over
      ? `Final standings${s.winners.length ? `: ${s.winners.join(' and ')} win` : ''}`
      : `Standings after ${s.accepted} ${what}${s.accepted === 1 ? '' : 's'} scored, ${new Date().toISOString().slice(0, 10)}`;
    return pdf(req, reply, { kind: 'standings-pdf', title: s.name, subtitle, rows, ties, corrected: s.corrected }, `standings-${code}.pdf`);
  });

  app.get(
    '/events/:code/sheets.pdf',
    { preHandler: ctx.heavy, schema: { summary: 'Score sheets to print for the round being played (or blank ones), a table a page, for clubs that keep paper', ...P } },
    async (req, reply) => {
      const d = await directed(req, req.params.code);
      const ev = await ctx.events.state(d.code);
      if (ev.game === 'mexican-train') {
        // the game being played (or blank sheets of the next): its tables, each player in seat order
        const t = ev.state;
        const g = t.games.at(-1);
        const open = g !== undefined && !g.accepted ? g : undefined;
        const rules = loadDominoRuleset(t.ruleset);
        const hands = open?.hands ?? rules.tournament?.tableRounds ?? rules.engines.length;
        const tables = (open?.tables ?? []).map((players, i) => ({ table: i + 1, seats: players.map((id, s) => `${s + 1}. ${t.players.get(id)!.name}`) }));
        const game = open === undefined ? 'Game ___' : open.championship ? 'The championship' : `Game ${open.n}`;
        return pdf(req, reply, { kind: 'train-sheets-pdf', title: t.name, game, hands, tables }, `score-sheets-${d.code}.pdf`);
      }
      if (ev.state.online !== null) throw new TilemateError('TM_BAD_INPUT', 'an online event is scored by its tables: it has no sheets to print');
      const e = ev.state;
      const r = e.rounds.at(-1);
      const open = r !== undefined && !r.accepted ? r : undefined;
      const tables = open === undefined ? [] : sheetTables(e, open);
      return pdf(req, reply, { kind: 'sheets-pdf', title: e.name, round: open?.round ?? 0, tables }, `score-sheets-${d.code}.pdf`);
    },
  );

  /**
   * The standings as the room sees them (names, never card codes), of either game: Mah Jongg's
   * rounds, most points first; Mexican Train's games, lowest first, with the winners once the
   * championship is scored.
   */
  function standingsView(ev: AnyEvent, code: string) {
    if (ev.game === 'mexican-train') {
      const e = ev.state;
      const { rows, winners } = trainStandings(e);
      const accepted = e.games.filter((g) => g.accepted);
      return {
        code,
        game: ev.game,
        name: e.name,
        round: e.games.length,
        accepted: accepted.length,
        over: e.over,
        timeLeftMs: null,
        columns: accepted.map((g) => (g.championship ? 'Championship' : `Game ${g.n}`)),
        winners: winners.map((id) => e.players.get(id)!.name),
        corrected: [] as { round: number; table: number; game: number }[],
        rows: rows.map((r) => ({
          place: r.place,
          name: e.players.get(r.player)!.name,
          rounds: r.games,
          adjusted: r.adjusted,
          total: r.total,
          mahJonggs: null,
          withdrawn: e.players.get(r.player)!.withdrawn !== null,
        })),
      };
    }
    const e = ev.state;
    const scoring = loadRuleset(e.ruleset).scoring;
    const r = e.rounds.at(-1);
    return {
      code,
      game: ev.game,
      name: e.name,
      round: r?.round ?? 0,
      accepted: e.rounds.filter((x) => x.accepted).length,
      over: e.over,
      timeLeftMs: r === undefined || r.accepted ? null : timeLeft(e, r, Date.now()),
      columns: e.rounds.filter((x) => x.accepted).map((x) => `Round ${x.round}`),
      winners: [] as string[],
      // games the Director changed after their round was accepted (rules 22), marked on the standings
      corrected: e.rounds.filter((x) => x.accepted).flatMap((x) => [...x.corrections.keys()].map((k) => ({ round: x.round, table: Number(k.split('/')[0]), game: Number(k.split('/')[1]) }))),
      rows: eventStandings(e, scoring).map((s) => ({
        place: s.place,
        name: e.players.get(s.player)!.name,
        rounds: s.rounds as (number | null)[],
        adjusted: s.adjusted,
        total: s.total,
        mahJonggs: s.mahJonggs as number | null,
        withdrawn: e.players.get(s.player)!.withdrawn !== null,
      })),
    };
  }
});

/** A round's tables in words: who sits where, each card's state. */
function roundView(e: EventState, r: RoundState) {
  const tables = [...new Set([...r.seating.values()].map((p) => p.table))].sort((a, b) => a - b);
  return {
    round: r.round,
    rotated: r.rotated,
    accepted: r.accepted,
    paused: r.pausedAt !== null,
    ended: r.endedAt !== null,
    startedAt: new Date(r.startedAt).toISOString(),
    tables: tables.map((t) => ({
      table: t,
      collector: collector(r, t) ?? null,
      // online: each game's table, to watch (in order; the last one listed is being played unless all four are scored)
      games: [...r.games].filter(([k]) => k.startsWith(`${t}/`)).map(([k, code]) => ({ game: Number(k.split('/')[1]), code })),
      // the games its cards differ at, each in a sentence, and the games the Director settled
      differences: differenceWords(e, r, t),
      settled: settledGames(e, r, t),
      seats: [...tableOf(r, t)].map(([seat, id]) => ({
        seat,
        wind: SEAT_WINDS[seat],
        player: id,
        name: e.players.get(id)!.name,
        entered: (r.cards.get(id) ?? []).filter((g) => g !== null && g !== undefined).length,
        checked: r.verified.has(id),
      })),
    })),
  };
}

/** A seat's player in words: "Ruth (East)". */
const seatName = (e: EventState, r: RoundState, table: number, seat: Seat): string => `${e.players.get(tableOf(r, table).get(seat) ?? '')?.name ?? seat} (${SEAT_WINDS[seat]})`;

/** "a, b and c". */
const listed = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** A game's result as entered, in words a player reads: "a wall game", "a Mah Jongg by Edna (North) for 25 points on a discard by Ruth (East)". */
export function resultWords(g: GameResult, seat: (s: Seat) => string): string {
  const dead = g.dead?.length ? `, with ${listed(g.dead.map(seat))} dead` : '';
  if (g.incomplete) return 'a game not finished in time, zero for everyone';
  if (g.winner === null) {
    const intact = g.intact?.length ? ` after a Mah Jongg in error that left ${listed(g.intact.map(seat))} intact` : '';
    return `a wall game${intact}${dead}`;
  }
  const how = g.heavenly
    ? ' dealt to East before any discard'
    : g.selfPicked
      ? ' picked from the wall'
      : ` on a discard by ${seat(g.thrower!)}${g.misnamed ? ' who misnamed it' : ''}${g.exposures ? ` after ${g.exposures} exposure${g.exposures === 1 ? '' : 's'}` : ''}`;
  const extras = [g.jokerless ? 'no jokers' : '', g.singlesAndPairs ? 'a Singles and Pairs hand' : ''].filter((x) => x !== '');
  return `a Mah Jongg by ${seat(g.winner)} for ${g.value} points${how}${extras.length ? ` (${extras.join(', ')})` : ''}${dead}`;
}

/** The games a table's cards differ at, each in one sentence naming who entered what. */
function differenceWords(e: EventState, r: RoundState, table: number) {
  const seat = (s: Seat) => seatName(e, r, table, s);
  return differences(r, table).map((d) => ({
    game: d.game,
    entries: d.entries,
    words: `Game ${d.game}: ${d.entries.map((x) => `${listed(x.seats.map(seat))} entered ${resultWords(x.result, seat)}`).join('; ')}.`,
  }));
}

/** The games the Director settled at a table before the round was accepted, with her reason. */
const settledGames = (e: EventState, r: RoundState, table: number) =>
  [...r.settled].filter(([k]) => k.startsWith(`${table}/`)).map(([k, s]) => ({ game: Number(k.split('/')[1]), reason: s.reason, present: s.present.map((id) => e.players.get(id)?.name ?? id) }));

/** The players as the desk lists them, card codes included (hers to print on the table cards). */
const playersView = (players: Map<string, EventPlayer>) =>
  [...players.values()].map((p) => ({ id: p.id, name: p.name, card: p.code, host: p.host, from: p.from, withdrawn: p.withdrawn, rated: p.account !== undefined, asked: p.invited !== undefined }));

/** The director's desk: everything, card codes included (hers to print on the table cards). */
function desk(ev: AnyEvent, code: string) {
  if (ev.game === 'mexican-train') return trainDesk(ev.state, code);
  const e = ev.state;
  const r = e.rounds.at(-1);
  return {
    code,
    game: 'mah-jongg' as const,
    name: e.name,
    ruleset: e.ruleset,
    roundMinutes: e.roundMinutes,
    online: e.online === null ? null : { level: e.online.level, awayAfter: e.online.awayAfter, card: e.online.card?.name ?? null },
    over: e.over,
    players: playersView(e.players),
    rounds: e.rounds.map((x) => roundView(e, x)),
    timeLeftMs: r === undefined || r.accepted ? null : timeLeft(e, r, Date.now()),
    adjustments: e.adjustments.map((a) => ({ ...a, name: e.players.get(a.player)?.name ?? a.player })),
  };
}

/** Her card this round: her seat, the table by seat, her entries, and the card she checks. */
function cardView(ev: AnyEvent, playerId: string) {
  if (ev.game === 'mexican-train') return trainCard(ev.state, playerId);
  const e = ev.state;
  const me = e.players.get(playerId)!;
  const r = e.rounds.at(-1);
  const place = r?.seating.get(playerId);
  if (r === undefined || place === undefined || r.accepted) {
    return {
      event: e.name,
      name: me.name,
      round: r?.round ?? 0,
      seated: false,
      words: r === undefined ? 'The first round has not been seated yet.' : 'You have no table this round: the director will seat you for the next.',
    };
  }
  const table = tableOf(r, place.table);
  const seats = [...table.keys()] as Seat[];
  const checks = seats.filter((s) => s !== place.seat && verifierOf(s, seats) === place.seat).map((s) => table.get(s)!);
  return {
    game: 'mah-jongg' as const,
    event: e.name,
    name: me.name,
    round: r.round,
    seated: true,
    table: place.table,
    seat: place.seat,
    wind: SEAT_WINDS[place.seat],
    players: [...table].map(([seat, id]) => ({ seat, wind: SEAT_WINDS[seat], player: id, name: e.players.get(id)!.name })),
    games: r.cards.get(playerId) ?? new Array<GameResult | null>(GAMES_A_ROUND).fill(null),
    // her points for each game entered, as the tournament scores it (rules 11), and so far
    myPoints: (r.cards.get(playerId) ?? []).map((g) => (g ? (scoreResult(g, seats, loadRuleset(e.ruleset).scoring).get(place.seat) ?? 0) : null)),
    checked: r.verified.has(playerId),
    checks: checks.map((id) => ({ player: id, name: e.players.get(id)!.name, checked: r.verified.has(id), entered: (r.cards.get(id) ?? []).filter((g) => g != null).length })),
    // every player at the table sees where its cards differ, and how it is put right
    differences: differenceWords(e, r, place.table),
    ...(differences(r, place.table).length > 0
      ? {
          whatNow: r.verified.has(playerId)
            ? 'If your card is wrong, reopen it and change the game, or ask the Director to settle it.'
            : 'If your card is wrong, change the game, or ask the Director to settle it.',
        }
      : {}),
    settled: settledGames(e, r, place.table),
    timeLeftMs: timeLeft(e, r, Date.now()),
    paused: r.pausedAt !== null,
    online: e.online !== null,
    // online: the game she plays now (its table's code, to watch or take her seat with card/play)
    ...(e.online !== null ? { playing: tableFor(e, playerId) } : {}),
  };
}

/** A Mexican Train event's desk: its games, each table's players in seat order with their cards' state. */
function trainDesk(e: TrainEventState, code: string) {
  const rules = loadDominoRuleset(e.ruleset);
  return {
    code,
    game: 'mexican-train' as const,
    name: e.name,
    ruleset: e.ruleset,
    tableSize: e.tableSize,
    online: null,
    championship: rules.tournament !== null,
    over: e.over,
    players: playersView(e.players),
    rounds: e.games.map((g) => ({
      round: g.n,
      championship: g.championship,
      hands: g.hands,
      accepted: g.accepted,
      rotated: true,
      paused: false,
      ended: false,
      startedAt: new Date(g.startedAt).toISOString(),
      tables: g.tables.map((t, i) => ({
        table: i + 1,
        collector: t[0],
        seats: t.map((id, s) => ({
          seat: String(s + 1),
          wind: `seat ${s + 1}`,
          player: id,
          name: e.players.get(id)!.name,
          entered: (g.cards.get(id) ?? []).filter((h) => h != null).length,
          checked: g.verified.has(id),
        })),
      })),
    })),
    timeLeftMs: null,
    adjustments: e.adjustments.map((a) => ({ ...a, round: null, name: e.players.get(a.player)?.name ?? a.player })),
  };
}

/** Her Mexican Train card this game: her table in seat order, each hand's points as she entered them, and the card she checks (the player before her). */
function trainCard(e: TrainEventState, playerId: string) {
  const me = e.players.get(playerId)!;
  const g = e.games.at(-1);
  const table = g?.tables.find((t) => t.includes(playerId));
  if (g === undefined || table === undefined || g.accepted) {
    return {
      game: 'mexican-train' as const,
      event: e.name,
      name: me.name,
      round: g?.n ?? 0,
      seated: false,
      words: g === undefined ? 'The first game has not been seated yet.' : 'You have no table in this game: the director will say when you play.',
    };
  }
  const at = table.indexOf(playerId);
  const checks = table[(at - 1 + table.length) % table.length];
  return {
    game: 'mexican-train' as const,
    event: e.name,
    name: me.name,
    round: g.n,
    championship: g.championship,
    seated: true,
    table: e.games.at(-1)!.tables.indexOf(table) + 1,
    seat: String(at + 1),
    hands: g.hands,
    players: table.map((id, s) => ({ seat: String(s + 1), player: id, name: e.players.get(id)!.name })),
    points: g.cards.get(playerId) ?? new Array<number[] | null>(g.hands).fill(null),
    checked: g.verified.has(playerId),
    checks: checks === playerId ? [] : [{ player: checks, name: e.players.get(checks)!.name, checked: g.verified.has(checks), entered: (g.cards.get(checks) ?? []).filter((h) => h != null).length }],
  };
}
