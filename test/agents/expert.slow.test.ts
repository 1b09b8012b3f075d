import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.js';
import { ExpertAgent, type ExpertJudge } from '../../agents/mah-jongg/expert.js';
import { judgeChoice, sameChoice, type Judgement } from '../../agents/mah-jongg/judge.js';
import { LearnedAgent } from '../../agents/mah-jongg/learned.js';
import type { ValueModel } from '../../agents/mah-jongg/model.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { tableTurns } from '../../agents/table.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { cc, decisions, game, model, rules, tiny } from './expert-deals.js';

/**
 * The expert over whole deals: the same deal played the same way twice, only legal actions,
 * and the real judge switching a policy that plays the worst choices. Slow: whole deals with the
 * judge's playouts at every decision, a quarter of a minute on a busy machine; the expert's
 * wiring with a stand-in judge is test/agents/expert.test.ts (unit).
 */

/** Plays deal `seed` with `expert` at seat 0 among three medium bots; every action of seat 0, each checked against the legal actions first. */
function play(seed: number, expert: Agent, stopAfter = Number.POSITIVE_INFINITY): { actions: Action[]; illegal: Action[] } {
  const state = game.newGame(seed);
  const agents = [expert, ...[1, 2, 3].map(() => makeAgent('medium', cc, rules))];
  const turns = tableTurns(game, state, seedRng(seed));
  const actions: Action[] = [],
    illegal: Action[] = [];
  for (let s = game.nextToAct(state); s >= 0 && actions.length < stopAfter; s = game.nextToAct(state)) {
    const turn = turns[s];
    turn.phase = game.phase(state);
    const a = agents[s].act(turn);
    if (s === 0) {
      if (!game.legalActions(state, s).some((b) => sameChoice(a, b))) illegal.push(a);
      actions.push(a);
    }
    game.apply(state, a);
  }
  return { actions, illegal };
}

/** The value model turned upside down: its policy takes the choices the shipped model rates worst. */
const upsideDown = (m: ValueModel): ValueModel => ({
  ...m,
  layers: m.layers.map((l, i) => (i === m.layers.length - 1 ? { ...l, kernel: l.kernel.map((x) => -x), bias: l.bias.map((x) => -x) } : l)),
});

describe('the expert', () => {
  it('plays the same deal the same way twice, and only legal actions', () => {
    const make = () => new ExpertAgent(cc, rules, model, tiny, 'expert');
    const first = play(7, make());
    const again = play(7, make());
    expect(first.actions.length).toBeGreaterThan(20);
    expect(again.actions).toEqual(first.actions);
    expect(first.illegal).toEqual([]);
    // the same agent serving a second game keeps nothing of the first
    const one = make();
    play(8, one, 40);
    expect(play(7, one).actions).toEqual(first.actions);
  });

  it('with the real judge: a policy that plays the worst choices is switched wherever the judge finds its choice a mistake', () => {
    const bad = upsideDown(model);
    const policy = new LearnedAgent(cc, bad, {}, 'policy');
    const judged: Judgement[][] = [];
    const spy: ExpertJudge = (...args) => {
      const j = judgeChoice(...args);
      judged[judged.length - 1].push(j);
      return j;
    };
    const expert = new ExpertAgent(cc, rules, bad, { candidates: 3, charlestonCandidates: 0, worlds: 8 }, 'expert', spy);
    let switched = 0,
      seen = 0;
    for (const seed of [3, 4, 5]) {
      for (const turn of decisions(seed, policy, ['discard'])) {
        const choices = policy.choices(turn).map((c) => c.action);
        judged.push([]);
        const a = expert.act(turn);
        const js = judged[judged.length - 1];
        expect(js).toHaveLength(2);
        const mistakes = js.map((j, i) => ({ j, alt: choices[i + 1] })).filter(({ j }) => j.verdict === 'mistake');
        if (mistakes.length === 0) expect(a).toEqual(choices[0]);
        else {
          const worst = mistakes.reduce((x, y) => (y.j.cost > x.j.cost ? y : x));
          expect(a).toEqual(worst.alt);
          switched++;
        }
        if (++seen >= 6 || switched >= 2) break;
      }
      if (switched >= 2) break;
    }
    expect(switched).toBeGreaterThan(0);
    expect(expert.asked.switched).toBe(switched);
  });
});
