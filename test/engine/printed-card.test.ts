import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCard, type Card } from '../../engine/mah-jongg/card.js';
import { lineForms } from '../../engine/mah-jongg/compile.js';
import {
  asPrinted,
  groupsFromText,
  printedFromText,
  readLine,
  readNote,
  readPrintedCard,
  type Colour,
  type LinePatch,
  type PrintedCard,
  type PrintedLine,
  type PrintedSection,
} from '../../engine/mah-jongg/printed-card.js';

/** The card as printed (engine/mah-jongg/printed-card.ts): read into the notation, never guessed, and round-tripped. */

const CARDS = ['practice-2026', 'garden-2026', 'orchard-2026'].map((f) => readFileSync(new URL(`../../cards/${f}.card`, import.meta.url), 'utf8'));
const forms = (card: Card) =>
  card.lines.map((l) =>
    lineForms(l)
      .map((f) => f.text)
      .sort(),
  );
const section = (title = 'Evens', extra: Partial<PrintedSection> = {}): PrintedSection => ({ title, lines: [], ...extra });

/** A line typed as printed: groups, then each group's colour by its first letter (g, r, b, or - for none). */
function printed(groups: string, colours: string, note: string, xc: 'X' | 'C' | null, value: number | null): PrintedLine {
  const gs = groupsFromText(groups);
  const map: Record<string, Colour | null> = { g: 'green', r: 'red', b: 'blue', '-': null };
  [...colours].forEach((c, i) => {
    gs[i].colour = map[c];
  });
  return { groups: gs, note, concealed: xc === null ? null : xc === 'C', value };
}

function apply(line: PrintedLine, patch: LinePatch, sec: PrintedSection): PrintedLine {
  const out: PrintedLine = { ...line, groups: line.groups.map((g) => ({ ...g })), answers: { ...line.answers, ...patch.answers } };
  for (const c of patch.colours ?? []) out.groups[c.group].colour = c.colour;
  for (const t of patch.texts ?? []) out.groups[t.group].text = t.text;
  if (patch.section) sec.numbers = patch.section.numbers;
  return out;
}

