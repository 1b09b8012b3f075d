/**
 * `npm run bench:starvation`: can one address starve another's game? (issue 28, loopback only,
 * bounded in time). `tilemate serve` runs in a child process with its default limits (one
 * worker thread on a 2-core machine) but no general limit of requests a minute, which the
 * player, acting without a pause, would pass (the flood keeps to the heavy routes' own limits);
 * from this process, first for BENCH_ALONE seconds (default 30) the player and the probe alone
 * (for reference), then for BENCH_SECONDS (default 60):
 *   - a player at 127.0.0.1 plays Mah Jongg against three Monte Carlo bots, one action after another
 *     (each answer waits for the bots' turns, played in the worker pool), timing each action;
 *   - a probe at 127.0.0.3 asks GET /api/health every 200 ms;
 *   - an attacker at 127.0.0.2 floods the heavy routes within every limit the server has (two
 *     requests at once, at most 58 a minute): /api/analyze with a 619-byte card of 17,496
 *     forms and `simulate: 2000`, /api/advice on it with 200 worlds, /api/cards/check of it.
 *     Refused as too costly, it asks again for the most the answer names.
 * Prints the player's action latency p50/p99/max, /api/health's, and how the flood was answered.
 *
 * BENCH_ROOT=<folder> runs the server of another checkout (its bin/tilemate.js, built), so the
 * same measurement can be taken before and after a change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstChoice, freePort, quantile, startServer, type Answer } from './common.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ALONE = Number(process.env.BENCH_ALONE ?? 30);
const ROOT = resolve(process.env.BENCH_ROOT ?? process.cwd());

const pungs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(3) + 'a').join('|');
const kongs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(4) + 'b').join('|');
const pairs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(2) + 'c').join('|');
/** 4 lines of `|` alternatives: 17,496 forms. */
const BIG = `card: Big\n[Big]\n${[0, 1, 2, 3].map((i) => `${pungs} ${kongs} ${pairs} NNNN F ; x ${25 + i}`).join('\n')}\n`;
const HAND14 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N';

interface Reply {
  status: number;
  body: any;
}

