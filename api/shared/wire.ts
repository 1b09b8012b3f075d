import type { AnalysisInput, LineResult } from '../../engine/mah-jongg/analyzer.js';
import { reason } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { type ErrorCode, ERRORS, ruleViolation } from '../../engine/errors.js';
import type { Action, Exposure, GameResult, SeatView } from '../../engine/mah-jongg/game.js';
import { encodeAction, MAH_JONGG, type MahJonggGame, type MahJonggSpec } from '../../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../../engine/mah-jongg/rulesets.js';
import { lineName, type Alternative } from '../../agents/mah-jongg/advice.js';
import type { Hint } from '../../agents/coach/hint.js';
import type { Review, ReviewedDecision } from '../../agents/coach/review.js';
import type { GameWire } from './game-wire.js';
import { GREEN, JOKER, KINDS, RED, SOAP, SUITS, suited, tileName, tilesFromCounts, type TileId } from '../../engine/mah-jongg/tiles.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * The JSON forms the HTTP API speaks (docs/api.md): a seat's view, its legal actions, the
 * actions applied since, the result, and the card analysis tile by tile. Tiles are names
 * (`5B`, `N`, `RD`, `J`), never engine ids; seats are numbers from East (0). Everything
 * here is pure: routes call these on a state they hold and send what comes back.
 */

// ------------------------------------------------------------------ errors

/** The HTTP status of an error code, from the one table of codes (engine/errors.ts). */
export const httpStatus = (code: ErrorCode): number => ERRORS[code].status;

export interface ErrorJson {
  code: string;
  message: string;
}

// ------------------------------------------------------------------ actions

/**
 * An action as JSON: the engine's action with tile names. `seat` may be left out when
 * posting (the token says which seat acts). Extra fields (`claimTile` on a call, `tile` on
 * an exchange) describe the action for the page and are ignored when it is posted back.
 */
export interface ActionJson {
  type: Action['type'];
  seat?: number;
  tile?: string;
  tiles?: string[];
  blind?: number;
  yes?: boolean;
  owner?: number;
  exposure?: number;
  rack?: number;
  both?: boolean;
  size?: number;
  jokers?: number;
  target?: number;
}

/** An action that names its seat, as the server sends it. */
export type SeatedActionJson = ActionJson & { seat: number };

/** An engine action as JSON: the game's codec (engine/mah-jongg/mah-jongg.ts), tiles by name, optional fields only when set. */
export const actionJson = (a: Action): SeatedActionJson => encodeAction(a) as unknown as SeatedActionJson;

/**
 * A legal action as the page shows it. The Charleston and courtesy passes are many
 * combinations of tiles: each is one entry saying how many tiles to choose
 * (`choose: {min, max}`, and `blindUpTo` received tiles passed on unseen, tiles + blind = 3).
 */
export interface LegalJson extends ActionJson {
  seat: number;
  choose?: { min: number; max: number };
  blindUpTo?: number;
  /** For a call or a call for Mah Jongg: the discard being called. */
  claimTile?: string;
  /** Mah Jongg in error: allowed, but the hand is not Mah Jongg, so declaring it makes the hand dead. */
  inError?: true;
}

export function legalJson(actions: readonly Action[], v: SeatView): LegalJson[] {
  const out: LegalJson[] = [];
  let pass: LegalJson | null = null;
  let courtesy = false;
  for (const a of actions) {
    if (a.type === 'pass') {
      const blind = a.blind ?? 0;
      if (pass === null) {
        pass = { type: 'pass', seat: a.seat, choose: { min: 3, max: 3 }, blindUpTo: 0 };
        out.push(pass);
      }
      if (blind > pass.blindUpTo!) {
        pass.blindUpTo = blind;
        pass.choose!.min = 3 - blind;
      }
      continue;
    }
    if (a.type === 'courtesy') {
      if (!courtesy) {
        courtesy = true;
        out.push({ type: 'courtesy', seat: a.seat, choose: { min: 0, max: 3 } });
      }
      continue;
    }
    const j: LegalJson = actionJson(a);
    if (a.type === 'exchange') j.tile = tileName(v.exposures[a.owner][a.exposure].tile);
    if ((a.type === 'call' || a.type === 'callMahJongg' || a.type === 'decline') && v.claim) j.claimTile = tileName(v.claim.tile);
    out.push(j);
  }
  return out;
}

// ------------------------------------------------------------------ the seat's view

