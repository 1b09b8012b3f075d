import { pdfFromPages, type ImageShape } from '../../io/card-image.js';

/**
 * Club events on paper (issue 47): the standings to print, and blank score sheets for clubs
 * that keep paper, as letter pages drawn through pdfkit (io/card-image.ts pdfFromPages). Laid
 * out on a page 816 pixels wide (8.5 inches at 96 to the inch).
 */

const WIDTH = 816;
const HEIGHT = 1056;
const MARGIN = 56;
const INK = '#111111';
const RULE = '#9a9a9a';

const text = (t: string, x: number, baseline: number, size = 14, bold = false): ImageShape => ({ text: { text: t, x, baseline, size, bold, fill: INK } });
const line = (x: number, y: number, w: number, h = 1): ImageShape => ({ rect: { x, y, w, h }, fill: RULE });

export interface StandingsRowForPaper {
  place: string;
  name: string;
  /** Her points each round; null for a round she did not play, printed "missed". */
  rounds: (number | null)[];
  adjusted: number;
  total: number;
  /** Mah Jonggs made (Mah Jongg events); null or absent: no column (Mexican Train). */
  mahJonggs?: number | null;
  /** She withdrew: marked after her name. */
  withdrawn?: boolean;
}

/**
 * The standings as pages: the event's name, when, and a row a player, 30 rows a page; a
 * withdrawn player marked, a round she did not play printed "missed", the Mah Jonggs (the
 * first tie-break) in their own column, and under the rows how ties are broken (`ties`).
 */
export function standingsPdf(title: string, subtitle: string, rows: readonly StandingsRowForPaper[], ties = '', corrected: readonly CorrectedGame[] = []): Uint8Array {
  return pdfFromPages(standingsPages(title, subtitle, rows, ties, corrected), { width: WIDTH, title });
}

/** A game the Director changed after its round was accepted (standardized rules 22): its round's column is starred. */
export interface CorrectedGame {
  round: number;
  table: number;
  game: number;
}

/** The shapes of standingsPdf's pages. */
export function standingsPages(title: string, subtitle: string, rows: readonly StandingsRowForPaper[], ties = '', corrected: readonly CorrectedGame[] = []): ImageShape[][] {
  const perPage = 30;
  const rounds = rows[0]?.rounds.length ?? 0;
  const mj = rows.some((r) => r.mahJonggs !== undefined && r.mahJonggs !== null);
  const right = mj ? 70 : 0;
  // a round's column narrows as rounds add up, so that the total (and the Mah Jonggs) stay on the page
  const w = Math.min(56, Math.floor((WIDTH - 2 * MARGIN - 320 - 126 - right) / Math.max(1, rounds)));
  const columns = [
    { head: 'Place', x: MARGIN },
    { head: 'Player', x: MARGIN + 60 },
    ...Array.from({ length: rounds }, (_, i) => ({ head: `R${i + 1}${corrected.some((c) => c.round === i + 1) ? '*' : ''}`, x: MARGIN + 320 + i * w })),
    { head: 'Adj.', x: MARGIN + 320 + rounds * w },
    { head: 'Total', x: MARGIN + 376 + rounds * w },
    ...(mj ? [{ head: 'MJ', x: MARGIN + 446 + rounds * w }] : []),
  ];
  const withdrew = rows.some((r) => r.withdrawn);
  const pages: ImageShape[][] = [];
  for (let from = 0; from === 0 || from < rows.length; from += perPage) {
    const shapes: ImageShape[] = [text(title, MARGIN, MARGIN + 24, 24, true), text(subtitle, MARGIN, MARGIN + 52, 14)];
    let y = MARGIN + 96;
    columns.forEach((c) => shapes.push(text(c.head, c.x, y, 13, true)));
    shapes.push(line(MARGIN, y + 8, WIDTH - 2 * MARGIN));
    for (const r of rows.slice(from, from + perPage)) {
      y += 28;
      const name = `${r.name.slice(0, 32)}${r.withdrawn ? ' (W)' : ''}`;
      const cells = [r.place, name, ...r.rounds.map((p) => (p === null ? 'missed' : String(p))), r.adjusted ? String(r.adjusted) : '', String(r.total), ...(mj ? [String(r.mahJonggs ?? 0)] : [])];
      cells.forEach((cell, i) => shapes.push(text(cell, columns[i].x, y, cell === 'missed' ? 10 : 13, columns[i].head === 'Total')));
      shapes.push(line(MARGIN, y + 8, WIDTH - 2 * MARGIN));
    }
    // what the marks mean and how ties are broken, under the rows of every page
    const legend = [
      ...(withdrew ? ['(W): withdrew from the event; her rounds played still count.'] : []),
      ...(rows.some((r) => r.rounds.includes(null)) ? ['missed: a round she did not play.'] : []),
      ...(corrected.length ? [`* Changed by the Director after the round was accepted: ${changedWords(corrected)}.`] : []),
      ...(ties ? [ties] : []),
    ];
    for (const words of legend) {
      y += 24;
      shapes.push(text(words, MARGIN, y, 11));
    }
    pages.push(shapes);
  }
  return pages;
}

/** The changed games in words, the first six of them (a line of the page holds no more). */
function changedWords(corrected: readonly CorrectedGame[]): string {
  const named = corrected.slice(0, 6).map((c) => `round ${c.round}, table ${c.table}, game ${c.game}`);
  return `${named.join('; ')}${corrected.length > 6 ? `; and ${corrected.length - 6} more` : ''}`;
}

