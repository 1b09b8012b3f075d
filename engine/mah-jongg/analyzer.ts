import type { CompiledCard } from './compile.js';
import { TilemateError } from '../errors.js';
import { COPIES, JOKER, KINDS, parseTiles, SET_SIZE, tileName, type TileId, type Group } from './tiles.js';

/**
 * The hand analyzer: for every card line, how far a hand is from it (tiles away, as
 * card-notation.md defines it), which concrete form is closest, what is still needed,
 * and whether the line can still be made.
 *
 * For one form and a concealed hand h with J jokers, let, over the form's kinds k,
 *   T = sum max(0, need_k - h_k)     tiles of the form the hand lacks
 *   S = sum max(0, single_k - h_k)   of those, the ones in singles and pairs
 * Natural tiles fill singles and pairs first, then groups; jokers fill what groups still
 * lack, so tiles away = S + max(0, (T - S) - J) = T - min(J, T - S).
 */

/** An exposure on the player's rack: a pung, kong, quint or sextet of one tile. */

export interface AnalysisInput {
  /** Concealed tiles as counts per kind (jokers included, at index JOKER). */
  concealed: number[];
  exposures: Group[];
  /** Tiles visible elsewhere on the table (discards, and other players' exposures when given apart). */
  seen: number[];
  /** Of the seen tiles, how many stand in other players' exposures (still part of their 13: not gone from the wall). */
  othersExposed?: number;
  /** Copies of each kind in the set in play (the ruleset's: engine/mah-jongg/game.ts copiesOf, or a view's `copies`). */
  copies: readonly number[];
}

export interface LineResult {
  /** Index of the line in the card. */
  line: number;
  id: string;
  section: string;
  value: number;
  concealed: boolean;
  tilesAway: number;
  /** The closest concrete form, as a player reads it. */
  form: string;
  /** Tiles still needed, after the hand's jokers fill what groups lack. */
  need: TileId[];
  /** How many of the needed tiles a joker could stand for (slots in groups; none in a set without jokers). */
  jokerSlots: number;
  /** Unseen tiles that would bring the hand one tile closer (jokers included where they fit). */
  outs: number;
  possible: boolean;
  /** Why the line is out, when it is. */
  whyNot?: string;
}

// ---------------------------------------------------------------- input

const EMPTY = (): number[] => new Array<number>(KINDS).fill(0);

/** Parses `"2B 2B J; F F F"`: groups separated by `;`, each a pung or larger of one tile (jokers allowed). */
export function parseExposures(text: string): Group[] {
  if (text.trim() === '') return [];
  return text.split(';').map((part) => {
    const tiles = parseTiles(part);
    const label = `exposure "${part.trim()}"`;
    if (tiles.length < 3 || tiles.length > 6) {
      throw new TilemateError('TM_BAD_EXPOSURE', `${label} has ${tiles.length} tiles; an exposure is a pung, kong, quint or sextet (3 to 6 tiles)`);
    }
    const naturals = tiles.filter((t) => t !== JOKER);
    if (naturals.length === 0) throw new TilemateError('TM_BAD_EXPOSURE', `${label} needs at least one natural tile to say what it is`);
    if (naturals.some((t) => t !== naturals[0])) throw new TilemateError('TM_BAD_EXPOSURE', `${label} mixes tiles; an exposure is one tile (jokers may stand in)`);
    return { tile: naturals[0], size: tiles.length, jokers: tiles.length - naturals.length };
  });
}

/**
 * The set in play, in a player's words, for messages: "one 152-tile set", or for Royale
 * Siamese "two 152-tile sets without jokers".
 */
function setName(copies: readonly number[]): string {
  const sets = copies[0] / COPIES[0];
  const count = sets === 1 ? `one ${SET_SIZE}-tile set` : `${sets === 2 ? 'two' : sets} ${SET_SIZE}-tile sets`;
  return copies[JOKER] > 0 ? count : `${count} without jokers`;
}

/** The end of a TM_TOO_MANY_COPIES message: how many of tile t the set in play holds, and which set that is. */
export function setHolds(copies: readonly number[], t: TileId): string {
  return `the set in play holds ${copies[t]} (${setName(copies)})`;
}

/**
 * Builds an analysis input from the notation players type, checking that concealed plus
 * exposed tiles make 13 or 14 and that no tile appears more often than `copies`, the set in
 * play, holds.
 */
