import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCard } from '../engine/mah-jongg/card.js';
import { Analyzer } from '../engine/mah-jongg/analyzer.js';
import { compileCard, type CompiledCard } from '../engine/mah-jongg/compile.js';
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

/**
 * Cards compiled from their text, the most recently used kept (the players' own cards come
 * and go; compiling one again costs a fraction of a second), each with its analyzer (scratch
 * space reused across requests). One per thread: the server's, and each worker's.
 */
export class CardCache {
  private readonly kept = new Map<string, { cc: CompiledCard; analyzer: Analyzer }>();

  constructor(private readonly keep = 8) {}

  private entry(text: string): { cc: CompiledCard; analyzer: Analyzer } {
    let hit = this.kept.get(text);
    if (hit !== undefined) {
      this.kept.delete(text);
      this.kept.set(text, hit);
      return hit;
    }
    const cc = compileCard(parseCard(text)); // bounded before it enumerates (engine/mah-jongg/compile.ts)
    hit = { cc, analyzer: new Analyzer(cc) };
    this.kept.set(text, hit);
    if (this.kept.size > this.keep) this.kept.delete(this.kept.keys().next().value!);
    return hit;
  }

  /** Keeps a card compiled elsewhere (a worker thread of the server), as if compiled here. */
  adopt(cc: CompiledCard): CompiledCard {
    const hit = this.kept.get(cc.card.text);
    if (hit !== undefined) return hit.cc;
    this.kept.set(cc.card.text, { cc, analyzer: new Analyzer(cc) });
    if (this.kept.size > this.keep) this.kept.delete(this.kept.keys().next().value!);
    return cc;
  }

  /** Whether a card's text is compiled here already. */
  has(text: string): boolean {
    return this.kept.has(text);
  }

  /** The compiled card of a text (a CardSource for the game registry and the replay). */
  readonly compile = (text: string): CompiledCard => this.entry(text).cc;

  /** The analyzer of a card compiled here (or of one compiled elsewhere, kept by its text). */
  analyzer(cc: CompiledCard): Analyzer {
    // a card already compiled is kept as it is, never compiled again for its analyzer
    if (!this.kept.has(cc.card.text)) this.adopt(cc);
    return this.entry(cc.card.text).analyzer;
  }
}
