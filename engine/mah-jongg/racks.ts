import type { Exposure, Player } from './game.js';

/** A player's racks (Siamese players have two), as the rules and the proofs read them. */

/** Whether a rack is live: not dead, no Mah Jongg declared on it yet. */
export function rackLive(p: Player, rack: number): boolean {
  if (p.dead[rack]) return false;
  for (let i = 0; i < p.mahJonggs.length; i++) if (p.mahJonggs[i].rack === rack) return false;
  return true;
}

/** The exposures on one rack (the player's own list when all stand on it: read it, never change it). */
export function rackExposures(p: Player, rack: number): Exposure[] {
  const all = p.exposures;
  for (let i = 0; i < all.length; i++) if (all[i].rack !== rack) return all.filter((x) => x.rack === rack);
  return all;
}
