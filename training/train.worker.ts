import type { Agent } from '../agents/agent.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import { LearnedAgent } from '../agents/mah-jongg/learned.js';
import { EXPERT_LOOKAHEAD, LookaheadAgent } from '../agents/mah-jongg/lookahead.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { HARD_BUDGET, MonteCarloAgent } from '../agents/mah-jongg/montecarlo.js';
import { modelFromJson, type ValueModel } from '../agents/mah-jongg/model.js';
import { playOut } from '../agents/table.js';
import { parseCard } from '../engine/mah-jongg/card.js';
import { compileCard, type CompiledCard } from '../engine/mah-jongg/compile.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { selfPlay, type PlaySettings, type SelfPlayStats } from './selfplay.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { truthOf, type TruthResult, type TruthTask } from './truth.js';

/**
 * The training's worker threads (piscina): self-play batches, whose examples come back as
 * typed arrays in shared memory (not copied through the message), and evaluation deals. Each
 * task carries its card's text; the cards (a run may train on several) and the models are
 * compiled once per worker and kept.
 */
export interface SelfPlayTask {
  kind: 'selfplay';
  ruleset: string;
  cardText: string;
  model: string | null;
  /** The feature version recorded (the run's; a model's own when there is one). */
  featureVersion: number;
  settings: PlaySettings;
  seeds: number[];
}

/** An agent under test: a model's policy (level 'expert': with the lookahead search), or a bot level by name. */
export interface Subject {
  name: string;
  model?: string;
  level?: string;
}

export interface EvalTask {
  kind: 'eval';
  ruleset: string;
  cardText: string;
  subjects: Subject[];
  /** The other seats' bot level. */
  opponents: string;
  seed: number;
  deals: number[];
}

/**
 * How often a model's policy discards what the Monte Carlo search (the hard bot's: its habits'
 * best few discards played out in sampled worlds) discards, at every `every`-th discard of
 * games of four learned players.
 */
export interface AgreementTask {
  kind: 'agreement';
  ruleset: string;
  cardText: string;
  model: string;
  seeds: number[];
  every: number;
}

export interface AgreementResult {
  positions: number;
  withSearch: number;
}

/** Per deal, per subject: wins and total score over the rotations of its seat. */
export interface DealResult {
  deal: number;
  wins: number[];
  scores: number[];
  seats: number;
}

export interface SelfPlayResult {
  x: Float32Array;
  y: Float32Array;
  rows: number;
  stats: SelfPlayStats;
}

const cards = new Map<string, CompiledCard>();
const models = new Map<string, ValueModel>();

/** A run on several cards hands a worker their tasks in turn: each card is compiled once and kept. */
function cardOf(text: string): CompiledCard {
  let cc = cards.get(text);
  if (!cc) {
    if (cards.size >= 8) cards.delete(cards.keys().next().value!);
    cc = compileCard(parseCard(text));
    cards.set(text, cc);
  }
  return cc;
}

function modelOf(text: string): ValueModel {
  let m = models.get(text);
  if (!m) {
    if (models.size > 8) models.clear();
    m = modelFromJson(text);
    models.set(text, m);
  }
  return m;
}

/** The seed of evaluation deal d. */
export const evalDealSeed = (seed: number, deal: number): number => (seed + deal * 7919) >>> 0;

/** Plays deal `deal` once per seat for each subject, the other seats taken by `opponents`. */
export function evalDeal(task: Omit<EvalTask, 'kind' | 'deals'>, cc: CompiledCard, deal: number, agentOf: (s: Subject) => Agent): DealResult {
  const rules = loadRuleset(task.ruleset);
  const n = rules.players;
  const seed = evalDealSeed(task.seed, deal);
  const wins: number[] = [],
    scores: number[] = [];
  for (const subject of task.subjects) {
    let w = 0,
      sc = 0;
    for (let seat = 0; seat < n; seat++) {
      const agents = Array.from({ length: n }, (_, s) => (s === seat ? agentOf(subject) : makeAgent(task.opponents, cc, rules)));
      const state = newGame(rules, cc, seed);
      playOut(mahJonggGame(rules, cc), state, agents, seedRng(seed ^ (0x9e3779b9 * (seat + 1))));
      if (state.result!.winners.includes(seat)) w++;
      sc += state.result!.scores[seat];
    }
    wins.push(w);
    scores.push(sc);
  }
  return { deal, wins, scores, seats: n };
}

export function subjectAgent(cc: CompiledCard, ruleset: string, s: Subject): Agent {
  if (s.model !== undefined) {
    return s.level === 'expert' ? new LookaheadAgent(cc, loadRuleset(ruleset), modelOf(s.model), EXPERT_LOOKAHEAD, s.name) : new LearnedAgent(cc, modelOf(s.model), {}, s.name);
  }
  if (s.level === 'medium') return new HeuristicAgent(cc, MEDIUM_HABITS, 'medium');
  return makeAgent(s.level ?? s.name, cc, loadRuleset(ruleset));
}

export function searchAgreement(task: Omit<AgreementTask, 'kind'>, cc: CompiledCard): AgreementResult {
  const rules = loadRuleset(task.ruleset);
  const learned = new LearnedAgent(cc, modelOf(task.model));
  const search = new MonteCarloAgent(cc, rules, HARD_BUDGET, 'search');
  let discards = 0,
    positions = 0,
    withSearch = 0;
  const asked: Agent = {
    name: 'learned',
    act(turn) {
      const action = learned.act(turn);
      if (turn.phase === 'discard' && action.type === 'discard' && discards++ % task.every === 0) {
        // the search gets a random stream of its own, so the game goes on as it would without it
        const theirs = search.act({ ...turn, rng: seedRng(discards * 0x9e3779b9) });
        positions++;
        if (theirs.type === 'discard' && theirs.tile === action.tile) withSearch++;
      }
      return action;
    },
  };
  for (const seed of task.seeds) playOut(mahJonggGame(rules, cc), newGame(rules, cc, seed), Array(rules.players).fill(asked), seedRng(seed));
  return { positions, withSearch };
}

export default function run(task: SelfPlayTask | EvalTask | AgreementTask | TruthTask): SelfPlayResult | DealResult[] | AgreementResult | TruthResult {
  const cc = cardOf(task.cardText);
  if (task.kind === 'agreement') return searchAgreement(task, cc);
  if (task.kind === 'truth') return truthOf(task, cc);
  if (task.kind === 'eval') return task.deals.map((d) => evalDeal(task, cc, d, (s) => subjectAgent(cc, task.ruleset, s)));
  const { examples, stats } = selfPlay(
    { ...task.settings, ruleset: loadRuleset(task.ruleset), cc, model: task.model === null ? null : modelOf(task.model), featureVersion: task.featureVersion },
    task.seeds,
  );
  return { x: shared(examples.x), y: shared(examples.y), rows: examples.rows, stats };
}

/**
 * A copy in a SharedArrayBuffer, which a message passes by reference. Not a transfer: moving an
 * ArrayBuffer out detaches it, and the first detached buffer switches off V8's assumption that
 * none ever is, for the whole thread; from then on every typed-array access checks, and this
 * worker's games ran about 17% slower (measured: 400 games, 1.91 s against 2.24 s).
 */
function shared(a: Float32Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
