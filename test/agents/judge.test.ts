import { describe, expect, it } from 'vitest';
import { decides, dominated, judgeChoice, MISTAKE_POINTS, RIGHT_POINTS, verdictOf } from '../../agents/mah-jongg/judge.js';
import { makeAgent } from '../../agents/mah-jongg/levels.js';
import { forcedAction, tableTurns } from '../../agents/table.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { mahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seedRng } from '../../engine/rng.js';
import { JOKER } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';

/** The coach's one judge (issue 61): agents/mah-jongg/judge.ts. Its precision against the truth set is lab/judge-study.ts's. */

const cc = loadCard();
const rules = loadRuleset('nmjl-4p');
const game = mahJonggGame(rules, cc);
const analyzer = new Analyzer(cc);

/** Moments of medium bots' games where `want` holds, with the legal actions and the bot's own choice. */
function moments(want: (v: SeatView, legal: Action[]) => boolean, count: number): { v: SeatView; legal: Action[]; played: Action }[] {
  const out: { v: SeatView; legal: Action[]; played: Action }[] = [];
  for (let seed = 1; out.length < count && seed < 400; seed++) {
    const state = game.newGame(seed);
    const bots = [0, 1, 2, 3].map(() => makeAgent('medium', cc, rules));
    const turns = tableTurns(game, state, seedRng(seed));
    for (let s = game.nextToAct(state); s >= 0 && out.length < count; s = game.nextToAct(state)) {
      const turn = turns[s];
      turn.phase = game.phase(state);
      const legal = game.legalActions(state, s);
      const played = bots[s].act(turn);
      if (forcedAction(legal) === null) {
        const v = game.view(state, s);
        if (want(v, legal)) {
          out.push({ v: structuredClone(v), legal, played });
          break; // one a game: moments from many deals
        }
      }
      game.apply(state, played);
    }
  }
  return out;
}

const few = { maxWorlds: 8 };

describe('the judge', () => {
  it('draws its lines once: the coach’s own choice is right, a rule that decides makes a mistake whatever the cost, and the cost decides the rest', () => {
    expect(verdictOf(50, true, false)).toBe('right');
    expect(verdictOf(0, true, true)).toBe('mistake');
    expect(verdictOf(0, false, true)).toBe('mistake');
    expect(verdictOf(RIGHT_POINTS - 0.01, false, false)).toBe('right');
    expect(verdictOf(RIGHT_POINTS, false, false)).toBe('asGood');
    expect(verdictOf(MISTAKE_POINTS - 0.01, false, false)).toBe('asGood');
    expect(verdictOf(MISTAKE_POINTS, false, false)).toBe('mistake');
    // which rules decide: a joker thrown, a self-picked Mah Jongg left; a called one let go, a call or a broken group only say why
    const declare: Action[] = [{ type: 'declare', seat: 0 }],
      call: Action[] = [{ type: 'callMahJongg', seat: 0 }];
    expect(decides({ rule: 'joker-thrown' }, [])).toBe(true);
    expect(decides({ rule: 'mahjongg-missed' }, declare)).toBe(true);
    expect(decides({ rule: 'mahjongg-missed' }, call)).toBe(false);
    expect(decides({ rule: 'call-no-closer' }, [])).toBe(false);
    expect(decides({ rule: 'group-broken' }, [])).toBe(false);
    expect(decides(null, declare)).toBe(false);
  });

  it('a thrown joker with a tile on the rack that serves no line is never right or about as good', () => {
    const useless = (v: SeatView) => dominated(cc, analyzer, v, [], { type: 'discard', seat: v.seat, tile: JOKER });
    const found = moments((v, legal) => v.phase === 'discard' && v.concealed[JOKER] > 0 && legal.some((a) => a.type === 'discard' && a.tile === JOKER) && useless(v) !== null, 4);
    expect(found.length).toBe(4);
    for (const { v, legal, played } of found) {
      const joker: Action = { type: 'discard', seat: v.seat, tile: JOKER };
      // against whatever the coach would do, even a coach that throws nothing better
      const coach = played.type === 'discard' && played.tile === JOKER ? legal.find((a) => a.type === 'discard' && a.tile !== JOKER)! : played;
      const j = judgeChoice(cc, analyzer, v, legal, joker, coach, few);
      expect(j.verdict).toBe('mistake');
      expect(j.rule).toBe('joker-thrown');
      expect(j.reason).toMatch(/^You threw a joker, which can stand in for a tile in almost any group, while .+ on your rack helps no hand on the card\.$/);
    }
  });

  it('Mah Jongg left on the table is a mistake, said in words', () => {
    const [m] = moments((_v, legal) => legal.some((a) => a.type === 'declare'), 1);
    const other = m.legal.find((a) => a.type === 'discard')!;
    const j = judgeChoice(cc, analyzer, m.v, m.legal, other, m.legal.find((a) => a.type === 'declare')!, few);
    expect(j).toMatchObject({ verdict: 'mistake', rule: 'mahjongg-missed', reason: 'Your hand was complete: you could have declared Mah Jongg and won the hand.' });
  });

  it("the coach's own choice is right with nothing sampled; another is judged on paired worlds, the same moment the same way every time", () => {
    const [m] = moments((v) => v.phase === 'discard' && v.wallLeft < 80, 1);
    const discards = m.legal.filter((a): a is Extract<Action, { type: 'discard' }> => a.type === 'discard' && a.tile !== JOKER);
    const coach = discards[0],
      other = discards[discards.length - 1];
    expect(judgeChoice(cc, analyzer, m.v, m.legal, coach, coach, few)).toEqual({ verdict: 'right', cost: 0, costSe: 0, worlds: 0, reason: '' });
    const a = judgeChoice(cc, analyzer, m.v, m.legal, other, coach, few);
    expect(a.worlds).toBeGreaterThan(0);
    expect(a.costSe).toBeGreaterThan(0);
    expect(['right', 'asGood', 'mistake']).toContain(a.verdict);
    if (a.verdict === 'right') expect(a.cost).toBe(0);
    expect(judgeChoice(cc, analyzer, m.v, m.legal, other, coach, few)).toEqual(a);
    // no worlds at all: the rules and nothing else
    const none = judgeChoice(cc, analyzer, m.v, m.legal, other, coach, { maxWorlds: 0 });
    expect(none.worlds).toBe(0);
  });

  it('a call that brings no line closer is said so when the cost makes it a mistake', () => {
    const found = moments((v, legal) => v.phase === 'claims' && legal.some((a) => a.type === 'call' && dominated(cc, analyzer, v, legal, a)?.rule === 'call-no-closer'), 3);
    expect(found.length).toBeGreaterThan(0);
    for (const { v, legal } of found) {
      const call = legal.find((a) => a.type === 'call' && dominated(cc, analyzer, v, legal, a) !== null)!;
      const j = judgeChoice(cc, analyzer, v, legal, call, { type: 'decline', seat: v.seat }, few);
      if (j.verdict === 'mistake') expect(j.reason).toMatch(/^(Calling .+ brings no hand on the card closer to Mah Jongg|An exposed .+ fits no hand on the card)/);
      else expect(j.reason).toBe('');
    }
  });
});
