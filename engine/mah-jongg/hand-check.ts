import { awayFromPlaced, mendPlaced, tilesAwayAll } from './analyzer.js';
import type { CompiledCard } from './compile.js';
import { JOKER, KINDS, type Group } from './tiles.js';

/**
 * The questions the rules engine asks of a hand against the card, answered from the
 * compiled forms: is this Mah Jongg, does this exposure fit an exposed line, can a
 * player's exposures still become any hand. Precomputed tables hang off the card.
 */

/** An exposure as the card sees it: a group of one tile, with jokers standing in. */

interface Tables {
  /** Kinds each form holds, as a 36-bit mask split into two words (kinds 0-31, 32-35). */
  maskLo: Uint32Array;
  maskHi: Uint32Array;
  /** Forms of exposed (x) lines holding a group of (tile, size): key tile * 8 + size. */
  exposedFormsWith: Map<number, number[]>;
  /** Kinds that share some form with kind t (mask split as above): a hand holding two kinds no form shares is no Mah Jongg. */
  withLo: Uint32Array;
  withHi: Uint32Array;
  /** The most tiles of kind t any form of line l takes: lineNeed[l * KINDS + t]. */
  lineNeed: Uint8Array;
  /** Scratch for the fast core when a pool holds more than one hand (Siamese). */
  away: Uint8Array;
  best: Uint32Array;
  merged: number[];
}

const tablesOf = new WeakMap<CompiledCard, Tables>();

let lastCard: CompiledCard | null = null;
let lastTables: Tables | null = null;

function tables(cc: CompiledCard): Tables {
  if (cc === lastCard) return lastTables!; // the same card, call after call
  let t = tablesOf.get(cc);
  if (t) {
    lastCard = cc;
    lastTables = t;
    return t;
  }
  const maskLo = new Uint32Array(cc.formCount),
    maskHi = new Uint32Array(cc.formCount);
  const exposedFormsWith = new Map<number, number[]>();
  for (let f = 0; f < cc.formCount; f++) {
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
      const k = cc.entryKind[e];
      if (k < 32) maskLo[f] |= 1 << k;
      else maskHi[f] |= 1 << (k - 32);
    }
    const line = cc.formLine[f];
    if (cc.card.lines[line].concealed) continue;
    for (let g = cc.groupStart[f]; g < cc.groupStart[f + 1]; g++) {
      const key = cc.groupKind[g] * 8 + cc.groupSize[g];
      const list = exposedFormsWith.get(key) ?? [];
      if (list.at(-1) !== f) list.push(f);
      exposedFormsWith.set(key, list);
    }
  }
  const withLo = new Uint32Array(KINDS),
    withHi = new Uint32Array(KINDS);
  for (let f = 0; f < cc.formCount; f++) {
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
      withLo[cc.entryKind[e]] |= maskLo[f];
      withHi[cc.entryKind[e]] |= maskHi[f];
    }
  }
  const lineNeed = new Uint8Array(cc.lineCount * KINDS);
  for (let f = 0; f < cc.formCount; f++) {
    const at = cc.formLine[f] * KINDS;
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) lineNeed[at + cc.entryKind[e]] = Math.max(lineNeed[at + cc.entryKind[e]], cc.entryNeed[e]);
  }
  t = {
    maskLo,
    maskHi,
    exposedFormsWith,
    withLo,
    withHi,
    lineNeed,
    away: new Uint8Array(cc.lineCount),
    best: new Uint32Array(cc.lineCount),
    merged: new Array<number>(KINDS).fill(0),
  };
  tablesOf.set(cc, t);
  lastCard = cc;
  lastTables = t;
  return t;
}

/**
 * Whether the line is listed under the card's Singles and Pairs section ("Singles and Pairs",
 * "Singles & Pairs", "Singles - Pairs"), whose hands tournament 11.2 and Siamese 17B exclude
 * from the jokerless bonus and doubling. The section, not the shape: a 2468 line without a
 * pung is still a 2468 hand and earns its jokerless bonus.
 */
export function singlesAndPairs(cc: CompiledCard, line: number): boolean {
  return SINGLES_AND_PAIRS.test(cc.card.lines[line].section);
}

const SINGLES_AND_PAIRS = /^\s*singles\s*(?:and|&|-|\+|\/)?\s*pairs\s*$/i;

