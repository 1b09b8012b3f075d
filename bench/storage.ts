/**
 * `npm run bench:storage [-- --baseline DIR]`: how long a player waits for one action, by
 * where her game is kept. `tilemate serve` runs in a child process for each store in turn,
 * alternating over several rounds (these machines are noisy): the embedded database (PGlite in
 * the data folder), the PostgreSQL server of DATABASE_URL (or TILEMATE_BENCH_DATABASE_URL;
 * skipped when neither is set), and with `--baseline DIR` (repeatable) the server of another
 * checkout (built), such as the last one that kept a file journal. Each round plays Mah Jongg games
 * against random bots (the bots' time is small beside the commit), one action at a time,
 * and times each POST; beside it, the plain baseline of the same run: GET /api/health.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort, startServer } from './common.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 400);
/** `--baseline DIR` (more than one allowed): other checkouts' servers, timed alike. */
const baselines = process.argv.flatMap((a, i) => (a === '--baseline' && process.argv[i + 1] ? [resolve(process.argv[i + 1])] : []));
const serverUrl = process.env.TILEMATE_BENCH_DATABASE_URL ?? process.env.DATABASE_URL;

interface Store {
  name: string;
  cwd: string;
  more: () => Promise<string[]>;
  done?: () => Promise<void>;
}

/** A database of its own on the server for the bench, dropped after. */
async function benchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tm_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const stores: Store[] = [{ name: 'embedded database (PGlite)', cwd: process.cwd(), more: async () => [] }];
if (serverUrl) {
  let db: Awaited<ReturnType<typeof benchDatabase>> | undefined;
  stores.push({
    name: 'PostgreSQL server',
    cwd: process.cwd(),
    more: async () => {
      db ??= await benchDatabase(serverUrl);
      return ['--database', db.url];
    },
    done: async () => {
      await db?.drop();
    },
  });
}
for (const dir of baselines) stores.push({ name: `baseline: ${dir}`, cwd: dir, more: async () => [] });

interface Answer {
  id: string;
  token: string;
  at: number;
  view: { phase: string; rack: string[] };
  legal: { type: string }[];
}

function firstChoice(a: Answer): object {
  const l = a.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: a.view.rack.filter((t) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.json() };
}

/** Times `ACTIONS` actions (new games as they end), and as many health checks between them. */
async function round(base: string): Promise<{ actions: number[]; health: number[] }> {
  const actions: number[] = [],
    health: number[] = [];
  let g: Answer | null = null;
  let token = '';
  while (actions.length < ACTIONS) {
    if (g === null || g.view.phase === 'ended') {
      const created = await json(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ level: 'random' }) });
      if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
      g = created.body as Answer;
      token = g.token;
      continue;
    }
    let t = performance.now();
    const r = await json(`${base}/api/games/${g.id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...firstChoice(g), after: g.at }),
    });
    actions.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`action: ${JSON.stringify(r.body)}`);
    g = r.body as Answer;
    t = performance.now();
    await fetch(`${base}/api/health`).then((x) => x.arrayBuffer());
    health.push(performance.now() - t);
  }
  return { actions, health };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const results = new Map<string, { actions: number[]; health: number[] }>(stores.map((s) => [s.name, { actions: [], health: [] }]));
for (let r = 0; r < ROUNDS; r++) {
  for (const store of stores) {
    const data = mkdtempSync(join(tmpdir(), 'tilemate-bench-storage-'));
    const port = await freePort();
    const child = await startServer(port, data, ['--threads', '1', '--games-per-address', '1000', ...(await store.more())], store.cwd);
    try {
      const got = await round(`http://127.0.0.1:${port}`);
      results.get(store.name)!.actions.push(...got.actions);
      results.get(store.name)!.health.push(...got.health);
    } finally {
      child.kill('SIGTERM');
      await new Promise((res) => child.once('exit', res));
      rmSync(data, { recursive: true, force: true });
    }
  }
}
for (const s of stores) await s.done?.();

console.log(`\none action of a game against random bots (POST, committed before the answer), ${ROUNDS} rounds x ${ACTIONS} actions, alternating`);
console.log(`${'store'.padEnd(60)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}   health p50 ms   p50 vs health`);
for (const [name, r] of results) {
  const p50 = pct(r.actions, 50),
    p99 = pct(r.actions, 99),
    h = pct(r.health, 50);
  console.log(`${name.slice(0, 60).padEnd(60)} ${p50.toFixed(2).padStart(8)} ${p99.toFixed(2).padStart(8)}   ${h.toFixed(2).padStart(13)}   x${(p50 / h).toFixed(2)}`);
}
