import type { FastifyRequest } from 'fastify';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { asker } from './accounts.js';
import type { Services } from './services.js';

/**
 * A card compiled for the server's own use (a new game on it, a record played on from, a
 * record stepped through): taken from the server's cache, or compiled in the worker pool on
 * the asker's heavy budget and kept (a large card takes a worker a fraction of a second, which
 * the event loop, answering everyone, must not spend).
 */
export async function compiledCard(ctx: Pick<Services, 'cards' | 'heavy' | 'pool'>, req: FastifyRequest, text: string): Promise<CompiledCard> {
  if (ctx.cards.has(text)) return ctx.cards.compile(text);
  await ctx.heavy(req);
  return ctx.cards.adopt(await ctx.pool.request<CompiledCard>({ kind: 'compile-card', text }, asker(req)));
}

/** The card text a Mah Jongg record's header keeps (null for a record of another game, or one that does not say). */
export function recordCardText(record: string): string | null {
  try {
    const header = JSON.parse(record.slice(0, record.indexOf('\n') >>> 0)) as { card?: { text?: unknown } };
    return typeof header.card?.text === 'string' ? header.card.text : null;
  } catch {
    return null; // the replay names what is wrong with it
  }
}

/** Compiles the card of a record (if it has one) before the record is replayed on the event loop. */
export async function compileRecordCard(ctx: Pick<Services, 'cards' | 'heavy' | 'pool'>, req: FastifyRequest, record: string): Promise<void> {
  const text = recordCardText(record);
  if (text !== null) await compiledCard(ctx, req, text);
}
