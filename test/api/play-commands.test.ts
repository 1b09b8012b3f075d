import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../api/cli/game-commands.js';
import { MAH_JONGG_CLI } from '../../api/cli/mah-jongg-cli.js';
import { hintFor } from '../../agents/coach/hint.js';
import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { apply, legalActions, newGame, nextToAct, view } from '../../engine/mah-jongg/game.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { seatAnalysisInput } from '../../engine/mah-jongg/seat.js';
import { loadCard } from '../../io/cards.js';
import { JOKER, tileName, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';

/** The terminal game's hint and card commands: the page's hint and Card panel, in words; asking changes nothing. */

describe('tilemate play: hint and card', () => {
  it('"hint" gives the server\'s hint for the moment, "card" the closest lines; the question is asked again', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => {
      shown += String(chunk);
    });
    input.end('hint\ncard\nJ J J\n'); // then the input ends before the game does
    await expect(playGame(MAH_JONGG_CLI, { ruleset: 'nmjl-4p', seed: 3, bots: 'random', seat: 0 }, { input, output })).rejects.toThrow('the input ended before the game did');

    const cc = loadCard();
    const state = newGame(loadRuleset('nmjl-4p'), cc, 3);
    const v = view(state, 0);
    const hint = hintFor(cc, v, legalActions(state, 0), {});
    expect(hint.text).toMatch(/^Pass /);
    expect(shown).toContain(`hint: ${hint.text}\nCharleston pass 1, to the right:`);

    const closest = new Analyzer(cc).analyze(seatAnalysisInput(v), { top: 6 });
    const card = /card: the 6 lines closest to your rack\n((?: {2}.*\n){6})/.exec(shown);
    expect(card).not.toBeNull();
    expect(
      card![1]
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/ {2,}/)[0]),
    ).toEqual(closest.map((r) => r.id));
    expect(card![1]).toMatch(/away.*still needed/);
    // the choice is still asked for, and a refused one is refused as before
    expect(shown).toContain('refused: a joker can never be passed\nCharleston pass 1, to the right:');
    expect(shown.match(/Charleston pass 1, to the right:/g)).toHaveLength(4);
    expect(shown).toContain('type "hint" for advice or "card"');
  });
});

/** A tile as a player says it: 3C "3 crak", N "north", GD "green dragon", F "flower". */
function spoken(t: number): string {
  const name = tileName(t);
  const suit: Record<string, string> = { B: 'bam', C: 'crak', D: 'dot' };
  if (/^\d[BCD]$/.test(name)) return `${name[0]} ${suit[name[1]]}`;
  return ({ N: 'north', E: 'east', W: 'west', S: 'south', GD: 'green dragon', RD: 'red dragon', WD: 'soap', F: 'flower', J: 'joker' } as Record<string, string>)[name];
}

/** Plays with the lines given, then the input ends; what was shown, and how the game ended (or the error). */
async function piped(flags: Parameters<typeof playGame>[1], lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => {
    shown += String(chunk);
  });
  input.end(lines.map((l) => `${l}\n`).join(''));
  const result = await playGame(MAH_JONGG_CLI, flags, { input, output });
  return { ...result, shown };
}

