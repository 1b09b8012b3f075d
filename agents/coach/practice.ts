import { createEmptyCard, fsrs, Rating, type Card } from 'ts-fsrs';

/**
 * Her mistakes practised again (issue 46): each mistake a review of her game found is a drill at
 * that very position, scheduled by FSRS (ts-fsrs, a well-kept spaced-repetition library): a
 * wrong answer ("Again") brings it back within a day or two, a right one ("Good") further off
 * each time. The schedule is plain data kept with her (api/store/practice.ts); this module only
 * computes the next one.
 */

/** FSRS without same-day learning steps (a mistake comes back on a later day) and without random fuzz (the same answers give the same days). */
const scheduler = fsrs({ enable_short_term: false, enable_fuzz: false });

/** A schedule as kept (JSON: dates as ISO strings). */
export type Schedule = Omit<Card, 'due' | 'last_review'> & { due: string; last_review?: string };

/** The schedule after her answer at `now`: from `kept` (null: the mistake's first drill). */
export function nextSchedule(kept: Schedule | null, right: boolean, now: Date): Schedule {
  const card: Card = kept === null ? createEmptyCard(now) : { ...kept, due: new Date(kept.due), last_review: kept.last_review === undefined ? undefined : new Date(kept.last_review) };
  const next = scheduler.next(card, now, right ? Rating.Good : Rating.Again).card;
  return { ...next, due: next.due.toISOString(), last_review: next.last_review?.toISOString() };
}

/** Whole days from `now` to `due`, rounded up (0: due now). */
export function daysUntil(due: Date, now: Date): number {
  return Math.max(0, Math.ceil((due.getTime() - now.getTime()) / 86_400_000));
}
