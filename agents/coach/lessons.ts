import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import type { Action } from '../../engine/mah-jongg/game.js';
import { EAST, NORTH, SOUTH, WEST, tileName } from '../../engine/mah-jongg/tiles.js';
import { tileSafety, tileWords } from '../mah-jongg/defence.js';
import { type Drill, drillHint, drillPosition, gradeChoice, gradeDrill } from './drills.js';

/**
 * Lessons (issue 46): a short course in the teaching guide's order, each lesson a few steps at a
 * real, dealt position (a drill's: agents/coach/drills.ts). She does the thing; the step checks
 * it with the engine (and, where it asks for a good choice, with the coach's hint) and does not
 * go on until it is right; every answer is explained in one sentence.
 */

/** What a step asks of her answer. */
type Rule =
  /** any move the rules allow (the engine's refusal is the explanation) */
  | 'legal'
  /** the coach's choice or one its figures call about as good (as a drill grades); at a choice drill, its right answer */
  | 'coach'
  /** a Wind discarded (the tiles: telling them apart) */
  | 'wind'
  /** a call of the discard */
  | 'call'
  /** a joker taken from an exposure */
  | 'exchange'
  /** the discard rated safest among her tiles (agents/mah-jongg/defence.ts) */
  | 'safest';

export interface LessonStep {
  drill: Drill;
  /** What to do, in one or two sentences. */
  say: string;
  rule: Rule;
  /** Said when she has done it (the coach's reason is added where the rule is the coach's). */
  done: string;
}

export interface Lesson {
  id: string;
  title: string;
  /** Where the rule is written (the rule documents). */
  source: string;
  steps: LessonStep[];
}

