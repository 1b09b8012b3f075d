import { TilemateError } from '../errors.js';
import { seedRng, shuffle } from '../rng.js';

/**
 * Seating a Mah Jongg tournament (issue 47), pure: who sits where in a round, and where the
 * rotation sends her next round (standardized tournament rules 20, "Table rotation").
 *
 * A table's seats are lettered as the rules letter them: A is East, B North, C West, D South
 * ("If you are sitting in an 'A' (EAST) seat..."). Tables are numbered from 1. A table of
 * three (rules 3.1 speak of "a tournament-game-table with 3 players") has one seat empty:
 * the first round leaves D empty at the last tables; after a withdrawal the empty seat is the
 * letter whose player left, wherever the rotation (which moves every letter its own way)
 * takes it, so that every player who stays moves as rule 20 says (issue 63).
 */

export const SEATS = ['A', 'B', 'C', 'D'] as const;
export type Seat = (typeof SEATS)[number];

/** Where a player sits in a round. */
export interface Place {
  table: number;
  seat: Seat;
}

/** A round's seating: each player's place, by her id. */
export type Seating = Map<string, Place>;

/** The wind each letter plays (standardized rules 20): A East, B North, C West, D South. */
export const SEAT_WINDS: Record<Seat, string> = { A: 'East', B: 'North', C: 'West', D: 'South' };

/**
 * The tables for `players` people: as few as hold them four to a table, some of three where the
 * count needs it (7 players: one of four and one of three). Refused for counts no such tables
 * hold (1, 2 and 5 players).
 */
export function tableCount(players: number): { tables: number; ofThree: number } {
  const tables = Math.ceil(players / 4);
  const ofThree = tables * 4 - players;
  if (players < 3 || ofThree > tables) {
    throw new TilemateError('TM_BAD_INPUT', `${players} player${players === 1 ? '' : 's'} cannot sit at tables of four and three: an event needs 3, 4, or 6 players or more`);
  }
  return { tables, ofThree };
}

/** The places of a round with `players` people: every seat of every table, the D seats of the last tables left empty for the tables of three. */
function placesFor(players: number): Place[] {
  const { tables, ofThree } = tableCount(players);
  const out: Place[] = [];
  for (let table = 1; table <= tables; table++) {
    for (const seat of SEATS) if (!(seat === 'D' && table > tables - ofThree)) out.push({ table, seat });
  }
  return out;
}

/**
 * The first round's seating, at random from `seed` (the senior games: "players will be assigned
 * at random seat locations"). `hosts` (optional) sit East at tables 1, 2, ... in the order given
 * (the senior games: "The host is in the East seat"); everyone else is drawn into the other seats.
 */
export function seatAtRandom(players: readonly string[], seed: number, hosts: readonly string[] = []): Seating {
  if (new Set(players).size !== players.length) throw new TilemateError('TM_BAD_INPUT', 'a player is registered twice');
  const places = placesFor(players.length);
  const { tables } = tableCount(players.length);
  if (hosts.length > tables) throw new TilemateError('TM_BAD_INPUT', `${hosts.length} hosts for ${tables} tables: one host a table at most`);
  for (const h of hosts) if (!players.includes(h)) throw new TilemateError('TM_BAD_INPUT', `the host ${h} is not registered`);
  const seating: Seating = new Map();
  hosts.forEach((h, i) => seating.set(h, { table: i + 1, seat: 'A' }));
  const free = places.filter((p) => !(p.seat === 'A' && p.table <= hosts.length));
  const rest = shuffle(
    seedRng(seed),
    players.filter((p) => !hosts.includes(p)),
  );
  rest.forEach((p, i) => seating.set(p, free[i]));
  return seating;
}

/** How far each letter moves after a round (standardized rules 20): A up one table, B down one, C up two, D down two. */
const MOVES: Record<Seat, number> = { A: 1, B: -1, C: 2, D: -2 };