describe('a printed line never read one way unseen', () => {
  it('groups of numbers printed without colours are asked about: "are these in different suits?" (the silently one-suit FF 2026 2222 2222)', () => {
    const sec = section('Year');
    const r = readLine(printed('FF 2026 2222 2222', '', 'These Nos. Only', 'X', 25), sec, 'Year #1');
    expect(r.notation).toBeNull();
    const q = r.questions.find((x) => x.about === 'suits')!;
    expect(q.text).toBe("Are 2026, 2222 and 2222 in different suits, as the card's colours show? Tap each group's colour, or answer here.");
    expect(q.options.map((o) => o.label)).toEqual(['Yes, each in a suit of its own', 'No, all in one suit']);
    const three = readLine(apply(printed('FF 2026 2222 2222', '', 'These Nos. Only', 'X', 25), q.options[0].patch, sec), sec, 'Year #1');
    expect(three.notation).toBe('FF 2026a 2222b 2222c ; x 25');
    const one = readLine(apply(printed('FF 2026 2222 2222', '', 'These Nos. Only', 'X', 25), q.options[1].patch, sec), sec, 'Year #1');
    expect(one.notation).toBe('FF 2026a 2222a 2222a ; x 25');
    const same = readLine(printed('2222 4444 1111 333', '', 'These Nos. Only', 'X', 25), sec, 'x').questions[0];
    expect(same.text).toMatch(/^Are 2222, 4444, 1111 and 333 in different suits/);
    expect(readLine(printed('FF 2222 2222 2222 NN', '', 'These Nos. Only', 'X', 25), sec, 'x').questions[0].text).toMatch(
      /^Are these three groups of 2s in different suits, as the card's colours show\?/,
    );
  });

  it('the colours or the note settle the suits; a note that contradicts the colours is a problem', () => {
    const sec = section();
    expect(readLine(printed('FF 2026 2222 2222', '-grb', 'These Nos. Only', 'X', 25), sec, 'x').notation).toBe('FF 2026a 2222b 2222c ; x 25');
    const byNote = readLine(printed('FF 2026 2222 2222', '', 'Any 3 Suits, These Nos. Only', 'X', 25), sec, 'x');
    expect(byNote.notation).toBe('FF 2026a 2222b 2222c ; x 25');
    expect(byNote.understood).toContain("2026, 2222 and 2222 are each in a suit of their own, as the note's 3 suits say.");
    expect(readLine(printed('FF 222 4444 666 88', '', 'Any 1 Suit, These Nos. Only', 'X', 25), sec, 'x').notation).toBe('FF 222a 4444a 666a 88a ; x 25');
    const clash = readLine(printed('FF 2026 2222 2222', '-ggr', 'Any 3 Suits, These Nos. Only', 'X', 25), sec, 'x');
    expect(clash.problems).toEqual(['The note says Any 3 Suits, but the line is printed in 2 colours: check the colours.']);
    // four uncoloured groups and three suits: which two share a suit is not stated, so it is asked
    expect(readLine(printed('22 444 666 8888 F', '', 'Any 3 Suits, These Nos. Only', 'X', 25), sec, 'x').questions.map((q) => q.about)).toEqual(['suits']);
  });

  it('numbers that could move, with nothing said, are asked about: only as printed, or moving together; a section may answer for its lines', () => {
    const sec = section('Runs');
    const line = printed('11 222 3333 44 555', 'ggggg', '', 'X', 25);
    const r = readLine(line, sec, 'Runs #1');
    expect(r.notation).toBeNull();
    expect(r.questions.map((q) => q.about)).toEqual(['numbers']);
    expect(r.questions[0].text).toBe('May these numbers move up or down together (any consecutive numbers), or are they only the numbers printed?');
    expect(readLine(apply(line, r.questions[0].options[1].patch, sec), sec, 'x').notation).toBe('11a 222a 3333a 44a 555a ; x 25 consec');
    expect(readLine(apply(line, r.questions[0].options[0].patch, sec), sec, 'x').notation).toBe('11a 222a 3333a 44a 555a ; x 25');
    // the section's answer
    apply(line, r.questions[0].options[3].patch, sec);
    expect(sec.numbers).toBe('consec');
    expect(readLine(line, sec, 'x').notation).toBe('11a 222a 3333a 44a 555a ; x 25 consec');
    // stated by the note, as the card prints it
    expect(readLine({ ...line, note: 'Any 5 Consec. Nos.' }, section(), 'x').notation).toBe('11a 222a 3333a 44a 555a ; x 25 consec');
    expect(readLine({ ...line, note: 'consecutive' }, section(), 'x').notation).toBe('11a 222a 3333a 44a 555a ; x 25 consec');
    expect(readLine({ ...line, note: 'Any 3 Consec. Nos.' }, section(), 'x').problems).toEqual(['The note says 3 consecutive numbers, but the line holds 5 different numbers.']);
    // numbers that cannot move (1 and 9 both printed) are not asked about
    expect(readLine(printed('FF 11 333 5555 77 9', 'gggggg', '', 'X', 25), section(), 'x').notation).toBe('FF 11a 333a 5555a 77a 9a ; x 25');
  });

  it('a dragon printed without a colour is asked about: any dragon, or the dragon of one of the suits', () => {
    const line = printed('NEWS DDD 222 DDDD', '-gg-', 'These Nos. Only', 'C', 30);
    const r = readLine(line, section(), 'x');
    expect(r.questions.map((q) => q.about)).toEqual(['dragon']);
    expect(r.questions[0].text).toBe("Which dragon is DDDD: any dragon, or the dragon of one of this line's suits (tap its colour)?");
    expect(readLine(apply(line, r.questions[0].options[0].patch, section()), section(), 'x').notation).toBe('NEWS DDDa 222a RRRR|GGGG|0000 ; c 30');
    expect(readLine(apply(line, r.questions[0].options[2].patch, section()), section(), 'x').notation).toBe('NEWS DDDa 222a DDDDb ; c 30');
    expect(readLine({ ...line, note: 'Any Dragon, These Nos. Only' }, section(), 'x').notation).toBe('NEWS DDDa 222a RRRR|GGGG|0000 ; c 30');
  });

  it('note words Tilemate does not know are asked about, and kept once she says they add nothing', () => {
    const line = printed('FF 222 4444 666 88', 'ggggg', 'These Nos. Only, Pretty Line', 'X', 25);
    const r = readLine(line, section(), 'x');
    expect(r.questions[0].text).toBe('Tilemate does not know what "pretty line" in the note allows: choose what the card means.');
    const nothing = r.questions[0].options.find((o) => o.label === 'Nothing more: the line is only as it is typed')!;
    const ok = readLine(apply(line, nothing.patch, section()), section(), 'x');
    expect(ok.notation).toBe('FF 222a 4444a 666a 88a ; x 25');
  });

  it('a note Tilemate does not know is never read narrower than printed: it offers what the words could mean, and the line waits for the answer (issue 62)', () => {
    const sec = section('Kongs');
    const line = printed('FF NNNN 2222 SSSS', '--g-', 'Kong Any Even No.', 'X', 25);
    const r = readLine(line, sec, 'x');
    expect(r.notation).toBeNull();
    const q = r.questions.find((x) => x.about === 'note')!;
    expect(q.text).toBe('Tilemate does not know what "kong any even numbers" in the note allows: choose what the card means.');
    expect(q.options.map((o) => o.label)).toEqual([
      'The kong 2222 may be any even number (2222, 4444, 6666 or 8888)',
      'The numbers may move up or down together',
      'No jokers may be used in this line',
      'Nothing more: the line is only as it is typed',
    ]);
    const even = readLine(apply(line, q.options[0].patch, sec), sec, 'x');
    expect(even.notation).toBe('FF NNNN 2222a|4444a|6666a|8888a SSSS ; x 25');
    expect(readLine(apply(line, q.options[1].patch, sec), sec, 'x').notation).toBe('FF NNNN 2222a SSSS ; x 25 consec');
    // kept with the card: read back from its notation, the answered line is settled the same
    const card = readPrintedCard({ name: 'Mine', sections: [{ ...sec, lines: [apply(line, q.options[0].patch, sec)] }] });
    expect(readPrintedCard(printedFromText(card.text)).text).toBe(card.text);
    // pair and pung words of an odd line: each group they name, and all of them at once
    const odd = printed('FF 11 333 5555 77 9', 'gggggg', 'Pair any odd, Pung any odd', 'C', 30);
    const oq = readLine(odd, sec, 'x').questions.find((x) => x.about === 'note')!;
    expect(oq.options.map((o) => o.label).slice(0, 3)).toEqual([
      'The pair 11 may be any odd number (11, 33, 55, 77 or 99)',
      'The pung 333 may be any odd number (111, 333, 555, 777 or 999)',
      'The pair 77 may be any odd number (11, 33, 55, 77 or 99)',
    ]);
    expect(oq.options[3].label).toBe('All of these groups may be any odd number');
    expect(readLine(apply(odd, oq.options[3].patch, sec), sec, 'x').notation).toBe('FF 11a|33a|55a|77a|99a 111a|333a|555a|777a|999a 5555a 11a|33a|55a|77a|99a 9a ; c 30');
  });

  it("every problem of a line is named at once, in a player's words", () => {
    const r = readLine(printed('FF 2Q26 2222', '-gr', '', null, null), section(), 'x');
    expect(r.problems).toEqual([
      '"Q" in "2Q26" is not a tile on a card (the tiles are 1 to 9, 0 for Soap, N, E, W, S, F, D, and R or G for a red or green dragon).',
      'This line holds 10 tiles; every line of a card holds 14. Check its groups against the card.',
      'Choose X (exposed) or C (concealed), as the card prints at the end of the line.',
      'Type the value printed at the end of the line.',
    ]);
  });
});

