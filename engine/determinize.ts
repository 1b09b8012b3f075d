import type { CompiledCard } from './compile.js';
import { TilemateError } from './errors.js';
import type { ClaimResponse, GameState, Phase, SeatView } from './game.js';
import { seedRng, shuffle, type RngState, nextU32 } from './rng.js';
import type { Ruleset } from './rulesets.js';
import { unseenCounts } from './seat.js';
import { COPIES, KINDS, type TileId } from './tiles.js';

/**
 * One possible world behind a seat's view: the tiles that seat has not seen are dealt at
 * random to the other racks (as many as each holds) and to the wall (as many as it has
 * left). Searching bots plan on many such worlds; none of them is the real one, and none
 * uses anything the seat could not see.
 *
 * Only the steps a searching bot decides by playing out are rebuilt: its own turn with a
 * full hand (discard, exchange, declare) and its answer to a discard. Games with two racks
 * (Siamese) keep declared Mah Jonggs on the table whose scoring events the view does not
 * carry, so they are not rebuilt.
 */
export function determinize(view: SeatView, rules: Ruleset, cc: CompiledCard, rng: RngState): GameState {
  if (rules.racks > 1 || view.mahJonggs.length > 0) throw new TilemateError('TM_ILLEGAL_ACTION', 'only single-rack games in play can be sampled');
  if (view.phase !== 'discard' && view.phase !== 'claims') throw new TilemateError('TM_ILLEGAL_ACTION', `no sampling in phase ${view.phase}`);
  const n = view.players;
  const unseen = unseenCounts(view);
  const pool: TileId[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (unseen[t] < 0) throw new Error(`rule violation: the view shows ${view.copies[t] - unseen[t]} copies of tile ${t}`);
    for (let i = 0; i < unseen[t]; i++) pool.push(t);
  }
  shuffle(rng, pool);
  const players = Array.from({ length: n }, (_, s) => {
    const concealed = new Array<number>(KINDS).fill(0);
    if (s === view.seat) for (let t = 0; t < KINDS; t++) concealed[t] = view.concealed[t];
    else for (let i = 0; i < view.concealedCounts[s]; i++) concealed[pool.pop()!]++;
    return {
      concealed,
      exposures: view.exposures[s].map((x) => ({ ...x })),
      discards: [...view.discards[s]],
      dead: [...view.dead[s]],
      mahJonggs: [],
    };
  });
  if (pool.length !== view.wallLeft) throw new Error(`rule violation: ${pool.length} unseen tiles left for a wall of ${view.wallLeft}`);
  let phase: Phase = { kind: 'discard' };
  if (view.phase === 'claims') {
    const c = view.claim!;
    const responses: (ClaimResponse | null)[] = players.map((p, s) =>
      s === c.discarder || p.dead.every((d) => d) ? { type: 'decline' } : null);
    phase = { kind: 'claims', tile: c.tile, discarder: c.discarder, responses };
  }
  const discardCount = view.discards.reduce((a, d) => a + d.length, 0) + view.exposures.reduce((a, l) => a + l.length, 0);
  return {
    rules, cc,
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
