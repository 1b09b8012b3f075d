import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { nextU32, seedRng } from '../engine/rng.js';

/**
 * Tables together under load, on loopback: Mah Jongg tables of four simulated people, each
 * person on her own WebSocket. Two modes (BENCH_MODE=paced|saturate|both, default both):
 *
 * - **paced** (open loop, a club evening): on ONE server process, for each table count in
 *   BENCH_TABLES (default 200,1000), every person acts 1 to 3 s (uniform, seeded by
 *   BENCH_SEED, default 1) after her turn comes (after the update that offers her something
 *   arrives on her socket), one action in flight at a time, as a page does. The tables start
 *   over the first BENCH_RAMP seconds (default 10, seeded), then BENCH_SECONDS (default 60)
 *   are measured. Prints the time from an action being sent to the update that holds it
 *   arriving at every OTHER seat's socket at the table (one figure per seat: p50, p95, p99,
 *   max and how many), against the target p99 under 100 ms, and apart for the Charleston's
 *   actions (the four seats at once, just after the start) and the play's; the server process's CPU
 *   (/proc/<pid>/stat, user + system, in cores; and how long its main thread waited for a CPU,
 *   /proc/<pid>/schedstat, on a busy machine) and memory (/proc/<pid>/status VmRSS, VmHWM);
 *   every `postgres` process's CPU on the machine; and this load process's own CPU and event
 *   loop delay, with a warning when it, not the server, may be the bottleneck. An update is
 *   matched to the action by the action's number `n` (its event, seen at any seat of the
 *   table, once its claim window is told) and each seat's first `game` message with `at` >= n.
 * - **saturate** (closed loop, the throughput): `--tables` (default 200) tables whose people
 *   act the moment their message offers them something, for `--seconds` (default 30), first on
 *   one server process, then on two sharing one PostgreSQL database (each table's people split
 *   between them; TILEMATE_BENCH_SERVERS chooses, default 1,2). Prints actions per second and
 *   per core of server CPU (and of server and PostgreSQL together), and the time from an action being sent to every other seat's
 *   update (p50, p99; every person acting at once, so this is a queue, not a club evening).
 *
 * Each table's four people connect from a loopback address of the table's own (127.0.x.y, the
 * `localAddress` of their sockets), so no address holds more than 4 of the 4,000 sockets of
 * 1,000 tables (a server holds at most 256 connections an address, api/shared/limits.ts); the
 * table's HTTP requests (open, join, start: a connection each) come from the same address; the
 * server is started with `--rate-limit 0`, and `--games-per-address` and `--max-games` twice the tables. Each run gets a fresh
 * database on the server named by DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped after. TILEMATE_BENCH_NODE_ARGS are given to the server's node (e.g. --cpu-prof).
 *
 *   npm run bench:tables
 *   BENCH_MODE=paced BENCH_TABLES=1000 BENCH_SECONDS=90 npm run bench:tables
 *   BENCH_MODE=saturate npm run bench:tables -- [--tables 200] [--seconds 30]
 */