describe('typed as printed (issue 62)', () => {
  it('"or" between two groups is either group, as the card prints it; between runs of groups, either run; between whole lines, either line', () => {
    const sec = section('2026');
    // the refused line of issue 62: "The first way of making this line holds 11 tiles"
    const year = readLine(printed('2026 DDD 2222 or 6666 DDD', 'ggr-rr', 'These Nos. Only', 'X', 25), sec, 'x');
    expect(year.problems).toEqual([]);
    expect(year.notation).toBe('2026a DDDa 2222b|6666b DDDb ; x 25');
    // a chain: any one of them
    expect(readLine(printed('FF 2222 or 4444 or 6666 1111 3333', '-g-g-grb', 'These Nos. Only', 'X', 25), sec, 'x').notation).toBe('FF 2222a|4444a|6666a 1111b 3333c ; x 25');
    // runs of groups: as many tiles before "or" as after it, so that each way holds 14
    expect(readLine(printed('FF 2222 4444 or 6666 8888 DDDD', '-gg-ggr', 'These Nos. Only', 'X', 25), sec, 'x').notation).toBe('FF 2222a 4444a DDDDb or FF 6666a 8888a DDDDb ; x 25');
    // whole halves, as before
    expect(readLine(printed('11 333 5555 777 99 or 99 777 5555 333 11', 'grbrg-grbrg', 'These Nos. Only', 'X', 25), sec, 'x').notation).toBe(
      '11a 333b 5555c 777b 99a or 99a 777b 5555c 333b 11a ; x 25',
    );
    // the groups "or" chooses between are asked about as one group
    const open = readLine(printed('2026 2222 or 6666 NNN DDD', '', 'These Nos. Only', 'X', 25), sec, 'x');
    const q = open.questions.find((x) => x.about === 'suits')!;
    expect(q.text).toBe("Are 2026 and 2222 or 6666 in different suits, as the card's colours show? Tap each group's colour, or answer here.");
    const settled = readLine(apply(apply(printed('2026 2222 or 6666 NNN DDD', '', 'These Nos. Only', 'X', 25), q.options[0].patch, sec), { colours: [{ group: 5, colour: 'green' }] }, sec), sec, 'x');
    expect(settled.notation).toBe('2026a 2222b|6666b NNN DDDa ; x 25');
    // a reading that makes no line of 14 tiles is said, never guessed
    expect(readLine(printed('FF 2222 or 666 1111 3333', '-g-grb', 'These Nos. Only', 'X', 25), sec, 'x').problems).toEqual([
      'Tilemate cannot tell which groups "or" chooses between: each way of making the line must hold 14 tiles, so check the groups against the card.',
    ]);
  });
  it('a year is never asked to move: its numbers stay as printed, and only the other numbers of its line may move', () => {
    const sec = section('2026');
    // a line whose only numbers are a year: nothing to ask
    const alone = readLine(printed('NNNN 2026 SSSS FF', '-g--', '', 'X', 25), sec, 'x');
    expect(alone.questions).toEqual([]);
    expect(alone.notation).toBe('NNNN 2026a SSSS FF ; x 25');
    // a year beside other numbers: the question is of the other numbers only
    const year = readLine(printed('FF 2026 2222 2222', '-grb', '', 'X', 25), sec, 'x');
    expect(year.questions.map((q) => q.text)).toEqual(['May the numbers of 2222 and 2222 move up or down together, while 2026 stays as printed, or are they only the numbers printed?']);
    expect(readLine(apply(printed('FF 2026 2222 2222', '-grb', '', 'X', 25), year.questions[0].options[0].patch, sec), sec, 'x').notation).toBe('FF 2026a 2222b 2222c ; x 25');
    // the other numbers of a year's line may move with them, and the year stays
    const like = readLine(printed('2026 1111 1111 NN', 'grb-', 'Any Like Nos.', 'X', 25), sec, 'x');
    expect(like.notation).toBe('2026a 1111b 1111c NN ; x 25 consec');
    const hands = lineForms(parseCard(`[2026]\n${like.notation}`).lines[0]).map((f) => f.text);
    expect(hands).toHaveLength(9 * 3); // any number, the year in any suit and the two kongs in the other two
    expect(hands.every((h) => /^2026[BCD] /.test(h))).toBe(true);
    expect(hands).toContain('2026B 9999C 9999D NN');
    expect(readLine(printed('NNNN 2026 SSSS FF', '-g--', 'Any Like Nos.', 'X', 25), sec, 'x').problems).toEqual([
      'The note says the numbers move, but the only numbers of the line are a year, which stays as printed.',
    ]);
  });
  it('a line no set of tiles can make is never ready, and the editor says why in one sentence', () => {
    const sec = section('Quints');
    const line = printed('22222 2222 2222 F', '', 'These Nos. Only', 'X', 40);
    const q = readLine(line, sec, 'x').questions.find((x) => x.about === 'suits')!;
    // all in one suit: thirteen 2s of one suit, and a set has 4 and 8 jokers (issue 62 showed thirteen 2 Bam, Ready)
    const one = readLine(apply(line, q.options.find((o) => o.label === 'No, all in one suit')!.patch, sec), sec, 'x');
    expect(one.notation).toBeNull();
    expect(one.problems).toEqual(['No hand can make this line: it needs 13 tiles of one kind (such as 2 Bam), and a set has only 4 of each and 8 jokers.']);
    expect(readLine(apply(line, q.options[0].patch, sec), sec, 'x').notation).toBe('22222a 2222b 2222c F ; x 40');
    // singles and pairs take no joker
    expect(readLine(printed('NN NN NN EE EE SS SS', '', '', 'C', 50), sec, 'x').problems).toEqual([
      'No hand can make this line: it needs 6 of the North as single tiles or pairs, and a set has only 4, with no joker standing in for a single or a pair.',
    ]);
    // nor a quint in a line without jokers
    expect(readLine(printed('22222 4444 6666 F', 'grb-', 'These Nos. Only, No Jokers', 'X', 40), sec, 'x').problems).toEqual([
      'No hand can make this line: it needs 5 tiles of one kind (such as 2 Bam), and a set has only 4 of each and this line takes no jokers.',
    ]);
    // five flowers are a quint a set can make with a joker, or without one
    expect(readLine(printed('FFFFF 2222 11111', '-gr', 'These Nos. Only', 'X', 40), sec, 'x').notation).toBe('FFFFF 2222a 11111b ; x 40');
  });
  it('"any number, any other number": each different number any number, different from the others, typed, drawn and read back (issue 62, Quints)', () => {
    const sec = section('Quints');
    expect(readNote('any number, any other number').meaning).toEqual({ numbers: 'other' });
    expect(readNote('Any No., Any Other No.').meaning).toEqual({ numbers: 'other' });
    expect(readNote('Any Other Nos.').meaning).toEqual({ numbers: 'other' });
    const line = printed('11111 22222 3333', 'grb', 'any number, any other number', 'X', 45);
    const r = readLine(line, sec, 'Quints #3');
    expect([r.problems, r.questions.map((q) => q.text)]).toEqual([[], []]);
    expect(r.notation).toBe('11111a 22222b 3333c ; x 45 other');
    const hands = lineForms(parseCard(`[Quints]\n${r.notation}`).lines[0]).map((f) => f.text);
    expect(hands).toHaveLength((9 * 8 * 7 * 6) / 2); // three different numbers in three suits, the two quints interchangeable
    expect(hands).toContain('99999B 11111C 5555D');
    expect(hands.some((h) => /^(\d)\1{4}[BCD] \1/.test(h))).toBe(false);
    // "Any No." of one number is like numbers; of several it does not say how they go together, so it is asked, "other" among the answers
    expect(readLine(printed('11111 NNNN 11111', 'g-r', 'Any No.', 'X', 45), sec, 'x').notation).toBe('11111a NNNN 11111b ; x 45 consec');
    const asked = readLine(printed('11111 NNNN 22222', 'g-r', 'Any No.', 'X', 45), sec, 'x');
    const q = asked.questions.find((x) => x.about === 'numbers')!;
    expect(q.options.at(-1)!.label).toBe('Each different number may be any number, as long as they stay different');
    expect(readLine(apply(printed('11111 NNNN 22222', 'g-r', 'Any No.', 'X', 45), q.options.at(-1)!.patch, sec), sec, 'x').notation).toBe('11111a NNNN 22222b ; x 45 other');
    // the line in the notation, drawn as Tilemate prints it, reads back to the same line
    const card = printedFromText('card: Q\n[Quints]\n11111a 22222b 3333c ; x 45 other\n');
    const drawn = asPrinted(card.sections[0].lines[0]);
    expect(drawn.note).toBe('Any 3 Suits, Any Other Nos.');
    expect(readPrintedCard({ ...card, sections: [{ ...card.sections[0], lines: [drawn] }] }).lines[0].notation).toBe('11111a 22222b 3333c ; x 45 other');
  });

  it('a line of many ways joined by "or", as a notation line reads back and Tilemate draws it, is taken whole (it was refused at 24 groups)', () => {
    const ways = [1, 2, 3, 4, 5, 6, 7].map((k) => `${String(k).repeat(5)}a ${String(k + 1).repeat(4)}b ${String(k + 2).repeat(5)}c`).join(' or ');
    const text = `card: Q\n[Quints]\n${ways} ; x 45\n`;
    const card = printedFromText(text);
    expect(card.sections[0].lines[0].groups).toHaveLength(27);
    const drawn = readPrintedCard({ ...card, sections: [{ ...card.sections[0], lines: card.sections[0].lines.map(asPrinted) }] });
    expect(drawn.lines[0].problems).toEqual([]);
    expect(forms(parseCard(drawn.text))).toEqual(forms(parseCard(text)));
  });
});

