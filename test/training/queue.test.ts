import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { readCardText } from '../../io/cards.js';
import { connectionOf, decodeResult, encodeResult, TRAIN_QUEUE } from '../../training/queue.js';
import { train, type TrainOptions } from '../../training/train.js';

/**
 * Training spread over processes through Redis (training/queue.ts): a learner (this test) and
 * two actor processes (`tilemate actor`, from the compiled files), one killed with SIGKILL while
 * it plays a job. The run must finish with exactly the examples a one-machine run makes from
 * the same seeds: none lost with the killed actor, none counted twice. Needs a Redis server:
 * TILEMATE_TEST_REDIS_URL (.ci/run sets it); each run under a key prefix of its own, removed after.
 */
const REDIS = process.env.TILEMATE_TEST_REDIS_URL || undefined;

describe('results over the wire', () => {
  it("carries the examples' typed arrays exactly, and everything else as it is", () => {
    const x = new Float32Array([0.1, -2.5, Math.PI, 1e-30, 0]);
    const value = { x, y: new Float32Array(new SharedArrayBuffer(8)), rows: 2, stats: { games: 3, names: ['a'] }, list: [{ x }] };
    const back = decodeResult(JSON.parse(JSON.stringify(encodeResult(value)))) as typeof value;
    expect(back.x).toBeInstanceOf(Float32Array);
    expect([...back.x]).toEqual([...x]);
    expect([...back.y]).toEqual([0, 0]);
    expect(back.rows).toBe(2);
    expect(back.stats).toEqual({ games: 3, names: ['a'] });
    expect([...back.list[0].x]).toEqual([...x]);
  });

  it("refuses an address that is not Redis's, naming it", () => {
    expect(() => connectionOf('http://example.org')).toThrow(/"http:\/\/example.org" is not a Redis address/);
    expect(connectionOf('redis://10.0.0.2:6380/3')).toMatchObject({ host: '10.0.0.2', port: 6380, db: 3, maxRetriesPerRequest: null });
  });
});

describe.skipIf(REDIS === undefined)('self-play over Redis with two actor processes', () => {
  const prefix = `tmtest-${process.pid}-${randomBytes(4).toString('hex')}`;
  const actors: ChildProcess[] = [];
  afterAll(async () => {
    for (const a of actors) a.kill('SIGKILL');
    const q = new Queue(TRAIN_QUEUE, { connection: connectionOf(REDIS!), prefix });
    await q.obliterate({ force: true });
    await q.close();
  });

  function actor(): { child: ChildProcess; log: () => string } {
    const child = spawn(process.execPath, ['bin/tilemate.js', 'actor', '--redis', REDIS!, '--queue-prefix', prefix, '--threads', '1', '--lock-seconds', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (d) => {
      text += d;
    });
    child.stderr!.on('data', (d) => {
      text += d;
    });
    actors.push(child);
    return { child, log: () => text };
  }

  const base = (out: string): TrainOptions => ({
    out,
    generations: 1,
    games: 200,
    workers: 1,
    seed: 11,
    resume: false,
    cards: [{ name: 'the practice card', text: readCardText() }],
    ruleset: 'nmjl-4p',
    evalDeals: 10,
    window: 1,
    epochs: 1,
    learningRate: 1e-3,
    play: { explore: 0.1, scoreWeight: 0, allLearned: 0.5, lambda: 0.9 },
    agreementGames: 0,
    command: 'test',
  });

  it("finishes a generation with a killed actor's job played again, and the same examples as one machine", async () => {
    const a = actor(),
      b = actor();
    const until = async (ok: () => boolean, what: string, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}; actors said:\n${a.log()}\n${b.log()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(() => /actor ready/.test(a.log()) && /actor ready/.test(b.log()), 'both actors to be ready');

    const events = new QueueEvents(TRAIN_QUEUE, { connection: connectionOf(REDIS!), prefix });
    await events.waitUntilReady();
    const stalled: string[] = [];
    events.on('stalled', ({ jobId }) => {
      stalled.push(jobId);
    });
    const queue = new Queue(TRAIN_QUEUE, { connection: connectionOf(REDIS!), prefix });

    const out = mkdtempSync(join(tmpdir(), 'tm-queue-'));
    const run = train({ ...base(out), queue: { url: REDIS!, prefix } });
    // SIGKILL the first actor while it holds a job (processedBy names its process)
    const find = async () => {
      const end = Date.now() + 60_000;
      while (Date.now() < end) {
        const active = await queue.getActive();
        const held = active.find((j) => j.processedBy?.endsWith(`:${a.child.pid}`));
        if (held) return held.id!;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`the first actor never held a job; it said:\n${a.log()}`);
    };
    const victim = await find();
    a.child.kill('SIGKILL');
    const { log } = await run;
    expect(log).toHaveLength(1);
    expect(stalled).toContain(victim); // its job went back to the queue and was played by the other actor
    expect(b.log()).toMatch(/job \d+: /);
    // the learner took each result once and removed its job: no examples left in Redis's memory
    expect(await queue.getJobCounts('completed', 'waiting', 'active', 'delayed')).toMatchObject({ completed: 0, waiting: 0, active: 0, delayed: 0 });

    const local = mkdtempSync(join(tmpdir(), 'tm-queue-local-'));
    await train(base(local));
    // the same examples, byte for byte: nothing lost, nothing twice
    expect(readFileSync(join(out, 'examples-001.bin')).equals(readFileSync(join(local, 'examples-001.bin')))).toBe(true);
    await events.close();
    await queue.close();
  }, 240_000);

  it('plays a run on two cards, each job carrying its card, with the same examples as one machine', async () => {
    const c = actor();
    const end = Date.now() + 60_000;
    while (!/actor ready/.test(c.log())) {
      if (Date.now() > end) throw new Error(`the actor never got ready:\n${c.log()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const cards = ['practice', 'garden'].map((n) => ({ name: `cards/${n}-2026.card`, text: readCardText(`cards/${n}-2026.card`) }));
    const two = (out: string): TrainOptions => ({ ...base(out), cards, games: 20, evalDeals: 2, agreementGames: 1 });
    const out = mkdtempSync(join(tmpdir(), 'tm-queue-cards-'));
    const { log } = await train({ ...two(out), queue: { url: REDIS!, prefix } });
    expect(log[0].cards?.map((k) => [k.card, k.games])).toEqual([
      ['cards/practice-2026.card', 10],
      ['cards/garden-2026.card', 10],
    ]);
    expect(c.log()).toMatch(/job \d+: /);
    const local = mkdtempSync(join(tmpdir(), 'tm-queue-cards-local-'));
    const alone = await train(two(local));
    expect(readFileSync(join(out, 'examples-001.bin')).equals(readFileSync(join(local, 'examples-001.bin')))).toBe(true);
    expect(alone.log[0].cards?.map((k) => k.selfPlayExamples)).toEqual(log[0].cards?.map((k) => k.selfPlayExamples));
    const queue = new Queue(TRAIN_QUEUE, { connection: connectionOf(REDIS!), prefix });
    expect(await queue.getJobCounts('completed', 'waiting', 'active', 'delayed')).toMatchObject({ completed: 0, waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  }, 240_000);
});