const arg = (name: string, d: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const MODE = process.env.BENCH_MODE ?? 'both';
if (!['paced', 'saturate', 'both'].includes(MODE)) throw new Error(`BENCH_MODE is paced, saturate or both, not ${MODE}`);
const SAT_TABLES = arg('tables', 200);
const SAT_SECONDS = arg('seconds', 30);
const PACED_TABLES = (process.env.BENCH_TABLES ?? '200,1000').split(',').map(Number);
const PACED_SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const RAMP = Number(process.env.BENCH_RAMP ?? 10);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function serve(dir: string, url: string, tables: number): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.TILEMATE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      'bin/tilemate.js',
      'serve',
      '--port',
      '0',
      '--data',
      dir,
      '--database',
      url,
      '--rate-limit',
      '0',
      '--max-games',
      String(tables * 2),
      '--games-per-address',
      String(tables * 2),
      '--threads',
      '1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /ready: (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) resolve({ child, base: m[1].replace('localhost', '127.0.0.1') });
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/** A person's source address: a table's people come from one loopback address of its own (a server holds at most 256 connections an address). */
const source = (table: number) => `127.0.${1 + Math.floor(table / 250)}.${2 + (table % 250)}`;

/** One JSON POST from a table's own address (a fresh connection, closed after), so no address holds many. */
function post(base: string, path: string, body: unknown, localAddress: string, token?: string): Promise<any> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          try {
            const b = JSON.parse(text);
            if (res.statusCode! >= 300) reject(new Error(`${path}: ${res.statusCode} ${text}`));
            else resolve(b);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

function choose(m: any): any {
  const l = m.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

// ------------------------------------------------------------------ what the runs share

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK; // fields 14 and 15: utime, stime
  } catch {
    return 0;
  }
}

/** Every `postgres` process's CPU seconds on this machine (other work's included). */
function postgresSeconds(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      out.set(Number(d), cpuSeconds(Number(d)));
    } catch {
      /* gone */
    }
  }
  return out;
}
const postgresUsed = (a: Map<number, number>, b: Map<number, number>) => [...b].reduce((sum, [pid, s]) => sum + s - (a.get(pid) ?? 0), 0);

/** A process's resident memory now and at its peak (MB), from /proc/<pid>/status. */
function memory(pid: number): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** A process's main thread (its event loop): ns on a CPU and ns waiting for one, from /proc/<pid>/schedstat. */
function sched(pid: number): { ran: number; waited: number } {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { ran, waited };
  } catch {
    return { ran: 0, waited: 0 };
  }
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Setup {
  procs: { child: ChildProcess; base: string }[];
  url: string;
  tables: { code: string; people: { token: string; base: string }[] }[];
  done: () => Promise<void>;
  sockets: WebSocket[];
}

