import { describe, expect, it } from 'vitest';
import { decisionWords, lineName, type Alternative } from '../../agents/mah-jongg/advice.js';
import { loadCard } from '../../io/cards.js';

/** The advice in one plain sentence, in the game's terms; options within the noise are called about equally good. */

const cc = loadCard();
const concealedLine = cc.card.lines.find((l) => l.concealed)!.id;
const exposedLine = cc.card.lines.find((l) => !l.concealed)!.id;

const alt = (action: string, type: string, value: number, behind: number, behindSe: number, tilesAway: number, toward: string): Alternative => ({
  action,
  move: { type } as Alternative['move'],
  value,
  mean: value,
  mahJongg: 0.3,
  behind,
  behindSe,
  aboutEqual: behind !== 0 && -behind <= 2 * behindSe,
  tilesAway,
  toward,
});
const plain = (alts: Alternative[], mahJongg: boolean): string => decisionWords(cc, alts, mahJongg).plain;

describe('the advice in plain words', () => {
  it("the issue's call: options within the noise are called about as good, the best of the figures first", () => {
    // the call leads the decline by less than twice its standard error
    const text = plain([alt('call 2B for a pung with 1 joker', 'call', 70.83, 0, 0, 3, exposedLine), alt('let 2B go', 'decline', 41.88, -28.95, 20, 3, exposedLine)], false);
    expect(text).toBe(`Call 2B for a pung with 1 joker (let 2B go is about as good): it leaves you 3 tiles from Mah Jongg with ${lineName(cc, exposedLine)}.`);
    expect(text).not.toMatch(/\d+\.\d|standard error|average|±|#/);
  });

  it('a clear lead is said plainly, with the line it keeps you near', () => {
    const text = plain([alt('discard 1C', 'discard', 30, 0, 0, 2, exposedLine), alt('discard 5D', 'discard', 10, -20, 4, 3, exposedLine)], false);
    expect(text).toBe(`Discard 1C: it leaves you 2 tiles from Mah Jongg with ${lineName(cc, exposedLine)}, and it did better than discard 5D in games played on from here.`);
  });

  it('a concealed line is the reason to let a discard go', () => {
    const text = plain([alt('let 1D go', 'decline', 20, 0, 0, 4, concealedLine), alt('call 1D for a pung', 'call', 15, -5, 6, 3, exposedLine)], false);
    expect(text).toBe(`Let 1D go: ${lineName(cc, concealedLine)} is concealed, and calling would rule it out.`);
  });

  it('Mah Jongg and the only choice', () => {
    expect(plain([alt('declare Mah Jongg', 'declare', 50, 0, 0, 0, exposedLine), alt('discard 5D', 'discard', 10, -40, 3, 1, exposedLine)], true)).toBe('Declare Mah Jongg: your hand is complete.');
    expect(plain([alt('discard 5D', 'discard', 10, 0, 0, 1, exposedLine)], false)).toBe(
      `Discard 5D: it is your only choice, and it leaves you 1 tile from Mah Jongg with ${lineName(cc, exposedLine)}.`,
    );
  });

  it('a line is named as a player names it: its place under its heading', () => {
    const line = cc.card.lines.find((l) => cc.card.lines.filter((m) => m.section === l.section).indexOf(l) === 1)!;
    expect(lineName(cc, line.id)).toBe(`the second ${line.section} line`);
  });
});
