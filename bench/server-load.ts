/**
 * `npm run bench:load`: the practice server under a crowd and a flood, loopback only,
 * bounded in time. `tilemate serve` runs in a child process; from this process:
 * After 3 s warming the light routes (not reported):
 *   phase 1: 8 games against Monte Carlo bots played without pause (each action waits for the
 *            bots' answers), 50 autocannon connections on light routes (health, the card,
 *            plain analysis; BENCH_LIGHT=n for another number, 0 for none), and one more
 *            connection timing GET /api/health;
 *   phase 2: the same, plus a flood of heavy requests (discard advice, 200 worlds) from
 *            another address (127.0.0.2), 16 at a time.
 * Prints autocannon's latency figures for /api/health and the light routes, the game
 * actions played, and how the flood's requests were answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { firstChoice, freePort, startServer, type Answer } from './common.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const GAMES = 8;
/** Clients on the light routes (BENCH_LIGHT=0: the health probe and the games alone). */
const LIGHT = Number(process.env.BENCH_LIGHT ?? 50);

/** One JSON request from a given local address. */
function post(port: number, path: string, body: unknown, headers: Record<string, string> = {}, localAddress = '127.0.0.1'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Plays games against Monte Carlo bots until `until`; returns the actions played and their slowest answer. */
async function player(port: number, until: number): Promise<{ actions: number; games: number; worst: number }> {
  let actions = 0,
    games = 0,
    worst = 0;
  while (Date.now() < until) {
    const created = await post(port, '/api/games', { level: 'montecarlo' });
    if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
    const g = created.body as Answer;
    games++;
    let a = g;
    while (a.view.phase !== 'ended' && Date.now() < until) {
      const t0 = Date.now();
      const r = await post(port, `/api/games/${g.id}/actions`, { ...firstChoice(a), after: a.at }, { authorization: `Bearer ${g.token}` });
      if (r.status !== 200) throw new Error(`action: ${JSON.stringify(r.body)}`);
      worst = Math.max(worst, Date.now() - t0);
      a = r.body;
      actions++;
    }
  }
  return { actions, games, worst };
}

/** Heavy requests from another address, `width` at a time, until `until`: counts of answers by code. */
async function flood(port: number, until: number, width: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const body = { question: 'discard', hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N', worlds: 200 };
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (Date.now() < until) {
        const r = await post(port, '/api/advice', body, {}, '127.0.0.2');
        const key = r.status === 200 ? '200' : `${r.status} ${r.body?.code}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

const fmt = (name: string, r: autocannon.Result) =>
  `${name.padEnd(28)} ${String(Math.round(r.requests.average)).padStart(7)} req/s  p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  non-2xx ${r.non2xx}  errors ${r.errors + r.timeouts}`;

async function phase(port: number, withFlood: boolean): Promise<void> {
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + SECONDS * 1000;
  const json = { 'content-type': 'application/json' };
  const light =
    LIGHT === 0
      ? null
      : autocannon({
          url,
          connections: LIGHT,
          duration: SECONDS,
          requests: [
            { method: 'GET', path: '/api/card' },
            { method: 'POST', path: '/api/analyze', headers: json, body: JSON.stringify({ hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J' }) },
            { method: 'GET', path: '/api/health' },
          ],
        });
  const health = autocannon({ url: `${url}/api/health`, connections: 1, duration: SECONDS });
  const players = Promise.all(Array.from({ length: GAMES }, () => player(port, until)));
  const flooded = withFlood ? flood(port, until, 16) : Promise.resolve(null);
  const [h, l, p, f] = await Promise.all([health, light, players, flooded]);
  console.log(fmt('GET /api/health (1 conn)', h));
  if (l) console.log(fmt(`light routes (${LIGHT} conns)`, l));
  console.log(
    `Monte Carlo bot games: ${GAMES} players, ${p.reduce((n, x) => n + x.games, 0)} games, ${p.reduce((n, x) => n + x.actions, 0)} actions, slowest action answer ${Math.max(...p.map((x) => x.worst))} ms`,
  );
  if (f) console.log(`heavy flood from 127.0.0.2 (16 at a time): ${JSON.stringify(f)}`);
}

const port = await freePort();
const data = mkdtempSync(join(tmpdir(), 'tilemate-load-'));
const server = await startServer(port, data, ['--games-per-address', '100']);
try {
  // warm the JIT on the light routes first (not reported)
  await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 10,
    duration: 3,
    requests: [
      { method: 'GET', path: '/api/card' },
      { method: 'POST', path: '/api/analyze', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J' }) },
    ],
  });
  console.log(`phase 1: ${SECONDS} s, ${GAMES} games against Monte Carlo bots + ${LIGHT} clients on light routes`);
  await phase(port, false);
  console.log(`phase 2: ${SECONDS} s, the same + a heavy flood from another address`);
  await phase(port, true);
} finally {
  server.kill();
  rmSync(data, { recursive: true, force: true });
}