export interface ExposureJson {
  tile: string;
  size: number;
  jokers: number;
  /** The tiles as they lie on the rack, naturals then jokers. */
  tiles: string[];
  rack: number;
  exchangeable: boolean;
}

export interface SeatJson {
  seat: number;
  /** Concealed tiles on the seat's racks: a count only (the rack itself only for the viewer, in `rack`). */
  concealedCount: number;
  exposures: ExposureJson[];
  discards: string[];
  /** Dead hands, per rack. */
  dead: boolean[];
}

export type PromptJson =
  | { kind: 'charleston'; pass: number; charleston: 'first' | 'second'; direction: 'right' | 'across' | 'left'; to: number; blindAllowed: boolean; mahJonggAllowed: boolean }
  | { kind: 'vote' }
  | { kind: 'courtesy'; partner: number; max: number }
  | { kind: 'draw' }
  | { kind: 'discard'; mahJonggAllowed: boolean }
  | { kind: 'claims'; tile: string; discarder: number }
  | { kind: 'wait' }
  | { kind: 'ended' };

export interface MahJonggJson {
  seat: number;
  rack: number;
  /** The card line's id ("2468 #2"). */
  line: string;
  /** The line as players name it ("the second 2468 line": agents/mah-jongg/advice.ts lineName), when the card is known. */
  name?: string;
  value: number;
  tiles: string[];
}

export interface ResultJson {
  winners: number[];
  wallGame: boolean;
  scores: number[];
  /** Itemised score lines (who, points, why). */
  lines: { seat: number; points: number; why: string }[];
  /** Every seat's concealed tiles at the end (only once the game has ended). */
  hands: string[][];
  /** The game's seed (only once the game has ended). */
  seed: number;
}

export interface ViewJson {
  seat: number;
  ruleset: string;
  players: number;
  phase: SeatView['phase'];
  /** What the game asks of this seat now (`wait` when it waits on other seats). */
  prompt: PromptJson;
  /** Whether this seat has something to decide now. */
  yourTurn: boolean;
  /** Seats the game waits on. */
  waitingOn: number[];
  /** Whose turn it is in play (the discarder during a claim window). */
  turn: number;
  /** The discard on the table in a claim window, and whether this seat has answered. */
  claim: { tile: string; discarder: number; answered: boolean } | null;
  wallLeft: number;
  dice: number[];
  /** This seat's concealed tiles, sorted as a player racks them. */
  rack: string[];
  seats: SeatJson[];
  mahJonggs: MahJonggJson[];
  /** How the current turn began: `deal`, `wall`, or `discard` (with the discarder). */
  turnFrom: { from: 'deal' | 'wall' | 'discard'; discarder?: number };
  exchangedFromOther: boolean;
  result: ResultJson | null;
}

const DIRECTION: Record<number, 'right' | 'across' | 'left'> = { 1: 'right', 2: 'across', 3: 'left' };

export function exposureJson(x: Exposure): ExposureJson {
  const tiles = [...new Array<string>(x.size - x.jokers).fill(tileName(x.tile)), ...new Array<string>(x.jokers).fill('J')];
  return { tile: tileName(x.tile), size: x.size, jokers: x.jokers, tiles, rack: x.rack, exchangeable: x.exchangeable };
}

function resultJsonOf(r: GameResult, reveal: NonNullable<SeatView['reveal']>): ResultJson {
  return {
    winners: [...r.winners],
    wallGame: r.wallGame,
    scores: [...r.scores],
    lines: r.lines.map((l) => ({ seat: l.seat, points: l.points, why: l.why })),
    hands: reveal.concealed.map((c) => tilesFromCounts(c).map(tileName)),
    seed: reveal.seed,
  };
}

/**
 * The JSON of a seat's view. It is built from the engine's `view` only, so it holds what
 * the seat may see and nothing more: other racks as counts, no wall order, no seed until
 * the end. `legal` (the seat's legal actions) sets `yourTurn` and the prompt's options.
 */
