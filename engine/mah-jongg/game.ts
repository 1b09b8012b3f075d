/**
 * The game as a pure, deterministic state machine: `newGame(rules, card, seed)`, then
 * `legalActions(state, seat)` and `apply(state, action)`. `apply` checks an action in full
 * before it changes anything, so a refused action (a TilemateError with a stable code)
 * leaves the state as it was. All randomness comes from the generator held in the state.
 *
 * Seats are numbered in turn order from East (0); seat s + 1 sits to s's right and play
 * passes to the right. `view(state, seat)` is what that seat may see.
 *
 * The game's parts, by role (as libriichi splits its state): state.ts (the state's types,
 * the questions the rules ask of it, and cloneState), rack-mah-jongg.ts (whether a rack makes
 * Mah Jongg now, with the table's proofs, table-proofs.ts, kept beside the state), deal.ts (newGame), charleston.ts (the passes and the courtesy exchange), legal.ts
 * (legalActions), apply.ts (apply: discards, claims, Mah Jongg, dead hands, the end),
 * view.ts (what a seat sees) and validate.ts (every invariant). This module is their public
 * face: import the game from here.
 */
export {
  beforePlay,
  cloneState,
  copiesOf,
  countVisible,
  handSize,
  type Action,
  type ClaimResponse,
  type DeclaredMahJongg,
  type Exposure,
  type GameResult,
  type GameState,
  type PassChoice,
  type Phase,
  type Player,
} from './state.js';
export { newGame } from './deal.js';
export { legalActions } from './legal.js';
export { apply, tryApply } from './apply.js';
export { nextToAct, sharedView, view, waitingOn, type SeatView } from './view.js';
export { validate } from './validate.js';
