import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordWriter } from '../../engine/record.js';
import { loadGame } from '../../engine/registry.js';
import { readCardText } from '../../io/cards.js';
import { openDb } from '../../api/store/db.js';
import { auth, call, databaseOf, dataDir, firstChoice, newJar, playThrough, server, type Answer } from './helpers.js';

async function finishedGame(dir: string, seed: number) {
  const app = await server({}, dir);
  const me = newJar();
  const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed } }, me)).body;
  const end = (await playThrough(app, g, firstChoice)).pop()!;
  return { app, g, end, me };
}

/** A game played by first legal actions for `moves` actions (all of it when undefined), with its record writer. */
function played(seed: number, moves = Infinity) {
  const game = loadGame('mah-jongg', { ruleset: 'nmjl-4p', card: { text: readCardText() } });
  const state = game.newGame(seed);
  const writer = new RecordWriter(game, seed, ['human', 'random', 'random', 'random']);
  const actions: unknown[] = [];
  while (!game.isOver(state) && actions.length < moves) {
    const a = game.legalActions(state, game.nextToAct(state))[0];
    game.apply(state, a);
    writer.action(a);
    actions.push(game.encodeAction(a));
  }
  return { game, state, writer, actions };
}

describe('server records', () => {
  it("a finished game's record is kept with its last action: listed and readable at once, and after a restart its token opens the end, read-only", async () => {
    const dir = dataDir();
    const { app, g, end, me } = await finishedGame(dir, 13);
    expect(end.recordId).toBe(g.id);
    const text = (await call(app, { method: 'GET', url: `/api/records/${g.id}` }, me)).body.text;
    expect(text.trimEnd().split('\n')).toHaveLength(end.at + 2); // header, every action, end line
    await app.close();
    const again = await server({}, dir);
    const list = (await call(again, { method: 'GET', url: '/api/records' }, me)).body.records;
    expect(list.map((r: any) => r.id)).toEqual([g.id]);
    expect(list[0].scores).toEqual(end.view.result.scores);
    expect(list[0].seat).toBe(0);
    expect((await call(again, { method: 'GET', url: `/api/records/${g.id}` }, me)).body.text).toBe(text);
    const review = await call(again, { method: 'POST', url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 1 } }, me);
    expect(review.status).toBe(200);
    // nothing of it is live, but a player whose last answer was cut off still sees how it ended
    const seen = await call(again, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ at: end.at, recordId: g.id, legal: [] });
    expect(seen.body.view.result.scores).toEqual(end.view.result.scores);
    const act = await call(again, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { type: 'draw' } });
    expect(act.body.code).toBe('TM_GAME_OVER');
  });

  it('a data folder from before the database is read in on the first start: its records, and its live games at their last whole journal line', async () => {
    const dir = dataDir();
    fs.mkdirSync(join(dir, 'records'));
    fs.mkdirSync(join(dir, 'live'));
    const done = played(21);
    const recordText = done.writer.text(done.state);
    fs.writeFileSync(join(dir, 'records', 'oldgame.jsonl'), recordText);
    fs.writeFileSync(join(dir, 'records', '.oldgamex.jsonl.999.tmp'), recordText.slice(0, 100)); // a write cut off by a crash
    fs.writeFileSync(join(dir, 'records', 'broken.jsonl'), 'garbage\n{');
    // a live game's journal: 30 actions acknowledged in two requests, then a line cut off by a crash
    const live = played(22, 30);
    const token = 'an-old-token';
    const journal = [
      JSON.stringify({ live: { id: 'oldlive', tokenHash: createHash('sha256').update(token).digest('hex'), seat: 0, owner: '127.0.0.1', autoPlay: false }, header: JSON.parse(live.writer.header) }),
      JSON.stringify({ from: 1, actions: live.actions.slice(0, 20), rng: [1, 2, 3, 4] }),
      JSON.stringify({ from: 21, actions: live.actions.slice(20), rng: [5, 6, 7, 8] }),
      '{"from": 31, "actions": [{"ty',
    ].join('\n');
    fs.writeFileSync(join(dir, 'live', 'oldlive.jsonl'), journal);

    const app = await server({}, dir);
    const list = (await call(app, { method: 'GET', url: '/api/records' })).body;
    expect(list.records.map((r: any) => r.id)).toEqual(['oldgame']);
    expect((await call(app, { method: 'GET', url: '/api/records/oldgame?format=jsonl' })).body).toBe(recordText);
    expect((await call(app, { method: 'GET', url: '/api/records/broken' })).status).toBe(404);
    const g = await call(app, { method: 'GET', url: '/api/games/oldlive?since=0', headers: auth(token) });
    expect(g.status).toBe(200);
    expect(g.body.at).toBe(30);
    expect(g.body.events).toHaveLength(30);
    await app.close();
    // read once: a second start finds the same, not twice as much
    fs.writeFileSync(join(dir, 'records', 'later.jsonl'), played(23).writer.text(played(23).state));
    const again = await server({}, dir);
    expect((await call(again, { method: 'GET', url: '/api/records' })).body.records.map((r: any) => r.id)).toEqual(['oldgame']);
    expect((await call(again, { method: 'GET', url: '/api/games/oldlive', headers: auth(token) })).body.at).toBe(30);
  });

  it("a kept record's review is computed once and kept: asked again (after a restart too) it is the same, and only its player gets it", async () => {
    const dir = dataDir();
    const { app, g, me } = await finishedGame(dir, 15);
    const ask = { method: 'POST' as const, url: '/api/review', payload: { recordId: g.id, seat: 0, worlds: 2 } };
    const first = await call(app, ask, me);
    expect(first.status).toBe(200);
    const t0 = performance.now();
    const second = await call(app, ask, me);
    const keptMs = performance.now() - t0;
    expect(second.body).toEqual(first.body);
    await app.close();
    const again = await server({ threads: 1 }, dir);
    expect((await call(again, ask, me)).body).toEqual(first.body);
    expect((await call(again, ask, newJar())).status).toBe(404);
    console.log(`a kept review answered in ${keptMs.toFixed(1)} ms`);
    await again.close();
    // a review kept by an earlier method of the advice is not served as today's answer: it is computed again
    const db = await openDb({ dataDir: dir, url: await databaseOf(dir) });
    await db.query(`UPDATE reviews SET method = 1, review = jsonb_set(review, '{summary,text}', '"an answer of the old advice"')`);
    await db.close();
    const third = await server({ threads: 1 }, dir);
    const fresh = await call(third, ask, me);
    expect(fresh.body).toEqual(first.body);
    await third.close();
  });

  it('a live game is not saved: a server stopped mid-game leaves no record of it', async () => {
    const dir = dataDir();
    const app = await server({}, dir);
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 14 } })).body;
    await playThrough(app, g, firstChoice, 3);
    await app.close();
    const again = await server({}, dir);
    expect((await call(again, { method: 'GET', url: '/api/records' })).body.records).toEqual([]);
  });

  it('unknown, malformed and path-like record ids are 404; a bad uploaded record is 400 TM_BAD_RECORD', async () => {
    const app = await server();
    for (const id of ['nope', '..%2F..%2Fetc%2Fpasswd', '.hidden', 'a'.repeat(65)]) {
      const r = await call(app, { method: 'GET', url: `/api/records/${id}` });
      expect(r.status, id).toBeGreaterThanOrEqual(400);
      expect(r.status, id).toBeLessThan(500);
      expect(r.body.code).toMatch(/^TM_(NOT_FOUND|BAD_INPUT)$/);
    }
    const bad = await call(app, { method: 'POST', url: '/api/review', payload: { record: '{"format":"tilemate-record","version":1}\n{"n":1', seat: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('TM_BAD_RECORD');
    const both = await call(app, { method: 'POST', url: '/api/review', payload: { record: 'x', recordId: 'y', seat: 0 } });
    expect(both.body.code).toBe('TM_BAD_INPUT');
  });
});

describe('stepping through a finished game', () => {
  it("every move in order, with her rack after it (13 or 14 tiles) and nobody else's; other seats' Charleston tiles stay face down; her game only", async () => {
    const app = await server();
    const me = newJar();
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'random', seed: 71 } }, me)).body;
    const end = (await playThrough(app, g, firstChoice)).pop()!;
    const r = await call(app, { method: 'GET', url: `/api/records/${g.id}/steps` }, me);
    expect(r.status).toBe(200);
    expect(r.body.seat).toBe(0);
    expect(r.body.steps).toHaveLength(end.at + 1);
    expect(r.body.steps.map((s: any) => s.n)).toEqual(Array.from({ length: end.at + 1 }, (_, i) => i));
    for (const s of r.body.steps) {
      expect(Object.keys(s).sort()).toEqual(['action', 'discards', 'exposures', 'n', 'rack']);
      if (s.action.type === 'pass' && s.action.seat !== 0) expect(s.action.tiles).toBeUndefined();
    }
    expect(r.body.steps.find((s: any) => s.action.type === 'pass' && s.action.seat === 0).action.tiles).toHaveLength(3);
    expect((await call(app, { method: 'GET', url: `/api/records/${g.id}/steps` }, newJar())).status).toBe(404);
  });
});

