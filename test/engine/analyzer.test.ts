import { describe, expect, it } from 'vitest';
import { analysisInput, Analyzer, awayFromPlaced, placeAll, reason, tilesAwayAll, type LineResult } from '../../engine/mah-jongg/analyzer.js';
import { nextInt, seedRng, shuffle } from '../../engine/rng.js';
import { COPIES, FLOWER, fullSet, JOKER, KINDS, parseTile, setCopies, tileName } from '../../engine/mah-jongg/tiles.js';
import { agreeWithBruteForce, handFor, odd, practice } from './analyzer-hands.js';

describe('tiles away', () => {
  // the first 150 of the seeded hands; all 1,500 a card are test/engine/analyzer.slow.test.ts (slow)
  for (const [name, cc, hands] of [
    ['the practice card', practice, 150],
    ['a card of odd cases', odd, 150],
  ] as const) {
    it(`agrees with the independent brute force on ${hands} seeded hands against ${name}`, () => agreeWithBruteForce(cc, hands));
  }
});

const analyzer = new Analyzer(practice);
const analyze = (hand: string, exposed = '', seen = '') => analyzer.analyze(analysisInput(COPIES, hand, exposed, seen));
const lineOf = (results: LineResult[], id: string) => results.find((r) => r.id === id)!;

describe('the analyzer', () => {
  it('a complete hand is 0 away', () => {
    const r = lineOf(analyze('F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C 6C'), '2026 #1');
    expect(r).toMatchObject({ tilesAway: 0, need: [], possible: true });
    expect(analyze('F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C 6C')[0].id).toBe('2026 #1');
  });

  it('a 13-tile hand waiting on its last tile is 1 away, and names that tile', () => {
    const r = lineOf(analyze('F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C'), '2026 #1');
    expect(r.tilesAway).toBe(1);
    expect(r.need.map(tileName)).toEqual(['6C']);
  });

  it('jokers never fill singles or pairs', () => {
    // FF (a pair) and the 6 of 2026 (a single) are jokers here
    const r = lineOf(analyze('J J 2B WD 2B J 2C 2C 2C 2C 6C 6C 6C 6C'), '2026 #1');
    expect(r.tilesAway).toBe(3);
    expect(r.need.map(tileName)).toEqual(['6B', 'F', 'F']);
    expect(r.jokerSlots).toBe(0);
  });

  it('jokers fill flower pungs and kongs', () => {
    expect(lineOf(analyze('N E W S RD GD WD F J J 2B WD 2B 6B'), '2026 #6').tilesAway).toBe(0);
    expect(lineOf(analyze('3C 3C 3C 6B 6B 6B 9C 9C 9C 9C F J J J'), '369 #1').tilesAway).toBe(0);
  });

  it('no jokers at all in a nojoker line', () => {
    expect(lineOf(analyze('F F F F N N N E E E E GD GD J'), 'Winds and Dragons #1').tilesAway).toBe(1);
  });

  it('a pinned suit only: 369 #1 `333a 666b 9999a FFFF a=C` has its 3s and 9s in Craks only', () => {
    // in Bams only the 666 (the other suit, b) and the flowers fit: 7 tiles placed
    expect(lineOf(analyze('3B 3B 3B 6B 6B 6B 9B 9B 9B 9B F F F F'), '369 #1').tilesAway).toBe(7);
    expect(lineOf(analyze('3C 3C 3C 6D 6D 6D 9C 9C 9C 9C F F F F'), '369 #1').tilesAway).toBe(0);
  });

  it('needs list what jokers cannot cover, jokers standing in where tiles are scarcest', () => {
    // 222B 444B 6666B GGGG (Addition #3): lacks 2B x2, 6B x1, GD x2; two jokers
    const r = lineOf(analyze('2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J', '', '6B'), 'Addition #3');
    expect(r.tilesAway).toBe(3);
    expect(r.need.map(tileName)).toEqual(['2B', '2B', 'GD']); // the last 6B is seen: a joker takes its place
    expect(r.jokerSlots).toBe(3);
  });

  it('outs count the unseen tiles that bring the hand closer', () => {
    const r = lineOf(analyze('F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C'), '2026 #1');
    expect(r.outs).toBe(1 + 8 - 0); // the last 6C, or any of the 8 jokers (6666C is a kong)
    const seen = lineOf(analyze('F F 2B WD 2B 6B 2C 2C 2C 2C 6C 6C 6C', '', 'J J J'), '2026 #1');
    expect(seen.outs).toBe(1 + 5);
  });

  it('ranks by possible, then tiles away, then outs, then value', () => {
    const results = analyze('2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD J J');
    for (let i = 1; i < results.length; i++) {
      const a = results[i - 1],
        b = results[i];
      expect(Number(a.possible) * 1000 - a.tilesAway * 100 + a.outs / 100).toBeGreaterThanOrEqual(Number(b.possible) * 1000 - b.tilesAway * 100 + b.outs / 100 - 1e-9);
    }
    expect(results).toHaveLength(practice.lineCount);
  });

  it('--top returns the same first lines as the full ranking', () => {
    const rng = seedRng(5);
    for (let i = 0; i < 200; i++) {
      const hand = handFor(rng, practice);
      const input = { concealed: hand, exposures: [], seen: new Array(KINDS).fill(0), copies: COPIES };
      const all = analyzer.analyze(input).map((r) => `${r.id}:${r.tilesAway}:${r.outs}`);
      expect(analyzer.analyze(input, { top: 3 }).map((r) => `${r.id}:${r.tilesAway}:${r.outs}`)).toEqual(all.slice(0, 3));
    }
  });
});

