import './bots/registry.js'; // a compared bot may be one of the lab's
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { playSeatDeal, type OracleOptions, type SeatGame } from './oracle.js';

/** A batch of the oracle study's deals (lab/oracle-arena.ts) for one player, in a worker thread (piscina) or inline. */
export interface OracleTask {
  /** The card's file (unset: the practice card). */
  card?: string;
  seed: number;
  /** 'oracle', or a bot's name. */
  who: string;
  deals: number[];
  opts: OracleOptions;
}

export interface OracleDeal {
  deal: number;
  games: SeatGame[];
}

export default function run(task: OracleTask): OracleDeal[] {
  const cc = loadCard(task.card);
  const rules = loadRuleset('nmjl-4p');
  return task.deals.map((deal) => ({ deal, games: playSeatDeal(cc, rules, task.seed, deal, task.who, task.opts) }));
}
