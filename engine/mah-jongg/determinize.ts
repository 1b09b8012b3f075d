import type { CompiledCard } from './compile.js';
import { ruleViolation, TilemateError } from '../errors.js';
import { beforePlay, type ClaimResponse, type GameState, type Phase, type SeatView } from './game.js';
import { seedRng, shuffle, type RngState, nextU32 } from '../rng.js';
import type { Ruleset } from './rulesets.js';
import type { OpponentReading } from './reading.js';
import { unseenCounts } from './seat.js';
import { COPIES, KINDS, type TileId } from './tiles.js';

/**
 * Worlds that agree with the table (issue 48): each opponent's rack dealt partly from the hand
 * the reading of her says she is making. For each other seat, a form is drawn by its chance
 * (engine/mah-jongg/reading.ts), and up to `share` of her hidden tiles are tiles that form still
 * needs, taken from the unseen ones; the rest of her rack, the other racks and the wall are
 * dealt at random as before.
 */
export interface WorldLean {
  /** The reading of each seat (null for the reader's own seat, or a seat not read). */
  readings: readonly (OpponentReading | null)[];
  /** The part of her hidden tiles dealt from the drawn form (0 to 1). */
  share: number;
}

/** Tiles for a seat's rack from the form drawn by her reading: taken out of `pool` (at most `most`). */
function leanTiles(cc: CompiledCard, reading: OpponentReading | null, exposures: SeatView['exposures'][number], pool: TileId[], most: number, rng: RngState): TileId[] {
  if (reading === null || reading.noLine || most <= 0) return [];
  let x = nextU32(rng) / 2 ** 32;
  let f = 0;
  for (; f < cc.formCount - 1; f++) {
    x -= reading.forms[f];
    if (x < 0) break;
  }
  if (reading.forms[f] === 0) return [];
  const exposed = new Array<number>(KINDS).fill(0);
  for (const e of exposures) if (e.rack === 0) exposed[e.tile] += e.size;
  // the tiles the form still needs, in a random order: which of them she holds is not known
  const wanted: TileId[] = [];
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) for (let need = cc.entryNeed[e] - exposed[cc.entryKind[e]]; need > 0; need--) wanted.push(cc.entryKind[e]);
  shuffle(rng, wanted);
  const out: TileId[] = [];
  for (const k of wanted) {
    if (out.length >= most) break;
    const i = pool.lastIndexOf(k);
    if (i < 0) continue;
    pool.splice(i, 1);
    out.push(k);
  }
  return out;
}

/**
 * One possible world behind a seat's view: the tiles that seat has not seen are dealt at
 * random to the other racks (as many as each holds) and to the wall (as many as it has
 * left). Searching bots plan on many such worlds; none of them is the real one, and none
 * uses anything the seat could not see.
 *
 * Only the steps a searching bot decides by playing out are rebuilt: its own turn with a
 * full hand (discard, exchange, declare), its answer to a discard, and its Charleston pass,
 * vote or courtesy offer (every other seat's choice in that step made again in the world).
 * Games with two racks (Siamese) keep declared Mah Jonggs on the table whose scoring events
 * the view does not carry, so they are not rebuilt.
 */
export function determinize(view: SeatView, rules: Ruleset, cc: CompiledCard, rng: RngState, lean?: WorldLean): GameState {
  if (rules.racks > 1 || view.mahJonggs.length > 0) throw new TilemateError('TM_ILLEGAL_ACTION', 'only single-rack games in play can be sampled');
  const before = beforePlay(view.phase);
  if (view.phase !== 'discard' && view.phase !== 'claims' && !before) throw new TilemateError('TM_ILLEGAL_ACTION', `no sampling in phase ${view.phase}`);
  if (before && view.waitingOn.indexOf(view.seat) < 0) throw new TilemateError('TM_ILLEGAL_ACTION', 'only a seat still to choose its Charleston step can be sampled');
  const n = view.players;
  const unseen = unseenCounts(view);
  const pool: TileId[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (unseen[t] < 0) ruleViolation(`the view shows ${view.copies[t] - unseen[t]} copies of tile ${t}`);
    for (let i = 0; i < unseen[t]; i++) pool.push(t);
  }
  shuffle(rng, pool);
  // Before play, a seat that has already chosen her pass has set its tiles aside, face down
  // (teaching guide 2.1): they are dealt back to her rack, to her full hand (East one more,
  // teaching guide 1.8), and she chooses again in the world; so does every seat's vote and
  // courtesy offer. Nothing chosen by another seat is known to this one.
  const rackSize = view.concealedCounts.slice();
  if (view.phase === 'charleston') {
    const extra = rules.eastDealtExtra ? 1 : 0;
    for (let s = 0; s < n; s++) {
      if (s !== view.seat && view.waitingOn.indexOf(s) < 0) rackSize[s] = view.concealedCounts[view.seat] + (s === 0 ? extra : 0) - (view.seat === 0 ? extra : 0);
    }
  }
  const players = Array.from({ length: n }, (_, s) => {
    const concealed = new Array<number>(KINDS).fill(0);
    if (s === view.seat) for (let t = 0; t < KINDS; t++) concealed[t] = view.concealed[t];
    else {
      const leaning = lean !== undefined && !before ? leanTiles(cc, lean.readings[s], view.exposures[s], pool, Math.floor(lean.share * rackSize[s]), rng) : [];
      for (const t of leaning) concealed[t]++;
      for (let i = leaning.length; i < rackSize[s]; i++) concealed[pool.pop()!]++;
    }
    return {
      concealed,
      exposures: view.exposures[s].map((x) => ({ ...x })),
      discards: [...view.discards[s]],
      dead: [...view.dead[s]],
      mahJonggs: [],
    };
  });
  if (pool.length !== view.wallLeft) ruleViolation(`${pool.length} unseen tiles left for a wall of ${view.wallLeft}`);
  let phase: Phase = { kind: 'discard' };
  if (view.phase === 'charleston') phase = { kind: 'charleston', pass: view.pass!, choices: new Array(n).fill(null), eastFirst: false };
  if (view.phase === 'vote') phase = { kind: 'vote', votes: new Array(n).fill(null) };
  // a seat with nobody across the table's four chairs offers nothing (game.ts startCourtesy)
  if (view.phase === 'courtesy') phase = { kind: 'courtesy', offers: players.map((_, s) => ((s + rules.charleston!.courtesyOffset) % 4 >= n ? [] : null)) };
  if (view.phase === 'claims') {
    const c = view.claim!;
    const responses: (ClaimResponse | null)[] = players.map((p, s) => (s === c.discarder || p.dead.every((d) => d) ? { type: 'decline' } : null));
    phase = { kind: 'claims', tile: c.tile, discarder: c.discarder, responses };
  }
  const discardCount = view.discards.reduce((a, d) => a + d.length, 0) + view.exposures.reduce((a, l) => a + l.length, 0);
  return {
    rules,
    cc,
    seed: 0,
    rng: seedRng(nextU32(rng)),
    dice: [...view.dice],
    wall: pool,
    wallPos: 0,
    players,
    turn: view.turn,
    phase,
    turnSource: { ...view.turnFrom },
    exchangedFromOther: view.exchangedFromOther,
    discardCount,
    actionCount: 0,
    tableVersion: 0,
    visible: COPIES.map((c, t) => c - unseen[t] - view.concealed[t]),
    result: null,
  };
}