/** Where the rotation sends a player after a round at `place`, with `tables` tables: the same letter, at the table the rules name (counting round from the last table to the first). */
export function rotated(place: Place, tables: number): Place {
  const table = ((((place.table - 1 + MOVES[place.seat]) % tables) + tables) % tables) + 1;
  return { table, seat: place.seat };
}

export interface NextRound {
  seating: Seating;
  /** The rotation held (false: the players who came and went left no room for it, and everyone was seated afresh at random). */
  rotated: boolean;
}

/**
 * The next round's seating: every player who stays moves as the rotation sends her; a player
 * who withdrew leaves her seat empty, and one who arrived late takes an empty seat (drawn from
 * `seed`). Where that leaves a table with fewer than three players, or tables of three the count
 * does not need, the round is seated afresh at random instead (and says so): the rules rotate a
 * full room, and a Director reseats one that changed.
 */
export function nextRound(last: Seating, players: readonly string[], seed: number, hosts: readonly string[] = []): NextRound {
  const lastTables = Math.max(0, ...[...last.values()].map((p) => p.table));
  const { tables, ofThree } = tableCount(players.length);
  const seating: Seating = new Map();
  if (tables === lastTables) {
    const taken = new Set<string>();
    const key = (p: Place) => `${p.table}${p.seat}`;
    for (const id of players) {
      const was = last.get(id);
      if (was === undefined) continue;
      // the senior games' hosts keep their own tables (their tiles and racks are on them)
      const next = hosts.includes(id) ? was : rotated(was, tables);
      seating.set(id, next);
      taken.add(key(next));
    }
    const late = shuffle(
      seedRng(seed),
      players.filter((id) => !last.has(id)),
    );
    // late arrivals fill the empty seats of the tables with fewest players first, so no table is left short
    const empty = [...Array(tables).keys()]
      .flatMap((t) => SEATS.map((seat) => ({ table: t + 1, seat })))
      .filter((p) => !taken.has(key(p)))
      .sort((a, b) => countAt(seating, a.table) - countAt(seating, b.table) || a.table - b.table);
    for (const id of late) {
      const at = empty.shift()!;
      seating.set(id, at);
      empty.sort((a, b) => countAt(seating, a.table) - countAt(seating, b.table) || a.table - b.table);
    }
    const counts = [...Array(tables).keys()].map((t) => countAt(seating, t + 1));
    // rule 20 holds with a table of three whatever seat is empty there (rules 3.1 name no seat):
    // its score card, standings, checks and online table read the seats it has
    if (counts.every((c) => c === 4 || c === 3) && counts.filter((c) => c === 3).length === ofThree) return { seating, rotated: true };
  }
  return {
    seating: seatAtRandom(
      players,
      seed,
      hosts.filter((h) => players.includes(h)),
    ),
    rotated: false,
  };
}

function countAt(seating: Seating, table: number): number {
  let n = 0;
  for (const p of seating.values()) if (p.table === table) n++;
  return n;
}

/**
 * Who verifies whose score card (standardized rules 21, and the reading of it): East
 * and West check each other's, North and South each other's. At a table of three the seat whose
 * partner is empty is checked by the first other seat at the table (North's by East when South's
 * seat is empty).
 */
export function verifierOf(seat: Seat, seats: readonly Seat[]): Seat {
  const partner: Record<Seat, Seat> = { A: 'C', C: 'A', B: 'D', D: 'B' };
  // at a table of three the seat without a partner is checked by the first other seat there (East, when she sits)
  return seats.includes(partner[seat]) ? partner[seat] : (SEATS.find((s) => s !== seat && seats.includes(s)) ?? 'A');
}

/** Who collects the table's cards for the scorekeeper in round `round` (standardized rules 21: A in the first, B the second, C the third, D the fourth, and round again). */
export function collectorOf(round: number, seats: readonly Seat[]): Seat {
  const seat = SEATS[(round - 1) % 4];
  return seats.includes(seat) ? seat : (SEATS.find((s) => seats.includes(s)) ?? 'A');
}