describe('tilemate play: quit, help and tiles in words', () => {
  it('"help" lists what can be typed at this question; tiles in words are passed; "quit" leaves, keeping the game so far', async () => {
    const cc = loadCard();
    const v = view(newGame(loadRuleset('nmjl-4p'), cc, 3), 0);
    const three = tilesFromCounts(v.concealed)
      .filter((t) => t !== JOKER)
      .slice(0, 3);
    const { end, record, shown, state } = await piped({ ruleset: 'nmjl-4p', seed: 3, bots: 'random', seat: 0 }, ['help', 'J'.repeat(300), three.map(spoken).join(', '), '?', 'quit', 'never read']);
    expect(end).toBe('quit');
    expect(state.phase.kind).not.toBe('ended');
    expect(shown).toContain(
      'You can type:\n  3 tiles to pass, e.g. 3B 5C N, or in words: 3 bam, 5 crak, north (never a joker)\n  hint: advice for this moment\n  card: the card lines closest to your rack\n  quit: leave the game\n  help: this list\nCharleston pass 1, to the right:',
    );
    // the pass in words was taken: the second pass is asked, and its help says the same
    expect(shown).toContain('Charleston pass 2, across:');
    expect(shown).toContain('refused: that answer is longer than 200 characters; type "help" to see what can be typed here\nCharleston pass 1, to the right:');
    expect(shown.match(/refused/g)).toHaveLength(1);
    expect(shown.match(/You can type:/g)).toHaveLength(2);
    const lines = record
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[1].action).toEqual({ type: 'pass', seat: 0, tiles: three.map(tileName), blind: 0 });
    expect(lines.at(-1).end).toBeUndefined(); // the game so far: no end line
  });

  it('a discard typed in words ("discard 7 dot", "north") discards that tile; a word that is no tile is refused, naming it', async () => {
    const cc = loadCard();
    const v = view(newGame(loadRuleset('nmjl-3p'), cc, 8), 0);
    const tile = tilesFromCounts(v.concealed).find((t) => t !== JOKER)!;
    const { end, shown, state } = await piped({ ruleset: 'nmjl-3p', seed: 8, bots: 'random', seat: 0 }, ['3 north', 'dragon', 'three craks please', `discard ${spoken(tile)}`, 'q']);
    expect(end).toBe('quit');
    expect(shown).toContain('refused: "3" needs its suit: 3 bam, 3 crak or 3 dot (3B, 3C or 3D)');
    expect(shown).toContain('refused: "dragon" needs its colour');
    expect(shown).toContain('refused: unknown tile "please"');
    expect(view(state, 0).discards[0][0]).toBe(tile);
  });

  it('the blind pass is explained in one sentence where it is offered, and "help" says how to type it', () => {
    const cc = loadCard();
    const rules = loadRuleset('nmjl-4p');
    const state = newGame(rules, cc, 3);
    const game = MAH_JONGG_CLI.game({ ruleset: 'nmjl-4p' });
    const words = MAH_JONGG_CLI.words(game, 3, ['human', 'random', 'random', 'random']);
    const seen: string[] = [];
    // every seat passes its first choice until seat 0 is asked for the first left (teaching guide 2.3: a blind pass there)
    for (let guard = 0; guard < 40; guard++) {
      const v = view(state, 0);
      const legal = legalActions(state, 0);
      if (v.phase === 'charleston' && nextToAct(state) === 0) seen.push(words.prompt(v, legal));
      if (v.blindAllowed) {
        const prompt = words.prompt(v, legal);
        expect(prompt).toBe(
          'Charleston pass 3, to the left: type 3 tiles to pass, e.g. 3B 5C N or 3 bam, 5 crak, north (never a joker).\n' +
            'On this pass you may pass blind: pass on 1 to 3 of the tiles coming to you without looking at them, and type only the rest from your rack, e.g. "3B 5C blind 1".',
        );
        expect(words.help(v, legal)).toContain('fewer tiles and "blind 1" to "blind 3": pass on that many of the tiles coming to you, unseen');
        // a blind pass typed in words: one tile of her own and two of those coming to her
        const own = tilesFromCounts(v.concealed).find((t) => t !== JOKER)!;
        expect(words.read(`${spoken(own)} blind two`, v, legal)).toEqual({ type: 'pass', seat: 0, tiles: [own], blind: 2 });
        expect(words.read(`pass ${tileName(own)} blind 2`, v, legal)).toEqual({ type: 'pass', seat: 0, tiles: [own], blind: 2 });
        // the passes before it say nothing of blind passing
        expect(seen.slice(0, -1).join('\n')).not.toContain('blind');
        expect(seen).toHaveLength(3);
        return;
      }
      const seat = nextToAct(state);
      apply(state, legalActions(state, seat)[0]);
    }
    expect.unreachable('the first left pass was never asked');
  });
});

describe('tilemate play: answers in words', () => {
  it('the vote on a second Charleston takes "yes" and "no", and a discard is let go with "no"', () => {
    const state = newGame(loadRuleset('nmjl-4p'), loadCard(), 3);
    const game = MAH_JONGG_CLI.game({ ruleset: 'nmjl-4p' });
    const words = MAH_JONGG_CLI.words(game, 3, ['human', 'random', 'random', 'random']);
    let voted = false;
    // every seat takes its first choice (the Charleston's passes, a yes to the second one) until seat 0 may let a discard go
    for (let guard = 0; guard < 200; guard++) {
      const v = view(state, 0);
      const legal = legalActions(state, 0);
      if (v.phase === 'vote' && legal.length > 0) {
        for (const no of ['no', 'No', 'n']) expect(words.read(no, v, legal)).toEqual({ type: 'vote', seat: 0, yes: false });
        for (const yes of ['yes', 'Y']) expect(words.read(yes, v, legal)).toEqual({ type: 'vote', seat: 0, yes: true });
        expect(() => words.read('maybe', v, legal)).toThrow('choose a number from 1 to 2');
        expect(words.help(v, legal)).toContain('yes or no: play the second Charleston, or stop');
        voted = true;
      }
      if (v.phase === 'claims' && legal.some((a) => a.type === 'decline')) {
        expect(voted).toBe(true);
        const decline = legal.find((a) => a.type === 'decline');
        for (const no of ['no', 'let it go', 'pass']) expect(words.read(no, v, legal)).toEqual(decline);
        expect(words.help(v, legal)).toContain('no: let the discard go');
        return;
      }
      const seat = nextToAct(state);
      const mine = legalActions(state, seat);
      apply(state, mine.find((a) => a.type === 'vote' && a.yes) ?? mine.find((a) => a.type === 'decline') ?? mine[0]);
    }
    expect.unreachable('seat 0 was never asked to let a discard go');
  });
});

describe('tilemate play: a long wait for the bots is not a silent one', () => {
  async function shownWith(now: () => number): Promise<string> {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => {
      shown += String(chunk);
    });
    const rack = tilesFromCounts(view(newGame(loadRuleset('nmjl-4p'), loadCard(), 3), 0).concealed).filter((t) => t !== JOKER);
    input.end(`${rack.slice(0, 3).map(tileName).join(' ')}\nquit\n`);
    await playGame(MAH_JONGG_CLI, { ruleset: 'nmjl-4p', seed: 3, bots: 'random', seat: 0 }, { input, output, now });
    return shown;
  }

  it('after two quiet seconds the person is told the bots are still taking their turns; never while they answer quickly', async () => {
    let t = 0;
    const slow = await shownWith(() => (t += 3000)); // every look at the clock finds three more seconds gone
    expect(slow).toContain('The other players are still taking their turns (Right is thinking)...');
    const quick = await shownWith(() => 0);
    expect(quick).not.toContain('still taking their turns');
    // the same game either way: only the note differs
    expect(slow.replace(/The other players are still taking their turns \((Right|Across|Left) is thinking\)\.\.\.\n/g, '')).toBe(quick);
  });
});
