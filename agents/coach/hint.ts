import {
  callAdvice,
  charlestonAdvice,
  seedOfKey,
  courtesyAdvice,
  discardAdvice,
  voteAdvice,
  type Alternative,
  type CourtesyAdvice,
  type VoteAdvice,
  type CharlestonAdvice,
  type DecisionAdvice,
  type MoveJson,
  type SearchOptions,
  type SituationInput,
} from '../mah-jongg/advice.js';
import type { Agent } from '../agent.js';
import { makeAgent } from '../mah-jongg/levels.js';
import { readingWords } from '../mah-jongg/reading-words.js';
import { deadCalls, tileSafety, type TileSafety } from '../mah-jongg/defence.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { ruleViolation, TilemateError } from '../../engine/errors.js';
import type { Action, Exposure, SeatView } from '../../engine/mah-jongg/game.js';
import { seedRng } from '../../engine/rng.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { formatTiles, parseTile, tileName, tilesFromCounts, type TileId } from '../../engine/mah-jongg/tiles.js';

/**
 * The coach's hint: advice for the decision a seat faces in a live game (and, in the
 * review, in a replayed one): the seat's view turned into the situation a person would type
 * for agents/mah-jongg/advice.ts, and the advice's choice turned back into one of the seat's legal
 * actions. Built from the view only, so it knows no more than the seat does. It answers
 * with engine actions; api/shared/wire.ts writes it as JSON for the page.
 */

export interface Hint {
  kind: 'charleston' | 'vote' | 'courtesy' | 'draw' | 'discard' | 'claims';
  /** One sentence a beginner understands (the page shows it). */
  text: string;
  /** The figures behind it (discard and call advice), for a "details" toggle. */
  details?: string;
  /** The legal action advised (a Charleston pass or courtesy offer: the tiles chosen). */
  action: Action;
  /** Rack tiles the advice names (to pass, to discard, to give). */
  tiles: TileId[];
  /** Received tiles passed on unseen (Charleston). */
  blind?: number;
  /** Discard and claims: every choice weighed, best first, each with its legal action. */
  alternatives?: (Alternative & { legal: Action | null })[];
  advice?: CharlestonAdvice | DecisionAdvice | VoteAdvice | CourtesyAdvice;
  /** Discard decisions: how safe each tile on the rack is to discard (agents/mah-jongg/defence.ts, from the view only). */
  defence?: TileSafety[];
  /** A hand she may call dead now, with the reason in one sentence ("Call Across's hand dead: ..."). */
  callDead?: { action: Action; text: string };
  /** On her turn: what each opponent is likely making, a sentence each, read from the table (agents/mah-jongg/reading-words.ts). */
  table?: string[];
}

export interface HintOptions {
  /** Sampled deals for discard and call advice (default agents/mah-jongg/advice.ts ADVICE_WORLDS, as the review and Which hand? use). */
  worlds?: number;
  /** The playouts' budget (agents/mah-jongg/advice.ts SearchOptions.afford). */
  afford?: SearchOptions['afford'];
}

const exposuresText = (xs: readonly Exposure[]): string =>
  xs.map((x) => [...new Array<string>(x.size - x.jokers).fill(tileName(x.tile)), ...new Array<string>(x.jokers).fill('J')].join(' ')).join('; ');

/** Where `other` sits from `seat`: right (plays after), across, left (plays before). */
function direction(seat: number, other: number, players: number): 'right' | 'across' | 'left' {
  const d = (other - seat + players) % players;
  return d === 1 ? 'right' : d === players - 1 ? 'left' : 'across';
}

/** The seat's situation as a person types it (agents/mah-jongg/advice.ts puts her at seat 0). */
export function situationOf(v: SeatView): SituationInput & { tile?: string; from?: number } {
  const n = v.players;
  const seen: TileId[] = [];
  v.discards.forEach((d, s) => {
    // the discard being claimed is the advice's `tile`, not a seen one
    const upTo = v.claim && s === v.claim.discarder ? d.length - 1 : d.length;
    for (let i = 0; i < upTo; i++) seen.push(d[i]);
  });
  const others: SituationInput['others'] = {};
  for (let s = 0; s < n; s++) if (s !== v.seat && v.exposures[s].length > 0) others[direction(v.seat, s, n)] = exposuresText(v.exposures[s]);
  const input: SituationInput & { tile?: string; from?: number } = {
    hand: formatTiles(tilesFromCounts(v.concealed)),
    exposed: exposuresText(v.exposures[v.seat]),
    seen: formatTiles(seen),
    others,
    wall: v.wallLeft,
    ruleset: v.ruleset,
  };
  if (v.claim) {
    input.tile = tileName(v.claim.tile);
    input.from = (v.claim.discarder - v.seat + n) % n;
  }
  return input;
}

