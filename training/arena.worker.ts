import { loadRuleset } from '../engine/rulesets.js';
import { parseCard } from '../engine/card.js';
import { compileCard, type CompiledCard } from '../engine/compile.js';
import { playDeal, type ArenaGame } from './arena.js';

/** A piscina worker: plays a batch of duplicate deals. The card is compiled once per worker. */
export interface ArenaTask {
  ruleset: string;
  seats: string[];
  seed: number;
  cardText: string;
  deals: number[];
}

let card: { text: string; cc: CompiledCard } | null = null;

export default function run(task: ArenaTask): ArenaGame[] {
  if (card === null || card.text !== task.cardText) card = { text: task.cardText, cc: compileCard(parseCard(task.cardText)) };
  const spec = { ruleset: loadRuleset(task.ruleset), seats: task.seats, seed: task.seed };
  return task.deals.flatMap((d) => playDeal(spec, card!.cc, d));
}