/** Exposures matched one to one with groups of form f (same tile, same size); false when they do not fit. */
export function fitsForm(cc: CompiledCard, f: number, exposures: readonly Group[]): boolean {
  if (exposures.length === 0) return true;
  if (cc.lineJokers[cc.formLine[f]] === 0 && exposures.some((x) => x.jokers > 0)) return false;
  const g0 = cc.groupStart[f],
    g1 = cc.groupStart[f + 1];
  let used = 0;
  for (const x of exposures) {
    let g = g0;
    while (g < g1 && (((used >> (g - g0)) & 1) === 1 || cc.groupKind[g] !== x.tile || cc.groupSize[g] !== x.size)) g++;
    if (g === g1) return false;
    used |= 1 << (g - g0);
  }
  return true;
}

/**
 * Calls (teaching guide part 4.3; the rule): an exposure must fit at least one
 * exposed line of the card together with the player's earlier exposures on that rack.
 */
export function exposuresFitCard(cc: CompiledCard, exposures: readonly Group[]): boolean {
  if (exposures.length === 0) return true;
  const last = exposures[exposures.length - 1];
  const candidates = tables(cc).exposedFormsWith.get(last.tile * 8 + last.size);
  if (!candidates) return false;
  for (const f of candidates) if (fitsForm(cc, f, exposures)) return true;
  return false;
}

/**
 * The complete form (and so line) that a hand makes with its exposures, or -1: the most
 * valuable when several do. `concealed` counts the concealed tiles (jokers included) and may
 * hold more than the form (a Siamese rack pool); with exposures, concealed lines are out
 * (teaching guide part 5.2: a concealed hand exposes nothing before Mah Jongg).
 */
export function completeForm(cc: CompiledCard, concealed: ArrayLike<number>, exposures: readonly Group[], open?: Uint8Array): number {
  return completeForms(cc, concealed, exposures, true, open)[0] ?? -1;
}

/**
 * Every complete form (or, with `bestOnly`, the most valuable one) the tiles make with the
 * exposures. `open`, for a pool: the lines a PoolProof left open (1) for these very tiles,
 * every other line proved incomplete.
 */
export function completeForms(cc: CompiledCard, concealed: ArrayLike<number>, exposures: readonly Group[], bestOnly = false, open?: Uint8Array): number[] {
  const tb = tables(cc);
  const { maskLo, maskHi, withLo, withHi } = tb;
  let total = 0,
    lo = 0,
    hi = 0;
  for (let t = 0; t < KINDS; t++) total += concealed[t];
  for (const x of exposures) total += x.size;
  // A 14-tile hand holds no kind its form lacks: only the forms holding its rarest kind
  // (the card's postings) can match, and of those most fail on two word tests.
  let from = 0,
    to = cc.formCount,
    viaPostings = false;
  if (total === 14) {
    let rarest = -1;
    for (let t = 0; t < JOKER; t++) {
      if (concealed[t] === 0) continue;
      if (t < 32) lo |= 1 << t;
      else hi |= 1 << (t - 32);
      if (rarest < 0 || cc.postStart[t + 1] - cc.postStart[t] < cc.postStart[rarest + 1] - cc.postStart[rarest]) rarest = t;
    }
    for (let t = 0; t < JOKER; t++) {
      if (concealed[t] > 0 && ((lo & ~withLo[t]) !== 0 || (hi & ~withHi[t]) !== 0)) return [];
    }
    if (rarest >= 0) {
      from = cc.postStart[rarest];
      to = cc.postStart[rarest + 1];
      viaPostings = true;
    }
  }
  // A larger pool (a Siamese player's 27-28 tiles): the fast core, with the exposures'
  // tiles counted in, finds the lines that could be complete (a relaxation: a hand complete
  // with its exposures is complete as counts); only their forms are checked in full.
  let lines: Uint8Array | null = null,
    candidate = 0;
  if (total !== 14 && open !== undefined) {
    lines = open;
    candidate = 1;
  } else if (total !== 14) {
    const merged = tb.merged;
    for (let t = 0; t < KINDS; t++) merged[t] = concealed[t];
    for (const x of exposures) {
      merged[x.tile] += x.size - x.jokers;
      merged[JOKER] += x.jokers;
    }
    tilesAwayAll(cc, merged, tb.away, tb.best);
    lines = tb.away;
  }
  const found: FormsFound = { best: -1, all: bestOnly ? null : [] };
  if (lines !== null) {
    // only the forms of lines the relaxation leaves complete (forms are stored line by line,
    // so this is the same order as a walk over every form): usually none
    for (let l = 0; l < cc.lineCount; l++) {
      if (lines[l] !== candidate) continue;
      for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) checkForm(cc, f, concealed, exposures, found);
    }
  } else {
    for (let i = from; i < to; i++) {
      const f = viaPostings ? cc.postForm[i] : i;
      if (total === 14 && ((lo & ~maskLo[f]) !== 0 || (hi & ~maskHi[f]) !== 0)) continue;
      checkForm(cc, f, concealed, exposures, found);
    }
  }
  return found.all ?? (found.best >= 0 ? [found.best] : []);
}

