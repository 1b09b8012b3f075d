import { describe, expect, it } from 'vitest';
import { SERVER_URL } from '../databases.js';
import { auth, call, dataDir, firstChoice, postJson, server, spawnServer, type Answer } from './helpers.js';

/**
 * Live games are committed to the database as they are played and taken up again on start.
 * Each restarted game is compared with the same game (same seed, same actions) played on
 * another server that never stopped.
 */

async function playMah(app: Awaited<ReturnType<typeof server>>, level: string, seed: number, moves: number): Promise<Answer> {
  const g: Answer = (await call(app, { method: 'POST', url: '/api/games', payload: { level, seed } })).body;
  let a = g;
  for (let i = 0; i < moves; i++) a = (await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: firstChoice(a) })).body;
  return { ...a, token: g.token };
}

describe('live games survive a restart', () => {
  it('a new server on the same data folder takes up the games in progress, which play on as if never stopped', async () => {
    const dir = dataDir();
    const first = await server({}, dir);
    const steady = await server();
    const games = [await playMah(first, 'medium', 4, 12), await playMah(first, 'easy', 9, 12)];
    const twins = [await playMah(steady, 'medium', 4, 12), await playMah(steady, 'easy', 9, 12)];
    twins.forEach((t, i) => expect(t.view).toEqual(games[i].view));
    await first.close();
    const second = await server({}, dir);
    for (const [i, g] of games.entries()) {
      const now = (await call(second, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body;
      expect(now.at).toBe(g.at);
      expect(now.view).toEqual(g.view);
      expect(now.legal).toEqual(g.legal);
      const next = await call(second, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...firstChoice(now), after: now.at } });
      expect(next.status).toBe(200);
      // the same as the server that never stopped answers to the same action: the bots' stream was restored too
      const t = twins[i];
      const same = await call(steady, { method: 'POST', url: `/api/games/${t.id}/actions`, headers: auth(t.token!), payload: { ...firstChoice(now), after: now.at } });
      expect(next.body.view).toEqual(same.body.view);
    }
  });
});

describe('Mexican Train games survive a restart too', () => {
  it('a new server takes up a Mexican Train game at its last action, and it plays on', async () => {
    const dir = dataDir();
    const first = await server({}, dir);
    const steady = await server();
    const play = async (app: typeof first) => {
      const g = (await call(app, { method: 'POST', url: '/api/domino/games', payload: { seed: 6, players: 3 } })).body;
      let a = g;
      for (let i = 0; i < 6 && a.legal.length > 0; i++) {
        a = (await call(app, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: { ...a.legal[0], after: a.at } })).body;
      }
      return { ...a, token: g.token };
    };
    const a = await play(first);
    const twin = await play(steady);
    expect(a.at).toBeGreaterThan(6);
    await first.close();
    const second = await server({}, dir);
    const now = (await call(second, { method: 'GET', url: `/api/domino/games/${a.id}?since=0`, headers: auth(a.token) })).body;
    expect(now.at).toBe(a.at);
    expect(now.view).toEqual(a.view);
    const next = await call(second, { method: 'POST', url: `/api/domino/games/${a.id}/actions`, headers: auth(a.token), payload: { ...now.legal[0], after: now.at } });
    const same = await call(steady, { method: 'POST', url: `/api/domino/games/${twin.id}/actions`, headers: auth(twin.token), payload: { ...now.legal[0], after: now.at } });
    expect(next.status).toBe(200);
    expect({ ...next.body, id: '' }).toEqual({ ...same.body, id: '' });
  });
});

// ------------------------------------------------------------------ kill -9

const TRIALS = Number(process.env.KILL_TRIALS ?? 20);
const PLAYERS = 5;

/** A player's game as she knows it: every action acknowledged to her, and each event she was told. */
interface Known {
  path: string;
  id: string;
  token: string;
  cookie: string;
  at: number;
  events: Map<number, unknown>;
  last: Answer;
}

const remember = (k: Known, a: Answer) => {
  k.at = a.at;
  k.last = a;
  for (const e of a.events) k.events.set(e.n, e);
};
/** Her next move: Mah Jongg by the first choice, Mexican Train by the first legal play. */
const nextMove = (k: Known) => (k.path === '/api/games' ? firstChoice(k.last) : k.last.legal[0]);
const over = (k: Known) => k.last.view.phase === 'ended' || (k.last.legal.length === 0 && k.path !== '/api/games') || k.at >= 250;

