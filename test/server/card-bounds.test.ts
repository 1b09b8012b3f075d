import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureOutput, run } from '../api/capture.js';
import { explosiveCard } from '../engine/explosive-card.js';
import { call, server } from './helpers.js';

/** A card whose lines multiply into millions of forms is refused wherever a card enters. */

let err = '';
captureOutput(
  (stream, chunk) => {
    if (stream === 'err') err += chunk;
  },
  () => {
    err = '';
  },
);

const HAND = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J';
const header = (k: number) =>
  JSON.stringify({ format: 'tilemate-record', version: 1, ruleset: 'nmjl-4p', card: { name: 'Boom', text: explosiveCard(k) }, seed: 1, seats: ['human', 'medium', 'medium', 'medium'] });

describe('an explosive card is refused, naming its line', () => {
  it('in the body of /api/analyze, /api/charleston and /api/advice: 400 TM_CARD_SYNTAX', async () => {
    const app = await server();
    for (const k of [6, 7]) {
      const card = explosiveCard(k);
      for (const [url, payload] of [
        ['/api/analyze', { hand: HAND, card }],
        ['/api/charleston', { hand: HAND, direction: 'right', card }],
        ['/api/advice', { question: 'discard', hand: HAND, card, worlds: 1 }],
      ] as const) {
        const r = await call(app, { method: 'POST', url, payload });
        expect(r.status, url).toBe(400);
        expect(r.body, url).toMatchObject({ code: 'TM_CARD_SYNTAX', message: expect.stringMatching(/card line 3: Boom #1 makes/) });
      }
    }
    expect((await call(app, { method: 'GET', url: '/api/health' })).status).toBe(200);
    await app.close();
  });

  it("in an uploaded record's header: 400 TM_BAD_RECORD naming the card line", async () => {
    const app = await server();
    const r = await call(app, { method: 'POST', url: '/api/review', payload: { record: `${header(7)}\n`, seat: 0 } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'TM_BAD_RECORD', message: expect.stringMatching(/record line 1: the card does not load: card line 3: Boom #1 makes/) });
    await app.close();
  });

  it('from the command line: analyze --card and replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-card-'));
    writeFileSync(join(dir, 'boom.card'), explosiveCard(7));
    writeFileSync(join(dir, 'boom.jsonl'), `${header(7)}\n`);
    expect(await run('analyze', '--hand', HAND, '--card', join(dir, 'boom.card'))).not.toBe(0);
    expect(err).toMatch(/TM_CARD_SYNTAX.*card line 3: Boom #1 makes/);
    err = '';
    expect(await run('replay', join(dir, 'boom.jsonl'))).not.toBe(0);
    expect(err).toMatch(/TM_BAD_RECORD.*Boom #1 makes/);
  });
});
