import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { TilemateError } from '../../engine/errors.js';
import { asPrinted, checkPrintedShape, printedFromText, readPrintedCard, type PrintedCard, type PrintedLine } from '../../engine/mah-jongg/printed-card.js';
import { readCardText } from '../../io/cards.js';
import { printable, writeFileAtomic } from '../../io/files.js';
import { checkCard, readForEditor } from '../shared/card-check.js';
import { registerCardImport } from './card-photo-cli.js';
import { registerCardRender } from './card-render-cli.js';

/**
 * `tilemate card`: the card editor's model at the terminal (engine/mah-jongg/printed-card.ts): `check`
 * a card file, `export` it, `render` it in the printed style, `import` a photo of a printed card.
 * A card file is the notation (`.card`) or the editor's card as printed (JSON, as `export
 * --format json` writes it and the My card page downloads it).
 */

type Source = { kind: 'notation'; text: string } | { kind: 'printed'; card: PrintedCard };

/** A card file: the editor's JSON when it opens with `{`, else the notation. */
function readSource(file: string | undefined): Source {
  const text = readCardText(file);
  if (!text.trimStart().startsWith('{')) return { kind: 'notation', text };
  let card: PrintedCard;
  try {
    card = JSON.parse(text) as PrintedCard;
  } catch (err) {
    throw new TilemateError('TM_BAD_INPUT', `${basename(file ?? '')} starts like the editor's card file but is not well-formed JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof card?.name !== 'string' || !Array.isArray(card.sections)) throw new TilemateError('TM_BAD_INPUT', `${basename(file ?? '')} is JSON but not a card: it needs a "name" and "sections"`);
  checkPrintedShape(card);
  return { kind: 'printed', card };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `tilemate card check`: every mistake and every question of a card, each on its own line; exit 1 when any. */
function check(file: string | undefined, json: boolean): number {
  const source = readSource(file);
  const name = file === undefined ? 'the practice card' : basename(file);
  if (source.kind === 'notation') {
    const r = checkCard(source.text);
    if (json) {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      return r.ok ? 0 : 1;
    }
    const out = [
      `${name}: ${r.name ?? 'a card'}, ${plural(r.lines.length, 'line')} read; ${plural(r.errors.length, 'line needs', 'lines need')} mending, ${plural(r.questions.length, 'line asks', 'lines ask')} a question.`,
    ];
    for (const e of [...r.errors, ...r.questions].sort((a, b) => (a.line ?? 0) - (b.line ?? 0))) {
      const words = e.message.replace(/^card line \d+: /, '').replace(/^"[^"]*": /, '');
      out.push(e.line === null ? `the card: ${words}` : `line ${e.line}${e.token ? ` (at "${e.token}")` : ''}: ${words}`);
    }
    process.stdout.write(`${printable(out.join('\n'))}\n`);
    return r.ok ? 0 : 1;
  }
  const r = readForEditor(source.card);
  if (json) {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    return r.ready === r.lines.length ? 0 : 1;
  }
  const open = r.lines.filter((l) => l.notation === null);
  const out = [`${name}: ${r.name}, ${plural(r.lines.length, 'line')}; ${r.ready} ready, ${plural(open.length, 'line waits', 'lines wait')} for an answer or a mend.`];
  for (const l of open) {
    for (const p of l.problems) out.push(`${l.id}: ${p}`);
    for (const q of l.questions) out.push(`${l.id}: ${q.text}${q.options.length ? ` (${q.options.map((o) => o.label).join('; ')})` : ''}`);
  }
  process.stdout.write(`${printable(out.join('\n'))}\n`);
  return open.length === 0 ? 0 : 1;
}

const COLOUR_WORD = { green: 'green', red: 'red', blue: 'blue' } as const;

/** A line as a player reads it off the card: each group with its colour, the note, X or C and the value. */
function printedWords(line: PrintedLine): string {
  const p = asPrinted(line);
  const groups = p.groups.map((g) => (g.colour === null ? g.text : `${g.text} (${COLOUR_WORD[g.colour]})`)).join('  ');
  const xc = p.concealed === null ? '?' : p.concealed ? 'C' : 'X';
  return `${groups}${p.note ? `   ${p.note}` : ''}   ${xc} ${p.value ?? '?'}`;
}

type ExportFormat = 'card' | 'json' | 'printed';
const FORMATS: readonly ExportFormat[] = ['card', 'json', 'printed'];

/** `tilemate card export`: the card as the editor writes it (notation with its notes), as the editor's JSON, or as printed words. */
function exportCard(file: string | undefined, format: string, out: string | undefined): number {
  if (!(FORMATS as readonly string[]).includes(format)) throw new TilemateError('TM_BAD_INPUT', `--format must be card, json or printed, not ${printable(format)}`);
  const source = readSource(file);
  const card = source.kind === 'printed' ? source.card : printedFromText(source.text);
  let text: string;
  if (format === 'json') text = `${JSON.stringify(card, null, 1)}\n`;
  else if (format === 'card') text = readPrintedCard(card).text;
  else text = `${[card.name, ...card.sections.flatMap((s) => ['', s.title.toUpperCase(), ...s.lines.map(printedWords)])].join('\n')}\n`;
  if (out === undefined) process.stdout.write(printable(text));
  else {
    writeFileAtomic(resolve(out), text);
    process.stdout.write(
      `${printable(
        `Wrote ${resolve(out)}: ${card.name}, ${plural(
          card.sections.reduce((n, s) => n + s.lines.length, 0),
          'line',
        )}.`,
      )}\n`,
    );
  }
  return 0;
}

export function registerCard(cmd: Command, exit: (code: number) => void): void {
  const card = cmd.command('card').description('your own card: check a card file, export it, draw it as printed, read a photo of a printed card');
  card
    .command('check')
    .description("every mistake and every open question of a card file (the notation, or the editor's JSON), each on its own line; exits 1 when there is any")
    .argument('[file]', 'the card file (default: the built-in practice card)')
    .option('--json', "print one JSON object (the check, or the editor's reading of each line)")
    .action((file: string | undefined, f: { json?: boolean }) => exit(check(file, f.json === true)));
  card
    .command('export')
    .description("write a card file as the editor writes it (the notation, with each line's note), as the editor's JSON, or as the card prints it in words")
    .option('--card <file>', "the card file (the notation, or the editor's JSON; default: the built-in practice card)")
    .option('--format <kind>', "card (the notation), json (the editor's card as printed) or printed (words, as on the card)", 'card')
    .option('--out <file>', 'the file to write (default: standard output)')
    .action((f: { card?: string; format: string; out?: string }) => exit(exportCard(f.card, f.format, f.out)));
  registerCardRender(card, exit);
  registerCardImport(card, exit);
}