export function viewJson(v: SeatView, legal: readonly Action[], firstCharlestonPasses = 3, cc?: CompiledCard): ViewJson {
  const yourTurn = legal.length > 0;
  const can = (type: Action['type']) => legal.some((a) => a.type === type);
  let prompt: PromptJson;
  if (v.phase === 'ended') prompt = { kind: 'ended' };
  else if (!yourTurn) prompt = { kind: 'wait' };
  else if (v.phase === 'charleston') {
    const to = (v.seat + v.passOffset!) % v.players;
    prompt = {
      kind: 'charleston',
      pass: v.pass!,
      charleston: v.pass! < firstCharlestonPasses ? 'first' : 'second',
      direction: DIRECTION[v.passOffset!] ?? 'right',
      to,
      blindAllowed: v.blindAllowed === true,
      mahJonggAllowed: can('declare'),
    };
  } else if (v.phase === 'vote') prompt = { kind: 'vote' };
  else if (v.phase === 'courtesy') prompt = { kind: 'courtesy', partner: (v.seat + 2) % v.players, max: 3 };
  else if (v.phase === 'draw') prompt = { kind: 'draw' };
  else if (v.phase === 'discard') prompt = { kind: 'discard', mahJonggAllowed: can('declare') };
  else prompt = { kind: 'claims', tile: tileName(v.claim!.tile), discarder: v.claim!.discarder };
  const turnFrom = v.turnFrom.from === 'discard' ? { from: 'discard' as const, discarder: v.turnFrom.discarder } : { from: v.turnFrom.from };
  return {
    seat: v.seat,
    ruleset: v.ruleset,
    players: v.players,
    phase: v.phase,
    prompt,
    yourTurn,
    waitingOn: [...v.waitingOn],
    turn: v.turn,
    claim: v.claim ? { tile: tileName(v.claim.tile), discarder: v.claim.discarder, answered: v.claim.answered } : null,
    wallLeft: v.wallLeft,
    dice: [...v.dice],
    rack: tilesFromCounts(v.concealed).map(tileName),
    seats: v.concealedCounts.map((n, s) => ({
      seat: s,
      concealedCount: n,
      exposures: v.exposures[s].map(exposureJson),
      discards: v.discards[s].map(tileName),
      dead: [...v.dead[s]],
    })),
    mahJonggs: v.mahJonggs.map((m) => ({
      seat: m.seat,
      rack: m.rack,
      line: m.line,
      ...(cc !== undefined && { name: lineName(cc, m.line) }),
      value: m.value,
      tiles: tilesFromCounts(m.tiles).map(tileName),
    })),
    turnFrom,
    exchangedFromOther: v.exchangedFromOther,
    result: v.result && v.reveal ? resultJsonOf(v.result, v.reveal) : null,
  };
}

// ------------------------------------------------------------------ events: what happened since

/** One applied action, numbered as the record numbers it (`n` from 1). */
export interface EventJson {
  n: number;
  action: SeatedActionJson;
  /** For the viewer's own draw: the tile drawn (nobody else sees it). */
  drew?: string;
}

/**
 * An applied action as `viewer` may hear of it: other seats' Charleston and courtesy
 * passes are face down (their tiles become a count); the viewer's own draw names the tile.
 */
export function eventJson(n: number, a: Action, viewer: number, drawn: string | null): EventJson {
  const action = actionJson(a);
  if ((a.type === 'pass' || a.type === 'courtesy') && a.seat !== viewer) {
    const count = a.tiles.length;
    delete action.tiles;
    (action as ActionJson & { count: number }).count = count;
  }
  const e: EventJson = { n, action };
  if (drawn !== null && a.type === 'draw' && a.seat === viewer) e.drew = drawn;
  return e;
}

// ------------------------------------------------------------------ the card and the analysis

export interface CardJson {
  name: string;
  sections: string[];
  lines: { index: number; id: string; section: string; pattern: string; value: number; concealed: boolean; jokers: boolean }[];
}

export function cardJson(cc: CompiledCard): CardJson {
  return {
    name: cc.card.name,
    sections: [...cc.card.sections],
    lines: cc.card.lines.map((l, i) => ({ index: i, id: l.id, section: l.section, pattern: l.pattern, value: l.value, concealed: l.concealed, jokers: cc.lineJokers[i] === 1 })),
  };
}

/**
 * One tile of a line's closest form: `have` (on the rack; `joker: true` when a joker of
 * the rack stands in), `exposed` (in one of the seat's exposures), `joker` (missing, and a
 * joker could fill it: a slot in a group of three or more), `need` (missing, and only that
 * tile will do: singles, pairs, NEWS, years).
 */
export interface FormTileJson {
  tile: string;
  status: 'have' | 'exposed' | 'joker' | 'need';
  joker?: boolean;
}

export interface LineResultJson {
  id: string;
  section: string;
  value: number;
  concealed: boolean;
  tilesAway: number;
  need: string[];
  possible: boolean;
  form: string;
  jokerSlots: number;
  outs: number;
  reason: string;
  /** The closest form, word by word as the card prints it, each tile marked. */
  groups: FormTileJson[][];
}

