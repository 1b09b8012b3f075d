import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import type { Exposure, SeatView } from '../../engine/mah-jongg/game.js';
import { exposuresCanComplete, fitsForm } from '../../engine/mah-jongg/hand-check.js';
import { readSeat } from '../../engine/mah-jongg/reading.js';
import { FLOWER, GREEN, JOKER, KINDS, NORTH, RED, SOAP, SOUTH, EAST, WEST, isSuited, rankOf, suitOf, type Group, type TileId, groupName } from '../../engine/mah-jongg/tiles.js';

/**
 * Defence: how dangerous each tile on a seat's rack is to discard, from what that seat can
 * see (its view) and nothing else, in one plain sentence a beginner understands; and the
 * other players' hands the table proves dead, which the seat may call dead.
 *
 * The danger is read from the table: a discard can be claimed for Mah Jongg as the last tile
 * of any hand, a single or pair included (teaching guide 4.2), so an opponent whose exposures
 * narrow her hand to a few card lines shows which tiles may finish it; and the closer she is
 * (the fewer tiles left hidden on her rack), the likelier a tile they need finishes it now.
 * A discarded joker can never be picked up (teaching guide 4.9), so a joker is always safe. A
 * dead hand cannot win (teaching guide 6.3), so a dead rack is no threat.
 */

export type SafetyLevel = 'safe' | 'risky' | 'dangerous';

export interface TileSafety {
  tile: TileId;
  level: SafetyLevel;
  /** One sentence a beginner understands, naming the tile and the player it is about. */
  why: string;
  /** The seat the danger comes from (dangerous and risky tiles read from an exposure). */
  from?: number;
  /** A dangerous tile: the question to ask once before it is discarded, in one sentence. */
  warning?: string;
}

export interface DeadCall {
  target: number;
  rack: number;
  /** "Call Across's hand dead: ..." in one plain sentence. */
  text: string;
}

/** Where `other` sits from `seat` (agents/coach/hint.ts direction): right plays after, left before. */
export function where(seat: number, other: number, players: number): 'Right' | 'Across' | 'Left' {
  const d = (other - seat + players) % players;
  return d === 1 ? 'Right' : d === players - 1 ? 'Left' : 'Across';
}

const SUIT_WORDS = ['Bam', 'Crak', 'Dot'];
const HONOURS: Record<number, string> = {
  [NORTH]: 'North',
  [EAST]: 'East',
  [WEST]: 'West',
  [SOUTH]: 'South',
  [GREEN]: 'Green Dragon',
  [RED]: 'Red Dragon',
  [SOAP]: 'Soap',
  [FLOWER]: 'Flower',
  [JOKER]: 'Joker',
};

/** A tile as a player says it: "5 Crak", "North", "Soap". */
export function tileWords(t: TileId): string {
  return isSuited(t) ? `${rankOf(t)} ${SUIT_WORDS[suitOf(t)]}` : HONOURS[t];
}

const COUNT_WORDS = ['no', 'a', 'two', 'three', 'four', 'five'];
const TIMES = ['no times', 'once', 'twice', 'three times', 'four times', 'five times', 'six times', 'seven times', 'eight times'];

/** Exposures in words: "a pung of 5 Crak", "two pungs of Craks", "a pung of North and a kong of Flowers". */
export function exposuresWords(xs: readonly Group[]): string {
  if (xs.length > 1 && xs.every((x) => isSuited(x.tile) && suitOf(x.tile) === suitOf(xs[0].tile) && x.size === xs[0].size)) {
    return `${COUNT_WORDS[xs.length] ?? xs.length} ${groupName(xs[0].size)}s of ${SUIT_WORDS[suitOf(xs[0].tile)]}s`;
  }
  const one = xs.map((x) => `a ${groupName(x.size)} of ${x.tile === FLOWER ? 'Flowers' : tileWords(x.tile)}`);
  return one.length <= 1 ? one.join('') : `${one.slice(0, -1).join(', ')} and ${one.at(-1)!}`;
}

/** A player's hidden tiles at or below this count her close to Mah Jongg: two pungs or more exposed (13 - 6; tileSafety's closeHidden). */
const CLOSE_HIDDEN = 7;
/** A close player is dangerous with a tile when at least this share of the hands she may be making need it. */
const DANGEROUS_SHARE = 1 / 3;
/** Any player with exposures makes a tile risky when at least this share of her hands need it. */
const RISKY_SHARE = 0.2;
/** Tiles left in the wall from which a tile nobody has thrown yet is risky (a hand shown nowhere may be waiting for it). */
const LATE_WALL = 20;

/** One opponent's rack with exposures: the forms still open to her, as the seat sees the table. */
interface Threat {
  seat: number;
  exposures: Group[];
  /** Concealed tiles on her rack. */
  hidden: number;
  /** Forms of exposed lines her exposures fit. */
  forms: number[];
  /** Her first rack's reading (engine/mah-jongg/reading.ts): each kind's chance her hand still needs it; null for a second rack. */
  needs: number[] | null;
}