export const LESSONS: readonly Lesson[] = [
  {
    id: 'tiles',
    title: 'The tiles',
    source: 'teaching guide, Part 1; Part 4, rule 1',
    steps: [
      {
        drill: { kind: 'discard', level: 1, seed: 17 },
        say: 'The tiles are three suits numbered 1 to 9 (Bams, Craks and Dots), the Winds (North, East, West and South), the Dragons (Red, Green and the white Soap), Flowers and jokers. Find a Wind on your rack and discard it.',
        rule: 'wind',
        done: 'Discarded: a Wind, one of the four tiles marked N, E, W and S.',
      },
    ],
  },
  {
    id: 'card',
    title: 'Reading the card',
    source: 'teaching guide, Part 5',
    steps: [
      {
        drill: { kind: 'hand', level: 1, seed: 2 },
        say: 'Each line of the card is a hand you may make: its groups of tiles, its suits (a, b and c stand for three different suits of your choosing) and its value. Choose the line your tiles are closest to.',
        rule: 'coach',
        done: 'Well read.',
      },
      {
        drill: { kind: 'hand', level: 2, seed: 4 },
        say: 'After the Charleston, look again: the tiles you received may point to another line. Choose the line to aim for now.',
        rule: 'coach',
        done: 'Well read.',
      },
    ],
  },
  {
    id: 'charleston',
    title: 'The Charleston',
    source: 'teaching guide, Part 2 (rule 4: the courtesy pass); standardized tournament rules 4',
    steps: [
      {
        drill: { kind: 'charleston', level: 1, seed: 3 },
        say: 'Before play, everyone passes three tiles, first to the right. Pass any three tiles to the right, but remember one rule: a joker is never passed.',
        rule: 'legal',
        done: 'Passed: any three tiles may go in the Charleston, never a joker.',
      },
      {
        drill: { kind: 'charleston', level: 1, seed: 3 },
        say: 'Now choose well: pass the three tiles that help your hand least, the ones that fit none of the card lines your tiles are building.',
        rule: 'coach',
        done: 'Well chosen.',
      },
      {
        drill: { kind: 'courtesy', level: 1, seed: 2 },
        say: 'After the Charleston comes the courtesy pass: you and the player across may swap up to three tiles, and the smaller offer sets how many change hands. Offer the tiles that help your hand least, or none.',
        rule: 'coach',
        done: 'Well offered.',
      },
    ],
  },
  {
    id: 'discard',
    title: 'Discarding',
    source: 'teaching guide, Part 4',
    steps: [
      {
        drill: { kind: 'discard', level: 1, seed: 5 },
        say: 'On your turn you draw a tile and discard one. Discard a tile your closest card line does not need.',
        rule: 'coach',
        done: 'Good discard.',
      },
    ],
  },
  {
    id: 'calling',
    title: 'Calling a discard',
    source: 'teaching guide, Part 4, rules 2 and 3',
    steps: [
      {
        drill: { kind: 'call', level: 2, seed: 1 },
        say: 'A discard that completes a pung (three alike), a kong or a quint may be called: you expose the group on your rack and discard a tile. This discard helps your hand: call it.',
        rule: 'call',
        done: 'Called: the group is exposed on your rack for everyone to see, and now you discard.',
      },
      {
        drill: { kind: 'call', level: 2, seed: 2 },
        say: 'Not every tile you could call is worth it: a call shows your tiles and rules out the concealed lines. Decide as a good player would.',
        rule: 'coach',
        done: 'Well decided.',
      },
    ],
  },
  {
    id: 'jokers',
    title: 'Jokers and exchanges',
    source: 'teaching guide, Part 4, rule 7; Part 5, rule 6',
    steps: [
      {
        drill: { kind: 'exchange', level: 1, seed: 0 },
        say: 'A joker stands for any tile in a pung, kong or quint, never in a single or a pair. When a joker lies in an exposure and you hold the tile it stands for, you may take it on your turn: exchange your tile for that joker.',
        rule: 'exchange',
        done: 'Exchanged: your tile took the joker’s place, and the joker is yours to use in any group.',
      },
    ],
  },
  {
    id: 'dead',
    title: 'Dead hands',
    source: 'teaching guide, Part 6, rules 3 and 6',
    steps: [
      {
        drill: { kind: 'dead', level: 2, seed: 2 },
        say: 'A hand is dead when no hand on the card can still be made with its exposures: no line has them, or the tiles it needs are on the table. A dead player stops playing and still pays. Read the exposures and the discards, then answer the question below.',
        rule: 'coach',
        done: 'Right.',
      },
      {
        drill: { kind: 'dead', level: 2, seed: 0 },
        say: 'And this one: can that player still make a hand on the card?',
        rule: 'coach',
        done: 'Right.',
      },
    ],
  },
  {
    id: 'scoring',
    title: 'Scoring',
    source: 'teaching guide, Part 6, rule 2; standardized tournament rules 11',
    steps: [
      {
        drill: { kind: 'score', level: 1, seed: 0 },
        say: 'When you make Mah Jongg each other player pays you the value of your hand on the card, and whoever threw the winning tile pays double. A hand with no jokers counts double.',
        rule: 'coach',
        done: 'Right.',
      },
      {
        drill: { kind: 'score', level: 2, seed: 0 },
        say: 'When you pick the winning tile from the wall yourself, every other player pays double.',
        rule: 'coach',
        done: 'Right.',
      },
    ],
  },
  {
    id: 'defence',
    title: 'Defence',
    source: 'teaching guide, Part 6',
    steps: [
      {
        drill: { kind: 'discard', level: 3, seed: 1 },
        say: 'Late in the game, look at what the others have exposed and thrown. Discard the tile least likely to give another player Mah Jongg.',
        rule: 'safest',
        done: 'A safe discard.',
      },
    ],
  },
];

