import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseCard } from '../../../engine/mah-jongg/card.js';
import { TilemateError } from '../../../engine/errors.js';
import type { CardCheck } from '../../shared/card-check.js';
import { CardShareStore, noSuchShare, normalShareCode, SHARE_CODE, sharedCode, sharedReference, type SharedCard } from '../../store/card-shares.js';
import type { Db } from '../../store/db.js';
import type { Player } from '../../store/players.js';
import { asker } from '../accounts.js';
import { routes, type Services } from '../services.js';
import { ERRORS } from './schemas.js';

/**
 * Share a card (issue 44): a player with an account shares one of her saved cards read-only by
 * a short code (api/store/card-shares.ts). Anyone with the code, signed in or a guest, opens
 * it (its title, its owner's name, its text and lines), plays on it and chooses a hand with it
 * as `shared:CODE` wherever a saved card's name is taken (a game, a table, GET
 * /api/cards/:name), and may keep it on her list of cards; a coach's shared cards are offered
 * to her students on theirs. It stays its owner's: she alone changes it (everyone sees her
 * latest version), deletes it or stops sharing it, and then the code opens nothing.
 */

export interface ShareLimits {
  /** Shared cards one player keeps on her list. */
  maxKept: number;
  /** Shared cards listed with hers at most (her coaches' and the ones she keeps). */
  maxOffered: number;
  /** Shares one player holds (one a saved card: as many as her cards, at most). */
  maxShares: number;
}
export const SHARE_LIMITS: ShareLimits = { maxKept: 20, maxOffered: 40, maxShares: 20 };

/** Where a shared card opens (api/web/shared-card.html). */
export const shareLink = (code: string): string => `/shared-card.html?code=${code}`;