export function analysisInput(copies: readonly number[], hand: string, exposed = '', seen = '', others: Record<string, string | undefined> = {}): AnalysisInput {
  const concealedTiles = parseTiles(hand);
  const exposures = parseExposures(exposed);
  const seenTiles = parseTiles(seen);
  // other players' exposures: seen, but still on their racks (a rack holds 13 with its exposures)
  let othersExposed = 0;
  for (const [who, text] of Object.entries(others)) {
    if (text === undefined || text.trim() === '') continue;
    const groups = parseExposures(text);
    const held = groups.reduce((n, x) => n + x.size, 0);
    if (held > 13) throw new TilemateError('TM_BAD_EXPOSURE', `the ${who} player's exposures hold ${held} tiles; a rack holds 13`);
    for (const x of groups) {
      for (let i = 0; i < x.size - x.jokers; i++) seenTiles.push(x.tile);
      for (let i = 0; i < x.jokers; i++) seenTiles.push(JOKER);
    }
    othersExposed += held;
  }
  const size = concealedTiles.length + exposures.reduce((n, x) => n + x.size, 0);
  if (size !== 13 && size !== 14) {
    const parts = exposures.length ? ` (${concealedTiles.length} concealed + ${size - concealedTiles.length} exposed)` : '';
    throw new TilemateError('TM_HAND_SIZE', `the hand has ${size} tiles${parts}; expected 13 or 14`);
  }
  const input: AnalysisInput = { concealed: EMPTY(), exposures, seen: EMPTY(), othersExposed, copies };
  const exposedCounts = EMPTY();
  for (const t of concealedTiles) input.concealed[t]++;
  for (const x of exposures) {
    exposedCounts[x.tile] += x.size - x.jokers;
    exposedCounts[JOKER] += x.jokers;
  }
  for (const t of seenTiles) input.seen[t]++;
  for (let t = 0; t < KINDS; t++) {
    const n = input.concealed[t] + exposedCounts[t] + input.seen[t];
    if (n > copies[t]) {
      const parts = [`hand ${input.concealed[t]}`];
      if (exposedCounts[t]) parts.push(`exposed ${exposedCounts[t]}`);
      if (input.seen[t]) parts.push(`seen ${input.seen[t]}`);
      throw new TilemateError('TM_TOO_MANY_COPIES', `${n} copies of ${tileName(t)} (${parts.join(', ')}); ${setHolds(copies, t)}`);
    }
  }
  return input;
}

// ---------------------------------------------------------------- the fast core

/**
 * PLACED[h << 8 | need | single << 4] packs what h natural tiles of a kind place in one
 * form: min(h, need) in the low byte, min(h, single) (those in singles and pairs) in the high.
 */
export const PLACED = Uint16Array.from({ length: 16 << 8 }, (_, i) => {
  const h = i >> 8,
    need = i & 15,
    single = (i >> 4) & 15;
  return Math.min(h, need) | (Math.min(h, single) << 8);
});

/** Added to a dead form's tiles away in `tilesAwayAll`, above any real count. */
export const DEAD = 64;

/**
 * Tiles away for every line of the card, for a concealed hand without exposures: the
 * inner loop of bots and batch analysis. Writes the least tiles away of each line into
 * `away` and the form reaching it into `best`. `dead` (optional) flags forms that can no
 * longer be made with DEAD: such a form only wins when every form of its line is dead,
 * and then `away` holds DEAD + its tiles away.
 *
 * It walks the hand, not the card: each kind the hand holds adds what it places to the
 * forms holding that kind (the card's postings), and every form has 14 tiles, so
 *   lack = 14 - placed,  lackSingles = singles - placedSingles.
 */
export function tilesAwayAll(cc: CompiledCard, counts: ArrayLike<number>, away: Uint8Array, best: Uint32Array, dead: Uint8Array = cc.noPenalty): void {
  const { lineStart, lineJokers, formSingles } = cc;
  const placed = placeAll(cc, counts, cc.work);
  const jokers = counts[JOKER];
  for (let l = 0; l < cc.lineCount; l++) {
    const j = lineJokers[l] === 1 ? jokers : 0;
    let bestAway = 255,
      bestForm = 0;
    for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
      const a = awayFromPlaced(placed[f], formSingles[f], j) + dead[f];
      if (a < bestAway) {
        bestAway = a;
        bestForm = f;
      }
    }
    away[l] = bestAway;
    best[l] = bestForm;
  }
}