const WORD_HONOURS: Record<string, TileId> = { N: 27, E: 28, W: 29, S: 30, G: GREEN, R: RED, '0': SOAP, F: 34 };

/** The tiles of one word of a form's text (`222B`, `2026C`, `NEWS`, `RG0`, `FFF`). */
export function wordTiles(word: string): TileId[] {
  const last = word[word.length - 1];
  const suit = (SUITS as readonly string[]).indexOf(last);
  const body = suit >= 0 ? word.slice(0, -1) : word;
  return [...body].map((ch) => {
    if (suit >= 0 && ch >= '1' && ch <= '9') return suited(suit, Number(ch));
    const t = WORD_HONOURS[ch];
    if (t === undefined) ruleViolation(`"${word}" is not a word of a form`);
    return t;
  });
}

/**
 * Marks each tile of a form: exposures take the groups they match, natural tiles fill
 * singles and pairs first, then groups; what groups still lack is `joker` (a line that takes
 * jokers) or `need`. The rack's jokers stand in exactly where the analyzer put them (`need`,
 * its list of what is still needed: jokers go to the scarcest tiles), so the picture and the
 * words "still needed" name the same tiles.
 */
export function formGroups(form: string, concealed: readonly number[], exposures: readonly Group[], jokersAllowed: boolean, need: readonly number[]): FormTileJson[][] {
  const words = form
    .split(' ')
    .filter((w) => w !== '')
    .map(wordTiles);
  const isGroup = words.map((ts) => ts.length >= 3 && ts.every((t) => t === ts[0]));
  const status: FormTileJson[][] = words.map((ts) => ts.map((t) => ({ tile: tileName(t), status: 'need' as FormTileJson['status'] })));
  const done = words.map(() => false);
  for (const x of exposures) {
    const w = words.findIndex((ts, i) => !done[i] && isGroup[i] && ts[0] === x.tile && ts.length === x.size);
    if (w < 0) continue;
    done[w] = true;
    status[w].forEach((s) => {
      s.status = 'exposed';
    });
  }
  const avail = [...concealed];
  const fill = (groups: boolean) =>
    words.forEach((ts, w) => {
      if (done[w] || isGroup[w] !== groups) return;
      ts.forEach((t, i) => {
        if (avail[t] > 0 && t !== JOKER) {
          avail[t]--;
          status[w][i].status = 'have';
        }
      });
    });
  fill(false);
  fill(true);
  // what the analyzer leaves missing in groups, kind by kind: its `need` less the singles' lack
  const missing = new Array<number>(KINDS).fill(0);
  for (const t of need) missing[t]++;
  words.forEach((ts, w) => {
    if (!done[w] && !isGroup[w])
      ts.forEach((t, i) => {
        if (status[w][i].status === 'need') missing[t]--;
      });
  });
  words.forEach((ts, w) => {
    if (done[w] || !isGroup[w]) return;
    ts.forEach((t, i) => {
      const s = status[w][i];
      if (s.status !== 'need' || !jokersAllowed) return;
      if (missing[t] > 0 || avail[JOKER] === 0) {
        missing[t]--;
        s.status = 'joker';
      } else {
        avail[JOKER]--;
        s.status = 'have';
        s.joker = true;
      }
    });
  });
  return status;
}

/** A line result as `analyze --json` prints it: tile names, never ids. */
export function resultJson(r: LineResult): Omit<LineResultJson, 'groups'> {
  return {
    id: r.id,
    section: r.section,
    value: r.value,
    concealed: r.concealed,
    tilesAway: r.tilesAway,
    need: r.need.map(tileName),
    possible: r.possible,
    form: r.form,
    jokerSlots: r.jokerSlots,
    outs: r.outs,
    reason: reason(r),
  };
}

/** A line result as the API sends it: `analyze --json`'s fields, plus the form tile by tile (joker slots only where the set in play has jokers). */
export function lineResultJson(cc: CompiledCard, r: LineResult, input: AnalysisInput): LineResultJson {
  return {
    ...resultJson(r),
    groups: r.form === '' ? [] : formGroups(r.form, input.concealed, input.exposures, cc.lineJokers[r.line] === 1 && input.copies[JOKER] > 0, r.need),
  };
}

// ------------------------------------------------------------------ the live tables' Mah Jongg

/**
 * Mah Jongg in error (standardized rules 14.2): a player may declare, or call a discard for,
 * Mah Jongg when her hand is not one; the engine accepts it and her hand is dead. So the
 * answer offers it too, marked `inError`, after the legal actions, where the seat could
 * declare but the hand is not Mah Jongg.
 */
