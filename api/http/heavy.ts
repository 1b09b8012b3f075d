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
 *
 * **The background** (a finished game's review nobody has asked for yet, api/http/reviews.ts):
 * counted apart from the requests, so it never makes one busy; each of its parts waits until no
 * request is waiting and no other background part is in a worker (and, with more than one
 * worker, one stays free for requests), the players' background reviews in turn. So a person's
 * request waits behind at most one background part, about half a budget; once a person waits
 * for that review (she opened it), its next parts take her turn as her own request would.
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

/** A request waiting for a worker of the requests' lane (or a background review's part). */
interface Waiting {
  go: () => void;
  /** The server is closing: the part will never run. */
  fail: (err: Error) => void;
  /** A background part someone now waits for: it leaves the background for her turn (true), or stays (false). */
  promote?: () => boolean;
}

/** A review as a task: the record, the seat, the worlds (`from` and `sliceMs` are the pool's). */
export type ReviewTask = Extract<HeavyTask, { kind: 'review' }>;

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
  /** Background reviews' parts waiting for the requests to leave a worker to spare, oldest first (each review has at most one waiting, so they take turns). */
  private readonly idle: Waiting[] = [];
  /** Background parts in a worker (at most one). */
  private inBackground = 0;
  /** Everything waiting, requests and background parts, to be refused when the pool closes. */
  private readonly queuedEntries = new Set<Waiting>();
  private closed = false;

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
  async request<T>(task: HeavyTask, from: Asker = LOCAL, onPart?: (next: number | null) => void): Promise<T> {
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
      if (budgeted.kind === 'review') return (await this.review(budgeted, () => from, onPart)) as T;
      return await this.run<T>(budgeted, from, this.limits.deadlineMs);
    } finally {
      this.pending--;
      tally(this.byPerson, from.person, -1);
      tally(this.byAddress, from.address, -1);
    }
  }

  /**
   * A review nobody is waiting for yet, in the background (see above): each part runs when the
   * requests leave a worker to spare, unless `lead()` names a person now waiting for it, whose
   * turn the part then takes. Not counted among the requests: the caller bounds how many it
   * starts (api/http/reviews.ts).
   */
  background(task: ReviewTask, lead: () => Asker | null, onPart?: (next: number | null) => void): Promise<ReviewJson> {
    return this.review({ ...task, budgetMs: this.limits.taskMs }, lead, onPart);
  }

  /** Whether tasks run on worker threads (else on the event loop, where nothing may run in the background). */
  get threaded(): boolean {
    return this.pool !== null;
  }

  /**
   * A review in parts of about half the budget each, each taking its turn in the queue (with a
   * deadline of its own: four friends' reviews made side by side each take about four times as
   * long as one alone, and none is given up while its parts keep moving), joined. `lead()` is
   * asked before each part: whose turn it takes (null: the background's); `onPart` is told
   * where the next part starts (null: done).
   */
  private async review(task: ReviewTask, lead: () => Asker | null, onPart?: (next: number | null) => void): Promise<ReviewJson> {
    const parts: ReviewPart[] = [];
    let from: number | null = 1;
    while (from !== null) {
      const part: ReviewPart = await this.run<ReviewPart>({ ...task, from, sliceMs: this.limits.taskMs / 2 }, lead(), this.limits.deadlineMs, lead);
      parts.push(part);
      from = part.next;
      onPart?.(from);
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

  /**
   * A request's task (or a review's part), once its asker's turn has come and a worker is free
   * (`from` null: a background part, once the requests leave a worker to spare). A request's
   * deadline runs from the moment it is queued; a background part's from the moment it starts.
   */
  private async run<T>(task: HeavyTask, from: Asker | null, deadlineMs: number, lead?: () => Asker | null): Promise<T> {
    if (this.pool === null) return value<T>(runTask(task));
    // a background part waits in the background until a worker is spare, or until someone waits for it (`lead`)
    const asker = from ?? (await this.idleSlot(lead ?? (() => null)));
    const queued = asker === null ? null : AbortSignal.timeout(deadlineMs);
    if (asker !== null) await this.slot([asker.address, asker.person], queued!);
    const signal = queued ?? AbortSignal.timeout(deadlineMs);
    try {
      return value<T>((await this.pool.run(task, { signal })) as TaskResult);
    } catch (err) {
      if (signal.aborted) throw this.tooSlow();
      throw err;
    } finally {
      this.inWorkers--;
      if (asker === null) this.inBackground--;
      this.dispatch();
    }
  }

  /**
   * A background review now has someone waiting for it (api/http/reviews.ts): its part waiting in
   * the background leaves it for her turn among the requests.
   */
  nudge(): void {
    for (const entry of [...this.idle]) entry.promote?.();
  }

  /** Waits until a worker is free and the asker's turn (`[address, person]`) has come (TM_TOO_SLOW past the deadline); the worker is then counted as taken. */
  private slot(path: readonly string[], signal: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(this.closing());
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
        fail: (err) => {
          signal.removeEventListener('abort', gone);
          reject(err);
        },
      };
      const gone = () => {
        this.waiting.remove(path, entry);
        this.queuedEntries.delete(entry);
        reject(this.tooSlow());
      };
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      this.waiting.add(path, entry);
      this.queuedEntries.add(entry);
      this.dispatch();
    });
  }

  /**
   * Waits until a background part may take a worker (dispatch: `idleFree`), then counts the
   * worker as taken (null); or, once `lead()` names a person waiting for it (nudge), leaves the
   * background and answers her, whose turn the part then takes.
   */
  private idleSlot(lead: () => Asker | null): Promise<Asker | null> {
    if (this.closed) return Promise.reject(this.closing());
    return new Promise<Asker | null>((resolve, reject) => {
      const entry: Waiting = {
        go: () => {
          this.inWorkers++;
          this.inBackground++;
          resolve(null);
        },
        fail: reject,
        promote: () => {
          const asker = lead();
          if (asker === null) return false;
          this.idle.splice(this.idle.indexOf(entry), 1);
          this.queuedEntries.delete(entry);
          resolve(asker);
          return true;
        },
      };
      this.idle.push(entry);
      this.queuedEntries.add(entry);
      this.dispatch();
    });
  }

  /** A background part may start: no request waits, no other background part runs, and (with more than one worker) one stays free for requests. */
  private get idleFree(): boolean {
    const spare = this.limits.threads > 1 ? 1 : 0;
    return this.waiting.empty && this.idle.length > 0 && this.inBackground === 0 && this.inWorkers + spare < this.limits.threads;
  }

  /** Starts waiting requests while workers are free: the next address in turn, its next person in turn, her oldest request; then a background part, when the requests leave room. */
  private dispatch(): void {
    for (;;) {
      let next: Waiting;
      if (!this.waiting.empty && this.inWorkers < this.limits.threads) next = this.waiting.take();
      else if (this.idleFree) next = this.idle.shift()!;
      else return;
      this.queuedEntries.delete(next);
      next.go();
    }
  }

  private readonly closing = () => new TilemateError('TM_BUSY', 'the server is stopping; try again once it is back');

  async close(): Promise<void> {
    // nothing waiting will be given a worker now: its request is answered at once
    this.closed = true;
    for (const entry of this.queuedEntries) entry.fail(this.closing());
    this.queuedEntries.clear();
    this.idle.length = 0;
    await Promise.all([this.pool?.destroy(), this.botPool?.destroy()]);
  }
}

/** A task's answer, or its refusal as the error it names. */
function value<T>(result: TaskResult): T {
  if (!result.ok) throw new TilemateError(result.code, result.message);
  return result.value as T;
}
