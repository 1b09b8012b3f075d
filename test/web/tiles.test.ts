import { describe, expect, it } from 'vitest';
// the page's own module (plain ES, no DOM needed for these functions)
import { receivedWords } from '../../api/web/tiles.js';

describe('the tiles received in a pass, in words', () => {
  it('names what came in: the rack after, less the rack kept', () => {
    expect(receivedWords(['1B', '2B', '3C', 'N', 'J'], ['1B', '2B', '3C'], ['N', 'J', '5D', 'RD', '5D'])).toBe('You received 5 Dot, 5 Dot and Red Dragon.');
  });
  it('a tile passed and the same kind received back is still named', () => {
    expect(receivedWords(['1B', '1B', '2C', '3C'], ['1B', '2C', '3C'], ['1B', '1B', 'E', 'F'])).toBe('You received 1 Bam, East and Flower.');
  });
  it('nothing received (a courtesy pass of none) says so', () => {
    expect(receivedWords(['1B', '2C'], [], ['1B', '2C'])).toBe('You received no tiles.');
  });
});
