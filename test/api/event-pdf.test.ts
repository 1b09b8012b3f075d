import { describe, expect, it } from 'vitest';
import { standingsPages, standingsPdf } from '../../api/shared/event-pdf.js';

/** The words on each printed page of the standings, row by row (shapes that are text). */
const words = (pages: ReturnType<typeof standingsPages>) => pages.map((shapes) => shapes.flatMap((s) => ('text' in s ? [s.text.text] : [])));

describe('the standings to print (issue 63)', () => {
  const rows = [
    { place: '1', name: 'Ruth', rounds: [55, 30], adjusted: 0, total: 85, mahJonggs: 3, withdrawn: false },
    { place: '2', name: 'Edna', rounds: [null, 40], adjusted: -5, total: 35, mahJonggs: 1, withdrawn: false },
    { place: '3', name: 'Pearl', rounds: [20, null], adjusted: 0, total: 20, mahJonggs: 1, withdrawn: true },
  ];
  const ties = 'Ties are broken by more Mah Jonggs, then the best single game; players equal on all three share the place.';

  it('marks a withdrawn player, prints a round she did not play as missed, gives the Mah Jonggs a column and says how ties are broken', () => {
    const [page] = words(standingsPages('Club Open', 'Standings after 2 rounds scored', rows, ties));
    expect(page.slice(2, 8)).toEqual(['Place', 'Player', 'R1', 'R2', 'Adj.', 'Total']);
    expect(page).toContain('MJ');
    expect(page.slice(page.indexOf('Edna') - 1, page.indexOf('Edna') + 6)).toEqual(['2', 'Edna', 'missed', '40', '-5', '35', '1']);
    expect(page).toContain('Pearl (W)');
    expect(page).toContain('(W): withdrew from the event; her rounds played still count.');
    expect(page).toContain('missed: a round she did not play.');
    expect(page.at(-1)).toBe(ties);
    expect(
      Buffer.from(standingsPdf('Club Open', 'x', rows, ties))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('stars the column of a round the Director changed after it was accepted, and names the games under the rows', () => {
    const [page] = words(standingsPages('Club Open', 'x', rows, ties, [{ round: 2, table: 3, game: 1 }]));
    expect(page.slice(2, 8)).toEqual(['Place', 'Player', 'R1', 'R2*', 'Adj.', 'Total']);
    expect(page).toContain('* Changed by the Director after the round was accepted: round 2, table 3, game 1.');
    const many = Array.from({ length: 8 }, (_, i) => ({ round: 1, table: i + 1, game: 2 }));
    expect(words(standingsPages('Club Open', 'x', rows, '', many))[0].at(-1)).toMatch(/table 6, game 2; and 2 more\.$/);
  });

  it('a Mexican Train table has no Mah Jongg column, and nothing to explain when nobody withdrew or missed', () => {
    const [page] = words(standingsPages('Train day', 'Final standings', [{ place: '1', name: 'Mae', rounds: [12, 30], adjusted: 0, total: 42, mahJonggs: null }]));
    expect(page).not.toContain('MJ');
    expect(page.at(-1)).toBe('42');
  });
});