describe('play on from a moment of a finished game', () => {
  it('a new game from just before move N has the same deal, bots and first N-1 moves; making the same choices again reaches the same end', async () => {
    const app = await server();
    const me = newJar();
    const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level: 'easy', seed: 70 } }, me)).body;
    const end = (await playThrough(app, g, firstChoice)).pop()!;
    const text: string = (await call(app, { method: 'GET', url: `/api/records/${g.id}` }, me)).body.text;
    const original = text
      .trimEnd()
      .split('\n')
      .slice(1, -1)
      .map((l) => JSON.parse(l).action);
    // a moment of hers in the middle of the game
    const before = original.findIndex((a, i) => i > 60 && a.seat === 0 && a.type === 'discard') + 1;
    expect(before).toBeGreaterThan(60);
    const from = await call(app, { method: 'POST', url: '/api/games/from', payload: { recordId: g.id, before } }, me);
    expect(from.status).toBe(201);
    expect(from.body.at).toBe(before - 1);
    expect(from.body.id).not.toBe(g.id);
    let a: Answer = from.body;
    const replayed = (await call(app, { method: 'GET', url: `/api/games/${a.id}?since=0`, headers: auth(from.body.token) }, me)).body.events.map((e: any) => e.action);
    expect(replayed.map((x: any) => [x.type, x.seat])).toEqual(original.slice(0, before - 1).map((x) => [x.type, x.seat]));
    // her own choices of the first game, again: the bots answer as they did
    while (a.view.phase !== 'ended') {
      const mine = original[a.at];
      expect(mine.seat).toBe(0);
      const r = await call(app, { method: 'POST', url: `/api/games/${a.id}/actions`, headers: auth(from.body.token), payload: { ...mine, after: a.at } }, me);
      expect(r.status).toBe(200);
      a = r.body;
    }
    expect(a.view.result.scores).toEqual(end.view.result.scores);
    expect(a.at).toBe(original.length);
    // refused: a move past the end, another player's record
    expect((await call(app, { method: 'POST', url: '/api/games/from', payload: { recordId: g.id, before: original.length + 1 } }, me)).body.code).toBe('TM_BAD_INPUT');
    expect((await call(app, { method: 'POST', url: '/api/games/from', payload: { recordId: g.id, before } }, newJar())).status).toBe(404);
  });
});
