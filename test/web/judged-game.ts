import { Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { COPIES, JOKER, KINDS, parseTiles, tileName } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';

/**
 * For the browser tests that need a mistake the one judge calls one whatever its sampled worlds
 * say (agents/mah-jongg/judge.ts, the joker-thrown rule): a tile on the rack that serves no line
 * of the practice card, read as the judge reads a rack (each possible line's tiles away, the
 * table's seen tiles counted, no closer without that tile), from a game answer's view.
 */

const cc = loadCard();
const analyzer = new Analyzer(cc);

/** The part of a game answer's view read here. */
export interface RackView {
  seat: number;
  rack: string[];
  seats: { seat: number; discards: string[]; exposures: { tiles: string[] }[] }[];
}

/** A tile on the rack no line on the card needs (jokers apart), or null: throwing a joker while holding it is a mistake by rule. */
export function servesNoLine(v: RackView): string | null {
  const concealed = new Array<number>(KINDS).fill(0);
  for (const t of parseTiles(v.rack.join(' '))) concealed[t]++;
  const seen = new Array<number>(KINDS).fill(0);
  for (const s of v.seats) for (const t of parseTiles(s.discards.join(' '))) seen[t]++;
  for (const s of v.seats) if (s.seat !== v.seat) for (const x of s.exposures) for (const t of parseTiles(x.tiles.join(' '))) seen[t]++;
  const away = (c: number[]) => {
    const out = new Array<number>(cc.lineCount).fill(99);
    for (const r of analyzer.analyze({ concealed: c, exposures: [], seen, copies: COPIES })) if (r.possible) out[r.line] = r.tilesAway;
    return out;
  };
  const now = away(concealed);
  for (let t = 0; t < KINDS; t++) {
    if (t === JOKER || concealed[t] === 0) continue;
    const c = [...concealed];
    c[t]--;
    const after = away(c);
    if (now.every((n, l) => n >= 99 || after[l] <= n)) return tileName(t);
  }
  return null;
}
