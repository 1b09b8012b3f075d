import { apply, replay, type Change, type EventState } from './event.js';
import { applyTrain, replayTrain, type TrainChange, type TrainEventState } from './train-event.js';

/** A club event of either game (issue 47): which game it is, and its state; told apart by its first change. */
export type AnyEvent = { game: 'mah-jongg'; state: EventState } | { game: 'mexican-train'; state: TrainEventState };
export type AnyChange = Change | TrainChange;

const isTrain = (c: AnyChange | undefined): boolean => c?.type === 'create' && 'game' in c && c.game === 'mexican-train';

/** The event from its changes, in order. */
export function replayAny(changes: readonly AnyChange[]): AnyEvent {
  return isTrain(changes[0]) ? { game: 'mexican-train', state: replayTrain(changes as TrainChange[]) } : { game: 'mah-jongg', state: replay(changes as Change[]) };
}

/** Applies a change to the event of its game (each game's reducer refuses a change it does not know). */
export function applyAny(e: AnyEvent, c: AnyChange): void {
  if (e.game === 'mexican-train') applyTrain(e.state, c as TrainChange);
  else apply(e.state, c as Change);
}
