import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { botRng } from '../../agents/bots.js';
import { HeavyPool } from '../../api/http/heavy.js';
import type { HeavyTask } from '../../api/http/heavy-tasks.js';
import { loadGame } from '../../engine/registry.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import type { DominoView } from '../../engine/domino/game.js';

/**
 * The worker pool's two lanes (issue 45): a bot's turn never waits behind a request's task,
 * and waiting requests are taken in turn by address, so one address's queue does not keep
 * another's request waiting behind all of it. With one request worker the tasks run one after
 * another, so the order they finish in is the order they were given a worker.
 */

const pools: HeavyPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const domino = loadGame('mexican-train', {});
const table = domino.newGame(7);
/** A domino hint: a request's task of a few milliseconds. */
const advice = (worlds: number): HeavyTask => ({ kind: 'domino-advice', view: domino.view(table, domino.nextToAct(table)) as DominoView, worlds, seed: 1 });

/** 4 lines of `|` alternatives: 17,496 forms; simulating 100 deals of it holds a worker about a second. */
const pungs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(3) + 'a').join('|');
const kongs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(4) + 'b').join('|');
const pairs = Array.from({ length: 9 }, (_, r) => `${r + 1}`.repeat(2) + 'c').join('|');
const BIG = `card: Big\n[Big]\n${[0, 1, 2, 3].map((i) => `${pungs} ${kongs} ${pairs} NNNN F ; x ${25 + i}`).join('\n')}\n`;
const longTask: HeavyTask = { kind: 'analyze', cardText: BIG, body: { hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N', simulate: 100 } };

/** A hard bot's first Charleston pass: a bot's turn of a few milliseconds. */
const text = readFileSync('cards/practice-2026.card', 'utf8');
const mahJongg = loadGame('mah-jongg', { card: { name: parseCard(text).name, text } });
const deal = mahJongg.newGame(7);
const seat = mahJongg.nextToAct(deal);
const botTurn: Extract<HeavyTask, { kind: 'bot' }> = {
  kind: 'bot',
  game: 'mah-jongg',
  params: { ...mahJongg.params },
  bot: 'hard',
  seat,
  phase: mahJongg.phase(deal) as string,
  view: mahJongg.view(deal, seat),
  legal: mahJongg.legalActions(deal, seat),
  rng: botRng(7),
};

function pool(): HeavyPool {
  const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perAddress: 8, taskMs: 0 });
  pools.push(p);
  return p;
}

describe('the worker pool', () => {
  it("takes waiting requests in turn by address: a second address is not kept behind the first one's whole queue", async () => {
    const p = pool();
    const done: string[] = [];
    const ask = (who: string, n: number) =>
      p.request(advice(20), who).then(() => {
        done.push(`${who}${n}`);
      });
    // a1 takes the worker; a2..a4 wait; b1 comes after them
    const asked = [ask('a', 1), ask('a', 2), ask('a', 3), ask('a', 4), ask('b', 1)];
    await Promise.all(asked);
    expect(done).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  }, 120_000);

  it("plays a bot's turn in a lane of its own: it does not wait for the request a worker is running", async () => {
    const p = pool();
    await p.bot(botTurn); // the bots' worker starts with the first turn
    await p.request(advice(5), 'r0'); // and the request worker with the first request
    const done: string[] = [];
    const requests = [1, 2].map((n) =>
      p.request(longTask, `r${n}`).then(() => {
        done.push(`request ${n}`);
      }),
    );
    await new Promise((next) => setImmediate(next)); // request 1 has gone to the worker
    const move = await p.bot(botTurn);
    done.push('bot');
    await Promise.all(requests);
    expect(mahJongg.legalActions(deal, seat).map((a) => a.type)).toContain(move.action.type);
    expect(done).toEqual(['bot', 'request 1', 'request 2']);
  }, 120_000);
});
