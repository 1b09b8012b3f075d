import { ruleViolation } from '../errors.js';
import { JOKER, KINDS, tileName } from './tiles.js';
import { type GameState, copiesOf, countVisible, handSize, inPlay } from './state.js';

/**
 * Every invariant of a state, for tests (validate). Part of the game (game.ts).
 */

/**
 * Every invariant of a state, for tests (libriichi's validate()): all 152 tiles accounted
 * for, no count out of range, rack sizes right for the phase. Throws "rule violation: ...".
 */
export function validate(state: GameState): void {
  const bad = (what: string): never => {
    ruleViolation(`${what}`);
  };
  const count = new Array<number>(KINDS).fill(0);
  for (let i = state.wallPos; i < state.wall.length; i++) count[state.wall[i]]++;
  const ph = state.phase;
  if (ph.kind === 'charleston') for (const c of ph.choices) if (c) for (const t of c.tiles) count[t]++;
  for (const p of state.players) {
    for (let t = 0; t < KINDS; t++) {
      if (p.concealed[t] < 0) bad(`negative count of ${tileName(t)}`);
      count[t] += p.concealed[t];
    }
    for (const t of p.discards) {
      count[t]++;
    }
    for (const x of p.exposures) {
      if (x.jokers >= x.size) bad('an exposure of jokers only');
      count[x.tile] += x.size - x.jokers;
      count[JOKER] += x.jokers;
    }
    for (const m of p.mahJonggs) for (let t = 0; t < KINDS; t++) count[t] += m.tiles[t];
  }
  const visible = countVisible(state);
  for (let t = 0; t < KINDS; t++) if (visible[t] !== state.visible[t]) bad(`the running count of visible ${tileName(t)} is ${state.visible[t]}, not ${visible[t]}`);
  const copies = copiesOf(state.rules);
  for (let t = 0; t < KINDS; t++) if (count[t] !== copies[t]) bad(`${count[t]} copies of ${tileName(t)} accounted for, not ${copies[t]}`);
  if (ph.kind === 'draw' || ph.kind === 'discard') {
    const p = state.players[state.turn];
    if (!inPlay(state, state.turn)) bad(`seat ${state.turn} is out of play but has the turn`);
    const base = state.rules.racks > 1 ? state.rules.dealSize - 14 * p.mahJonggs.length : 13;
    const size = handSize(p);
    const expected = ph.kind === 'draw' ? base : base + 1;
    if (size !== expected) bad(`seat ${state.turn} holds ${size} tiles in phase ${ph.kind}, expected ${expected}`);
  }
}
