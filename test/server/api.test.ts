import { describe, expect, it } from 'vitest';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { resultJson } from '../../api/shared/wire.js';
import { COPIES } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';
import { readCardText } from '../../io/cards.js';
import { call, server } from './helpers.js';

const app = await server();
const HANDS = ['2B 2B 4B 4B 6B 6B 6B 8B 8B F F J N S', '1B 1B 2C 3D N RD F J 5D 5D 7C 8C 9C', 'N E W S GD RD WD F F 2B 0 2B 6B', '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J'];

describe('server: health, card, analysis and advice', () => {
  it('GET /api/health answers 200 once ready', async () => {
    const r = await call(app, { method: 'GET', url: '/api/health' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, card: 'Tilemate Practice Card 2026' });
  });

  it('GET /api/card lists every line of the practice card with its pattern and value', async () => {
    const r = await call(app, { method: 'GET', url: '/api/card' });
    const cc = loadCard();
    expect(r.status).toBe(200);
    expect(r.body.lines).toHaveLength(cc.lineCount);
    expect(r.body.lines[0]).toEqual({
      index: 0,
      id: cc.card.lines[0].id,
      section: cc.card.lines[0].section,
      pattern: cc.card.lines[0].pattern,
      value: cc.card.lines[0].value,
      concealed: cc.card.lines[0].concealed,
      jokers: true,
    });
  });

  it("POST /api/analyze answers with the names and values of the CLI's analyze --json", async () => {
    const analyzer = new Analyzer(loadCard());
    for (const hand of HANDS) {
      const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand, top: 7 } });
      expect(r.status).toBe(200);
      const expected = analyzer.analyze(analysisInput(COPIES, hand), { top: 7 }).map(resultJson);
      expect(r.body.results.map(({ groups: _, ...rest }: any) => rest)).toEqual(expected);
    }
  });

  it('analysis groups mark each tile of the closest form; the missing ones add up to tiles away', async () => {
    // and one joker among scattered tiles
    for (const hand of [...HANDS, '1B 1B 2B 5C 7C 9C 1D 3D N E RD F J']) {
      const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand, all: true } });
      for (const res of r.body.results.filter((x: any) => x.possible)) {
        const tiles = res.groups.flat();
        expect(tiles).toHaveLength(14);
        expect(res.groups.map((g: any[]) => g.map((t) => t.tile).join(' '))).toHaveLength(res.form.split(' ').length);
        expect(tiles.filter((t: any) => t.status === 'need' || t.status === 'joker')).toHaveLength(res.tilesAway);
        // the picture and the list agree: the tiles still missing are exactly \`need\`, the jokers placed as the analyzer places them
        expect(
          tiles
            .filter((t: any) => t.status === 'need' || t.status === 'joker')
            .map((t: any) => t.tile)
            .sort(),
          `${hand}: ${res.id}`,
        ).toEqual([...res.need].sort());
        // a joker never stands in for a single or a pair
        for (const g of res.groups) if (g.length < 3) expect(g.some((t: any) => t.joker || t.status === 'joker')).toBe(false);
      }
    }
  });

  it('analysis with exposures marks the exposed group', async () => {
    const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: '2B 2B 4B 4B 4B 8B 8B 8B F F', exposed: '6B 6B 6B J', top: 1 } });
    expect(r.status).toBe(200);
    const best = r.body.results[0];
    expect(best.id).toBe('2468 #1');
    expect(best.groups.find((g: any[]) => g[0].tile === '6B').every((t: any) => t.status === 'exposed')).toBe(true);
  });

  it("POST /api/analyze with simulate adds each line's chance; a posted card is used", async () => {
    const r = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HANDS[3], simulate: 50, top: 2 } });
    expect(r.body.simulation).toMatchObject({ deals: 50, seed: 1 });
    expect(r.body.results[0].chance).toBeGreaterThanOrEqual(0);
    const card = 'card: Tiny\n[Only]\n22a 444a 6666a 888a FF ; x 25\n';
    const c = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HANDS[0], card } });
    expect(c.status).toBe(200);
    expect(c.body.card).toBe('Tiny');
    expect(c.body.results.map((x: any) => x.id)).toEqual(['Only #1']);
    const again = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: HANDS[0], card: readCardText() } });
    expect(again.body.card).toBe('Tilemate Practice Card 2026');
  });

  it('POST /api/charleston answers three tiles from the hand to pass and why', async () => {
    const r = await call(app, { method: 'POST', url: '/api/charleston', payload: { hand: HANDS[1], direction: 'left', blind: true } });
    expect(r.status).toBe(200);
    expect(r.body.direction).toBe('left');
    expect(r.body.pass.length + r.body.blind).toBe(3);
    expect(r.body.pass).not.toContain('J');
    expect(r.body.why.length).toBeGreaterThan(10);
  });

  it('POST /api/advice answers a discard and a call question with alternatives, best first', async () => {
    const d = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'discard', hand: HANDS[3], worlds: 4 } });
    expect(d.status).toBe(200);
    expect(d.body.suggestion).toBe(d.body.alternatives[0].action);
    const c = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'call', hand: '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F', tile: 'F', from: 'left', worlds: 4 } });
    expect(c.status).toBe(200);
    expect(c.body.alternatives[0].move.type).toBe('callMahJongg');
    const missing = await call(app, { method: 'POST', url: '/api/advice', payload: { question: 'call', hand: HANDS[1], worlds: 4 } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('TM_BAD_INPUT');
  });

  it('the OpenAPI document describes every route, and /docs serves its page', async () => {
    const doc = await call(app, { method: 'GET', url: '/docs/json' });
    expect(doc.status).toBe(200);
    for (const path of [
      '/api/health',
      '/api/card',
      '/api/analyze',
      '/api/charleston',
      '/api/advice',
      '/api/games',
      '/api/games/{id}',
      '/api/games/{id}/actions',
      '/api/games/{id}/hint',
      '/api/games/{id}/card',
      '/api/records',
      '/api/records/{id}',
      '/api/review',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
    expect(doc.body.paths['/api/analyze'].post.requestBody.content['application/json'].schema.required).toContain('hand');
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
  });
});
