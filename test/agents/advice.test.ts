import { describe, expect, it } from 'vitest';
import { callAdvice, charlestonAdvice, courtesyAdvice, discardAdvice, voteAdvice, lineChances, parseSituation, situationView } from '../../agents/mah-jongg/advice.js';
import { loadCard } from '../../io/cards.js';
import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { determinize } from '../../engine/mah-jongg/determinize.js';
import { TilemateError } from '../../engine/errors.js';
import { newGame, validate, view } from '../../engine/mah-jongg/game.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { HeuristicAgent, STRONG_HABITS } from '../../agents/mah-jongg/heuristic.js';
import { seedRng, shuffle } from '../../engine/rng.js';
import { COPIES, formatTiles, fullSet, setCopies, tileName, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';

const cc = loadCard();
const analyzer = new Analyzer(cc);

/** 2468 #1 is 22B 444B 6666B 888B FF: this hand lacks one F and holds a useless N. */
const ONE_AWAY = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F N';
const WAITING_ON_F = '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof TilemateError) return err.code;
    throw err;
  }
  return 'no error';
}

describe('the situation a person describes', () => {
  it('situation - the wall defaults to what is left after the deal, less the seen tiles, and determinize accepts the view', () => {
    const sit = parseSituation({ hand: ONE_AWAY, seen: '1D 2D 3D', others: { left: '3C 3C J' } }, 'discard');
    expect(sit.wallLeft).toBe(99 - 3);
    const view = situationView(sit, 'discard');
    expect(view.concealedCounts).toEqual([14, 13, 13, 10]);
    expect(view.discards.flat()).toHaveLength(3);
    const state = determinize(view, sit.rules, cc, seedRng(1));
    expect(state.wall.length - state.wallPos).toBe(96);
    validate(state);
  });

  it('situation - a wall shorter than it could be leaves unlisted discards, drawn afresh in each world', () => {
    const sit = parseSituation({ hand: ONE_AWAY, wall: 60 }, 'discard');
    expect(sit.unlisted).toBe(39);
    const advice = discardAdvice(cc, { hand: ONE_AWAY, wall: 60 }, { worlds: 2 });
    expect(advice.wall).toBe(60);
  });

  it('situation - each question checks the hand size, the wall and the copies', () => {
    expect(codeOf(() => parseSituation({ hand: WAITING_ON_F }, 'discard'))).toBe('TM_HAND_SIZE');
    expect(codeOf(() => parseSituation({ hand: ONE_AWAY }, 'call', { tile: '5B' }))).toBe('TM_HAND_SIZE');
    expect(codeOf(() => parseSituation({ hand: ONE_AWAY, wall: 100 }, 'discard'))).toBe('TM_BAD_INPUT');
    expect(codeOf(() => parseSituation({ hand: WAITING_ON_F, seen: '2B 2B' }, 'call', { tile: '2B' }))).toBe('TM_TOO_MANY_COPIES');
    expect(codeOf(() => parseSituation({ hand: WAITING_ON_F }, 'call', { tile: 'J' }))).toBe('TM_BAD_INPUT');
    expect(codeOf(() => parseSituation({ hand: ONE_AWAY, ruleset: 'nmjl-3p', others: { across: 'N N N' } }, 'discard'))).toBe('TM_BAD_INPUT');
    expect(codeOf(() => parseSituation({ hand: ONE_AWAY, ruleset: 'siamese-2p' }, 'discard'))).toBe('TM_BAD_INPUT');
  });
});

