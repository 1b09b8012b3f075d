import type { CompiledCard } from './compile.js';
import { exposuresCanComplete, kindsWitness, PoolProof } from './hand-check.js';
import { type Exposure, type GameState, rackExposures, rackLive } from './state.js';
import { JOKER, KINDS, type TileId } from './tiles.js';

/**
 * What the tiles of one game prove, kept beside its state so that questions never write to
 * it: which racks can no longer be Mah Jongg whatever tile comes in, and which hands the table
 * proves dead (teaching guide 6.6). The answers are the rules' own; the proofs only make them
 * fast, by carrying from one step to the next what still holds. Every proof is checked
 * against the tiles it is asked about, so an object made afresh (for a copied or sampled
 * state) gives the same answers as one carried through a whole game.
 */
export class TableProofs {
  /** Per seat, why its rack is no Mah Jongg whatever tile comes in (see KindsProof). */
  private readonly kinds: KindsProof[] = [];
  /** Per seat, a Siamese pool's proofs by rack + 1 (racks without exposures share the first). */
  private readonly pools: PoolProof[][] = [];
  /** Scratch: a pool with a rack's exposed tiles counted in. */
  private readonly merged = new Array<number>(KINDS).fill(0);
  /** The dead-hand proofs per rack slot (seat * racks + rack), as of a table version. */
  private readonly dead: DeadProofs = { version: -1, proofs: [], hints: [], seen: [], live: [], exposed: [] };

  /** `copies`: the copies of each kind the game plays with (copiesOf its ruleset). */
  constructor(private readonly copies: readonly number[]) {}

  /**
   * The card lines a seat's rack (with `extra`, a claimed tile) may still complete: null when
   * proved none; undefined when the proofs narrow nothing (completeForms looks at every line);
   * for a Siamese pool, the lines its proof left open, which completeForms needs to look at
   * for these very tiles.
   */
  linesLeft(state: GameState, seat: number, exposures: readonly Exposure[], extra: TileId | null): Uint8Array | null | undefined {
    const cc = state.cc,
      p = state.players[seat];
    const con = p.concealed;
    // the proof reads only the counts, so one kept per seat holds for whatever rack sits there
    let proof = this.kinds[seat];
    if (proof === undefined) {
      proof = { base: new Uint8Array(KINDS), none: false, valid: false };
      this.kinds[seat] = proof;
    }
    // one pass: the tiles in all, and whether the rack still holds the proof's kinds
    const base = proof.base;
    let total = extra === null ? 0 : 1,
      holds = true;
    for (let t = 0; t < KINDS; t++) {
      const n = con[t];
      total += n;
      if (n < base[t]) holds = false;
    }
    for (let i = 0; i < exposures.length; i++) total += exposures[i].size;
    if (total !== 14) return this.poolLinesLeft(cc, seat, con, exposures, extra);
    if (!(holds && proof.valid)) {
      proof.valid = true;
      proof.none = !kindsWitness(cc, con, base);
    }
    return proof.none ? null : undefined;
  }

  /** A Siamese pool (more than 14 tiles) with the rack's exposed tiles counted in: null when proved to complete no line, else the lines left open. */
  private poolLinesLeft(cc: CompiledCard, seat: number, concealed: readonly number[], exposures: readonly Exposure[], extra: TileId | null): Uint8Array | null {
    const rack = exposures.length > 0 ? exposures[0].rack : -1;
    let merged = concealed; // a rack without exposures: the concealed tiles are the pool
    if (exposures.length > 0) {
      const m = (merged = this.merged);
      for (let t = 0; t < KINDS; t++) m[t] = concealed[t];
      for (const x of exposures) {
        m[x.tile] += x.size - x.jokers;
        m[JOKER] += x.jokers;
      }
    }
    const proofs = (this.pools[seat] ??= []);
    let proof = proofs[rack + 1];
    if (proof === undefined || proof.cc !== cc) {
      // a rack's first exposure: its pool is the bare one's, a tile or two apart
      const bare = proofs[0];
      proof = proofs[rack + 1] = new PoolProof(cc, bare !== undefined && bare.cc === cc ? bare : undefined);
    }
    return proof.cannotComplete(merged, extra ?? -1) ? null : proof.open;
  }

