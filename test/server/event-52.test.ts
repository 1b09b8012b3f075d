import { describe, it } from 'vitest';
import { runEvent } from './event-run.js';
import { server } from './helpers.js';

/** The event (issue 47): 52 players at 13 tables, 4 rounds, run whole over HTTP as people would enter it (test/server/event-run.ts). */

describe('a club event of 52 players', () => {
  it('13 tables, 4 rounds: wrong cards caught, a late arrival, a withdrawal, a Director’s change; standings as the rules count; the rotation as rule 20 says', async () => {
    await runEvent(await server(), 52, 4);
  }, 600_000);
});
