import { describe, expect, it } from 'vitest';
import { callAdvice, courtesyAdvice, decisionWords, discardAdvice, voteAdvice, type Alternative } from '../agents/mah-jongg/advice.js';
import { describeAction, reviewRecord, summaryText } from '../agents/coach/review.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { playRecorded } from '../agents/table.js';
import { parseCard } from '../engine/mah-jongg/card.js';
import { compileCard } from '../engine/mah-jongg/compile.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { seedRng, shuffle } from '../engine/rng.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { COPIES, formatTiles, tilesFromCounts } from '../engine/mah-jongg/tiles.js';
import { loadCard } from '../io/cards.js';
import { captureOutput, run } from './api/capture.js';

/**
 * Plain words (issue 29): every sentence a player reads from the coach (the hint of every
 * kind, the review's reasons and summary, the advice's sentence and reason, the vote and
 * courtesy reasons, the main lines of `tilemate advise`) is free of the engine's words. The
 * figures behind them (`details`, the CLI's Details) may use them, and are not checked here.
 */

/** Engine words a beginner does not know, each with what it catches. */
const BANNED: readonly [RegExp, string][] = [
  [/\bworlds?\b/i, 'worlds'],
  [/\bsampled\b/i, 'sampled'],
  [/\bdeals?\b/i, '"deals" as a unit of statistics'],
  [/±/, '±'],
  [/\bcheapest\b/i, 'cheapest'],
  [/(?<!tiles? )\baway\b/i, '"away" without "tiles"'],
  [/\bseat \d/i, 'seat numbers'],
  [/\b(teaching guide|standardized (tournament )?rules|tournament rules|senior games rules)\b|\bpart \d/i, 'rule-part citations'],
  [/#\d/, 'card line ids'],
  [/(^|[\s;(])[xc] \d{2}\b/, 'x/c notation'],
  [/\bmodel\b/i, 'model'],
  [/\bheuristic\b/i, 'heuristic'],
  [/\bplayouts?\b/i, 'playout'],
  [/\bstandard errors?\b/i, 'standard error'],
  [/\bnoise\b/i, 'noise'],
  [/\d\.\d/, 'decimal figures'],
  [/\d%/, 'percentages (the chances panel states the one chance figure)'],
  [/\bE\[score\]/, 'E[score]'],
];

/** The banned words a text holds, by name. */
function engineWords(text: string): string[] {
  return BANNED.filter(([re]) => re.test(text)).map(([, name]) => name);
}

const cc = loadCard();
const rules = loadRuleset('nmjl-4p');
const game = mahJonggGame(rules, cc);
let out = '';

captureOutput(
  (stream, chunk) => {
    if (stream === 'out') out += chunk;
  },
  () => {
    out = '';
  },
);

/** Every text checked, with where it came from, for the failure message. */
const texts: { from: string; text: string }[] = [];
const check = (from: string, text: string | undefined) => {
  if (text !== undefined) texts.push({ from, text });
};
const offenders = () => texts.map((t) => ({ ...t, words: engineWords(t.text) })).filter((t) => t.words.length > 0);

/** Random 13- or 14-tile hands from the standard set. */
function hands(n: number, size: number, seed: number): string[] {
  const rng = seedRng(seed);
  const all = tilesFromCounts(COPIES);
  return Array.from({ length: n }, () => formatTiles(shuffle(rng, [...all]).slice(0, size)));
}

describe('plain words', () => {
  it("the banned list catches the tester's examples and lets plain sentences through", () => {
    for (const bad of [
      '2026 #6 (8 away)',
      'the cheapest to give up',
      'scores -27.71 on average over 24 sampled deals',
      '± 10.06',
      'more worlds would tell them apart',
      "the trained model's choice",
      'pays 35 to seat 1 (teaching guide part 6.2)',
      'a lead within the noise',
      'Mah Jongg in 50%',
      'F 246a 888a ; x 30',
    ]) {
      expect(engineWords(bad), bad).not.toEqual([]);
    }
    expect(engineWords('Discard 6B (discard 5D is about as good): it leaves you 3 tiles from Mah Jongg with the second Stairs line.')).toEqual([]);
    expect(engineWords('Vote yes: your hand is 6 tiles from Mah Jongg, and three more passes would likely bring it to about 5.')).toEqual([]);
  });

  it('hints and reviews of every kind in recorded games, the advice on random hands and the command line say nothing in engine words', async () => {
    const compile = (text: string) => compileCard(parseCard(text));
    const phases = new Set<string>();
    for (const seed of [3, 4]) {
      const names = ['medium', 'medium', 'medium', 'medium'];
      const text = playRecorded(game, seed, { names, agents: names.map((n) => makeAgent(n, cc, rules)) }, seedRng(seed)).record!;
      for (const seat of [0, 1]) {
        const review = reviewRecord(text, compile, { seat, worlds: 2 });
        check('review summary', review.summary.text);
        check('review dead hand', review.dead?.why);
        for (const d of review.decisions) {
          phases.add(d.phase);
          check(`review ${d.phase} why (the hint's text)`, d.why);
          check(`review ${d.phase} chosen`, d.chosen);
          check(`review ${d.phase} suggested`, d.suggested);
        }
      }
    }
    expect([...phases].sort()).toEqual(['charleston', 'claims', 'courtesy', 'discard', 'vote']);
    for (const [i, hand] of hands(6, 13, 11).entries()) {
      check('vote', voteAdvice(cc, COPIES, { hand }).why);
      check('courtesy', courtesyAdvice(cc, COPIES, { hand }).why);
      const call = callAdvice(cc, { hand, tile: ['2B', '5D', 'F', 'N', 'GD', '8C'][i], from: 'across' }, { worlds: 2 });
      check('call plain', call.plain);
      check('call why', call.why);
      for (const a of call.alternatives) check('call action', a.action);
    }
    for (const hand of hands(6, 14, 12)) {
      const discard = discardAdvice(cc, { hand }, { worlds: 2 });
      check('discard plain', discard.plain);
      check('discard why', discard.why);
    }
    check('summary, no decisions', summaryText(0, 0, 0));
    check('summary, all agreed', summaryText(12, 12, 0));
    check('summary, some as good', summaryText(12, 9, 0));
    check('summary, mistakes', summaryText(12, 9, 2));
    // the command line's main lines (above its Details)
    const hand14 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J N',
      hand13 = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J';
    for (const args of [
      ['discard', '--hand', hand14, '--worlds', '2'],
      ['call', '--hand', hand13, '--tile', '2B', '--from', 'right', '--worlds', '2'],
      ['vote', '--hand', hand13],
      ['courtesy', '--hand', hand13],
      ['charleston', '--hand', '1B 3B 5B 7C 9C N S W E RD GD F J'],
    ]) {
      out = '';
      expect(await run('advise', ...args)).toBe(0);
      const main = out.split('\n');
      const details = main.findIndex((l) => l.startsWith('Details'));
      for (const line of main.slice(0, details < 0 ? undefined : details)) if (!line.startsWith('Hand')) check(`tilemate advise ${args[0]}`, line);
    }
    expect(texts.length).toBeGreaterThan(100);
    console.info(`plain words: ${texts.length} texts checked against ${BANNED.length} banned patterns`);
    expect(offenders()).toEqual([]);
  }, 600_000);

  it("the advice's sentences for every shape of decision: Mah Jongg, the only choice, a concealed line, a tie, a clear lead, about as good", () => {
    const line = cc.card.lines[0].id,
      concealed = cc.card.lines.find((l) => l.concealed)!.id;
    const alt = (action: string, type: string, behind: number, se: number, away: number, toward = line): Alternative => ({
      action,
      move: { type } as Alternative['move'],
      value: 10 + behind,
      mean: 10 + behind,
      mahJongg: 0.2,
      behind,
      behindSe: se,
      aboutEqual: behind !== 0 && -behind <= 2 * se,
      tilesAway: away,
      toward,
    });
    const cases: [Alternative[], boolean][] = [
      [[alt('declare Mah Jongg', 'declare', 0, 0, 0), alt('discard 5D', 'discard', -30, 2, 1)], true],
      [[alt('discard 5D', 'discard', 0, 0, 1)], false],
      [[alt('let 1D go', 'decline', 0, 0, 4, concealed), alt('call 1D for a pung', 'call', -5, 6, 3)], false],
      [[alt('discard 5D', 'discard', 0, 0, 2), alt('discard 6D', 'discard', 0, 0, 2)], false],
      [[alt('discard 5D', 'discard', 0, 0, 2), alt('discard 6D', 'discard', -20, 3, 3)], false],
      [[alt('discard 5D', 'discard', 0, 0, 7), alt('discard 6D', 'discard', -2, 3, 7)], false],
    ];
    for (const [alts, mj] of cases) {
      const w = decisionWords(cc, alts, mj);
      check('decision plain', w.plain);
      check('decision why', w.why);
    }
    // a dead hand call, said by where the player sits
    const v = { players: 4, seat: 0, exposures: [[], [], [], []] } as never;
    check('call dead', describeAction({ type: 'callDead', seat: 0, target: 2 } as never, v));
    expect(offenders()).toEqual([]);
  });
});