describe('dead lines', () => {
  it('a line is out when it needs more natural tiles for singles and pairs than remain unseen', () => {
    // 2026 #5 needs two Soaps as singles; three are seen and the hand has none
    const r = lineOf(analyze('2B 6B 2C 6C 2D 6D F F N N E E S', '', 'WD WD WD'), '2026 #5');
    expect(r.possible).toBe(false);
    expect(r.whyNot).toMatch(/needs 2 WD as singles or pairs; only 1 can still be had/);
  });

  it('joker-aware: a kong is not dead while jokers can still fill it', () => {
    const hand = '2B 2B 4B 4B 4B 8B 8B 8B F F N E W';
    const noSixes = lineOf(analyze(hand, '', '6B 6B 6B 6B'), '2468 #1');
    expect(noSixes.possible).toBe(true);
    expect(noSixes.form).toBe('22B 444B 6666B 888B FF');
    // with six jokers gone too, only two remain for four slots: Bams are out, another suit is best
    const r = lineOf(analyze(hand, '', '6B 6B 6B 6B J J J J J J'), '2468 #1');
    expect(r.form).not.toContain('6666B');
  });

  it('a line every form of which is dead ranks below every possible line', () => {
    const results = analyze('2B 6B 2C 6C 2D 6D F F N N E E S', '', 'WD WD WD');
    const firstOut = results.findIndex((r) => !r.possible);
    expect(firstOut).toBeGreaterThan(0);
    expect(results.slice(firstOut).every((r) => !r.possible)).toBe(true);
  });
});

describe('exposures', () => {
  it('exposures must fit groups of the form', () => {
    // FFF exposed: fits 2468 #2 (FFF 2468a 4444b 888b), not 2468 #1 (FF pair)
    const results = analyze('2B 4B 6B 8B 4C 4C 4C 8C 8C 8C', 'F F J');
    expect(lineOf(results, '2468 #2')).toMatchObject({ tilesAway: 1, possible: true });
    expect(lineOf(results, '2468 #2').need.map(tileName)).toEqual(['4C']);
    expect(lineOf(results, '2468 #1')).toMatchObject({ possible: false });
  });

  it('a concealed line is out once the hand has an exposure', () => {
    const r = lineOf(analyze('N E W S RD GD WD 2B WD 2B 6B', 'F F F'), '2026 #6');
    expect(r.tilesAway).toBe(0);
    expect(r.possible).toBe(false);
    expect(r.whyNot).toMatch(/concealed/);
  });

  it('an exposure with a joker does not fit a nojoker line', () => {
    const results = analyze('F F F F E E E E GD GD GD', 'N N J');
    expect(lineOf(results, 'Winds and Dragons #1').possible).toBe(false);
    expect(lineOf(analyze('F F F F E E E E GD GD GD', 'N N N'), 'Winds and Dragons #1')).toMatchObject({ tilesAway: 0, possible: true });
  });

  it('an exposed kong needs a kong in the form, not a pung', () => {
    const r = lineOf(analyze('2B WD 2B 6B 2C 2C 2C 2C 6C 6C', 'F F F F'), '2026 #1');
    expect(r.possible).toBe(false);
  });
});

