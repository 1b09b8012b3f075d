import { describe, expect, it } from 'vitest';
// the page's own module (plain ES; this function needs no DOM)
import { chanceWords } from '../../api/web/lines.js';

/** The chance under each line on Which hand?, in words a beginner reads aloud. */
describe("a line's chance in words", () => {
  it('says "once" for one in a hundred, "N times" above, and "almost never" below half of one', () => {
    expect(chanceWords(0.004)).toBe('In practice deals this line was almost never finished from here.');
    expect(chanceWords(0.011)).toBe('In practice deals this line was finished about once in 100.');
    expect(chanceWords(0.02)).toBe('In practice deals this line was finished about 2 times in 100.');
    expect(chanceWords(0.675)).toBe('In practice deals this line was finished about 68 times in 100.');
  });
});
