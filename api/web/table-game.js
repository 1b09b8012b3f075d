// One seat of a table together (docs/tables.md), as the game drawings see it: the same
// interface as LiveGame (session, at, busy, send with `after`, hint, drawn), so app.js and
// domino.js draw a table's seat as they draw a game against bots. The table pushes its
// `game` messages over the WebSocket (together.js); an action is posted to
// /api/tables/:code/actions with `after`, and both roads give answers that pass through
// accept(): each action is told once, and an answer older than one already drawn is dropped.

import { ApiError, call } from './client.js';
import { LiveGame } from './live-game.js';

/** @import { GameEvent } from './types.js' */

/**
 * An answer as the table gives it (a Mah Jongg or a Mexican Train game): how many actions
 * the game has applied, and the actions since the last one.
 * @typedef {{ at: number, events?: (GameEvent | { n?: number })[], [field: string]: unknown }} TableAnswer
 */

export class TableGame extends LiveGame {
  /**
   * `code`, `token`, `seat`: the person's place at the table (seat null for a spectator or the coach).
   * @param {{ code: string, token: string, seat: number | null }} place
   */
  constructor({ code, token, seat }) {
    super({ routes: '/api/tables', sessionKey: '' });
    this.session = { id: code, token, seat };
    /** The last answer accepted, and the highest action number (`n`) told so far. @type {TableAnswer | null} */
    this.latest = null;
    this.told = 0;
  }

  /**
   * A `game` message, or the answer to an action, as the drawing takes it: null when an answer
   * already drawn was newer, else the answer with only the actions not yet told.
   * @param {TableAnswer} answer
   * @returns {TableAnswer | null}
   */
  accept(answer) {
    if (this.latest && answer.at < this.latest.at) return null;
    const events = (answer.events ?? []).filter((e) => typeof e.n !== 'number' || e.n > this.told);
    for (const e of events) if (typeof e.n === 'number' && e.n > this.told) this.told = e.n;
    this.latest = answer;
    this.at = answer.at;
    return { ...answer, events };
  }

  /**
   * Posts the person's action with `after: at`. A refusal because the game had moved on
   * (TM_STALE_ACTION: a push arrived first, or a retry) answers with the table as it stands.
   * @param {object} action
   * @returns {Promise<{ answer: any, stale: boolean }>}
   */
  send(action) {
    return this.whileBusy(async () => {
      const after = this.at;
      try {
        const answer = await this.request('POST', '/actions', { ...action, after });
        return { answer: this.accept(answer) ?? this.#current(), stale: false };
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'TM_STALE_ACTION') throw err;
      }
      const answer = await this.request('GET', '/state');
      return { answer: this.accept(answer) ?? this.#current(), stale: true };
    });
  }

  /**
   * A table is left from its own page (together.js), never by the drawing.
   * @param {boolean} [_unfinished]
   */
  leave(_unfinished) {
    return false;
  }

  resume() {
    return Promise.resolve(null);
  }

  /**
   * The latest answer again, with nothing left to tell.
   * @returns {TableAnswer}
   */
  #current() {
    return { .../** @type {TableAnswer} */ (this.latest), events: [] };
  }

  /**
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async whileBusy(fn) {
    this.setBusy(true);
    try {
      return await fn();
    } finally {
      this.setBusy(false);
    }
  }
}

/** The table's own requests (docs/tables.md, "HTTP"), with the person's token where one is needed. */
export const tables = {
  /** @param {object} body */
  open: (body) => call('POST', '/api/tables', body),
  /** @param {string} code */
  info: (code) => call('GET', `/api/tables/${encodeURIComponent(code)}`),
  /** @param {string} code @param {object} body */
  join: (code, body) => call('POST', `/api/tables/${encodeURIComponent(code)}/join`, body),
  /** @param {string} code @param {string} token @param {number} seat @param {string | null} bot */
  seat: (code, token, seat, bot) => call('POST', `/api/tables/${encodeURIComponent(code)}/seats`, { seat, bot }, token),
  /** @param {string} code @param {string} token @param {string | null} [fill] */
  start: (code, token, fill) => call('POST', `/api/tables/${encodeURIComponent(code)}/start`, fill ? { fill } : {}, token),
  /** @param {string} code @param {string} token */
  state: (code, token) => call('GET', `/api/tables/${encodeURIComponent(code)}/state`, undefined, token),
  /** @param {string} code @param {string} token @param {boolean} paused */
  pause: (code, token, paused) => call('POST', `/api/tables/${encodeURIComponent(code)}/pause`, { paused }, token),
  /** @param {string} code @param {string} token @param {number} seat */
  hint: (code, token, seat) => call('POST', `/api/tables/${encodeURIComponent(code)}/hint`, { seat }, token),
};
