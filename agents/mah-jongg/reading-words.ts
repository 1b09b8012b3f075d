import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { readSeat, topFamily, type OpponentReading } from '../../engine/mah-jongg/reading.js';
import { isSuited, JOKER, suitOf, type Group } from '../../engine/mah-jongg/tiles.js';
import type { SeatView } from '../../engine/mah-jongg/view.js';
import { exposuresWords, where } from './defence.js';

/**
 * The reading of the table (engine/mah-jongg/reading.ts) in a beginner's words, one sentence an
 * opponent: which family of the card she is probably (or maybe) making, and what she showed
 * that says so ("Across is probably making a Consecutive Run hand in Craks: she called two pungs
 * of Craks and has thrown 4 Dots."). Said only once she has shown something (an exposure, or
 * a few discards) and the reading leans one way.
 */

/**
 * The top family's chance from which she is "probably" making it, and "maybe": on self-play
 * the reading was right 73% of the time where it said 70-80%, 50% where it said 60-70%, 38%
 * where it said 30-40% (docs/training.md).
 */
export const PROBABLY = 0.7;
export const MAYBE = 0.35;
/** Discards from which a player with nothing exposed is read at all. */
const DISCARDS_READ = 4;
/** A suit named when at least this share of the likely hands' suited tiles still needed are in it. */
const SUIT_SHARE = 0.7;

const SUITS = ['Bams', 'Craks', 'Dots'];

export interface SeatReading {
  seat: number;
  family: string;
  /** The family's chance. */
  p: number;
  text: string;
}

/** The suit the hands she is likely making mostly need, or null. */
function suitOfReading(r: OpponentReading): number | null {
  const by = [0, 0, 0];
  r.needs.forEach((p, t) => {
    if (t !== JOKER && isSuited(t)) by[suitOf(t)] += p;
  });
  const all = by[0] + by[1] + by[2];
  const best = by.indexOf(Math.max(...by));
  return all > 0 && by[best] / all >= SUIT_SHARE ? best : null;
}

/** What she showed, in words: her exposures, and the suit she has thrown most. */
function evidence(view: SeatView, seat: number): string {
  const shapes: Group[] = view.exposures[seat].map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
  const thrown = [0, 0, 0];
  for (const t of view.discards[seat]) if (isSuited(t)) thrown[suitOf(t)]++;
  const most = thrown.indexOf(Math.max(...thrown));
  const parts: string[] = [];
  if (shapes.length > 0) parts.push(`she called ${exposuresWords(shapes)}`);
  if (thrown[most] >= 3) parts.push(`has thrown ${thrown[most]} ${SUITS[most]}`);
  return parts.length === 0 ? '' : `: ${parts.join(' and ')}`;
}

/** One sentence for each opponent the table lets her read, the surest first. */
export function readingWords(cc: CompiledCard, view: SeatView): SeatReading[] {
  const out: SeatReading[] = [];
  for (let seat = 0; seat < view.players; seat++) {
    if (seat === view.seat || view.dead[seat].every((d) => d) || view.mahJonggs.some((m) => m.seat === seat)) continue;
    if (view.exposures[seat].length === 0 && view.discards[seat].length < DISCARDS_READ) continue;
    const r = readSeat(cc, view, seat);
    const who = where(view.seat, seat, view.players);
    if (r.noLine) {
      out.push({ seat, family: '', p: 1, text: `No hand on the card fits what ${who} has shown: her hand may be dead.` });
      continue;
    }
    const { family, p } = topFamily(cc, r)!;
    if (p < MAYBE) continue;
    const suit = suitOfReading(r);
    out.push({
      seat,
      family,
      p,
      text: `${who} is ${p >= PROBABLY ? 'probably' : 'maybe'} making ${/^[aeiou]/i.test(family) ? 'an' : 'a'} ${family} hand${suit === null ? '' : ` in ${SUITS[suit]}`}${evidence(view, seat)}.`,
    });
  }
  return out.sort((a, b) => b.p - a.p);
}
