// One game played at the server from a table page, whichever game it is: the Mah Jongg table
// (routes /api/games) and the Mexican Train table (/api/domino/games) answer alike (docs/api.md,
// docs/mexican-train.md): a new game's answer holds its id and token, every answer says how
// many actions the game has applied (`at`), and an action sent with `after: at` is refused with
// TM_STALE_ACTION when the game has moved on. This module keeps the game in the tab's session,
// sends every action with `after`, and holds the busy flag; each page draws the answers itself.

import { ApiError, call } from './client.js';

/** @import { GameAnswer } from './types.js' */

/**
 * The game being played: its id (a table's code at a table), the token that acts for the
 * seat, and the seat (null for one watching a table).
 * @typedef {{ id: string, token: string, seat?: number | null }} Session
 */

/**
 * The games of this document whose latest answer is not yet drawn: body[data-busy] is 1 while
 * any is, so two tables in one document do not lower each other's mark.
 * @type {Set<LiveGame>}
 */
const unsettled = new Set();

export class LiveGame {
  /**
   * `routes`: the game's route prefix; `sessionKey`: where this tab keeps the game for a reload.
   * @param {{ routes: string, sessionKey: string }} options
   */
  constructor({ routes, sessionKey }) {
    this.routes = routes;
    this.sessionKey = sessionKey;
    /** The game being played, or null. @type {Session | null} */
    this.session = null;
    /** The actions the game had applied at its last answer: sent as `after` with the next action. */
    this.at = 0;
    /** Up while a request is under way: the page's buttons are disabled and refuse a second click. */
    this.busy = false;
    /** The table's own element, marked data-busy as the body is, when the table is drawn in one (not the whole page). @type {HTMLElement | null} */
    this.root = null;
  }

  /** @param {boolean} on */
  #mark(on) {
    if (on) unsettled.add(this);
    else unsettled.delete(this);
    if (this.root) this.root.dataset.busy = on ? '1' : '0';
    document.body.dataset.busy = unsettled.size > 0 ? '1' : '0';
  }

  /**
   * Raises or lowers the busy flag. Raised, body[data-busy] says so at once; lowered, the mark
   * stays until the page has drawn the answer and calls drawn() (the browser tests wait on it).
   * @param {boolean} on
   */
  setBusy(on) {
    this.busy = on;
    if (on) this.#mark(true);
  }

  /** The page has drawn what it knows: body[data-busy] follows the flags of every game in the document. */
  drawn() {
    this.#mark(this.busy);
  }

  /**
   * Starts a game with the page's options and keeps it in the tab's session; resolves to the
   * server's answer. The four requests below raise the busy flag before they return and lower
   * it once the answer is in, so the page may draw its waiting state right after the call.
   * @param {object} options
   * @returns {Promise<any>}
   */
  start(options) {
    return this.#whileBusy(async () => {
      const answer = await call('POST', this.routes, options);
      this.session = { id: answer.id, token: answer.token, seat: answer.seat };
      this.at = answer.at;
      try { sessionStorage.setItem(this.sessionKey, JSON.stringify(this.session)); } catch { /* private mode: no resuming */ }
      return answer;
    });
  }

  /**
   * The game this tab was playing before a reload: its answer with every action from the first,
   * or null when the tab holds none or the server no longer has it (then it is forgotten).
   * @returns {Promise<any>}
   */
  async resume() {
    /** @type {Session | null} */
    let saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(this.sessionKey) ?? 'null'); } catch { saved = null; }
    if (!saved || !saved.id || !saved.token) return null;
    return this.#whileBusy(async () => {
      this.session = saved;
      try {
        const answer = await this.request('GET', '?since=0');
        this.at = answer.at;
        return answer;
      } catch {
        this.#forget();
        return null;
      }
    });
  }

  /**
   * Sends the person's action with `after: at`, so that sending it again (a second click, a
   * retry after "could not be reached" when the first one did arrive) can never apply it twice.
   * Resolves to `{ answer, stale }`: `stale` when the server refused it because the game had
   * moved on, and `answer` is then the game as it stands, with the actions since `at`. Any
   * other refusal is thrown (an ApiError with the server's code and words).
   * @param {object} action
   * @returns {Promise<{ answer: any, stale: boolean }>}
   */
  send(action) {
    return this.#whileBusy(async () => {
      const after = this.at;
      try {
        const answer = await this.request('POST', '/actions', { ...action, after });
        this.at = answer.at;
        return { answer, stale: false };
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'TM_STALE_ACTION') throw err;
      }
      const answer = await this.request('GET', `?since=${after}`);
      this.at = answer.at;
      return { answer, stale: true };
    });
  }

  /**
   * Advice for the decision the person faces now (the game's own advice shape).
   * @param {object} [body]
   * @returns {Promise<any>}
   */
  hint(body = {}) {
    return this.#whileBusy(() => this.request('POST', '/hint', body));
  }

  /**
   * One of the game's own routes: `path` follows the game's address ("/card?top=12", "?since=3").
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  request(method, path, body) {
    const { id, token } = /** @type {Session} */ (this.session);
    return call(method, `${this.routes}/${encodeURIComponent(id)}${path}`, body, token);
  }

  /**
   * Leaves the game, an unfinished one only once the person confirms it; true when it was left
   * (the tab no longer resumes it).
   * @param {boolean} [unfinished]
   * @returns {boolean}
   */
  leave(unfinished) {
    if (this.session && unfinished && !window.confirm('Leave this game and start a new one?')) return false;
    this.#forget();
    return true;
  }

  #forget() {
    this.session = null;
    this.at = 0;
    try { sessionStorage.removeItem(this.sessionKey); } catch { /* nothing saved */ }
  }

  /**
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async #whileBusy(fn) {
    this.setBusy(true);
    try {
      return await fn();
    } finally {
      this.setBusy(false);
    }
  }
}
