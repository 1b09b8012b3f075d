import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../api/cli/game-commands.js';
import { MAH_JONGG_CLI } from '../../api/cli/mah-jongg-cli.js';
import { hintFor } from '../../agents/coach/hint.js';
import { Analyzer } from '../../engine/analyzer.js';
import { legalActions, newGame, view } from '../../engine/game.js';
import { loadRuleset } from '../../engine/rulesets.js';
import { seatAnalysisInput } from '../../engine/seat.js';
import { loadCard } from '../../io/cards.js';

/** The terminal game's hint and card commands: the page's hint and Card panel, in words; asking changes nothing. */

describe('tilemate play: hint and card', () => {
  it('"hint" gives the server\'s hint for the moment, "card" the closest lines; the question is asked again', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => { shown += String(chunk); });
    input.end('hint\ncard\nJ J J\n'); // then the input ends before the game does
    await expect(playGame(MAH_JONGG_CLI, { ruleset: 'nmjl-4p', seed: 3, bots: 'random', seat: 0 }, { input, output })).rejects.toThrow('the input ended before the game did');

    const cc = loadCard();
    const state = newGame(loadRuleset('nmjl-4p'), cc, 3);
    const v = view(state, 0);
    const hint = hintFor(cc, v, legalActions(state, 0), { worlds: 24, seed: 3 });
    expect(hint.text).toMatch(/^Pass /);
    expect(shown).toContain(`hint: ${hint.text}\nCharleston pass 1, to the right:`);

    const closest = new Analyzer(cc).analyze(seatAnalysisInput(v), { top: 6 });
    const card = /card: the 6 lines closest to your rack\n((?: {2}.*\n){6})/.exec(shown);
    expect(card).not.toBeNull();
    expect(card![1].trimEnd().split('\n').map((l) => l.trim().split(/ {2,}/)[0])).toEqual(closest.map((r) => r.id));
    expect(card![1]).toMatch(/away.*still needed/);
    // the choice is still asked for, and a refused one is refused as before
    expect(shown).toContain('refused: a joker can never be passed\nCharleston pass 1, to the right:');
    expect(shown.match(/Charleston pass 1, to the right:/g)).toHaveLength(4);
    expect(shown).toContain('type "hint" for advice or "card"');
  });
});
