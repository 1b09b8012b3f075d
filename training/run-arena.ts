import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Game } from '../engine/games.js';
import { registeredAgentModules } from '../agents/mah-jongg/levels.js';
import { playDeal, type ArenaGame } from './arena.js';
import type { ArenaTask, ArenaWorkerData } from './arena.worker.js';

export interface ArenaRun {
  game: Game;
  seats: string[];
  seed: number;
  /** The deals to play (a resumed run: those not played yet). */
  dealIds: number[];
  /** Worker threads (default: one per core); 1 plays in this thread. */
  threads?: number;
  onProgress?: (dealsDone: number) => void;
  /** Each batch of finished games, whole deals, as they come (a log). */
  onGames?: (games: ArenaGame[]) => void;
}

/** The most deals one task plays: a log and the progress move every few deals on long runs. */
const MAX_TASK_DEALS = 8;

/**
 * The deals, cut into tasks (guided self-scheduling): each task takes an eighth of a thread's
 * share of the deals still to hand out, at most MAX_TASK_DEALS and at least one. Early tasks
 * are large, so a task's fixed cost (a message each way, the results cloned) is small beside
 * its games; the last ones are a deal or two, so the threads finish within a deal of each other.
 */
function batches(dealIds: readonly number[], threads: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < dealIds.length; ) {
    const size = Math.max(1, Math.min(MAX_TASK_DEALS, Math.ceil((dealIds.length - i) / (threads * 8))));
    out.push(dealIds.slice(i, i + size));
    i += size;
  }
  return out;
}

/**
 * Plays an arena's deals in worker threads (piscina), one per core: their games, in deal order.
 * Deals are independent and sorted back into order, so results do not depend on the number
 * of threads. From TypeScript sources (tests) the worker file is not compiled: play inline.
 */
export async function runArena(run: ArenaRun): Promise<ArenaGame[]> {
  const spec = { seats: run.seats, seed: run.seed };
  const threads = Math.max(1, run.threads ?? availableParallelism());
  const { dealIds } = run;
  let done = 0;
  const games: ArenaGame[] = [];
  if (threads === 1 || import.meta.url.endsWith('.ts')) {
    for (const d of dealIds) {
      const dealt = playDeal(spec, run.game, d);
      games.push(...dealt);
      run.onGames?.(dealt);
      run.onProgress?.(++done);
    }
  } else {
    // bots registered beside the product's (lab/bots/registry.ts) are registered in each worker too
    const workerData: ArenaWorkerData = { game: run.game.type.name, params: { ...run.game.params }, botModules: [...registeredAgentModules()] };
    const pool = new Piscina({ filename: new URL('./arena.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads, workerData });
    try {
      await Promise.all(
        batches(dealIds, threads).map(async (deals) => {
          const task: ArenaTask = { ...spec, deals };
          const result = (await pool.run(task)) as ArenaGame[];
          games.push(...result);
          run.onGames?.(result);
          done += deals.length;
          run.onProgress?.(done);
        }),
      );
    } finally {
      await pool.destroy();
    }
  }
  games.sort((a, b) => a.deal - b.deal || a.rotation - b.rotation);
  return games;
}
