import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina, type TaskQueue } from 'piscina';
import { TilemateError } from '../../engine/errors.js';
import { DEFAULT_LIMITS } from '../shared/limits.js';
import { joinReview, type ReviewPart } from '../../agents/coach/review.js';
import { reviewJson, type ReviewJson } from '../shared/wire.js';
import { runTask, type BotMove, type HeavyTask, type TaskResult } from './heavy-tasks.js';

/**
 * The practice server's worker pool (piscina): advice, hints, reviews, simulations and the
 * searching bots' turns run here, off the event loop, so light requests (health, the card,
 * looking at a game, a medium bot's game) keep answering while they think.
 *
 * A request's task waits in a bounded queue (a full queue is 503 TM_BUSY at once) and has
 * a deadline from the moment it is queued (503 TM_TOO_SLOW; the worker running it is
 * stopped). A bot's turn is neither refused nor cut short: each game has at most one in
 * flight, and its cost is fixed by the bot's level, so a game can always go on.
 *
 * No request's task holds a worker much more than `taskMs`: the work it asks for is estimated
 * before it is done and refused above that (TM_TOO_COSTLY, api/http/task-cost.ts), and a
 * review, whose work grows with the game, is run in parts of half that, queued one after
 * another. The bots' turns go first in the queue, so a bot's turn waits behind at most the one
 * task each worker is running.
 *
 * A person's action is answered after all the bots' turns it sets off (a dozen for one discard:
 * each bot's claim, draw and discard), each a task of its own. So that they follow one another
 * and do not each wait behind a request that slipped in between, requests do not queue in the
 * workers' own queue: each waits here until a worker is free and no bot's turn has finished in
 * the last GRACE_MS (the game's next turn comes within that); a bot's turn goes straight to the
 * workers. The game says when its run of turns is over (botsDone: the person must decide),
 * and the requests waiting go on at once, so between one action and the next they have the
 * workers. A game against searching bots then waits behind at most one request's task per
 * action, not one per bot's turn, and requests are not kept waiting by a game played without
 * a pause.
 */

/** How long a free worker is kept for a game's next bot turn after one finished (ms). */
export const GRACE_MS = 25;

export interface PoolLimits {
  /** Worker threads (0: run tasks on the event loop, as a command line does). */
  threads: number;
  /** Requests' tasks waiting or running at once; one more is refused. */
  maxQueue: number;
  /** A request's task is stopped this long after it was queued (ms). */
  deadlineMs: number;
  /** Requests' tasks one address may have queued or running at once. */
  perAddress: number;
  /** The estimated work one request's task may ask for (ms of a worker; 0: no limit). */
  taskMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { threads: DEFAULT_LIMITS.threads, maxQueue: DEFAULT_LIMITS.maxQueue, deadlineMs: DEFAULT_LIMITS.deadlineMs, perAddress: DEFAULT_LIMITS.heavyAtOnce, taskMs: DEFAULT_LIMITS.taskMs };

/**
 * The pool's queue: the bots' turns first (a game in progress waits on them), then the
 * requests in the order they came. A task says it is a bot's turn in its queue options.
 */
type Task = Parameters<TaskQueue['push']>[0];

class BotsFirst implements TaskQueue {
  private readonly bots: Task[] = [];
  private readonly rest: Task[] = [];
  get size(): number { return this.bots.length + this.rest.length; }
  push(task: Task): void { (isBotTurn(task) ? this.bots : this.rest).push(task); }
  shift(): Task | null { return this.bots.shift() ?? this.rest.shift() ?? null; }
  remove(task: Task): void {
    const list = isBotTurn(task) ? this.bots : this.rest;
    const i = list.indexOf(task);
    if (i >= 0) list.splice(i, 1);
  }
}

const isBotTurn = (task: Task): boolean => ((task as unknown as Record<symbol, { bot?: boolean } | null>)[Piscina.queueOptionsSymbol])?.bot === true;

/** The compiled worker; from TypeScript sources (tests), the one `npm run build` compiled. */
function workerFile(): string | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/api/http/heavy.worker.js', here) : new URL('./heavy.worker.js', here);
  return existsSync(fileURLToPath(url)) ? url.href : null;
}

