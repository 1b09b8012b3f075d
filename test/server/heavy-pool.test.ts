import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { botRng } from '../../agents/bots.js';
import { HeavyPool, type Asker } from '../../api/http/heavy.js';
import type { HeavyTask } from '../../api/http/heavy-tasks.js';
import { loadGame } from '../../engine/registry.js';
import { RecordWriter } from '../../engine/record.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import type { DominoView } from '../../engine/domino/game.js';

/**
 * The worker pool's two lanes (issue 45): a bot's turn never waits behind a request's task,
 * and waiting requests are taken in turn by address, then by person within an address, so one
 * address's queue does not keep another's request waiting behind all of it, nor one person's
 * queue another person's at the same address (a club's tablets). With one request worker the tasks run one after
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

/** A Monte Carlo bot's first Charleston pass: a bot's turn of a few milliseconds. */
const text = readFileSync('cards/practice-2026.card', 'utf8');
const mahJongg = loadGame('mah-jongg', { card: { name: parseCard(text).name, text } });
const deal = mahJongg.newGame(7);
const seat = mahJongg.nextToAct(deal);
const botTurn: Extract<HeavyTask, { kind: 'bot' }> = {
  kind: 'bot',
  game: 'mah-jongg',
  params: { ...mahJongg.params },
  bot: 'montecarlo',
  seat,
  phase: mahJongg.phase(deal) as string,
  view: mahJongg.view(deal, seat),
  legal: mahJongg.legalActions(deal, seat),
  rng: botRng(7),
};

function pool(): HeavyPool {
  const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perPerson: 8, taskMs: 0 });
  pools.push(p);
  return p;
}