interface FormsFound {
  best: number;
  all: number[] | null;
}

/** completeForms' test of one candidate form (`all` null: only the most valuable is wanted). */
function checkForm(cc: CompiledCard, f: number, concealed: ArrayLike<number>, exposures: readonly Group[], found: FormsFound): void {
  const line = cc.formLine[f];
  if (exposures.length > 0 && cc.card.lines[line].concealed) return;
  const best = found.best;
  if (found.all === null && best >= 0 && cc.card.lines[line].value <= cc.card.lines[cc.formLine[best]].value) return;
  if (!fitsForm(cc, f, exposures)) return;
  if (formLack(cc, f, concealed, exposures) === 0) {
    found.best = f;
    found.all?.push(f);
  }
}

/**
 * Whether some form holds every kind of these tiles (jokers aside). When none does, no hand
 * of 14 tiles holding these tiles is complete (completeForms' kinds test), and `witness` gets
 * (1 each, 0 elsewhere) a few of the kinds that already prove it: two kinds that share no
 * form, or else the rarest kind and, for each form holding it, a kind of these tiles it
 * lacks. A rack stays no Mah Jongg for as long as it holds a tile of each witness kind,
 * whatever it draws or claims. When some form holds them all, `witness` gets every kind.
 */
export function kindsWitness(cc: CompiledCard, concealed: ArrayLike<number>, witness: Uint8Array): boolean {
  const { maskLo, maskHi, withLo, withHi } = tables(cc);
  witness.fill(0);
  let lo = 0,
    hi = 0,
    rarest = -1;
  for (let t = 0; t < JOKER; t++) {
    if (concealed[t] === 0) continue;
    if (t < 32) lo |= 1 << t;
    else hi |= 1 << (t - 32);
    if (rarest < 0 || cc.postStart[t + 1] - cc.postStart[t] < cc.postStart[rarest + 1] - cc.postStart[rarest]) rarest = t;
  }
  if (rarest < 0) return true;
  for (let t = 0; t < JOKER; t++) {
    if (concealed[t] === 0) continue;
    const apartLo = lo & ~withLo[t],
      apartHi = hi & ~withHi[t];
    if (apartLo === 0 && apartHi === 0) continue;
    witness[t] = 1;
    witness[lowestKind(apartLo, apartHi)] = 1;
    return false;
  }
  // every form that could hold them all holds the rarest kind; each lacks some kind of these
  // tiles, and one kind often serves many forms: pick one lacked kind per form, reusing those picked
  let pickedLo = 0,
    pickedHi = 0;
  for (let i = cc.postStart[rarest]; i < cc.postStart[rarest + 1]; i++) {
    const f = cc.postForm[i];
    const lackLo = lo & ~maskLo[f],
      lackHi = hi & ~maskHi[f];
    if (lackLo === 0 && lackHi === 0) {
      for (let t = 0; t < JOKER; t++) if (concealed[t] > 0) witness[t] = 1;
      return true;
    }
    if ((lackLo & pickedLo) !== 0 || (lackHi & pickedHi) !== 0) continue;
    const t = lowestKind(lackLo, lackHi);
    if (t < 32) pickedLo |= 1 << t;
    else pickedHi |= 1 << (t - 32);
    witness[t] = 1;
  }
  witness[rarest] = 1;
  return false;
}

/** The lowest kind in a mask of kinds split into two words (kinds 0-31, then 32 up), one of them not empty. */
function lowestKind(lo: number, hi: number): number {
  return lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
}

/**
 * A proof, kept from turn to turn, that a Siamese pool (more than 14 tiles; a rack's exposed
 * tiles counted in as completeForms' relaxation counts them) completes no line of the card.
 * It holds a base pool (an earlier one) and each line's least tiles away for it. Adding a tile
 * takes a form at most one tile closer, and only a form that takes more of its kind than the
 * pool holds (or a joker, on a line that takes jokers); taking one away never takes a form
 * closer. So a later pool completes no line while each line is more tiles away in the base
 * than the tiles the pool holds beyond it (over the base's count of their kind) that some
 * form of the line could still use: the draws and discards of a few turns are proved with a
 * pass over the kinds. When that proves nothing the pool becomes the base: what it places in
 * each form is mended for the kinds that changed (the card's postings) and every line's least
 * is taken again.
 */
