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

/** `botModules`: modules that register bots beside the product's (agents/mah-jongg/levels.ts registerAgents), imported first. */
export interface ArenaWorkerData {
  game: string;
  params: Record<string, unknown>;
  botModules: string[];
}

const { game: name, params, botModules } = workerData as ArenaWorkerData;
for (const m of botModules) await import(m);
const game = loadGame(name, params);

export default function run(task: ArenaTask): ArenaGame[] {
  return task.deals.flatMap((d) => playDeal(task, game, d));
}
