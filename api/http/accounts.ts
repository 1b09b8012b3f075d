import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TilemateError } from '../../engine/errors.js';
import type { Player, PlayerStore } from '../store/players.js';
import type { Asker } from './heavy.js';

/**
 * Who is asking: the player of the request's session cookie. The cookie holds a random token
 * (HttpOnly, SameSite=Lax, Secure over HTTPS); the database holds only its hash. A request
 * that makes something (a game, a saved card) without a session makes a guest and her
 * session, so a person can play at once and sign up later, keeping what she made. Passwords
 * are hashed with Argon2id (@node-rs/argon2, on libuv's threads, off the event loop).
 */

export const SESSION_COOKIE = 'tm_session';
/** How long a session lasts: a season of club play. */
const SESSION_DAYS = 180;

const tokenHash = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The request's session token, when its cookie holds one of the right shape. */
function sessionToken(req: FastifyRequest): string | undefined {
  const c = req.cookies?.[SESSION_COOKIE];
  return typeof c === 'string' && /^[A-Za-z0-9_-]{20,64}$/.test(c) ? c : undefined;
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}

/**
 * Who asks, for sharing the work that plays deals out fairly (api/http/heavy.ts): her address,
 * and the person: her session, else her game's or table's token, else the address itself. A
 * made-up session or token gains nothing but a turn within its own address, whose share is
 * bounded whoever it names.
 */
export function asker(req: FastifyRequest): Asker {
  // once a request: the heavy budget and the pool both ask
  let known = askers.get(req);
  if (known === undefined) {
    const token = sessionToken(req);
    const game = token === undefined ? bearer(req) : undefined;
    const person = token !== undefined ? `s:${tokenHash(token).toString('hex', 0, 12)}` : game !== undefined ? `t:${tokenHash(game).toString('hex', 0, 12)}` : `a:${req.ip}`;
    askers.set(req, (known = { address: req.ip, person }));
  }
  return known;
}
const askers = new WeakMap<FastifyRequest, Asker>();

export interface Accounts {
  /** The session's player, or null (no cookie, an unknown or expired one). */
  current(req: FastifyRequest): Promise<Player | null>;
  /** The session's player, or a new guest with her session (the cookie set on the reply). */
  player(req: FastifyRequest, reply: FastifyReply): Promise<Player>;
  /** A new session for the player (signing up, signing in), replacing the request's. */
  startSession(req: FastifyRequest, reply: FastifyReply, player: Player): Promise<void>;
  /** Signs out: the session goes, and the cookie. */
  endSession(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The session token's hash, for keeping this session when the others end. */
  sessionHash(req: FastifyRequest): Buffer | null;
  hashPassword(password: string): Promise<string>;
  checkPassword(passwordHash: string, password: string): Promise<boolean>;
}

export function accounts(players: PlayerStore): Accounts {
  // one lookup per request, however many routes' parts ask
  const seen = new WeakMap<FastifyRequest, Promise<Player | null>>();
  const setCookie = (req: FastifyRequest, reply: FastifyReply, token: string) => {
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', maxAge: SESSION_DAYS * 86_400 });
  };
  const startSession = async (req: FastifyRequest, reply: FastifyReply, player: Player) => {
    const old = sessionToken(req);
    if (old !== undefined) await players.endSession(tokenHash(old));
    const token = randomBytes(24).toString('base64url');
    await players.startSession(player.id, tokenHash(token), new Date(Date.now() + SESSION_DAYS * 86_400_000));
    setCookie(req, reply, token);
    seen.set(req, Promise.resolve(player));
  };
  const current = (req: FastifyRequest): Promise<Player | null> => {
    let p = seen.get(req);
    if (p === undefined) {
      const token = sessionToken(req);
      p = token === undefined ? Promise.resolve(null) : players.bySession(tokenHash(token));
      seen.set(req, p);
    }
    return p;
  };
  return {
    current,
    async player(req, reply) {
      const known = await current(req);
      if (known !== null) return known;
      const guest = await players.guest();
      await startSession(req, reply, guest);
      return guest;
    },
    startSession,
    async endSession(req, reply) {
      const token = sessionToken(req);
      if (token !== undefined) await players.endSession(tokenHash(token));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      seen.set(req, Promise.resolve(null));
    },
    sessionHash: (req) => {
      const t = sessionToken(req);
      return t === undefined ? null : tokenHash(t);
    },
    hashPassword: (password) => hash(password),
    checkPassword: async (passwordHash, password) => {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}

/** The signed-in player (with an account), or TM_UNAUTHORIZED in plain words. */
export async function signedIn(acc: Accounts, req: FastifyRequest): Promise<Player & { name: string }> {
  const p = await acc.current(req);
  if (p === null || p.name === null) throw new TilemateError('TM_UNAUTHORIZED', 'please sign in first');
  return p as Player & { name: string };
}

/**
 * Whose games a request asks for: the session's player (null: none yet), or with `student`,
 * a student of the signed-in coach (TM_NOT_FOUND unless she shares her games with this coach).
 */
export async function whoseGames(acc: Accounts, players: PlayerStore, req: FastifyRequest, student: string | undefined): Promise<string | null> {
  if (student === undefined) return (await acc.current(req))?.id ?? null;
  const coach = await signedIn(acc, req);
  const id = await players.studentNamed(coach.id, student);
  if (id === null) throw new TilemateError('TM_NOT_FOUND', `${student} has not shared her games with you`);
  return id;
}