/** A lesson's step by the lesson's id and the step's number (from 1). */
export function lessonStep(id: unknown, step: unknown): { lesson: Lesson; step: LessonStep } {
  const lesson = LESSONS.find((l) => l.id === id);
  if (lesson === undefined) throw new TilemateError('TM_BAD_INPUT', `unknown lesson "${String(id).slice(0, 40)}" (expected one of ${LESSONS.map((l) => l.id).join(', ')})`);
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 1 || step > lesson.steps.length) {
    throw new TilemateError('TM_BAD_INPUT', `the lesson "${lesson.title}" has steps 1 to ${lesson.steps.length}, not ${String(step)}`);
  }
  return { lesson, step: lesson.steps[step - 1] };
}

export interface StepCheck {
  /** Done: the step may go on. */
  ok: boolean;
  /** Why, in a sentence or two: what was wrong, or what she did right. */
  words: string;
}

/**
 * Checks her answer to a step: a choice by the drill's key; a move with the engine first (a
 * move the rules refuse is never done), then by the step's rule.
 */
export function checkStep(cc: CompiledCard, step: LessonStep, answer: Action | { choice: string }, opts: { worlds?: number; judgeWorlds?: number } = {}): StepCheck {
  const pos = drillPosition(cc, step.drill);
  if ('choice' in answer) {
    const g = gradeChoice(pos, answer.choice);
    return g.right ? { ok: true, words: `${step.done} ${g.reason}` } : { ok: false, words: `Not yet: ${g.reason}` };
  }
  if (pos.choices !== undefined) throw new TilemateError('TM_BAD_INPUT', 'this step is answered by choosing one of its answers, not by a move');
  if (answer.seat !== pos.seat) throw new TilemateError('TM_BAD_INPUT', `this lesson's player sits at seat ${pos.seat}, not seat ${answer.seat}`);
  const refused = pos.game.tryApply(pos.game.clone(pos.state), answer);
  if (refused !== null) return { ok: false, words: `Not yet: ${refused.message.replace(/^seat \d+ /, 'you ')}.` };
  switch (step.rule) {
    case 'legal':
      return { ok: true, words: step.done };
    case 'wind':
      if (answer.type === 'discard' && [NORTH, EAST, WEST, SOUTH].includes(answer.tile)) return { ok: true, words: step.done };
      return {
        ok: false,
        words: `Not yet: ${answer.type === 'discard' ? `${tileWords(answer.tile)} is not a Wind` : 'discard a tile'}; the four Winds are North, East, West and South.`,
      };
    case 'exchange':
      return answer.type === 'exchange'
        ? { ok: true, words: step.done }
        : { ok: false, words: 'Not yet: a joker lies in an exposure, and you hold the tile it stands for: exchange it before you discard.' };
    case 'call':
      return answer.type === 'call' || answer.type === 'callMahJongg'
        ? { ok: true, words: step.done }
        : { ok: false, words: 'Not yet: this discard completes a group in your hand, so call it rather than let it go.' };
    case 'safest': {
      if (answer.type !== 'discard') return { ok: false, words: 'Not yet: choose a tile to discard.' };
      const safety = tileSafety(cc, pos.view);
      const order = ['safe', 'risky', 'dangerous'];
      const best = Math.min(...safety.map((x) => order.indexOf(x.level)));
      const mine = safety.find((x) => x.tile === answer.tile);
      if (mine === undefined) return { ok: false, words: `Not yet: ${tileName(answer.tile)} is not rated; choose another tile.` };
      return order.indexOf(mine.level) === best ? { ok: true, words: `${step.done} ${mine.why}` } : { ok: false, words: `Not yet: ${mine.why}` };
    }
    case 'coach': {
      const hint = drillHint(cc, pos, opts.worlds === undefined ? {} : { worlds: opts.worlds });
      // the one judge (agents/mah-jongg/judge.ts), as a drill grades
      const g = gradeDrill(cc, pos, hint, answer, opts.judgeWorlds);
      return g.right ? { ok: true, words: `${step.done} ${hint.text}` } : { ok: false, words: `Not yet: the coach would ${g.coach}. Try that, or another choice as good.` };
    }
  }
}
