import type { TileId } from './tiles.js';
import { CHAIRS, type GameState, type PassChoice, type Phase } from './state.js';

/**
 * The Charleston before play: the passes, the vote on a second Charleston, the courtesy
 * exchange across the table, and the start of play (teaching guide part 2). Part of the game
 * (game.ts).
 */

// ------------------------------------------------------------------ Charleston

export function resolvePass(state: GameState): void {
  const ph = state.phase as Extract<Phase, { kind: 'charleston' }>;
  if (ph.choices.some((c) => c === null)) return;
  const n = state.rules.players;
  const ch = state.rules.charleston!;
  const offset = [...ch.first, ...ch.second][ph.pass];
  const giver = (s: number) => (s - offset + n) % n;
  const choices = ph.choices as PassChoice[];
  // Blind passes forward tiles received in this very pass, so a seat can only complete
  // once its giver has. When every seat is waiting on a blind pass, East must pass first
  // from her own tiles (standardized rules 4.5): her choice is taken back and she chooses again.
  const out: (TileId[] | null)[] = choices.map((c) => (c.blind === 0 ? c.tiles : null));
  if (out.every((o) => o === null)) {
    for (const t of choices[0].tiles) state.players[0].concealed[t]++;
    ph.choices[0] = null;
    ph.eastFirst = true;
    return;
  }
  for (let guard = 0; out.some((o) => o === null) && guard < n; guard++) {
    for (let s = 0; s < n; s++) {
      const g = out[giver(s)];
      if (out[s] === null && g !== null) out[s] = [...choices[s].tiles, ...g.slice(0, choices[s].blind)];
    }
  }
  // each seat receives what its giver passed, less what it forwarded unseen
  for (let s = 0; s < n; s++) {
    const received = out[giver(s)]!.slice(choices[s].blind);
    for (const t of received) state.players[s].concealed[t]++;
  }
  const nextPass = ph.pass + 1;
  if (nextPass === ch.first.length) state.phase = { kind: 'vote', votes: new Array(n).fill(null) };
  else if (nextPass === ch.first.length + ch.second.length) startCourtesy(state);
  else state.phase = { kind: 'charleston', pass: nextPass, choices: new Array(n).fill(null), eastFirst: false };
}

/**
 * The courtesy partner of a seat: the player across the table's four chairs (teaching guide 2.4).
 * At a table of three the empty chair is the fourth in turn order, so South sits across it and
 * has no partner (teaching guide 8: the courtesy pass is optional there); null then.
 */
function courtesyPartner(state: GameState, seat: number): number | null {
  const partner = (seat + state.rules.charleston!.courtesyOffset) % CHAIRS;
  return partner < state.rules.players ? partner : null;
}

export function startCourtesy(state: GameState): void {
  if (state.rules.charleston!.courtesyOffset === 0) {
    startPlay(state);
    return;
  }
  // a seat with nobody across offers nothing and is not waited on
  const offers = Array.from({ length: state.rules.players }, (_, s): TileId[] | null => (courtesyPartner(state, s) === null ? [] : null));
  state.phase = { kind: 'courtesy', offers };
  if (offers.every((o) => o !== null)) resolveCourtesy(state);
}

/** Teaching guide 2.4: players across may exchange 1-3 tiles; the smaller offer sets how many. */
export function resolveCourtesy(state: GameState): void {
  const ph = state.phase as Extract<Phase, { kind: 'courtesy' }>;
  const offers = ph.offers as TileId[][];
  const partners = offers.map((_, s) => courtesyPartner(state, s));
  const gives = offers.map((o, s) => (partners[s] === null ? [] : o.slice(0, Math.min(o.length, offers[partners[s]!].length))));
  gives.forEach((g, s) => {
    for (const t of g) state.players[s].concealed[t]--;
  });
  gives.forEach((g, s) => {
    for (const t of g) state.players[partners[s]!].concealed[t]++;
  });
  startPlay(state);
}

/** Teaching guide part 3.1: East starts by discarding. */
function startPlay(state: GameState): void {
  state.turn = 0;
  state.turnSource = { from: 'deal' };
  state.phase = { kind: 'discard' };
}
