import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrated, CHANCE_INPUTS, chanceInputs, type ChanceCalibration, type ChanceHand } from '../../agents/mah-jongg/chance.js';
import { readChanceCalibration } from '../../agents/mah-jongg/default-model.js';
import { calibrationTable, fitCalibration, isotonic, logisticFit, type ChanceExample } from '../../lab/chances.js';

describe('the chances players are shown', () => {
  it('isotonic knots never go down, and pool the stretches that do', () => {
    const pairs: [number, number][] = [];
    for (let i = 0; i < 1000; i++) pairs.push([i / 1000, (i % 100 < 50 ? 0.6 : 0.4) * (i / 1000) > 0.2 ? 1 : 0]);
    const knots = isotonic(pairs);
    expect(knots.length).toBeGreaterThan(1);
    for (let i = 1; i < knots.length; i++) {
      expect(knots[i][0]).toBeGreaterThan(knots[i - 1][0]);
      expect(knots[i][1]).toBeGreaterThan(knots[i - 1][1]);
    }
  });

  it('a fitted calibration corrects a model that understates: shown chances come true as often as shown', () => {
    // synthetic lines: the solo chance s understates; the truth is 1.6 s (capped), more so late in the wall
    let x = 7;
    const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const truth = new Map<ChanceExample, number>();
    const make = (n: number): ChanceExample[] =>
      Array.from({ length: n }, (_, i) => {
        const solo = rand() ** 2 * 0.6,
          wall = 20 + Math.floor(rand() * 80),
          rank = i % 5;
        const p = Math.min(0.95, solo * (1.3 + 0.6 * (1 - wall / 100)));
        const e = { inputs: chanceInputs(solo, wall, rank, { tilesAway: 3, concealed: i % 3 === 0, jokerSlots: i % 4, need: [1, 2, 3] }), solo, won: rand() < p ? 1 : 0, game: i };
        truth.set(e, p);
        return e;
      });
    const calib = fitCalibration(make(20000));
    const check = make(20000);
    // by decile of the chance shown: the true chance against the shown one (no sampling noise in the check)
    const gap = (shown: (e: ChanceExample) => number) => {
      const rows = calibrationTable(
        check.map((e) => ({ ...e, won: truth.get(e)! })),
        shown,
      );
      return Math.max(...rows.filter((r) => r.lines >= 300).map((r) => Math.abs(r.cameTrue - r.shown)));
    };
    const before = gap((e) => e.solo);
    const after = gap((e) => calibrated(calib, e.inputs));
    expect(before).toBeGreaterThan(0.08);
    expect(after).toBeLessThan(0.03);
  });

  it('a calibration file that is cut off or of another version is refused', () => {
    const good: ChanceCalibration & { format: string } = {
      format: 'tilemate-chance-calibration',
      weights: [1, 0, 0, 0, 0, 0],
      bias: 0,
      knots: [
        [0.1, 0.2],
        [0.5, 0.6],
      ],
      fittedOn: 10,
    };
    const text = JSON.stringify(good);
    expect(readChanceCalibration(text, 'c.json').knots).toEqual(good.knots);
    expect(() => readChanceCalibration(text.slice(0, 30), 'c.json')).toThrow('c.json is not JSON (cut off?)');
    expect(() => readChanceCalibration(JSON.stringify({ ...good, weights: [1, 2] }), 'c.json')).toThrow('c.json is not a Tilemate chance calibration of this version');
    // a file of today's eight inputs loads, and an older one of six still does, reading the first six only
    const eight = readChanceCalibration(JSON.stringify({ ...good, weights: [1, 0, 0, 0, 0, 0, 5, 5] }), 'c.json');
    const six = readChanceCalibration(text, 'c.json');
    const inputs = chanceInputs(0.3, 50, 0, { tilesAway: 2, concealed: true, jokerSlots: 2, need: [1, 2] });
    expect(inputs).toHaveLength(8);
    expect(inputs.slice(6)).toEqual([1, 1]);
    expect(calibrated({ ...six, knots: [] }, inputs)).toBeCloseTo(1 / (1 + Math.exp(-inputs[0])), 9);
    expect(calibrated({ ...eight, knots: [] }, inputs)).toBeCloseTo(1 / (1 + Math.exp(-(inputs[0] + 10))), 9);
    // interpolation between the knots
    expect(calibrated({ ...good, weights: [0, 0, 0, 0, 0, 0], bias: 0 }, [0, 0, 0, 0, 0, 0])).toBeCloseTo(0.6, 5);
  });

  it('the logistic fit finds the weights the outcomes were drawn from', () => {
    let x = 11;
    const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const inputs: number[][] = [],
      won: number[] = [];
    for (let i = 0; i < 40000; i++) {
      const a = rand() * 2 - 1,
        b = rand();
      inputs.push([a, b]);
      won.push(rand() < 1 / (1 + Math.exp(-(0.5 + 2 * a - 1.5 * b))) ? 1 : 0);
    }
    const fit = logisticFit(inputs, won);
    expect(fit.bias).toBeCloseTo(0.5, 0);
    expect(fit.weights[0]).toBeCloseTo(2, 0);
    expect(fit.weights[1]).toBeCloseTo(-1.5, 0);
  });

  it("the decile table gives each decile its interval, a game's lines counted together", () => {
    // 100 games of 2 lines each shown 15%: 30 games won with both lines, 70 with neither
    const ex: ChanceExample[] = [];
    for (let g = 0; g < 100; g++) for (let l = 0; l < 2; l++) ex.push({ inputs: [], solo: 0.15, won: g < 30 ? 1 : 0, game: g });
    const [row] = calibrationTable(ex, (e) => e.solo);
    expect(row).toMatchObject({ bin: '10-20%', lines: 200 });
    expect(row.cameTrue).toBeCloseTo(0.3, 9);
    // as wide as 100 independent games, not 200 independent lines (about the share with two wins and two losses added)
    const c = 62 / 204;
    expect(row.interval).toBeCloseTo((1.96 * Math.sqrt(30 * (2 * (1 - c)) ** 2 + 70 * (2 * c) ** 2)) / 200, 9);
    expect(row.interval).toBeCloseTo(1.96 * Math.sqrt((0.3 * 0.7) / 100), 2);
    // a decile that always came true still has an interval
    const [all] = calibrationTable(
      ex.map((e) => ({ ...e, won: 1 })),
      (e) => e.solo,
    );
    expect(all.interval).toBeGreaterThan(0);
  });

  it('the shipped calibration of six inputs still loads and shows the same chances as before the third version', () => {
    const old = readChanceCalibration(readFileSync(new URL('./chance-calibration-v1.json', import.meta.url), 'utf8'), 'v1.json');
    expect(old.weights).toHaveLength(6);
    const hand: ChanceHand = {
      listed: [
        { solo: 0.3, tilesAway: 2 },
        { solo: 0.05, tilesAway: 5 },
      ],
      jokers: 2,
      exposed: true,
      othersExposed: 9,
    };
    // the chances the calibration gave before (the code of the second version, this file)
    const before: [number, number, number, Parameters<typeof chanceInputs>[3], number][] = [
      [0.3, 50, 0, { tilesAway: 2, concealed: false, jokerSlots: 2, need: [1, 2] }, 0.3269612158062553],
      [0.05, 80, 2, { tilesAway: 5, concealed: true, jokerSlots: 1, need: [1, 2, 3, 4, 5] }, 0.021084013563006834],
      [0, 30, 4, { tilesAway: 7, concealed: false, jokerSlots: 0, need: [1, 2, 3, 4, 5, 6, 7] }, 0],
      [0.6, 20, 1, { tilesAway: 1, concealed: false, jokerSlots: 1, need: [1] }, 0.27778979386280245],
    ];
    for (const [solo, wall, rank, line, p] of before) {
      expect(calibrated(old, chanceInputs(solo, wall, rank, line))).toBeCloseTo(p, 12);
      // the hand's standing is read only by calibrations of the third version
      expect(calibrated(old, chanceInputs(solo, wall, rank, line, hand))).toBeCloseTo(p, 12);
    }
  });

  it('a calibration of the third version names its inputs: it loads with them, and without the version it is refused', () => {
    const v3 = { format: 'tilemate-chance-calibration', inputs: 3, weights: new Array<number>(CHANCE_INPUTS).fill(0), bias: 0, knots: [], fittedOn: 1 };
    expect(readChanceCalibration(JSON.stringify(v3), 'c.json').weights).toHaveLength(CHANCE_INPUTS);
    expect(() => readChanceCalibration(JSON.stringify({ ...v3, inputs: undefined }), 'c.json')).toThrow('not a Tilemate chance calibration of this version');
    expect(() => readChanceCalibration(JSON.stringify({ ...v3, weights: [1, 0, 0, 0, 0, 0, 0, 0] }), 'c.json')).toThrow('not a Tilemate chance calibration of this version');
    expect(() => readChanceCalibration(JSON.stringify({ ...v3, inputs: 4 }), 'c.json')).toThrow('not a Tilemate chance calibration of this version');
    // given only the first eight inputs, it says so rather than read past them
    const c = readChanceCalibration(JSON.stringify(v3), 'c.json');
    expect(() => calibrated(c, chanceInputs(0.2, 50, 0, { tilesAway: 2, concealed: false, jokerSlots: 0, need: [1, 2] }))).toThrow('rule violation');
  });

  it('study:chances refuses what it does not know, before playing a game', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, ['dist/lab/chance-study.js', ...args], { encoding: 'utf8' });
    for (const [args, says] of [
      [['10', '1', 'cards/garden-2026.card'], 'one games count and one seed at most, not "cards/garden-2026.card"'],
      [['10', '--cards', 'cards/garden-2026.card'], "Unknown option '--cards'"],
      [['10', '--write', '--out', 'x.json'], 'one of them, not both'],
      [['ten'], 'games must be a whole number above 0, not "ten"'],
    ] as const) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr).toContain('usage: npm run study:chances');
      expect(r.stdout).toBe('');
    }
  });

  it('the shipped calibration is of the third version and loads, so the chances shown are calibrated', () => {
    const shipped = readChanceCalibration(readFileSync(new URL('../../models/chance-calibration.json', import.meta.url), 'utf8'), 'models/chance-calibration.json');
    expect(shipped.weights).toHaveLength(CHANCE_INPUTS);
    expect(shipped.knots.length).toBeGreaterThan(1);
  });
});
