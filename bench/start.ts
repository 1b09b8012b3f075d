/**
 * `npm run bench:start`: what a first start and a restart of `tilemate serve` cost (issue 45).
 * Each run starts the server of BENCH_ROOT (default: this checkout, built) on a data folder,
 * waits for "Tilemate is ready", reads the process's CPU seconds (user + system, all its
 * threads) and its wall time, and stops it (SIGTERM, as Ctrl-C does): first on a fresh data
 * folder, then again on the same folder. BENCH_RUNS (default 3) runs of each; the median is
 * printed. CPU seconds hold on a busy machine much better than wall time does, but machines
 * differ: the plain baseline, measured in the same run, is a bare fastify server with one
 * route started the same way, and each start is also given as a ratio to it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';

const ROOT = resolve(process.env.BENCH_ROOT ?? process.cwd());
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TICKS = 100; // clock ticks a second (getconf CLK_TCK on Linux)

/** CPU seconds a process has used: utime + stime of /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** The baseline: a bare fastify server with one route, ready when listening. */
const BARE = `import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ ok: true }));
await app.listen({ port: 0 });
console.log('Tilemate is ready (the bare fastify server)');`;

/** Starts the server on `data` (or the baseline), waits until it is ready: its CPU seconds and wall seconds to that point. */
function start(data: string | null): Promise<{ cpu: number; wall: number }> {
  const t0 = performance.now();
  const args = data === null ? ['--input-type=module', '-e', BARE] : ['bin/tilemate.js', 'serve', '--port', '0', '--data', data];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Tilemate is ready')) return;
      const figures = { cpu: cpuSeconds(child.pid!), wall: (performance.now() - t0) / 1000 };
      child.once('exit', () => done(figures));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (!out.includes('Tilemate is ready')) fail(new Error(`the server exited (${code}) before it was ready: ${out}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first: { cpu: number; wall: number }[] = [];
const again: { cpu: number; wall: number }[] = [];
const bare: { cpu: number; wall: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  const data = mkdtempSync(join(tmpdir(), 'tilemate-start-'));
  try {
    bare.push(await start(null));
    first.push(await start(data));
    again.push(await start(data));
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
const cpu = (xs: { cpu: number }[]) => median(xs.map((x) => x.cpu));
const line = (name: string, xs: { cpu: number; wall: number }[]) =>
  `${name}: ${cpu(xs).toFixed(2)} s of CPU (${(cpu(xs) / cpu(bare)).toFixed(1)} x the baseline), ${median(xs.map((x) => x.wall)).toFixed(2)} s to ready (median of ${xs.length}; CPU ${xs.map((x) => x.cpu.toFixed(2)).join(', ')})`;
console.log(`start: the server of ${ROOT}`);
console.log(line('baseline, a bare fastify server with one route', bare));
console.log(line('first start on a fresh data folder', first));
console.log(line('restart on the same folder', again));
