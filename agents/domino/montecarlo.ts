import { ruleViolation } from '../../engine/errors.js';
import { apply, cloneDominoState, legalActions, view as seatView, type DominoAction, type DominoState, type DominoView } from '../../engine/domino/game.js';
import { loadDominoRuleset, type DominoRuleset } from '../../engine/domino/rulesets.js';
import { fullDominoSet, HI, LO, SET_SIZE, type DominoId } from '../../engine/domino/tiles.js';
import { nextU32, seedRng, shuffle, type RngState } from '../../engine/rng.js';
import { greedyChoice } from './greedy.js';
import type { Agent, Turn } from '../agent.js';
import type { MexicanTrainSpec } from '../../engine/domino/mexican-train.js';

/**
 * A world consistent with what the seat sees: the tiles it cannot see (not in its hand, not
 * on a train, not the engine) dealt at random to the other hands by their counts, never
 * giving a hand a tile with an end it is known to lack (`lacks`, from the draws and passes
 * everyone saw); the rest the boneyard in a random order. Only the view's round is played.
 */
export function sampleWorld(v: DominoView, rules: DominoRuleset, rng: RngState): DominoState {
  const seen = new Uint8Array(SET_SIZE);
  seen[v.engine] = 1;
  for (const t of v.hand) seen[t] = 1;
  for (const tr of v.trains) for (const t of tr.tiles) seen[t] = 1;
  const unseen = fullDominoSet().filter((t) => !seen[t]);
  if (v.drawn >= 0 && !v.hand.includes(v.drawn)) ruleViolation('the drawn tile is not in the hand');
  if (unseen.length !== v.boneyard + v.handCounts.reduce((a, n, s) => a + (s === v.seat ? 0 : n), 0)) {
    ruleViolation(`${unseen.length} unseen tiles for the other hands and a boneyard of ${v.boneyard}`);
  }
  const hands = dealHidden(v, unseen, rng);
  const dealt = new Uint8Array(SET_SIZE);
  for (let s = 0; s < v.players; s++) if (s !== v.seat) for (const t of hands[s]) dealt[t] = 1;
  const boneyard = shuffle(
    rng,
    unseen.filter((t) => !dealt[t]),
  );
  return {
    rules,
    players: v.players,
    seed: 0,
    rng: seedRng(nextU32(rng)),
    schedule: [v.round],
    roundPos: 0,
    firstDraw: [...v.firstDraw],
    firstPlayer: v.starter,
    starter: v.starter,
    engine: v.engine,
    hands,
    boneyard,
    trains: v.trains.map((t) => ({ owner: t.owner, tiles: [...t.tiles], end: t.end, marked: t.marked })),
    openDoubles: [...v.openDoubles],
    lacks: [...v.lacks],
    turn: v.turn,
    step: { drawn: v.drawn, cover: v.step.cover, free: v.step.free },
    phase: 'play',
    totals: new Array<number>(v.players).fill(0),
    rounds: [],
    actionCount: 0,
    result: null,
  };
}

const fits = (t: DominoId, lacks: number): boolean => ((lacks >> HI[t]) & 1) === 0 && ((lacks >> LO[t]) & 1) === 0;

/**
 * The other hands: the most constrained first, each from the unseen tiles it may hold, in a
 * random order. The real deal satisfies every constraint, but a greedy order can paint itself
 * into a corner; then it tries again, and after a few tries drops the constraints.
 */
function dealHidden(v: DominoView, unseen: readonly DominoId[], rng: RngState): DominoId[][] {
  const others = Array.from({ length: v.players }, (_, s) => s).filter((s) => s !== v.seat);
  const eligible = (s: number) => unseen.filter((t) => fits(t, v.lacks[s])).length;
  others.sort((a, b) => eligible(a) - v.handCounts[a] - (eligible(b) - v.handCounts[b]));
  for (let attempt = 0; attempt < 8; attempt++) {
    const pool = shuffle(rng, [...unseen]);
    const taken = new Uint8Array(SET_SIZE);
    const hands: DominoId[][] = v.handCounts.map(() => []);
    hands[v.seat] = [...v.hand];
    let ok = true;
    for (const s of others) {
      const lacks = attempt < 7 ? v.lacks[s] : 0;
      for (let i = 0; i < pool.length && hands[s].length < v.handCounts[s]; i++) {
        const t = pool[i];
        if (!taken[t] && fits(t, lacks)) {
          taken[t] = 1;
          hands[s].push(t);
        }
      }
      if (hands[s].length < v.handCounts[s]) {
        ok = false;
        break;
      }
    }
    if (ok) return hands;
  }
  ruleViolation('no deal of the unseen tiles fits the hand counts');
}

