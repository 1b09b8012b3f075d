import type { Game, GameSpec, GameType } from '../../engine/games.js';
import type { ActionJson, EventJson, SeatViewJson } from './table-wire.js';

/**
 * How a game speaks JSON to the page (docs/api.md): a seat's view, its legal actions and the
 * actions it hears of, tiles by name. The tables (api/http/tables.ts) are written
 * once against this; each game's own JSON is api/http/wire.ts (Mah Jongg) and
 * api/shared/domino-wire.ts (Mexican Train).
 */
export interface GameWire<G extends GameSpec> {
  type: GameType<G>;
  /** The fields of a seat's view JSON that only that seat may see (its rack or hand): blanked for someone watching. */
  secret: readonly string[];
  /** The seat's view: only what a player in that seat may see. */
  viewJson(game: Game<G>, v: G['view'], legal: readonly G['action'][]): SeatViewJson;
  /** The seat's legal actions, as the page offers them (each postable as it is). */
  legalJson(game: Game<G>, legal: readonly G['action'][], v: G['view']): ActionJson[];
  /** Action `n` (from 1) as `viewer` hears of it; `drawn` names the tile of the viewer's own draw. */
  eventJson(game: Game<G>, n: number, action: G['action'], viewer: number, drawn: string | null): EventJson;
  /**
   * How many of the actions applied a seat may hear of now (default: all). Mah Jongg: the
   * answers in an open claim window are told once it closes, as at a real table.
   */
  heard?(game: Game<G>, state: G['state'], log: readonly G['action'][]): number;
}
