import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { portFrom } from '../../api/http/server.js';
import { lanAddresses, startLines } from '../../api/cli/serve-lines.js';
import { dataDir } from './helpers.js';

/** `tilemate serve` as a user runs it (the compiled command), on a free port. */

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts the command; resolves once it has printed its last start-up line (how to stop it). */
async function serve(args: string[], env: Record<string, string> = {}, data = dataDir()): Promise<{ url: string; printed: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['bin/tilemate.js', 'serve', '--data', data, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const printed = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Press Ctrl-C to stop the server.\n')) resolve(out);
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
  const m = /Tilemate is ready: (http:\/\/localhost:\d+\/)/.exec(printed);
  if (!m) throw new Error(`no address printed: ${printed}`);
  // stopped: resolves once the server has closed its database (the data folder is then free to use again or remove)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: m[1],
    printed,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
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

describe('what tilemate serve says when it starts', () => {
  // a data folder of these tests' own, removed by them (with time to spare on a busy machine)
  const data = mkdtempSync(join(tmpdir(), 'tilemate-serve-'));
  afterAll(() => rmSync(data, { recursive: true, force: true }), 60_000);

  it('the address, the data folder, the card and how to open it from a tablet, in plain lines', async () => {
    const port = await freePort();
    const s = await serve(['--port', String(port)], { DATABASE_URL: '' }, data);
    try {
      const [starting, ...lines] = s.printed.trim().split('\n');
      expect(starting).toBe(`Starting Tilemate: opening the games database in ${join(resolve(data), 'db')} (a few seconds)...`);
      expect(lines[0]).toBe(`Tilemate is ready: http://localhost:${port}/`);
      expect(lines[1]).toBe(`Data folder: ${resolve(data)} (games are kept in its embedded database, ${join(resolve(data), 'db')}).`);
      expect(lines[2]).toBe('Card: Tilemate Practice Card 2026, the built-in practice card (choose another with --card FILE).');
      const lan = lanAddresses();
      expect(lines[3]).toBe(
        `To play from a tablet or phone on this Wi-Fi: npx tilemate serve --host 0.0.0.0 --port ${port}, then open ${lan.length > 0 ? `http://${lan[0]}:${port}/` : `http://<this computer's address>:${port}/`} there.`,
      );
      expect(lines[4]).toBe('Press Ctrl-C to stop the server.');
      expect(lines).toHaveLength(5);
    } finally {
      await s.stop();
    }
  });

  it('a card from a file is named with its file', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-card-'));
    const file = join(dir, 'mine.card');
    writeFileSync(file, 'card: Mine\n[Evens]\n2468a 2468b 2468c FF ; c 50\n');
    const s = await serve(['--port', String(port), '--card', file], { DATABASE_URL: '' }, data);
    try {
      expect(s.printed).toContain(`\nCard: Mine, from ${file}.\n`);
    } finally {
      await s.stop();
    }
  });

  const NETS = {
    lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
    wlan0: [
      { address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: '192.168.1.20/24' },
      { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: 'fe80::1/64', scopeid: 3 },
    ],
    eth1: [{ address: '169.254.3.4', netmask: '255.255.0.0', family: 'IPv4', mac: 'aa:bb:cc:dd:ee:00', internal: false, cidr: '169.254.3.4/16' }],
  } as const;
  const started = { url: 'http://localhost:3000/', host: '0.0.0.0', port: 3000, dataDir: '/home/me/tilemate-data', card: { name: 'Tilemate Practice Card 2026' } };

  it("listening on every network, the computer's own addresses are printed for the tablet (not loopback, not link-local)", () => {
    expect(lanAddresses(NETS as never)).toEqual(['192.168.1.20']);
    expect(startLines(started, NETS as never)[3]).toBe('To play from a tablet or phone on this Wi-Fi, open http://192.168.1.20:3000/ there.');
    expect(startLines(started, { lo: NETS.lo } as never)[3]).toBe("To play from a tablet or phone, connect this computer to the Wi-Fi and open http://<this computer's address>:3000/ there.");
    // on the default port and on this computer only, the command to type is the plain one
    expect(startLines({ ...started, host: '127.0.0.1' }, NETS as never)[3]).toBe(
      'To play from a tablet or phone on this Wi-Fi: npx tilemate serve --host 0.0.0.0, then open http://192.168.1.20:3000/ there.',
    );
  });

  it('on a PostgreSQL server, its host and database are printed, never the user or password', async () => {
    const { safeUrl } = await import('../../api/store/db.js');
    const lines = startLines({ ...started, database: safeUrl('postgres://me:secret@db.example:5432/tilemate') }, NETS as never);
    expect(lines[1]).toBe('Games are kept in the PostgreSQL database db.example:5432/tilemate.');
    expect(lines.join('\n')).not.toMatch(/secret|me:/);
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
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out.trim()).toBe(pkg.version);
  });
});
