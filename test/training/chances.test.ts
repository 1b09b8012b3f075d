import { describe, expect, it } from 'vitest';
import { calibrated, chanceInputs, type ChanceCalibration } from '../../agents/chance.js';
import { readChanceCalibration } from '../../agents/default-model.js';
import { calibrationTable, fitCalibration, isotonic, type ChanceExample } from '../../training/chances.js';
import { loadTf } from '../../training/tf.js';

describe('the chances players are shown', () => {
  it('isotonic knots never go down, and pool the stretches that do', () => {
    const pairs: [number, number][] = [];
    for (let i = 0; i < 1000; i++) pairs.push([i / 1000, (i % 100 < 50 ? 0.6 : 0.4) * (i / 1000) > 0.2 ? 1 : 0]);
    const knots = isotonic(pairs);
    expect(knots.length).toBeGreaterThan(1);
    for (let i = 1; i < knots.length; i++) { expect(knots[i][0]).toBeGreaterThan(knots[i - 1][0]); expect(knots[i][1]).toBeGreaterThan(knots[i - 1][1]); }
  });

  it('a fitted calibration corrects a model that understates: shown chances come true as often as shown', async () => {
    const { tf } = await loadTf();
    // synthetic lines: the solo chance s understates; the truth is 1.6 s (capped), more so late in the wall
    let x = 7;
    const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const truth = new Map<ChanceExample, number>();
    const make = (n: number): ChanceExample[] => Array.from({ length: n }, (_, i) => {
      const solo = rand() ** 2 * 0.6, wall = 20 + Math.floor(rand() * 80), rank = i % 5;
      const p = Math.min(0.95, solo * (1.3 + 0.6 * (1 - wall / 100)));
      const e = { inputs: chanceInputs(solo, wall, rank, { tilesAway: 3, concealed: i % 3 === 0, jokerSlots: i % 4, need: [1, 2, 3] }), solo, won: rand() < p ? 1 : 0, game: i };
      truth.set(e, p);
      return e;
    });
    const calib = await fitCalibration(tf, make(20000));
    const check = make(20000);
    // by decile of the chance shown: the true chance against the shown one (no sampling noise in the check)
    const gap = (shown: (e: ChanceExample) => number) => {
      const rows = calibrationTable(check.map((e) => ({ ...e, won: truth.get(e)! })), shown);
      return Math.max(...rows.filter((r) => r.lines >= 300).map((r) => Math.abs(r.cameTrue - r.shown)));
    };
    const before = gap((e) => e.solo);
    const after = gap((e) => calibrated(calib, e.inputs));
    expect(before).toBeGreaterThan(0.08);
    expect(after).toBeLessThan(0.03);
  });

  it('a calibration file that is cut off or of another version is refused', () => {
    const good: ChanceCalibration & { format: string } = { format: 'tilemate-chance-calibration', weights: [1, 0, 0, 0, 0, 0], bias: 0, knots: [[0.1, 0.2], [0.5, 0.6]], fittedOn: 10 };
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
});
