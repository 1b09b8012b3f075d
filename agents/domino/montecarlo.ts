import { apply, cloneDominoState, legalActions, view as seatView, type DominoAction, type DominoState, type DominoView } from '../../engine/domino/game.js';
import { loadDominoRuleset, type DominoRuleset } from '../../engine/domino/rulesets.js';
import { fullDominoSet, SET_SIZE } from '../../engine/domino/tiles.js';
import { nextU32, seedRng, shuffle, type RngState } from '../../engine/rng.js';
import type { DominoAgent, DominoTurn } from './agent.js';
import { greedyChoice } from './greedy.js';

/**
 * A world consistent with what the seat sees: the tiles it cannot see (not in its hand, not
 * on a train, not the engine) shuffled and dealt to the other hands by their counts, the rest
 * the boneyard in a random order. The round is the view's; later rounds are not played.
 */
export function sampleWorld(v: DominoView, rules: DominoRuleset, rng: RngState): DominoState {
  const seen = new Uint8Array(SET_SIZE);
  seen[v.engine] = 1;
  for (const t of v.hand) seen[t] = 1;
  for (const tr of v.trains) for (const t of tr.tiles) seen[t] = 1;
  const unseen = shuffle(rng, fullDominoSet().filter((t) => !seen[t]));
  let pos = 0;
  const hands = v.handCounts.map((n, s) => (s === v.seat ? [...v.hand] : unseen.slice(pos, (pos += n))));
  if (v.drawn >= 0 && !hands[v.seat].includes(v.drawn)) throw new Error('rule violation: the drawn tile is not in the hand');
  const boneyard = unseen.slice(pos);
  if (boneyard.length !== v.boneyard) throw new Error(`rule violation: ${boneyard.length} unseen tiles left for a boneyard of ${v.boneyard}`);
  return {
    rules, players: v.players, seed: 0, rng: seedRng(nextU32(rng)),
    schedule: [v.round], roundPos: 0,
    firstDraw: [...v.firstDraw], firstPlayer: v.starter, starter: v.starter,
    engine: v.engine, hands, boneyard,
    trains: v.trains.map((t) => ({ owner: t.owner, tiles: [...t.tiles], end: t.end, marked: t.marked })),
    openDoubles: [...v.openDoubles],
    turn: v.turn,
    step: { drawn: v.drawn, cover: v.step.cover, free: v.step.free },
    phase: 'play', totals: new Array<number>(v.players).fill(0), rounds: [], actionCount: 0, result: null,
  };
}

/** Plays the sampled round out with every seat greedy; returns the seat's reward: the others' mean pips less its own. */
function playout(world: DominoState, seat: number): number {
  const covers = world.rules.doublerCovers;
  let guard = 0;
  while (world.phase === 'play') {
    const s = world.turn;
    const legal = legalActions(world, s);
    apply(world, legal.length === 1 ? legal[0] : greedyChoice(seatView(world, s), legal, covers).action);
    if (++guard > 10000) throw new Error('rule violation: a playout that does not end');
  }
  const pips = world.rounds[0].pipsLeft;
  let others = 0;
  for (let s = 0; s < pips.length; s++) if (s !== seat) others += pips[s];
  return others / (pips.length - 1) - pips[seat];
}

export interface MonteCarloBudget {
  /** Sampled worlds per decision (each candidate is played out in the same worlds). */
  worlds: number;
}

export const DOMINO_MC_BUDGET: MonteCarloBudget = { worlds: 12 };

export interface CandidateValue {
  action: DominoAction;
  /** Mean reward over the worlds: the others' mean pips left less the seat's, at the round's end. */
  value: number;
}

/** Every legal play, valued by greedy playouts in sampled worlds (common worlds across candidates). */
export function evaluateCandidates(v: DominoView, legal: readonly DominoAction[], rules: DominoRuleset, worlds: number, rng: RngState): CandidateValue[] {
  const sums = new Array<number>(legal.length).fill(0);
  for (let w = 0; w < worlds; w++) {
    const world = sampleWorld(v, rules, rng);
    legal.forEach((a, i) => {
      const s = cloneDominoState(world);
      apply(s, a);
      sums[i] += playout(s, v.seat);
    });
  }
  return legal.map((action, i) => ({ action, value: sums[i] / worlds }));
}

/**
 * Monte Carlo player: when there is a choice of plays, samples the hidden hands and boneyard
 * consistently with its view, plays each candidate out with greedy players for all seats, and
 * keeps the best mean. Draws and passes are forced, so they cost nothing.
 */
export class MonteCarloDominoAgent implements DominoAgent {
  readonly name: string;
  private readonly rules: DominoRuleset;
  constructor(ruleset: string, private readonly budget: MonteCarloBudget = DOMINO_MC_BUDGET, name = 'montecarlo') {
    this.rules = loadDominoRuleset(ruleset);
    this.name = name;
  }
  act(turn: DominoTurn): DominoAction {
    const legal = turn.legal();
    if (legal.length === 1) return legal[0];
    const values = evaluateCandidates(turn.view(), legal, this.rules, this.budget.worlds, seedRng(nextU32(turn.rng)));
    let best = values[0];
    for (const c of values) if (c.value > best.value) best = c;
    return best.action;
  }
}
