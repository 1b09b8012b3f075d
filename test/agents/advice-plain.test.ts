import { describe, expect, it } from 'vitest';
import { decisionPlain, type Alternative } from '../../agents/advice.js';
import { loadCard } from '../../io/cards.js';

/** The advice in one plain sentence, in the game's terms; options within the noise are called about equally good. */

const cc = loadCard();
const concealedLine = cc.card.lines.find((l) => l.concealed)!.id;
const exposedLine = cc.card.lines.find((l) => !l.concealed)!.id;

const alt = (action: string, type: string, value: number, behind: number, behindSe: number, tilesAway: number, toward: string): Alternative =>
  ({ action, move: { type } as Alternative['move'], value, mahJongg: 0.3, behind, behindSe, tilesAway, toward });

describe('the advice in plain words', () => {
  it('the issue\'s call: a suggestion its own figures rank lower is never shown without the reason', () => {
    // decline averages more than the call it is suggested beside, within the noise
    const text = decisionPlain(cc, [alt('call 2B for a pung with 1 joker', 'call', 41.88, 0, 0, 3, exposedLine), alt('decline 2B', 'decline', 70.83, 28.95, 20, 3, exposedLine)], false, false);
    expect(text).toBe(`Call 2B for a pung with 1 joker and decline 2B are about equally good (the practice deals could not tell them apart); call 2B for a pung with 1 joker keeps you 3 tiles away from ${exposedLine}.`);
    expect(text).not.toMatch(/\d+\.\d|standard error|average|±/);
  });

  it('a clear lead is said plainly, with the line it keeps you near', () => {
    const text = decisionPlain(cc, [alt('discard 1C', 'discard', 30, 0, 0, 2, exposedLine), alt('discard 5D', 'discard', 10, -20, 4, 3, exposedLine)], false, false);
    expect(text).toBe(`Discard 1C: it keeps you 2 tiles away from ${exposedLine}, and it did clearly better than discard 5D in the practice deals.`);
  });

  it('a concealed line is the reason to let a discard go', () => {
    const text = decisionPlain(cc, [alt('decline 1D', 'decline', 20, 0, 0, 4, concealedLine), alt('call 1D for a pung', 'call', 15, -5, 6, 3, exposedLine)], false, false);
    expect(text).toBe(`Decline 1D: ${concealedLine} is concealed, and calling would rule it out.`);
  });

  it('Mah Jongg and the only choice', () => {
    expect(decisionPlain(cc, [alt('declare Mah Jongg', 'declare', 50, 0, 0, 0, exposedLine), alt('discard 5D', 'discard', 10, -40, 3, 1, exposedLine)], true, false)).toBe('Declare Mah Jongg: your hand is complete.');
    expect(decisionPlain(cc, [alt('discard 5D', 'discard', 10, 0, 0, 1, exposedLine)], false, false)).toBe(`Discard 5D: it is the only choice you have, and it keeps you 1 tile away from ${exposedLine}.`);
  });
});
