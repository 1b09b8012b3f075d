import { describe, expect, it } from 'vitest';
import { blendPass, familyOf, linesAway, OPEN_PASS, openCosts, openPass, passWhy, tileWords } from '../../agents/mah-jongg/charleston.js';
import { tilesAwayAll } from '../../engine/mah-jongg/analyzer.js';
import { newGame, view, type SeatView } from '../../engine/mah-jongg/game.js';
import { closestAway } from '../../engine/mah-jongg/hand-check.js';
import { seedRng, shuffle } from '../../engine/rng.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import { fullSet, JOKER, parseTile } from '../../engine/mah-jongg/tiles.js';
import { cc, counts } from '../engine/game-helpers.js';

/** Seat 0's view at the first pass of a real deal, with the hand replaced by `hand` when given. */
function passView(seed: number, hand?: string, over: Partial<SeatView> = {}): SeatView {
  const state = newGame(RULESETS['nmjl-4p'], cc, seed);
  const v = view(state, 0);
  return { ...v, ...(hand === undefined ? {} : { concealed: counts(hand) }), ...over };
}

/** Random 13-tile hands (jokers and all) from the full set. */
function randomHands(n: number, seed: number): number[][] {
  const rng = seedRng(seed);
  return Array.from({ length: n }, () => counts(shuffle(rng, fullSet()).slice(0, 13)));
}

describe('the Charleston pass that keeps lines open', () => {
  it('charleston - a tile costs what it sets back in every line within reach, the closest lines weighing most', () => {
    for (const hand of randomHands(20, 3)) {
      const cost = openCosts(cc, [...hand], false);
      const now = new Uint8Array(cc.lineCount),
        after = new Uint8Array(cc.lineCount),
        best = new Uint32Array(cc.lineCount);
      tilesAwayAll(cc, hand, now, best);
      const min = Math.min(...now);
      for (let t = 0; t <= JOKER; t++) {
        if (t === JOKER || hand[t] === 0) {
          expect(cost[t]).toBe(Infinity);
          continue;
        }
        const less = [...hand];
        less[t]--;
        tilesAwayAll(cc, less, after, best);
        let want = 0;
        for (let l = 0; l < cc.lineCount; l++) if (now[l] <= min + OPEN_PASS.reach) want += (after[l] - now[l]) / 2 ** (now[l] - min);
        expect(cost[t]).toBeCloseTo(want, 9);
      }
    }
  });

  it('charleston - in the first Charleston a pair costs more to break; later it does not', () => {
    for (const hand of randomHands(20, 4)) {
      const later = openCosts(cc, [...hand], false),
        first = openCosts(cc, [...hand], true);
      for (let t = 0; t < JOKER; t++) {
        if (hand[t] === 0) continue;
        expect(first[t] - later[t]).toBeCloseTo(hand[t] >= 2 ? OPEN_PASS.pairGuard : 0, 9);
      }
    }
  });

  it('charleston - the open pass gives three held tiles, never a joker, the cheapest first, and goes blind only where allowed', () => {
    for (let seed = 1; seed <= 12; seed++) {
      for (const over of [
        { pass: 0, blindAllowed: false },
        { pass: 2, blindAllowed: true },
        { pass: 4, blindAllowed: false },
      ]) {
        const v = passView(seed, undefined, over);
        const c = openPass(cc, v);
        expect(c.tiles.length + c.blind).toBe(3);
        if (!over.blindAllowed) expect(c.blind).toBe(0);
        expect(c.tiles).not.toContain(JOKER);
        const left = [...v.concealed];
        for (const t of c.tiles) {
          left[t]--;
          expect(left[t]).toBeGreaterThanOrEqual(0);
        }
        if (c.tiles.length > 0) {
          const cost = openCosts(cc, [...v.concealed], over.pass < 3);
          const least = Math.min(...Array.from(cost));
          expect(c.costs[0]).toBeCloseTo(least, 9);
          expect(cost[c.tiles[0]]).toBeCloseTo(least, 9);
        }
        // a blind pass only when the tile next in line would set a close line back
        if (c.blind > 0 && c.tiles.length < 3) {
          const rest = [...v.concealed];
          for (const t of c.tiles) rest[t]--;
          expect(Math.min(...Array.from(openCosts(cc, rest, over.pass < 3)))).toBeGreaterThanOrEqual(OPEN_PASS.blindCost);
        }
      }
    }
  });

  it('charleston - between tiles that cost the same, the one from the family the hand holds least of goes first', () => {
    // nothing on the card is near: the lone Crak goes before any of the five Bams
    const v = passView(1, '1B 3B 5B 7B 9B 2C N E W S GD RD F', { pass: 0, blindAllowed: false });
    const cost = openCosts(cc, [...v.concealed], true);
    const c = openPass(cc, v);
    const first = c.tiles[0];
    for (let t = 0; t < JOKER; t++) {
      if (v.concealed[t] === 0 || Math.abs(cost[t] - cost[first]) > 1e-9) continue;
      const held = (f: number) => v.concealed.reduce((a, n, k) => a + (k < JOKER && familyOf(k) === f ? n : 0), 0);
      expect(held(familyOf(first))).toBeLessThanOrEqual(held(familyOf(t)));
    }
  });

  it('charleston - lines within reach count: the score never exceeds the closest line, and more close lines score lower', () => {
    for (const hand of randomHands(20, 5)) {
      const closest = closestAway(cc, hand, []);
      const s = linesAway(cc, hand);
      expect(s).toBeLessThanOrEqual(closest);
      expect(s).toBeGreaterThan(closest - Math.log2(cc.lineCount) - 1e-9);
    }
  });

  it("charleston - the blend searches the open pass's candidates: three tiles less the blind ones, no joker, the same answer from the same seed", () => {
    for (let seed = 1; seed <= 4; seed++) {
      const v = passView(seed, undefined, { pass: 2, blindAllowed: true });
      const a = blendPass(cc, v, seedRng(9)),
        b = blendPass(cc, v, seedRng(9));
      expect(a.tiles).toEqual(b.tiles);
      expect(a.tiles.length + a.blind).toBe(3);
      expect(a.tiles).not.toContain(JOKER);
    }
  });
});

