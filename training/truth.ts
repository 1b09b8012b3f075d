import type { Agent, Turn } from '../agents/agent.js';
import { advisor } from '../agents/mah-jongg/advice.js';
import { HeuristicAgent, STRONG_HABITS } from '../agents/mah-jongg/heuristic.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { PairedWorlds } from '../agents/mah-jongg/paired-worlds.js';
import { forcedAction, tableTurns } from '../agents/table.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { decodeAction, encodeAction, mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { type Action, type SeatView } from '../engine/mah-jongg/game.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { nextInt, nextU32, seedOfText, seedRng, type RngState } from '../engine/rng.js';

/**
 * The truth set (issue 61): decisions from real games, each choice valued by a heavy, paired
 * evaluation (agents/mah-jongg/paired-worlds.ts: the same sampled worlds and continuation seeds
 * for every choice), against which every judge of a decision is measured. A decision is the
 * seat's view and legal actions at one moment of a game of bots, the choice played there, and
 * a few choices beside it (the coach's model's best, the strong habits', a random legal one):
 * a choice's cost is the points a game it gives up against the best of them, played on from
 * that moment many times.
 *
 * Planning (`truthDecisions`) plays the games; valuing (`truthOf`) is one task a decision, for
 * the training's worker threads or the queue's actors (training/train.worker.ts), so the set is
 * made offline in pieces and resumed (lab/truth-set.ts writes it).
 */

/** A decision's kind, as the judge is measured by: the Charleston's passes, the vote, the courtesy offer, discards, calls, joker exchanges, Mah Jongg or not. */
export const TRUTH_KINDS = ['pass', 'vote', 'courtesy', 'discard', 'call', 'exchange', 'mahjongg'] as const;
export type TruthKind = (typeof TRUTH_KINDS)[number];

/** The kind of the decision a seat faces (null when it is not one the truth set asks: a draw, a call of a dead hand alone). */
export function kindOf(view: SeatView, legal: readonly Action[]): TruthKind | null {
  if (legal.some((a) => a.type === 'declare' || a.type === 'callMahJongg')) return 'mahjongg';
  switch (view.phase) {
    case 'charleston':
      return 'pass';
    case 'vote':
      return 'vote';
    case 'courtesy':
      return 'courtesy';
    case 'discard':
      return legal.some((a) => a.type === 'exchange') ? 'exchange' : 'discard';
    case 'claims':
      return legal.some((a) => a.type === 'call') ? 'call' : null;
    default:
      return null;
  }
}

/** A decision to value: where it comes from, and the choices weighed. */
export interface TruthDecision {
  /** `card/level/game/action`: unique in a set. */
  id: string;
  card: string;
  /** The level of the bot that played the seat (the others were medium). */
  level: string;
  game: number;
  /** The action number in the game (1-based), as a record and a review count them. */
  index: number;
  kind: TruthKind;
  /** The part of the set it belongs to: tuned on, or held out (a whole game goes one way). */
  split: 'tune' | 'held';
  view: SeatView;
  legal: Record<string, unknown>[];
  /** The choice the seat's bot made (encoded, engine/mah-jongg/mah-jongg.ts encodeAction). */
  played: Record<string, unknown>;
  choices: Record<string, unknown>[];
}

/** How heavily each decision is valued. */
export interface TruthSettings {
  /** Worlds played before the first look. */
  minWorlds: number;
  /** Worlds added between looks. */
  batch: number;
  /** The most worlds a decision gets. */
  maxWorlds: number;
  /** The 95% half-width sought on each choice's cost, in points. */
  halfWidth: number;
  /** A choice whose cost is this much above zero at its lower 95% bound needs no narrower interval: it is a costly mistake whatever more worlds say. */
  clearCost: number;
}

export const TRUTH_SETTINGS: TruthSettings = { minWorlds: 256, batch: 128, maxWorlds: 2048, halfWidth: 3, clearCost: 13 };

export interface TruthTask {
  kind: 'truth';
  ruleset: string;
  cardText: string;
  decision: TruthDecision;
  /** The worlds' seed (drawn from the decision's id: never a judge's own). */
  seed: number;
  settings: TruthSettings;
}

export interface ChoiceTruth {
  /** Mean score over the worlds. */
  mean: number;
  /** The best choice's mean less this one's, world by world, and its standard error. */
  cost: number;
  se: number;
}

export interface TruthResult {
  id: string;
  worlds: number;
  /** The best choice (by mean score). */
  best: number;
  choices: ChoiceTruth[];
  steps: number;
}

const Z95 = 1.96;

/**
 * A decision valued: its choices played on in paired worlds, `minWorlds` first, then a batch
 * at a time until each choice's cost against the best is known to `halfWidth` (95%), or is
 * clearly costly (its lower bound at `clearCost` or more), or `maxWorlds` are played.
 */
