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
