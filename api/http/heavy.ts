import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { TilemateError } from '../../engine/errors.js';
import { DEFAULT_LIMITS } from '../shared/limits.js';
import { joinReview, type ReviewPart } from '../../agents/coach/review.js';
import { reviewJson, type ReviewJson } from '../shared/wire.js';
import { runTask, type BotMove, type HeavyTask, type TaskResult } from './heavy-tasks.js';

/**
 * The practice server's worker pools (piscina): advice, hints, reviews, simulations and the
 * searching bots' turns run here, off the event loop, so light requests (health, the card,
 * looking at a game, a medium bot's game) keep answering while they think.
 *
 * Two lanes, so a game never waits behind someone's heavy request (issue 45):
 *   - **the bots' lane**: the searching bots' turns, on workers of their own (`botThreads`). A
 *     bot's turn is neither refused nor cut short: each game has at most one in flight, and its
 *     cost is fixed by the bot's level, so a game can always go on, and it waits only behind
 *     other games' bot turns, never behind a request.
 *   - **the requests' lane** (`threads` workers): a request's task waits in a bounded queue (a
 *     full queue is 503 TM_BUSY at once) with a deadline from the moment it is queued (503
 *     TM_TOO_SLOW; the worker running it is stopped). Waiting requests are taken **in turn by
 *     address** (round robin), not in the order they came: a person asking for one hint waits
 *     behind at most one task of each other address, however many that address has queued.
 *
 * No request's task holds a worker much more than `taskMs`: the work it asks for is estimated
 * before it is done and refused above that (TM_TOO_COSTLY, api/http/task-cost.ts), and a
 * review, whose work grows with the game, is run in parts of half that, each part taking its
 * turn again, so others' requests go between them.
 */

export interface PoolLimits {
  /** Worker threads for requests (0: run every task on the event loop, as a command line does). */
  threads: number;
  /** Worker threads for the bots' turns (used only when `threads` > 0). */
  botThreads: number;
  /** Requests' tasks waiting or running at once; one more is refused. */
  maxQueue: number;
  /** A request's task is stopped this long after it was queued (ms). */
  deadlineMs: number;
  /** Requests' tasks one address may have queued or running at once. */
  perAddress: number;
  /** The estimated work one request's task may ask for (ms of a worker; 0: no limit). */
  taskMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = {
  threads: DEFAULT_LIMITS.threads,
  botThreads: DEFAULT_LIMITS.botThreads,
  maxQueue: DEFAULT_LIMITS.maxQueue,
  deadlineMs: DEFAULT_LIMITS.deadlineMs,
  perAddress: DEFAULT_LIMITS.heavyAtOnce,
  taskMs: DEFAULT_LIMITS.taskMs,
};

/** The compiled worker; from TypeScript sources (tests), the one `npm run build` compiled. */
function workerFile(): string | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/api/http/heavy.worker.js', here) : new URL('./heavy.worker.js', here);
  return existsSync(fileURLToPath(url)) ? url.href : null;
}

/** A request waiting for a worker of the requests' lane. */
interface Waiting {
  go: () => void;
}

export class HeavyPool {
  private readonly pool: Piscina | null;
  private readonly botPool: Piscina | null;
  private pending = 0;
  private readonly byAddress = new Map<string, number>();
  /** Requests' tasks given to the workers and not done. */
  private inWorkers = 0;
  /** Requests waiting for a free worker, by address; `turns` is the round robin of addresses with some waiting. */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly turns: string[] = [];

  constructor(readonly limits: PoolLimits = DEFAULT_POOL_LIMITS) {
    const file = limits.threads > 0 ? workerFile() : null;
    // the workers start with the first task of their lane, so a start is quicker (a listening
    // server warms the requests' workers as soon as it is ready: warm()), and are kept while used
    const lane = (threads: number) => new Piscina({ filename: file!, minThreads: 0, maxThreads: Math.max(1, threads), idleTimeout: 10 * 60_000 });
    this.pool = file === null ? null : lane(limits.threads);
    this.botPool = file === null ? null : lane(limits.botThreads);
  }

  /**
   * Starts the requests' workers with `task` (a small one), one each, so the first request
   * does not wait for a worker to load; a failure is left to the first request to meet.
   */
  warm(task: HeavyTask): void {
    if (this.pool === null) return;
    for (let i = 0; i < this.limits.threads; i++) this.pool.run(task).catch(() => {});
  }

  /** Tasks of requests waiting or running now. */
  get queued(): number {
    return this.pending;
  }

