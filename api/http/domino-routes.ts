import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { DominoAdvice } from '../../agents/domino/advise.js';
import type { DominoAgent } from '../../agents/domino/agent.js';
import { DOMINO_AGENT_NAMES, makeDominoAgent } from '../../agents/domino/levels.js';
import { TilemateError } from '../../engine/errors.js';
import { apply, legalActions, newMatch, newRound, view, type DominoAction, type DominoState, type DominoView } from '../../engine/domino/game.js';
import { checkPlayers, DOMINO_RULESETS, loadDominoRuleset } from '../../engine/domino/rulesets.js';
import { viewFromTable, type TableInput } from '../../engine/domino/table-state.js';
import { DOMINO_RECORD_FORMAT, dominoRecordHeader, gameFromHeader, parseDominoAction, type DominoRecordHeader } from '../../engine/domino/record.js';
import { dominoName, parseDominoes } from '../../engine/domino/tiles.js';
import { seedRng, type RngState } from '../../engine/rng.js';
import { actionFromNames, actionJson, viewJson } from '../shared/domino-names.js';
import { DEFAULT_POOL_LIMITS, HeavyPool } from './heavy.js';
import { Journal } from './journal.js';
import { admit, DEFAULT_TABLE_LIMITS, type Seated, type TableLimits } from './quotas.js';
import { Strict } from './routes/schemas.js';

/**
 * Mexican Train over HTTP (`/api/domino/...`, registered by api/http/app.ts): create a game
 * against bots, look at the seat's view, post the seat's action (the bots then move until the
 * seat must act again), ask for a hint on the seat's move (from its own view), and ask for
 * advice on a described table. A game opens with the token
 * its creation answered; every answer is that seat's view only. Errors are the engine's
 * TilemateErrors, sent by the app's error handler as `{code, message}` with a 4xx status.
 */

interface DominoGame extends Seated {
  id: string;
  tokenHash: Buffer;
  seat: number;
  names: string[];
  agents: (DominoAgent | null)[];
  state: DominoState;
  rng: RngState;
  /** Every action applied, in order (public: a draw is listed without its tile). */
  log: DominoAction[];
}

export interface DominoRoutesOptions {
  /** Live games held at once, per address, and how long an untouched one is kept (api/http/quotas.ts). */
  table?: TableLimits;
  /** The server's heavy budget, spent by hints and advice (they play deals out). */
  heavy?: (req: FastifyRequest) => Promise<void>;
  /** Where advice runs (api/http/heavy.ts); without one, on the event loop. */
  pool?: HeavyPool;
  /** Where games in progress are journaled (api/http/journal.ts) and taken up again from on start; none: not kept. */
  journalDir?: string;
  /** Told of a journal that could not be written or taken up. */
  onError?: (err: unknown) => void;
  /** Sampled worlds an advice request may ask for. */
  maxWorlds?: number;
}

const hash = (token: string): Buffer => createHash('sha256').update(token).digest();

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}

const ErrorBody = Type.Object({ code: Type.String(), message: Type.String() });
const ERRORS = { '4xx': ErrorBody };
const ActionOut = Type.Object({ type: Type.String(), seat: Type.Integer(), tile: Type.Optional(Type.String()), train: Type.Optional(Type.Union([Type.Integer(), Type.String()])) });
const Answer = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String()),
  seat: Type.Integer(),
  seats: Type.Array(Type.String()),
  view: Type.Unknown({ description: 'the seat\'s view: its hand, every train, hand counts, the boneyard count, scores' }),
  legal: Type.Array(ActionOut),
  events: Type.Array(Type.Object({ n: Type.Integer(), action: ActionOut })),
  at: Type.Integer({ description: 'actions applied so far: send it as "after" with the next action to make a retry safe' }),
});
const ActionBody = Type.Object({
  type: Type.Union([Type.Literal('play'), Type.Literal('draw'), Type.Literal('pass')]),
  tile: Type.Optional(Type.String({ maxLength: 8, description: 'a domino, e.g. "12-5"' })),
  train: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 8 }), Type.Literal('mexican')])),
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'the "at" of the answer this action was chosen from: refused with TM_STALE_ACTION when the game has moved on' })),
}, { examples: [{ type: 'play', tile: '12-5', train: 0 }, { type: 'draw' }, { type: 'pass' }] });
const GameId = Type.Object({ id: Type.String({ maxLength: 64 }) });
const AdviceAnswer = Type.Object({ suggest: ActionOut, path: Type.Array(Type.String()), ownEnd: Type.Integer(), candidates: Type.Optional(Type.Array(Type.Object({ action: ActionOut, value: Type.Number() }))) });