const Name = Type.Object({ name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,39}$', description: 'the name of one of your saved cards' }) });
const Code = Type.Object({ code: Type.String({ description: "the shared card's code, as it was given (capitals or small letters; spaces and hyphens are ignored)" }) });
const Share = Type.Object({
  code: Type.String(),
  reference: Type.String({ description: 'how a game, a table or GET /api/cards/:name names the shared card: shared:CODE' }),
  link: Type.String({ description: 'the page that opens it, on this server' }),
  name: Type.String({ description: "your saved card's name" }),
  title: Type.String({ description: "the card's own title" }),
});
const Line = Type.Object({
  id: Type.String(),
  fileLine: Type.Integer(),
  pattern: Type.String(),
  value: Type.Integer(),
  concealed: Type.Boolean(),
  forms: Type.Integer(),
  example: Type.String(),
});
const Opened = Type.Object({
  code: Type.String(),
  reference: Type.String({ description: 'choose it as card: shared:CODE for a game or a table, or GET /api/cards/shared:CODE for its text' }),
  link: Type.String(),
  title: Type.String(),
  owner: Type.String({ description: 'the name of the player who shares it: she alone changes it' }),
  text: Type.String(),
  lines: Type.Array(Line),
  yours: Type.Boolean({ description: 'you are its owner' }),
  name: Type.Optional(Type.String({ description: "when it is yours: your saved card's name" })),
  kept: Type.Boolean({ description: 'you keep it on your list of cards (GET /api/cards)' }),
  coach: Type.Boolean({ description: 'its owner is your coach: it is on your list of cards without keeping it' }),
});

/** A card's own title, or its saved name when its text no longer reads. */
function titleOf(text: string, fallback: string): string {
  try {
    return parseCard(text).name;
  } catch {
    return fallback;
  }
}

/** The owner's words for what others may not do with her card. */
const notYours = (card: SharedCard) => new TilemateError('TM_NOT_ALLOWED', `The card ${sharedReference(card.code)} is shared by ${card.owner}, so only she can change or delete it.`);

/**
 * PUT and DELETE of a card named `shared:CODE` (routes/cards.ts): never done, whoever asks.
 * Answers TM_NOT_ALLOWED naming its owner, or TM_NOT_FOUND when the code opens nothing.
 * A name of her own card passes.
 */
export async function refuseSharedChange(ctx: Pick<Services, 'players'>, name: string): Promise<void> {
  const code = sharedCode(name);
  if (code === null) return;
  const card = await new CardShareStore(ctx.players.db).open(code);
  throw card === null ? noSuchShare(code) : notYours(card);
}

/**
 * ctx.savedCard's reading of `shared:CODE`: the text of the card the code opens, as its owner
 * has it now (TM_NOT_FOUND in words when it opens nothing); null for the name of a card of
 * one's own, read as before.
 */
export function sharedCardReader(db: Db): (name: string) => Promise<string | null> {
  const shares = new CardShareStore(db);
  return async (name) => {
    const code = sharedCode(name);
    if (code === null) return null;
    const card = await shares.open(code);
    if (card === null) throw noSuchShare(code);
    return card.text;
  };
}

/** The shared cards listed with a player's own (GET /api/cards): her coaches' and the ones she keeps, each with its owner. */
export async function offeredCards(
  ctx: Pick<Services, 'players'>,
  player: Player | null,
): Promise<{ name: string; title: string; lines: number; chars: number; shared: true; owner: string; coach: boolean }[]> {
  if (player === null) return [];
  const offered = await new CardShareStore(ctx.players.db).offered(player.id, SHARE_LIMITS.maxOffered);
  return offered.flatMap((c) => {
    try {
      const card = parseCard(c.text);
      return [{ name: sharedReference(c.code), title: card.name, lines: card.lines.length, chars: c.text.length, shared: true as const, owner: c.owner, coach: c.coach }];
    } catch {
      return [];
    } // a card that no longer reads is not offered
  });
}

export const cardSharingRoutes = routes('card-sharing', ['accounts', 'heavy', 'players', 'pool'], (app, ctx, opts: { limits?: Partial<ShareLimits> }) => {
  const limits = { ...SHARE_LIMITS, ...opts.limits };
  const { accounts: acc } = ctx;
  const shares = new CardShareStore(ctx.players.db);

  /** The signed-in player: a shared card shows its owner's name, so a guest shares none. */
  const owner = async (req: FastifyRequest): Promise<Player & { name: string }> => {
    const me = await acc.current(req);
    if (me === null || me.name === null) throw new TilemateError('TM_UNAUTHORIZED', 'Sign in first: a shared card shows the name of the player who shares it.');
    return me as Player & { name: string };
  };

  /** A code as typed, and the card it opens now (TM_NOT_FOUND in words when none). */
  const opened = async (typed: string): Promise<SharedCard> => {
    const code = normalShareCode(typed);
    const card = await shares.open(code);
    if (card === null) throw noSuchShare(code);
    return card;
  };

  app.post(
    '/cards/:name/share',
    {
      schema: {
        summary: 'Shares one of your saved cards read-only: its code (the same one while it stays shared) and the link that opens it',
        params: Name,
        response: { 200: Share, ...ERRORS },
      },
    },
    async (req) => {
      const me = await owner(req);
      const { name } = req.params;
      const shared = await shares.share(me.id, name);
      if (shared === null) throw new TilemateError('TM_NOT_FOUND', `You have no saved card named ${name}.`);
      const text = await ctx.players.card(me.id, name);
      return { code: shared.code, reference: sharedReference(shared.code), link: shareLink(shared.code), name, title: titleOf(text ?? '', name) };
    },
  );

  app.delete(
    '/cards/:name/share',
    {
      schema: {
        summary: 'Stops sharing one of your saved cards: its code opens nothing any more, and it leaves the lists of those who kept it',
        params: Name,
        response: { 200: Type.Object({ stopped: Type.String({ description: 'the code that no longer opens it' }), name: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await owner(req);
      const { name } = req.params;
      const code = await shares.unshare(me.id, name);
      if (code === null) throw new TilemateError('TM_NOT_FOUND', `Your card ${name} is not shared.`);
      return { stopped: code, name };
    },
  );

  app.get(
    '/card-shares',
    {
      schema: {
        summary: 'The cards you share, each with its code and link',
        response: { 200: Type.Object({ shares: Type.Array(Share) }), ...ERRORS },
      },
    },
    async (req) => {
      const me = await acc.current(req);
      if (me === null) return { shares: [] };
      const mine = await shares.sharesOf(me.id, limits.maxShares);
      return { shares: mine.map((s) => ({ code: s.code, reference: sharedReference(s.code), link: shareLink(s.code), name: s.name, title: titleOf(s.text, s.name) })) };
    },
  );

  // the lines are checked in the worker pool, on the heavy budget (as a card typed on My card
  // is), which also holds an address to a few dozen codes tried a minute
  app.get(
    '/shared-cards/:code',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "A shared card by its code, for anyone who has the code: its title, its owner's name, its text and its lines (read-only)",
        params: Code,
        response: { 200: Opened, ...ERRORS },
      },
    },
    async (req) => {
      const card = await opened(req.params.code);
      const me = await acc.current(req);
      const yours = me !== null && me.id === card.ownerId;
      const kept = me !== null && !yours && (await shares.isKept(me.id, card.code));
      const coach = me !== null && !yours && (await ctx.players.coaches(me.id)).some((c) => c.id === card.ownerId);
      const checked = await ctx.pool.request<CardCheck>({ kind: 'check-card', text: card.text }, asker(req));
      return {
        code: card.code,
        reference: sharedReference(card.code),
        link: shareLink(card.code),
        title: checked.name ?? titleOf(card.text, card.name),
        owner: card.owner,
        text: card.text,
        lines: checked.lines.map((l) => ({ id: l.id, fileLine: l.fileLine, pattern: l.pattern, value: l.value, concealed: l.concealed, forms: l.forms, example: l.example })),
        yours,
        ...(yours && { name: card.name }),
        kept,
        coach,
      };
    },
  );

  app.post(
    '/shared-cards/:code/keep',
    {
      schema: {
        summary: "Keeps a shared card on your list of cards (GET /api/cards) as shared:CODE, to be chosen on every page; it stays its owner's, and follows her changes",
        params: Code,
        response: { 200: Type.Object({ reference: Type.String(), title: Type.String(), owner: Type.String() }), ...ERRORS },
      },
    },
    async (req, reply) => {
      const card = await opened(req.params.code);
      // a guest may keep one: her list is her session's until she signs up
      const me = await acc.player(req, reply);
      if (!(await shares.keep(me.id, card.code, limits.maxKept))) throw noSuchShare(card.code); // stopped just now
      return { reference: sharedReference(card.code), title: titleOf(card.text, card.name), owner: card.owner };
    },
  );

  app.delete(
    '/shared-cards/:code/keep',
    {
      schema: {
        summary: "Takes a shared card off your list of cards (the card itself stays its owner's)",
        params: Code,
        response: { 200: Type.Object({ forgotten: Type.String() }), ...ERRORS },
      },
    },
    async (req) => {
      const code = normalShareCode(req.params.code);
      const me = await acc.current(req);
      if (me === null || !(await shares.forget(me.id, code))) {
        throw new TilemateError('TM_NOT_FOUND', SHARE_CODE.test(code) ? `The shared card ${sharedReference(code)} is not on your list.` : 'That shared card is not on your list.');
      }
      return { forgotten: sharedReference(code) };
    },
  );
});
