import { ruleViolation } from '../errors.js';
import type { GameOutcome } from '../mah-jongg/scoring.js';
import type { GameResult } from './score-card.js';
import type { Seat } from './seating.js';

/**
 * An event's game played at a Tilemate table (issue 47's online events), pure: which of the
 * event's seats sits in each of the table's seats for a game of the round, and the score card
 * entry the finished game makes, so a table's games are scored exactly as a card entered by
 * hand (engine/tournament/score-card.ts).
 */

/**
 * The event's seats in the order of play, East first: play passes to the right, and East's
 * right is South (D), then West (C), then North (B). A table of three leaves out its empty seat
 * (South's after the first round; after a withdrawal, whichever seat the rotation left empty).
 */
const ORDER: readonly Seat[] = ['A', 'D', 'C', 'B'];

/**
 * The event seat at each of the table's seats (index 0 is the game's East) in game `game`
 * (1 to 4) of a round. Standardized rules 3: A starts the round as East ("a Player is
 * pre-designated as EAST [or PLAYER-A]") and East passes with each game, as the roll of the
 * dice rotates; at a table of three, East passes for three games and the fourth game's East is
 * rolled for again (rules 3.1), here drawn from `roll` (the round's seed).
 */
export function seatsForGame(seats: readonly Seat[], game: number, roll: number): Seat[] {
  const order = ORDER.filter((s) => seats.includes(s));
  if (order.length !== 3 && order.length !== 4) ruleViolation(`an event table of ${order.length} players`);
  const east = game <= order.length ? game - 1 : Math.abs(Math.trunc(roll)) % order.length;
  return order.map((_, k) => order[(east + k) % order.length]);
}

/** The score card entry of a finished game, its table's seat `i` being the event's `seats[i]`. */
export function resultOfGame(outcome: GameOutcome, seats: readonly Seat[]): GameResult {
  if (outcome.players !== seats.length || outcome.racks !== 1 || outcome.mahJonggs.length > 1) ruleViolation('an event game is one rack a player and one Mah Jongg at most');
  const dead = seats.filter((_, i) => outcome.deadHands[i] > 0);
  const withDead = dead.length > 0 ? { dead } : {};
  const m = outcome.mahJonggs[0];
  if (m === undefined) {
    const intact = (outcome.intactAfterFalseMahJongg ?? []).map((i) => seats[i]);
    return { winner: null, ...withDead, ...(intact.length > 0 ? { intact } : {}) };
  }
  return {
    winner: seats[m.seat],
    value: m.value,
    ...(m.heavenly ? { heavenly: true } : m.selfPick ? { selfPicked: true } : { thrower: seats[m.discarder!] }),
    exposures: m.exposuresBefore,
    ...(m.jokerless ? { jokerless: true } : {}),
    ...(m.singlesAndPairs ? { singlesAndPairs: true } : {}),
    ...withDead,
  };
}
