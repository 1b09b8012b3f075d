import { TilemateError } from '../../engine/errors.js';
import { RULESETS } from '../../engine/mah-jongg/rulesets.js';
import type { GameOutcome } from '../../engine/mah-jongg/scoring.js';
import { GAMES_A_ROUND, tableOf, timeLeft, type Change, type EventState, type RoundState } from '../../engine/tournament/event.js';
import { resultOfGame, seatsForGame } from '../../engine/tournament/online.js';
import type { GameResult } from '../../engine/tournament/score-card.js';
import type { EventStore } from '../store/events.js';
import type { SeatRow } from '../store/tables.js';
import type { Tables } from './tables.js';

/**
 * Online events (issue 47): an event's rounds played at Tilemate tables. For each table of a
 * round its four games are played one after the other, each at a table of its own (East passing
 * with each game, engine/tournament/online.ts): the players named in their seats, the event's
 * bot playing for one who has not come or has gone. A finished game is entered on every card at
 * its table, agreed; when the round's time is up, a game still being played is stopped and
 * scores zero for everyone, as are the games not begun (standardized rules 11.4); a round whose
 * games are all in is accepted.
 *
 * Every server looks after the online events in play every few seconds and whenever a game of
 * one may have moved on (a round seated, a player asking for her table). Each change it makes
 * carries its own entry id, so two servers looking at once keep it once; a table opened twice
 * for one game (two servers at the same moment) has the loser's copy stopped.
 */

/** Online events looked after at once, at most (the newest). */
const LIVE_EVENTS = 50;

export class EventTables {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Each event's look under way (the timer, a round seated, a player asking for her table): one at a time an event on this server. */
  private readonly looking = new Map<string, Promise<void>>();
  /** Each event's next look, waiting for the one under way: every ask that comes meanwhile shares it. */
  private readonly queued = new Map<string, Promise<void>>();

