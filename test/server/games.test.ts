import { describe, expect, it } from 'vitest';
import { replayRecord } from '../../engine/record.js';
import { MAH_JONGG } from '../../engine/mah-jongg/mah-jongg.js';
import { auth, call, firstChoice, playThrough, server, type Answer } from './helpers.js';

const app = await server();

/** A pass or courtesy offer as the set of its tiles. */
const asSet = (a: any) => (a.tiles ? { ...a, tiles: [...a.tiles].sort() } : a);

async function create(payload: object): Promise<Answer> {
  const r = await call(app, { method: 'POST', url: '/api/games', payload });
  expect(r.status).toBe(201);
  return r.body;
}

describe('server: games against bots', () => {
  it("a new game answers the seat's view, its legal actions and a token; other racks are counts only", async () => {
    const g = await create({ ruleset: 'nmjl-4p', level: 'medium', seat: 0, seed: 1 });
    expect(g.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(g.seats).toEqual(['human', 'medium', 'medium', 'medium']);
    expect(g.view.rack).toHaveLength(14); // East
    expect(g.view.prompt).toEqual({ kind: 'charleston', pass: 0, charleston: 'first', direction: 'right', to: 1, blindAllowed: false, mahJonggAllowed: false });
    expect(g.legal).toEqual([{ type: 'pass', seat: 0, choose: { min: 3, max: 3 }, blindUpTo: 0 }]);
    for (const s of g.view.seats) expect(Object.keys(s).sort()).toEqual(['concealedCount', 'dead', 'discards', 'exposures', 'seat']);
    expect(g.view.seats.map((s: any) => s.concealedCount)).toEqual([14, 13, 13, 13]);
    expect(g.view.result).toBeNull();
    const text = JSON.stringify(g.view);
    expect(text).not.toMatch(/"seed"|"wall"|"reveal"|"hands"/);
  });

  it('a game with no body at all is a medium game in seat 0', async () => {
    const r = await call(app, { method: 'POST', url: '/api/games' });
    expect(r.status).toBe(201);
    expect(r.body.seats).toEqual(['human', 'medium', 'medium', 'medium']);
    expect(r.body.seat).toBe(0);
  });

  it('the same seed and the same actions give the same game', async () => {
    const a = await create({ level: 'medium', seed: 7 });
    const b = await create({ level: 'medium', seed: 7 });
    expect(b.view).toEqual(a.view);
    const pa = await playThrough(app, a, firstChoice, 6);
    const pb = await playThrough(app, b, firstChoice, 6);
    expect(pb.map((x) => x.view)).toEqual(pa.map((x) => x.view));
  });

  it('a whole game plays through the API to its end: result, hands revealed, record saved and listed', async () => {
    const g = await create({ level: 'random', seat: 1, seed: 3 });
    const answers = await playThrough(app, g);
    const end = answers[answers.length - 1];
    expect(end.view.phase).toBe('ended');
    expect(end.view.prompt).toEqual({ kind: 'ended' });
    expect(end.legal).toEqual([]);
    expect(end.view.result.seed).toBe(3);
    expect(end.view.result.hands).toHaveLength(4);
    expect(end.view.result.scores).toHaveLength(4);
    expect(end.recordId).toBe(g.id);
    // every action is told exactly once, in order
    const told = answers.flatMap((a) => a.events.map((e) => e.n));
    expect(told).toEqual(Array.from({ length: told.length }, (_, i) => i + 1));
    // other seats' passes are face down; the seat's own draws name the tile
    for (const e of answers.flatMap((a) => a.events)) {
      if (e.action.type === 'pass' && e.action.seat !== 1) {
        expect(e.action.tiles).toBeUndefined();
        expect(e.action.count + e.action.blind).toBe(3);
      }
      if (e.action.type === 'draw') expect(e.drew !== undefined).toBe(e.action.seat === 1);
    }
    const list = await call(app, { method: 'GET', url: '/api/records' });
    const listed = list.body.records.find((r: any) => r.id === g.id);
    expect(listed).toMatchObject({ ruleset: 'nmjl-4p', seed: 3, seats: ['random', 'human', 'random', 'random'], scores: end.view.result.scores });
    const rec = await call(app, { method: 'GET', url: `/api/records/${g.id}` });
    expect(rec.status).toBe(200);
    const replay = replayRecord(rec.body.text, { type: MAH_JONGG });
    expect(replay.actions).toBe(told.length);
    expect(replay.state.result!.scores).toEqual(end.view.result.scores);
    const raw = await call(app, { method: 'GET', url: `/api/records/${g.id}?format=jsonl` });
    expect(raw.headers['content-type']).toMatch(/ndjson/);
    expect(raw.body).toBe(rec.body.text);
  });

  it("bots stop for the seat's claim window; other seats' answers to it are told once it closes", async () => {
    let windows = 0;
    for (let seed = 1; seed <= 6 && windows === 0; seed++) {
      const g = await create({ level: 'random', seed });
      for (const a of await playThrough(app, g)) {
        if (a.view.prompt.kind !== 'claims') continue;
        windows++;
        expect(a.legal[0]).toMatchObject({ type: 'decline', claimTile: a.view.claim.tile });
        expect(a.legal.some((l) => l.type === 'call' || l.type === 'callMahJongg')).toBe(true);
        const last = a.events[a.events.length - 1];
        if (last) expect(last.action).toMatchObject({ type: 'discard', seat: a.view.claim.discarder, tile: a.view.claim.tile });
      }
    }
    expect(windows).toBeGreaterThan(0);
  });

  it('with autoPlay off the seat declines and draws for itself', async () => {
    const g = await create({ ruleset: 'nmjl-3p', level: 'random', seat: 1, seed: 2, autoPlay: false });
    let a: Answer = g;
    while (a.view.prompt.kind === 'claims') {
      expect(a.legal).toContainEqual({ type: 'decline', seat: 1, claimTile: a.view.claim.tile });
      a = (await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { type: 'decline' } })).body;
    }
    expect(a.view.prompt).toEqual({ kind: 'draw' });
    const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { type: 'draw' } });
    expect(r.status).toBe(200);
    expect(r.body.view.prompt.kind).toBe('discard');
    expect(r.body.events[0]).toMatchObject({ action: { type: 'draw', seat: 1 } });
    expect(r.body.view.rack).toContain(r.body.events[0].drew);
  });

  it('GET /api/games/:id repeats the view; ?since=0 lists every event so far', async () => {
    const g = await create({ level: 'random', seat: 2, seed: 11 });
    const again = await call(app, { method: 'GET', url: `/api/games/${g.id}`, headers: auth(g.token!) });
    expect(again.status).toBe(200);
    expect(again.body.view).toEqual(g.view);
    expect(again.body.events).toEqual([]);
    const all = await call(app, { method: 'GET', url: `/api/games/${g.id}?since=0`, headers: auth(g.token!) });
    expect(all.body.events).toEqual(g.events);
  });

  it('a hint advises a legal action for the Charleston, the discard and any claim window, and following it is accepted', async () => {
    const g = await create({ level: 'medium', seed: 21 });
    const kinds = new Set<string>();
    let a: Answer = g;
    for (let step = 0; step < 80 && a.view.phase !== 'ended' && !(kinds.has('discard') && kinds.has('claims')); step++) {
      const h = await call(app, { method: 'POST', url: `/api/games/${g.id}/hint`, headers: auth(g.token!), payload: { worlds: 2 } });
      expect(h.status).toBe(200);
      expect(h.body.kind).toBe(a.view.phase);
      expect(h.body.text.length).toBeGreaterThan(5);
      kinds.add(h.body.kind);
      if (h.body.kind === 'discard') {
        expect(h.body.alternatives[0].legal).toEqual(h.body.action);
        expect(a.legal).toContainEqual(h.body.action);
      }
      const r = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: h.body.action });
      expect(r.status).toBe(200);
      a = r.body;
    }
    expect(kinds.has('charleston')).toBe(true);
    expect(kinds.has('discard')).toBe(true);
  });

  it("GET /api/games/:id/card analyses the seat's own rack, best line first", async () => {
    const g = await create({ level: 'random', seed: 4 });
    const r = await call(app, { method: 'GET', url: `/api/games/${g.id}/card?top=3`, headers: auth(g.token!) });
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(3);
    const direct = await call(app, { method: 'POST', url: '/api/analyze', payload: { hand: g.view.rack.join(' '), top: 3 } });
    expect(r.body.results).toEqual(direct.body.results);
  });

  it("a pass of the engine's tiles in another order is reviewed as agreeing with it", async () => {
    const g = await create({ level: 'medium', seed: 7 });
    const hint = await call(app, { method: 'POST', url: `/api/games/${g.id}/hint`, headers: auth(g.token!), payload: {} });
    const tiles = [...hint.body.action.tiles].reverse();
    expect(tiles).not.toEqual(hint.body.action.tiles);
    const first = await call(app, { method: 'POST', url: `/api/games/${g.id}/actions`, headers: auth(g.token!), payload: { type: 'pass', tiles, blind: 0 } });
    expect(first.status).toBe(200);
    const answers = await playThrough(app, { ...first.body, token: g.token });
    const recordId = answers[answers.length - 1].recordId;
    const r = await call(app, { method: 'POST', url: '/api/review', payload: { recordId, seat: 0, worlds: 1 } });
    const pass = r.body.decisions.find((d: any) => d.phase === 'charleston' && JSON.stringify(d.chosenAction.tiles) === JSON.stringify(tiles));
    expect(pass).toMatchObject({ agreed: true, tilesLost: 0, loss: 0 });
  });

  it("a review lists the seat's decisions, biggest loss first, each pointing at its action in the record", async () => {
    const g = await create({ level: 'random', seed: 5 });
    const answers = await playThrough(app, g);
    const recordId = answers[answers.length - 1].recordId;
    const r = await call(app, { method: 'POST', url: '/api/review', payload: { recordId, seat: 0, worlds: 2 } });
    expect(r.status).toBe(200);
    const rec = (await call(app, { method: 'GET', url: `/api/records/${recordId}` })).body.text.split('\n');
    expect(r.body.decisions.length).toBeGreaterThan(5);
    expect(r.body.summary.decisions).toBe(r.body.decisions.length);
    const losses = r.body.decisions.map((d: any) => d.loss);
    expect(losses).toEqual([...losses].sort((x: number, y: number) => y - x));
    // every disagreement first, with their count, then the agreed choices
    const agreed = r.body.decisions.map((d: any) => d.agreed);
    expect(agreed).toEqual([...agreed].sort((x: boolean, y: boolean) => Number(x) - Number(y)));
    expect(r.body.summary.disagreed).toBe(agreed.filter((x: boolean) => !x).length);
    expect(r.body.summary.disagreed + r.body.summary.agreed).toBe(r.body.summary.decisions);
    // each mistake with the idea behind the better choice, in one sentence without figures
    for (const d of r.body.decisions.filter((x: any) => !x.agreed)) {
      expect(d.why).toMatch(/^[A-Z].*\.$/);
      expect(d.why).not.toMatch(/standard error|±|sampled deals/);
    }
    for (const d of r.body.decisions) {
      const line = JSON.parse(rec[d.index]);
      expect(line.n).toBe(d.index);
      expect(line.action).toMatchObject({ seat: 0, type: d.chosenAction.type });
      expect(d.agreed).toBe(JSON.stringify(asSet(d.chosenAction)) === JSON.stringify(asSet(d.suggestedAction)));
      if (d.agreed) expect(d.loss).toBe(0);
      expect(d.lossSe).toBeGreaterThanOrEqual(0);
      expect(d.moment.seat).toBe(0);
      expect(d.moment.rack.length).toBeGreaterThan(0);
    }
    // the first-legal player passes without looking: the engine disagrees somewhere
    expect(r.body.summary.agreed).toBeLessThan(r.body.decisions.length);
    const uploaded = await call(app, { method: 'POST', url: '/api/review', payload: { record: rec.join('\n'), seat: 0, worlds: 2 } });
    expect(uploaded.body).toEqual(r.body);
    const top = await call(app, { method: 'POST', url: '/api/review', payload: { recordId, seat: 0, worlds: 2, top: 3 } });
    expect(top.body.decisions).toEqual(r.body.decisions.slice(0, 3));
    expect(top.body.summary).toEqual(r.body.summary);
  });
});
