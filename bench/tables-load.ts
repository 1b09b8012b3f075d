import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';

/**
 * Tables together under load, on loopback: T tables of four simulated people (Mah Jongg),
 * each person on her own WebSocket acting the moment her message offers her something, for a
 * fixed time; first on one server process, then on two sharing one PostgreSQL database (each
 * table's people split between them). Prints actions per second and the time from an action
 * being sent to every other seat's update (p50, p99). Each run gets a fresh database on the
 * server named by DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped after.
 *
 *   npm run bench:tables -- [--tables 200] [--seconds 30]
 */

const arg = (name: string, d: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const TABLES = arg('tables', 200);
const SECONDS = arg('seconds', 30);
const ADMIN = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

function serve(dir: string, url: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [...(process.env.TILEMATE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), 'bin/tilemate.js', 'serve', '--port', '0', '--data', dir, '--database', url, '--rate-limit', '0', '--max-games', String(TABLES * 2), '--games-per-address', String(TABLES * 2), '--threads', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /ready: (http:\/\/\S+?)\/?\n/.exec(out); if (m) resolve({ child, base: m[1].replace('localhost', '127.0.0.1') }); });
    child.stderr!.on('data', (d: Buffer) => { out += d; });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/** A person's source address: a table's people come from one loopback address of its own (a server holds at most 256 connections an address). */
const source = (table: number) => `127.0.${1 + Math.floor(table / 250)}.${2 + (table % 250)}`;

async function post(base: string, path: string, body: unknown, _local: string, token?: string): Promise<any> {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const b = await r.json();
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(b)}`);
  return b;
}

function choose(m: any): any {
  const l = m.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: m.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

interface Stats { actions: number; latencies: number[]; errors: number; games: number; codes: Record<string, number>; messages: number; bytes: number }

async function run(servers: number): Promise<Stats & { seconds: number }> {
  const name = `tm_bench_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'tilemate-bench-'));
  const procs = [];
  for (let i = 0; i < servers; i++) procs.push(await serve(dir, url.toString()));
  const stats: Stats = { actions: 0, latencies: [], errors: 0, games: 0, codes: {}, messages: 0, bytes: 0 };
  const sockets: WebSocket[] = [];
  let measuring = false;
  try {
    // the tables, opened and filled before the clock starts
    const tables: { code: string; people: { token: string; base: string }[] }[] = [];
    for (let t = 0; t < TABLES; t++) {
      const a = procs[0].base;
      const opened = await post(a, '/api/tables', { game: 'mah-jongg', name: 'Host' }, source(t));
      const people = [{ token: opened.token as string, base: a }];
      for (let s = 1; s < 4; s++) {
        const base = procs[s >= 2 ? procs.length - 1 : 0].base;
        people.push({ token: (await post(base, `/api/tables/${opened.code}/join`, { name: `P${s}` }, source(t))).token, base });
      }
      tables.push({ code: opened.code, people });
    }
    for (const [t, table] of tables.entries()) {
      // when each action was sent (by its `after`), and which seats have heard of it
      const sent = new Map<number, { at: number; waiting: Set<number> }>();
      for (const [seat, p] of table.people.entries()) {
        const ws = new WebSocket(`${p.base.replace('http', 'ws')}/api/tables/${table.code}/ws`, { localAddress: source(t) });
        sockets.push(ws);
        // like a page: one action in flight at a time, until its own move is told back (or refused)
        let sentAt = -1;
        let pending = false;
        ws.on('error', () => { stats.errors++; });
        ws.on('message', (d) => {
          const text = d.toString();
          if (measuring) { stats.messages++; stats.bytes += text.length; }
          const m = JSON.parse(text);
          if (m.type === 'error') { stats.errors++; stats.codes[m.code] = (stats.codes[m.code] ?? 0) + 1; sentAt = -1; pending = false; return; }
          if (m.type !== 'game') return;
          if (pending && m.events.some((e: any) => e.action.seat === seat && e.n > sentAt)) pending = false;
          const now = performance.now();
          for (const [after, s] of sent) {
            if (m.at > after && s.waiting.delete(seat)) {
              if (measuring) stats.latencies.push(now - s.at);
              if (s.waiting.size === 0) sent.delete(after);
            }
          }
          if (m.recordId !== null) { if (seat === 0 && measuring) stats.games++; return; }
          if (m.legal.length > 0 && m.at !== sentAt && !pending) {
            sentAt = m.at;
            pending = true;
            if (!sent.has(m.at)) sent.set(m.at, { at: now, waiting: new Set([0, 1, 2, 3].filter((s) => s !== seat)) });
            ws.send(JSON.stringify({ type: 'act', action: choose(m), after: m.at }));
          }
        });
        await new Promise<void>((resolve, reject) => { ws.once('open', () => { ws.send(JSON.stringify({ type: 'hello', token: p.token })); resolve(); }); ws.once('error', reject); });
      }
    }
    const before = await countActions(url.toString());
    measuring = true;
    const t0 = performance.now();
    // every table starts at once: the clock runs from the first start
    await Promise.all(tables.map((table, t) => post(table.people[0].base, `/api/tables/${table.code}/start`, {}, source(t), table.people[0].token)));
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const seconds = (performance.now() - t0) / 1000;
    stats.actions = (await countActions(url.toString())) - before;
    return { ...stats, seconds };
  } finally {
    for (const ws of sockets) ws.terminate();
    // a clean stop (a profile, when asked for, is written), then sure
    await Promise.all(procs.map((p) => new Promise((r) => { p.child.once('exit', r); p.child.kill('SIGTERM'); setTimeout(() => { p.child.kill('SIGKILL'); r(null); }, 5_000); })));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

async function countActions(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return Number((await c.query('SELECT count(*)::integer AS n FROM table_actions')).rows[0].n); } finally { await c.end(); }
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

console.log(`tables together under load: ${TABLES} Mah Jongg tables of four simulated people over WebSockets, ${SECONDS} s each run, on loopback`);
const results: { servers: number; perSecond: number }[] = [];
for (const servers of (process.env.TILEMATE_BENCH_SERVERS ?? '1,2').split(',').map(Number)) {
  const r = await run(servers);
  const perSecond = r.actions / r.seconds;
  results.push({ servers, perSecond });
  console.log(`${servers} server${servers === 1 ? '' : 's'}: ${r.actions} actions committed in ${r.seconds.toFixed(1)} s = ${perSecond.toFixed(0)} actions/s; ${r.games} games finished; `
    + `action to every other seat's update: p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms (${r.latencies.length} updates); ${r.messages} messages of ${(r.bytes / Math.max(1, r.messages) / 1024).toFixed(1)} KB on average; ${r.errors} errors${r.errors > 0 ? ` (${Object.entries(r.codes).map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}`);
}
if (results.length === 2) console.log(`two servers / one: x${(results[1].perSecond / results[0].perSecond).toFixed(2)} actions/s (this machine has 2 cores, shared by the servers, PostgreSQL and the simulated people)`);
