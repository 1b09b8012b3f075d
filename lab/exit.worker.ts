import type { Agent } from '../agents/agent.js';
import { featureWidth } from '../agents/mah-jongg/features.js';
import { HeuristicAgent, MEDIUM_HABITS } from '../agents/mah-jongg/heuristic.js';
import type { ValueModel } from '../agents/mah-jongg/model.js';
import { PolicySearchAgent, type PolicySearchBudget, type SearchRecord } from './bots/policy.js';
import { readPolicyModel } from './bots/policy-model.js';
import { playOut } from '../agents/table.js';
import { parseCard } from '../engine/mah-jongg/card.js';
import { compileCard, type CompiledCard } from '../engine/mah-jongg/compile.js';
import { newGame } from '../engine/mah-jongg/game.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';

/**
 * Expert iteration's self-play (lab/exit.ts), one batch of games in a worker thread (or
 * inline): in each game one seat plays the policy with its search (lab/bots/policy.ts
 * PolicySearchAgent) among three medium bots, the opponents the bots meet at the practice
 * table. Each searched decision gives the policy a target (every candidate's row and the row
 * the search chose); each of the seat's chosen afterstates gives the value a target (whether
 * the seat won, its score / 100: the game's outcome, no bootstrapping). A game is a pure
 * function of its seed: the same seeds give the same examples.
 */
export interface ExitTask {
  ruleset: string;
  /** The card's text ('' for the practice card). */
  cardText: string;
  /** The model's file text (with or without the policy head). */
  model: string;
  budget: PolicySearchBudget;
  seeds: number[];
}

export interface ExitExamples {
  /** Numbers in a feature row (the model's feature version's). */
  width: number;
  /** Value rows (rows x width) and their targets (rows x 2: won 0/1, score / 100). */
  valueX: Float32Array;
  valueY: Float32Array;
  /** Policy decisions: their candidates' rows one decision after another, where each starts (decisions + 1), and the target row within each. */
  policyX: Float32Array;
  policyStart: Int32Array;
  policyTarget: Int32Array;
  /** Searched decisions where the search overruled the policy's own choice. */
  overruled: number;
  games: number;
  wins: number;
}

let kept: { key: string; cc: CompiledCard; model: ValueModel } | null = null;

class Grow {
  data: Float32Array;
  length = 0;
  constructor(n = 1 << 16) {
    this.data = new Float32Array(n);
  }
  push(from: ArrayLike<number>): void {
    while (this.length + from.length > this.data.length) {
      const g = new Float32Array(this.data.length * 2);
      g.set(this.data);
      this.data = g;
    }
    this.data.set(from, this.length);
    this.length += from.length;
  }
  done(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

export function exitSelfPlay(task: ExitTask): ExitExamples {
  const key = `${task.cardText}\u0000${task.model}`;
  if (kept?.key !== key) kept = { key, cc: task.cardText === '' ? loadCard() : compileCard(parseCard(task.cardText)), model: readPolicyModel(task.model) };
  const { cc, model } = kept;
  const rules = loadRuleset(task.ruleset);
  const players = rules.players;
  const vx = new Grow(),
    px = new Grow();
  const vy: number[] = [],
    starts: number[] = [0],
    targets: number[] = [];
  let overruled = 0,
    wins = 0;
  for (const seed of task.seeds) {
    const seat = seed % players;
    const gameRows = new Grow(1 << 12);
    let rows = 0;
    const hooks = {
      record: (r: SearchRecord) => {
        px.push(r.rows);
        starts.push(starts[starts.length - 1] + r.candidates);
        targets.push(r.target);
        if (r.target !== r.policyChoice) overruled++;
      },
      chosen: (_seat: number, row: Float32Array) => {
        gameRows.push(row);
        rows++;
      },
    };
    const searcher = new PolicySearchAgent(cc, rules, model, task.budget, 'exit', hooks);
    const medium = new HeuristicAgent(cc, MEDIUM_HABITS, 'medium');
    const agents: Agent[] = Array.from({ length: players }, (_, s) => (s === seat ? searcher : medium));
    const state = newGame(rules, cc, seed);
    playOut(mahJonggGame(rules, cc), state, agents, seedRng((seed ^ 0x2545f491) >>> 0));
    const r = state.result!;
    const won = r.winners.includes(seat) ? 1 : 0;
    wins += won;
    vx.push(gameRows.done());
    for (let i = 0; i < rows; i++) vy.push(won, r.scores[seat] / 100);
  }
  const valueX = vx.done();
  const width = featureWidth(model.featureVersion);
  if (valueX.length !== (vy.length / 2) * width) throw new Error('exit self-play: value rows and targets out of step');
  return { width, valueX, valueY: Float32Array.from(vy), policyX: px.done(), policyStart: Int32Array.from(starts), policyTarget: Int32Array.from(targets), overruled, games: task.seeds.length, wins };
}

export default function run(task: ExitTask): ExitExamples {
  return exitSelfPlay(task);
}
