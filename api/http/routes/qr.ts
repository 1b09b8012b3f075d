import { Type } from 'typebox';
import { routes } from '../services.js';
import { ERRORS } from './schemas.js';

/**
 * A page of this site as a QR code (issue 63): the address of `path` on the host the request
 * came to, drawn as SVG, for what a director prints (each player's slip at a table card takes
 * her straight to her score card). Only a page of this site with a short query, so the route
 * draws nothing else and no request can ask for much work.
 */

/** A page of this site, with an optional query of plain letters, digits and = & _ . - (a card code, an event code). */
const PAGE = /^\/[a-z][a-z-]{0,30}\.html(\?[A-Za-z0-9=&_.-]{1,160})?$/;

export const qrRoutes = routes('qr', [], (app) => {
  app.get(
    '/qr.svg',
    {
      schema: {
        summary: "A page of this site as a QR code (SVG): a player's score card on her slip, for instance",
        querystring: Type.Object({ path: Type.String({ maxLength: 200, pattern: PAGE.source, description: 'the page and its query, such as /scorecard.html?event=AB12CD&card=XY34' }) }),
        response: { 200: Type.String({ description: 'the QR code, image/svg+xml' }), ...ERRORS },
      },
    },
    async (req, reply) => {
      // qrcode is loaded when a code is first drawn, not at every start of the server
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(`${req.protocol}://${req.host}${req.query.path}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      // it may hold a player's card code: kept by her browser only
      return reply.type('image/svg+xml').header('cache-control', 'private, max-age=3600').send(svg);
    },
  );
});