export class HeavyPool {
  private readonly pool: Piscina | null;
  private pending = 0;
  private readonly byAddress = new Map<string, number>();
  /** Tasks given to the workers and not done (bots' turns and requests', running or in the workers' queue). */
  private inWorkers = 0;
  /** Requests waiting for a free worker, in the order they came. */
  private readonly waiting: { go: () => void }[] = [];
  /** No request starts before this (ms): a game's next bot turn may be on its way. */
  private graceUntil = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly limits: PoolLimits = DEFAULT_POOL_LIMITS) {
    const file = limits.threads > 0 ? workerFile() : null;
    this.pool = file === null ? null : new Piscina({ filename: file, minThreads: limits.threads, maxThreads: limits.threads, idleTimeout: 60_000, taskQueue: new BotsFirst() });
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
      if (budgeted.kind === 'review') return await this.review(budgeted, signal) as T;
      return await this.run<T>(budgeted, signal);
    } finally {
      this.pending--;
      const left = this.byAddress.get(address)! - 1;
      if (left === 0) this.byAddress.delete(address); else this.byAddress.set(address, left);
    }
  }

  /** A review in parts of about half the budget each, one after another in the queue, joined. */
  private async review(task: Extract<HeavyTask, { kind: 'review' }>, signal: AbortSignal): Promise<ReviewJson> {
    const parts: ReviewPart[] = [];
    let from: number | null = 1;
    while (from !== null) {
      const part: ReviewPart = await this.run<ReviewPart>({ ...task, from, sliceMs: this.limits.taskMs / 2 }, signal);
      parts.push(part);
      from = part.next;
    }
    return reviewJson(joinReview(parts));
  }

  /** A searching bot's turn: straight to the workers, ahead of every request. */
  async bot(task: Extract<HeavyTask, { kind: 'bot' }>): Promise<BotMove> {
    this.inWorkers++;
    try {
      return await this.run<BotMove>({ ...task, [Piscina.queueOptionsSymbol]: { bot: true } });
    } finally {
      this.inWorkers--;
      this.graceUntil = Date.now() + GRACE_MS;
      this.dispatch();
    }
  }

  /** A game's run of bot turns is over (the person must decide, or the game ended): requests waiting may go on now. */
  botsDone(): void {
    this.graceUntil = 0;
    this.dispatch();
  }

  private readonly tooSlow = () => new TilemateError('TM_TOO_SLOW', `the server could not answer within ${Math.round(this.limits.deadlineMs / 1000)} s (it is busy, or the request asks for too many sampled deals); try again with fewer`);

  /** A request's task (or a review's part), once a worker is free for it. */
  private async run<T>(task: HeavyTask, signal?: AbortSignal): Promise<T> {
    let result: TaskResult;
    if (this.pool === null) {
      result = runTask(task);
    } else if (signal === undefined) {
      result = (await this.pool.run(task)) as TaskResult;
    } else {
      await this.slot(signal);
      try {
        result = (await this.pool.run(task, { signal })) as TaskResult;
      } catch (err) {
        if (signal.aborted) throw this.tooSlow();
        throw err;
      } finally {
        this.inWorkers--;
        this.dispatch();
      }
    }
    if (!result.ok) throw new TilemateError(result.code, result.message);
    return result.value as T;
  }

  private free(): boolean {
    return this.inWorkers < this.limits.threads && Date.now() >= this.graceUntil;
  }

  /** Waits until a worker is free for a request (TM_TOO_SLOW past the deadline); the worker is then counted as taken. */
  private slot(signal: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.free()) {
      this.inWorkers++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        go: () => {
          signal.removeEventListener('abort', gone);
          this.inWorkers++;
          resolve();
        },
      };
      const gone = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(this.tooSlow());
      };
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      this.waiting.push(entry);
      this.dispatch();
    });
  }

  /** Starts the requests a free worker can take now, or looks again once the grace has passed. */
  private dispatch(): void {
    while (this.waiting.length > 0 && this.free()) this.waiting.shift()!.go();
    if (this.waiting.length > 0 && this.inWorkers < this.limits.threads && this.timer === null) {
      this.timer = setTimeout(() => { this.timer = null; this.dispatch(); }, Math.max(1, this.graceUntil - Date.now()));
      this.timer.unref();
    }
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    await this.pool?.destroy();
  }
}
