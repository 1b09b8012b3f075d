import { describe, expect, it } from 'vitest';
import { call, newJar, server } from './helpers.js';

/** A Mah Jongg table names the card it plays on to anyone who looks at it (issue 29: "the table never says which card is in play"). */

const MY_CARD = "card: Ruth's club card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n[Winds]\nNNNN EEE WWW SSSS ; c 40\n";

describe("a table's card", () => {
  it("a table on a saved card tells everyone its name; one on the server's card names that; Mexican Train names none", async () => {
    const app = await server();
    const jar = newJar();
    expect((await call(app, { method: 'PUT', url: '/api/cards/club', payload: { text: MY_CARD } }, jar)).status).toBe(200);
    const mine = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'Ruth', card: 'club' } }, jar);
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    // someone who is not seated (no cookie of hers) looks the table up
    const seen = await call(app, { method: 'GET', url: `/api/tables/${mine.body.code}` }, newJar());
    expect(seen.body.card).toBe("Ruth's club card");

    const practice = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mah-jongg', name: 'Ann' } }, newJar());
    const health = await call(app, { method: 'GET', url: '/api/health' }, newJar());
    expect((await call(app, { method: 'GET', url: `/api/tables/${practice.body.code}` }, newJar())).body.card).toBe(health.body.card);

    const train = await call(app, { method: 'POST', url: '/api/tables', payload: { game: 'mexican-train', name: 'Bea', players: 3 } }, newJar());
    expect((await call(app, { method: 'GET', url: `/api/tables/${train.body.code}` }, newJar())).body.card).toBeUndefined();
  });
});
