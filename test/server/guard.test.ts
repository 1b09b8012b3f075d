import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { build } from '../../api/http/app.js';
import { sameOrigin, splitHost } from '../../api/http/guard.js';
import { capConnections } from '../../api/http/server.js';
import type { Limits } from '../../api/shared/limits.js';
import { call, dataDir, databaseOf, server } from './helpers.js';

/** What a browser's page may ask of the server: the Host it names, the Origin of a change, the security headers (issue 28). */

async function listening(limits: Partial<Limits> = {}, allow: string[] = []) {
  const dir = dataDir();
  const app = await build({ dataDir: dir, databaseUrl: await databaseOf(dir), limits: { ratePerMinute: 0, threads: 0, ...limits }, webDir: null, hosts: { listen: '127.0.0.1', allow } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** A raw request's first answer (status line and body) or 'closed'. */
function raw(port: number, text: string, waitMs = 3000, localAddress = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress }, () => s.write(text));
    let got = '';
    s.on('data', (d) => {
      got += d;
    });
    const done = () => resolve(got === '' ? 'closed' : got);
    s.on('close', done);
    s.on('error', done);
    setTimeout(() => {
      s.destroy();
    }, waitMs);
  });
}

describe('the Host header', () => {
  it('a name the server was not told to serve (DNS rebinding) is 421 TM_BAD_HOST: it cannot read the records', async () => {
    const app = await server();
    const r = await call(app, { method: 'GET', url: '/api/records', headers: { host: 'attacker.example' } });
    expect(r.status).toBe(421);
    expect(r.body.code).toBe('TM_BAD_HOST');
    expect(r.body.message).toMatch(/^this server does not answer to the name "attacker.example": open it at localhost/);
    expect(r.body.records).toBeUndefined();
    for (const host of ['localhost', 'localhost:80', '127.0.0.1', '[::1]:80', 'LOCALHOST']) {
      expect((await call(app, { method: 'GET', url: '/api/records', headers: { host } })).status, host).toBe(200);
    }
  });

  it('--allow-host names more, on a listening server too', async () => {
    const { app, port } = await listening({}, ['club.local']);
    try {
      // fetch sends the URL's host whatever it is told: a raw request names its own
      const get = async (host: string) => Number(/^HTTP\/1.1 (\d+)/.exec(await raw(port, `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))?.[1]);
      expect(await get(`127.0.0.1:${port}`)).toBe(200);
      expect(await get(`localhost:${port}`)).toBe(200);
      expect(await get('club.local')).toBe(200);
      expect(await get(`attacker.example:${port}`)).toBe(421);
      expect(await get('club.local.attacker.example')).toBe(421);
    } finally {
      await app.close();
    }
  });

  it('a Host header is read as a name and a port', () => {
    expect(splitHost('[::1]:3000')).toEqual({ name: '::1', port: '3000' });
    expect(splitHost('Example.org')).toEqual({ name: 'example.org', port: null });
    expect(splitHost('a:b:c')).toBeNull();
    expect(sameOrigin('http://localhost:3000', 'localhost:3000')).toBe(true);
    expect(sameOrigin('http://localhost', 'localhost:80')).toBe(true);
    expect(sameOrigin('null', 'localhost:3000')).toBe(false);
    expect(sameOrigin('https://localhost:3000', 'localhost:3001')).toBe(false);
  });
});

describe('the Origin of a change', () => {
  it("a page of another site cannot create a game (403 TM_BAD_ORIGIN, nothing made); the server's own page and a request without Origin can", async () => {
    const app = await server();
    const create = (headers: Record<string, string>) => call(app, { method: 'POST', url: '/api/games', payload: { level: 'medium', seed: 1 }, headers });
    const refused = await create({ origin: 'http://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'TM_BAD_ORIGIN', message: 'a page of http://evil.example may not change anything on this server: open Tilemate at its own address' });
    expect((await create({ origin: 'null' })).status).toBe(403);
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.games).toBe(0);
    expect((await create({ origin: 'http://localhost:80', host: 'localhost:80' })).status).toBe(201);
    expect((await create({})).status).toBe(201);
    // reading is not a change: a page of another site may not read the answer anyway (no CORS)
    expect((await call(app, { method: 'GET', url: '/api/health', headers: { origin: 'http://evil.example' } })).status).toBe(200);
    // a saved card is a change too
    expect((await call(app, { method: 'DELETE', url: '/api/cards/mine', headers: { origin: 'http://evil.example' } })).body.code).toBe('TM_BAD_ORIGIN');
  });

  it('a WebSocket opened by a page of another site is refused before it is upgraded', async () => {
    const app = await server();
    const r = await call(app, { method: 'GET', url: '/api/health', headers: { origin: 'http://evil.example', upgrade: 'websocket', connection: 'Upgrade' } });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/may not connect to this server/);
  });
});

describe('a real WebSocket upgrade', () => {
  it('from a page of another site is answered 403 and never upgraded; without Origin it reaches the route', async () => {
    const { app, port } = await listening();
    try {
      const attempt = (headers: Record<string, string>) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/api/tables/ABCDEF/ws`, { headers });
          ws.on('unexpected-response', (_req, res) => {
            resolve(`refused ${res.statusCode}`);
            ws.terminate();
          });
          ws.on('open', () => {
            resolve('open');
            ws.terminate();
          });
          ws.on('error', () => resolve('error'));
        });
      expect(await attempt({ origin: 'http://evil.example' })).toBe('refused 403');
      expect(await attempt({ host: 'attacker.example' })).toBe('refused 421');
      expect(await attempt({})).toBe('open');
      // the refused sockets are closed: the server closes at once (app.close below)
    } finally {
      await app.close();
    }
  });
});

