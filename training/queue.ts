import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { Queue, QueueEvents, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Piscina } from 'piscina';
import type { AgreementTask, EvalTask, SelfPlayTask } from './train.worker.js';
import type { TruthTask } from './truth.js';
import { TilemateError } from '../engine/errors.js';

/**
 * Training's tasks (self-play batches, arena deals, the search's agreement, the truth set's
 * decisions) spread over any
 * number of actor processes, on any number of machines, through one Redis: a BullMQ queue. The
 * learner (`tilemate train --redis URL`) adds each task as a job and waits for its result;
 * each actor (`tilemate actor --redis URL`) takes jobs and plays them in its own worker threads
 * (piscina, the same worker file as a one-machine run).
 *
 * - A task is deterministic (its seeds say everything), so whoever plays it returns the same
 *   result, and a run gives the same examples on one machine or on many.
 * - A job's id is the run's prefix and the hash of the task: added twice, it is one job.
 * - An actor killed mid-job stops renewing the job's lock; another actor's stalled check
 *   puts the job back in the queue and it is played again. Only the actor holding the lock can
 *   complete a job, and the learner takes each job's result once: nothing is counted twice.
 * - Each job carries the card and the model it is to play with, so an actor joining at any
 *   time plays the current model (its worker threads keep the last one compiled).
 */

export const TRAIN_QUEUE = 'tilemate-train';
/** Events the queue's stream keeps (about: Redis trims it roughly). */
export const EVENTS_KEPT = 500;
type Task = SelfPlayTask | EvalTask | AgreementTask | TruthTask;

export interface QueueSettings {
  /** redis://host:port/db */
  url: string;
  /** Key prefix: runs (and tests) sharing a Redis keep apart (default "tilemate"). */
  prefix?: string;
  /** How long an actor's hold on a job lasts unrenewed: a killed actor's jobs go back after about this (default 30 s). */
  lockMs?: number;
}

/** ioredis options from a redis:// address, as BullMQ wants them (a blocking worker needs no retry limit). */
export function connectionOf(url: string): ConnectionOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TilemateError('TM_BAD_INPUT', `"${url}" is not a Redis address (redis://host:port)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new TilemateError('TM_BAD_INPUT', `"${url}" is not a Redis address (redis://host:port)`);
  const db = Number(u.pathname.slice(1) || 0);
  return {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 6379),
    db: Number.isInteger(db) ? db : 0,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

// ------------------------------------------------------------------ results over the wire

/** JSON for a result: typed arrays (the examples) as base64 of their bytes. */
export function encodeResult(value: unknown): unknown {
  if (value instanceof Float32Array) return { $f32: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (Array.isArray(value)) return value.map(encodeResult);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeResult(v)]));
  return value;
}

export function decodeResult(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeResult);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$f32 === 'string' && Object.keys(o).length === 1) {
      const bytes = Buffer.from(o.$f32, 'base64');
      const out = new Float32Array(bytes.byteLength / 4);
      new Uint8Array(out.buffer).set(bytes);
      return out;
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, decodeResult(v)]));
  }
  return value;
}

const taskId = (task: Task): string => createHash('sha256').update(JSON.stringify(task)).digest('hex').slice(0, 32);

// ------------------------------------------------------------------ the learner's side

export interface QueueRunner {
  runTask<R>(task: Task): Promise<R>;
  /** Jobs waiting for an actor, and actors (BullMQ workers) connected. */
  status(): Promise<{ waiting: number; active: number; actors: number }>;
  close(): Promise<void>;
}

/** The learner's end: each task a job, its result awaited (a job already done is not played again). */
export async function queueRunner(s: QueueSettings): Promise<QueueRunner> {
  const connection = connectionOf(s.url);
  const prefix = s.prefix ?? 'tilemate';
  // the events stream carries each result (the examples) in its "completed" event; BullMQ
  // keeps 10,000 events, over a gigabyte of examples, so it keeps EVENTS_KEPT
  const queue = new Queue(TRAIN_QUEUE, { connection, prefix, streams: { events: { maxLen: EVENTS_KEPT } } });
  // each task awaited (job.waitUntilFinished) listens for the queue's closing: a generation
  // awaits dozens at once, which is no leak, so Node's warning past ten is turned off
  queue.setMaxListeners(0);
  const events = new QueueEvents(TRAIN_QUEUE, { connection, prefix });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  /**
   * A job's result. Waiting starts by asking the job's state, so an event trimmed from the
   * stream before this learner read it costs a minute's wait, never the run: the wait is
   * given up after a minute without word and begun again.
   */
  const finished = async (job: Job<Task>): Promise<unknown> => {
    for (;;) {
      try {
        return await job.waitUntilFinished(events, 60_000);
      } catch (e) {
        if (!(e instanceof Error && /timed out before finishing/.test(e.message))) throw e;
      }
    }
  };
  return {
    async runTask<R>(task: Task): Promise<R> {
      // attempts: a task that throws (a bug, not a kill) is tried twice more, then the run stops
      const job = await queue.add(task.kind, task, { jobId: taskId(task), attempts: 3, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } });
      const result = await finished(job);
      // the learner is the one reader of a result: once it has it, the examples leave Redis
      // (kept for the hour, six short runs held 1.8 GB of a Redis that keeps everything in memory)
      await queue.remove(job.id!).catch(() => 0);
      return decodeResult(result) as R;
    },
    async status() {
      const [counts, workers] = await Promise.all([queue.getJobCounts('waiting', 'active'), queue.getWorkers()]);
      return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, actors: workers.length };
    },
    async close() {
      await events.close();
      await queue.close();
    },
  };
}

// ------------------------------------------------------------------ an actor

export interface ActorOptions extends QueueSettings {
  /** Worker threads, and jobs played at once (default: one per core). */
  threads: number;
  /** Each job played: its kind, and its seconds. */
  onJob?: (kind: string, seconds: number, games: number) => void;
}

export interface Actor {
  close(): Promise<void>;
}

/** The name a job's `processedBy` gives for the actor playing it: its machine and process. */
export const actorName = (): string => `${hostname()}:${process.pid}`;

/** An actor: takes the queue's jobs and plays them in worker threads until closed. */
export async function startActor(o: ActorOptions): Promise<Actor> {
  const inline = import.meta.url.endsWith('.ts');
  if (inline) throw new Error('an actor runs from the compiled files (npm run build; tilemate actor)');
  const pool = new Piscina({ filename: new URL('./train.worker.js', import.meta.url).href, minThreads: o.threads, maxThreads: o.threads });
  const lockDuration = o.lockMs ?? 30_000;
  const worker = new Worker(
    TRAIN_QUEUE,
    async (job: Job<Task>) => {
      const t0 = Date.now();
      const result = await pool.run(job.data);
      const games = job.data.kind === 'eval' ? job.data.deals.length : job.data.kind === 'truth' ? 1 : job.data.seeds.length;
      o.onJob?.(job.data.kind, (Date.now() - t0) / 1000, games);
      return encodeResult(result);
    },
    {
      connection: connectionOf(o.url),
      prefix: o.prefix ?? 'tilemate',
      concurrency: o.threads,
      name: actorName(),
      lockDuration,
      stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
      maxStalledCount: 10,
    },
  );
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await pool.destroy();
    },
  };
}
