import { describe, expect, it } from 'vitest';
import { drillHint, drillPosition } from '../../agents/coach/drills.js';
import { loadCard, readCardText } from '../../io/cards.js';
import { tileName } from '../../engine/mah-jongg/tiles.js';
import { encodeAction } from '../../engine/mah-jongg/mah-jongg.js';
import { call, newJar, server } from './helpers.js';

/** Drills over HTTP (issue 46): a position by kind, level and number; an answer graded by the coach's hint there; the day's puzzle; bad input refused by name. */

const cc = loadCard();

describe('drills over HTTP', () => {
  it('deals a drill of each kind again from its number, shows only her seat, and grades the coach’s answer right', async () => {
    const app = await server();
    for (const kind of ['charleston', 'discard', 'call']) {
      const got = await call(app, { method: 'GET', url: `/api/drills?kind=${kind}&level=2&seed=31` });
      expect(got.status).toBe(200);
      const d = got.body;
      expect(d).toMatchObject({ kind, level: 2, seed: 31 });
      expect(d.question).toMatch(/\?$/);
      // her seat's view only: the others' racks are counts
      expect(d.view.seats.every((s: Record<string, unknown>) => !('rack' in s) && !('concealed' in s))).toBe(true);
      const again = await call(app, { method: 'GET', url: `/api/drills?kind=${kind}&level=2&seed=31` });
      expect(again.body.view).toEqual(d.view);
      // the coach's own answer there, worked out here from the same drill
      const pos = drillPosition(cc, { kind: kind as 'discard', level: 2, seed: 31 });
      const { seat: _, ...answer } = encodeAction(drillHint(cc, pos).action);
      const graded = await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind, level: 2, seed: 31, answer } });
      expect(graded.status).toBe(200);
      expect(graded.body).toMatchObject({ right: true, agreed: true, verdict: "Right: that is the coach's choice." });
      expect(graded.body.hint.text.length).toBeGreaterThan(10);
    }
    // a new number each time when none is given
    const a = await call(app, { method: 'GET', url: '/api/drills?kind=discard&level=1' });
    expect(a.status).toBe(200);
    expect(Number.isInteger(a.body.seed)).toBe(true);
  }, 120_000);

  it('a choice drill shows its answers, never its key, and grades a choice with the reason; a move or both are refused', async () => {
    const app = await server();
    for (const kind of ['hand', 'safe', 'dead', 'score']) {
      const got = await call(app, { method: 'GET', url: `/api/drills?kind=${kind}&level=2&seed=8` });
      expect(got.status).toBe(200);
      const d = got.body;
      expect(d.choices.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(d)).not.toMatch(/"key"|"reason"|"right"/);
      const pos = drillPosition(cc, { kind: kind as 'safe', level: 2, seed: 8 });
      expect(d.choices).toEqual(pos.choices);
      expect(d.question).toBe(pos.question);
      const right = await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind, level: 2, seed: 8, choice: pos.key!.right } });
      expect(right.status).toBe(200);
      expect(right.body).toMatchObject({ right: true, verdict: 'Right.', hint: { text: pos.key!.reason } });
      const other = pos.choices!.find((c) => c.id !== pos.key!.right)!.id;
      const wrong = await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind, level: 2, seed: 8, choice: other } });
      expect(wrong.body.right).toBe(false);
      expect(wrong.body.verdict).toMatch(/^Not this time: the answer is "/);
    }
    const refused = async (payload: object) => {
      const r = await call(app, { method: 'POST', url: '/api/drills/answer', payload });
      expect(r.status).toBe(400);
      return r.body.message as string;
    };
    await expect(refused({ kind: 'safe', level: 2, seed: 8, choice: 'perhaps' })).resolves.toMatch(/"perhaps" is not one of this drill's answers/);
    await expect(refused({ kind: 'safe', level: 2, seed: 8, answer: { type: 'discard', tile: '1B' } })).resolves.toMatch(/answered by choosing one of its answers/);
    await expect(refused({ kind: 'discard', level: 1, seed: 3, choice: 'safe' })).resolves.toMatch(/answered by a move/);
    await expect(refused({ kind: 'safe', level: 2, seed: 8 })).resolves.toMatch(/exactly one of "answer" \(a move\) or "choice"/);
    await expect(refused({ kind: 'safe', level: 2, seed: 8, choice: 'safe', answer: { type: 'discard', tile: '1B' } })).resolves.toMatch(/exactly one/);
    await expect(refused({ kind: 'safe', level: 2, seed: 8, choice: 'x'.repeat(41) })).resolves.toMatch(/choice/);
    // a lesson's step answered by a choice: not yet with the reason, then done
    const step = await call(app, { method: 'GET', url: '/api/lessons/dead/1' });
    expect(step.body.drill.choices).toHaveLength(2);
    const key = drillPosition(cc, { kind: 'dead', level: 2, seed: 2 }).key!;
    const no = await call(app, { method: 'POST', url: '/api/lessons/check', payload: { lesson: 'dead', step: 1, choice: key.right === 'dead' ? 'live' : 'dead' } });
    expect(no.body).toEqual({ ok: false, words: `Not yet: ${key.reason}` });
    const yes = await call(app, { method: 'POST', url: '/api/lessons/check', payload: { lesson: 'dead', step: 1, choice: key.right } });
    expect(yes.body.ok).toBe(true);
  }, 120_000);

  it("today's puzzle is one drill for everyone, dated", async () => {
    const app = await server();
    const one = await call(app, { method: 'GET', url: '/api/drills/daily' }, newJar());
    const two = await call(app, { method: 'GET', url: '/api/drills/daily' }, newJar());
    expect(one.status).toBe(200);
    expect(one.body.date).toBe(new Date().toISOString().slice(0, 10));
    expect({ ...two.body, date: one.body.date }).toEqual(one.body);
  }, 60_000);

  it('refuses a bad drill or answer by name, and answers on her own saved card', async () => {
    const app = await server();
    const bad = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const r = await call(app, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
      expect(r.status).toBe(400);
      return r.body.message as string;
    };
    await expect(bad('GET', '/api/drills?kind=dance&level=1')).resolves.toMatch(/kind/);
    await expect(bad('GET', '/api/drills?kind=call&level=4')).resolves.toMatch(/level/);
    await expect(bad('GET', '/api/drills?kind=call&level=1&seed=99999999999')).resolves.toMatch(/seed/);
    await expect(bad('POST', '/api/drills/answer', { kind: 'discard', level: 1, seed: 3, answer: { type: 'discard', tile: '1F' } })).resolves.toMatch(/unknown tile "1F"/);
    const pos = drillPosition(cc, { kind: 'discard', level: 1, seed: 3 });
    // a tile she does not hold (suited, so it is one of the set's)
    const missing = tileName(pos.view.concealed.findIndex((n, t) => n === 0 && t < 27));
    await expect(bad('POST', '/api/drills/answer', { kind: 'discard', level: 1, seed: 3, answer: { type: 'discard', tile: missing } })).resolves.toMatch(/not a move you could make here/);
    await expect(bad('POST', '/api/drills/answer', { kind: 'discard', level: 1, seed: 3, answer: { type: 'discard', tile: missing }, hack: 1 })).resolves.toMatch(/hack/);
    // a move of another seat is refused, never graded as hers (issue 63)
    const held = tileName(pos.view.concealed.findIndex((n) => n > 0));
    await expect(bad('POST', '/api/drills/answer', { kind: 'discard', level: 1, seed: 3, answer: { type: 'discard', tile: held, seat: (pos.seat + 1) % 4 } })).resolves.toMatch(
      new RegExp(`this drill's player sits at seat ${pos.seat}, not seat ${(pos.seat + 1) % 4}`),
    );
    expect((await call(app, { method: 'POST', url: '/api/drills/answer', payload: { kind: 'discard', level: 1, seed: 3, answer: { type: 'discard', tile: held, seat: pos.seat } } })).status).toBe(200);
    // her own card: saved, then drilled on by name
    const text = readCardText().replace(/^card: .*$/m, 'card: Her Own Card');
    expect((await call(app, { method: 'PUT', url: '/api/cards/hers', payload: { text } })).status).toBe(200);
    const mine = await call(app, { method: 'GET', url: '/api/drills?kind=charleston&level=1&seed=4&card=hers' });
    expect(mine.status).toBe(200);
    expect(mine.body.card).toBe('Her Own Card');
    // another person cannot name it
    const other = await call(app, { method: 'GET', url: '/api/drills?kind=charleston&level=1&seed=4&card=hers' }, newJar());
    expect(other.status).toBe(404);
    // today's puzzle on her own card: the same drill, dealt on hers
    const daily = await call(app, { method: 'GET', url: '/api/drills/daily?card=hers' });
    const theirs = await call(app, { method: 'GET', url: '/api/drills/daily' });
    expect(daily.status).toBe(200);
    expect(daily.body.card).toBe('Her Own Card');
    expect([daily.body.kind, daily.body.level, daily.body.seed, daily.body.date]).toEqual([theirs.body.kind, theirs.body.level, theirs.body.seed, theirs.body.date]);
    expect((await call(app, { method: 'GET', url: '/api/drills/daily?card=hers' }, newJar())).status).toBe(404);
    await expect(bad('GET', '/api/drills/daily?card=Not%20A%20Name')).resolves.toMatch(/card/);
  }, 120_000);
});
