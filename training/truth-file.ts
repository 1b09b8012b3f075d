import { readFileSync } from 'node:fs';
import { TilemateError } from '../engine/errors.js';
import type { TruthDecision, TruthResult } from './truth.js';

/** A valued decision of the truth set, as lab/truth-set.ts writes it: the decision and its truth. */
export type TruthRow = TruthDecision & { truth: Omit<TruthResult, 'id'> };

/** The valued decisions of a truth-set file (its header line skipped; a line a kill cut short dropped). */
export function readTruthSet(file: string): TruthRow[] {
  const lines = readFileSync(file, 'utf8').split('\n').slice(1);
  const out: TruthRow[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as TruthRow);
    } catch {
      if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim() !== '')) throw new TilemateError('TM_BAD_INPUT', `${file} line ${i + 2} is not a valued decision`);
    }
  }
  return out;
}
