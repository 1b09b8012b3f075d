/**
 * Every mistake a user can make is a TilemateError with a stable code. The CLI prints
 * `code: message`; the HTTP API (later) answers `{code, message}` with the status below.
 * A broken invariant inside the engine is not a user error: it throws `ruleViolation`.
 */
export const ERROR_CODES = {
  TM_BAD_TILE: 'a token that is not a tile',
  TM_TOO_MANY_COPIES: 'more copies of a tile than the 152-tile set holds',
  TM_HAND_SIZE: 'the wrong number of tiles',
  TM_BAD_EXPOSURE: 'an exposure that is not a pung, kong, quint or sextet of one tile',
  TM_CARD_SYNTAX: 'a malformed card line',
  TM_CARD_EMPTY: 'a card with no lines',
  TM_BAD_INPUT: 'a malformed request or option',
  TM_FILE: 'a file that cannot be read',
  TM_NOT_YOUR_TURN: 'an action by a seat that may not act now',
  TM_ILLEGAL_ACTION: 'an action the rules do not allow here',
  TM_GAME_OVER: 'an action after the game has ended',
  TM_BAD_RECORD: 'a game record that is truncated, edited or of an unknown version',
  TM_BAD_JSON: 'a request body that is not well-formed JSON',
  TM_UNAUTHORIZED: 'a request without the game\'s token',
  TM_NOT_FOUND: 'a game or record that does not exist, or a token that does not open it',
  TM_BODY_TOO_LARGE: 'a request body larger than the server accepts',
  TM_TOO_MANY_GAMES: 'a new game when the server already holds as many live games as it allows',
  TM_RATE_LIMITED: 'more requests than the server allows in a minute',
  TM_BAD_MODEL: 'a model or checkpoint file that is cut off, foreign, or trained on other features',
  TM_DUPLICATE_TILE: 'a domino given twice (the double-12 set holds one of each)',
  TM_STALE_ACTION: 'an action written for an earlier moment of the game (a retry of one already applied)',
  TM_HEADERS_TOO_LARGE: 'request headers larger than the server accepts',
  TM_TIMEOUT: 'a request that took too long to arrive',
  TM_BUSY: 'a request that plays deals out while the server already has as many queued as it allows',
  TM_TOO_SLOW: 'a request that plays deals out and could not be answered within the server\'s deadline',
  TM_TOO_MANY_CARDS: 'a new saved card when the server already keeps as many as it allows',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

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
