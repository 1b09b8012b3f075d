import { completeForm, completeForms, tilesUsed } from './hand-check.js';
import { type GameState, copiesOf, liveRacks, rackExposures, rackLive } from './state.js';
import { TableProofs } from './table-proofs.js';
import { KINDS, type TileId } from './tiles.js';

/**
 * A rack's Mah Jongg: whether a seat's racks make Mah Jongg now (with a claimed tile), asked of
 * the table's proofs, which are kept beside the states asked about (proofsOf). Part of the game
 * (game.ts), beside state.ts, which it reads.
 */

/**
 * The proofs kept beside the few states asked about most recently (TableProofs), by identity,
 * the least recently asked about given up first: a game loop asks about one state at every
 * step, a searching bot about its sampled worlds one after another. A state not among them
 * (new, copied, sampled, or not asked about for a while) starts afresh: its proofs are made
 * again from its tiles, with the same answers. A WeakMap keyed by state would keep the proofs
 * of every state alive, but it costs each garbage collection its bookkeeping: about 4% of a
 * random game, whose states die young (measured again when game.ts was split, issue 45: a
 * Siamese random game about 8% slower). A field of the state would be written by questions that
 * only read it (legalActions, view), copied by cloneState's spread and kept in the JSON of a
 * state, so the proofs stay here, beside the questions that use them. The states kept here stay
 * alive until replaced.
 */
const KEPT_PROOFS = 4;
const keptStates: (GameState | null)[] = new Array<GameState | null>(KEPT_PROOFS).fill(null);
const keptProofs: (TableProofs | null)[] = new Array<TableProofs | null>(KEPT_PROOFS).fill(null);
export function proofsOf(state: GameState): TableProofs {
  if (keptStates[0] === state) return keptProofs[0]!;
  let i = 1;
  while (i < KEPT_PROOFS && keptStates[i] !== state) i++;
  const proofs = i < KEPT_PROOFS ? keptProofs[i]! : new TableProofs(copiesOf(state.rules));
  // to the front, the others one place back (the last one out when the state is new)
  for (let j = Math.min(i, KEPT_PROOFS - 1); j > 0; j--) {
    keptStates[j] = keptStates[j - 1];
    keptProofs[j] = keptProofs[j - 1];
  }
  keptStates[0] = state;
  keptProofs[0] = proofs;
  return proofs;
}

/** The complete form a seat's rack makes with extra concealed tiles (a claimed discard), or -1. */
export function rackMahJongg(state: GameState, seat: number, rack: number, extra: TileId | null): number {
  const p = state.players[seat];
  const exposures = rackExposures(p, rack);
  const lines = proofsOf(state).linesLeft(state, seat, exposures, extra);
  if (lines === null) return -1;
  let concealed = p.concealed;
  if (extra !== null) {
    concealed = withExtra;
    for (let t = 0; t < KINDS; t++) concealed[t] = p.concealed[t];
    concealed[extra]++;
  }
  return completeForm(state.cc, concealed, exposures, lines);
}

/** Scratch for a rack with a claimed tile (completeForm keeps no reference to it). */
const withExtra = new Array<number>(KINDS).fill(0);

/** The live racks that make Mah Jongg (with a claimed tile); racks without exposures share one answer. */
export function mahJonggRacks(state: GameState, seat: number, extra: TileId | null): readonly number[] {
  let out: number[] | null = null; // allocated only for a Mah Jongg: most turns have none
  let bare: boolean | null = null; // the answer for a rack without exposures, once known
  const p = state.players[seat];
  for (let rack = 0; rack < state.rules.racks; rack++) {
    if (!rackLive(p, rack)) continue;
    let plain = true;
    for (let i = 0; i < p.exposures.length; i++)
      if (p.exposures[i].rack === rack) {
        plain = false;
        break;
      }
    const ok: boolean = plain && bare !== null ? bare : rackMahJongg(state, seat, rack, extra) >= 0;
    if (plain) bare = ok;
    if (ok) (out ??= []).push(rack);
  }
  return out ?? NO_RACKS;
}
const NO_RACKS: readonly number[] = [];

/**
 * Whether two Mah Jonggs at once are worth looking for: two racks, and the first live one makes
 * Mah Jongg (`mj`: mahJonggRacks' answer), as bothMahJonggs' pair needs.
 */
export function pairPossible(state: GameState, seat: number, mj: readonly number[]): boolean {
  if (state.rules.racks < 2 || mj.length === 0) return false;
  const p = state.players[seat];
  let first = 0;
  while (first < state.rules.racks && !rackLive(p, first)) first++;
  return mj[0] === first;
}

export function isMahJonggNow(state: GameState, seat: number): boolean {
  return mahJonggRacks(state, seat, null).length > 0;
}

/** The most valuable pair of complete forms for a player's two racks from one pool, or null. */
export function bothMahJonggs(state: GameState, seat: number, extra: TileId | null): [number, number] | null {
  const p = state.players[seat];
  const racks = liveRacks(state, seat);
  if (racks.length < 2) return null;
  const x0 = rackExposures(p, racks[0]),
    x1 = rackExposures(p, racks[1]);
  const open = proofsOf(state).linesLeft(state, seat, x0, extra);
  if (open === null) return null; // no hand on the first rack, so no pair
  const pool = extra === null ? [...p.concealed] : p.concealed.map((n, t) => (t === extra ? n + 1 : n));
  let best: [number, number] | null = null,
    bestValue = -1;
  const lines = state.cc.card.lines,
    formLine = state.cc.formLine;
  for (const f0 of completeForms(state.cc, pool, x0, false, open)) {
    const used = tilesUsed(state.cc, f0, pool, x0);
    const rest = pool.map((n, t) => n - used[t]);
    const f1 = completeForm(state.cc, rest, x1);
    if (f1 < 0) continue;
    const value = lines[formLine[f0]].value + lines[formLine[f1]].value;
    if (value > bestValue) {
      bestValue = value;
      best = [f0, f1];
    }
  }
  return best;
}