/** A fresh database, `servers` server processes, and `count` tables of four people, opened and filled (nobody connected yet). */
async function setUp(servers: number, count: number): Promise<Setup> {
  const name = `tm_bench_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'tilemate-bench-'));
  const procs: Setup['procs'] = [];
  const sockets: WebSocket[] = [];
  const done = async () => {
    for (const ws of sockets) ws.terminate();
    // a clean stop (a profile, when asked for, is written), then sure
    await Promise.all(
      procs.map(
        (p) =>
          new Promise((r) => {
            p.child.once('exit', r);
            p.child.kill('SIGTERM');
            setTimeout(() => {
              p.child.kill('SIGKILL');
              r(null);
            }, 5_000);
          }),
      ),
    );
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < servers; i++) procs.push(await serve(dir, url.toString(), count));
    const tables: Setup['tables'] = [];
    // eight tables opened at a time
    const open = async (t: number) => {
      const a = procs[0].base;
      const opened = await post(a, '/api/tables', { game: 'mah-jongg', name: 'Host' }, source(t));
      const people = [{ token: opened.token as string, base: a }];
      for (let s = 1; s < 4; s++) {
        const base = procs[s >= 2 ? procs.length - 1 : 0].base;
        people.push({ token: (await post(base, `/api/tables/${opened.code}/join`, { name: `P${s}` }, source(t))).token, base });
      }
      tables[t] = { code: opened.code, people };
    };
    for (let t = 0; t < count; t += 8) await Promise.all(Array.from({ length: Math.min(8, count - t) }, (_, i) => open(t + i)));
    return { procs, url: url.toString(), tables, done, sockets };
  } catch (err) {
    await done();
    throw err;
  }
}

/** Connects a person's socket from her table's address and says hello; `onMessage` gets every message parsed. */
async function connect(s: Setup, t: number, seat: number, onMessage: (m: any, text: string) => void, onError: () => void): Promise<WebSocket> {
  const table = s.tables[t];
  const p = table.people[seat];
  const ws = new WebSocket(`${p.base.replace('http', 'ws')}/api/tables/${table.code}/ws`, { localAddress: source(t) });
  s.sockets.push(ws);
  ws.on('error', onError);
  ws.on('message', (d) => {
    const text = d.toString();
    onMessage(JSON.parse(text), text);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'hello', token: p.token }));
      resolve();
    });
    ws.once('error', reject);
  });
  return ws;
}

async function countActions(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*)::integer AS n FROM table_actions')).rows[0].n);
  } finally {
    await c.end();
  }
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ saturate: every person at once

interface Stats {
  actions: number;
  latencies: number[];
  errors: number;
  games: number;
  codes: Record<string, number>;
  messages: number;
  bytes: number;
}

async function saturate(servers: number): Promise<Stats & { seconds: number; cpu: number; postgresCpu: number }> {
  const setup = await setUp(servers, SAT_TABLES);
  const stats: Stats = { actions: 0, latencies: [], errors: 0, games: 0, codes: {}, messages: 0, bytes: 0 };
  let measuring = false;
  try {
    for (let t = 0; t < setup.tables.length; t++) {
      // when each action was sent (by its `after`), and which seats have heard of it
      const sent = new Map<number, { at: number; waiting: Set<number> }>();
      for (let seat = 0; seat < 4; seat++) {
        // like a page: one action in flight at a time, until its own move is told back (or refused)
        let sentAt = -1;
        let pending = false;
        const ws: WebSocket = await connect(
          setup,
          t,
          seat,
          (m, text) => {
            if (measuring) {
              stats.messages++;
              stats.bytes += text.length;
            }
            if (m.type === 'error') {
              stats.errors++;
              stats.codes[m.code] = (stats.codes[m.code] ?? 0) + 1;
              sentAt = -1;
              pending = false;
              return;
            }
            if (m.type !== 'game') return;
            if (pending && m.events.some((e: any) => e.action.seat === seat && e.n > sentAt)) pending = false;
            const now = performance.now();
            for (const [after, s] of sent) {
              if (m.at > after && s.waiting.delete(seat)) {
                if (measuring) stats.latencies.push(now - s.at);
                if (s.waiting.size === 0) sent.delete(after);
              }
            }
            if (m.recordId !== null) {
              if (seat === 0 && measuring) stats.games++;
              return;
            }
            if (m.legal.length > 0 && m.at !== sentAt && !pending) {
              sentAt = m.at;
              pending = true;
              if (!sent.has(m.at)) sent.set(m.at, { at: now, waiting: new Set([0, 1, 2, 3].filter((s) => s !== seat)) });
              ws.send(JSON.stringify({ type: 'act', action: choose(m), after: m.at }));
            }
          },
          () => {
            stats.errors++;
          },
        );
      }
    }
    const before = await countActions(setup.url);
    const cpu0 = setup.procs.reduce((sum, p) => sum + cpuSeconds(p.child.pid!), 0);
    const pg0 = postgresSeconds();
    measuring = true;
    const t0 = performance.now();
    // every table starts at once: the clock runs from the first start
    await Promise.all(setup.tables.map((table, t) => post(table.people[0].base, `/api/tables/${table.code}/start`, {}, source(t), table.people[0].token)));
    await sleep(SAT_SECONDS * 1000);
    measuring = false;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = (setup.procs.reduce((sum, p) => sum + cpuSeconds(p.child.pid!), 0) - cpu0) / seconds;
    const postgresCpu = postgresUsed(pg0, postgresSeconds()) / seconds;
    stats.actions = (await countActions(setup.url)) - before;
    return { ...stats, seconds, cpu, postgresCpu };
  } finally {
    await setup.done();
  }
}

// ------------------------------------------------------------------ paced: a club evening

/** An action sent: by whom, from which moment, when; its number once an event shows it; the seats not yet told. */
interface Sent {
  seat: number;
  after: number;
  t: number;
  n: number | null;
  waiting: Set<number>;
  counted: boolean;
  charleston: boolean;
}

interface Paced {
  tables: number;
  seconds: number;
  sent: number;
  committed: number;
  latencies: number[];
  charleston: number[];
  play: number[];
  errors: number;
  codes: Record<string, number>;
  games: number;
  messages: number;
  bytes: number;
  serverCpu: number;
  serverWaited: number;
  postgresCpu: number;
  loadCpu: number;
  loopP99: number;
  loopMax: number;
  rss: number;
  peak: number;
  unmatched: number;
}

async function paced(count: number): Promise<Paced> {
  const setup = await setUp(1, count);
  const server = setup.procs[0];
  const r: Paced = {
    tables: count,
    seconds: 0,
    sent: 0,
    committed: 0,
    latencies: [],
    charleston: [],
    play: [],
    errors: 0,
    codes: {},
    games: 0,
    messages: 0,
    bytes: 0,
    serverCpu: 0,
    serverWaited: 0,
    postgresCpu: 0,
    loadCpu: 0,
    loopP99: 0,
    loopMax: 0,
    rss: 0,
    peak: 0,
    unmatched: 0,
  };
  let measuring = false;
  const timers = new Set<NodeJS.Timeout>();
  const allSent: Sent[][] = [];
  try {
    for (let t = 0; t < count; t++) {
      const open: Sent[] = [];
      allSent.push(open);
      // each seat's `game` messages as they came: (at, when), for the actions not yet matched
      const arrivals: { at: number; t: number }[][] = [[], [], [], []];
      const heard = (x: Sent, seat: number, when: number) => {
        x.waiting.delete(seat);
        if (x.counted) {
          r.latencies.push(when - x.t);
          (x.charleston ? r.charleston : r.play).push(when - x.t);
        }
      };
      for (let seat = 0; seat < 4; seat++) {
        const rng = seedRng(SEED * 1_000_003 + t * 4 + seat);
        let latest: any = null;
        let timer: NodeJS.Timeout | null = null;
        let sentAt = -1;
        let pending = false;
        const fire = () => {
          if (timer !== null) timers.delete(timer);
          timer = null;
          const m = latest;
          if (pending || m === null || m.legal.length === 0 || m.recordId !== null) return;
          sentAt = m.at;
          pending = true;
          const action = choose(m);
          open.push({
            seat,
            after: m.at,
            t: performance.now(),
            n: null,
            waiting: new Set([0, 1, 2, 3].filter((s) => s !== seat)),
            counted: measuring,
            charleston: ['pass', 'vote', 'courtesy'].includes(action.type),
          });
          if (measuring) r.sent++;
          ws.send(JSON.stringify({ type: 'act', action, after: m.at }));
        };
        const schedule = () => {
          if (timer !== null || pending || latest === null || latest.legal.length === 0 || latest.recordId !== null) return;
          timer = setTimeout(fire, 1000 + 2000 * (nextU32(rng) / 2 ** 32));
          timers.add(timer);
        };
        const ws: WebSocket = await connect(
          setup,
          t,
          seat,
          (m, text) => {
            const now = performance.now();
            if (measuring) {
              r.messages++;
              r.bytes += text.length;
            }
            if (m.type === 'error') {
              if (measuring) {
                r.errors++;
                r.codes[m.code] = (r.codes[m.code] ?? 0) + 1;
              }
              // a refused action updates no one
              for (let i = open.length - 1; i >= 0; i--) if (open[i].seat === seat && open[i].n === null) open.splice(i, 1);
              sentAt = -1;
              pending = false;
              schedule();
              return;
            }
            if (m.type !== 'game') return;
            arrivals[seat].push({ at: m.at, t: now });
            // an action's number, from its event (here or at any seat): then each other seat's first message holding it
            for (const e of m.events) {
              for (const x of open) {
                if (x.n === null && x.seat === e.action.seat && e.n > x.after) {
                  x.n = e.n;
                  for (const s of [...x.waiting]) {
                    const first = arrivals[s].find((a) => a.at >= e.n);
                    if (first !== undefined) heard(x, s, first.t);
                  }
                }
              }
            }
            for (const x of open) if (x.n !== null && x.waiting.has(seat) && m.at >= x.n) heard(x, seat, now);
            for (let i = open.length - 1; i >= 0; i--) if (open[i].waiting.size === 0) open.splice(i, 1);
            if (open.length === 0) for (const a of arrivals) a.splice(0, a.length - 1);
            // her own move told back: she may act again
            if (pending && m.events.some((e: any) => e.action.seat === seat && e.n > sentAt)) pending = false;
            latest = m;
            if (m.recordId !== null) {
              if (seat === 0 && measuring) r.games++;
            }
            if (m.legal.length === 0 || m.recordId !== null) {
              // her turn went (a call, the end) before she acted
              if (timer !== null) {
                clearTimeout(timer);
                timers.delete(timer);
                timer = null;
              }
              return;
            }
            schedule();
          },
          () => {
            if (measuring) r.errors++;
          },
        );
      }
    }
    // the tables start over the ramp, in a seeded order
    const rng = seedRng(SEED);
    const starts = setup.tables.map((table, t) => ({ table, t, at: RAMP * 1000 * (nextU32(rng) / 2 ** 32) }));
    const startedAll = Promise.all(
      starts.map(async ({ table, t, at }) => {
        await sleep(at);
        await post(table.people[0].base, `/api/tables/${table.code}/start`, {}, source(t), table.people[0].token);
      }),
    );
    await sleep(RAMP * 1000);
    await startedAll;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const before = await countActions(setup.url);
    const cpu0 = cpuSeconds(server.child.pid!);
    const sched0 = sched(server.child.pid!);
    const pg0 = postgresSeconds();
    const load0 = process.cpuUsage();
    measuring = true;
    const t0 = performance.now();
    await sleep(PACED_SECONDS * 1000);
    measuring = false;
    r.seconds = (performance.now() - t0) / 1000;
    const load = process.cpuUsage(load0);
    r.serverCpu = (cpuSeconds(server.child.pid!) - cpu0) / r.seconds;
    r.serverWaited = (sched(server.child.pid!).waited - sched0.waited) / 1e9 / r.seconds;
    r.postgresCpu = postgresUsed(pg0, postgresSeconds()) / r.seconds;
    r.loadCpu = (load.user + load.system) / 1e6 / r.seconds;
    loop.disable();
    r.loopP99 = loop.percentile(99) / 1e6;
    r.loopMax = loop.max / 1e6;
    Object.assign(r, memory(server.child.pid!));
    r.committed = (await countActions(setup.url)) - before;
    // the actions sent in the window whose updates have not all come within a few seconds more
    await sleep(3000);
    r.unmatched = allSent.reduce((sum, open) => sum + open.filter((x) => x.counted).length, 0);
    return r;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await setup.done();
  }
}

// ------------------------------------------------------------------ the runs

const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`tables together under load: Mah Jongg tables of four simulated people over WebSockets, on loopback (${MODE}); load average ${loadAverage()}`);
if (MODE === 'paced' || MODE === 'both') {
  for (const count of PACED_TABLES) {
    const r = await paced(count);
    const p99 = pct(r.latencies, 99);
    console.log(
      `paced, ${count} tables (${count * 4} people, each acting 1-3 s after her turn comes), 1 server, ${r.seconds.toFixed(1)} s after a ${RAMP} s start: ` +
        `${r.sent} actions sent, ${r.committed} committed (the forced moves the server makes itself included) = ${(r.committed / r.seconds).toFixed(0)} actions/s; ${r.games} games finished; ` +
        `action to every other seat's update: p50 ${ms(pct(r.latencies, 50))}, p95 ${ms(pct(r.latencies, 95))}, p99 ${ms(p99)}, max ${ms(r.latencies.length > 0 ? r.latencies.reduce((m, x) => Math.max(m, x)) : Number.NaN)} ` +
        `(${r.latencies.length} updates${r.unmatched > 0 ? `; ${r.unmatched} actions with a seat not told 3 s after the window` : ''}; target p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'}); ` +
        `of which the Charleston's (pass, vote, courtesy: the four seats at once) p50 ${ms(pct(r.charleston, 50))}, p99 ${ms(pct(r.charleston, 99))} (${r.charleston.length}), ` +
        `the play's (discards, calls and their answers) p50 ${ms(pct(r.play, 50))}, p99 ${ms(pct(r.play, 99))} (${r.play.length}); ` +
        `${r.messages} messages of ${(r.bytes / Math.max(1, r.messages) / 1024).toFixed(1)} KB on average; ${r.errors} errors${
          r.errors > 0
            ? ` (${Object.entries(r.codes)
                .map(([c, n]) => `${c} ${n}`)
                .join(', ')})`
            : ''
        }`,
    );
    console.log(
      `  server process: CPU ${(r.serverCpu * 100).toFixed(0)}% of a core (user + system; its main thread ready but waiting for a CPU ${(r.serverWaited * 100).toFixed(0)}% of the time), memory ${r.rss.toFixed(0)} MB resident (peak ${r.peak.toFixed(0)} MB); ` +
        `every postgres process on the machine: ${(r.postgresCpu * 100).toFixed(0)}% of a core; ` +
        `this load process: ${(r.loadCpu * 100).toFixed(0)}% of a core, event loop delay p99 ${ms(r.loopP99)}, max ${ms(r.loopMax)}; load average ${loadAverage()}`,
    );
    if (r.loadCpu > 0.7) console.log(`  WARNING: the load generator may be the bottleneck here (it used ${(r.loadCpu * 100).toFixed(0)}% of a core): the latencies include its own delay`);
    else if (r.loopP99 > 20)
      console.log(`  note: this process's event loop was late (p99 ${ms(r.loopP99)}) with little CPU of its own: the machine was busy (load average above), which delays the timings too`);
  }
}
if (MODE === 'saturate' || MODE === 'both') {
  const results: { servers: number; perSecond: number }[] = [];
  for (const servers of (process.env.TILEMATE_BENCH_SERVERS ?? '1,2').split(',').map(Number)) {
    const r = await saturate(servers);
    const perSecond = r.actions / r.seconds;
    results.push({ servers, perSecond });
    console.log(
      `saturate, ${SAT_TABLES} tables (every person acting the moment she may), ${servers} server${servers === 1 ? '' : 's'}: ${r.actions} actions committed in ${r.seconds.toFixed(1)} s = ${perSecond.toFixed(0)} actions/s; ` +
        `server CPU ${r.cpu.toFixed(2)} cores = ${(perSecond / r.cpu).toFixed(0)} actions/s per core of server (every postgres process on the machine: ${r.postgresCpu.toFixed(2)} cores; ${(perSecond / (r.cpu + r.postgresCpu)).toFixed(0)} actions/s per core of both); ${r.games} games finished; ` +
        `action to every other seat's update: p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms (${r.latencies.length} updates); ${r.messages} messages of ${(r.bytes / Math.max(1, r.messages) / 1024).toFixed(1)} KB on average; ${r.errors} errors${
          r.errors > 0
            ? ` (${Object.entries(r.codes)
                .map(([c, n]) => `${c} ${n}`)
                .join(', ')})`
            : ''
        }`,
    );
  }
  if (results.length === 2)
    console.log(`two servers / one: x${(results[1].perSecond / results[0].perSecond).toFixed(2)} actions/s (this machine has 2 cores, shared by the servers, PostgreSQL and the simulated people)`);
}
console.log(`load average at the end: ${loadAverage()}`);