export function truthOf(task: TruthTask, cc: CompiledCard): TruthResult {
  const { decision: d, settings: s } = task;
  const rules = loadRuleset(task.ruleset);
  const choices = d.choices.map((c) => decodeAction(c));
  const pw = new PairedWorlds(cc, rules, d.view, choices, task.seed);
  pw.play(s.minWorlds);
  const settled = (): boolean => {
    const best = pw.best();
    return choices.every((_, i) => {
      if (i === best) return true;
      const { mean, se } = pw.versus(best, i);
      return Z95 * se <= s.halfWidth || mean - Z95 * se >= s.clearCost;
    });
  };
  while (pw.worlds < s.maxWorlds && !settled()) pw.play(Math.min(s.batch, s.maxWorlds - pw.worlds));
  const best = pw.best();
  return {
    id: d.id,
    worlds: pw.worlds,
    best,
    choices: choices.map((_, i) => {
      const { mean, se } = pw.versus(best, i);
      return { mean: round2(pw.mean(i)), cost: round2(mean), se: round2(se) };
    }),
    steps: pw.steps,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The truth's worlds for a decision: from its id, salted, so no judge (whose seeds come from the view) shares them. */
export const truthSeed = (id: string): number => seedOfText(`truth:${id}`);

/** How often each kind of decision a seat makes is taken into the set (the rare kinds always). */
export const TAKE: Record<TruthKind, number> = { pass: 0.2, vote: 0.5, courtesy: 0.5, discard: 0.12, call: 0.25, exchange: 1, mahjongg: 1 };

/** Tune or held out: a whole game goes one way (two games in five are tuned on). */
export const splitOf = (card: string, level: string, game: number): 'tune' | 'held' => (seedOfText(`split:${card}:${level}:${game}`) % 5 < 2 ? 'tune' : 'held');

const key = (a: Action): string => JSON.stringify(encodeAction(canonicalTiles(a)));

/** Passes and offers are sets of tiles: the same tiles in another order are one choice. */
function canonicalTiles(a: Action): Action {
  return a.type === 'pass' || a.type === 'courtesy' ? ({ ...a, tiles: [...a.tiles].sort((x, y) => x - y) } as Action) : a;
}

/**
 * The choices weighed at a decision: the one played, the coach's model's best three (the
 * advisor, agents/mah-jongg/advice.ts), the strong habits' choice, and one legal choice at
 * random; every answer to a discard at a call; every joker exchange, and Mah Jongg, when there.
 */
export function truthChoices(cc: CompiledCard, turn: Turn, played: Action, rng: RngState): Action[] {
  const legal = turn.legal();
  const model = advisor(cc)
    .choices(turn)
    .slice(0, 3)
    .map((c) => c.action);
  const strong = new HeuristicAgent(cc, STRONG_HABITS, 'truth').act({ ...turn, rng: seedRng(nextU32(rng)) });
  // the random choice among the decision's own: at a discard a tile, not a call of a dead hand
  const pool = legal.filter((a) => a.type !== 'callDead');
  const random = pool[nextInt(rng, pool.length)];
  const always = legal.filter((a) => a.type === 'exchange' || a.type === 'declare' || a.type === 'callMahJongg' || (turn.phase === 'claims' && a.type !== 'callDead') || a.type === 'vote');
  const out = new Map<string, Action>();
  for (const a of [played, ...model, strong, random, ...always]) {
    const c = canonicalTiles(a);
    if (!out.has(key(c))) out.set(key(c), c);
  }
  return [...out.values()];
}

/**
 * The decisions of one game, seat `seat` played by `level` and the others by medium bots,
 * each taken by its kind's chance (TAKE): the game is played to its end whatever is taken.
 */
export function gameDecisions(cc: CompiledCard, card: string, ruleset: string, level: string, game: number, seat: number): TruthDecision[] {
  const rules = loadRuleset(ruleset);
  const g = mahJonggGame(rules, cc);
  const seed = seedOfText(`game:${card}:${level}:${game}`);
  const state = g.newGame(seed);
  const bots: Agent[] = Array.from({ length: rules.players }, (_, s) => makeAgent(s === seat ? level : 'medium', cc, rules));
  const turns = tableTurns(g, state, seedRng(seed ^ 0x5bd1e995));
  const pick = seedRng(seed ^ 0x27d4eb2f);
  const out: TruthDecision[] = [];
  let index = 0;
  for (;;) {
    const s = g.nextToAct(state);
    if (s < 0) break;
    const turn = turns[s];
    turn.phase = g.phase(state);
    const action = bots[s].act(turn);
    index++;
    if (s === seat) {
      const legal = g.legalActions(state, s);
      const view = g.view(state, s);
      const kind = forcedAction(legal) === null ? kindOf(view, legal) : null;
      if (kind !== null && nextU32(pick) / 2 ** 32 < TAKE[kind]) {
        const choices = truthChoices(cc, { seat: s, phase: turn.phase, view: () => view, legal: () => legal, rng: seedRng(nextU32(pick)) }, action, pick);
        if (choices.length >= 2) {
          out.push({
            id: `${card}/${level}/${game}/${index}`,
            card,
            level,
            game,
            index,
            kind,
            split: splitOf(card, level, game),
            view: structuredClone(view),
            legal: legal.map((a) => encodeAction(a)),
            played: encodeAction(canonicalTiles(action)),
            choices: choices.map((a) => encodeAction(a)),
          });
        }
      }
    }
    g.apply(state, action);
  }
  return out;
}
