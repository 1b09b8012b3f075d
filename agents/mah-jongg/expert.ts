import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { beforePlay, type Action } from '../../engine/mah-jongg/game.js';
import type { Ruleset } from '../../engine/mah-jongg/rulesets.js';
import type { Agent, Turn } from '../agent.js';
import { judgeChoice } from './judge.js';
import { LearnedAgent } from './learned.js';
import type { ValueModel } from './model.js';

/**
 * The expert (issue 61): the learned player whose choices the coach's one judge checks
 * (agents/mah-jongg/judge.ts), the same judge that grades a player's decisions in the review
 * and the drills. At a discard, an answer to a discard and each Charleston step (a pass, the
 * vote, the courtesy offer), it takes the policy's best few choices (LearnedAgent.choices) and
 * asks the judge, for each alternative, whether the policy's own choice is a mistake against it
 * (judgeChoice with the policy's choice as the one made and the alternative as the coach's):
 * the rules first, then the coach's model a turn ahead in paired worlds, then whole games while
 * the verdict is unclear. It plays the alternative the judge finds the policy's choice costs
 * the most against, and only when the verdict is a mistake (MISTAKE_POINTS or a rule that
 * decides); otherwise the policy's own choice. No line of its own: the judge's lines
 * (verdictOf) decide, so the expert never overrules the policy where the review would call its
 * choice right or about as good.
 *
 * Deterministic from the view: the judge's worlds are seeded from the moment (judgeSeed), the
 * policy's choices from the view and the turn's generator, and the budget is work (the
 * judge's worlds), not time, unless the clock's valve is set for play against a person.
 */
export interface ExpertBudget {
  /** The policy's best choices weighed in play (its own and candidates − 1 alternatives); under 2: the policy alone. */
  candidates: number;
  /** The same at a Charleston step (a pass, the vote, the courtesy offer); under 2: the policy alone. */
  charlestonCandidates: number;
  /**
   * The judge's whole games at most for each alternative (JudgeOptions.maxWorlds): played only
   * when its quick evaluation (the model a turn ahead) leaves the verdict unclear.
   */
  worlds: number;
  /**
   * A safety valve for play against a person (levels.ts VALVE_MS), not the budget: once a
   * decision has taken this many milliseconds, no further alternative is put to the judge (the
   * first always is, and a question is never cut short: the judge takes no clock). Unset
   * (arenas, self-play): the work budget alone, the same choice on any machine.
   */
  ms?: number;
}

/**
 * The expert's budget: the policy's best three in play (two questions to the judge a
 * decision), its best two at a Charleston step (one question: there the quick evaluation plays
 * on through the rest of the Charleston, several times a play question's work), and 8 worlds
 * a question (the judge's quick worlds, then as many whole games when the verdict is unclear):
 * about the old lookahead's work a decision (12 worlds x 3 choices to the next turn) with whole
 * games where it is close. On a busy machine (bench/decisions.js, 3 games) its own decisions took
 * 1.6 s a game (discards 73 ms each, p99 0.38 s), the old lookahead's 0.22 s, hard's 0.05 s;
 * with 16 worlds a question (2 games) about 5 s of play and 2.8 s of Charleston a game.
 */
export const EXPERT_JUDGED: ExpertBudget = { candidates: 3, charlestonCandidates: 2, worlds: 8 };

/** The judge the expert asks (judgeChoice; a test may hand it another). */
export type ExpertJudge = typeof judgeChoice;

export class ExpertAgent implements Agent {
  readonly name: string;
  private readonly policy: LearnedAgent;
  private readonly analyzer: Analyzer;
  /** Decisions the judge was asked about, and those where it found the policy's choice a mistake (measuring). */
  readonly asked = { decisions: 0, questions: 0, switched: 0 };

  constructor(
    private readonly cc: CompiledCard,
    private readonly rules: Ruleset,
    private readonly model: ValueModel | null,
    private readonly budget: ExpertBudget = EXPERT_JUDGED,
    name = 'expert',
    private readonly judge: ExpertJudge = judgeChoice,
  ) {
    this.name = name;
    this.policy = new LearnedAgent(cc, model, {}, `${name}-policy`);
    this.analyzer = new Analyzer(cc);
  }

  act(turn: Turn): Action {
    const before = beforePlay(turn.phase);
    const weighed = before ? this.budget.charlestonCandidates : this.budget.candidates;
    // the judge samples no worlds at a table of two racks a seat, nor once someone has declared (judgeChoice)
    if (this.model === null || weighed < 2 || (turn.phase !== 'discard' && turn.phase !== 'claims' && !before) || this.rules.racks > 1) return this.policy.act(turn);
    const choices = this.policy.choices(turn);
    // nothing to weigh: a draw, Mah Jongg, an exchange, a decline with no call allowed
    if (choices.length === 0) return this.policy.act(turn);
    const own = choices[0].action;
    if (choices.length === 1) return own;
    const view = turn.view();
    if (view.mahJonggs.length > 0) return own;
    const legal = turn.legal();
    const start = this.budget.ms === undefined ? 0 : Date.now();
    this.asked.decisions++;
    let pick = own,
      worst = Number.NEGATIVE_INFINITY;
    for (const [i, alt] of choices.slice(1, weighed).entries()) {
      if (i > 0 && this.budget.ms !== undefined && Date.now() - start > this.budget.ms) break;
      this.asked.questions++;
      const j = this.judge(this.cc, this.analyzer, view, legal, own, alt.action, { maxWorlds: this.budget.worlds });
      if (j.verdict === 'mistake' && j.cost > worst) {
        worst = j.cost;
        pick = alt.action;
      }
    }
    if (pick !== own) this.asked.switched++;
    return pick;
  }
}