describe('kill -9 at random moments', () => {
  it(`${TRIALS} trials with ${PLAYERS} players at both games: every acknowledged action of every live game is there after restart, and the games play on`, async () => {
    const dir = dataDir();
    const known = new Map<string, Known>();
    let rnd = 12345;
    const random = () => {
      rnd = (rnd * 1103515245 + 12345) % 2 ** 31;
      return rnd / 2 ** 31;
    };
    let checked = 0,
      acked = 0,
      kept = 0,
      lost = 0,
      created = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const { child, url, exited } = await spawnServer(dir);
      // every game acknowledged before the kill is there, with every action acknowledged
      for (const k of known.values()) {
        const r = await fetch(`${url}${k.path}/${k.id}?since=0`, { headers: auth(k.token) });
        if (r.status === 404) {
          // the request that ended it was committed, its answer cut off by the kill: it is her record now
          const rec = await fetch(`${url}/api/records/${k.id}`, { headers: { cookie: k.cookie } });
          expect(rec.status, `trial ${trial}: game ${k.id} is neither live nor a record`).toBe(200);
          const { actions } = (await rec.json()) as { actions: number };
          expect(actions, `trial ${trial}: game ${k.id}'s record lost acknowledged actions`).toBeGreaterThanOrEqual(k.at);
          kept += k.at;
          known.delete(k.id);
          checked++;
          continue;
        }
        expect(r.status, `trial ${trial}: game ${k.id}`).toBe(200);
        const now = (await r.json()) as Answer;
        if (now.at < k.at) lost += k.at - now.at;
        expect(now.at, `trial ${trial}: game ${k.id} lost acknowledged actions`).toBeGreaterThanOrEqual(k.at);
        kept += k.at;
        const restored = new Map(now.events.map((e) => [e.n, e]));
        for (const [n, e] of k.events) if (restored.has(n)) expect(restored.get(n), `trial ${trial}: game ${k.id} action ${n}`).toEqual(e);
        if (now.at === k.at) expect(now.view).toEqual(k.last.view);
        k.at = now.at;
        k.last = now;
        checked++;
      }
      // new games for the players whose games ended, then every player's actions at once, until the kill
      while (known.size < PLAYERS) {
        const path = created++ % 2 === 0 ? '/api/games' : '/api/domino/games';
        const r = await postJson(`${url}${path}`, path === '/api/games' ? { level: trial % 2 ? 'medium' : 'easy' } : { players: 3, bots: ['greedy', 'random'] });
        expect(r.status).toBe(201);
        expect(r.cookie).toBeDefined();
        const k: Known = { path, id: r.body.id, token: r.body.token, cookie: r.cookie!, at: 0, events: new Map(), last: r.body };
        remember(k, r.body);
        known.set(k.id, k);
      }
      let stop = false;
      const players = [...known.values()].map(async (k) => {
        // a few actions a trial, so games live through several restarts
        for (let quota = 2 + Math.floor(random() * 12); quota > 0 && !stop && !over(k); quota--) {
          try {
            const r = await postJson(`${url}${k.path}/${k.id}/actions`, { ...nextMove(k), after: k.at }, k.token);
            if (r.status !== 200) throw new Error(`trial ${trial}: ${JSON.stringify(r.body)}`);
            remember(k, r.body);
            acked++;
          } catch (err) {
            if (stop) return; // the connection died with the server: not acknowledged
            throw err;
          }
        }
      });
      // the kill comes at a random moment once this trial has had a few actions acknowledged, so
      // that a slow machine tests as much as a fast one (a fixed delay saw half as many there)
      const playing = Promise.all(players);
      // settled either way (an error is thrown by the await below, once)
      const finished = playing.then(
        () => true,
        () => true,
      );
      const pause = (ms: number) => new Promise<boolean>((r) => setTimeout(() => r(false), ms));
      const target = acked + 6 + Math.floor(random() * 6);
      for (const begun = Date.now(); acked < target && Date.now() - begun < 30_000; ) {
        if (await Promise.race([finished, pause(5)])) break;
      }
      await pause(random() * 300);
      stop = true;
      child.kill('SIGKILL');
      await playing;
      await exited;
      // finished games are records now, not live games
      for (const k of known.values()) if (over(k)) known.delete(k.id);
    }
    expect(checked).toBeGreaterThan(TRIALS);
    expect(acked).toBeGreaterThan(5 * TRIALS);
    console.log(
      `kill -9 on the ${SERVER_URL ? 'PostgreSQL server' : 'embedded database'}: ${TRIALS} trials, ${PLAYERS} players, ${created} games (both games), ${acked} actions acknowledged, ${checked} game restarts checked holding ${kept} acknowledged actions, ${lost} lost`,
    );
  }, 300_000);
});
