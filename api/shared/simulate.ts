import { DEFAULT_DEALS, lineChances, type ChanceReport } from '../../agents/mah-jongg/advice.js';
import type { AnalysisInput, LineResult } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';

/** Each listed line's chance over simulated deals: `analyze --simulate` and `/api/analyze` with `simulate`. */

const SOLO_MODEL = 'solo: you draw one tile in every four from a wall sampled from the tiles you have not seen, keep a tile when it brings the line closer, and never call; nobody races you';

export interface SimulateFlags {
  /** true, or the number of deals. */
  simulate?: boolean | number;
  seed?: number;
  wall?: number;
}

/** The chance and expected score of each listed line, when `--simulate` was given. */
export function simulateForAnalyze(cc: CompiledCard, input: AnalysisInput, results: readonly LineResult[], flags: SimulateFlags): ChanceReport | null {
  if (flags.simulate === undefined || flags.simulate === false) return null;
  const deals = flags.simulate === true ? DEFAULT_DEALS : flags.simulate;
  return lineChances(cc, input, results, { deals, seed: flags.seed ?? 1, wall: flags.wall });
}

/** What `--simulate` adds to analyze's JSON: the report's settings at the top, two fields per line. */
export function simulationJson(report: ChanceReport) {
  return {
    deals: report.deals,
    seed: report.seed,
    wall: report.wall,
    draws: report.draws,
    model: report.calibrated ? `${SOLO_MODEL}; the chance shown is that solo chance calibrated to how often such lines were won in full-table games (docs/training.md)` : SOLO_MODEL,
  };
}
