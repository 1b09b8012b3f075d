import type { AnalysisInput } from './analyzer.js';
import type { SeatView } from './game.js';
import { JOKER, KINDS, type TileId, type Group } from './tiles.js';

/**
 * What a seat knows, answered once for the engine, the bots, the advice and the server:
 * the tiles it has seen, the tiles it has not, and its hand after a call.
 */

/**
 * Takes the tiles of a called exposure out of a rack's concealed counts, in place, and
 * returns the exposure: the claimed discard with `size - 1 - jokers` natural tiles and
 * `jokers` jokers from the rack (teaching guide 4.3: expose the pung, kong or quint with the
 * claimed tile).
 */
export function exposeCall(concealed: number[], tile: TileId, call: { size: number; jokers: number }): Group {
  concealed[tile] -= call.size - 1 - call.jokers;
  concealed[JOKER] -= call.jokers;
  return { tile, size: call.size, jokers: call.jokers };
}

/** The hand after calling `tile`: new concealed counts and exposures (the arguments are not changed). */
export function handAfterCall(concealed: readonly number[], exposures: readonly Group[], tile: TileId, call: { size: number; jokers: number }): { concealed: number[]; exposures: Group[] } {
  const hand = concealed.slice();
  const exposure = exposeCall(hand, tile, call);
  return { concealed: hand, exposures: [...exposures, exposure] };
}

/**
 * Tiles the seat sees off its own rack, per kind: every discard, the other seats' exposures
 * (a joker in one is a seen joker) and the tiles of every declared Mah Jongg, which stand on
 * the table for all to see. The analyzer's `seen`.
 */
export function seenCounts(view: SeatView): number[] {
  const seen = new Array<number>(KINDS).fill(0);
  for (const d of view.discards) for (const t of d) seen[t]++;
  for (let s = 0; s < view.exposures.length; s++) {
    if (s === view.seat) continue;
    for (const x of view.exposures[s]) {
      seen[x.tile] += x.size - x.jokers;
      seen[JOKER] += x.jokers;
    }
  }
  for (const m of view.mahJonggs) for (let t = 0; t < KINDS; t++) seen[t] += m.tiles[t];
  return seen;
}

/**
 * Copies of each kind the seat has not seen, in the set in play (`view.copies`): not on its
 * rack, not in its exposures, not among the tiles seenCounts counts.
 */
export function unseenCounts(view: SeatView): number[] {
  const unseen = view.copies.slice();
  for (let t = 0; t < KINDS; t++) unseen[t] -= view.concealed[t];
  for (const d of view.discards) for (const t of d) unseen[t]--;
  for (const list of view.exposures)
    for (const x of list) {
      unseen[x.tile] -= x.size - x.jokers;
      unseen[JOKER] -= x.jokers;
    }
  for (const m of view.mahJonggs) for (let t = 0; t < KINDS; t++) unseen[t] -= m.tiles[t];
  return unseen;
}

/**
 * The seat's hand as the analyzer reads it: its concealed tiles, its own exposures, the tiles
 * it has seen (seenCounts), how many of those stand in other players' exposures, and the set
 * in play.
 */
export function seatAnalysisInput(view: SeatView): AnalysisInput {
  let othersExposed = 0;
  for (let s = 0; s < view.exposures.length; s++) if (s !== view.seat) for (const x of view.exposures[s]) othersExposed += x.size;
  return {
    concealed: view.concealed.slice(),
    exposures: view.exposures[view.seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers })),
    seen: seenCounts(view),
    othersExposed,
    copies: view.copies,
  };
}