export interface SheetTable {
  table: number;
  /** "A (East): Ruth", one a seat. */
  seats: string[];
}

/**
 * Blank score sheets, a table a page: its seats and players, and for each of the round's four
 * games a row to write who made Mah Jongg, the hand's value, self-picked or who threw, the
 * exposures and each seat's points; then the four players' initials and their verifiers'
 * (standardized rules 21: every score verified and signed).
 */
export function scoreSheetsPdf(title: string, round: number, tables: readonly SheetTable[]): Uint8Array {
  const pages: ImageShape[][] = [];
  for (const t of tables.length === 0 ? [{ table: 0, seats: ['A (East):', 'B (North):', 'C (West):', 'D (South):'] }] : tables) {
    const shapes: ImageShape[] = [text(title, MARGIN, MARGIN + 24, 22, true), text(`Round ${round || '___'}, table ${t.table || '___'}: score sheet`, MARGIN, MARGIN + 52, 16, true)];
    let y = MARGIN + 90;
    for (const s of t.seats) {
      shapes.push(text(s, MARGIN, y, 14));
      y += 24;
    }
    y += 16;
    const cols = ['Game', 'Mah Jongg by', 'Value', 'Self-picked or thrown by', 'Exp.', 'A', 'B', 'C', 'D'];
    const xs = [MARGIN, MARGIN + 56, MARGIN + 176, MARGIN + 236, MARGIN + 420, MARGIN + 470, MARGIN + 530, MARGIN + 590, MARGIN + 650];
    cols.forEach((c, i) => shapes.push(text(c, xs[i], y, 12, true)));
    shapes.push(line(MARGIN, y + 8, WIDTH - 2 * MARGIN));
    for (let g = 1; g <= 4; g++) {
      y += 44;
      shapes.push(text(String(g), xs[0], y, 14));
      shapes.push(line(MARGIN, y + 12, WIDTH - 2 * MARGIN));
    }
    y += 44;
    shapes.push(text('Total', xs[0], y, 14, true), line(MARGIN, y + 12, WIDTH - 2 * MARGIN, 2));
    y += 56;
    shapes.push(text('Initials of each player, and of the player who checked her card (East and West check each other, North and South):', MARGIN, y, 12));
    for (const s of ['A (East)', 'B (North)', 'C (West)', 'D (South)']) {
      y += 36;
      shapes.push(text(`${s}: ________   checked by: ________`, MARGIN, y, 13));
    }
    shapes.push(
      text('Standardized tournament rules 11: the hand scores its value, +10 self-picked, +20 with no jokers;', MARGIN, HEIGHT - MARGIN - 16, 11),
      text('the thrower scores -10 (0 or 1 exposures), -20 (2), -25 (3); a wall game +10 to each, -10 to a dead hand.', MARGIN, HEIGHT - MARGIN, 11),
    );
    pages.push(shapes);
  }
  return pdfFromPages(pages, { width: WIDTH, title });
}

/**
 * A Mexican Train game's score sheets, a table a page (senior games and district rules: each
 * hand, every player's points left in her hand, 0 for the player who went out): the players in
 * seat order as the columns, a row a hand, the totals, and each player's initials and those of
 * the player after her, who checks her sheet.
 */
export function trainSheetsPdf(title: string, game: string, hands: number, tables: readonly SheetTable[]): Uint8Array {
  const pages: ImageShape[][] = [];
  for (const t of tables.length === 0 ? [{ table: 0, seats: ['Seat 1:', 'Seat 2:', 'Seat 3:', 'Seat 4:'] }] : tables) {
    const shapes: ImageShape[] = [text(title, MARGIN, MARGIN + 24, 22, true), text(`${game}, table ${t.table || '___'}: score sheet`, MARGIN, MARGIN + 52, 16, true)];
    const width = Math.floor((WIDTH - 2 * MARGIN - 70) / t.seats.length);
    let y = MARGIN + 96;
    shapes.push(text('Hand', MARGIN, y, 12, true));
    t.seats.forEach((s, i) => shapes.push(text(s.slice(0, Math.max(6, Math.floor(width / 8))), MARGIN + 70 + i * width, y, 12, true)));
    shapes.push(line(MARGIN, y + 8, WIDTH - 2 * MARGIN));
    const rowHeight = Math.min(44, Math.floor(520 / Math.max(1, hands)));
    for (let h = 1; h <= hands; h++) {
      y += rowHeight;
      shapes.push(text(String(h), MARGIN, y, 14), line(MARGIN, y + 10, WIDTH - 2 * MARGIN));
    }
    y += rowHeight;
    shapes.push(text('Total', MARGIN, y, 14, true), line(MARGIN, y + 10, WIDTH - 2 * MARGIN, 2));
    y += 48;
    shapes.push(text("Each player's initials, and those of the player after her, who checked her sheet:", MARGIN, y, 12));
    for (const s of t.seats) {
      y += 32;
      shapes.push(text(`${s.slice(0, 40)}  ________   checked by: ________`, MARGIN, y, 13));
    }
    shapes.push(text('Write the points left in each hand after every hand; the player who went out scores 0. The lowest total wins.', MARGIN, HEIGHT - MARGIN, 11));
    pages.push(shapes);
  }
  return pdfFromPages(pages, { width: WIDTH, title });
}