function inErrorJson(v: SeatView, legal: readonly Action[]): LegalJson[] {
  const can = (type: Action['type']) => legal.some((a) => a.type === type);
  if (v.phase === 'discard' && v.turn === v.seat && can('discard') && !can('declare')) return [{ type: 'declare', seat: v.seat, inError: true }];
  if (v.phase === 'claims' && v.claim && !v.claim.answered && can('decline') && !can('callMahJongg')) return [{ type: 'callMahJongg', seat: v.seat, inError: true, claimTile: tileName(v.claim.tile) }];
  return [];
}

export const MAH_JONGG_WIRE: GameWire<MahJonggSpec> = {
  type: MAH_JONGG,
  secret: ['rack'],
  viewJson: (game, v, legal) => viewJson(v, legal, (game as MahJonggGame).rules.charleston?.first.length ?? 3, (game as MahJonggGame).cc),
  legalJson: (_game, legal, v) => [...legalJson(legal, v), ...inErrorJson(v, legal)],
  eventJson: (_game, n, action, viewer, drawn) => eventJson(n, action, viewer, drawn),
  // in an open claim window the other seats' answers are not known yet at a real table: they are told once it closes
  heard: (_game, state, log) => {
    if (state.phase.kind !== 'claims') return log.length;
    let lastDiscard = log.length - 1;
    while (lastDiscard >= 0 && log[lastDiscard].type !== 'discard') lastDiscard--;
    return lastDiscard + 1;
  },
};

// ------------------------------------------------------------------ the coach: hints and reviews

/** A hint as the page takes it (docs/api.md): the advised action postable as it is, tiles by name. */
export interface HintJson {
  kind: Hint['kind'];
  text: string;
  details?: string;
  action: LegalJson;
  tiles: string[];
  blind?: number;
  alternatives?: (Alternative & { legal: LegalJson | null })[];
  advice?: Hint['advice'];
  /** Discard decisions: how safe each tile on the rack is to discard (issue 29, defence). */
  defence?: { tile: string; level: 'safe' | 'risky' | 'dangerous'; why: string; warning?: string }[];
  /** A hand she may call dead now, with the reason; the action postable as it is. */
  callDead?: { text: string; action: LegalJson };
  /** On her turn: what each opponent is likely making, a sentence each (issue 48). */
  table?: string[];
}

/** One advised action as the page posts it: a pass or courtesy offer with its tiles chosen, any other as listed among the legal actions. */
const advisedJson = (a: Action, v: SeatView): LegalJson => (a.type === 'pass' || a.type === 'courtesy' ? actionJson(a) : legalJson([a], v)[0]);

export function hintJson(h: Hint, v: SeatView): HintJson {
  return {
    kind: h.kind,
    text: h.text,
    ...(h.details !== undefined && { details: h.details }),
    action: advisedJson(h.action, v),
    tiles: h.tiles.map(tileName),
    ...(h.blind !== undefined && { blind: h.blind }),
    ...(h.alternatives && { alternatives: h.alternatives.map((x) => ({ ...x, legal: x.legal === null ? null : advisedJson(x.legal, v) })) }),
    ...(h.advice && { advice: h.advice }),
    ...(h.defence && { defence: h.defence.map((x) => ({ tile: tileName(x.tile), level: x.level, why: x.why, ...(x.warning !== undefined && { warning: x.warning }) })) }),
    ...(h.callDead && { callDead: { text: h.callDead.text, action: advisedJson(h.callDead.action, v) } }),
    ...(h.table && { table: h.table }),
  };
}

export interface ReviewedDecisionJson extends Omit<ReviewedDecision, 'chosenAction' | 'suggestedAction' | 'moment'> {
  chosenAction: ActionJson;
  suggestedAction: ActionJson;
  /** The seat's view just before the decision. */
  moment: ViewJson;
}

export interface ReviewJson extends Omit<Review, 'decisions'> {
  decisions: ReviewedDecisionJson[];
}

export function reviewJson(r: Review): ReviewJson {
  const first = loadRuleset(r.ruleset).charleston?.first.length ?? 3;
  return {
    ...r,
    decisions: r.decisions.map((d) => ({
      ...d,
      chosenAction: actionJson(d.chosenAction),
      suggestedAction: actionJson(d.suggestedAction),
      moment: viewJson(d.moment.view, d.moment.legal, first),
    })),
  };
}
