import { describe, expect, it } from 'vitest';
import { CHOICE_KINDS, drillPosition, DRILL_KINDS, gradeChoice, gradeDrill, type DrillKind, type DrillPosition } from '../../agents/coach/drills.js';
import { hintFor, situationOf } from '../../agents/coach/hint.js';
import { sameAction } from '../../agents/coach/review.js';
import { judgeChoice } from '../../agents/mah-jongg/judge.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { loadCard } from '../../io/cards.js';

/**
 * Each drill kind's answer key is the hint's answer judged by the one judge (issue 61), at
 * generated positions: the hint a player would have had there, asked directly, is graded right;
 * every other choice is graded right exactly when the judge (agents/mah-jongg/judge.ts, asked
 * here directly) calls it right (as good as the hint's), with the exchange drill's one question
 * (take the joker or not) and the courtesy offer's count of tiles. The positions are all
 * different. Few worlds keep the check short: the key is the same function of the judge
 * whatever its worlds (how often a random answer is right at a drill's own worlds:
 * lab/drill-random.ts).
 */

const cc = loadCard();
const analyzer = new Analyzer(cc);
const POSITIONS = 200;
const JUDGED = 30;
const WORLDS = 8;
const JUDGE = 4;

describe('drill answer keys', () => {
  for (const kind of DRILL_KINDS.filter((k) => !CHOICE_KINDS.includes(k))) {
    it(`${kind}: the key is the hint's answer at ${POSITIONS} positions, all different, and the judge's verdict at ${JUDGED} of them`, () => {
      const seen = new Set<string>();
      for (let i = 0; i < POSITIONS; i++) {
        const level = ((i % 3) + 1) as 1 | 2 | 3;
        // exchange, courtesy and discard drills look through many deals (a discard drill for one
        // where the choice matters): numbers far apart, different deals
        const seed = kind === 'exchange' || kind === 'courtesy' || kind === 'discard' ? 1000 + 211 * i : 1000 + i;
        const pos = drillPosition(cc, { kind: kind as DrillKind, level, seed });
        seen.add(JSON.stringify([pos.deal, pos.seat, pos.view.phase, pos.view.concealed, pos.view.wallLeft, pos.view.claim]));
        const hint = hintFor(cc, pos.view, pos.legal, { worlds: WORLDS });
        expect(gradeDrill(cc, pos, hint, hint.action, JUDGE).right).toBe(true);
        if (i >= JUDGED) continue;
        const options: Action[] = pos.legal.filter((a) => a.type !== 'callDead');
        for (const a of options.filter((_, j) => j % (kind === 'charleston' || kind === 'courtesy' ? 41 : 5) === 0)) {
          const g = gradeDrill(cc, pos, hint, a, JUDGE);
          const verdict = judgeChoice(cc, analyzer, pos.view, pos.legal, a, hint.action, { maxWorlds: JUDGE }).verdict;
          let expected: boolean;
          if (sameAction(a, hint.action)) expected = true;
          // the exchange drill asks take the joker or not: any discard where the coach discards
          else if (kind === 'exchange' && (a.type === 'exchange') !== (hint.action.type === 'exchange')) expected = false;
          else if (kind === 'exchange' && a.type !== 'exchange') expected = true;
          // a courtesy offer: as many tiles as the coach's, and as good
          else if (a.type === 'courtesy' && hint.action.type === 'courtesy') expected = a.tiles.length === hint.action.tiles.length && verdict === 'right';
          else expected = verdict === 'right';
          expect({ drill: `${kind} ${level} #${seed}`, answer: a, right: g.right, judged: g.judged }).toEqual({ drill: `${kind} ${level} #${seed}`, answer: a, right: expected, judged: verdict });
        }
      }
      expect(seen.size).toBe(POSITIONS);
    }, 600_000);
  }

  /**
   * A choice drill's key against what the hint (or the engine under it) says at the position:
   * the line Which hand? puts first for the same situation typed in, and every other choice
   * farther; the hint's own rating of the tile asked; the engine's own proof of a dead hand
   * (a callDead it allows); the score the engine gave the game (tournament points: the
   * value and the rules' bonuses, counted here).
   */
  const keyOf: Record<string, (pos: DrillPosition) => string> = {
    hand: (pos) => {
      const sit = situationOf(pos.view);
      const ranked = analyzer.analyze(analysisInput(pos.view.copies, sit.hand, sit.exposed, sit.seen, sit.others)).filter((r) => r.possible);
      const best = ranked[0].tilesAway;
      for (const c of pos.choices!) if (c.id !== pos.key!.right) expect(ranked.find((r) => r.id === c.id)!.tilesAway).toBeGreaterThan(best);
      return ranked.find((r) => r.id === pos.key!.right)!.tilesAway === best ? pos.key!.right : 'not the closest';
    },
    safe: (pos) => hintFor(cc, pos.view, pos.legal, { worlds: 1 }).defence!.find((x) => x.tile === pos.key!.tiles[0])!.level,
    dead: (pos) => {
      const who = ['Right', 'Across', 'Left'].indexOf(/^Is (\w+)'s/.exec(pos.question)![1]);
      const target = (pos.seat + who + 1) % 4;
      return pos.legal.some((a) => a.type === 'callDead' && a.target === target) ? 'dead' : 'live';
    },
    score: (pos) => {
      const e = pos.state.result!.outcome.mahJonggs[0];
      return String(pos.level === 3 ? e.value + (e.selfPick ? 10 : 0) + (e.jokerless && !e.singlesAndPairs ? 20 : 0) : pos.state.result!.scores[pos.seat]);
    },
  };
  for (const kind of CHOICE_KINDS) {
    it(`${kind}: the key is the hint's (or the engine's) answer at ${POSITIONS} positions, all different, and grades so`, () => {
      const seen = new Set<string>();
      const rights = new Map<string, number>();
      for (let i = 0; i < POSITIONS; i++) {
        const level = ((i % 3) + 1) as 1 | 2 | 3;
        // numbers further apart than the deals a balanced drill looks through: different deals
        const pos = drillPosition(cc, { kind, level, seed: 1000 + 211 * i });
        seen.add(JSON.stringify([pos.deal, pos.seat, pos.view.phase, pos.view.concealed, pos.view.wallLeft, pos.question]));
        const key = keyOf[kind](pos);
        expect({ drill: `${kind} ${level} #${1000 + 211 * i}`, key: pos.key!.right }).toEqual({ drill: `${kind} ${level} #${1000 + 211 * i}`, key });
        for (const c of pos.choices!) expect(gradeChoice(pos, c.id).right).toBe(c.id === key);
        rights.set(key, (rights.get(key) ?? 0) + 1);
      }
      expect(seen.size).toBe(POSITIONS);
      // no one answer is right so often that always giving it would pass (hand and score: the answers differ by position)
      expect(Math.max(...rights.values())).toBeLessThan(kind === 'dead' ? 0.7 * POSITIONS : 0.6 * POSITIONS);
    }, 600_000);
  }
});