describe("the card's own phrases", () => {
  it('each phrase a card prints is understood, and says what it understood', () => {
    const cases: [string, object][] = [
      ['Any 3 Suits', { suits: 3 }],
      ['any 2 suits', { suits: 2 }],
      ['Any 1 Suit', { suits: 1 }],
      ['Any 1 or 3 Suits', { oneOr: 3 }],
      ['Any Like Nos.', { numbers: 'consec' }],
      ['Any 5 Consec. Nos.', { numbers: 'consec', distinct: 5 }],
      ['These Nos. Only', { numbers: 'fixed' }],
      ['Any Wind', { anyWind: true }],
      ['Any Dragon', { anyDragon: true }],
      ['Bams Only', { only: 'B' }],
      ['No Jokers', { nojoker: true }],
      ['Nos. also +2, +4', { shifts: [0, 2, 4] }],
      ['Green Craks', { pin: ['green', 'C'] }],
      // the phrases that bind numbers across groups (issue 62)
      ['Any No., Any Other No.', { numbers: 'other' }],
      ['any number and any other number', { numbers: 'other' }],
      ['Any 2 Different Nos.', { numbers: 'other' }],
      ['Like Nos.', { numbers: 'consec' }],
      ['Same No.', { numbers: 'consec' }],
      ['Consec. Nos.', { numbers: 'consec' }],
      ['Any No.', { anyNumber: true }],
    ];
    for (const [note, meaning] of cases) {
      const r = readNote(note);
      expect(r.meaning, note).toEqual(meaning);
      expect(r.unknown, note).toBe('');
      expect(r.understood, note).toHaveLength(1);
    }
    expect(readNote('Any 3 Suits, Like Kongs 2s').unknown).toBe('like kongs 2s');
  });

  it('"Any 1 or 3 Suits" makes the line as coloured or all in one suit', () => {
    const r = readLine(printed('11 333 5555 777 99', 'grbrg', 'Any 1 or 3 Suits', 'X', 25), section(), 'x');
    expect(r.notation).toBe('11a 333b 5555c 777b 99a or 11a 333a 5555a 777a 99a ; x 25');
  });
});

