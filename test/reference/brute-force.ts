/**
 * Independent test oracle for test/engine/analyzer.test.ts.
 *
 * It reads the parsed card AST (engine/mah-jongg/card.ts) directly and shares no code with
 * engine/mah-jongg/compile.ts or engine/mah-jongg/analyzer.ts. Every concrete form of a line is spelled out
 * as 14 explicit slots (shape x one alternative per token x distinct suits for the suit
 * variables x shift, or with `other` each different printed number a different number; a year
 * never moves), and tiles away is found by bipartite matching (Kuhn's algorithm)
 * of the hand's individual tiles onto those slots: a single/pair slot takes only its
 * natural tile, a group slot takes its natural tile or (unless `nojoker`) a joker.
 * The engine instead does counts arithmetic over compiled forms; this file never does.
 * It is slow by design and meant only for tests.
 */
import type { Alternative, CardLine, CardSymbol, PatternToken } from '../../engine/mah-jongg/card.js';

const KINDS = 36;
const JOKER = 35;
const GREEN = 31; // dragon of suit s is GREEN + s (Bam green, Crak red, Dot white)

/** One position of a concrete form. */
interface Slot {
  tile: number;
  group: boolean;
}

/** A concrete form: 14 slots, plus its groups (tile, size) for the identity key. */
interface Form {
  slots: Slot[];
  groups: { tile: number; size: number }[];
}

/** A form ready for matching: for each tile kind, the slot indices that accept it. */
interface MatchForm {
  accepts: number[][]; // accepts[tile] = slot indices; accepts[JOKER] = group slots (if jokers allowed)
  size: number;
}

/** Resolves one symbol to a tile id, or null when a moved number leaves 1..9. */
function resolveSymbol(sym: CardSymbol, suit: number, renumber: (n: number) => number): number | null {
  if (sym.kind === 'tile') return sym.tile;
  if (sym.kind === 'dragon') return GREEN + suit;
  const n = renumber(sym.n);
  if (n < 1 || n > 9) return null;
  return suit * 9 + (n - 1);
}

/** Suit variables used by any suited alternative of the shape, ascending. */
function usedVariables(shape: PatternToken[]): number[] {
  const used = new Set<number>();
  for (const tok of shape) for (const alt of tok.alternatives) if (alt.suited) used.add(alt.suitVar);
  return [...used].sort((a, b) => a - b);
}

/**
 * Every assignment of distinct suits (0..2) to the used variables, honouring pins: a
 * pinned used variable takes its pinned suit; distinctness then keeps that suit away
 * from every other used variable. Returned as a length-3 array (unused entries -1).
 */
function suitAssignments(used: number[], pins: CardLine['pins']): number[][] {
  const out: number[][] = [];
  const current = [-1, -1, -1];
  const taken = [false, false, false];
  // Suits pinned to used variables are reserved for them.
  const reserved = [false, false, false];
  for (const v of used) {
    const p = pins[v];
    if (p !== null && p !== undefined) reserved[p] = true;
  }
  const go = (i: number): void => {
    if (i === used.length) {
      out.push(current.slice());
      return;
    }
    const v = used[i];
    const p = pins[v];
    for (let s = 0; s < 3; s++) {
      if (taken[s]) continue;
      if (p !== null && p !== undefined) {
        if (s !== p) continue;
      } else if (reserved[s]) continue;
      taken[s] = true;
      current[v] = s;
      go(i + 1);
      taken[s] = false;
      current[v] = -1;
    }
  };
  go(0);
  return out;
}

/** All concrete forms of one shape under one suit assignment and one reading of its numbers (duplicates included). */
function formsOf(shape: PatternToken[], suits: number[], renumber: (n: number) => number, out: Form[]): void {
  const chosen: Alternative[] = new Array(shape.length);
  const go = (i: number): void => {
    if (i === shape.length) {
      const slots: Slot[] = [];
      const groups: { tile: number; size: number }[] = [];
      for (let k = 0; k < shape.length; k++) {
        const tok = shape[k];
        const alt = chosen[k];
        const suit = alt.suited ? suits[alt.suitVar] : -1;
        const tiles: number[] = [];
        for (const sym of alt.symbols) {
          const t = resolveSymbol(sym, suit, alt.year ? (n) => n : renumber); // a year stays as printed
          if (t === null) return; // a number outside 1..9: no such form
          tiles.push(t);
        }
        for (const t of tiles) slots.push({ tile: t, group: tok.group });
        if (tok.group) groups.push({ tile: tiles[0], size: tiles.length });
      }
      out.push({ slots, groups });
      return;
    }
    for (const alt of shape[i].alternatives) {
      chosen[i] = alt;
      go(i + 1);
    }
  };
  go(0);
}

