import { TilemateError } from '../../engine/errors.js';
import type { CardSource } from '../../engine/games.js';
import { MAH_JONGG, type MahJonggGame } from '../../engine/mah-jongg/mah-jongg.js';
import { replayRecord } from '../../engine/record.js';
import { tileName, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';
import { exposureJson, type ExposureJson } from './wire.js';

/**
 * A finished Mah Jongg game move by move as one seat saw it, for stepping through it: each
 * move as the record writes it (tiles by name), and after it that seat's own rack, every seat's
 * exposures and discards. Her rack only: the other racks stay face down, as at the table.
 */

export interface Step {
  n: number;
  action: Record<string, unknown>;
  rack: string[];
  exposures: ExposureJson[][];
  discards: string[][];
}

export function recordSteps(text: string, seat: number | undefined, cards: CardSource): { seat: number; seats: string[]; steps: Step[] } {
  const { header, game, played } = replayRecord(text, { type: MAH_JONGG, cards });
  const mj = game as MahJonggGame;
  const who = seat ?? Math.max(0, header.seats.indexOf('human'));
  if (who >= mj.players) throw new TilemateError('TM_BAD_INPUT', `seat ${who}: that game had seats 0 to ${mj.players - 1}`);
  const state = mj.newGame(header.seed);
  const steps: Step[] = [];
  const at = () => {
    const v = mj.sharedView(state, who);
    return { rack: tilesFromCounts(v.concealed).map(tileName), exposures: v.exposures.map((xs) => xs.map(exposureJson)), discards: v.discards.map((ds) => ds.map(tileName)) };
  };
  steps.push({ n: 0, action: {}, ...at() });
  for (const action of played) {
    mj.apply(state, action);
    const written = mj.encodeAction(action);
    // another seat's Charleston tiles were face down to her
    if ((written.type === 'pass' || written.type === 'courtesy') && action.seat !== who) delete written.tiles;
    steps.push({ n: steps.length, action: written, ...at() });
  }
  return { seat: who, seats: header.seats, steps };
}
