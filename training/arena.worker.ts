import { workerData } from 'piscina';
import { loadGame } from '../engine/registry.js';
import { playDeal, type ArenaGame, type ArenaSpec } from './arena.js';

/**
 * A piscina worker: plays a batch of duplicate deals. The game (its parameters: for Mah Jongg
 * the card's text) comes once, as the pool's worker data, and is loaded as the worker starts
 * (beside the other workers, before the first task), not sent and compared with every task.
 */
export interface ArenaTask extends ArenaSpec {
  deals: number[];
}

export interface ArenaWorkerData { game: string; params: Record<string, unknown> }

const { game: name, params } = workerData as ArenaWorkerData;
const game = loadGame(name, params);

export default function run(task: ArenaTask): ArenaGame[] {
  return task.deals.flatMap((d) => playDeal(task, game, d));
}