/** Canonical identity: sorted multiset of slots and sorted multiset of groups. */
function formKey(form: Form): string {
  const slots = form.slots.map((s) => `${s.tile}${s.group ? 'g' : 's'}`).sort();
  const groups = form.groups.map((g) => `${g.tile}x${g.size}`).sort();
  return `${slots.join(',')}|${groups.join(',')}`;
}

/**
 * Each reading of a shape's numbers: each shift; with `other`, every tuple of numbers 1..9 for
 * the shape's different printed numbers (a year's aside) with no number twice.
 */
function readings(line: CardLine, shape: PatternToken[]): ((n: number) => number)[] {
  if (!line.other) return line.shifts.map((shift) => (n: number) => n + shift);
  const printed = [...new Set(shape.flatMap((tok) => tok.alternatives.filter((a) => !a.year).flatMap((a) => a.symbols.flatMap((sym) => (sym.kind === 'number' ? [sym.n] : [])))))];
  const out: ((n: number) => number)[] = [];
  for (let code = 0; code < 9 ** printed.length; code++) {
    const values = printed.map((_, k) => (Math.floor(code / 9 ** k) % 9) + 1);
    if (new Set(values).size === values.length) out.push((n) => values[printed.indexOf(n)]);
  }
  return out;
}

/** The distinct concrete forms of a line. */
function distinctForms(line: CardLine): Form[] {
  const byKey = new Map<string, Form>();
  for (const shape of line.shapes) {
    const assignments = suitAssignments(usedVariables(shape), line.pins);
    for (const suits of assignments) {
      for (const renumber of readings(line, shape)) {
        const forms: Form[] = [];
        formsOf(shape, suits, renumber, forms);
        for (const f of forms) {
          const key = formKey(f);
          if (!byKey.has(key)) byKey.set(key, f);
        }
      }
    }
  }
  return [...byKey.values()];
}

const matchCache = new WeakMap<CardLine, MatchForm[]>();

function matchForms(line: CardLine): MatchForm[] {
  let cached = matchCache.get(line);
  if (cached) return cached;
  cached = distinctForms(line).map((form) => {
    const accepts: number[][] = Array.from({ length: KINDS }, () => []);
    form.slots.forEach((slot, i) => {
      accepts[slot.tile].push(i);
      if (slot.group && !line.nojoker) accepts[JOKER].push(i);
    });
    return { accepts, size: form.slots.length };
  });
  matchCache.set(line, cached);
  return cached;
}

/** Maximum number of the hand's tiles placed into the form's slots (Kuhn's algorithm). */
function maxPlaced(form: MatchForm, handTiles: number[]): number {
  const slotOwner = new Array<number>(form.size).fill(-1); // slot -> index into handTiles
  let visited = new Array<boolean>(form.size).fill(false);
  const augment = (h: number): boolean => {
    for (const s of form.accepts[handTiles[h]]) {
      if (visited[s]) continue;
      visited[s] = true;
      if (slotOwner[s] === -1 || augment(slotOwner[s])) {
        slotOwner[s] = h;
        return true;
      }
    }
    return false;
  };
  let placed = 0;
  for (let h = 0; h < handTiles.length; h++) {
    if (form.accepts[handTiles[h]].length === 0) continue;
    visited = visited.fill(false);
    if (augment(h)) placed++;
  }
  return placed;
}

/** Tiles away (card-notation.md) of a concealed 13- or 14-tile hand for one card line. */
export function bruteForceTilesAway(line: CardLine, hand: number[]): number {
  if (hand.length !== KINDS) throw new Error(`hand must have ${KINDS} counts, got ${hand.length}`);
  const handTiles: number[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (!Number.isInteger(hand[t]) || hand[t] < 0) throw new Error(`bad count ${hand[t]} for tile ${t}`);
    for (let i = 0; i < hand[t]; i++) handTiles.push(t);
  }
  if (handTiles.length !== 13 && handTiles.length !== 14) {
    throw new Error(`hand must hold 13 or 14 tiles, got ${handTiles.length}`);
  }
  const forms = matchForms(line);
  if (forms.length === 0) throw new Error(`line ${line.id} has no concrete form`);
  let best = 14;
  for (const form of forms) {
    const away = 14 - maxPlaced(form, handTiles);
    if (away < best) best = away;
    if (best === 0) break;
  }
  return best;
}

/** Number of distinct concrete forms of a line (same slot multiset and same group multiset = same form). */
export function bruteForceFormCount(line: CardLine): number {
  return distinctForms(line).length;
}