describe('security headers', () => {
  it('every answer carries a Content-Security-Policy the pages work under, no framing, nosniff', async () => {
    const app = await server();
    const r = await call(app, { method: 'GET', url: '/api/health', headers: { host: 'localhost:3000' } });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' ws://localhost:3000 wss://localhost:3000");
    expect(csp).not.toContain('upgrade-insecure-requests'); // served over plain HTTP on a club's network
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    // the API docs' page too
    const docs = await call(app, { method: 'GET', url: '/docs/static/index.html' });
    expect(String(docs.headers['content-security-policy'])).toContain("img-src 'self' data:");
  });
});

describe('connections', () => {
  it('a request body that never finishes arriving is answered 408 TM_TIMEOUT and closed', async () => {
    const { app, port } = await listening({ requestTimeoutMs: 400 });
    try {
      const answer = await raw(port, 'POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"hand":', 5000);
      expect(answer).toMatch(/^HTTP\/1.1 408/);
      expect(answer).toContain('"code":"TM_TIMEOUT"');
    } finally {
      await app.close();
    }
  });

  it('an address that connects again and again past its burst has the next connection closed unanswered; another address is served', async () => {
    const { app, port } = await listening();
    capConnections(app.server, 100, { burst: 3, perSecond: 0.01 });
    try {
      const health = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
      for (let i = 0; i < 3; i++) expect(await raw(port, health, 3000, '127.0.0.5')).toMatch(/^HTTP\/1.1 200/);
      expect(await raw(port, health, 3000, '127.0.0.5')).toBe('closed');
      expect(await raw(port, health, 3000, '127.0.0.6')).toMatch(/^HTTP\/1.1 200/);
    } finally {
      await app.close();
    }
  });

  it('one address holds at most so many connections; one more is answered 429 and closed, another address is served', async () => {
    const { app, port } = await listening();
    capConnections(app.server, 3);
    const held = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const s = connect({ port, host: '127.0.0.1' }, () => resolve(s));
          }),
      ),
    );
    try {
      const fourth = await raw(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(fourth).toMatch(/^HTTP\/1.1 429/);
      expect(fourth).toContain('this address already holds 3 connections to the server');
      const other = await raw(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 3000, '127.0.0.2');
      expect(other).toMatch(/^HTTP\/1.1 200/);
      held[0].destroy();
      await new Promise((r) => setTimeout(r, 100));
      expect(await raw(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1.1 200/);
    } finally {
      for (const s of held) s.destroy();
      await app.close();
    }
  });
});
