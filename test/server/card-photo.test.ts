import { describe, expect, it } from 'vitest';
import { cardSvg, layoutCard } from '../../api/shared/card-picture.js';
import { printedFromText } from '../../engine/mah-jongg/printed-card.js';
import { pngFromSvg } from '../../io/card-image.js';
import { call, server } from './helpers.js';

/** POST /api/cards/photo: a photo of a printed card read into a draft for the editor. */

const SMALL = 'card: Photo Test\n[Evens]\n22a 444a 6666a 888a FF ; x 25\nFFF 2468a 4444b 888b ; x 25\n';

function smallPng(): Buffer {
  const layout = layoutCard(printedFromText(SMALL), { columns: 1, width: 1000 });
  return Buffer.from(pngFromSvg(cardSvg(layout), layout.width, layout.height));
}

const photo = (payload: Buffer | string, type = 'image/png') => ({ method: 'POST' as const, url: '/api/cards/photo', headers: { 'content-type': type }, payload });

describe('POST /api/cards/photo', () => {
  it('answers a draft card for a small PNG, the lines to check beside it; one photo at a time, a few waiting, TM_BUSY past them', async () => {
    const app = await server();
    const png = smallPng();
    // four people at once: one is read, two wait their turn, the fourth is refused at once;
    // and one of them sending a second photo meanwhile is told to wait for her first (issue 63)
    const from = (n: number) => ({ ...photo(png), remoteAddress: `10.0.0.${n}` });
    const answers = await Promise.all([...[1, 2, 3, 4].map((n) => call(app, from(n))), call(app, from(1))]);
    const read = answers.filter((a) => a.status === 200);
    expect(read.length).toBe(3);
    expect(answers.filter((a) => a.status === 503).map((a) => a.body)).toEqual(
      expect.arrayContaining([
        { code: 'TM_BUSY', message: 'the server is reading other photos of cards just now; try again in a minute' },
        { code: 'TM_BUSY', message: 'your last photo is still being read: wait for it, then send the next' },
      ]),
    );
    expect(answers.filter((a) => a.status === 503)).toHaveLength(2);
    const { card, unsure } = read[0].body;
    expect(card.sections.map((s: { title: string }) => s.title)).toEqual(['Evens']);
    const lines = card.sections[0].lines;
    expect(lines.length).toBe(2);
    // each line read exactly, or marked for her to check
    const want = [
      ['22', '444', '6666', '888', 'FF'],
      ['FFF', '2468', '4444', '888'],
    ];
    lines.forEach((l: { groups: { text: string }[]; unsure?: string }, i: number) => {
      if (l.unsure === undefined) expect(l.groups.map((g) => g.text)).toEqual(want[i]);
    });
    expect(unsure.length).toBe(lines.filter((l: { unsure?: string }) => l.unsure !== undefined).length);
    // the server went on answering meanwhile, and still does
    expect((await call(app, { method: 'GET', url: '/api/health' })).status).toBe(200);
    await app.close();
  });

  it('refuses a body that is not a picture, a picture of another kind and one too large, in plain words', async () => {
    const app = await server();
    const text = await call(app, photo('card: not a picture\n'));
    expect([text.status, text.body]).toEqual([400, { code: 'TM_BAD_INPUT', message: 'the file is not a PNG or JPEG picture' }]);
    const json = await call(app, photo(JSON.stringify({ photo: 'abc' }), 'application/json'));
    expect([json.status, json.body]).toEqual([400, { code: 'TM_BAD_INPUT', message: 'send the photo itself as the body, with Content-Type image/png or image/jpeg, not application/json' }]);
    const gif = await call(app, photo(Buffer.from('GIF89a....'), 'image/gif'));
    expect(gif.body.message).toBe('send the photo itself as the body, with Content-Type image/png or image/jpeg, not image/gif');
    const big = await call(app, photo(Buffer.alloc(10 * 1024 * 1024 + 1)));
    expect([big.status, big.body]).toEqual([413, { code: 'TM_BODY_TOO_LARGE', message: 'the photo is 10.0 MB; a photo of a card may be at most 10 MB' }]);
    // another route keeps its own small limit
    const other = await call(app, { method: 'POST', url: '/api/cards/check', headers: { 'content-type': 'image/png' }, payload: smallPng() });
    expect(other.status).toBe(400);
    await app.close();
  });
});