/** Playouts plan each own train with a shorter search than a real decision: most of a decision's cost is there. */
const PLAYOUT_PATH_BUDGET = 150;

/**
 * Plays the sampled round out with every seat greedy; returns the seat's reward: its share of
 * the round's win (going out, or the fewest pips when the round is blocked), plus a small
 * term for the pips it leaves against the others' mean, to tell apart plays that win alike.
 */
function playout(world: DominoState, seat: number): number {
  const covers = world.rules.doublerCovers;
  let guard = 0;
  while (world.phase === 'play') {
    const s = world.turn;
    const legal = legalActions(world, s);
    apply(world, legal.length === 1 ? legal[0] : greedyChoice(seatView(world, s), legal, covers, PLAYOUT_PATH_BUDGET).action);
    if (++guard > 10000) ruleViolation('a playout that does not end');
  }
  const r = world.rounds[0];
  const pips = r.pipsLeft;
  let others = 0;
  for (let s = 0; s < pips.length; s++) if (s !== seat) others += pips[s];
  const low = Math.min(...pips);
  const win = r.outBy >= 0 ? (r.outBy === seat ? 1 : 0) : pips[seat] === low ? 1 / pips.filter((p) => p === low).length : 0;
  return win + PIPS_WEIGHT * (others / (pips.length - 1) - pips[seat]);
}

/** One pip left is worth this much of a win in a playout's reward. */
const PIPS_WEIGHT = 0.005;

export interface MonteCarloBudget {
  /** Sampled worlds per decision (each candidate is played out in the same worlds). */
  worlds: number;
}

export const DOMINO_MC_BUDGET: MonteCarloBudget = { worlds: 24 };

export interface CandidateValue {
  action: DominoAction;
  /** Rewards in each sampled world (the same worlds for every candidate). */
  rewards: number[];
  value: number;
}

/** Every legal play, valued by greedy playouts in sampled worlds (common worlds across candidates). */
export function evaluateCandidates(v: DominoView, legal: readonly DominoAction[], rules: DominoRuleset, worlds: number, rng: RngState): CandidateValue[] {
  const rewards: number[][] = legal.map(() => []);
  for (let w = 0; w < worlds; w++) {
    const world = sampleWorld(v, rules, rng);
    legal.forEach((a, i) => {
      const s = cloneDominoState(world);
      apply(s, a);
      rewards[i].push(playout(s, v.seat));
    });
  }
  return legal.map((action, i) => ({ action, rewards: rewards[i], value: rewards[i].reduce((x, y) => x + y, 0) / worlds }));
}

/**
 * The play to make: greedy's, unless another candidate beats it in the paired worlds by more
 * than one standard error of the difference (noise in a few worlds should not overturn a
 * sound default).
 */
export function chooseCandidate(values: CandidateValue[], greedyIndex: number): number {
  const base = values[greedyIndex].rewards;
  let best = greedyIndex,
    bestMean = 0;
  values.forEach((c, i) => {
    if (i === greedyIndex) return;
    const diffs = c.rewards.map((r, w) => r - base[w]);
    const n = diffs.length;
    const mean = diffs.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
    if (mean > bestMean && mean > sd / Math.sqrt(n)) {
      best = i;
      bestMean = mean;
    }
  });
  return best;
}

/**
 * Monte Carlo player: when there is a choice of plays, samples the hidden hands and boneyard
 * consistently with its view, plays each candidate out with greedy players for all seats, and
 * departs from greedy's choice only on evidence. Draws and passes are forced: they cost nothing.
 */
export class MonteCarloDominoAgent implements Agent<MexicanTrainSpec> {
  readonly name: string;
  private readonly rules: DominoRuleset;
  constructor(
    ruleset: string,
    private readonly budget: MonteCarloBudget = DOMINO_MC_BUDGET,
    name = 'montecarlo',
  ) {
    this.rules = loadDominoRuleset(ruleset);
    this.name = name;
  }
  act(turn: Turn<MexicanTrainSpec>): DominoAction {
    const legal = turn.legal();
    if (legal.length === 1) return legal[0];
    const v = turn.view();
    const greedy = greedyChoice(v, legal, this.rules.doublerCovers).action;
    const values = evaluateCandidates(v, legal, this.rules, this.budget.worlds, seedRng(nextU32(turn.rng)));
    return values[chooseCandidate(values, legal.indexOf(greedy))].action;
  }
}
