import { workerData } from 'piscina';
import { loadRuleset } from '../engine/rulesets.js';
import { parseCard } from '../engine/card.js';
import { compileCard } from '../engine/compile.js';
import { playDeal, type ArenaGame } from './arena.js';

/**
 * A piscina worker: plays a batch of duplicate deals. The card comes once, as the pool's
 * worker data, and is compiled as the worker starts (beside the other workers, before the
 * first task), not sent and compared with every task.
 */
export interface ArenaTask {
  ruleset: string;
  seats: string[];
  seed: number;
  deals: number[];
}

export interface ArenaWorkerData { cardText: string }

const cc = compileCard(parseCard((workerData as ArenaWorkerData).cardText));

export default function run(task: ArenaTask): ArenaGame[] {
  const spec = { ruleset: loadRuleset(task.ruleset), seats: task.seats, seed: task.seed };
  return task.deals.flatMap((d) => playDeal(spec, cc, d));
}
