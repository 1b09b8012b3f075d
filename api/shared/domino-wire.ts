import type { DominoAdvice } from '../../agents/domino/advise.js';
import type { DominoView } from '../../engine/domino/game.js';
import { MEXICAN_TRAIN, trainLabel, type MexicanTrainGame, type MexicanTrainSpec } from '../../engine/domino/mexican-train.js';
import { dominoName } from '../../engine/domino/tiles.js';
import type { GameWire } from './game-wire.js';
import type { ActionJson, EventJson } from './table-wire.js';

/**
 * Mexican Train's JSON, as the HTTP routes and `domino advise --json` write it: dominoes by
 * name (`12-5`), the Mexican train as `"mexican"`. Actions are the game's own codec
 * (engine/domino/mexican-train.ts).
 */

/** A seat's view with dominoes by name. */
export function viewJson(v: DominoView) {
  return {
    seat: v.seat,
    ruleset: v.ruleset,
    players: v.players,
    phase: v.phase,
    roundNo: v.roundNo,
    roundsInGame: v.roundsInGame,
    engine: dominoName(v.engine),
    starter: v.starter,
    turn: v.turn,
    step: v.step,
    hand: v.hand.map(dominoName),
    drawn: v.drawn >= 0 ? dominoName(v.drawn) : null,
    handCounts: v.handCounts,
    boneyard: v.boneyard,
    trains: v.trains.map((t, i) => ({ train: trainLabel(v.players, i), tiles: t.tiles.map(dominoName), end: t.end, marked: t.marked })),
    openDoubles: v.openDoubles.map((i) => trainLabel(v.players, i)),
    totals: v.totals,
    rounds: v.rounds,
    result: v.result,
    ...(v.reveal ? { reveal: { seed: v.reveal.seed, hands: v.reveal.hands.map((h) => h.map(dominoName)) } } : {}),
  };
}

/** Advice as names: the suggested action (postable as it is), the plan for the seat's own train from its end, and the valued plays when asked for. */
export function adviceJson(game: MexicanTrainGame, v: DominoView, advice: DominoAdvice) {
  const out = (a: DominoAdvice['action']) => game.encodeAction(a) as { type: string; seat: number };
  return {
    suggest: out(advice.action),
    path: advice.path.map(dominoName),
    ownEnd: v.trains[v.seat].end,
    ...(advice.candidates ? { candidates: advice.candidates.map((c) => ({ action: out(c.action), value: c.value })) } : {}),
  };
}

export const MEXICAN_TRAIN_WIRE: GameWire<MexicanTrainSpec> = {
  type: MEXICAN_TRAIN,
  secret: ['hand', 'drawn'],
  viewJson: (_game, v) => viewJson(v),
  legalJson: (game, legal) => legal.map((a) => game.encodeAction(a) as ActionJson),
  // a draw is heard of without its domino (the view shows the seat its own)
  eventJson: (game, n, action) => ({ n, action: game.encodeAction(action) as EventJson['action'] }),
};