describe('Charleston advice', () => {
  it('charleston - a joker is never passed, and the pass is three tiles less the blind ones', () => {
    const rng = seedRng(7);
    for (let i = 0; i < 40; i++) {
      const hand = shuffle(rng, fullSet())
        .slice(0, i % 2 === 0 ? 14 : 13)
        .map(tileName)
        .join(' ');
      for (const [direction, blind] of [
        ['right', false],
        ['left', true],
        ['across', false],
      ] as const) {
        const advice = charlestonAdvice(cc, COPIES, { hand, direction, blind });
        expect(advice.pass).not.toContain('J');
        expect(advice.pass.length + advice.blind).toBe(3);
        if (!blind) expect(advice.blind).toBe(0);
      }
    }
  });

  it('charleston - the tiles of the closest line are kept, and only what serves no target is passed', () => {
    const hand = '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E';
    expect(analyzer.analyze(analysisInput(COPIES, hand), { top: 1 })[0]).toMatchObject({ id: '2468 #1', tilesAway: 3 });
    const advice = charlestonAdvice(cc, COPIES, { hand, direction: 'right' });
    expect([...advice.pass].sort()).toEqual(['9C', 'E', 'N']);
    expect(advice.keeps[0]).toMatchObject({ id: '2468 #1', tilesAway: 3, before: 3 });
    expect(advice.why).toBe('Pass 9 Crak, North and East: they fit none of the lines your tiles are building, and you keep all four of your pairs.');
  });

  it('charleston - the plan names the family the pass keeps her on, and why', () => {
    const advice = charlestonAdvice(cc, COPIES, { hand: '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E', direction: 'right' });
    expect(advice.plan).toEqual({
      family: '2468',
      givesUp: [],
      text: 'Aim for 2468: the tiles you keep leave you 3 tiles from Mah Jongg with the first 2468 line, and jokers can help fill it.',
    });
  });

  it('charleston - over dealt hands the plan is true of the lines it shows: their family, any passed tile they use, and lines jokers can help first among the nearest', () => {
    const rng = seedRng(48);
    /** The tiles a kept line's form holds (the form found by its text among its line's forms). */
    const holds = (line: number, form: string): Set<string> => {
      const out = new Set<string>();
      for (let f = cc.lineStart[line]; f < cc.lineStart[line + 1]; f++) if (cc.formText[f] === form) for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) out.add(tileName(cc.entryKind[e]));
      return out;
    };
    let gave = 0;
    for (let i = 0; i < 40; i++) {
      const hand = formatTiles(shuffle(rng, fullSet()).slice(0, 13));
      const a = charlestonAdvice(cc, COPIES, { hand, direction: 'right' });
      const lines = a.keeps.map((k) => cc.card.lines.findIndex((l) => l.id === k.id));
      expect(a.plan.family).toBe(cc.card.lines[lines[0]].section);
      expect(a.plan.text).toMatch(new RegExp(`^Aim for ${a.plan.family}: the tiles you keep leave you \\d+ tiles? from Mah Jongg with `));
      expect(a.plan.text).toMatch(/^[A-Z][^.;]*\.$/);
      // among the nearest lines, one jokers can help comes before one they cannot
      for (let k = 1; k < lines.length; k++) if (a.keeps[k].tilesAway === a.keeps[k - 1].tilesAway) expect(cc.lineJokers[lines[k]] <= cc.lineJokers[lines[k - 1]], hand).toBe(true);
      // every passed tile that a kept line's form uses is said, with the line
      for (const t of a.pass) {
        const user = a.keeps.find((k, j) => holds(lines[j], k.form).has(t));
        const said = a.plan.givesUp.some((g) => g.tile === t);
        if (said) {
          gave++;
          expect(a.plan.text, hand).toContain('but this pass gives up');
        }
        expect(said, `${hand}: ${t}`).toBe(user !== undefined);
      }
    }
    expect(gave).toBeGreaterThan(0);
  });

  it('charleston - with fewer than three spare tiles and a blind pass allowed, received tiles go on unseen', () => {
    const advice = charlestonAdvice(cc, COPIES, { hand: '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F N', direction: 'left', blind: true });
    expect(advice.pass).toEqual(['N']);
    expect(advice.blind).toBe(2);
    expect(advice.why).toMatch(/blind pass/);
  });

  it("charleston - East's dealt Mah Jongg is declared, not passed", () => {
    expect(charlestonAdvice(cc, COPIES, { hand: '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F' }).why).toBe('Your hand is already Mah Jongg: as East, declare it instead of passing.');
  });

  it('charleston - the advice passes as the strong bot does at a table (the pass that won most in the arena of pass methods)', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const state = newGame(RULESETS['nmjl-4p'], cc, seed);
      const v = view(state, 1);
      const hand = formatTiles(tilesFromCounts(v.concealed));
      const bot = new HeuristicAgent(cc, STRONG_HABITS).act({ seat: 1, phase: 'charleston', view: () => v, legal: () => [], rng: seedRng(1) });
      const advice = charlestonAdvice(cc, COPIES, { hand, direction: 'right' });
      expect(bot.type === 'pass' ? [...bot.tiles].map(tileName).sort() : []).toEqual([...advice.pass].sort());
    }
  });

  it('charleston - a blind pass across is refused', () => {
    expect(codeOf(() => charlestonAdvice(cc, COPIES, { hand: ONE_AWAY, direction: 'across', blind: true }))).toBe('TM_BAD_INPUT');
  });
});

