import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { auth, call, dataDir, firstChoice, server, type Answer } from './helpers.js';

/** Live games are journaled as they are played and taken up again on start. */

describe('live games survive a restart', () => {
  it('a new server on the same data folder takes up the games in progress, which play on', async () => {
    const dir = dataDir();
    const first = await server({}, dir);
    const games: Answer[] = [];
    for (const [level, seed] of [['medium', 4], ['easy', 9]] as const) {
      const g: Answer = (await call(first, { method: 'POST', url: '/api/games', payload: { level, seed } })).body;
      let a = g;
      for (let i = 0; i < 12; i++) a = (await call(first, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: firstChoice(a) })).body;
      games.push({ ...a, token: g.token });
    }
    const second = await server({}, dir);
    for (const g of games) {
      const now = (await call(second, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) })).body;
      expect(now.at).toBe(g.at);
      expect(now.view).toEqual(g.view);
      expect(now.legal).toEqual(g.legal);
      const next = await call(second, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...firstChoice(now), after: now.at } });
      expect(next.status).toBe(200);
      // the same as the first server answers to the same action: the bots' stream was restored too
      const same = await call(first, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { ...firstChoice(now), after: now.at } });
      expect(next.body.view).toEqual(same.body.view);
    }
  });
});

describe('Mexican Train games survive a restart too', () => {
  it('a new server takes up a Mexican Train game at its last action, and it plays on', async () => {
    const dir = dataDir();
    const first = await server({}, dir);
    const g = (await call(first, { method: 'POST', url: '/api/domino/games', payload: { seed: 6, players: 3 } })).body;
    let a = g;
    for (let i = 0; i < 6 && a.legal.length > 0; i++) {
      a = (await call(first, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: { ...a.legal[0], after: a.at } })).body;
    }
    expect(a.at).toBeGreaterThan(6);
    const second = await server({}, dir);
    const now = (await call(second, { method: 'GET', url: `/api/domino/games/${g.id}?since=0`, headers: auth(g.token) })).body;
    expect(now.at).toBe(a.at);
    expect(now.view).toEqual(a.view);
    const next = await call(second, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: { ...now.legal[0], after: now.at } });
    const same = await call(first, { method: 'POST', url: `/api/domino/games/${g.id}/actions`, headers: auth(g.token), payload: { ...now.legal[0], after: now.at } });
    expect(next.status).toBe(200);
    expect(next.body).toEqual(same.body);
  });
});

// ------------------------------------------------------------------ kill -9

const TRIALS = Number(process.env.KILL_TRIALS ?? 20);

interface Known { id: string; token: string; at: number; events: Map<number, unknown>; last: Answer }

async function start(dir: string): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['bin/tilemate.js', 'serve', '--port', '0', '--data', dir, '--rate-limit', '0', '--threads', '1', '--games-per-address', '1000'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
