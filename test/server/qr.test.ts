import { describe, expect, it } from 'vitest';
import { call, server } from './helpers.js';

/** GET /api/qr.svg (issue 63): a page of this site as a QR code, and nothing else. */
describe('a page as a QR code', () => {
  it('draws a page of this site with its query, and refuses anything else in words', async () => {
    const app = await server();
    const ok = await call(app, { method: 'GET', url: `/api/qr.svg?path=${encodeURIComponent('/scorecard.html?event=AB12CD&card=XY34ZZ')}` });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(ok.body)).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    expect(ok.headers['cache-control']).toBe('private, max-age=3600');
    for (const path of ['https://elsewhere.example/x.html', '//elsewhere.example/a.html', '/scorecard.html?event=<script>', `/scorecard.html?${'a'.repeat(300)}`, '/api/events']) {
      const r = await call(app, { method: 'GET', url: `/api/qr.svg?path=${encodeURIComponent(path)}` });
      expect(r.status, path).toBe(400);
      expect(r.body.code, path).toBe('TM_BAD_INPUT');
      expect(r.body.message, path).toMatch(/path/);
    }
  });
});
