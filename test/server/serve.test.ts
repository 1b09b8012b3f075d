import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { portFrom } from '../../api/http/server.js';
import { dataDir } from './helpers.js';

/** `tilemate serve` as a user runs it (the compiled command), on a free port. */

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

async function serve(args: string[], env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['bin/tilemate.js', 'serve', '--data', dataDir(), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Tilemate is ready: (http:\/\/localhost:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

describe('tilemate serve', () => {
  it('prints the address to open; the API, the docs page and the table page answer there', async () => {
    const port = await freePort();
    const s = await serve(['--port', String(port)]);
    try {
      expect(s.url).toBe(`http://localhost:${port}/`);
      const health = await fetch(`${s.url}api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true });
      expect((await fetch(`${s.url}docs/json`)).status).toBe(200);
      const page = await fetch(s.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/html/);
    } finally {
      s.stop();
    }
  });

  it('PORT is honoured when --port is not given', async () => {
    const port = await freePort();
    const s = await serve([], { PORT: String(port) });
    try {
      expect(s.url).toBe(`http://localhost:${port}/`);
      expect((await fetch(`${s.url}api/health`)).status).toBe(200);
    } finally {
      s.stop();
    }
    expect(portFrom(undefined, {})).toBe(3000);
    expect(portFrom(8080, { PORT: '9000' })).toBe(8080);
    expect(portFrom(undefined, { PORT: 'abc' })).toBe(3000);
  });
});

describe('small things a user meets first', () => {
  it('a port in use is refused in words that suggest --port or PORT', async () => {
    const { serve: serveApp } = await import('../../api/http/server.js');
    const busy = createServer();
    const port = await new Promise<number>((resolve) => busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)));
    try {
      await expect(serveApp({ port, dataDir: dataDir(), logger: false })).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: port ${port} is already in use; choose another with --port or PORT`);
    } finally {
      busy.close();
    }
  });

  it('the pages have an icon: favicon.svg, and /favicon.ico leads to it', async () => {
    const { build } = await import('../../api/http/app.js');
    const app = await build({ dataDir: dataDir(), logger: false });
    try {
      const svg = await app.inject({ method: 'GET', url: '/favicon.svg' });
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toMatch(/svg/);
      const ico = await app.inject({ method: 'GET', url: '/favicon.ico' });
      expect(ico.statusCode).toBe(301);
      expect(ico.headers.location).toBe('/favicon.svg');
      expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('rel="icon" href="favicon.svg"');
    } finally {
      await app.close();
    }
  });

  it('tilemate --version prints the version of package.json', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const child = spawn(process.execPath, ['bin/tilemate.js', '--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out.trim()).toBe(pkg.version);
  });
});
