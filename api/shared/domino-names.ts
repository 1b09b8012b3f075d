import { TilemateError } from '../../engine/errors.js';
import type { DominoAction, DominoView } from '../../engine/domino/game.js';
import { dominoName, parseDomino } from '../../engine/domino/tiles.js';

/** Mexican Train views and actions as names (tile names, "mexican" for the Mexican train): the command line's and the HTTP routes'. */

/** A train by name: a seat number, or "mexican". */
export const trainLabel = (players: number, train: number): string | number => (train === players ? 'mexican' : train);

export function actionJson(a: DominoAction, players: number): Record<string, unknown> {
  return a.type === 'play' ? { type: 'play', seat: a.seat, tile: dominoName(a.tile), train: trainLabel(players, a.train) } : { type: a.type, seat: a.seat };
}

export function describeAction(a: DominoAction, players: number, me = -1): string {
  if (a.type !== 'play') return a.type;
  const where = a.train === players ? 'the Mexican train' : a.train === me ? 'your train' : `seat ${a.train}'s train`;
  return `${dominoName(a.tile)} on ${where}`;
}

/** An action from names: {type, tile: "12-5", train: 3 | "mexican"} (HTTP bodies, terminal answers). */
export function actionFromNames(body: { type: string; tile?: string; train?: number | string }, seat: number, players: number): DominoAction {
  if (body.type === 'draw' || body.type === 'pass') return { type: body.type, seat };
  if (body.type !== 'play') throw new TilemateError('TM_BAD_INPUT', `unknown action "${body.type}": play, draw or pass`);
  if (body.tile === undefined) throw new TilemateError('TM_BAD_INPUT', 'a play needs a tile, e.g. "12-5"');
  const tile = parseDomino(body.tile);
  const t = body.train;
  const train = t === 'mexican' || t === 'm' ? players : typeof t === 'number' ? t : typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(train)) throw new TilemateError('TM_BAD_INPUT', `no train "${String(t)}": a seat number or "mexican"`);
  return { type: 'play', seat, tile, train };
}

/** A view with tile names, for JSON answers. */
export function viewJson(v: DominoView) {
  return {
    seat: v.seat, ruleset: v.ruleset, players: v.players, phase: v.phase,
    roundNo: v.roundNo, roundsInGame: v.roundsInGame, engine: dominoName(v.engine), starter: v.starter, turn: v.turn,
    step: v.step,
    hand: v.hand.map(dominoName),
    drawn: v.drawn >= 0 ? dominoName(v.drawn) : null,
    handCounts: v.handCounts, boneyard: v.boneyard,
    trains: v.trains.map((t, i) => ({ train: trainLabel(v.players, i), tiles: t.tiles.map(dominoName), end: t.end, marked: t.marked })),
    openDoubles: v.openDoubles.map((i) => trainLabel(v.players, i)),
    totals: v.totals, rounds: v.rounds,
    result: v.result,
    ...(v.reveal ? { reveal: { seed: v.reveal.seed, hands: v.reveal.hands.map((h) => h.map(dominoName)) } } : {}),
  };
}

