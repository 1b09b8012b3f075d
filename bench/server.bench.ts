/**
 * `npm run bench:server`: the practice server under load. It starts `tilemate serve` in a
 * child process on a free port and drives it from this process with autocannon:
 *   1. baseline: GET /api/health (fastify, the rate limiter and the error handler, no work),
 *   2. POST /api/analyze with 500 different seeded hands (top 5 lines, tile by tile),
 *   3. a stream of game actions: every connection plays its own games against random bots
 *      (POST /api/games, then POST /api/games/:id/actions with the first legal action;
 *      each answer includes the bots' moves up to the seat's next decision).
 * Reports requests per second, latency percentiles, and each route's rate as a ratio to
 * the baseline measured in the same run. Target: /api/analyze >= 2,000 req/s, p99 < 20 ms.
 * The server's rate limit is raised far above the load so that it counts but never refuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, handText, randomHands, startServer } from './common.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  requests: number;
}

function row(name: string, r: autocannon.Result): Row {
  return { name, rps: r.requests.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts, requests: r.requests.total };
}

const run = (opts: autocannon.Options): Promise<autocannon.Result> => autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });

// ------------------------------------------------------------------ the game stream

interface Game {
  id: string;
  token: string;
  answer: { view: { phase: string; rack: string[] }; legal: { type: string }[] };
}

function nextAction(a: Game['answer']): object {
  const l = a.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: a.view.rack.filter((t) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

const port = await freePort();
const data = mkdtempSync(join(tmpdir(), 'tilemate-bench-'));
const server = await startServer(port, data, ['--max-games', '1000']);
const url = `http://127.0.0.1:${port}`;
const hands = randomHands(500, 7).map(handText);
const json = { 'content-type': 'application/json' };
let games = 0,
  actions = 0,
  finished = 0;

try {
  // warm the JIT on every route before measuring
  await run({ url, duration: 2, requests: [{ method: 'POST', path: '/api/analyze', headers: json, body: JSON.stringify({ hand: hands[0] }) }] });

  const health = await run({ url: `${url}/api/health` });
  let i = 0;
  const analyze = await run({
    url,
    requests: [{ method: 'POST', path: '/api/analyze', headers: json, setupRequest: (req) => ({ ...req, body: JSON.stringify({ hand: hands[i++ % hands.length] }) }) }],
  });
  // Games waiting for their next action. autocannon resets a connection's context at every
  // request, so the games live here: a request takes an idle game (or starts one) and its
  // answer puts the game back until it ends.
  const idle: Game[] = [];
  const stream = await run({
    url,
    requests: [
      {
        method: 'POST',
        headers: json,
        setupRequest: (req, context: { game?: Game }) => {
          const game = idle.pop();
          context.game = game;
          if (!game) {
            games++;
            return { ...req, path: '/api/games', body: JSON.stringify({ level: 'random', seed: games }) };
          }
          actions++;
          return { ...req, path: `/api/games/${game.id}/actions`, headers: { ...json, authorization: `Bearer ${game.token}` }, body: JSON.stringify(nextAction(game.answer)) };
        },
        onResponse: (status, body, context: { game?: Game }) => {
          if (status >= 300) return;
          const answer = JSON.parse(body) as Game['answer'] & { id: string; token?: string };
          const game: Game = context.game ?? { id: answer.id, token: answer.token!, answer };
          game.answer = answer;
          if (answer.view.phase === 'ended') finished++;
          else idle.push(game);
        },
      },
    ],
  });

  const rows = [row('baseline: GET /api/health', health), row('POST /api/analyze (500 hands)', analyze), row('game stream (create + actions)', stream)];
  const base = rows[0].rps;
  console.log(`tilemate server, ${CONNECTIONS} connections, ${DURATION} s per route, autocannon in a separate process from the server`);
  console.log('route                              req/s    p50 ms  p90 ms  p99 ms  non-2xx  vs baseline');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(33)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(6)}  ${String(r.p90).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.errors).padStart(7)}  ${(r.rps / base).toFixed(3).padStart(11)}`,
    );
  }
  console.log(`game stream: ${games} games started, ${finished} finished, ${actions} actions posted`);
  const a = rows[1];
  console.log(`target /api/analyze >= 2000 req/s with p99 < 20 ms: ${a.rps >= 2000 && a.p99 < 20 ? 'met' : 'NOT met'} (${a.rps.toFixed(0)} req/s, p99 ${a.p99} ms)`);
} finally {
  server.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
