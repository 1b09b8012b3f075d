import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { server } from './helpers.js';

/** POST /api/cards/picture: a card drawn as printed, in the worker pool, named after the card. */

const PRACTICE = readFileSync(new URL('../../cards/practice-2026.card', import.meta.url), 'utf8');
let app: Awaited<ReturnType<typeof server>>;
beforeAll(async () => {
  app = await server();
});
const post = async (payload: object) => app.inject({ method: 'POST', url: '/api/cards/picture', payload });

describe('POST /api/cards/picture', () => {
  it("answers the card as PNG, PDF and SVG, each with its type and a file name made from the card's name", async () => {
    const png = await post({ text: PRACTICE, format: 'png' });
    expect(png.statusCode, png.body.slice(0, 200)).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBe('attachment; filename="tilemate-practice-card-2026.png"');
    expect([...png.rawPayload.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.rawPayload.readUInt32BE(16)).toBe(1700); // the IHDR's width

    const pdf = await post({ text: PRACTICE, format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="tilemate-practice-card-2026.pdf"');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const svg = await post({ text: PRACTICE, format: 'svg', columns: 1 });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toContain('>Tilemate Practice Card 2026</text>');
    expect(svg.body).toContain('>NEWS</text>');
    const two = await post({ text: PRACTICE, format: 'svg', columns: 2 });
    const height = (body: string) => Number(/<svg [^>]*height="([\d.]+)"/.exec(body)![1]);
    expect(height(svg.body)).toBeGreaterThan(height(two.body) * 1.6);
  });

  it("a card that does not read is answered with the card's error, naming its line", async () => {
    const r = await post({ text: 'card: Mine\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n22a 444a ; x 25\n', format: 'png' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'TM_CARD_SYNTAX', message: expect.stringMatching(/^card line 4: /) });
    const empty = await post({ text: 'card: Mine\n', format: 'svg' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('TM_CARD_EMPTY');
  });

  it('refuses a format, columns, a field or a text it does not take, with a code', async () => {
    for (const payload of [
      { text: PRACTICE, format: 'jpg' },
      { text: PRACTICE, format: 'png', columns: 3 },
      { text: PRACTICE, format: 'png', width: 4000 },
      { text: PRACTICE },
      { text: 'x'.repeat(20_001), format: 'svg' },
    ]) {
      const r = await post(payload);
      expect(r.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(r.json().code).toBe('TM_BAD_INPUT');
    }
  });

  it('a card too long for one picture is refused as a PNG and drawn as a PDF, over pages', async () => {
    const text = `card: Long\n[Evens]\n${'22a 444a 6666a 888a FF ; x 25\n'.repeat(600)}`;
    expect(text.length).toBeLessThan(20_000);
    const png = await post({ text, format: 'png', columns: 1 });
    expect(png.statusCode).toBe(422);
    expect(png.json()).toMatchObject({ code: 'TM_TOO_COSTLY', message: expect.stringMatching(/draw it as a PDF/) });
    const pdf = await post({ text, format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1').match(/\/Type \/Page\b(?!s)/g)!.length).toBeGreaterThan(5);
  });
});
