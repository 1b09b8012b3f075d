import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { fileErrorWords, TilemateError } from '../../engine/errors.js';
import type { PhotoDraft } from '../../io/card-photo.js';
import { MAX_PHOTOS, PHOTO_LIMITS } from '../../io/card-photo-limits.js';
import { printable, writeFileAtomic } from '../../io/files.js';

/**
 * `tilemate card import --photo FILE --out FILE.card`: a photo of a printed card (or one per
 * panel, in reading order) read into a draft card file (io/card-photo.ts). The lines that
 * settle are written in the notation (with `// check: <reason>` where the reading is unsure);
 * the others are kept as `// draft:` lines for the card editor. Each line the reading is unsure of is named on standard error with the reason, for
 * the player to check against her card; a summary goes to standard output.
 */

interface ImportFlags {
  photo: string[];
  out: string;
  name?: string;
}

/** A photo's bytes, refused before they are read when the file is larger than a photo may be. */
function readPhoto(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new TilemateError('TM_FILE', `cannot read the photo ${printable(path)}: ${fileErrorWords(err)}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > PHOTO_LIMITS.maxBytes) {
      throw new TilemateError('TM_BAD_INPUT', `the photo ${printable(path)} is ${(size / 1048576).toFixed(1)} MB; a photo of a card may be at most ${Math.round(PHOTO_LIMITS.maxBytes / 1048576)} MB`);
    }
    const bytes = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } catch (err) {
    if (err instanceof TilemateError) throw err;
    throw new TilemateError('TM_FILE', `cannot read the photo ${printable(path)}: ${fileErrorWords(err)}`);
  } finally {
    closeSync(fd);
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function registerCardImport(card: Command, exit: (code: number) => void): void {
  card
    .command('import')
    .description('read a photo of a printed card (PNG or JPEG; one per panel if you like) into a draft card file, naming each line to check')
    .requiredOption(
      '--photo <file>',
      `a photo of the card, PNG or JPEG, at most ${Math.round(PHOTO_LIMITS.maxBytes / 1048576)} MB; give --photo again for each panel, in reading order (up to ${MAX_PHOTOS})`,
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .requiredOption('--out <file>', 'the card file to write (FILE.card)')
    .option('--name <name>', "the card's name, when the photo does not show it")
    .action(async (f: ImportFlags) => {
      const out = resolve(f.out);
      if (f.photo.some((p) => resolve(p) === out)) throw new TilemateError('TM_BAD_INPUT', `--out names one of the photos (${printable(f.out)}); choose another file for the card`);
      const photos = f.photo.map(readPhoto);
      process.stderr.write(`Reading ${plural(photos.length, 'photo')} (a few seconds each)...\n`);
      // the reader (sharp and the OCR) is loaded only by this command, not by every start of the program
      const { closeCardPhotoReader, draftText, readCardPhotos } = await import('../../io/card-photo.js');
      let draft: PhotoDraft;
      try {
        draft = await readCardPhotos(photos, { name: f.name });
      } finally {
        await closeCardPhotoReader();
      }
      if (draft.reading.lines.length === 0) {
        throw new TilemateError('TM_BAD_INPUT', `no card lines were found in ${photos.length === 1 ? 'the photo' : 'the photos'}: photograph the card straight on, filling the picture, in good light`);
      }
      writeFileAtomic(out, draftText(draft));
      for (const u of draft.unsure) {
        process.stderr.write(`${printable(`Check ${u.id} (${u.groups || 'nothing read'}): ${u.reason}`)}\n`);
      }
      const lines = draft.reading.lines.length;
      const waiting = lines - draft.reading.ready;
      process.stdout.write(
        `${printable(`Wrote ${out}: ${draft.reading.name}, ${plural(lines, 'line')} in ${plural(draft.card.sections.length, 'section')} read from ${plural(photos.length, 'photo')}; ${draft.reading.ready} settled in the notation, ${waiting} kept as drafts to finish in the card editor, ${draft.unsure.length} to check against your card${draft.unsure.length > 0 ? ' (listed above)' : ''}.`)}\n`,
      );
      exit(0);
    });
}
