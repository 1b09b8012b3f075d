import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import { nameKey } from '../../store/players.js';
import { RateWindows, type Limit } from '../../store/rate-windows.js';
import { SIGN_IN_LIMITS } from '../../shared/limits.js';
import { signedIn } from '../accounts.js';
import { routes } from '../services.js';
import { ERRORS, Strict } from './schemas.js';

/**
 * Accounts fit for a club: sign up with a name and a password (no email), sign in, sign out,
 * change the password. A guest who signs up keeps what she made on this device; one who signs
 * in on a device where she played as a guest takes those games and cards into her account.
 * Sign-in attempts are limited per name and per address, counted in the database so that every
 * server on it counts the same attempts (api/store/rate-windows.ts).
 */

const Name = Type.String({ minLength: 1, maxLength: 40, pattern: "^[\\p{L}\\p{N}][\\p{L}\\p{N} .'_-]*$", description: "letters, digits, spaces and . ' _ -, up to 40" });
const Password = Type.String({ minLength: 8, maxLength: 200, description: 'at least 8 characters' });
const Me = Type.Object({ signedIn: Type.Boolean(), guest: Type.Boolean(), name: Type.Union([Type.String(), Type.Null()]) });

export const accountRoutes = routes('accounts', ['accounts', 'players'], (app, ctx) => {
  const { accounts: acc, players } = ctx;
  const attempts = new RateWindows(players.db);
  const byAddress = (req: FastifyRequest): Limit => ({ key: `sign-in:${req.ip}`, max: SIGN_IN_LIMITS.perAddress });
  const byName = (req: FastifyRequest): Limit => ({ key: `sign-in-name:${nameKey(String((req.body as { name?: unknown } | undefined)?.name ?? ''))}`, max: SIGN_IN_LIMITS.perName });
  // a password change is tried against the session's own account
  const byAccount = (req: FastifyRequest): Limit => ({ key: `password:${acc.sessionHash(req)?.toString('hex') ?? req.ip}`, max: SIGN_IN_LIMITS.perName });
  const limit = (checks: ((req: FastifyRequest) => Limit)[]) => async (req: FastifyRequest) => {
    const wait = await attempts.count(checks.map((check) => check(req)));
    if (wait !== null) throw new TilemateError('TM_RATE_LIMITED', `too many sign-in attempts; please wait ${wait} seconds and try again`);
  };

  app.get(
    '/me',
    {
      schema: { summary: 'Who this browser is: signed in (with her name), a guest, or nobody yet', response: { 200: Me, ...ERRORS } },
    },
    async (req) => {
      const p = await acc.current(req);
      return { signedIn: p !== null && p.name !== null, guest: p !== null && p.name === null, name: p?.name ?? null };
    },
  );

  app.post(
    '/account',
    {
      schema: {
        summary: "Signs up: a name and a password; what this browser made as a guest becomes the account's",
        body: Strict({ name: Name, password: Password }, { examples: [{ name: 'Rose', password: 'a long password' }] }),
        response: { 201: Me, ...ERRORS },
      },
    },
    async (req, reply) => {
      const { name, password } = req.body as { name: string; password: string };
      const p = await acc.player(req, reply);
      if (p.name !== null) throw new TilemateError('TM_BAD_INPUT', `you are signed in as ${p.name}: sign out first to make another account`);
      await players.signUp(p.id, name.trim(), await acc.hashPassword(password));
      await acc.startSession(req, reply, { id: p.id, name: name.trim() }); // a new session token at the change of rights
      return reply.code(201).send({ signedIn: true, guest: false, name: name.trim() });
    },
  );

  app.post(
    '/session',
    {
      preHandler: limit([byAddress, byName]),
      schema: {
        summary: 'Signs in with a name and a password',
        body: Strict({ name: Type.String({ maxLength: 40 }), password: Type.String({ maxLength: 200 }) }, { examples: [{ name: 'Rose', password: 'a long password' }] }),
        response: { 200: Me, ...ERRORS },
      },
    },
    async (req, reply) => {
      const { name, password } = req.body as { name: string; password: string };
      const found = await players.byName(name);
      // the same answer, and about the same time, for an unknown name and a wrong password
      const ok = await acc.checkPassword(found?.passwordHash ?? DUMMY_HASH, password);
      if (found === null || !ok) throw new TilemateError('TM_BAD_SIGN_IN', 'that name and password do not match an account here');
      const before = await acc.current(req);
      if (before !== null && before.name === null) await players.adopt(before.id, found.id);
      await acc.startSession(req, reply, { id: found.id, name: found.name });
      return { signedIn: true, guest: false, name: found.name };
    },
  );

  app.delete(
    '/session',
    {
      schema: { summary: 'Signs out this browser', response: { 200: Me, ...ERRORS } },
    },
    async (req, reply) => {
      await acc.endSession(req, reply);
      return { signedIn: false, guest: false, name: null };
    },
  );

  app.put(
    '/account/password',
    {
      preHandler: limit([byAddress, byAccount]),
      schema: {
        summary: 'Changes the password (the old one first); every other browser is signed out',
        body: Strict({ old: Type.String({ maxLength: 200 }), password: Password }, { examples: [{ old: 'a long password', password: 'another long password' }] }),
        response: { 200: Me, ...ERRORS },
      },
    },
    async (req) => {
      const p = await signedIn(acc, req);
      const { old, password } = req.body as { old: string; password: string };
      const current = await players.passwordHash(p.id);
      if (current === null || !(await acc.checkPassword(current, old))) throw new TilemateError('TM_BAD_SIGN_IN', 'the old password is not right');
      await players.setPassword(p.id, await acc.hashPassword(password));
      const keep = acc.sessionHash(req);
      if (keep !== null) await players.endOtherSessions(p.id, keep);
      return { signedIn: true, guest: false, name: p.name };
    },
  );
});

/** A hash to check against when the name is unknown, so both failures cost the same. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$BiQfCHehSB+2KfzOablU9w$MdQkBl9iNlWl7HykKw7JAo0ef0IeMhDd/XUhRAZkVAo';