/** The advice's move as the seat's engine action (advice seats the person at 0 and names the others by where they sit). */
function moveAction(m: MoveJson, v: SeatView): Action | null {
  const seat = v.seat,
    n = v.players;
  switch (m.type) {
    case 'discard':
      return { type: 'discard', seat, tile: parseTile(m.tile!) };
    case 'declare':
      return { type: 'declare', seat };
    case 'decline':
      return { type: 'decline', seat };
    case 'call':
      return { type: 'call', seat, size: m.size!, jokers: m.jokers! };
    case 'callMahJongg':
      return { type: 'callMahJongg', seat };
    case 'exchange': {
      const owner = m.owner === 'you' ? seat : [...Array(n).keys()].find((s) => s !== seat && direction(seat, s, n) === m.owner);
      return owner === undefined ? null : { type: 'exchange', seat, owner, exposure: m.exposure! };
    }
    default:
      return null;
  }
}

/** The legal action matching an engine action (the legal list holds the rack, on Siamese tables, and the seat). */
function findLegal(a: Action | null, legal: readonly Action[]): Action | null {
  if (a === null) return null;
  const same = (b: Action): boolean => {
    if (b.type !== a.type) return false;
    switch (a.type) {
      case 'discard':
        return (b as typeof a).tile === a.tile;
      case 'call':
        return (b as typeof a).size === a.size && (b as typeof a).jokers === a.jokers;
      case 'exchange':
        return (b as typeof a).owner === a.owner && (b as typeof a).exposure === a.exposure;
      default:
        return true;
    }
  };
  return legal.find(same) ?? null;
}

const upper = (s: string): string => s.replace(/^./, (c) => c.toUpperCase());

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function bot(cc: CompiledCard, v: SeatView): Agent {
  return makeAgent('medium', cc, loadRuleset(v.ruleset));
}

/**
 * A seed drawn from what the seat sees at this moment, as the advice draws its own from the
 * decision (agents/mah-jongg/advice.ts decisionSeed): the hint and the review of the same moment give
 * the same answer where the medium bot stands in for the advice.
 */
function viewSeed(v: SeatView): number {
  return seedOfKey(JSON.stringify([v.ruleset, v.phase, v.seat, v.concealed, v.exposures, v.discards, v.wallLeft, v.claim ?? null]));
}

function botChoice(cc: CompiledCard, v: SeatView, legal: readonly Action[]): Action {
  return bot(cc, v).act({ seat: v.seat, phase: v.phase as Exclude<SeatView['phase'], 'ended'>, view: () => v, legal: () => [...legal], rng: seedRng(viewSeed(v)) });
}

/**
 * Advice for the seat's current decision. Refused (TM_NOT_YOUR_TURN) when the seat has
 * nothing to decide. Discard and call advice come from playouts (agents/mah-jongg/advice.ts); the
 * Charleston pass from the strong habits' pass, the vote and the courtesy offer from the
 * lookahead (agents/mah-jongg/advice.ts, as Which hand? and `tilemate advise` answer them); games the
 * advice functions do not cover (Siamese
 * racks) fall back to the medium bot. Every text is one plain sentence; figures go in `details`.
 */
export function hintFor(cc: CompiledCard, v: SeatView, legal: readonly Action[], opts: HintOptions): Hint {
  return withDefence(cc, v, legal, adviceHint(cc, v, legal, opts));
}

/**
 * Defence (issue 29) added to a hint: at a discard, how safe each tile is; on her own turn,
 * a hand the table proves dead (teaching guide 6.6), offered with the reason. At the draw the
 * dead call is the hint itself (drawing can wait: it is her turn either way); at the discard
 * it stands beside the discard advice, which the review also reads.
 */
function withDefence(cc: CompiledCard, v: SeatView, legal: readonly Action[], hint: Hint): Hint {
  if (v.phase !== 'draw' && v.phase !== 'discard') return hint;
  let out = hint;
  const reads = readingWords(cc, v);
  if (reads.length > 0) out = { ...out, table: reads.map((r) => r.text) };
  if (v.phase === 'discard') out = { ...out, defence: tileSafety(cc, v) };
  const legalDead = legal.filter((a): a is Extract<Action, { type: 'callDead' }> => a.type === 'callDead');
  if (legalDead.length === 0) return out;
  const calls = deadCalls(cc, v);
  const call = calls.find((c) => legalDead.some((a) => a.target === c.target && (a.rack ?? 0) === c.rack));
  if (call === undefined) return out;
  const action = legalDead.find((a) => a.target === call.target && (a.rack ?? 0) === call.rack)!;
  out = { ...out, callDead: { action, text: call.text } };
  if (v.phase === 'draw') out = { ...out, text: call.text, action, tiles: [] };
  return out;
}