/** What the natural tiles of `counts` place in each form of the card (see PLACED), written into `placed`. */
export function placeAll(cc: CompiledCard, counts: ArrayLike<number>, placed: Uint16Array): Uint16Array {
  const { postStart, postForm, postCode } = cc;
  placed.fill(0);
  for (let t = 0; t < JOKER; t++) {
    const h = counts[t];
    if (h === 0) continue;
    const row = Math.min(h, 15) << 8; // two sets (royale) can pool 16 flowers: a form takes at most 14 of a kind
    for (let p = postStart[t], end = postStart[t + 1]; p < end; p++) placed[postForm[p]] += PLACED[row | postCode[p]];
  }
  return placed;
}

/** What the natural tiles of `counts` place in form f alone (placeAll's figure for that form). */
export function placeForm(cc: CompiledCard, f: number, counts: ArrayLike<number>): number {
  let placed = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    if (t !== JOKER) placed += PLACED[(Math.min(counts[t], 15) << 8) | cc.entryNeed[e] | (cc.entrySingle[e] << 4)]; // as in placeAll
  }
  return placed;
}

/**
 * Mends `placed` (placeAll's counts for a hand) for one kind whose count went from `was` to
 * `now`: only the forms holding that kind change, so a hand that differs from the last one by
 * a tile or two is placed without a full pass.
 */
export function mendPlaced(cc: CompiledCard, placed: Uint16Array, t: number, was: number, now: number): void {
  const { postStart, postForm, postCode } = cc;
  const from = Math.min(was, 15) << 8,
    to = Math.min(now, 15) << 8; // as in placeAll
  for (let p = postStart[t], end = postStart[t + 1]; p < end; p++) placed[postForm[p]] += PLACED[to | postCode[p]] - PLACED[from | postCode[p]];
}

/** Tiles away of a form from its packed placed count (see PLACED), its singles and the usable jokers. */
export function awayFromPlaced(placed: number, singles: number, jokers: number): number {
  const lack = 14 - (placed & 255);
  const inGroups = lack - (singles - (placed >> 8));
  return lack - (inGroups < jokers ? inGroups : jokers);
}

// ---------------------------------------------------------------- one form in full

/** What the table leaves the player, per kind. */
interface Context {
  input: AnalysisInput;
  /** Copies the player could still use toward a form: all copies less the seen ones and those fixed in exposures. */
  avail: number[];
  /** Copies the player has not seen anywhere (in the wall or other racks). */
  unseen: number[];
}

function context(input: AnalysisInput): Context {
  const avail = availableOf(input);
  const unseen = EMPTY();
  for (let t = 0; t < KINDS; t++) unseen[t] = avail[t] - input.concealed[t];
  return { input, avail, unseen };
}

/** Copies the player could still use toward a form, per kind: the set in play less the seen tiles and those fixed in her exposures. */
function availableOf(input: AnalysisInput): number[] {
  const avail = EMPTY();
  for (let t = 0; t < KINDS; t++) avail[t] = input.copies[t] - input.seen[t];
  for (const x of input.exposures) {
    avail[x.tile] -= x.size - x.jokers;
    avail[JOKER] -= x.jokers;
  }
  return avail;
}

/** Copies of each kind the player has not seen (in the wall or other racks): the set in play less her tiles, her exposures and the seen ones. */
export function unseenOf(input: AnalysisInput): number[] {
  const unseen = availableOf(input);
  for (let t = 0; t < KINDS; t++) unseen[t] -= input.concealed[t];
  return unseen;
}

/**
 * Outs of one form: unseen tiles that would bring it one tile closer. A missing single or
 * pair tile always does; a missing group tile only while the groups lack more than the
 * hand's jokers cover, and then an unseen joker does too.
 */
