import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { botRng, makeBot } from '../../agents/bots.js';
import { build } from '../../api/http/app.js';
import type { GameWire } from '../../api/shared/game-wire.js';
import { MEXICAN_TRAIN_WIRE } from '../../api/shared/domino-wire.js';
import { MAH_JONGG_WIRE } from '../../api/shared/wire.js';
import { initialise, openDb, type Db } from '../../api/store/db.js';
import { migrate, MIGRATIONS } from '../../api/store/migrations.js';
import type { Game, GameSpec } from '../../engine/games.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { RecordWriter } from '../../engine/record.js';
import { loadGame } from '../../engine/registry.js';
import { auth, call, dataDir, databaseOf, firstChoice, type Answer } from './helpers.js';

/**
 * Every game is a table (issue 45): a game against bots is played by the same path as a table
 * people share. Games in progress kept the old way (live_games, live_actions) move over with
 * their tokens and play on; and a game moved from one server to another plays on as one server
 * would have played it, its bots where they were.
 */

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close().catch(() => {}))); // each closes its database (two may share one)
});

async function app(dir: string, db?: Db): Promise<FastifyInstance> {
  const a = await build({ dataDir: dir, ...(db !== undefined ? { db } : { databaseUrl: await databaseOf(dir) }), limits: { ratePerMinute: 0, threads: 0 }, webDir: null });
  apps.push(a);
  return a;
}

const text = readFileSync('cards/practice-2026.card', 'utf8');

/** A game played the old way for `moves` of the person's decisions (her first choice each time), as live_games kept it. */
function oldGame(game: Game, seed: number, bots: string[], moves: number) {
  const names = ['human', ...bots];
  const agents = names.map((n, s) => (s === 0 ? null : makeBot(game, n)));
  const rng = botRng(seed);
  const state = game.newGame(seed);
  const writer = new RecordWriter(game, seed, names);
  const actions: unknown[] = [];
  let decided = 0;
  while (!game.isOver(state)) {
    const seat = game.nextToAct(state);
    const legal = game.legalActions(state, seat);
    if (seat === 0 && legal.length > 1 && decided++ >= moves) break;
    const action = seat === 0 ? legal[0] : agents[seat]!.act({ seat, phase: game.phase(state), view: () => game.view(state, seat), legal: () => game.legalActions(state, seat), rng });
    game.apply(state, action);
    actions.push(game.encodeAction(action));
  }
  return { header: JSON.parse(writer.header) as Record<string, unknown>, actions, rng: [...rng], state };
}

describe('games in progress kept before every game was a table', () => {
  it('move over to tables with their tokens, open where they were and play on; the old tables are gone', async () => {
    const dir = dataDir();
    const url = await databaseOf(dir);
    // the database as the last Tilemate before this change left it (no template: it is this build's)
    if (url === undefined) await initialise(join(dir, 'db'), join(dir, 'no-template'));
    const db = await openDb({ dataDir: dir, url });
    // up to the migration before "every game is a table" (later migrations came after it)
    const before = MIGRATIONS.findIndex((m) => m.name === 'every game is a table');
    expect(before).toBeGreaterThan(0);
    expect(await migrate(db, before)).toBe(before);
    const games = [
      { path: '/api/games', game: loadGame('mah-jongg', { ruleset: 'nmjl-4p', card: { name: parseCard(text).name, text } }), bots: ['easy', 'medium', 'random'], wire: MAH_JONGG_WIRE },
      { path: '/api/domino/games', game: loadGame('mexican-train', {}), bots: ['greedy', 'random', 'greedy'], wire: MEXICAN_TRAIN_WIRE },
    ] as { path: string; game: Game; bots: string[]; wire: GameWire<GameSpec> }[];
    const kept: { path: string; id: string; token: string; game: Game; wire: GameWire<GameSpec>; state: object; actions: number }[] = [];
    for (const [i, { path, game, bots, wire }] of games.entries()) {
      const old = oldGame(game, 40 + i, bots, 3);
      const id = randomBytes(12).toString('base64url');
      const token = randomBytes(24).toString('base64url');
      await db.query('INSERT INTO live_games (id, owner, token_hash, seat, auto_play, header, rng, actions) VALUES ($1, $2, $3, 0, true, $4::text::jsonb, $5::text::jsonb, $6)', [
        id,
        '10.0.0.9',
        createHash('sha256').update(token).digest(),
        JSON.stringify(old.header),
        JSON.stringify(old.rng),
        old.actions.length,
      ]);
      for (const [n, a] of old.actions.entries()) await db.query('INSERT INTO live_actions (game_id, n, action) VALUES ($1, $2, $3::text::jsonb)', [id, n + 1, JSON.stringify(a)]);
      kept.push({ path, id, token, game, wire, state: old.state, actions: old.actions.length });
    }
    const server = await app(dir, db);
    expect((await db.query("SELECT to_regclass('live_games') AS t"))[0].t).toBeNull();
    for (const k of kept) {
      const r = await call(server, { method: 'GET', url: `${k.path}/${k.id}`, headers: auth(k.token) });
      expect(r.status, k.path).toBe(200);
      const a: Answer = r.body;
      expect(a.at).toBe(k.actions);
      expect(a.seats[0]).toBe('human');
      // her seat's view is the old game's, exactly
      expect(a.view).toEqual(JSON.parse(JSON.stringify(k.wire.viewJson(k.game, k.game.view(k.state, 0), k.game.legalActions(k.state, 0)))));
      // another token opens nothing; her token plays on
      expect((await call(server, { method: 'GET', url: `${k.path}/${k.id}`, headers: auth('not-her-token') })).status).toBe(404);
      const next = await call(server, { method: 'POST', url: `${k.path}/${k.id}/actions`, headers: auth(k.token), payload: { ...firstChoice(a), after: a.at } });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(next.body.at).toBeGreaterThan(a.at);
    }
  }, 120_000);
});

describe('a game against bots moved between servers', () => {
  it('plays on as one server would have played it: the bots that remember their plans replay them', async () => {
    const dir = dataDir();
    const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
    const one = await app(dir, db);
    const two = await app(dir, db);
    const play = async (servers: FastifyInstance[]) => {
      const created: Answer = (await call(servers[0], { method: 'POST', url: '/api/games', payload: { bots: ['easy', 'medium', 'easy'], seed: 77 } })).body;
      let a = created;
      for (let i = 0; i < 30 && a.view.phase !== 'ended'; i++) {
        const server = servers[i % servers.length];
        const r = await call(server, { method: 'POST', url: `/api/games/${created.id}/actions`, headers: auth(created.token!), payload: { ...firstChoice(a), after: a.at } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        a = r.body;
      }
      return (await call(servers[0], { method: 'GET', url: `/api/games/${created.id}?since=0`, headers: auth(created.token!) })).body as Answer;
    };
    const alone = await play([one]);
    const moved = await play([one, two]);
    expect(moved.at).toBe(alone.at);
    expect(moved.events).toEqual(alone.events);
    expect(moved.view).toEqual(alone.view);
  }, 120_000);
});
