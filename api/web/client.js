// The server's HTTP API (docs/api.md), as the page uses it. Every call returns parsed JSON
// or throws an Error whose message is the server's own (code and words).

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The error's own words, for a sentence that says why something failed.
 * @param {unknown} err
 * @returns {string}
 */
export function errorWords(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The server's code for a refusal (ApiError), or '' for any other failure.
 * @param {unknown} err
 * @returns {string}
 */
export function errorCode(err) {
  return err instanceof ApiError ? err.code : '';
}

/**
 * One request to the server: its parsed JSON answer (whose shape the caller knows from
 * docs/api.md), or an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function call(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'TM_NETWORK', 'The server could not be reached. Check that Tilemate is still running, then try again.');
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const err = data && (data.error ?? data);
    const code = (err && err.code) || `HTTP_${res.status}`;
    const message = (err && err.message) || text || `the server answered ${res.status}`;
    throw new ApiError(res.status, code, message);
  }
  if (data === null) throw new ApiError(res.status, 'TM_BAD_REPLY', 'the server sent an empty or unreadable answer');
  return data;
}

/** The routes that are no game's own (a game's are LiveGame's, live-game.js). */
export const api = {
  /**
   * @param {{ recordId?: string | null, record?: string, seat: number }} body
   * @returns {Promise<import('./types.js').Review>}
   */
  review: (body) => call('POST', '/api/review', body),
  /**
   * How far the review of a kept game has got while it is worked out (`running` false when none is).
   * @param {string} recordId
   * @param {number} seat
   * @returns {Promise<import('./types.js').ReviewProgress>}
   */
  reviewProgress: (recordId, seat) => call('GET', `/api/review/progress?recordId=${encodeURIComponent(recordId)}&seat=${seat}`),
};
