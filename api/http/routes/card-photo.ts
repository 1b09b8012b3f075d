import { Type } from 'typebox';
import { TilemateError } from '../../../engine/errors.js';
import type { PhotoDraft, UnsureLine } from '../../../io/card-photo.js';
import { PHOTO_ROUTE_LIMITS, type PhotoRouteLimits } from '../../shared/limits.js';
import type { PrintedCard } from '../../../engine/mah-jongg/printed-card.js';
import { asker } from '../accounts.js';
import { routes } from '../services.js';
import { PrintedCardSchema } from './cards.js';
import { ERRORS } from './schemas.js';

/**
 * POST /api/cards/photo: a photo of a printed card (the image itself as the body, PNG or
 * JPEG) read into a draft card for the editor (io/card-photo.ts), with the lines to check.
 *
 * Reading a photo takes seconds of OCR, in the OCR's own worker thread, so other requests go
 * on meanwhile. The server reads one photo at a time; a few more may wait their turn, and one
 * more than that is refused at once (TM_BUSY) rather than kept waiting for minutes. A photo
 * is bounded in bytes (its own body limit, here only) and in pixels (checked from its header
 * before it is decoded), and on the heavy budget of its address.
 */

const TYPES = ['image/png', 'image/jpeg'];

const Unsure = Type.Object({
  section: Type.String(),
  line: Type.Integer({ description: "the line's place in its section, from 1" }),
  id: Type.String(),
  groups: Type.String({ description: 'the groups as read, as printed' }),
  reason: Type.String({ description: 'why to check it, one plain sentence' }),
});

/**
 * One photo at a time, a few waiting: a turn, or TM_BUSY at once. Fair between people (issue
 * 63): each person (her session, her game, or her address: api/http/accounts.ts asker) has one
 * photo read or waiting at a time, so one person's photos cannot fill the queue for everyone.
 */
class Turns {
  private running = false;
  private readonly queue: (() => void)[] = [];
  private readonly people = new Set<string>();
  constructor(private readonly waiting: number) {}

  async run<T>(person: string, job: () => Promise<T>): Promise<T> {
    if (this.people.has(person)) throw new TilemateError('TM_BUSY', 'your last photo is still being read: wait for it, then send the next');
    if (this.running && this.queue.length >= this.waiting) throw new TilemateError('TM_BUSY', 'the server is reading other photos of cards just now; try again in a minute');
    this.people.add(person);
    try {
      if (this.running) await new Promise<void>((go) => this.queue.push(go));
      this.running = true;
      try {
        return await job();
      } finally {
        const next = this.queue.shift();
        if (next) next();
        else this.running = false;
      }
    } finally {
      this.people.delete(person);
    }
  }
}

const mb = (bytes: number): string => `${Math.round(bytes / 1048576)} MB`;

/** Servers in this process that read photos. */
let servers = 0;
/** The reader (sharp and the OCR), loaded with the first photo: a server that is sent none never loads it. */
let reader: Promise<typeof import('../../../io/card-photo.js')> | null = null;
const photoReader = () => (reader ??= import('../../../io/card-photo.js'));

export const cardPhotoRoutes = routes('card-photo', ['heavy'], (app, ctx, opts: { limits?: Partial<PhotoRouteLimits> }) => {
  const limits = { ...PHOTO_ROUTE_LIMITS, ...opts.limits };
  const turns = new Turns(limits.waiting);
  // the OCR's worker is the process's: ended with the last server that reads photos
  servers++;
  app.addHook('onClose', async () => {
    if (--servers === 0 && reader !== null) await (await reader).closeCardPhotoReader();
  });
  // a context of its own: the images' parser and the larger body limit are this route's alone
  app.register(async (photo) => {
    // the body as bytes, whatever its type: the route names what it takes in words, not fastify's 415
    photo.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.maxBytes }, (_req, body, done) => done(null, body));
    photo.post(
      '/cards/photo',
      {
        bodyLimit: limits.maxBytes,
        preHandler: ctx.heavy,
        // a photo too large is refused from its declared length, before it is received
        onRequest: async (req) => {
          const length = Number(req.headers['content-length'] ?? NaN);
          if (length > limits.maxBytes) throw new TilemateError('TM_BODY_TOO_LARGE', `the photo is ${(length / 1048576).toFixed(1)} MB; a photo of a card may be at most ${mb(limits.maxBytes)}`);
        },
        schema: {
          summary: 'A photo of a printed card (the image itself as the body, Content-Type image/png or image/jpeg) read into a draft card for the editor, with the lines to check and why',
          consumes: TYPES,
          response: { 200: Type.Object({ card: PrintedCardSchema, unsure: Type.Array(Unsure) }), ...ERRORS },
        },
      },
      async (req): Promise<{ card: PrintedCard; unsure: UnsureLine[] }> => {
        const type = String(req.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase();
        if (!TYPES.includes(type) || !Buffer.isBuffer(req.body)) {
          throw new TilemateError('TM_BAD_INPUT', `send the photo itself as the body, with Content-Type image/png or image/jpeg${type ? `, not ${type.slice(0, 60)}` : ''}`);
        }
        const bytes = req.body;
        const draft: PhotoDraft = await turns.run(asker(req).person, async () => (await photoReader()).readCardPhoto(bytes, { timeoutMs: limits.timeoutMs }));
        return { card: draft.card, unsure: draft.unsure };
      },
    );
  });
});