/** Tiles the seat cannot have: every discard, every exposure (its own too) and every declared Mah Jongg. */
export function tableCounts(view: SeatView): number[] {
  const v = new Array<number>(KINDS).fill(0);
  for (const d of view.discards) for (const t of d) v[t]++;
  for (const list of view.exposures)
    for (const x of list) {
      v[x.tile] += x.size - x.jokers;
      v[JOKER] += x.jokers;
    }
  for (const m of view.mahJonggs) for (let t = 0; t < KINDS; t++) v[t] += m.tiles[t];
  return v;
}

/** Whether a rack is live: not dead, no Mah Jongg declared on it (engine/mah-jongg/racks.ts rackLive, from the view). */
function rackLive(view: SeatView, seat: number, rack: number): boolean {
  return !view.dead[seat][rack] && !view.mahJonggs.some((m) => m.seat === seat && m.rack === rack);
}

function racksOf(list: readonly Exposure[]): Map<number, Group[]> {
  const out = new Map<number, Group[]>();
  for (const x of list) {
    const g = out.get(x.rack) ?? [];
    g.push({ tile: x.tile, size: x.size, jokers: x.jokers });
    out.set(x.rack, g);
  }
  return out;
}

/** The forms of exposed lines that exposures fit, kept per card and shapes (they change a few times a hand). */
function fittingForms(cc: CompiledCard, shapes: readonly Group[]): number[] {
  let memo = FITTING.get(cc);
  if (memo === undefined) {
    memo = new Map();
    FITTING.set(cc, memo);
  }
  const key = shapes.map((x) => `${x.tile}.${x.size}.${x.jokers}`).join(' ');
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const out: number[] = [];
  for (let f = 0; f < cc.formCount; f++) {
    // teaching guide 5.2: a hand with exposures is not a concealed one
    if (cc.card.lines[cc.formLine[f]].concealed || !fitsForm(cc, f, shapes)) continue;
    out.push(f);
  }
  if (memo.size >= 512) memo.clear();
  memo.set(key, out);
  return out;
}
const FITTING = new WeakMap<CompiledCard, Map<string, number[]>>();

/** The opponents with exposures; `read`: with each one's reading (unset, as the bare share needs, none is read). */
function threatsOf(cc: CompiledCard, view: SeatView, read: boolean): Threat[] {
  const out: Threat[] = [];
  for (let s = 0; s < view.players; s++) {
    if (s === view.seat) continue;
    for (const [rack, shapes] of racksOf(view.exposures[s])) {
      if (!rackLive(view, s, rack)) continue;
      const r = read && rack === 0 ? readSeat(cc, view, s) : null;
      out.push({ seat: s, exposures: shapes, hidden: view.concealedCounts[s], forms: fittingForms(cc, shapes), needs: r === null || r.noLine ? null : r.needs });
    }
  }
  return out;
}

/**
 * Whether form f can still be made by a player with these exposures when `avail` copies of
 * each kind may still reach her (engine/mah-jongg/hand-check.ts formStillPossible, from one seat's
 * knowledge), and whether it still needs tile `t`.
 */
function openAndNeeds(cc: CompiledCard, f: number, exposures: readonly Group[], avail: readonly number[], t: TileId): { open: boolean; needs: boolean } {
  let jokersNeeded = 0,
    needs = false;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const k = cc.entryKind[e];
    let need = cc.entryNeed[e];
    for (const x of exposures) if (x.tile === k) need -= x.size;
    if (need <= 0) continue;
    if (k === t) needs = true;
    if (cc.entrySingle[e] > avail[k]) return { open: false, needs };
    jokersNeeded += Math.max(0, need - avail[k]);
  }
  return { open: jokersNeeded <= (cc.lineJokers[cc.formLine[f]] === 1 ? avail[JOKER] : 0), needs };
}

/**
 * How safe each distinct tile on the seat's rack is to discard, in the tiles' order. Built
 * from the view only: the table's tiles, the seat's own rack and the other racks' counts.
 */
