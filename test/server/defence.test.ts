import { describe, expect, it } from 'vitest';
import { auth, call, server, type Answer } from './helpers.js';

const app = await server();

describe("server: the defence for the seat's rack (issue 29)", () => {
  it('rates every kind of tile on the rack in one sentence each, and refuses without the token', async () => {
    const r = await call(app, { method: 'POST', url: '/api/games', payload: { ruleset: 'nmjl-4p', level: 'easy', seed: 5 } });
    const g: Answer = r.body;
    const d = await call(app, { method: 'GET', url: `/api/games/${g.id}/defence`, headers: auth(g.token!) });
    expect(d.status).toBe(200);
    expect(d.body.at).toBe(g.at); // the move it answers for, as the game's own answers count them
    const kinds = [...new Set(g.view.rack as string[])].sort();
    expect(d.body.tiles.map((x: any) => x.tile).sort()).toEqual(kinds);
    for (const x of d.body.tiles) {
      expect(['safe', 'risky', 'dangerous']).toContain(x.level);
      expect(x.why).toMatch(/^[A-Z].*[.]$/);
    }
    // nothing exposed before the first discard: no hand to call dead, nothing dangerous
    expect(d.body.deadCalls).toEqual([]);
    expect(d.body.tiles.some((x: any) => x.level === 'dangerous')).toBe(false);
    const refused = await call(app, { method: 'GET', url: `/api/games/${g.id}/defence`, headers: auth('not-the-token-at-all-000') });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.code).toMatch(/^TM_/);
  });
});