export class PoolProof {
  readonly cc: CompiledCard;
  private readonly base = new Uint8Array(KINDS);
  /** What the base's natural tiles place in each form (packed as in `tilesAwayAll`). */
  private readonly placed: Uint16Array;
  /** Each line's least tiles away for the base, and the least of those (0 before a base: proves nothing). */
  private readonly away: Uint8Array;
  private least = 0;
  /** After a false answer, the lines left unproved (1): completeForms needs to look at no other. */
  readonly open: Uint8Array;
  /** Scratch: the kinds the pool holds beyond the base, and how many of each. */
  private readonly beyondKind = new Uint8Array(KINDS);
  private readonly beyondCount = new Uint8Array(KINDS);

  /** A proof with no base yet, or starting from another's base (another rack's pool, a tile or two apart). */
  constructor(cc: CompiledCard, from?: PoolProof) {
    this.cc = cc;
    this.placed = from ? from.placed.slice() : new Uint16Array(cc.formCount);
    this.away = from ? from.away.slice() : new Uint8Array(cc.lineCount);
    this.open = new Uint8Array(cc.lineCount);
    if (from) {
      this.base.set(from.base);
      this.least = from.least;
    }
  }

  /** True when the pool with the extra tile (-1 for none) is proved to complete no line; false: check it in full. */
  cannotComplete(pool: ArrayLike<number>, extra: number): boolean {
    if (this.within(pool, extra, false)) return true;
    this.rebase(pool);
    return this.within(pool, extra, true); // now only the extra tile is beyond the base
  }

  private rebase(pool: ArrayLike<number>): void {
    const cc = this.cc;
    const { base, placed, away } = this;
    for (let t = 0; t < JOKER; t++) if (pool[t] !== base[t]) mendPlaced(cc, placed, t, base[t], pool[t]);
    for (let t = 0; t < KINDS; t++) base[t] = pool[t];
    const { lineStart, lineJokers, formSingles } = cc;
    let least = 255;
    for (let l = 0; l < cc.lineCount; l++) {
      const j = lineJokers[l] === 1 ? base[JOKER] : 0;
      let a = 255;
      if (j === 0) {
        // without jokers a form is the tiles it lacks away: the line, 14 less the most any form places
        let most = 0;
        for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) if ((placed[f] & 255) > most) most = placed[f] & 255;
        a = 14 - most;
      } else {
        for (let f = lineStart[l], end = lineStart[l + 1]; f < end; f++) {
          const fa = awayFromPlaced(placed[f], formSingles[f], j);
          if (fa < a) a = fa;
        }
      }
      away[l] = a;
      if (a < least) least = a;
    }
    this.least = least;
  }

  /** Whether the base's lines prove the pool with the extra tile completes none; `mark`: every line left unproved marked in `open`. */
  private within(pool: ArrayLike<number>, extra: number, mark: boolean): boolean {
    const { base, beyondKind, beyondCount } = this;
    let total = 0,
      kinds = 0;
    for (let t = 0; t < KINDS; t++) {
      const d = pool[t] - base[t] + (t === extra ? 1 : 0);
      if (d > 0) {
        total += d;
        beyondKind[kinds] = t;
        beyondCount[kinds++] = d;
      }
    }
    if (total < this.least) return true;
    if (this.least === 0 && !mark) return false;
    const { lineCount, lineJokers } = this.cc;
    const { lineNeed } = tables(this.cc);
    const { away, open } = this;
    let proved = true;
    if (mark) open.fill(0);
    for (let l = 0; l < lineCount; l++) {
      if (away[l] > total) continue; // not even every tile beyond the base could complete it
      // a tile beyond the base helps a form only while the form takes more of its kind than the base holds
      let near = 0;
      for (let i = 0, at = l * KINDS; i < kinds; i++) {
        const t = beyondKind[i];
        if (t === JOKER) {
          if (lineJokers[l] === 1) near += beyondCount[i];
          continue;
        }
        const room = lineNeed[at + t] - base[t];
        if (room > 0) near += room < beyondCount[i] ? room : beyondCount[i];
      }
      if (near < away[l]) continue;
      if (!mark) return false;
      open[l] = 1;
      proved = false;
    }
    return proved;
  }
}

/** Tiles away of form f for concealed tiles plus exposures that fit it. */
export function formLack(cc: CompiledCard, f: number, concealed: ArrayLike<number>, exposures: readonly Group[]): number {
  const jokers = cc.lineJokers[cc.formLine[f]] === 1 ? concealed[JOKER] : 0;
  let lack = 0,
    lackSingles = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    let need = cc.entryNeed[e];
    for (const x of exposures) if (x.tile === t) need -= x.size;
    const h = concealed[t];
    if (need > h) lack += need - h;
    if (cc.entrySingle[e] > h) lackSingles += cc.entrySingle[e] - h;
  }
  const inGroups = lack - lackSingles;
  return lack - Math.min(jokers, inGroups);
}