describe('the Charleston pass in plain words', () => {
  it('charleston - tiles are named as a beginner says them', () => {
    expect(['3D', '8B', '5C', 'N', 'GD', 'RD', 'WD', 'F'].map((n) => tileWords(parseTile(n)))).toEqual(['3 Dot', '8 Bam', '5 Crak', 'North', 'Green Dragon', 'Red Dragon', 'Soap', 'Flower']);
  });

  it('charleston - the reason is one sentence: the tiles, that they fit none of the lines, and the pairs kept', () => {
    // 2468 #1 (22 444 6666 888 FF in one suit) is three tiles away; North, East and 9 Crak serve nothing near
    const hand = counts('2B 2B 4B 4B 4B 6B 6B 6B 8B 8B F 9C N E');
    const why = passWhy(cc, hand, ['N', 'E', '9C'].map(parseTile), 0);
    expect(why).toBe('Pass 9 Crak, North and East: they fit none of the lines your tiles are building, and you keep all four of your pairs.');
  });

  it('charleston - a blind pass and a complete hand are said plainly, with no card ids and no figures', () => {
    const blind = passWhy(cc, counts('2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F N'), [parseTile('N')], 2);
    expect(blind).toMatch(/^Pass North and forward two of the tiles you receive without looking at them \(a blind pass\): /);
    expect(passWhy(cc, counts('2B 2B 4B 4B 4B 6B 6B 6B 6B 8B 8B 8B F F'), [], 3)).toBe('Your hand is already Mah Jongg: as East, declare it instead of passing.');
    for (const hand of randomHands(30, 6)) {
      const v = passView(1, undefined, { concealed: hand, pass: 0, blindAllowed: false });
      const c = openPass(cc, v);
      const why = passWhy(cc, hand, c.tiles, c.blind);
      expect(why).toMatch(/^[A-Z][^.;]*\.$/);
      expect(why).not.toMatch(/#|\d\.\d|\baway\b/);
    }
  });
});
