import { analysisInput, Analyzer } from '../../engine/mah-jongg/analyzer.js';
import { parseCard } from '../../engine/mah-jongg/card.js';
import { compileCard, type CompiledCard } from '../../engine/mah-jongg/compile.js';
import { TilemateError } from '../../engine/errors.js';
import { COPIES } from '../../engine/mah-jongg/tiles.js';
import { callAdvice, charlestonAdvice, courtesyAdvice, discardAdvice, voteAdvice } from '../../agents/mah-jongg/advice.js';
import { simulateForAnalyze, simulationJson } from '../shared/simulate.js';
import { lineResultJson } from '../shared/wire.js';
import { SERVER_CARD } from 'tilemate:offline-files';

/**
 * Which hand? with no connection: the answers of POST /api/analyze, /api/charleston,
 * /api/vote, /api/courtesy and /api/advice worked out in the browser by the same engine and
 * agents code the server runs (api/http/routes/analysis.ts, api/http/heavy-tasks.ts). The
 * server bundles this file for the browser with esbuild (api/http/offline-bundle.ts), with
 * its own card and the model files it reads, so the page's offline answers are the server's.
 *
 * The differences from the server are of budget only: the server shares its time among many
 * players (the heavy budget), a page's own tablet does not, so nothing here is cut short.
 */

/** A request's body, as the page sends it (the routes' schemas bound the same fields). */
export interface OfflineBody {
  [field: string]: unknown;
}

/** The routes worked out offline; any other needs the server. */
export const OFFLINE_ROUTES = ['/api/analyze', '/api/charleston', '/api/vote', '/api/courtesy', '/api/advice'] as const;

/** The posted text bounds of the routes' schemas (api/http/routes/schemas.ts): tiles 2000 characters, a card 20,000. */
const MAX_TILES = 2000;
const MAX_CARD = 20_000;
/** /api/analyze: most simulated deals, as the route (MAX_DEALS). */
const MAX_DEALS = 2000;
/** /api/advice: most sampled deals per choice, as the server's default limit (api/shared/limits.ts maxWorlds). */
const MAX_WORLDS = 200;

/** The last cards compiled, with their analyzers (compiling a card costs a fraction of a second). */
const kept = new Map<string, { cc: CompiledCard; analyzer: Analyzer }>();
function card(text: unknown): { cc: CompiledCard; analyzer: Analyzer } {
  const t = text === undefined ? SERVER_CARD : str(text, 'card', MAX_CARD);
  let hit = kept.get(t);
  if (hit === undefined) {
    const cc = compileCard(parseCard(t));
    hit = { cc, analyzer: new Analyzer(cc) };
    kept.set(t, hit);
    if (kept.size > 4) kept.delete(kept.keys().next().value!);
  }
  return hit;
}

function str(v: unknown, field: string, max: number): string {
  if (typeof v !== 'string') throw new TilemateError('TM_BAD_INPUT', `"${field}" must be text`);
  if (v.length > max) throw new TilemateError('TM_BAD_INPUT', `"${field}" is longer than ${max} characters`);
  return v;
}
const optStr = (v: unknown, field: string): string | undefined => (v === undefined ? undefined : str(v, field, MAX_TILES));
function optInt(v: unknown, field: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new TilemateError('TM_BAD_INPUT', `"${field}" must be a whole number from ${min} to ${max}`);
  return v;
}
function others(v: unknown): Record<string, string | undefined> {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object') throw new TilemateError('TM_BAD_INPUT', '"others" must hold right, across and left');
  const o = v as Record<string, unknown>;
  return { right: optStr(o.right, 'others.right'), across: optStr(o.across, 'others.across'), left: optStr(o.left, 'others.left') };
}
const direction = (v: unknown): 'right' | 'across' | 'left' => {
  if (v === undefined) return 'right';
  if (v === 'right' || v === 'across' || v === 'left') return v;
  throw new TilemateError('TM_BAD_INPUT', '"direction" must be right, across or left');
};

/** The answer of one route, as the server would give it; a TilemateError for bad input, as the server's 400. */
export function answer(path: string, b: OfflineBody): unknown {
  switch (path) {
    case '/api/analyze': {
      const { cc, analyzer } = card(b.card);
      const top = optInt(b.top, 'top', 1, 1000) ?? 5;
      const simulate = b.simulate === undefined || typeof b.simulate === 'boolean' ? (b.simulate as boolean | undefined) : optInt(b.simulate, 'simulate', 1, MAX_DEALS);
      const hand = str(b.hand, 'hand', MAX_TILES);
      // a typed hand, no game: the standard set (as the route)
      const input = analysisInput(COPIES, hand, optStr(b.exposed, 'exposed') ?? '', optStr(b.seen, 'seen') ?? '', others(b.others));
      const results = analyzer.analyze(input, { top: b.all === true ? cc.lineCount : top });
      const sim = simulateForAnalyze(cc, input, results, { simulate, seed: optInt(b.seed, 'seed', 0, 2 ** 32 - 1), wall: optInt(b.wall, 'wall', 0, 152) });
      return {
        hand,
        card: cc.card.name,
        ...(sim && { simulation: simulationJson(sim) }),
        results: results.map((r, i) => ({ ...lineResultJson(cc, r, input), ...sim?.lines[i] })),
      };
    }
    case '/api/charleston':
      return charlestonAdvice(card(b.card).cc, COPIES, { hand: str(b.hand, 'hand', MAX_TILES), direction: direction(b.direction), blind: b.blind === true });
    case '/api/vote':
      return voteAdvice(card(b.card).cc, COPIES, { hand: str(b.hand, 'hand', MAX_TILES) });
    case '/api/courtesy':
      return courtesyAdvice(card(b.card).cc, COPIES, { hand: str(b.hand, 'hand', MAX_TILES) });
    case '/api/advice': {
      const cc = card(b.card).cc;
      const input = {
        hand: str(b.hand, 'hand', MAX_TILES),
        exposed: optStr(b.exposed, 'exposed'),
        seen: optStr(b.seen, 'seen'),
        others: others(b.others),
        wall: optInt(b.wall, 'wall', 0, 152),
        ruleset: b.ruleset === undefined ? undefined : str(b.ruleset, 'ruleset', 40),
      };
      const search = { worlds: optInt(b.worlds, 'worlds', 1, MAX_WORLDS), seed: optInt(b.seed, 'seed', 0, 2 ** 32 - 1), candidates: optInt(b.candidates, 'candidates', 1, 10) };
      if (b.question === 'discard') return discardAdvice(cc, input, search);
      if (b.question !== 'call') throw new TilemateError('TM_BAD_INPUT', '"question" must be discard or call');
      if (b.tile === undefined) throw new TilemateError('TM_BAD_INPUT', 'call advice needs "tile": the discard to answer');
      const from = b.from === undefined || typeof b.from === 'number' ? (b.from as number | undefined) : str(b.from, 'from', 10);
      return callAdvice(cc, { ...input, tile: str(b.tile, 'tile', 10), from }, search);
    }
    default:
      throw new TilemateError('TM_NOT_FOUND', `${path} needs the server`);
  }
}

/** Runs a route; the server's error shape ({code, message}) on bad input, anything else thrown. */
export function run(path: string, body: OfflineBody): { ok: true; value: unknown } | { ok: false; code: string; message: string } {
  try {
    return { ok: true, value: answer(path, body) };
  } catch (err) {
    if (err instanceof TilemateError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