export function tileSafety(cc: CompiledCard, view: SeatView, opts: { closeHidden?: number; bare?: boolean } = {}): TileSafety[] {
  const closeHidden = opts.closeHidden ?? CLOSE_HIDDEN;
  const table = tableCounts(view);
  const threats = threatsOf(cc, view, opts.bare !== true);
  // copies that may still reach another player: not on the table, not on this rack
  const avail = view.copies.map((c, t) => c - table[t] - view.concealed[t]);
  const anyExposed = view.exposures.some((list, s) => s !== view.seat && list.length > 0);
  const out: TileSafety[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (view.concealed[t] === 0) continue;
    const name = tileWords(t);
    if (t === JOKER) {
      // teaching guide 4.9: "If a Joker is discarded, it cannot be picked up."
      out.push({ tile: t, level: 'safe', why: 'Nobody may pick up a discarded joker: safe, though a joker is usually worth keeping.' });
      continue;
    }
    // the tile discarded is one more copy that may reach the others
    const reach = avail.slice();
    reach[t] += 1;
    let worst: { threat: Threat; share: number; level: SafetyLevel } | null = null;
    for (const threat of threats) {
      let share: number;
      if (threat.needs !== null) {
        // issue 48: the share is the reading's chance that her hand still needs the tile: her
        // discards weigh the hands she may be making, not only her exposures
        share = threat.needs[t];
      } else {
        let open = 0,
          needing = 0;
        for (const f of threat.forms) {
          const r = openAndNeeds(cc, f, threat.exposures, reach, t);
          if (!r.open) continue;
          open++;
          if (r.needs) needing++;
        }
        if (open === 0 || needing === 0) continue;
        share = needing / open;
      }
      if (share <= 0) continue;
      const close = threat.hidden <= closeHidden;
      const level: SafetyLevel | null = close && share >= DANGEROUS_SHARE ? 'dangerous' : share >= RISKY_SHARE || close ? 'risky' : null;
      if (level === null) continue;
      const rank = (l: SafetyLevel) => (l === 'dangerous' ? 2 : 1);
      if (worst === null || rank(level) > rank(worst.level) || (level === worst.level && share > worst.share)) worst = { threat, share, level };
    }
    if (worst !== null) {
      const who = where(view.seat, worst.threat.seat, view.players);
      const shown = exposuresWords(worst.threat.exposures);
      const why =
        worst.level === 'dangerous' ? `${who} has exposed ${shown} and is close: ${name} may finish her hand.` : `${who} has exposed ${shown}, and ${name} fits some of the hands she may be making.`;
      out.push({ tile: t, level: worst.level, why, from: worst.threat.seat, ...(worst.level === 'dangerous' && { warning: `${who} may be waiting for ${name}: discard it anyway?` }) });
      continue;
    }
    const others = view.copies[t] - view.concealed[t];
    if (table[t] >= others) {
      const held = view.concealed[t] === 1 ? 'you hold the last' : `you hold the other ${COUNT_WORDS[view.concealed[t]] ?? view.concealed[t]}`;
      out.push({ tile: t, level: 'safe', why: `${name} is on the table ${TIMES[table[t]] ?? `${table[t]} times`} and ${held}: safe.` });
    } else if (table[t] === 0 && view.wallLeft <= LATE_WALL) {
      out.push({ tile: t, level: 'risky', why: `Nobody has thrown ${name} yet and the wall is running low: a player who has shown nothing may be waiting for it.` });
    } else if (table[t] > 0) {
      out.push({ tile: t, level: 'safe', why: `${name} has been thrown before${anyExposed ? ' and no exposed hand needs it' : ''}: safe.` });
    } else {
      out.push({ tile: t, level: 'safe', why: anyExposed ? `No exposed hand needs ${name}: safe.` : `Nobody has exposed anything yet: ${name} is safe for now.` });
    }
  }
  return out;
}

/**
 * The other players' hands the tiles on the table prove impossible (teaching guide 6.6: a
 * hand may be declared dead when it is noticed she cannot win because of the discarded
 * tiles), each with the reason in one sentence. The proof is the engine's (the table only,
 * never this seat's rack), so each one is a legal callDead on the seat's turn.
 */
export function deadCalls(cc: CompiledCard, view: SeatView): DeadCall[] {
  const table = tableCounts(view);
  const out: DeadCall[] = [];
  for (let s = 0; s < view.players; s++) {
    if (s === view.seat) continue;
    for (const [rack, shapes] of racksOf(view.exposures[s])) {
      if (!rackLive(view, s, rack)) continue;
      if (exposuresCanComplete(cc, shapes, table, undefined, view.copies)) continue;
      const who = where(view.seat, s, view.players);
      out.push({ target: s, rack, text: `Call ${who}'s hand dead: ${deadReason(cc, shapes, table, view.copies)}.` });
    }
  }
  return out;
}

/** Why no hand fits the exposures any more, in words: no line takes them, or the tiles they lack are gone. */
function deadReason(cc: CompiledCard, shapes: readonly Group[], table: readonly number[], copies: readonly number[]): string {
  const shown = exposuresWords(shapes);
  const forms = fittingForms(cc, shapes);
  if (forms.length === 0) return `no hand on the card has ${shown}`;
  // the kind each fitting form runs out of first; one kind for all of them is the reason to name
  const left = copies.map((c, t) => c - table[t]);
  const short = new Set<number>();
  for (const f of forms) {
    let kind = -1;
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1] && kind < 0; e++) {
      const k = cc.entryKind[e];
      let need = cc.entryNeed[e];
      for (const x of shapes) if (x.tile === k) need -= x.size;
      if (need > 0 && cc.entrySingle[e] > left[k]) kind = k;
    }
    short.add(kind);
  }
  if (short.size === 1 && !short.has(-1)) {
    const k = [...short][0];
    return `every hand with ${shown} needs ${tileWords(k)} as a single or pair, and ${tileWords(k)} is on the table ${TIMES[table[k]] ?? `${table[k]} times`}`;
  }
  return `the tiles on the table leave none of the hands with ${shown} possible`;
}
