import { TilemateError } from '../errors.js';
import type { ScoringTable } from '../mah-jongg/rulesets.js';
import { scoreGame, type MahJonggEvent } from '../mah-jongg/scoring.js';
import { SEATS, type Seat } from './seating.js';

/**
 * A game played with real tiles, as a player enters it on her score card (issue 47), and what
 * it scores for every seat at the table: the engine's own scorer (engine/mah-jongg/scoring.ts)
 * with the tournament's table (standardized tournament rules 11), so a card is scored as a game
 * at a Tilemate table is.
 */
export interface GameResult {
  /** Who made Mah Jongg (her seat), or null for a wall game. */
  winner: Seat | null;
  /** The value of her hand on the card. */
  value?: number;
  /** She picked the winning tile from the wall herself (rules 11.1). */
  selfPicked?: boolean;
  /** Who threw the winning tile (when not self-picked). */
  thrower?: Seat;
  /** Her exposures when the winning tile was thrown (rules 11.5-11.7: the thrower's penalty). */
  exposures?: number;
  /** The thrower misnamed the winning tile (rules 11.9, 12.3): she pays -25, whatever the exposures. */
  misnamed?: boolean;
  /** No joker in the winning hand (rules 11.2). */
  jokerless?: boolean;
  /** The hand is one of the card's Singles and Pairs (no jokerless bonus there, rules 11.2). */
  singlesAndPairs?: boolean;
  /** Seats whose hands were dead when the game ended (rules 11.8: a dead player in a wall game). */
  dead?: Seat[];
  /** Not finished in the round's time: every player scores zero (rules 11.4, "INCOMPLETE GAME"). */
  incomplete?: boolean;
  /** East's dealt Mah Jongg, before any discard: no thrower, and no self-picked bonus (rules 4.4, 11.10). */
  heavenly?: boolean;
  /** The game ended on a Mah Jongg in error that left these seats' hands intact (rules 14.4). */
  intact?: Seat[];
}

/** The largest hand value a card entry takes (the League's cards top out well below it). */
const MAX_VALUE = 500;

/** Checks a game's result as entered, naming what is wrong; `seats` are the table's (three or four). */
export function checkResult(r: GameResult, seats: readonly Seat[]): void {
  const at = (s: Seat | undefined, what: string) => {
    if (s === undefined || !seats.includes(s)) throw new TilemateError('TM_BAD_INPUT', `${what}: seat ${String(s)} is not at this table (${seats.join(', ')})`);
  };
  for (const d of r.dead ?? []) at(d, 'a dead hand');
  for (const d of r.intact ?? []) at(d, 'a hand intact');
  // a list names each seat once: ["B", "B"] is a slip, not two dead hands
  const once = (list: readonly Seat[] | undefined, what: string) => {
    const twice = (list ?? []).find((s, i) => list!.indexOf(s) !== i);
    if (twice !== undefined) throw new TilemateError('TM_BAD_INPUT', `seat ${twice} is named twice among the ${what}: name each seat once.`);
  };
  once(r.dead, 'dead hands');
  once(r.intact, 'hands left intact');
  if (r.incomplete) {
    if (r.winner !== null || (r.dead ?? []).length > 0 || (r.intact ?? []).length > 0)
      throw new TilemateError('TM_BAD_INPUT', 'a game not finished in time has no winner and no dead hands: everyone scores zero');
    return;
  }
  if (r.winner === null) {
    if (r.value !== undefined || r.thrower !== undefined || r.selfPicked || r.misnamed || r.heavenly) throw new TilemateError('TM_BAD_INPUT', 'a wall game has no winner, hand value or thrower');
    return;
  }
  at(r.winner, 'the winner');
  if (r.value === undefined || !Number.isInteger(r.value) || r.value <= 0 || r.value > MAX_VALUE)
    throw new TilemateError('TM_BAD_INPUT', `the hand's value must be a whole number from 1 to ${MAX_VALUE}`);
  if (r.selfPicked || r.heavenly) {
    if (r.thrower !== undefined) throw new TilemateError('TM_BAD_INPUT', `${r.heavenly ? "East's dealt" : 'a self-picked'} Mah Jongg has no thrower`);
    if (r.misnamed) throw new TilemateError('TM_BAD_INPUT', 'only a thrown tile can be misnamed: this Mah Jongg had no thrower');
    if (r.heavenly && r.selfPicked) throw new TilemateError('TM_BAD_INPUT', "East's dealt Mah Jongg is not self-picked");
  } else {
    at(r.thrower, 'the thrower');
    if (r.thrower === r.winner) throw new TilemateError('TM_BAD_INPUT', 'the winner cannot throw her own winning tile');
  }
  if (r.exposures !== undefined && (!Number.isInteger(r.exposures) || r.exposures < 0 || r.exposures > 4)) throw new TilemateError('TM_BAD_INPUT', 'exposures: a whole number from 0 to 4');
  if (r.dead?.includes(r.winner)) throw new TilemateError('TM_BAD_INPUT', 'the winner cannot have a dead hand');
}

/** Every seat's points for one game at a table of `seats` (the tournament's scoring table unless told). */
export function scoreResult(r: GameResult, seats: readonly Seat[], table: ScoringTable): Map<Seat, number> {
  checkResult(r, seats);
  const index = (s: Seat) => seats.indexOf(s);
  if (r.incomplete) return new Map(seats.map((s) => [s, 0]));
  const mahJonggs: MahJonggEvent[] =
    r.winner === null
      ? []
      : [
          {
            seat: index(r.winner),
            value: r.value!,
            singlesAndPairs: r.singlesAndPairs === true,
            jokerless: r.jokerless === true,
            selfPick: r.selfPicked === true,
            heavenly: r.heavenly === true,
            discarder: r.selfPicked || r.heavenly ? null : index(r.thrower!),
            exposuresBefore: r.exposures ?? 0,
            misnamed: r.misnamed === true,
            ordinal: 1,
            simultaneous: false,
          },
        ];
  const deadHands = seats.map((s) => ((r.dead ?? []).includes(s) ? 1 : 0));
  const intact = (r.intact ?? []).map(index);
  const { scores } = scoreGame(table, {
    players: seats.length,
    mahJonggs,
    wallGame: r.winner === null && intact.length === 0,
    deadHands,
    racks: 1,
    lowestValue: 25,
    ...(intact.length > 0 ? { intactAfterFalseMahJongg: intact } : {}),
  });
  return new Map(seats.map((s, i) => [s, scores[i]]));
}

/** The seats of a table of `players` (four, or three with South's seat empty). */
export const seatsOf = (players: number): Seat[] => SEATS.slice(0, players) as Seat[];

/** Whether two entries of the same game agree (a verifier's own entry against the card she checks). */
export function sameResult(a: GameResult, b: GameResult): boolean {
  const norm = (r: GameResult) =>
    JSON.stringify([
      r.winner,
      r.value ?? null,
      r.selfPicked === true,
      r.selfPicked ? null : (r.thrower ?? null),
      r.exposures ?? 0,
      r.misnamed === true,
      r.jokerless === true,
      r.singlesAndPairs === true,
      [...(r.dead ?? [])].sort(),
      r.incomplete === true,
      r.heavenly === true,
      [...(r.intact ?? [])].sort(),
    ]);
  return norm(a) === norm(b);
}
