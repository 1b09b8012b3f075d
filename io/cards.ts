import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCard } from '../engine/card.js';
import { compileCard, type CompiledCard } from '../engine/compile.js';
import { MAX_FILE_BYTES, readTextFile } from './files.js';

/** The practice card shipped with Tilemate: the embedded default wherever a card is needed. */
export const PRACTICE_CARD_FILE = 'practice-2026.card';

/** The project's root folder (the one holding cards/), from source or from dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'cards', PRACTICE_CARD_FILE))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`rule violation: cards/${PRACTICE_CARD_FILE} is missing from the installation`);
}

export function readCardText(file?: string): string {
  return readTextFile(file ?? join(projectRoot(), 'cards', PRACTICE_CARD_FILE), MAX_FILE_BYTES.card, 'card file');
}

const cache = new Map<string, CompiledCard>();

/** Parses and compiles a card once per file (the practice card when no file is given). */
export function loadCard(file?: string): CompiledCard {
  const key = file ?? '';
  let cc = cache.get(key);
  if (!cc) {
    cc = compileCard(parseCard(readCardText(file)));
    cache.set(key, cc);
  }
  return cc;
}