/** One JSON request from a given local address (a fresh connection each time). */
function send(port: number, method: string, path: string, body: unknown, headers: Record<string, string> = {}, localAddress = '127.0.0.1'): Promise<Reply> {
  return new Promise((done, fail) => {
    const data = body === undefined ? '' : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          done({ status: res.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', fail);
    req.end(data);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const figures = (xs: number[]) => `p50 ${Math.round(quantile(xs, 0.5))} ms, p99 ${Math.round(quantile(xs, 0.99))} ms, max ${Math.round(Math.max(...xs))} ms`;

/** Games against Monte Carlo bots until `until`: each action's time to its answer. */
async function player(port: number, until: number): Promise<{ times: number[]; games: number; refused: Record<string, number> }> {
  const times: number[] = [];
  const refused: Record<string, number> = {};
  let games = 0;
  while (Date.now() < until) {
    const created = await send(port, 'POST', '/api/games', { level: 'montecarlo' });
    if (created.status !== 201) throw new Error(`a new game was refused: ${JSON.stringify(created.body)}`);
    games++;
    const token = (created.body as Answer).token!;
    let a = created.body as Answer;
    while (a.view.phase !== 'ended' && Date.now() < until) {
      const t0 = performance.now();
      const r = await send(port, 'POST', `/api/games/${a.id}/actions`, { ...firstChoice(a), after: a.at }, { authorization: `Bearer ${token}` });
      times.push(performance.now() - t0);
      if (r.status !== 200) {
        const key = `${r.status} ${r.body?.code}`;
        refused[key] = (refused[key] ?? 0) + 1;
        const again = await send(port, 'GET', `/api/games/${a.id}`, undefined, { authorization: `Bearer ${token}` });
        if (again.status !== 200) throw new Error(`the game could not be read: ${JSON.stringify(again.body)}`);
        a = again.body as Answer;
        continue;
      }
      a = r.body as Answer;
    }
  }
  return { times, games, refused };
}

/** GET /api/health every 200 ms from 127.0.0.3 until `until`. */
async function probe(port: number, until: number): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < until) {
    const t0 = performance.now();
    await send(port, 'GET', '/api/health', undefined, {}, '127.0.0.3');
    times.push(performance.now() - t0);
    await sleep(200);
  }
  return times;
}

/**
 * The flood from 127.0.0.2, two at a time and at most 58 starts a minute (the heavy budget is
 * 60): each kind of request in turn, asking for the most the server allows once it has said so.
 */
async function flood(port: number, until: number): Promise<{ counts: Record<string, number>; times: number[] }> {
  const counts: Record<string, number> = {};
  const times: number[] = [];
  let deals = 2000,
    worlds = 200,
    turn = 0;
  const starts: number[] = [];
  const kinds = [
    () => ({ path: '/api/analyze', body: { hand: HAND14, card: BIG, simulate: deals } }),
    () => ({ path: '/api/cards/check', body: { text: BIG } }),
    () => ({ path: '/api/advice', body: { question: 'discard', hand: HAND14, card: BIG, worlds } }),
  ];
  await Promise.all(
    [0, 1].map(async () => {
      while (Date.now() < until) {
        // at most 58 starts in any minute
        while (starts.length > 0 && starts.length >= 58 && Date.now() - starts[starts.length - 58] < 60_000) await sleep(100);
        if (Date.now() >= until) break;
        starts.push(Date.now());
        const { path, body } = kinds[turn++ % kinds.length]();
        const t0 = performance.now();
        const r = await send(port, 'POST', path, body, {}, '127.0.0.2');
        times.push(performance.now() - t0);
        const key = `${path} ${r.status}${r.status === 200 ? '' : ` ${r.body?.code}`}`;
        counts[key] = (counts[key] ?? 0) + 1;
        const most = /at most ([\d,]+) (deals|worlds)/.exec(String(r.body?.message ?? ''));
        if (r.status === 422 && most) {
          const n = Number(most[1].replace(/,/g, ''));
          if (most[2] === 'deals') deals = n;
          else worlds = n;
        }
      }
    }),
  );
  return { counts, times };
}

const port = await freePort();
const data = mkdtempSync(join(tmpdir(), 'tilemate-starvation-'));
const server = await startServer(port, data, ['--rate-limit', '0'], ROOT);
try {
  console.log(`starvation: ${SECONDS} s, the server of ${ROOT} on port ${port} with its default limits (no general limit a minute)`);
  // the player's first game and the bots' first turns warm up (not timed)
  await player(port, Date.now() + 3000);
  const report = (p: Awaited<ReturnType<typeof player>>, h: number[]) => {
    console.log(
      `  Monte Carlo bot player (127.0.0.1): ${p.games} games, ${p.times.length} actions, ${figures(p.times)}${Object.keys(p.refused).length > 0 ? `, refused ${JSON.stringify(p.refused)}` : ''}`,
    );
    console.log(`  GET /api/health (127.0.0.3, every 200 ms): ${h.length} answers, ${figures(h)}`);
  };
  if (ALONE > 0) {
    console.log(`alone, ${ALONE} s:`);
    const until = Date.now() + ALONE * 1000;
    const [p, h] = await Promise.all([player(port, until), probe(port, until)]);
    report(p, h);
  }
  console.log(`with the flood, ${SECONDS} s:`);
  const until = Date.now() + SECONDS * 1000;
  const [p, h, f] = await Promise.all([player(port, until), probe(port, until), flood(port, until)]);
  report(p, h);
  console.log(`  heavy flood (127.0.0.2, 2 at a time, at most 58 a minute): ${f.times.length} requests answered in ${figures(f.times)}: ${JSON.stringify(f.counts)}`);
} finally {
  server.kill();
  rmSync(data, { recursive: true, force: true });
}
