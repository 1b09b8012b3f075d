/**
 * Every mistake a user can make is a TilemateError with a stable code, declared once here
 * with what it means and the HTTP status the server answers it with (the CLI prints
 * `code: message`; the server answers `{code, message}` with the status). The table is
 * typed so that a code without a status or a description does not compile. TM_INTERNAL is
 * the one code that is no user's mistake: the server's answer to a bug. A broken invariant
 * inside the engine is not a user error either: it throws `ruleViolation`.
 */
export const ERRORS = {
  TM_BAD_TILE: { status: 400, description: 'a token that is not a tile' },
  TM_TOO_MANY_COPIES: { status: 400, description: 'more copies of a tile than the set in play holds' },
  TM_HAND_SIZE: { status: 400, description: 'the wrong number of tiles' },
  TM_BAD_EXPOSURE: { status: 400, description: 'an exposure that is not a pung, kong, quint or sextet of one tile' },
  TM_CARD_SYNTAX: { status: 400, description: 'a malformed card line' },
  TM_CARD_EMPTY: { status: 400, description: 'a card with no lines' },
  TM_BAD_INPUT: { status: 400, description: 'a malformed request or option' },
  TM_FILE: { status: 404, description: 'a file that cannot be read' },
  TM_NOT_YOUR_TURN: { status: 409, description: 'an action by a seat that may not act now' },
  TM_ILLEGAL_ACTION: { status: 409, description: 'an action the rules do not allow here' },
  TM_GAME_OVER: { status: 409, description: 'an action after the game has ended' },
  TM_BAD_RECORD: { status: 400, description: 'a game record that is truncated, edited or of an unknown version' },
  TM_BAD_JSON: { status: 400, description: 'a request body that is not well-formed JSON' },
  TM_UNAUTHORIZED: { status: 401, description: "a request without the game's token, or one that needs the player signed in" },
  TM_BAD_SIGN_IN: { status: 401, description: 'a name and password that do not match an account' },
  TM_NAME_TAKEN: { status: 409, description: 'an account name another player has' },
  TM_NOT_FOUND: { status: 404, description: 'a game or record that does not exist, or a token that does not open it' },
  TM_BODY_TOO_LARGE: { status: 413, description: 'a request body larger than the server accepts' },
  TM_TOO_MANY_GAMES: { status: 429, description: 'a new game when the server already holds as many live games as it allows' },
  TM_RATE_LIMITED: { status: 429, description: 'more requests than the server allows in a minute' },
  TM_BAD_MODEL: { status: 400, description: 'a model or checkpoint file that is cut off, foreign, or trained on other features' },
  TM_DUPLICATE_TILE: { status: 400, description: 'a domino given twice (the double-12 set holds one of each)' },
  TM_STALE_ACTION: { status: 409, description: 'an action written for an earlier moment of the game (a retry of one already applied)' },
  TM_HEADERS_TOO_LARGE: { status: 431, description: 'request headers larger than the server accepts' },
  TM_TIMEOUT: { status: 408, description: 'a request that took too long to arrive' },
  TM_BUSY: { status: 503, description: 'a request that plays deals out while the server already has as many queued as it allows' },
  TM_TOO_SLOW: { status: 503, description: "a request that plays deals out and could not be answered within the server's deadline" },
  TM_TOO_COSTLY: { status: 422, description: 'a request that asks for more work (sampled deals, worlds, forms of its card) than the server does for one request, refused before any is done' },
  TM_BAD_HOST: { status: 421, description: 'a request addressed to a host name the server was not told to serve (a DNS rebinding guard)' },
  TM_BAD_ORIGIN: { status: 403, description: 'a change, or a live connection, asked for by a page of another site' },
  TM_TOO_MANY_CARDS: { status: 409, description: 'a new saved card when the server already keeps as many as it allows' },
  TM_PAUSED: { status: 409, description: "an action while the table's game is paused" },
  TM_SEAT_TAKEN: { status: 409, description: 'a seat another person or bot already has, a table whose seats are all taken, or one with as many watchers (or a seat with as many phones) as it takes' },
  TM_NOT_ALLOWED: { status: 403, description: "something only the table's host or coach may do, or a change to a shared card by someone other than its owner" },
  TM_STORAGE: { status: 503, description: 'a change the database could not keep just now (a full disk, a database that refuses writes or cannot be reached): nothing was changed' },
  TM_INTERNAL: { status: 500, description: 'a bug in the server (logged); never an answer to bad input' },
} as const satisfies Record<`TM_${string}`, { readonly status: number; readonly description: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Whether a string is one of the codes above (a code read from outside, e.g. a thrown object). */
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERRORS, code);

export class TilemateError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'TilemateError';
    this.code = code;
  }
}

export function ruleViolation(what: string): never {
  throw new Error(`rule violation: ${what}`);
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many files open',
  ENOSPC: 'the disk is full',
  EROFS: 'the disk is read-only',
};

/** A file system error in words ("no such file", not ENOENT), for the messages a person reads. */
export function fileErrorWords(err: unknown): string {
  const code = (err as { code?: string } | null | undefined)?.code;
  if (code !== undefined && FILE_ERRORS[code] !== undefined) return FILE_ERRORS[code];
  return code ?? (err instanceof Error ? err.message : String(err));
}