describe('the notation round-trips through the printed card', () => {
  it('each of the three cards, read into the printed model and written again, makes the same lines with the same forms', () => {
    for (const text of CARDS) {
      const before = parseCard(text);
      const reading = readPrintedCard(printedFromText(text));
      expect(reading.lines.filter((l) => l.notation === null)).toEqual([]);
      const after = parseCard(reading.text);
      expect(after.name).toBe(before.name);
      expect(after.lines.map((l) => [l.id, l.value, l.concealed, l.nojoker])).toEqual(before.lines.map((l) => [l.id, l.value, l.concealed, l.nojoker]));
      expect(forms(after)).toEqual(forms(before));
    }
  });

  it('each line drawn as a card prints it (its note saying what the notation states) reads back to the same forms', () => {
    for (const text of CARDS) {
      const card = printedFromText(text);
      const drawn: PrintedCard = { ...card, sections: card.sections.map((s) => ({ ...s, lines: s.lines.map(asPrinted) })) };
      const reading = readPrintedCard(drawn);
      const open = reading.lines.filter((l) => l.notation === null).map((l) => `${l.id}: ${[...l.problems, ...l.questions.map((q) => q.text)].join(' ')}`);
      expect(open).toEqual([]);
      expect(forms(parseCard(reading.text))).toEqual(forms(parseCard(text)));
    }
  });

  it('an unsettled line is kept as a draft, the others make a usable card, and the ids do not move when the draft is settled', () => {
    const sec = section('Evens', {
      lines: [
        printed('22 444 6666 888 FF', 'gggg-', 'These Nos. Only', 'X', 25),
        printed('FF 2222 44 66 8888', '', 'These Nos. Only', 'X', 30),
        printed('2468 2468 22 44 FF', 'grbb-', 'These Nos. Only', 'C', 50),
      ],
    });
    const card: PrintedCard = { name: 'My card', sections: [sec] };
    const r = readPrintedCard(card);
    expect(r.ready).toBe(2);
    expect(r.lines.map((l) => l.id)).toEqual(['Evens #1', 'Evens #2', 'Evens #3']);
    const parsed = parseCard(r.text);
    expect(parsed.lines.map((l) => l.id)).toEqual(['Evens #1', 'Evens #3']);
    // the draft comes back from the text as it was entered
    const back = printedFromText(r.text);
    expect(back.sections[0].lines[1].groups.map((g) => g.text)).toEqual(['FF', '2222', '44', '66', '8888']);
    expect(back.sections[0].lines[1].note).toBe('These Nos. Only');
    expect(back.sections[0].lines[2].note).toBe('These Nos. Only');
  });

  it('a line whose note made its choices (Any Wind, Any Dragon, Any 1 or 3 Suits) comes back from its notation with that note, and reads the same', () => {
    const card: PrintedCard = {
      name: 'Notes',
      sections: [
        section('Mixed', {
          lines: [
            printed('NNN 2026 EEE 2026', '-g-r', 'Any Wind, These Nos. Only', 'X', 30),
            printed('11 333 5555 777 99', 'grbrg', 'Any 1 or 3 Suits', 'X', 25),
            printed('FF DDDD 2222 DDDD', '--g-', 'Any Dragon, Any Like Nos.', 'X', 30),
          ],
        }),
      ],
    };
    const first = readPrintedCard(card);
    expect(first.lines.map((l) => l.notation)).toEqual([
      'NNN|EEE|WWW|SSS 2026a NNN|EEE|WWW|SSS 2026b ; x 30',
      '11a 333b 5555c 777b 99a or 11a 333a 5555a 777a 99a ; x 25',
      'FF RRRR|GGGG|0000 2222a RRRR|GGGG|0000 ; x 30 consec',
    ]);
    const again = readPrintedCard(printedFromText(first.text));
    expect(again.lines.map((l) => [l.problems, l.questions.length])).toEqual([
      [[], 0],
      [[], 0],
      [[], 0],
    ]);
    expect(again.text).toBe(first.text);
  });

  it('a card too large is refused before it is read', () => {
    const line = printed('22 444 6666 888 FF', 'gggg-', '', 'X', 25);
    expect(() => readPrintedCard({ name: 'Big', sections: [section('S', { lines: Array.from({ length: 201 }, () => line) })] })).toThrow(/201 lines; a card may have 200/);
    expect(() => readPrintedCard({ name: 'x', sections: [section('S'), section('S')] })).toThrow(/two sections have the same heading/);
  });
});