  /**
   * A request's task, from `address` (TM_BUSY when the queue is full or the address already
   * has its share in it, TM_TOO_SLOW past the deadline).
   */
  async request<T>(task: HeavyTask, address = 'local'): Promise<T> {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.limits.perAddress) {
      throw new TilemateError('TM_BUSY', `this address already has ${mine} requests that play deals out being worked out; wait for their answers`);
    }
    if (this.pending >= this.limits.maxQueue) {
      throw new TilemateError('TM_BUSY', `the server is busy with ${this.pending} requests that play deals out; try again in a few seconds`);
    }
    this.pending++;
    this.byAddress.set(address, mine + 1);
    try {
      const signal = AbortSignal.timeout(this.limits.deadlineMs);
      const budgeted = { ...task, budgetMs: this.limits.taskMs };
      if (budgeted.kind === 'review') return (await this.review(budgeted, address, signal)) as T;
      return await this.run<T>(budgeted, address, signal);
    } finally {
      this.pending--;
      const left = this.byAddress.get(address)! - 1;
      if (left === 0) this.byAddress.delete(address);
      else this.byAddress.set(address, left);
    }
  }

  /** A review in parts of about half the budget each, each taking its turn in the queue, joined. */
  private async review(task: Extract<HeavyTask, { kind: 'review' }>, address: string, signal: AbortSignal): Promise<ReviewJson> {
    const parts: ReviewPart[] = [];
    let from: number | null = 1;
    while (from !== null) {
      const part: ReviewPart = await this.run<ReviewPart>({ ...task, from, sliceMs: this.limits.taskMs / 2 }, address, signal);
      parts.push(part);
      from = part.next;
    }
    return reviewJson(joinReview(parts));
  }

  /** A searching bot's turn, in the bots' lane. */
  async bot(task: Extract<HeavyTask, { kind: 'bot' }>): Promise<BotMove> {
    const result = this.botPool === null ? runTask(task) : ((await this.botPool.run(task)) as TaskResult);
    return value<BotMove>(result);
  }

  private readonly tooSlow = () =>
    new TilemateError(
      'TM_TOO_SLOW',
      `the server could not answer within ${Math.round(this.limits.deadlineMs / 1000)} s (it is busy, or the request asks for too many sampled deals); try again with fewer`,
    );

  /** A request's task (or a review's part), once its address's turn has come and a worker is free. */
  private async run<T>(task: HeavyTask, address: string, signal: AbortSignal): Promise<T> {
    if (this.pool === null) return value<T>(runTask(task));
    await this.slot(address, signal);
    try {
      return value<T>((await this.pool.run(task, { signal })) as TaskResult);
    } catch (err) {
      if (signal.aborted) throw this.tooSlow();
      throw err;
    } finally {
      this.inWorkers--;
      this.dispatch();
    }
  }

  /** Waits until a worker is free for `address`'s turn (TM_TOO_SLOW past the deadline); the worker is then counted as taken. */
  private slot(address: string, signal: AbortSignal): Promise<void> {
    if (this.turns.length === 0 && this.inWorkers < this.limits.threads) {
      this.inWorkers++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        go: () => {
          signal.removeEventListener('abort', gone);
          this.inWorkers++;
          resolve();
        },
      };
      const gone = () => {
        this.leave(address, entry);
        reject(this.tooSlow());
      };
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      const queue = this.waiting.get(address);
      if (queue === undefined) {
        this.waiting.set(address, [entry]);
        this.turns.push(address);
      } else {
        queue.push(entry);
      }
      this.dispatch();
    });
  }

  private leave(address: string, entry: Waiting): void {
    const queue = this.waiting.get(address);
    const i = queue?.indexOf(entry) ?? -1;
    if (i < 0) return;
    queue!.splice(i, 1);
    if (queue!.length === 0) {
      this.waiting.delete(address);
      this.turns.splice(this.turns.indexOf(address), 1);
    }
  }

  /** Starts waiting requests while workers are free: the next address in turn, its oldest request. */
  private dispatch(): void {
    while (this.turns.length > 0 && this.inWorkers < this.limits.threads) {
      const address = this.turns.shift()!;
      const queue = this.waiting.get(address)!;
      const entry = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(address);
      else this.turns.push(address);
      entry.go();
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool?.destroy(), this.botPool?.destroy()]);
  }
}

/** A task's answer, or its refusal as the error it names. */
function value<T>(result: TaskResult): T {
  if (!result.ok) throw new TilemateError(result.code, result.message);
  return result.value as T;
}
