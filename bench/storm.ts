/**
 * `npm run bench:storm`: can one address's connections slow the server for another? (issue 45,
 * loopback only, bounded in time). `tilemate serve` (of BENCH_ROOT, default this checkout,
 * built) runs in a child process with its default limits; a probe at 127.0.0.3 asks GET
 * /api/health every 100 ms from a thread of its own, timing each answer, through three phases of BENCH_SECONDS each
 * (default 15):
 *   - alone: the probe only;
 *   - held: an attacker at 127.0.0.2 opens 1,000 connections at once and holds them open;
 *   - storm: the attacker at 127.0.0.2 opens WebSockets to a table as fast as it can, 64 at a
 *     time, each saying hello with a wrong token and closing at once, and opening the next.
 * Prints the probe's p50/p99/max in each phase and how many connections the attacker made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { freePort, quantile, startServer } from './common.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROOT = resolve(process.env.BENCH_ROOT ?? process.cwd());

const figures = (xs: number[]) => `${xs.length} answers, p50 ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;

/** GET /api/health once from 127.0.0.3: its time (ms). */
function health(port: number): Promise<number> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', localAddress: '127.0.0.3', agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(performance.now() - t0));
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * GET /api/health every 100 ms until `until`: each answer's time. The probe runs in a thread of
 * its own: in the attacker's event loop, the attacker's own work would be timed as the server's.
 */
function probe(port: number, until: number): Promise<number[]> {
  const code = `
    const { request } = require('node:http');
    const { parentPort, workerData: { port, until } } = require('node:worker_threads');
    const health = ${health.toString()};
    (async () => {
      const times = [];
      while (Date.now() < until) {
        const next = Date.now() + 100;
        times.push(await health(port));
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
      parentPort.postMessage(times);
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { port, until } });
  return new Promise((done, fail) => {
    worker.once('message', (times: number[]) => {
      done(times);
      void worker.terminate();
    });
    worker.once('error', fail);
  });
}

/** 1,000 connections from 127.0.0.2, opened at once and held until `until`. */
async function hold(port: number, until: number): Promise<string> {
  const sockets: Socket[] = [];
  let refused = 0;
  for (let i = 0; i < 1000; i++) {
    const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    s.on('error', () => {});
    s.on('data', () => {
      refused++;
    });
    sockets.push(s);
  }
  await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
  for (const s of sockets) s.destroy();
  return `1000 connections held (${refused} answered at once, over the address's limit)`;
}

/** WebSockets from 127.0.0.2 to a table, 64 at a time, each closed after its hello is refused, until `until`. */
async function storm(port: number, code: string, until: number): Promise<string> {
  let made = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (Date.now() < until) {
        await new Promise<void>((done) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/api/tables/${code}/ws`, { localAddress: '127.0.0.2' });
          ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: 'not the token' })));
          ws.on('message', () => ws.terminate());
          ws.on('error', () => {});
          ws.on('close', () => done());
        });
        made++;
      }
    }),
  );
  return `${made} WebSockets opened and closed (${(made / SECONDS).toFixed(0)} a second)`;
}

/** A table to knock at: made by a guest at 127.0.0.4. */
async function table(port: number): Promise<string> {
  const post = (path: string, body: unknown, cookie = ''): Promise<{ body: any; cookie: string }> =>
    new Promise((done, fail) => {
      const data = JSON.stringify(body);
      const req = request(
        { host: '127.0.0.1', port, path, method: 'POST', localAddress: '127.0.0.4', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), cookie } },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => done({ body: JSON.parse(text), cookie: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ') || cookie }));
        },
      );
      req.on('error', fail);
      req.end(data);
    });
  const made = await post('/api/tables', { game: 'mah-jongg', name: 'Storm' });
  if (typeof made.body.code !== 'string') throw new Error(`no table was made: ${JSON.stringify(made.body)}`);
  return made.body.code;
}

const port = await freePort();
const data = mkdtempSync(join(tmpdir(), 'tilemate-storm-'));
// the server's own limit of requests a minute, as a user runs it
const server = await startServer(port, data, ['--rate-limit', '600'], ROOT);
try {
  console.log(`storm: the server of ${ROOT} on port ${port}, ${SECONDS} s a phase`);
  for (let i = 0; i < 20; i++) await health(port); // warm up
  const code = await table(port);
  let until = Date.now() + SECONDS * 1000;
  console.log(`  alone: GET /api/health from 127.0.0.3: ${figures(await probe(port, until))}`);
  until = Date.now() + SECONDS * 1000;
  const [held, h1] = await Promise.all([hold(port, until), probe(port, until)]);
  console.log(`  held, ${held}: GET /api/health from 127.0.0.3: ${figures(h1)}`);
  until = Date.now() + SECONDS * 1000;
  const [stormed, h2] = await Promise.all([storm(port, code, until), probe(port, until)]);
  console.log(`  storm, ${stormed}: GET /api/health from 127.0.0.3: ${figures(h2)}`);
} finally {
  server.kill();
  rmSync(data, { recursive: true, force: true });
}
