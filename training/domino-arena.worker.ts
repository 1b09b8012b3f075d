import { playDominoDeal, type DominoArenaGame, type DominoArenaSpec } from './domino-arena.js';

/** A piscina worker: plays a batch of Mexican Train duplicate deals. */
export interface DominoArenaTask extends DominoArenaSpec {
  deals: number[];
}

export default function run(task: DominoArenaTask): DominoArenaGame[] {
  return task.deals.flatMap((d) => playDominoDeal(task, d));
}
