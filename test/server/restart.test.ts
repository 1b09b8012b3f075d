import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { auth, call, dataDir, databaseOf, firstChoice, server, type Answer } from './helpers.js';

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

interface Known { id: string; token: string; at: number; events: Map<number, unknown>; last: Answer }

async function start(dir: string): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const database = await databaseOf(dir);
  const child = spawn(process.execPath, ['bin/tilemate.js', 'serve', '--port', '0', '--data', dir, '--rate-limit', '0', '--threads', '1', '--games-per-address', '1000', ...(database ? ['--database', database] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /ready: (http:\/\/\S+?)\/?\n/.exec(out); if (m) resolve(m[1].replace('localhost', '127.0.0.1')); });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return { child, url, exited };
}

async function post(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}) }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const remember = (k: Known, a: Answer) => { k.at = a.at; k.last = a; for (const e of a.events) k.events.set(e.n, e); };

describe('kill -9 at random moments', () => {
  it('20 trials: every acknowledged action of every live game is there after restart, and the games play on', async () => {
    const dir = dataDir();
    const known = new Map<string, Known>();
    let rnd = 12345;
    const random = () => { rnd = (rnd * 1103515245 + 12345) % 2 ** 31; return rnd / 2 ** 31; };
    let checked = 0, acked = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const { child, url, exited } = await start(dir);
      // every game acknowledged before the kill is there, with every action acknowledged
      for (const k of known.values()) {
        const r = await fetch(`${url}/api/games/${k.id}?since=0`, { headers: auth(k.token) });
        expect(r.status, `trial ${trial}: game ${k.id}`).toBe(200);
        const now = await r.json() as Answer;
        expect(now.at).toBeGreaterThanOrEqual(k.at);
        const restored = new Map(now.events.map((e) => [e.n, e]));
        for (const [n, e] of k.events) if (restored.has(n)) expect(restored.get(n), `trial ${trial}: game ${k.id} action ${n}`).toEqual(e);
        if (now.at === k.at) expect(now.view).toEqual(k.last.view);
        k.at = now.at;
        k.last = now;
        checked++;
      }
      // a new game, then actions on every game from several clients at once, until the kill
      const created = await post(`${url}/api/games`, { level: trial % 2 ? 'medium' : 'easy' });
      expect(created.status).toBe(201);
      known.set(created.body.id, { id: created.body.id, token: created.body.token, at: 0, events: new Map(), last: created.body });
      remember(known.get(created.body.id)!, created.body);
      let stop = false;
      const players = [...known.values()].map(async (k) => {
        // a few actions a trial, so games live through several restarts
        for (let quota = 2 + Math.floor(random() * 12); quota > 0 && !stop && k.last.view.phase !== 'ended' && k.at < 250; quota--) {
          try {
            const r = await post(`${url}/api/games/${k.id}/actions`, { ...firstChoice(k.last), after: k.at }, k.token);
            if (r.status !== 200) throw new Error(`trial ${trial}: ${JSON.stringify(r.body)}`);
            remember(k, r.body);
            acked++;
          } catch (err) {
            if (stop) return; // the connection died with the server: not acknowledged
            throw err;
          }
        }
      });
      await new Promise((r) => setTimeout(r, 20 + random() * 300));
      stop = true;
      child.kill('SIGKILL');
      await Promise.all(players);
      await exited;
      // finished games are records now, not live games: the journal is gone with the end
      for (const k of known.values()) if (k.last.view.phase === 'ended' || k.at >= 250) known.delete(k.id);
    }
    expect(checked).toBeGreaterThan(TRIALS);
    expect(acked).toBeGreaterThan(5 * TRIALS);
    console.log(`kill -9: ${TRIALS} trials, ${checked} game restarts checked, ${acked} acknowledged actions`);
  }, 240_000);
});