  /**
   * Per rack slot (seat * racks + rack), whether the tiles on the table prove the hand
   * impossible (teaching guide 6.6). The proofs only change with the table, not from one
   * seat's step to the next, and then only for the racks whose last proof the change touched
   * (proofStands).
   */
  deadHands(state: GameState): readonly boolean[] {
    const cache = this.dead;
    if (cache.version === state.tableVersion) return cache.proofs;
    const racks = state.rules.racks,
      visible = state.visible;
    cache.version = state.tableVersion;
    const slots = state.rules.players * racks;
    if (cache.proofs.length !== slots) {
      cache.proofs = new Array<boolean>(slots).fill(false);
      cache.live = new Array<number>(slots).fill(-1);
      cache.exposed = new Array<number>(slots).fill(0);
      cache.seen = Array.from({ length: slots }, () => new Array<number>(KINDS).fill(0));
    }
    for (let target = 0; target < state.rules.players; target++) {
      const p = state.players[target];
      for (let rack = 0; rack < racks; rack++) {
        const slot = target * racks + rack;
        if (p.exposures.length === 0 || !rackLive(p, rack)) {
          cache.proofs[slot] = false;
          cache.live[slot] = -1;
          continue;
        }
        const shape = exposureShape(p.exposures);
        if (cache.exposed[slot] === shape && proofStands(state.cc, cache, slot, visible)) continue;
        const was = cache.live[slot];
        const dead = this.provablyDead(state, target, rack);
        const live = dead ? -1 : (cache.hints[slot]?.form ?? -1);
        cache.proofs[slot] = dead;
        cache.live[slot] = live;
        cache.exposed[slot] = shape;
        const seen = cache.seen[slot];
        if (live >= 0 && live === was) {
          // the same form still live: proofStands reads only its kinds and the jokers
          const { entryStart, entryKind } = state.cc;
          seen[JOKER] = visible[JOKER];
          for (let e = entryStart[live]; e < entryStart[live + 1]; e++) seen[entryKind[e]] = visible[entryKind[e]];
        } else for (let t = 0; t < KINDS; t++) seen[t] = visible[t];
      }
    }
    return cache.proofs;
  }

  /** Teaching guide 6.6: a hand may be called dead when the tiles on the table prove it impossible. */
  provablyDead(state: GameState, target: number, rack: number): boolean {
    const p = state.players[target];
    const exposures = rackExposures(p, rack);
    if (exposures.length === 0 || !rackLive(p, rack)) return false;
    const hints = this.dead.hints;
    const hint = (hints[target * state.rules.racks + rack] ??= { form: -1 });
    return !exposuresCanComplete(state.cc, exposures, state.visible, hint, this.copies);
  }
}

/**
 * The kinds (jokers aside) a seat's last answer rests on. When `none`: a few kinds of its
 * concealed tiles that no form holds all of (kindsWitness), so a 14-tile hand still holding a
 * tile of each is no Mah Jongg whatever single tile came in (the claim windows between two
 * turns, then the draw, ask about the same rack), and a discard keeps the proof while a tile
 * of each stays. Otherwise every kind it held: a hand holding them all is checked in full.
 */
interface KindsProof {
  base: Uint8Array;
  none: boolean;
  valid: boolean;
}

/**
 * Per rack slot: whether the table proves it impossible, as of a table version; when it was
 * last checked, the visible counts (`seen`), a form it could still make (`live`, -1: none
 * known) and its player's exposures (`exposed`, exposureShape); `hints` where the next search
 * starts.
 */
interface DeadProofs {
  version: number;
  proofs: boolean[];
  hints: { form: number }[];
  seen: number[][];
  live: number[];
  exposed: number[];
}

/**
 * A player's exposures as they stand, as one number: how many, and the jokers in them. Both
 * only change by a new exposure, or a joker exchanged out of one (which can make a hand
 * possible again: an exposure without jokers fits the lines that take none).
 */
function exposureShape(exposures: readonly Exposure[]): number {
  let jokers = 0;
  for (let i = 0; i < exposures.length; i++) jokers += exposures[i].jokers;
  return exposures.length * 256 + jokers;
}

/**
 * Whether a rack's last proof stands with its exposures as they were. Found live through
 * form f: while the visible counts of f's kinds (and of jokers, when f's line takes them)
 * are as they were, since formStillPossible reads nothing else; most discards touch none of
 * them. Proved dead: while no visible count fell (a joker exchanged back), since fewer tiles
 * left unseen never make a hand possible again.
 */
function proofStands(cc: CompiledCard, cache: DeadProofs, slot: number, visible: readonly number[]): boolean {
  const seen = cache.seen[slot],
    f = cache.live[slot];
  if (f >= 0) {
    if (cc.lineJokers[cc.formLine[f]] === 1 && visible[JOKER] !== seen[JOKER]) return false;
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) if (visible[cc.entryKind[e]] !== seen[cc.entryKind[e]]) return false;
    return true;
  }
  if (!cache.proofs[slot]) return false; // not checked yet
  for (let t = 0; t < KINDS; t++) if (visible[t] < seen[t]) return false;
  return true;
}
