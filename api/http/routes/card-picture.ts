import { Type } from 'typebox';
import type { DrawnCard } from '../../shared/card-drawing.js';
import { asker } from '../accounts.js';
import { routes } from '../services.js';
import { CARD_LIMITS } from '../../shared/limits.js';
import { ERRORS, Strict } from './schemas.js';

/**
 * A card drawn as it is printed (issue 44): POST a card's text, get back its picture as PNG,
 * PDF (letter pages) or SVG, named after the card, to print or share. Drawing a long card
 * takes a worker a noticeable time, so it runs in the pool on the heavy budget, as a card's
 * check does; a card that does not read is answered with the parser's error.
 */

const Picture = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description: "the picture: image/png, application/pdf or image/svg+xml, with a content-disposition file name made from the card's name",
});

export const cardPictureRoutes = routes('card-picture', ['heavy', 'pool'], (app, ctx) => {
  app.post(
    '/cards/picture',
    {
      preHandler: ctx.heavy,
      schema: {
        summary: "A card drawn as it is printed (groups in their suits' colours, notes, X or C and values, sections as headings), as PNG, PDF or SVG",
        body: Strict(
          {
            text: Type.String({
              maxLength: CARD_LIMITS.maxChars,
              description: `a whole card in the notation (docs/card-notation.md), up to ${CARD_LIMITS.maxChars.toLocaleString('en-US')} characters`,
            }),
            format: Type.Union([Type.Literal('png'), Type.Literal('pdf'), Type.Literal('svg')], { description: 'png (1700 pixels wide), pdf (letter pages) or svg' }),
            columns: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1, or 2 side by side like a printed card (default 2)' })),
          },
          { examples: [{ text: 'card: My card\n[Evens]\n22a 444a 6666a 888a FF ; x 25\n', format: 'svg', columns: 2 }] },
        ),
        response: { 200: Picture, ...ERRORS },
      },
    },
    async (req, reply) => {
      const { text, format, columns } = req.body;
      const drawn = await ctx.pool.request<DrawnCard>({ kind: 'card-picture', text, format, columns }, asker(req));
      const bytes = Buffer.from(drawn.bytes.buffer, drawn.bytes.byteOffset, drawn.bytes.byteLength);
      return (
        reply
          .type(drawn.contentType)
          // the file name is the card's name made of a-z, 0-9 and hyphens only (pictureFileName), so it needs no quoting beyond this
          .header('content-disposition', `attachment; filename="${drawn.fileName}"`)
          .send(bytes)
      );
    },
  );
});
