import { exposuresFitCard } from './hand-check.js';
import { bothMahJonggs, isMahJonggNow, mahJonggRacks, pairPossible, proofsOf, rackMahJongg } from './rack-mah-jongg.js';
import { JOKER, KINDS, type TileId, type Group } from './tiles.js';
import { type Action, CHAIRS, type GameState, rackExposures, rackLive } from './state.js';

/**
 * Every action a seat may take now (legalActions). Part of the game (game.ts).
 */

// ------------------------------------------------------------------ legal actions

/** Every action the seat may take now (empty when it has nothing to do). */
export function legalActions(state: GameState, seat: number): Action[] {
  const ph = state.phase;
  const p = state.players[seat];
  const out: Action[] = [];
  switch (ph.kind) {
    case 'charleston': {
      if (ph.choices[seat] !== null) return out;
      if (seat === 0 && isMahJonggNow(state, 0)) out.push({ type: 'declare', seat }); // standardized rules 4.4
      const blindOk = state.rules.charleston!.blindPasses.includes(ph.pass) && !(ph.eastFirst && seat === 0);
      // one pass per choice of three distinct-kind combinations would explode; offer each way to choose by kind
      for (const tiles of passCombos(p.concealed, 3)) out.push({ type: 'pass', seat, tiles, blind: 0 });
      if (blindOk) for (let blind = 1; blind <= 3; blind++) for (const tiles of passCombos(p.concealed, 3 - blind)) out.push({ type: 'pass', seat, tiles, blind });
      return out;
    }
    case 'vote':
      return ph.votes[seat] === null
        ? [
            { type: 'vote', seat, yes: true },
            { type: 'vote', seat, yes: false },
          ]
        : out;
    case 'courtesy': {
      if (ph.offers[seat] !== null) return out;
      for (let k = 0; k <= 3; k++) for (const tiles of passCombos(p.concealed, k)) out.push({ type: 'courtesy', seat, tiles });
      return out;
    }
    case 'draw': {
      if (seat !== state.turn) return out;
      const list = [shared.draw[seat] ?? { type: 'draw', seat }]; // a list of one, grown only for a call of a dead hand
      pushCallDead(state, seat, list);
      return list;
    }
    case 'discard': {
      if (seat !== state.turn) return out;
      const discards = shared.discard[seat];
      for (let t = 0; t < KINDS; t++) if (p.concealed[t] > 0) out.push(discards?.[t] ?? { type: 'discard', seat, tile: t });
      if (state.rules.racks === 1) {
        // the common table: one rack, no lists of racks
        if (rackLive(p, 0) && rackMahJongg(state, seat, 0, null) >= 0) out.push({ type: 'declare', seat, rack: 0 });
      } else {
        const mj = mahJonggRacks(state, seat, null);
        for (const rack of mj) out.push({ type: 'declare', seat, rack });
        if (pairPossible(state, seat, mj) && bothMahJonggs(state, seat, null) !== null) out.push({ type: 'declare', seat, both: true });
      }
      for (let owner = 0; owner < state.players.length; owner++) {
        const xs = state.players[owner].exposures;
        for (let i = 0; i < xs.length; i++) {
          const x = xs[i];
          if (x.jokers > 0 && x.exchangeable && p.concealed[x.tile] > 0) out.push({ type: 'exchange', seat, owner, exposure: i });
        }
      }
      pushCallDead(state, seat, out);
      return out;
    }
    case 'claims': {
      if (ph.responses[seat] !== null) return out;
      const list = [shared.decline[seat] ?? { type: 'decline', seat }]; // most windows end at the decline
      if (state.rules.racks === 1) {
        // the common table: one rack, no lists of racks
        if (!rackLive(p, 0)) return list;
        if (rackMahJongg(state, seat, 0, ph.tile) >= 0) list.push({ type: 'callMahJongg', seat, rack: 0 });
        pushCalls(state, seat, 0, ph.tile, list);
        return list;
      }
      const mj = mahJonggRacks(state, seat, ph.tile);
      if (pairPossible(state, seat, mj) && bothMahJonggs(state, seat, ph.tile) !== null) list.push({ type: 'callMahJongg', seat, both: true });
      for (let rack = 0; rack < state.rules.racks; rack++) {
        if (!rackLive(p, rack)) continue;
        if (mj.includes(rack)) list.push({ type: 'callMahJongg', seat, rack });
        pushCalls(state, seat, rack, ph.tile, list);
      }
      return list;
    }
    case 'ended':
      return out;
  }
}

/**
 * The actions listed at almost every step (draws, discards, declines), one frozen object
 * each for all games: an action is only read, so the lists share them instead of building
 * a dozen objects a step (a table of more chairs gets objects of its own).
 */
const shared = {
  draw: Array.from({ length: CHAIRS }, (_, seat): Action => Object.freeze({ type: 'draw', seat })),
  decline: Array.from({ length: CHAIRS }, (_, seat): Action => Object.freeze({ type: 'decline', seat })),
  discard: Array.from({ length: CHAIRS }, (_, seat) => Array.from({ length: KINDS }, (_, tile): Action => Object.freeze({ type: 'discard', seat, tile }))),
};

/** Distinct ways (by kind) to choose k non-joker tiles: jokers can never be passed (teaching guide part 2.1). */
function passCombos(concealed: readonly number[], k: number): TileId[][] {
  const out: TileId[][] = [];
  const pick: TileId[] = [];
  const rec = (from: number, left: number): void => {
    if (left === 0) {
      out.push([...pick]);
      return;
    }
    for (let t = from; t < JOKER; t++) {
      const used = pick.filter((x) => x === t).length;
      if (concealed[t] > used) {
        pick.push(t);
        rec(t, left - 1);
        pick.pop();
      }
    }
  };
  rec(0, k);
  return out;
}

/**
 * The exposures a seat could make with the discard on a rack (pung to sextet, any mix of
 * naturals and jokers, fitting the card), each pushed onto `out` as a call.
 */
function pushCalls(state: GameState, seat: number, rack: number, tile: TileId, out: Action[]): void {
  const p = state.players[seat];
  const naturals = p.concealed[tile],
    jokers = p.concealed[JOKER];
  if (naturals + jokers < 2) return; // a pung needs two more tiles besides the discard
  // the rack's exposures and the new one in a reused list (exposuresFitCard only reads it)
  const shapes = callShapes;
  const earlier = rackExposures(p, rack);
  shapes.length = 0;
  for (let i = 0; i < earlier.length; i++) shapes.push(earlier[i]);
  const call: Group = { tile, size: 0, jokers: 0 };
  shapes.push(call);
  for (let size = 3; size <= 6; size++) {
    for (let j = 0; j <= Math.min(jokers, size - 1); j++) {
      if (size - 1 - j > naturals) continue;
      call.size = size;
      call.jokers = j;
      if (exposuresFitCard(state.cc, shapes)) out.push({ type: 'call', seat, size, jokers: j, rack });
    }
  }
  shapes.length = 0;
}
const callShapes: Group[] = [];

/** The seat may call dead each hand the tiles on the table prove impossible (teaching guide 6.6). */
function pushCallDead(state: GameState, seat: number, out: Action[]): void {
  const racks = state.rules.racks;
  const dead = proofsOf(state).deadHands(state);
  for (let target = 0; target < state.rules.players; target++) {
    if (target === seat) continue;
    for (let rack = 0; rack < racks; rack++) if (dead[target * racks + rack]) out.push({ type: 'callDead', seat, target, rack });
  }
}
