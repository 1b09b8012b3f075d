import { TilemateError } from '../../engine/errors.js';
import type { GameStore, NewRecord } from '../store/games.js';
import type { PlayerStore } from '../store/players.js';
import type { ReviewJson } from '../shared/wire.js';
import type { Asker, HeavyPool, ReviewTask } from './heavy.js';

/**
 * The reviews of kept games being worked out on this server (issue 61: "a review runs in the
 * worker pool with progress shown, and is kept with the game"), one per record, seat and worlds:
 *
 * - asked for (POST /api/review with a record's id): the kept review if there is one; else the
 *   one being worked out, joined (two tabs, a coach and her student, the page at the end of a
 *   game while the background works on it: one review, worked out once); else a new one, in the
 *   pool's requests' lane, in the asker's turn.
 * - **in the background**: a signed-in player's finished Mah Jongg game (Tables' `onFinished`) has
 *   her seat's review started at once, in the pool's background (api/http/heavy.ts: it yields to
 *   every request), so that her mistakes come back as drills (api/store/practice.ts) even if she
 *   never opens the review. At most `background` such reviews are queued or running at once; a
 *   game over that is not reviewed now (its review is made when she opens it), and says so in
 *   the log. Once she asks for it, its remaining parts take her turn.
 * - each is kept with the game when done (GameStore.saveReview, the first kept stands), and its
 *   progress (the action reached of the record's actions) is answered while it is worked out, to
 *   the people who asked for it and to the player whose game it is (GET /api/review/progress);
 *   it is forgotten once kept.
 *
 * A review that fails is logged and forgotten: nothing kept is lost, and a person waiting for it
 * is told why (the error of its part); the background's failures reach nobody but the log.
 */

/** What the review of one record's seat has got to: the action number reached, of the record's actions. */
export interface ReviewProgress {
  done: number;
  total: number;
}

export interface ReviewsOptions {
  pool: HeavyPool;
  games: GameStore;
  players: PlayerStore;
  /** The worlds a page's review is asked with (Limits.reviewWorlds): the background works the same out, so the page finds it kept. */
  worlds: number;
  /** Background reviews queued or running at once (0: none). */
  background: number;
  log: { warn(message: string): void; info(message: string): void };
}

interface Job {
  recordId: string;
  seat: number;
  worlds: number;
  progress: ReviewProgress;
  /** The askers (their person keys) who asked for it: they may read its progress. */
  people: Set<string>;
  /** Whose game it is (a background review's): she may read its progress. */
  player: string | null;
  /** The people waiting for it now, in the order they asked: the first one's turn its parts take (none: the background's). */
  waiting: Asker[];
  background: boolean;
  /** True once it is to be worked out: at once when asked for; in the background, once the game is known to be a signed-in player's (false: it is dropped). */
  going: Promise<boolean>;
  result: Promise<ReviewJson>;
}

const keyOf = (recordId: string, seat: number, worlds: number): string => `${recordId}\u0000${seat}\u0000${worlds}`;

/** A record's actions: its lines, less the header and the end line. */
const actionsOf = (text: string): number => Math.max(0, text.trimEnd().split('\n').length - 2);

export class Reviews {
  private readonly jobs = new Map<string, Job>();
  private backgroundJobs = 0;
  private stopped = false;

  constructor(private readonly opts: ReviewsOptions) {}

  /**
   * The review of a kept record's seat for `asker` (who may read the record: the caller checks):
   * kept, joined or worked out, and kept once done (a failure to keep it is logged, never this
   * answer's error).
   */
  async review(recordId: string, seat: number, worlds: number, text: string, asker: Asker): Promise<ReviewJson> {
    const key = keyOf(recordId, seat, worlds);
    let job = await this.live(key);
    if (job === undefined) {
      const kept = (await this.opts.games.review(recordId, seat, worlds)) as ReviewJson | null;
      if (kept !== null) return kept;
      // looked again: another request may have started it meanwhile
      job = (await this.live(key)) ?? this.start(recordId, seat, worlds, text, asker, null);
    }
    job.people.add(asker.person);
    job.waiting.push(asker);
    // a background review's part waiting for a spare worker now takes her turn
    if (job.background) this.opts.pool.nudge();
    try {
      return await job.result;
    } finally {
      job.waiting.splice(job.waiting.indexOf(asker), 1);
    }
  }

  /** The job of a key that is being worked out (one the background has dropped is none). */
  private async live(key: string): Promise<Job | undefined> {
    const job = this.jobs.get(key);
    return job !== undefined && (await job.going) ? job : undefined;
  }