function formOuts(cc: CompiledCard, f: number, counts: ArrayLike<number>, jokers: number, jokersAllowed: boolean, unseen: number[]): number {
  const { entryKind, entryNeed, entrySingle } = cc;
  const start = cc.entryStart[f],
    end = cc.entryStart[f + 1];
  let lack = 0,
    lackSingles = 0;
  for (let e = start; e < end; e++) {
    const h = counts[entryKind[e]];
    if (entryNeed[e] > h) lack += entryNeed[e] - h;
    if (entrySingle[e] > h) lackSingles += entrySingle[e] - h;
  }
  const groupsShort = lack - lackSingles > jokers;
  let outs = groupsShort && jokersAllowed ? unseen[JOKER] : 0;
  for (let e = start; e < end; e++) {
    const h = counts[entryKind[e]];
    if (entrySingle[e] > h || (groupsShort && entryNeed[e] > h)) outs += unseen[entryKind[e]];
  }
  return outs;
}

/**
 * A form's needs as short lists (one slot per distinct kind), after the exposures: each
 * exposure must match a group of the form of the same tile and size, one group each, and
 * what it holds is subtracted. Returns the number of kinds, or -1 when the exposures do not fit.
 */
const formKind = new Int32Array(16),
  formNeed = new Int32Array(16),
  formSingle = new Int32Array(16);
function loadForm(cc: CompiledCard, f: number, exposures: readonly Group[]): number {
  let n = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++, n++) {
    formKind[n] = cc.entryKind[e];
    formNeed[n] = cc.entryNeed[e];
    formSingle[n] = cc.entrySingle[e];
  }
  if (exposures.length === 0) return n;
  const jokersAllowed = cc.lineJokers[cc.formLine[f]] === 1;
  const g0 = cc.groupStart[f],
    g1 = cc.groupStart[f + 1];
  let matched = 0; // bit per group of the form
  for (const x of exposures) {
    if (x.jokers > 0 && !jokersAllowed) return -1;
    let g = g0;
    while (g < g1 && ((matched >> (g - g0)) & 1 || cc.groupKind[g] !== x.tile || cc.groupSize[g] !== x.size)) g++;
    if (g === g1) return -1;
    matched |= 1 << (g - g0);
    formNeed[formKind.indexOf(x.tile)] -= x.size;
  }
  return n;
}

/**
 * Whether the loaded form can still be made (its whyNot when not): singles and pairs need
 * natural tiles, of which only `avail` remain; groups may take jokers, so a pung is not dead
 * while enough jokers remain to fill it (none in a set without jokers).
 */
function formWhyNot(n: number, avail: number[], jokersLeft: number, jokersInPlay: boolean): string | undefined {
  let jokersNeeded = 0;
  for (let i = 0; i < n; i++) {
    const t = formKind[i];
    if (formSingle[i] > avail[t]) return `needs ${formSingle[i]} ${tileName(t)} as singles or pairs; only ${avail[t]} can still be had`;
    // a set without jokers (Royale Siamese): groups too need natural tiles
    if (!jokersInPlay && formNeed[i] > avail[t]) return `needs ${formNeed[i]} ${tileName(t)}; only ${avail[t]} can still be had, and the set has no jokers`;
    jokersNeeded += Math.max(0, formNeed[i] - avail[t]);
  }
  if (jokersNeeded > jokersLeft) return `its groups need ${jokersNeeded} jokers; only ${jokersLeft} can still be had`;
  return undefined;
}

interface FormEval {
  tilesAway: number;
  need: TileId[];
  jokerSlots: number;
  outs: number;
  whyNot: string | undefined;
}

/** Scratch for evaluateForm: per kind slot of the loaded form, the singles and group tiles lacking; the scarce slots in order. */
const singleLack = new Int32Array(16),
  groupLack = new Int32Array(16),
  scarce = new Int32Array(16);