function adviceHint(cc: CompiledCard, v: SeatView, legal: readonly Action[], opts: HintOptions): Hint {
  if (legal.length === 0 || v.phase === 'ended') throw new TilemateError('TM_NOT_YOUR_TURN', `seat ${v.seat} has nothing to decide now`);
  const kind = v.phase;
  const singleRack = v.dead[v.seat].length === 1;
  const hand = formatTiles(tilesFromCounts(v.concealed));
  if (kind === 'charleston') {
    const declare = legal.find((a) => a.type === 'declare');
    const dir = v.passOffset === 2 ? 'across' : v.passOffset === v.players - 1 ? 'left' : 'right';
    const advice = charlestonAdvice(cc, v.copies, { hand, direction: dir, blind: v.blindAllowed === true });
    // standardized rules 4.4: East's dealt Mah Jongg is declared instead of passing
    if (declare) return { kind, text: 'Declare Mah Jongg: your hand is already complete.', details: upper(advice.why), action: declare, tiles: [], advice };
    const tiles = advice.pass.map(parseTile);
    const action: Action = { type: 'pass', seat: v.seat, tiles, blind: advice.blind };
    const to = dir === 'across' ? 'across' : `to the ${dir}`;
    // the plan: the family the pass keeps her on and why, true of the lines kept (agents/mah-jongg/advice.ts charlestonPlan)
    const aim = advice.plan.family === '' ? '' : ` and ${advice.plan.text.replace(/^./, (c) => c.toLowerCase())}`;
    const text =
      advice.blind > 0
        ? `Pass ${advice.pass.length > 0 ? `${list(advice.pass)} and ` : ''}${advice.blind} of the tiles you receive ${to} without looking at them (a blind pass)${aim || `: ${advice.pass.length > 0 ? 'every other tile' : 'every tile'} on your rack helps your hand.`}`
        : `Pass ${list(advice.pass)} ${to}${aim || `: ${advice.pass.length === 1 ? 'it helps' : 'they help'} your hand least.`}`;
    return { kind, text, details: upper(advice.why), action, tiles, blind: advice.blind, advice };
  }
  if (kind === 'vote' && singleRack) {
    const advice = voteAdvice(cc, v.copies, { hand });
    const a = legal.find((x) => x.type === 'vote' && x.yes === advice.secondCharleston) ?? botChoice(cc, v, legal);
    return {
      kind,
      text: advice.why,
      details: `Closest line ${advice.tilesAwayNow} tiles away now; ${advice.expectedAway} on average after three more passes, over sampled passes.`,
      action: a,
      tiles: [],
      advice,
    };
  }
  if (kind === 'courtesy' && singleRack) {
    const advice = courtesyAdvice(cc, v.copies, { hand });
    const offer = advice.offer.map(parseTile).sort((x, y) => x - y);
    const a = legal.find((x) => x.type === 'courtesy' && x.tiles.length === offer.length && [...x.tiles].sort((p, q) => p - q).every((t, i) => t === offer[i])) ?? botChoice(cc, v, legal);
    const tiles = a.type === 'courtesy' ? [...a.tiles] : [];
    return {
      kind,
      text: advice.why,
      details: `Closest line ${advice.tilesAwayNow} tiles away now; ${advice.expectedAway} on average after the exchange, over sampled exchanges.`,
      action: a,
      tiles,
      advice,
    };
  }
  if (kind === 'vote' || kind === 'courtesy') {
    const a = botChoice(cc, v, legal);
    const text =
      a.type === 'vote'
        ? a.yes
          ? 'Vote yes: three more passes can bring your hand closer to Mah Jongg.'
          : 'Vote no: your hand could lose tiles it needs in three more passes.'
        : a.type === 'courtesy' && a.tiles.length > 0
          ? `Offer ${list(a.tiles.map(tileName))}: ${a.tiles.length === 1 ? 'it helps' : 'they help'} your hand least.`
          : 'Offer nothing: giving tiles across would likely not help your hand.';
    return { kind, text, action: a, tiles: a.type === 'courtesy' ? [...a.tiles] : [] };
  }
  if (kind === 'draw') {
    const draw = legal.find((a) => a.type === 'draw') ?? legal[0];
    return { kind, text: 'Draw a tile from the wall.', action: draw, tiles: [] };
  }
  if (!singleRack) {
    const a = botChoice(cc, v, legal);
    const what =
      a.type === 'discard'
        ? `Discard ${tileName(a.tile)}`
        : a.type === 'decline'
          ? 'Let it go'
          : a.type === 'call'
            ? 'Call it'
            : a.type === 'declare' || a.type === 'callMahJongg'
              ? 'Take Mah Jongg'
              : upper(a.type);
    return {
      kind,
      text: `${what}: it is what a steady player would do here.`,
      details: "Siamese racks: the medium bot's choice (the playout advice covers single-rack games).",
      action: a,
      tiles: a.type === 'discard' ? [a.tile] : [],
    };
  }
  const input = situationOf(v);
  const advice =
    kind === 'discard'
      ? discardAdvice(cc, input, { worlds: opts.worlds, afford: opts.afford })
      : callAdvice(cc, { ...input, tile: input.tile!, from: input.from }, { worlds: opts.worlds, afford: opts.afford });
  const alternatives = advice.alternatives.map((alt) => ({ ...alt, legal: findLegal(moveAction(alt.move, v), legal) }));
  const chosen = alternatives.find((x) => x.legal !== null);
  if (!chosen) ruleViolation(`the advice "${advice.suggestion}" matches no legal action`);
  const tiles = chosen.move.type === 'discard' || chosen.move.type === 'exchange' ? [parseTile(chosen.move.tile!)] : [];
  return { kind, text: advice.plain, details: advice.details, action: chosen.legal!, tiles, alternatives, advice };
}