/** Advice as names: the suggested action (postable as it is), the plan for the seat's own train from its end, and the valued plays when asked for. */
function adviceJson(v: DominoView, advice: DominoAdvice) {
  const out = (a: DominoAction) => actionJson(a, v.players) as { type: string; seat: number };
  return {
    suggest: out(advice.action),
    path: advice.path.map(dominoName),
    ownEnd: v.trains[v.seat].end,
    ...(advice.candidates ? { candidates: advice.candidates.map((c) => ({ action: out(c.action), value: c.value })) } : {}),
  };
}

export const dominoRoutes: FastifyPluginAsync<DominoRoutesOptions> = async (plugin, opts) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const table = opts.table ?? DEFAULT_TABLE_LIMITS;
  const heavy = opts.heavy ?? (async () => {});
  const pool = opts.pool ?? new HeavyPool({ ...DEFAULT_POOL_LIMITS, threads: 0 });
  const advise = (address: string, v: DominoView, worlds?: number, seed?: number) => pool.request<DominoAdvice>({ kind: 'domino-advice', view: v, worlds, seed }, address);
  const maxWorlds = opts.maxWorlds ?? 64;
  const games = new Map<string, DominoGame>();
  const onError = opts.onError ?? (() => {});
  // trains as seat numbers (the Mexican train is seat `players`), so a line reads back without the table's size
  const journal = opts.journalDir === undefined ? null : new Journal<DominoAction>(opts.journalDir, {
    encode: (_n, a) => (a.type === 'play' ? { type: 'play', seat: a.seat, tile: dominoName(a.tile), train: a.train } : { type: a.type, seat: a.seat }),
    decode: (raw) => parseDominoAction(raw, -1),
  });
  /** Writes to the journal (a failure is reported, and the game goes on in memory). */
  const journaled = (write: () => void): void => { try { write(); } catch (err) { onError(err); } };
  const drop = (id: string): void => { games.delete(id); if (journal) journaled(() => journal.remove(id)); };
  /** After a request: the new actions to the journal, or the journal gone once the game has ended. */
  const journalUp = (g: DominoGame, from: number): void => {
    if (!journal) return;
    if (g.state.phase === 'ended') journaled(() => journal.remove(g.id));
    else journaled(() => journal.append(g.id, from + 1, g.log.slice(from), g.rng));
  };

  const open = (id: string, token: string | undefined): DominoGame => {
    if (token === undefined) throw new TilemateError('TM_UNAUTHORIZED', 'this game needs its token: send "Authorization: Bearer <token>"');
    const g = games.get(id);
    if (!g || !timingSafeEqual(g.tokenHash, hash(token))) throw new TilemateError('TM_NOT_FOUND', `no Mexican Train game "${id}" opens with this token`);
    g.touched = Date.now();
    return g;
  };

  // the games in progress when the server stopped, each at its last acknowledged action
  for (const j of journal?.load((file, why) => onError(new Error(`Mexican Train journal ${file} skipped: ${why}`))) ?? []) {
    try {
      const header = j.header as unknown as DominoRecordHeader;
      if (header.format !== DOMINO_RECORD_FORMAT) throw new Error('not a Mexican Train record header');
      const state = gameFromHeader(header);
      const agents = header.seats.map((n, s) => (s === j.meta.seat ? null : makeDominoAgent(n, header.ruleset)));
      const g: DominoGame = { id: j.meta.id, owner: j.meta.owner, touched: Date.now(), tokenHash: Buffer.from(j.meta.tokenHash, 'hex'), seat: j.meta.seat, names: header.seats, agents, state, rng: [...j.rng], log: [] };
      for (const a of j.actions) { apply(state, a); g.log.push(a); }
      games.set(g.id, g);
    } catch (err) {
      onError(new Error(`Mexican Train game ${j.meta.id} not restored: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  /** The bots move until the person must act or the game ends. */
  const runBots = (g: DominoGame): void => {
    const s = g.state;
    while (s.phase === 'play' && s.turn !== g.seat) {
      const seat = s.turn;
      const a = g.agents[seat]!.act({ seat, view: () => view(s, seat), legal: () => legalActions(s, seat), rng: g.rng });
      apply(s, a);
      g.log.push(a);
    }
  };

  const answer = (g: DominoGame, since = 0) => ({
    id: g.id,
    seat: g.seat,
    seats: g.names,
    view: viewJson(view(g.state, g.seat)),
    legal: legalActions(g.state, g.seat).map((a) => actionJson(a, g.state.players) as { type: string; seat: number }),
    events: g.log.slice(since).map((a, i) => ({ n: since + i + 1, action: actionJson(a, g.state.players) as { type: string; seat: number } })),
    at: g.log.length,
  });

  app.post('/games', {
    schema: {
      summary: 'A new Mexican Train game against bots; the answer holds the token that opens it',
      body: Strict({
        ruleset: Type.Optional(Type.String({ maxLength: 40, description: Object.keys(DOMINO_RULESETS).join(', ') })),
        players: Type.Optional(Type.Integer({ minimum: 2, maximum: 8 })),
        seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
        bots: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 7, description: `${DOMINO_AGENT_NAMES.join(', ')}: one for every other seat, or one per other seat` })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        round: Type.Optional(Type.Integer({ minimum: 0, maximum: 12, description: 'one round (0 = the first engine) instead of the whole game' })),
      }, { examples: [{ ruleset: 'sun-lakes', players: 4, bots: ['greedy'], seed: 21 }] }),
      response: { 201: Answer, ...ERRORS },
    },
  }, async (req, reply) => {
    const b = req.body;
    const rules = loadDominoRuleset(b.ruleset ?? 'sun-lakes');
    const players = b.players ?? 4;
    checkPlayers(rules, players);
    const seat = b.seat ?? 0;
    if (seat >= players) throw new TilemateError('TM_BAD_INPUT', `seat ${seat}: expected 0 to ${players - 1}`);
    const given = b.bots ?? ['greedy'];
    if (given.length !== 1 && given.length !== players - 1) throw new TilemateError('TM_BAD_INPUT', `bots lists ${given.length} bots for ${players - 1} other seats`);
    const others = Array.from({ length: players - 1 }, (_, i) => given[given.length === 1 ? 0 : i]);
    const agents: (DominoAgent | null)[] = others.map((n) => makeDominoAgent(n, rules.name));
    agents.splice(seat, 0, null);
    const names = [...others];
    names.splice(seat, 0, 'human');
    const seed = b.seed ?? randomInt(0, 2 ** 48 - 1); // 48 bits: too many deals to search for the one on the table
    const state = b.round === undefined ? newMatch(rules, players, seed) : newRound(rules, players, seed, b.round);
    const token = randomBytes(24).toString('base64url');
    let id: string;
    do id = randomBytes(12).toString('base64url'); while (games.has(id));
    // a full table refuses the new game; it never evicts another player's game in progress
    admit(games, req.ip, table, Date.now(), (x) => x.state.phase === 'ended', drop);
    const g: DominoGame = { id, owner: req.ip, touched: Date.now(), tokenHash: hash(token), seat, names, agents, state, rng: seedRng((seed ^ 0x5bd1e995) >>> 0), log: [] };
    games.set(id, g);
    runBots(g);
    if (journal && g.state.phase !== 'ended') {
      const header = dominoRecordHeader({ ruleset: rules.name, players, seed, game: b.round === undefined ? 'match' : { round: b.round }, seats: names });
      journaled(() => journal.start({ id, tokenHash: g.tokenHash.toString('hex'), seat, owner: req.ip }, header, g.log, g.rng));
    }
    return reply.code(201).send({ ...answer(g), token });
  });

  app.get('/games/:id', {
    schema: {
      summary: 'The seat\'s view of the game, its legal actions, and the actions since event N',
      params: GameId,
      querystring: Type.Object({ since: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })) }),
      response: { 200: Answer, ...ERRORS },
    },
  }, async (req) => {
    const g = open(req.params.id, bearer(req));
    return answer(g, req.query.since === undefined ? 0 : Math.min(Number(req.query.since), g.log.length));
  });

  app.post('/games/:id/actions', {
    schema: {
      summary: 'The seat\'s action (play, draw or pass); the bots then move until the seat must act again',
      params: GameId,
      body: ActionBody,
      response: { 200: Answer, ...ERRORS },
    },
  }, async (req) => {
    const g = open(req.params.id, bearer(req));
    const before = g.log.length;
    const after = req.body.after;
    if (after !== undefined && after !== before) {
      throw new TilemateError('TM_STALE_ACTION', `this action was sent after action ${after}, but the game is at action ${before}: it may be a retry of one already applied, so it was not applied again (ask for the game to see where it stands)`);
    }
    const a = actionFromNames(req.body, g.seat, g.state.players);
    apply(g.state, a); // a refused action throws before anything changes
    g.log.push(a);
    runBots(g);
    journalUp(g, before);
    return answer(g, before);
  });

  app.post('/games/:id/hint', {
    // no body at all is an empty one (the schema would see `undefined` and refuse it)
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
    preHandler: heavy,
    schema: {
      summary: 'Advice for the seat\'s move now, from its own view: the suggested play and the planned path for its own train',
      params: GameId,
      body: Strict({
        worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'value every legal play by playouts in this many sampled worlds' })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
      }, { examples: [{ worlds: 100, seed: 1 }] }),
      response: { 200: AdviceAnswer, ...ERRORS },
    },
  }, async (req) => {
    const g = open(req.params.id, bearer(req));
    if (g.state.phase === 'ended') throw new TilemateError('TM_GAME_OVER', 'the game has ended: there is no move to advise on');
    const { worlds, seed } = req.body;
    if (worlds !== undefined && worlds > maxWorlds) throw new TilemateError('TM_BAD_INPUT', `worlds ${worlds}: at most ${maxWorlds} on this server`);
    // the seat's view only, as /advise is given a described table: the advice cannot see another hand
    const v = view(g.state, g.seat);
    return adviceJson(v, await advise(req.ip, v, worlds, seed ?? g.state.actionCount + 1));
  });

  app.post('/advise', {
    preHandler: heavy,
    schema: {
      summary: 'The suggested play and the planned path for your own train, on a described table',
      body: Strict({
        hand: Type.String({ maxLength: 400, description: 'your dominoes, e.g. "12-5 5-3 3-3"' }),
        state: Strict({
          players: Type.Integer({ minimum: 2, maximum: 8 }),
          ruleset: Type.Optional(Type.String({ maxLength: 40 })),
          seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 })),
          engine: Type.Optional(Type.Integer({ minimum: 0, maximum: 12 })),
          trains: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ maxLength: 1000 }))),
          marked: Type.Optional(Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: 7 }), Type.Literal('mexican')]), { maxItems: 9 })),
          handCounts: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 91 }), { maxItems: 8 })),
          boneyard: Type.Optional(Type.Integer({ minimum: 0, maximum: 91 })),
          openDoubles: Type.Optional(Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: 7 }), Type.Literal('mexican')]), { maxItems: 9 })),
        }, { description: 'the table, as docs/mexican-train.md describes it' }),
        worlds: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'value every legal play by playouts in this many sampled worlds' })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
      }, { examples: [{ hand: '5-3 3-3 3-9 9-1 11-11 0-4', state: { players: 4, trains: { 0: '12-5', mexican: '12-1' }, marked: [2], handCounts: [6, 8, 9, 10] } }] }),
      response: {
        200: AdviceAnswer,
        ...ERRORS,
      },
    },
  }, async (req) => {
    const { hand, state, worlds, seed } = req.body;
    if (worlds !== undefined && worlds > maxWorlds) throw new TilemateError('TM_BAD_INPUT', `worlds ${worlds}: at most ${maxWorlds} on this server`);
    const v = viewFromTable(state as TableInput, parseDominoes(hand));
    return adviceJson(v, await advise(req.ip, v, worlds, seed));
  });
};