/** One form in full, after the exposures (null when they fit no groups of the form). */
function evaluateForm(cc: CompiledCard, f: number, ctx: Context): FormEval | null {
  const { input, avail, unseen } = ctx;
  const n = loadForm(cc, f, input.exposures);
  if (n < 0) return null;
  const h = input.concealed;
  const jokersAllowed = cc.lineJokers[cc.formLine[f]] === 1;
  const jokers = jokersAllowed ? h[JOKER] : 0;

  let lack = 0,
    lackSingles = 0;
  for (let i = 0; i < n; i++) {
    const t = formKind[i];
    const s = formSingle[i] > h[t] ? formSingle[i] - h[t] : 0;
    singleLack[i] = s;
    groupLack[i] = (formNeed[i] > h[t] ? formNeed[i] - h[t] : 0) - s;
    lack += singleLack[i] + groupLack[i];
    lackSingles += s;
  }
  const inGroups = lack - lackSingles;
  const tilesAway = lack - Math.min(jokers, inGroups);
  const groupsShort = inGroups > jokers; // as in formOuts
  let outs = groupsShort && jokersAllowed ? unseen[JOKER] : 0;
  for (let i = 0; i < n; i++) if (singleLack[i] > 0 || (groupsShort && groupLack[i] > 0)) outs += unseen[formKind[i]];

  // For the list of needs, jokers stand in where natural tiles are scarcest (fewest unseen,
  // then the lower kind: the kinds of a form are distinct, so the order is total).
  let spare = jokers;
  if (spare > 0) {
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (groupLack[i] === 0) continue;
      const u = unseen[formKind[i]],
        t = formKind[i];
      let j = m++;
      for (; j > 0; j--) {
        const o = scarce[j - 1],
          uo = unseen[formKind[o]];
        if (uo < u || (uo === u && formKind[o] < t)) break;
        scarce[j] = o;
      }
      scarce[j] = i;
    }
    for (let k = 0; k < m && spare > 0; k++) {
      const i = scarce[k];
      const use = Math.min(spare, groupLack[i]);
      groupLack[i] -= use;
      spare -= use;
    }
  }
  const need: TileId[] = [];
  let jokerSlots = 0;
  for (let i = 0; i < n; i++) {
    const t = formKind[i];
    for (let k = singleLack[i] + groupLack[i]; k > 0; k--) {
      // kept in kind order as it grows (a form lists its kinds in no particular order)
      let j = need.length;
      need.push(t);
      for (; j > 0 && need[j - 1] > t; j--) need[j] = need[j - 1];
      need[j] = t;
    }
    // a set without jokers (Royale Siamese) has no joker to fill a slot
    if (jokersAllowed && input.copies[JOKER] > 0) jokerSlots += groupLack[i];
  }
  return { tilesAway, need, jokerSlots, outs, whyNot: formWhyNot(n, avail, jokersAllowed ? avail[JOKER] : 0, input.copies[JOKER] > 0) };
}

// ---------------------------------------------------------------- the analysis

export interface AnalyzeOptions {
  /** Return only the best `top` lines, ranked; every line when omitted. */
  top?: number;
}

/** The ranking a player should consider: possible lines first, then fewer tiles away, more outs, more value, card order. */
export function compareResults(a: LineResult, b: LineResult): number {
  return Number(b.possible) - Number(a.possible) || a.tilesAway - b.tilesAway || b.outs - a.outs || b.value - a.value || a.line - b.line;
}

/** Why a line ranks where it does, in a player's words. */
export function reason(r: LineResult): string {
  if (!r.possible) return `out: ${r.whyNot}`;
  if (r.tilesAway === 0) return `Mah Jongg, worth ${r.value}`;
  const jokers = r.jokerSlots > 0 ? ` (jokers can fill ${r.jokerSlots})` : '';
  return `${r.tilesAway} away${jokers}; ${r.outs} unseen tiles would help; worth ${r.value}`;
}

/** Analyzes hands against one compiled card, reusing its scratch space from hand to hand. */
export class Analyzer {
  readonly cc: CompiledCard;
  private readonly away: Uint8Array;
  private readonly best: Uint32Array;
  private readonly dead: Uint8Array;
  private readonly sorted: Uint8Array;

  constructor(cc: CompiledCard) {
    this.cc = cc;
    this.away = new Uint8Array(cc.lineCount);
    this.best = new Uint32Array(cc.lineCount);
    this.dead = new Uint8Array(cc.formCount);
    this.sorted = new Uint8Array(cc.lineCount);
  }

