import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll } from 'vitest';
import { build } from '../../api/http/app.js';
import type { Limits } from '../../api/shared/limits.js';
import { dropDatabases, freshDatabase } from '../databases.js';

/** Servers built on fresh data folders (removed after the file's tests), and small request helpers. */

const dirs: string[] = [];
const apps: FastifyInstance[] = [];
/** Each data folder's database on the test server (TILEMATE_TEST_DATABASE_URL), made when a server first opens it. */
const databases = new Map<string, Promise<string | undefined>>();
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close())); // each holds a worker pool and its database
  await dropDatabases();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

export function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tilemate-server-'));
  dirs.push(d);
  return d;
}

/** The data folder's database: undefined for the embedded one in the folder, else its own on the test server. */
export function databaseOf(dir: string): Promise<string | undefined> {
  let url = databases.get(dir);
  if (url === undefined) databases.set(dir, (url = freshDatabase()));
  return url;
}

export async function server(limits: Partial<Limits> = {}, dir = dataDir()): Promise<FastifyInstance> {
  const app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 0, threads: 1, ...limits }, webDir: null });
  apps.push(app);
  return app;
}

export interface Answer {
  id: string;
  token?: string;
  seat: number;
  seats: string[];
  view: any;
  legal: any[];
  events: { n: number; action: any; drew?: string }[];
  at: number;
  recordId: string | null;
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** One browser's cookies: `call` keeps one per server unless given another (a second person). */
export type Jar = Map<string, string>;
const jars = new WeakMap<FastifyInstance, Jar>();
export const newJar = (): Jar => new Map();

/** A request as a browser sends it: with the jar's cookies, keeping the ones the answer sets. */
export async function call(app: FastifyInstance, opts: InjectOptions, jar?: Jar) {
  let cookies = jar ?? jars.get(app);
  if (cookies === undefined) jars.set(app, (cookies = newJar()));
  const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await app.inject({ ...opts, headers: { ...(cookie ? { cookie } : {}), ...opts.headers } });
  for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    if (c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now())) cookies.delete(c.name);
    else cookies.set(c.name, c.value);
  }
  let body: any = null;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers };
}

/** Makes an account for the jar's browser (its session signed in). */
export const signUp = (app: FastifyInstance, jar: Jar, name: string, password = 'a long password') => call(app, { method: 'POST', url: '/api/account', payload: { name, password } }, jar);

/** A simple player: the first legal entry; passes and courtesy offers from the front of the rack. */
export function firstChoice(a: Answer): any {
  const l = a.legal[0];
  if (l.type === 'pass') return { type: 'pass', tiles: a.view.rack.filter((t: string) => t !== 'J').slice(0, 3), blind: 0 };
  if (l.type === 'courtesy') return { type: 'courtesy', tiles: [] };
  return l;
}

/** Plays a game to its end through the API with `choose`; returns every answer in order. */
export async function playThrough(app: FastifyInstance, created: Answer, choose: (a: Answer) => any = firstChoice, max = 2000): Promise<Answer[]> {
  const answers = [created];
  let a = created;
  for (let i = 0; i < max && a.view.phase !== 'ended'; i++) {
    const r = await call(app, { method: 'POST', url: `/api/games/${a.id}/actions`, headers: auth(created.token!), payload: choose(a) });
    if (r.status !== 200) throw new Error(`action refused: ${JSON.stringify(r.body)}`);
    a = r.body;
    answers.push(a);
  }
  return answers;
}

/** `tilemate serve` in a process of its own on the data folder (and its database), on a free port. */
export async function spawnServer(dir: string, more: readonly string[] = []): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const database = await databaseOf(dir);
  const child = spawn(
    process.execPath,
    ['bin/tilemate.js', 'serve', '--port', '0', '--data', dir, '--rate-limit', '0', '--threads', '1', '--games-per-address', '1000', ...(database ? ['--database', database] : []), ...more],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /ready: (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d;
    });
    if (process.env.DEBUG_TABLES) {
      child.stdout!.on('data', (d: Buffer) => process.stderr.write(`[server ${child.pid}] ${d}`));
      child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[server ${child.pid}] ${d}`));
    }
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return { child, url, exited };
}

/** A JSON POST over the network. */
export async function postJson(url: string, body: unknown, token?: string, cookie?: string): Promise<{ status: number; body: any; cookie?: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}), ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  // the session a new guest is given, as a cookie header to send back
  const set = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('tm_session='));
  return { status: r.status, body: await r.json(), ...(set ? { cookie: set } : {}) };
}