describe('bad input', () => {
  it('the wrong number of tiles', () => {
    expect(() => analysisInput(COPIES, '1B 2B 3B')).toThrow(/the hand has 3 tiles; expected 13 or 14/);
    expect(() => analysisInput(COPIES, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5C 6C')).toThrow(/15 tiles/);
    expect(() => analysisInput(COPIES, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C', 'F F F F')).toThrow(/15 tiles \(11 concealed \+ 4 exposed\)/);
  });
  it('more copies than the set holds, counting exposed and seen tiles', () => {
    expect(() => analysisInput(COPIES, '1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C', '', '1B 1B')).toThrow(/5 copies of 1B \(hand 3, seen 2\); the set in play holds 4 \(one 152-tile set\)/);
  });
  it('copies are counted against the set in play: two sets without jokers hold 8 of a tile, 16 flowers and no joker', () => {
    const royale = setCopies(2, false);
    expect(analysisInput(royale, '1B 1B 1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B', '', '1B 1B 1B').concealed[0]).toBe(5);
    expect(() => analysisInput(royale, '1B 1B 1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B', '', '1B 1B 1B 1B')).toThrow(
      /9 copies of 1B \(hand 5, seen 4\); the set in play holds 8 \(two 152-tile sets without jokers\)/,
    );
    expect(() => analysisInput(royale, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C J')).toThrow(/1 copies of J \(hand 1\); the set in play holds 0 \(two 152-tile sets without jokers\)/);
  });
  it('outs and joker slots count the set in play: in two sets without jokers, twice the copies and never a joker', () => {
    const hand = '2B 4B 4B 4B 6B 6B 6B 8B 8B 8B GD GD N';
    const one = analyzer.analyze(analysisInput(COPIES, hand));
    const two = analyzer.analyze(analysisInput(setCopies(2, false), hand));
    const byId = new Map(two.map((r) => [r.id, r]));
    let compared = 0;
    for (const r of one) {
      const t = byId.get(r.id)!;
      expect(t.tilesAway).toBe(r.tilesAway);
      expect(t.jokerSlots).toBe(0);
      expect(reason(t)).not.toMatch(/joker/);
      // with no joker in the hand, each out is an unseen copy of a kind the form lacks; one set's 8 jokers count as outs when the line takes jokers
      if (r.form === t.form && r.possible) {
        const kinds = new Set(r.need);
        const held = (k: number) => analysisInput(COPIES, hand).concealed[k];
        const unseen = (copies: readonly number[]) => [...kinds].reduce((n, k) => n + copies[k] - held(k), 0);
        expect(t.outs).toBe(unseen(setCopies(2, false)));
        expect(r.outs).toBe(unseen(COPIES) + (r.jokerSlots > 0 ? 8 : 0));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
  it('an exposure that is not a group of one tile', () => {
    expect(() => analysisInput(COPIES, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C', '2B 3B 3B')).toThrow(/mixes tiles/);
    expect(() => analysisInput(COPIES, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C', '2B 2B')).toThrow(/pung, kong, quint or sextet/);
    expect(() => analysisInput(COPIES, '1B 2B 3B 4B 5B 6B 7B 8B 9B 1C', 'J J J')).toThrow(/at least one natural tile/);
  });
});

describe('incremental tiles away', () => {
  it('a pool of two sets (16 flowers, 8 of a kind) is placed as 15 and 8: no form takes more than 14 of a kind', async () => {
    const { IncrementalTilesAway } = await import('../../engine/mah-jongg/incremental.js');
    const pool = new Array<number>(KINDS).fill(0);
    pool[parseTile('F')] = 16;
    pool[parseTile('2B')] = 8;
    pool[JOKER] = 3;
    const capped = pool.map((n) => Math.min(n, 15));
    const away = new Uint8Array(practice.lineCount),
      best = new Uint32Array(practice.lineCount);
    const want = new Uint8Array(practice.lineCount);
    tilesAwayAll(practice, capped, want, best);
    tilesAwayAll(practice, pool, away, best);
    expect([...away]).toEqual([...want]);
    const inc = new IncrementalTilesAway(practice, pool);
    expect([...inc.away]).toEqual([...want]);
    inc.swap(parseTile('F'), parseTile('F')); // 16 -> 15 -> 16
    expect([...inc.away]).toEqual([...want]);
  });

  it('after every swap of one tile (jokers too), agrees with a full evaluation: tiles away and form per line', async () => {
    const { IncrementalTilesAway } = await import('../../engine/mah-jongg/incremental.js');
    const rng = seedRng(99);
    const away = new Uint8Array(practice.lineCount),
      best = new Uint32Array(practice.lineCount);
    for (let game = 0; game < 50; game++) {
      const wall = shuffle(rng, fullSet());
      const hand = new Array<number>(KINDS).fill(0);
      for (const t of wall.splice(0, 13)) hand[t]++;
      const inc = new IncrementalTilesAway(practice, hand);
      for (let turn = 0; turn < 40 && wall.length > 0; turn++) {
        const drawn = wall.pop()!;
        const held = hand.flatMap((n, t) => Array<number>(n).fill(t));
        const out = held[nextInt(rng, held.length)];
        hand[drawn]++;
        hand[out]--;
        inc.swap(out, drawn);
        tilesAwayAll(practice, hand, away, best);
        expect([...inc.away]).toEqual([...away]);
        expect(Array.from(inc.away, (_, l) => inc.bestForm(l))).toEqual([...best]); // the same form, the first at the least, as the full evaluation names
      }
    }
  });

  it('along random walks (jokers, two sets of flowers, one-sided swaps, jumps of many kinds, starting over) agrees with a full evaluation: every line, its first form at the least, every form', async () => {
    const { IncrementalTilesAway } = await import('../../engine/mah-jongg/incremental.js');
    for (const cc of [practice, odd]) {
      const rng = seedRng(17);
      const hand = new Array<number>(KINDS).fill(0);
      for (let i = 0; i < 14; i++) hand[nextInt(rng, KINDS)]++;
      const inc = new IncrementalTilesAway(cc, hand);
      const away = new Uint8Array(cc.lineCount),
        best = new Uint32Array(cc.lineCount),
        placed = new Uint16Array(cc.formCount);
      const wrong: string[] = [];
      for (let step = 0; step < 1500 && wrong.length === 0; step++) {
        const r = nextInt(rng, 20);
        if (r < 15) {
          // a swap: either side may be -1; jokers and flowers often, up to two sets' worth (16)
          const held = hand.flatMap((n, t) => Array<number>(n).fill(t));
          const out = held.length === 0 || nextInt(rng, 8) === 0 ? -1 : held[nextInt(rng, held.length)];
          const pick = nextInt(rng, 6);
          let into = nextInt(rng, 8) === 0 ? -1 : pick === 0 ? JOKER : pick === 1 ? FLOWER : nextInt(rng, KINDS);
          if (into >= 0 && hand[into] - (into === out ? 1 : 0) >= 16) into = -1;
          if (out >= 0) hand[out]--;
          if (into >= 0) hand[into]++;
          inc.swap(out, into);
        } else {
          // a jump: several kinds at once (a player serving several seats), or starting over
          for (let k = 1 + nextInt(rng, 12); k > 0; k--) {
            const t = nextInt(rng, KINDS);
            hand[t] = Math.min(16, Math.max(0, hand[t] + nextInt(rng, 7) - 3));
          }
          if (r === 19) inc.reset(hand);
          else inc.update(hand);
        }
        tilesAwayAll(cc, hand, away, best);
        placeAll(cc, hand, placed);
        for (let l = 0; l < cc.lineCount; l++) {
          if (inc.away[l] !== away[l] || inc.bestForm(l) !== best[l]) wrong.push(`step ${step} line ${l}: ${inc.away[l]} at ${inc.bestForm(l)}, want ${away[l]} at ${best[l]}`);
          if (nextInt(rng, 4) === 0) inc.openLine(l); // written out for some lines, read below
        }
        for (let f = 0; f < cc.formCount; f++) {
          const a = awayFromPlaced(placed[f], cc.formSingles[f], cc.lineJokers[cc.formLine[f]] === 1 ? hand[JOKER] : 0);
          if (inc.formAwayOf(f) !== a || inc.placedOf(f) !== placed[f]) wrong.push(`step ${step} form ${f}: ${inc.formAwayOf(f)} (${inc.placedOf(f)}), want ${a} (${placed[f]})`);
        }
        for (let l = 0; l < cc.lineCount; l++) {
          inc.openLine(l);
          for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
            if (inc.formAway[f] !== inc.formAwayOf(f) || inc.placed[f] !== placed[f]) wrong.push(`step ${step} form ${f} written out: ${inc.formAway[f]} (${inc.placed[f]})`);
          }
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(Math.max(...hand)).toBeLessThanOrEqual(16);
    }
  });
});
