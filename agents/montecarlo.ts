import type { CompiledCard } from '../engine/compile.js';
import { determinize, unseenCounts } from '../engine/determinize.js';
import { apply, cloneState, type Action, type GameState, type SeatView } from '../engine/game.js';
import { nextU32, seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/rulesets.js';
import { JOKER, tilesFromCounts } from '../engine/tiles.js';
import type { Agent, Turn } from './agent.js';
import { allLineForms, bestChance, sampleDraws, type LineForms } from './chance.js';
import { HeuristicAgent, LOOKAHEAD_HABITS, MEDIUM_HABITS } from './heuristic.js';
import { playOut } from './table.js';

/**
 * Plays every candidate out from one sampled world, with the same playout randomness for
 * each (common random numbers): what the seat scores, and whether it won.
 */
export function playCandidates(world: GameState, candidates: readonly Action[], policies: readonly Agent[], seed: number, seat: number): { scores: number[]; won: boolean[] } {
  const scores: number[] = [], won: boolean[] = [];
  for (const action of candidates) {
    const s = cloneState(world);
    apply(s, action);
    playOut(s, policies, seedRng(seed));
    scores.push(s.result!.scores[seat]);
    won.push(s.result!.winners.includes(seat));
  }
  return { scores, won };
}

/** Mean of paired differences less one standard error. */
function edge(diffs: readonly number[]): number {
  const n = diffs.length;
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  return mean - sd / Math.sqrt(n);
}

/** How much searching a decision gets. */
export interface Budget {
  /** Sampled worlds per decision; every candidate is played out in each (common random numbers). */
  worlds: number;
  /** Discards weighed: the heuristic's best few. */
  candidates: number;
  /** Optional cap in milliseconds (at least one world is always played; a cap makes play depend on the machine). */
  ms?: number;
  /**
   * Sampled walls for the solo model (agents/chance.ts) that picks the default choice the
   * playouts must overrule: the discard or call whose hand has the best chance of being
   * completed from the wall. 0 or absent: the heuristic's choice is the default.
   */
  soloDeals?: number;
}

export const HARD_BUDGET: Budget = { worlds: 8, candidates: 3, soloDeals: 64 };
export const EXPERT_BUDGET: Budget = { worlds: 16, candidates: 4, soloDeals: 128 };

/**
 * The Monte Carlo player. For its discards, joker exchanges and answers to discards it
 * first picks a default in the solo model (agents/chance.ts: walls sampled from the tiles
 * it has not seen, the hand's best line run on each): the discard, or the call or decline,
 * that leaves the hand most likely to be completed. Then it samples whole worlds consistent
 * with its view (engine/determinize.ts: the unseen tiles dealt to the other racks and the
 * wall), plays the default and the heuristic's other candidates out to the end with
 * heuristic players in every seat (opponents draw, discard and call too), and takes a
 * challenger only when its paired mean score beats the default's by more than a standard
 * error. Mah Jongg is always declared when it can be. Its own heuristic targets only forms
 * that can still be made, and its Charleston passes, vote and courtesy offer look ahead at
 * what may come back (agents/charleston.ts).
 */
export class MonteCarloAgent implements Agent {
  readonly name: string;
  private readonly heuristic: HeuristicAgent;
  private readonly policies: Agent[];

  constructor(private readonly cc: CompiledCard, private readonly rules: Ruleset, private readonly budget: Budget = HARD_BUDGET, name = 'montecarlo') {
    this.name = name;
    this.heuristic = new HeuristicAgent(cc, LOOKAHEAD_HABITS, `${name}-policy`);
    this.policies = Array.from({ length: rules.players }, () => new HeuristicAgent(cc, MEDIUM_HABITS, 'playout'));
  }

  act(turn: Turn): Action {
    if ((turn.phase !== 'discard' && turn.phase !== 'claims') || this.rules.racks > 1) return this.heuristic.act(turn);
    const options = turn.legal();
    const sure = options.find((a) => a.type === 'declare' || a.type === 'callMahJongg' || a.type === 'callDead');
    if (sure) return sure;
    const candidates = this.candidates(turn, options);
    if (candidates.length === 1) return candidates[0];
    if (this.budget.soloDeals) {
      const best = this.soloBest(turn.view(), candidates, nextU32(turn.rng));
      if (best > 0) candidates.unshift(...candidates.splice(best, 1));
    }
    if (this.budget.worlds === 0) return candidates[0];
    return this.search(turn, candidates);
  }

  /** The heuristic's own choice first, then the other answers to a discard, or the heuristic's next-best discards and the joker exchanges. */
  private candidates(turn: Turn, options: Action[]): Action[] {
    const first = this.heuristic.act(turn);
    const rest = turn.phase === 'claims'
      ? options.filter((a) => a.type === 'decline' || a.type === 'call')
      : [
        ...this.heuristic.rank(turn).slice(0, this.budget.candidates).map(({ tile }): Action => ({ type: 'discard', seat: turn.seat, tile })),
        ...options.filter((a) => a.type === 'exchange'),
      ];
    const key = (a: Action) => JSON.stringify(a);
    const seen = new Set([key(first)]);
    const out = [first];
    for (const a of rest) if (!seen.has(key(a))) { seen.add(key(a)); out.push(a); }
    return out;
  }

  /**
   * The candidate whose hand has the best chance in the solo model (the same sampled walls
   * for each): a discard leaves 13 tiles; a call exposes the group and discards the tile
   * that leaves the best hand; letting the tile go keeps the hand. Ties keep the earlier
   * candidate (the heuristic's choice first).
   */
  private soloBest(view: SeatView, candidates: readonly Action[], seed: number): number {
    const draws = Math.floor(view.wallLeft / view.players);
    if (draws === 0) return 0;
    const deals = this.budget.soloDeals!;
    const drawn = sampleDraws(tilesFromCounts(unseenCounts(view)), deals, draws, seed);
    const mine = view.exposures[view.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
    const forms = allLineForms(this.cc, mine);
    const chanceOf = (hand: number[], f: LineForms[]) => bestChance(this.cc, f, hand, drawn, deals, draws);
    const score = (a: Action): number => {
      const hand = [...view.concealed];
      if (a.type === 'discard') { hand[a.tile]--; return chanceOf(hand, forms).chance; }
      if (a.type === 'decline') return chanceOf(hand, forms).chance;
      if (a.type !== 'call') return 2; // a joker exchange: the heuristic takes every one it can
      const tile = view.claim!.tile;
      hand[tile] -= a.size - 1 - a.jokers;
      hand[JOKER] -= a.jokers;
      const exposed = allLineForms(this.cc, [...mine, { tile, size: a.size, jokers: a.jokers }]);
      let best = 0;
      for (let t = 0; t < JOKER; t++) {
        if (hand[t] === 0) continue;
        hand[t]--;
        best = Math.max(best, chanceOf(hand, exposed).chance);
        hand[t]++;
      }
      return best;
    };
    let bestIndex = 0, bestScore = -1;
    candidates.forEach((a, i) => { const x = score(a); if (x > bestScore) { bestScore = x; bestIndex = i; } });
    return bestIndex;
  }

  /**
   * Successive halving: every candidate is played in the first half of the worlds; the
   * default (candidates[0]) and the best challenger so far share the rest, so the playouts go
   * to the comparison that decides.
   */
  private search(turn: Turn, candidates: Action[]): Action {
    const view = turn.view();
    const seat = turn.seat;
    const base = nextU32(turn.rng);
    const start = this.budget.ms === undefined ? 0 : Date.now();
    const outOfTime = (w: number) => this.budget.ms !== undefined && w > 0 && Date.now() - start > this.budget.ms;
    const worldAt = (w: number) => determinize(view, this.rules, this.cc, seedRng((base + w * 0x9e3779b9) >>> 0));
    const seedAt = (w: number) => (base ^ (w + 1) * 0x85ebca6b) >>> 0;
    // diffs[i]: candidate i's score less the default's, world by world
    const diffs: number[][] = candidates.map(() => []);
    const total = this.budget.worlds * candidates.length;
    let w = 0, spent = 0;
    for (; w < Math.ceil(this.budget.worlds / 2) && !outOfTime(w); w++, spent += candidates.length) {
      const row = playCandidates(worldAt(w), candidates, this.policies, seedAt(w), seat).scores;
      row.forEach((x, i) => diffs[i].push(x - row[0]));
    }
    let challenger = 0, bestEdge = -Infinity;
    for (let i = 1; i < candidates.length; i++) { const e = edge(diffs[i]); if (e > bestEdge) { bestEdge = e; challenger = i; } }
    if (challenger === 0) return candidates[0];
    const pair = [candidates[0], candidates[challenger]];
    for (; spent + 2 <= total && !outOfTime(w); w++, spent += 2) {
      const row = playCandidates(worldAt(w), pair, this.policies, seedAt(w), seat).scores;
      diffs[challenger].push(row[1] - row[0]);
    }
    // The default stands unless the challenger's paired advantage is more than
    // one standard error above zero: noise should not overrule a sound default.
    return edge(diffs[challenger]) > 0 ? candidates[challenger] : candidates[0];
  }

}