describe('the vote on a second Charleston and the courtesy pass', () => {
  const FAR = '1B 3B 5C 7C 2D 9D N E W S GD RD F';

  it('vote - a hand far from every line goes on; a hand waiting on one tile stops', () => {
    const far = voteAdvice(cc, COPIES, { hand: FAR });
    expect(far).toMatchObject({ secondCharleston: true, tilesAwayNow: 6 });
    expect(far.expectedAway).toBeLessThan(6);
    expect(far.why).toMatch(/^Vote yes: your hand is 6 tiles from Mah Jongg/);
    const near = voteAdvice(cc, COPIES, { hand: WAITING_ON_F });
    expect(near).toMatchObject({ secondCharleston: false, tilesAwayNow: 1 });
    expect(near.expectedAway).toBeGreaterThan(1);
    expect(near.why).toMatch(/^Vote no: your hand is 1 tile from Mah Jongg/);
  });

  it('courtesy - a hand whose every tile serves its line offers nothing; spare tiles go, never a joker', () => {
    expect(courtesyAdvice(cc, COPIES, { hand: WAITING_ON_F })).toMatchObject({ offer: [], tilesAwayNow: 1 });
    const spare = courtesyAdvice(cc, COPIES, { hand: '2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N' });
    expect([...spare.offer].sort()).toEqual(['9C', 'N']);
    expect(spare.expectedAway).toBeLessThan(spare.tilesAwayNow);
    const withJokers = courtesyAdvice(cc, COPIES, { hand: '1B 5C 9D N E W S GD RD 3B J J F' });
    expect(withJokers.offer).toHaveLength(3);
    expect(withJokers.offer).not.toContain('J');
  });

  it('vote and courtesy - a hand of the wrong size is refused', () => {
    expect(codeOf(() => voteAdvice(cc, COPIES, { hand: '1B 2B 3B' }))).toBe('TM_HAND_SIZE');
    expect(codeOf(() => courtesyAdvice(cc, COPIES, { hand: '1B 2B 3B 4X' }))).toBe('TM_BAD_TILE');
  });
});

