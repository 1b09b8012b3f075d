import { legalActions, type DominoAction, type DominoView } from '../../engine/domino/game.js';
import { loadDominoRuleset } from '../../engine/domino/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { greedyChoice } from './greedy.js';
import { evaluateCandidates, sampleWorld } from './montecarlo.js';

export interface DominoAdvice {
  /** The suggested action (the greedy player's, or the best by playouts). */
  action: DominoAction;
  /** The planned path for the seat's own train, from its end now. */
  path: number[];
  /** Every legal action with its playout value, when asked for (`worlds` > 0). */
  candidates?: { action: DominoAction; value: number }[];
}

/** The legal actions of the seat to move, from its view alone (they depend on nothing it cannot see). */
export function legalFromView(v: DominoView): DominoAction[] {
  return legalActions(sampleWorld(v, loadDominoRuleset(v.ruleset), seedRng(1)), v.seat);
}

/**
 * Advice for the seat to move: the greedy player's play and its plan for the seat's own
 * train; with `worlds`, every legal play valued by greedy playouts in that many sampled worlds
 * (the Monte Carlo player's evaluation), the best suggested.
 */
export function adviseDomino(v: DominoView, opts: { worlds?: number; seed?: number } = {}): DominoAdvice {
  const rules = loadDominoRuleset(v.ruleset);
  const legal = legalFromView(v);
  const g = greedyChoice(v, legal, rules.doublerCovers);
  if (!opts.worlds || legal.length === 1) return { action: g.action, path: g.path };
  const values = evaluateCandidates(v, legal, rules, opts.worlds, seedRng(opts.seed ?? 1));
  values.sort((a, b) => b.value - a.value);
  return { action: values[0].action, path: g.path, candidates: values.map((c) => ({ action: c.action, value: Math.round(c.value * 1000) / 1000 })) };
}