/**
 * The concealed tiles a complete form uses (natural tiles first, then jokers for what the
 * groups lack), as counts; for moving a Mah Jongg out of a Siamese pool.
 */
export function tilesUsed(cc: CompiledCard, f: number, concealed: ArrayLike<number>, exposures: readonly Group[]): number[] {
  const used = new Array<number>(KINDS).fill(0);
  let jokers = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    let need = cc.entryNeed[e];
    for (const x of exposures) if (x.tile === t) need -= x.size;
    used[t] = Math.min(need, concealed[t]);
    jokers += need - used[t];
  }
  used[JOKER] = jokers;
  return used;
}

/**
 * Whether exposures can still become some hand of the card, given the tiles everyone can
 * see (`visible`: discards and every exposure on the table, these exposures included).
 * Teaching guide part 6.6: a hand may be called dead when the table proves it impossible.
 * Singles and pairs need natural tiles; groups may take any jokers not yet seen. `copies`
 * is the set in play (the ruleset's: Royale Siamese plays two sets without jokers).
 */
export function exposuresCanComplete(cc: CompiledCard, exposures: readonly Group[], visible: ArrayLike<number>, hint: { form: number } | undefined, copies: readonly number[]): boolean {
  // The exposures' own tiles are among the visible ones, and the form's need is counted
  // without them. A form found live last time usually still is: try it first.
  if (hint && hint.form >= 0 && formStillPossible(cc, hint.form, exposures, visible, copies)) return true;
  // only forms with a group like the first exposure can hold them all
  const first = exposures[0];
  const candidates = first ? (tables(cc).exposedFormsWith.get(first.tile * 8 + first.size) ?? []) : null;
  const n = candidates === null ? cc.formCount : candidates.length;
  for (let i = 0; i < n; i++) {
    const f = candidates === null ? i : candidates[i];
    if (formStillPossible(cc, f, exposures, visible, copies)) {
      if (hint) hint.form = f;
      return true;
    }
  }
  return false;
}

/** Whether form f can still be made: the copies left unseen (all copies less the visible ones) hold what it lacks. */
function formStillPossible(cc: CompiledCard, f: number, exposures: readonly Group[], visible: ArrayLike<number>, copies: readonly number[]): boolean {
  if (exposures.length > 0 && cc.card.lines[cc.formLine[f]].concealed) return false;
  if (!fitsForm(cc, f, exposures)) return false;
  let jokersNeeded = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    let need = cc.entryNeed[e];
    for (const x of exposures) if (x.tile === t) need -= x.size;
    const avail = copies[t] - visible[t];
    if (cc.entrySingle[e] > avail) return false;
    jokersNeeded += Math.max(0, need - avail);
  }
  return jokersNeeded <= (cc.lineJokers[cc.formLine[f]] === 1 ? copies[JOKER] - visible[JOKER] : 0);
}

/**
 * The least tiles away over every form the exposures fit (concealed lines out once there
 * are exposures), and that form; for players deciding with exposures on the rack.
 */
export function bestAway(cc: CompiledCard, concealed: ArrayLike<number>, exposures: readonly Group[]): { away: number; form: number } {
  let away = 99,
    form = -1;
  const consider = (f: number) => {
    if (exposures.length > 0 && (cc.card.lines[cc.formLine[f]].concealed || !fitsForm(cc, f, exposures))) return;
    const a = formLack(cc, f, concealed, exposures);
    if (a < away) {
      away = a;
      form = f;
    }
  };
  // with exposures, only the exposed forms holding a group like the first can fit
  if (exposures.length > 0) for (const f of tables(cc).exposedFormsWith.get(exposures[0].tile * 8 + exposures[0].size) ?? []) consider(f);
  else for (let f = 0; f < cc.formCount; f++) consider(f);
  return { away, form };
}

/** The least tiles away over the lines the exposures allow (every line without exposures). */
export function closestAway(cc: CompiledCard, concealed: ArrayLike<number>, exposures: readonly Group[]): number {
  if (exposures.length > 0) return bestAway(cc, concealed, exposures).away;
  const tb = tables(cc);
  tilesAwayAll(cc, concealed, tb.away, tb.best);
  let min = 99;
  for (let l = 0; l < cc.lineCount; l++) if (tb.away[l] < min) min = tb.away[l];
  return min;
}
