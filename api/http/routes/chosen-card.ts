import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import { CardShareStore, noSuchShare, sharedCode, sharedReference } from '../../store/card-shares.js';
import type { Player } from '../../store/players.js';
import { signedIn } from '../accounts.js';
import { routes, type Services } from '../services.js';
import { ERRORS, Strict } from './schemas.js';

/**
 * The card she chose follows her account (issue 62): the card every page starts on
 * (api/web/chosen-card.js) is kept in each browser, and, while she is signed in, with her
 * account too, so a phone or a new browser signed in to it starts on the same card. Only she
 * reads or changes it: the routes answer for the session's own player, and nobody else's.
 * Signed out, each device keeps its own choice, as before: a choice sent then is kept nowhere
 * (`kept: false`, not an error, since every page sends hers whether or not she is signed in).
 */

/** A choice as the pages name it: '' (the practice card), a saved card's name, or shared:CODE in any case. */
const CHOICE = '^(?:|[a-z0-9][a-z0-9-]{0,39}|shared:[A-Za-z0-9]{1,20})$';

const Chosen = Type.Object({
  card: Type.Union([Type.String(), Type.Null()], {
    description: "the card you chose: a saved card's name, shared:CODE for a card shared with you, '' for the practice card; null when you have not chosen one while signed in",
  }),
});

/** The words for a request with no account: her choice stays on this device. */
const SIGN_IN = 'Sign in first: only then is the card you choose kept with your account for your other devices.';

/**
 * The choice as it is kept, once she may make it: '' as it is, her own saved card by its name
 * (her own shared card too), another's shared card as shared:CODE when it is on her list of
 * cards (kept by her, or her coach's). TM_NOT_FOUND in one sentence otherwise.
 */
async function checkedChoice(ctx: Pick<Services, 'players'>, me: Player, card: string): Promise<string> {
  if (card === '') return '';
  const code = sharedCode(card);
  if (code === null) {
    if ((await ctx.players.card(me.id, card)) === null) throw new TilemateError('TM_NOT_FOUND', `You have no saved card named ${card}.`);
    return card;
  }
  const shares = new CardShareStore(ctx.players.db);
  const shared = await shares.open(code);
  if (shared === null) throw noSuchShare(code);
  if (shared.ownerId === me.id) return shared.name; // her own card is chosen by its own name
  const listed = (await shares.isKept(me.id, shared.code)) || (await ctx.players.coaches(me.id)).some((c) => c.id === shared.ownerId);
  if (!listed) throw new TilemateError('TM_NOT_FOUND', 'That shared card is not on your list of cards yet, so open it by its code first.');
  return sharedReference(shared.code);
}

export const chosenCardRoutes = routes('chosen-card', ['accounts', 'players'], (app, ctx) => {
  const { accounts: acc, players } = ctx;

  /** The signed-in player, or TM_UNAUTHORIZED in words about her choice. */
  const her = async (req: FastifyRequest) => {
    try {
      return await signedIn(acc, req);
    } catch (e) {
      if (e instanceof TilemateError && e.code === 'TM_UNAUTHORIZED') throw new TilemateError('TM_UNAUTHORIZED', SIGN_IN);
      throw e;
    }
  };

  app.get(
    '/chosen-card',
    {
      schema: {
        summary: 'The card you chose for every page, kept with your account (signed in only; GET /api/cards also answers it, as chosen)',
        response: { 200: Chosen, ...ERRORS },
      },
    },
    async (req) => ({ card: await players.chosenCard((await her(req)).id) }),
  );

  app.put(
    '/chosen-card',
    {
      schema: {
        summary: 'Keeps the card you choose for every page with your account, so your other devices start on it (signed out: kept nowhere, kept false)',
        body: Strict(
          {
            card: Type.String({
              maxLength: 48,
              pattern: CHOICE,
              description: "one of your saved cards by its name, shared:CODE for a card on your list that someone shares, or '' for the practice card",
            }),
          },
          { examples: [{ card: 'club-card' }, { card: 'shared:K7MQ2PXR' }, { card: '' }] },
        ),
        response: {
          200: Type.Object({
            card: Type.String({ description: 'the card chosen, as the pages name it' }),
            kept: Type.Boolean({ description: 'kept with your account; false when you are not signed in (it stays on your device)' }),
          }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      const me = await acc.current(req);
      // signed out (or a guest): her choice stays on her device, and nothing is kept here
      if (me === null || me.name === null) return { card: req.body.card, kept: false };
      const card = await checkedChoice(ctx, me, req.body.card);
      await players.chooseCard(me.id, card);
      return { card, kept: true };
    },
  );
});
