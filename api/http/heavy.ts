import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { TilemateError } from '../../engine/errors.js';
import { DEFAULT_LIMITS, PEOPLE_PER_ADDRESS } from '../shared/limits.js';
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
 *     address, and within an address in turn by person** (round robin), not in the order they
 *     came: a person asking for one hint waits behind at most one task of each other address,
 *     however many that address has queued, and, at a club where the tablets share one
 *     address, behind at most one task of each other person there.
 *
 * No request's task holds a worker much more than `taskMs`: the work it asks for is estimated
 * before it is done and refused above that (TM_TOO_COSTLY, api/http/task-cost.ts), and a
 * review, whose work grows with the game, is run in parts of half that, each part taking its
 * turn again (and the deadline again), so others' requests go between them.
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
  /** Requests' tasks one person may have queued or running at once (an address: `PEOPLE_PER_ADDRESS` times this). */
  perPerson: number;
  /** The estimated work one request's task may ask for (ms of a worker; 0: no limit). */
  taskMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = {
  threads: DEFAULT_LIMITS.threads,
  botThreads: DEFAULT_LIMITS.botThreads,
  maxQueue: DEFAULT_LIMITS.maxQueue,
  deadlineMs: DEFAULT_LIMITS.deadlineMs,
  perPerson: DEFAULT_LIMITS.heavyAtOnce,
  taskMs: DEFAULT_LIMITS.taskMs,
};

/** The compiled worker; from TypeScript sources (tests), the one `npm run build` compiled. */
function workerFile(): string | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/api/http/heavy.worker.js', here) : new URL('./heavy.worker.js', here);
  return existsSync(fileURLToPath(url)) ? url.href : null;
}

/**
 * Who asks for a request's task: her address, and the person (her session, else her game's
 * token, else the address itself: api/http/accounts.ts `asker`).
 */
export interface Asker {
  address: string;
  person: string;
}

/** Asked from this process (a command line, a test): one address, one person. */
export const LOCAL: Asker = { address: 'local', person: 'local' };

/** A request waiting for a worker of the requests' lane. */
interface Waiting {
  go: () => void;
}

/** Waiting entries, the oldest first. */
class Fifo<T> {
  private readonly items: T[] = [];
  get empty(): boolean {
    return this.items.length === 0;
  }
  add(_path: readonly string[], item: T): void {
    this.items.push(item);
  }
  take(): T {
    return this.items.shift()!;
  }
  remove(_path: readonly string[], item: T): boolean {
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
    return i >= 0;
  }
}

/**
 * Waiting entries taken in turn by the first key of their path (round robin), each key's own
 * entries taken as `inner` takes them: a key goes to the back of the turn once it has had one.
 */
class Turns<T> {
  private readonly queues = new Map<string, Fifo<T> | Turns<T>>();
  private readonly order: string[] = [];
  constructor(private readonly inner: () => Fifo<T> | Turns<T>) {}
  get empty(): boolean {
    return this.order.length === 0;
  }
  add([key, ...rest]: readonly string[], item: T): void {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = this.inner();
      this.queues.set(key, queue);
      this.order.push(key);
    }
    queue.add(rest, item);
  }
  take(): T {
    const key = this.order.shift()!;
    const queue = this.queues.get(key)!;
    const item = queue.take();
    if (queue.empty) this.queues.delete(key);
    else this.order.push(key);
    return item;
  }
  remove([key, ...rest]: readonly string[], item: T): boolean {
    const queue = this.queues.get(key);
    if (queue === undefined || !queue.remove(rest, item)) return false;
    if (queue.empty) {
      this.queues.delete(key);
      this.order.splice(this.order.indexOf(key), 1);
    }
    return true;
  }
}

/** Adds `by` to `key`'s count, dropping a count that comes to 0. */
function tally(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}

export class HeavyPool {
  private readonly pool: Piscina | null;
  private readonly botPool: Piscina | null;
  private pending = 0;
  /** Requests' tasks queued or running, by address and by person. */
  private readonly byAddress = new Map<string, number>();
  private readonly byPerson = new Map<string, number>();
  /** Requests' tasks given to the workers and not done. */
  private inWorkers = 0;
  /** Requests waiting for a free worker, in turn by address, then by person. */
  private readonly waiting = new Turns<Waiting>(() => new Turns<Waiting>(() => new Fifo<Waiting>()));

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
   * A request's task, asked by `from` (TM_BUSY when the queue is full, or the person or her
   * address already has its share in it; TM_TOO_SLOW past the deadline).
   */
  async request<T>(task: HeavyTask, from: Asker = LOCAL): Promise<T> {
    const hers = this.byPerson.get(from.person) ?? 0;
    if (hers >= this.limits.perPerson) {
      throw new TilemateError('TM_BUSY', `you already have ${hers} requests that play deals out being worked out; wait for their answers`);
    }
    const address = this.byAddress.get(from.address) ?? 0;
    if (address >= this.limits.perPerson * PEOPLE_PER_ADDRESS) {
      throw new TilemateError('TM_BUSY', `your address already has ${address} requests that play deals out being worked out; wait for their answers`);
    }
    if (this.pending >= this.limits.maxQueue) {
      throw new TilemateError('TM_BUSY', `the server is busy with ${this.pending} requests that play deals out; try again in a few seconds`);
    }
    this.pending++;
    tally(this.byPerson, from.person, 1);
    tally(this.byAddress, from.address, 1);
    try {
      const budgeted = { ...task, budgetMs: this.limits.taskMs };
      if (budgeted.kind === 'review') return (await this.review(budgeted, from)) as T;
      return await this.run<T>(budgeted, from, AbortSignal.timeout(this.limits.deadlineMs));
    } finally {
      this.pending--;
      tally(this.byPerson, from.person, -1);
      tally(this.byAddress, from.address, -1);
    }
  }

  /**
   * A review in parts of about half the budget each, each taking its turn in the queue (with a
   * deadline of its own: four friends' reviews made side by side each take about four times as
   * long as one alone, and none is given up while its parts keep moving), joined.
   */
  private async review(task: Extract<HeavyTask, { kind: 'review' }>, asker: Asker): Promise<ReviewJson> {
    const parts: ReviewPart[] = [];
    let from: number | null = 1;
    while (from !== null) {
      const part: ReviewPart = await this.run<ReviewPart>({ ...task, from, sliceMs: this.limits.taskMs / 2 }, asker, AbortSignal.timeout(this.limits.deadlineMs));
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

  /** A request's task (or a review's part), once its asker's turn has come and a worker is free. */
  private async run<T>(task: HeavyTask, from: Asker, signal: AbortSignal): Promise<T> {
    if (this.pool === null) return value<T>(runTask(task));
    await this.slot([from.address, from.person], signal);
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

  /** Waits until a worker is free and the asker's turn (`[address, person]`) has come (TM_TOO_SLOW past the deadline); the worker is then counted as taken. */
  private slot(path: readonly string[], signal: AbortSignal): Promise<void> {
    if (this.waiting.empty && this.inWorkers < this.limits.threads) {
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
        this.waiting.remove(path, entry);
        reject(this.tooSlow());
      };
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      this.waiting.add(path, entry);
      this.dispatch();
    });
  }

  /** Starts waiting requests while workers are free: the next address in turn, its next person in turn, her oldest request. */
  private dispatch(): void {
    while (!this.waiting.empty && this.inWorkers < this.limits.threads) this.waiting.take().go();
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