describe('discard and call advice', () => {
  it('discard - a hand one tile away discards the tile no line wants', () => {
    const advice = discardAdvice(cc, { hand: ONE_AWAY }, { worlds: 16 });
    expect(advice.suggestion).toBe('discard N');
    expect(advice.alternatives[0]).toMatchObject({ action: 'discard N', move: { type: 'discard', tile: 'N' }, tilesAway: 1, toward: '2468 #1', behind: 0 });
    expect(advice.alternatives.length).toBeGreaterThanOrEqual(3);
    // every choice follows best first: the suggestion is the top of the figures shown
    const values = advice.alternatives.map((a) => a.value);
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  it('discard - the same question with the same seed gets the same answer', () => {
    const ask = (seed: number) => discardAdvice(cc, { hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J', seen: '5C 5C' }, { worlds: 6, seed });
    expect(ask(3)).toEqual(ask(3));
    expect(ask(3).alternatives.map((a) => a.value)).not.toEqual(ask(4).alternatives.map((a) => a.value));
  });

  it('discard - a complete hand declares Mah Jongg', () => {
    const advice = discardAdvice(cc, { hand: '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F' }, { worlds: 2 });
    expect(advice.suggestion).toBe('declare Mah Jongg');
    expect(advice.alternatives[0].tilesAway).toBe(0);
  });

  it('discard - a joker on another rack can be taken for the tile it stands for', () => {
    const advice = discardAdvice(cc, { hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J 3C', others: { left: '3C 3C J' } }, { worlds: 4 });
    const exchange = advice.alternatives.find((a) => a.move.type === 'exchange');
    expect(exchange).toMatchObject({ action: "exchange 3C for the joker in the left player's pung of 3C", move: { owner: 'left', exposure: 0, tile: '3C' } });
  });

  it('call - a discard that completes the hand is Mah Jongg', () => {
    const advice = callAdvice(cc, { hand: WAITING_ON_F, tile: 'F', from: 'across' }, { worlds: 2 });
    expect(advice.suggestion).toBe('call F for Mah Jongg');
    expect(advice.alternatives.map((a) => a.move.type)).toEqual(['callMahJongg', 'decline']);
  });

  it('call - a tile the hand cannot use leaves declining as the only choice', () => {
    const advice = callAdvice(cc, { hand: WAITING_ON_F, tile: 'N' }, { worlds: 2 });
    expect(advice.suggestion).toBe('let N go');
    expect(advice.alternatives).toHaveLength(1);
    expect(advice.plain).toMatch(/only choice/);
  });

  it('call - every legal exposure is weighed against declining', () => {
    const advice = callAdvice(cc, { hand: '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J', tile: '2B', from: 1 }, { worlds: 4, seed: 2 });
    const types = advice.alternatives.map((a) => a.move.type);
    expect(types).toContain('decline');
    expect(types).toContain('call');
    expect(advice.alternatives.find((a) => a.move.type === 'call')!.action).toMatch(/^call 2B for a (pung|kong|quint)/);
  });
});

describe('the chance of completing a line', () => {
  it('chance - a complete hand has chance 1 and scores its value', () => {
    const input = analysisInput(COPIES, '2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F');
    const results = analyzer.analyze(input, { top: 1 });
    expect(results[0]).toMatchObject({ id: '2468 #1', tilesAway: 0 });
    expect(lineChances(cc, input, results).lines[0]).toEqual({ chance: 1, expectedScore: 25 });
  });

  it('chance - a line is dead when the seen tiles take the last copies its pair needs', () => {
    const hand = 'E GD GD GD RD RD RD WD WD WD F F F 1B'; // Winds and Dragons #4: EW DDDa DDDb DDDc FFF, the single W missing
    const line = (input: ReturnType<typeof analysisInput>) => analyzer.analyze(input).filter((r) => r.id === 'Winds and Dragons #4');
    const live = analysisInput(COPIES, hand);
    expect(lineChances(cc, live, line(live)).lines[0].chance).toBeGreaterThan(0);
    const dead = analysisInput(COPIES, hand, '', 'W W W W');
    expect(line(dead)[0].possible).toBe(false);
    expect(lineChances(cc, dead, line(dead)).lines[0]).toEqual({ chance: 0, expectedScore: 0 });
  });

  it('chance - the draws come from the set in play: in two sets without jokers a fifth W can still come, and no joker fills a group', () => {
    const hand = 'E GD GD GD RD RD RD WD WD WD F F F 1B'; // Winds and Dragons #4, the single W missing
    const line = (input: ReturnType<typeof analysisInput>) => analyzer.analyze(input).filter((r) => r.id === 'Winds and Dragons #4');
    const royale = analysisInput(setCopies(2, false), hand, '', 'W W W W');
    expect(line(royale)[0]).toMatchObject({ possible: true, outs: 4 });
    expect(lineChances(cc, royale, line(royale), { raw: true }).lines[0].chance).toBeGreaterThan(0);
    expect(analyzer.analyze(royale).filter((r) => r.jokerSlots > 0)).toEqual([]);
  });

  it('chance - a concealed line is out once the hand has exposed', () => {
    const input = analysisInput(COPIES, '2B 4B 6B 8B 2C 4C 6C 8C 2D 4D 6D', 'F F F');
    const concealed = analyzer.analyze(input).filter((r) => r.concealed);
    expect(lineChances(cc, input, concealed).lines.every((l) => l.chance === 0)).toBe(true);
  });

  it('chance - the same seed gives the same chances; fewer tiles in the wall give no better ones', () => {
    const input = analysisInput(COPIES, '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J');
    const results = analyzer.analyze(input, { top: 5 });
    expect(lineChances(cc, input, results, { seed: 5 })).toEqual(lineChances(cc, input, results, { seed: 5 }));
    // the solo model's own chances (before the calibration to full-table games)
    const full = lineChances(cc, input, results, { seed: 5, raw: true });
    expect(full).toMatchObject({ deals: 200, wall: 99, draws: 24 });
    const late = lineChances(cc, input, results, { seed: 5, wall: 40, raw: true });
    // the same sampled draws, cut short: a line completed late cannot have been completed early
    late.lines.forEach((l, i) => expect(l.chance).toBeLessThanOrEqual(full.lines[i].chance));
    expect(lineChances(cc, input, results, { wall: 0 }).lines.every((l) => l.chance === 0)).toBe(true);
  });

  it('chance - jokers drawn count toward groups', () => {
    // Addition #3 is 222B 444B 6666B GGGG: this hand lacks a 2B and a GD, both in groups
    const hand = '2B 2B 4B 4B 4B 6B 6B 6B 6B GD GD GD N E';
    const chance = (seen: string) => {
      const input = analysisInput(COPIES, hand, '', seen);
      return lineChances(
        cc,
        input,
        analyzer.analyze(input).filter((r) => r.id === 'Addition #3'),
      ).lines[0].chance;
    };
    expect(chance('')).toBeGreaterThan(chance('J J J J J J J J') + 0.2);
  });
});