  /**
   * Finished games' records, just committed (Tables' `onFinished`): each signed-in player's
   * Mah Jongg game has her seat's review started in the background, within the bound. Never
   * throws: what cannot be started is logged.
   */
  finished(records: readonly NewRecord[]): void {
    for (const r of records) {
      if (this.stopped || this.opts.background <= 0 || !this.opts.pool.threaded) return;
      if (r.game !== 'mah-jongg' || r.player === null || r.seat === null) continue;
      const key = keyOf(r.id, r.seat, this.opts.worlds);
      if (this.jobs.has(key)) continue;
      if (this.backgroundJobs >= this.opts.background) {
        this.opts.log.info(`game ${r.id} (seat ${r.seat}) is not reviewed in the background: ${this.backgroundJobs} reviews are there already; it is reviewed when she opens it`);
        continue;
      }
      // a guest's games wait until she asks (her mistakes come back once she has an account and opens them)
      const player = r.player;
      const signedIn = this.opts.players.passwordHash(player).then((hash) => hash !== null && !this.stopped);
      this.backgroundJobs++;
      const job = this.start(r.id, r.seat, this.opts.worlds, r.text, null, player, signedIn);
      void job.result.catch(() => {}).finally(() => this.backgroundJobs--); // its failure is logged where it is worked out
    }
  }

  /**
   * The progress of a review being worked out, for the person asking: one she asked for (her
   * person key), or one of her own game (`player`, asked only when there is such a review: a
   * session's lookup), else null.
   */
  async progress(recordId: string, seat: number, person: string, player: () => Promise<string | null>): Promise<ReviewProgress | null> {
    const of: Job[] = [];
    for (const job of [...this.jobs.values()]) if (job.recordId === recordId && job.seat === seat && (await job.going)) of.push(job);
    if (of.length === 0) return null;
    const asked = of.find((job) => job.people.has(person));
    if (asked !== undefined) return { ...asked.progress };
    const me = of.some((job) => job.player !== null) ? await player() : null;
    const hers = me === null ? undefined : of.find((job) => job.player === me);
    return hers === undefined ? null : { ...hers.progress };
  }

  /** The server is stopping: no more background reviews start (those running end with the pool). */
  stop(): void {
    this.stopped = true;
  }

  /**
   * A new job: worked out in the pool (a request in `asker`'s turn, or the background once `gate`
   * says so), kept, then forgotten.
   */
  private start(recordId: string, seat: number, worlds: number, text: string, asker: Asker | null, player: string | null, gate?: Promise<boolean>): Job {
    const key = keyOf(recordId, seat, worlds);
    const task: ReviewTask = { kind: 'review', record: text, seat, worlds };
    const total = actionsOf(text);
    const job: Job = {
      recordId,
      seat,
      worlds,
      progress: { done: 0, total },
      people: new Set(),
      player,
      waiting: [],
      background: asker === null,
      going: Promise.resolve(true),
      result: Promise.resolve(null as unknown as ReviewJson),
    };
    const forget = () => {
      if (this.jobs.get(key) === job) this.jobs.delete(key);
    };
    if (gate !== undefined) {
      // dropped the moment the gate says no, so whoever looks next finds no job
      job.going = gate.then(
        (ok) => {
          if (!ok) forget();
          return ok;
        },
        (err: unknown) => {
          forget();
          this.failed(recordId, seat, err);
          return false;
        },
      );
    }
    const onPart = (next: number | null) => {
      job.progress = { done: next === null ? total : Math.min(total, next - 1), total };
    };
    job.result = (async () => {
      try {
        if (!(await job.going)) throw new TilemateError('TM_NOT_FOUND', 'not reviewed in the background');
        const review = asker === null ? await this.opts.pool.background(task, () => job.waiting[0] ?? null, onPart) : await this.opts.pool.request<ReviewJson>(task, asker, onPart);
        // kept before it is forgotten, so that whoever asks next finds it kept
        await this.opts.games.saveReview(recordId, seat, worlds, review).catch((err: unknown) => {
          this.opts.log.warn(`the review of game ${recordId} (seat ${seat}) was not kept: ${err instanceof Error ? err.message : String(err)}`);
        });
        return review;
      } catch (err) {
        if (job.background && this.jobs.get(key) === job) this.failed(recordId, seat, err);
        throw err;
      } finally {
        forget();
      }
    })();
    this.jobs.set(key, job);
    return job;
  }

  private failed(recordId: string, seat: number, err: unknown): void {
    if (this.stopped) return; // the pool closing ends what was running: not a failure
    this.opts.log.warn(`the review of game ${recordId} (seat ${seat}) could not be made in the background: ${err instanceof Error ? err.message : String(err)}; it is made when she opens it`);
  }
}