  constructor(
    private readonly events: EventStore,
    private readonly tables: Tables,
    private readonly defaultCard: { name: string; text: string },
    private readonly onError: (err: unknown) => void,
    private readonly everyMs = 2_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.lookAfterAll(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Every online event in play, once (a look already under way is waited for, not doubled). */
  lookAfterAll(): Promise<void> {
    this.running ??= (async () => {
      try {
        for (const code of await this.events.liveOnline(LIVE_EVENTS)) await this.lookAfter(code).catch(this.onError);
      } catch (err) {
        this.onError(err);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /**
   * One event: games finished entered, next games opened, the clock's end applied, a round
   * complete accepted. A look already under way for the event is waited for, then made once
   * more for everyone who asked meanwhile (what it saw may have moved on), never run beside it.
   */
  lookAfter(code: string): Promise<void> {
    const waiting = this.queued.get(code);
    if (waiting !== undefined) return waiting;
    const start = (): Promise<void> => {
      this.queued.delete(code);
      const look: Promise<void> = this.lookOnce(code).finally(() => {
        if (this.looking.get(code) === look) this.looking.delete(code);
      });
      this.looking.set(code, look);
      return look;
    };
    const under = this.looking.get(code);
    if (under === undefined) return start();
    const next = under.catch(() => undefined).then(start);
    this.queued.set(code, next);
    return next;
  }

  private async lookOnce(code: string): Promise<void> {
    const ev = await this.events.state(code);
    if (ev.game !== 'mah-jongg' || ev.state.online === null || ev.state.over) return;
    const e = ev.state;
    const r = e.rounds.at(-1);
    if (r === undefined || r.accepted) return;
    const timeUp = r.endedAt !== null || timeLeft(e, r, Date.now()) === 0;
    const tables = [...new Set([...r.seating.values()].map((p) => p.table))];
    for (const table of tables) {
      // a table that fails (its game cannot be opened or read) is reported and left to the next look; the others go on
      await this.lookAtTable(code, r, e, table, timeUp).catch(this.onError);
    }
    const now = await this.events.state(code);
    const last = now.game === 'mah-jongg' ? now.state.rounds.at(-1) : undefined;
    if (last !== undefined && last.round === r.round && !last.accepted && [...last.seating.keys()].every((p) => last.verified.has(p))) {
      await this.keep(code, r, { type: 'accept' }, `accept:${r.round}`);
    }
  }

  /** One table of the round: its games scored as they end, the next opened, the clock's end applied. */
  private async lookAtTable(code: string, r: RoundState, e: EventState, table: number, timeUp: boolean): Promise<void> {
    const players = [...tableOf(r, table).values()];
    for (let game = 1; game <= GAMES_A_ROUND; game++) {
      if (r.cards.get(players[0])?.[game - 1]) continue; // scored
      const opened = r.games.get(`${table}/${game}`);
      if (opened !== undefined) {
        let end = await this.ending(opened);
        if (end === null) {
          if (!timeUp) {
            // being played: it waits while the round's clock is paused
            await this.holdAsTheClock(opened, r.pausedAt !== null);
            break;
          }
          // the round's time is up: stopped, unless it ended meanwhile
          if (!(await this.tables.halt(opened))) end = await this.ending(opened);
        }
        const seats = seatsForGame([...tableOf(r, table).keys()], game, r.roll);
        const result: GameResult = end?.outcome ? resultOfGame(end.outcome as GameOutcome, seats) : { winner: null, incomplete: true };
        await this.keep(code, r, { type: 'played', table, game, result }, `played:${r.round}/${table}/${game}`);
        continue;
      }
      if (timeUp) {
        await this.keep(code, r, { type: 'played', table, game, result: { winner: null, incomplete: true } }, `played:${r.round}/${table}/${game}`);
        continue;
      }
      await this.open(code, e, r, table, game);
      break;
    }
  }

  /** A table's game paused while the round's clock is, and going on with it. */
  private async holdAsTheClock(code: string, paused: boolean): Promise<void> {
    const info = await this.tables.info(code);
    if ((info.status === 'paused') !== paused && (info.status === 'playing' || info.status === 'paused')) await this.tables.hold(code, paused);
  }

  /** A table's game as it ended, or null while played; a table gone (given up) ended unfinished. */
  private ending(code: string): Promise<{ outcome: unknown } | null> {
    return this.tables.ending(code).catch((err) => (err instanceof TilemateError && err.code === 'TM_NOT_FOUND' ? { outcome: null } : Promise.reject(err)));
  }

  /** Opens game `game` of a table: its players in their seats for that game, the event's bot and card. */
  private async open(code: string, e: EventState, r: RoundState, table: number, game: number): Promise<void> {
    const online = e.online!;
    const bySeat = tableOf(r, table);
    const seats = seatsForGame([...bySeat.keys()], game, r.roll);
    // a table of four plays the event's ruleset; a table of three the tournament's table of three (rules 3.1-3.3: no Charleston)
    const ruleset = bySeat.size === RULESETS[e.ruleset].players ? e.ruleset : bySeat.size === 3 ? 'nmjl-3p' : 'nmjl-4p-tournament';
    const seatRows: SeatRow[] = seats.map((s) => {
      const p = e.players.get(bySeat.get(s)!)!;
      return { kind: 'person', name: p.name, level: null };
    });
    const director = (await this.events.row(code))?.directorId ?? null;
    const made = await this.tables.seated({
      game: 'mah-jongg',
      params: { ruleset, card: online.card ?? this.defaultCard },
      clock: 'relaxed',
      awayAfter: online.awayAfter,
      level: online.level,
      playerId: director,
      seats: seatRows,
      owner: `event ${code}`,
    });
    const after = await this.keep(code, r, { type: 'open-game', table, game, code: made }, `open:${r.round}/${table}/${game}`);
    const kept = after?.games.get(`${table}/${game}`);
    // another server opened this game first: its table is the game's, this one is stopped
    if (kept !== undefined && kept !== made) await this.tables.halt(made);
  }

  /** Keeps a change once (its entry id); a change the event no longer takes (another server's came first) is let go. */
  private async keep(code: string, r: RoundState, c: Change, entry: string): Promise<RoundState | undefined> {
    try {
      const ev = await this.events.change(code, c, 'Tilemate, from the tables', entry);
      return ev.game === 'mah-jongg' ? ev.state.rounds.find((x) => x.round === r.round) : undefined;
    } catch (err) {
      if (err instanceof TilemateError && err.code === 'TM_BAD_INPUT') {
        const ev = await this.events.state(code);
        return ev.game === 'mah-jongg' ? ev.state.rounds.find((x) => x.round === r.round) : undefined;
      }
      throw err;
    }
  }
}

/** Where a player plays now at an online event: her table's code and her seat there, or null (no game of hers is open). */
export function tableFor(e: EventState, player: string): { code: string; seat: number; table: number; game: number } | null {
  const r = e.rounds.at(-1);
  const place = r?.seating.get(player);
  if (r === undefined || place === undefined || r.accepted || e.online === null) return null;
  const players = [...tableOf(r, place.table).values()];
  for (let game = 1; game <= GAMES_A_ROUND; game++) {
    if (r.cards.get(players[0])?.[game - 1]) continue;
    const code = r.games.get(`${place.table}/${game}`);
    if (code === undefined) return null;
    return { code, seat: seatsForGame([...tableOf(r, place.table).keys()], game, r.roll).indexOf(place.seat), table: place.table, game };
  }
  return null;
}
