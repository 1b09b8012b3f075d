import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { playDominoDeal, summarizeDomino, type DominoArenaGame, type DominoArenaSpec, type DominoArenaSummary } from './domino-arena.js';
import type { DominoArenaTask } from './domino-arena.worker.js';

export interface DominoArenaRun extends DominoArenaSpec {
  deals: number;
  /** Worker threads (default: one per core); 1 plays in this thread. */
  threads?: number;
  onProgress?: (dealsDone: number) => void;
}

const BATCH = 2;

/**
 * Plays a Mexican Train arena's deals in worker threads (piscina) and summarises them; deals
 * are sorted back into order, so results do not depend on the number of threads. From
 * TypeScript sources (tests) the worker file is not compiled: play inline.
 */
export async function runDominoArena(run: DominoArenaRun): Promise<{ summary: DominoArenaSummary; games: DominoArenaGame[] }> {
  const spec: DominoArenaSpec = { ruleset: run.ruleset, seats: run.seats, seed: run.seed };
  const threads = Math.max(1, run.threads ?? availableParallelism());
  const dealIds = Array.from({ length: run.deals }, (_, i) => i);
  let done = 0;
  const games: DominoArenaGame[] = [];
  if (threads === 1 || import.meta.url.endsWith('.ts')) {
    for (const d of dealIds) {
      games.push(...playDominoDeal(spec, d));
      run.onProgress?.(++done);
    }
  } else {
    const pool = new Piscina({ filename: new URL('./domino-arena.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads });
    try {
      const batches: number[][] = [];
      for (let i = 0; i < dealIds.length; i += BATCH) batches.push(dealIds.slice(i, i + BATCH));
      await Promise.all(batches.map(async (deals) => {
        const task: DominoArenaTask = { ...spec, deals };
        games.push(...((await pool.run(task)) as DominoArenaGame[]));
        done += deals.length;
        run.onProgress?.(done);
      }));
    } finally {
      await pool.destroy();
    }
  }
  games.sort((a, b) => a.deal - b.deal || a.rotation - b.rotation);
  return { summary: summarizeDomino(spec, games), games };
}