  analyze(input: AnalysisInput, opts: AnalyzeOptions = {}): LineResult[] {
    const cc = this.cc;
    const ctx = context(input);
    const top = Math.min(opts.top ?? cc.lineCount, cc.lineCount);

    // With exposures every form is evaluated in full: they are few, and this is not the hot path.
    if (input.exposures.length > 0) {
      const all = Array.from({ length: cc.lineCount }, (_, l) => this.lineResult(l, ctx));
      return all.sort(compareResults).slice(0, top);
    }

    // Whether a form is dead depends on the seen tiles, not on the concealed ones.
    const anySeen = input.seen.some((n) => n > 0);
    if (anySeen) {
      for (let f = 0; f < cc.formCount; f++) {
        const jokersLeft = cc.lineJokers[cc.formLine[f]] === 1 ? ctx.avail[JOKER] : 0;
        this.dead[f] = formWhyNot(loadForm(cc, f, []), ctx.avail, jokersLeft, input.copies[JOKER] > 0) === undefined ? 0 : DEAD;
      }
    }
    tilesAwayAll(cc, input.concealed, this.away, this.best, anySeen ? this.dead : cc.noPenalty);

    // Only lines that can make the top need their outs (the tie-break), and only the top
    // ones are written out in full.
    let limit = 0;
    if (top < cc.lineCount) {
      const sorted = this.sorted;
      sorted.set(this.away);
      sorted.sort();
      limit = sorted[top - 1];
    } else limit = 255;
    const candidates: Candidate[] = [];
    for (let l = 0; l < cc.lineCount; l++) if (this.away[l] <= limit) candidates.push(this.candidate(l, ctx, anySeen));
    candidates.sort((a, b) => a.away - b.away || b.outs - a.outs || b.value - a.value || a.line - b.line);
    return candidates.slice(0, top).map((c) => this.result(c.line, c.form, ctx));
  }

  /**
   * The line's form reaching the core's tiles away (DEAD included) with the most outs; the
   * core has just left each form's placed count in cc.work.
   */
  private candidate(l: number, ctx: Context, anySeen: boolean): Candidate {
    const cc = this.cc;
    const known = this.away[l];
    const jokersAllowed = cc.lineJokers[l] === 1;
    const jokers = jokersAllowed ? ctx.input.concealed[JOKER] : 0;
    const dead = anySeen ? this.dead : cc.noPenalty;
    let bestOuts = -1,
      chosen = this.best[l];
    for (let f = chosen; f < cc.lineStart[l + 1]; f++) {
      if (awayFromPlaced(cc.work[f], cc.formSingles[f], jokers) + dead[f] !== known) continue;
      const outs = formOuts(cc, f, ctx.input.concealed, jokers, jokersAllowed, ctx.unseen);
      if (outs > bestOuts) {
        bestOuts = outs;
        chosen = f;
      }
    }
    return { line: l, form: chosen, away: known, outs: bestOuts, value: cc.card.lines[l].value };
  }

  /** The line's best form over every form, each in full (the exposures path). */
  private lineResult(l: number, ctx: Context): LineResult {
    const cc = this.cc;
    let chosen = -1;
    let best: FormEval | null = null;
    for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
      const ev = evaluateForm(cc, f, ctx);
      if (ev !== null && (best === null || better(ev, best))) {
        best = ev;
        chosen = f;
      }
    }
    return this.result(l, chosen, ctx, best);
  }

  private result(l: number, form: number, ctx: Context, ev: FormEval | null = evaluateForm(this.cc, form, ctx)): LineResult {
    const line = this.cc.card.lines[l];
    // Teaching guide, concealed hands: nothing may be exposed before Mah Jongg, so a hand with an exposure cannot make a concealed line.
    const exposedConcealed = line.concealed && ctx.input.exposures.length > 0 ? 'a concealed line, and the hand has exposures' : undefined;
    const whyNot = exposedConcealed ?? (ev === null ? 'the exposures fit no form of this line' : ev.whyNot);
    // a plain literal: object spread here costs more than the whole analysis
    const result: LineResult = {
      line: l,
      id: line.id,
      section: line.section,
      value: line.value,
      concealed: line.concealed,
      tilesAway: ev === null ? 14 : ev.tilesAway,
      form: ev === null ? '' : this.cc.formText[form],
      need: ev === null ? [] : ev.need,
      jokerSlots: ev === null ? 0 : ev.jokerSlots,
      outs: ev === null ? 0 : ev.outs,
      possible: whyNot === undefined,
    };
    if (whyNot !== undefined) result.whyNot = whyNot;
    return result;
  }
}

interface Candidate {
  line: number;
  form: number;
  /** Tiles away, plus DEAD when every form of the line is dead. */
  away: number;
  outs: number;
  value: number;
}

function better(a: FormEval, b: FormEval): boolean {
  if ((a.whyNot === undefined) !== (b.whyNot === undefined)) return a.whyNot === undefined;
  if (a.tilesAway !== b.tilesAway) return a.tilesAway < b.tilesAway;
  return a.outs > b.outs;
}