describe('the worker pool', () => {
  it("takes waiting requests in turn by address: a second address is not kept behind the first one's whole queue", async () => {
    const p = pool();
    const done: string[] = [];
    const ask = (who: string, n: number) =>
      p.request(advice(20), { address: who, person: who }).then(() => {
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
    await p.request(advice(5), { address: 'r0', person: 'r0' }); // and the request worker with the first request
    const done: string[] = [];
    const requests = [1, 2].map((n) =>
      p.request(longTask, { address: `r${n}`, person: `r${n}` }).then(() => {
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

  it("takes an address's waiting requests in turn by person: one person's queue does not keep another at her address waiting", async () => {
    const p = pool();
    const done: string[] = [];
    const ask = (address: string, person: string, n: number) =>
      p.request(advice(20), { address, person }).then(() => {
        done.push(`${person}${n}`);
      });
    // a1 takes the worker; a2..a4 wait; b1 (another person at a's address) and c1 (another address) come after them
    const asked = [ask('club', 'a', 1), ask('club', 'a', 2), ask('club', 'a', 3), ask('club', 'a', 4), ask('club', 'b', 1), ask('home', 'c', 1)];
    await Promise.all(asked);
    // the turn goes club, home, club...; within the club a, b, a...
    expect(done).toEqual(['a1', 'a2', 'c1', 'b1', 'a3', 'a4']);
  }, 120_000);

  it("holds a person to her share of requests at once, and her address to four people's", async () => {
    const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perPerson: 2, taskMs: 0 });
    pools.push(p);
    const at = (person: string): Asker => ({ address: 'club', person });
    const answers = (asked: Promise<unknown>[]) =>
      Promise.all(
        asked.map((a) =>
          a.then(
            () => 'ok',
            (e: Error & { code?: string }) => e.code,
          ),
        ),
      );
    // she has two in flight: a third is refused in words, while a second person at her address is taken
    const first = [p.request(advice(20), at('a')), p.request(advice(20), at('a'))];
    await expect(p.request(advice(5), at('a'))).rejects.toThrow(/you already have 2 requests/);
    const others = ['b', 'c', 'd'].flatMap((who) => [p.request(advice(5), at(who)), p.request(advice(5), at(who))]);
    // four people's share (8) is the address's: a fifth person there is refused, another address is not
    await expect(p.request(advice(5), at('e'))).rejects.toThrow(/your address already has 8 requests/);
    const elsewhere = p.request(advice(5), { address: 'home', person: 'f' });
    expect(await answers([...first, ...others, elsewhere])).toEqual(Array(9).fill('ok'));
    // done, they count no more
    expect(await answers([p.request(advice(5), at('a')), p.request(advice(5), at('e'))])).toEqual(['ok', 'ok']);
  }, 120_000);
});

describe('a review in the background', () => {
  /** A request of a few hundred milliseconds, within a 400 ms budget. */
  const withinBudget: HeavyTask = { kind: 'analyze', cardText: BIG, body: { ...(longTask as Extract<HeavyTask, { kind: 'analyze' }>).body, simulate: 20 } };
  /** A whole game's record, played by first legal actions. */
  const record = (seed: number): string => {
    const state = mahJongg.newGame(seed);
    const writer = new RecordWriter(mahJongg, seed, ['human', 'random', 'random', 'random']);
    while (!mahJongg.isOver(state)) {
      const a = mahJongg.legalActions(state, mahJongg.nextToAct(state))[0];
      mahJongg.apply(state, a);
      writer.action(a);
    }
    return writer.text(state);
  };

  it("yields to every request: a person's request waits behind at most the one part running, and once she waits for the review its parts take her turn", async () => {
    const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perPerson: 8, taskMs: 400 });
    pools.push(p);
    await p.request(advice(5)); // the worker started
    const events: string[] = [];
    let lead: Asker | null = null;
    const parts: (number | null)[] = [];
    let partDone: () => void = () => {};
    const reviewed = p.background(
      { kind: 'review', record: record(3), seat: 0, worlds: 2 },
      () => lead,
      (next) => {
        parts.push(next);
        events.push('part');
        partDone();
      },
    );
    await new Promise<void>((done) => (partDone = done)); // a part has been done, the next is running
    const asked = [1, 2, 3].map((n) =>
      p.request(advice(20), { address: `a${n}`, person: `a${n}` }).then(() => {
        events.push(`request ${n}`);
      }),
    );
    await Promise.all(asked);
    // behind the part that was running, at most: nothing of the review went between them
    const first = events.indexOf('request 1');
    expect(events.slice(first, first + 3)).toEqual(['request 1', 'request 2', 'request 3']);
    expect(events.slice(1, first).filter((e) => e === 'part').length).toBeLessThanOrEqual(1);
    // she waits for it now: its parts go in her turn, between another address's requests
    lead = { address: 'her', person: 'her' };
    const theirs = [1, 2, 3, 4].map((n) =>
      p.request(advice(20), { address: 'b', person: 'b' }).then(() => {
        events.push(`b ${n}`);
      }),
    );
    await Promise.all(theirs);
    const since = events.slice(events.indexOf('request 3') + 1, events.indexOf('b 4'));
    expect(since.filter((e) => e === 'part').length).toBeGreaterThan(0); // in the background, all of b's would go first
    const review = await reviewed;
    expect(parts.at(-1)).toBeNull();
    expect(parts.length).toBeGreaterThan(2);
    expect(review.decisions.length).toBeGreaterThan(0);
  }, 240_000);

  it('a background part waiting for a spare worker takes her turn the moment she waits for the review (nudge)', async () => {
    const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perPerson: 8, taskMs: 400 });
    pools.push(p);
    await p.request(advice(5)); // the worker started
    const events: string[] = [];
    let lead: Asker | null = null;
    let partDone: () => void = () => {};
    const reviewed = p.background(
      { kind: 'review', record: record(5), seat: 0, worlds: 2 },
      () => lead,
      () => {
        events.push('part');
        partDone();
      },
    );
    const first = new Promise<void>((done) => (partDone = done));
    // another address's three long requests wait behind the first part; the review's next part waits behind all of them
    const theirs = [1, 2, 3].map((n) =>
      p.request(withinBudget, { address: 'b', person: 'b' }).then(() => {
        events.push(`b ${n}`);
      }),
    );
    await first;
    partDone = () => {};
    lead = { address: 'her', person: 'her' };
    p.nudge();
    await Promise.all(theirs);
    // in her turn: between b's requests, not after all of them
    expect(events.indexOf('part', 1)).toBeGreaterThan(-1);
    expect(events.indexOf('part', 1)).toBeLessThan(events.indexOf('b 3'));
    await reviewed;
  }, 240_000);

  it('a background part waiting when the pool closes is refused, never left hanging', async () => {
    const p = new HeavyPool({ threads: 1, botThreads: 1, maxQueue: 32, deadlineMs: 120_000, perPerson: 8, taskMs: 400 });
    const busy = p.request(withinBudget, { address: 'a', person: 'a' }).catch(() => 'stopped');
    await new Promise((next) => setImmediate(next));
    const waiting = p.background({ kind: 'review', record: record(4), seat: 0, worlds: 2 }, () => null).catch((e: Error & { code?: string }) => e.code);
    await p.close();
    expect(await waiting).toBe('TM_BUSY');
    await busy;
  }, 240_000);
});
