import { awayFromPlaced, PLACED, placeForm } from '../../engine/mah-jongg/analyzer.js';
import { IncrementalTilesAway } from '../../engine/mah-jongg/incremental.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { unseenCounts } from '../../engine/mah-jongg/seat.js';
import type { Action, SeatView } from '../../engine/mah-jongg/game.js';
import { handAfterCall } from '../../engine/mah-jongg/seat.js';
import { closestAway, exposuresFitCard, fitsForm, formLack } from '../../engine/mah-jongg/hand-check.js';
import { nextInt, type RngState } from '../../engine/rng.js';
import { JOKER, KINDS, type TileId } from '../../engine/mah-jongg/tiles.js';
import type { Agent, Turn } from '../agent.js';
import { tileSafety } from './defence.js';
import { readSeat } from '../../engine/mah-jongg/reading.js';
import { searchCourtesy, searchPass, searchVote } from './charleston.js';
import type { Group } from '../../engine/mah-jongg/tiles.js';

/**
 * The heuristic player: it picks target lines with the analyzer (fewest tiles away, then
 * value), keeps the tiles that serve its best targets, and passes and discards the rest;
 * it calls only when the exposure brings an exposed target nearer, takes every joker it can
 * exchange for, declares whenever it can, and late in the game avoids feeding an opponent
 * whose exposures show what she needs.
 *
 * Habits make the levels: `noise` (random doubt about each tile's worth), `stickiness`
 * (reluctance to switch targets), `defence` (whether to read opponents at all), and a
 * beginner's: `commit`, `callWithin`, `ownJokersOnly`, `noBlindPass`.
 */
export interface Habits {
  /** Targets weighed: the k closest lines. */
  targets: number;
  /** Random doubt added to each tile's worth (0 = none). */
  noise: number;
  /** Extra worth of tiles in the previous decision's target (slow to switch targets). */
  stickiness: number;
  /** Avoid discarding what opponents' exposures need, as the wall runs down. */
  defence: boolean;
  /** Choose Charleston passes, the vote on a second Charleston and the courtesy pass by sampling what may come back (agents/mah-jongg/charleston.ts), not from the hand alone. */
  lookahead?: boolean;
  /** Target only forms that can still be made with the tiles not yet seen on the table. */
  live?: boolean;
  /** Extra tiles away counted for each tile a form still lacks in its singles and pairs (they cannot be called or filled by jokers). */
  pairCost?: number;
  /** Call a discard for an exposure only when it leaves the hand at most this many tiles away (unset: whenever it brings a target nearer). */
  callWithin?: number;
  /** Exchange only for jokers on the seat's own rack (unset: on any rack). */
  ownJokersOnly?: boolean;
  /** Keep the line first targeted while it stays within this many tiles of the closest (unset: always the closest). */
  commit?: number;
  /** Never steal in the Charleston's last pass of each round: always pass three of her own. */
  noBlindPass?: boolean;
  /**
   * Defence rule (issue 29): when the cheapest discard is one agents/mah-jongg/defence.ts rates
   * dangerous, discard instead the cheapest tile it does not, if that one is worth at most
   * this much more to her own hand (unset: no such rule).
   */
  guard?: number;
  /** With guard: the rule only with this many tiles left in the wall or fewer (unset: always). */
  guardWall?: number;
  /** With guard: an opponent counts as close with this many hidden tiles or fewer (agents/mah-jongg/defence.ts tileSafety; unset: its default). */
  guardHidden?: number;
  /**
   * With defence: each opponent's need of a tile read from the table (engine/mah-jongg/reading.ts:
   * her exposures, her discards and the tiles that can still reach her), not the bare share of
   * the forms her exposures fit (issue 48), times this weight. At 1 against medium
   * (lab/defence-study.ts, 4,000 duplicate deals a card): points given away by discards -0.17,
   * -0.22 and -0.53 a game on the practice, garden and orchard cards, each interval below 0, win
   * share level, mean score +0.10, +0.20 and +0.34 (only the last's interval above 0); at 2 and
   * 4 it gives away less but wins less (docs/training.md). Medium does not take it yet: every
   * level is measured against medium, so changing it moves every figure.
   */
  readDanger?: number;
}

export const MEDIUM_HABITS: Habits = { targets: 3, noise: 0, stickiness: 0, defence: true };
/**
 * The searching players' own play (and the advice's): the heuristic's, targeting only live
 * forms and counting each missing single or pair tile as half a tile further away, since
 * only a draw brings it (no call, no joker). Measured against three medium players, 4,000
 * duplicate deals: win share 25.1% (24.5-25.7) against their 19.1%.
 */
export const STRONG_HABITS: Habits = { ...MEDIUM_HABITS, live: true, pairCost: 0.5 };
/**
 * Medium's habits with the defence rule (Habits.guard): a dangerous discard is swapped for a
 * tile that is not, when that tile is worth at most half a tile more to her hand. Measured
 * against medium (lab/defence-study.ts, each against three medium bots, 4,000 duplicate
 * deals, seed 31, paired differences with 95% intervals): points given away by discards
 * -0.56 a game (-0.71 to -0.42; medium gives away 10.04), Mah Jonggs fed -0.81 points of a
 * percent, but win share -0.27 points of a percent (-0.41 to -0.13) and mean score -0.29
 * (-0.62 to 0.04). It gives away less and wins less, so medium does not take it; limited to
 * opponents with at most 4 hidden tiles (guardHidden 4) it changes nothing measurable (mean
 * score -0.01, -0.10 to 0.09).
 */
export const GUARDED_HABITS: Habits = { ...MEDIUM_HABITS, guard: 0.5 };
/** The same, with Charleston passes, the vote and the courtesy offer chosen by lookahead. */
export const LOOKAHEAD_HABITS: Habits = { ...STRONG_HABITS, lookahead: true };
/**
 * A beginner's habits (the teaching guide's hints are what she has not learned yet); never
 * random: each choice is one a new player makes.
 */
export const EASY_HABITS: Habits = {
  // one hand in mind at a time, the closest she sees
  targets: 1,
  // she keeps every tile her hand needs (each worth 1 or more), and throws any of the others, not the one least likely to help an opponent
  noise: 0.5,
  stickiness: 0, // commit keeps her to her line instead
  // she plays her own rack and does not read what the others' exposures are after
  defence: false,
  // she "marries" the hand she picked at the deal and leaves it only when another is more than three tiles closer
  commit: 3,
  // she hesitates to expose, calling only when the call leaves her two tiles from Mah Jongg or closer
  callWithin: 2,
  // she watches her own rack, not the others', for a joker to exchange (teaching guide part 4: a player may take back her own displayed joker)
  ownJokersOnly: true,
  // the blind pass is an option she leaves to experienced players: she always passes three of her own tiles
  noBlindPass: true,
};

export class HeuristicAgent implements Agent {
  readonly name: string;
  /** Tiles away of each line and form, and what the hand places in each form, for the hand without exposures last weighed (kept from decision to decision). */
  private readonly lines: IncrementalTilesAway;
  /** Kinds of the previous target form (stickiness). */
  private lastTarget: number[] = [];
  /** Each seat's line kept to (commit; none yet: undefined), so a player serving several seats keeps each hand's. */
  private readonly keptLine: number[] = [];
  /**
   * The hand's least tiles away, kept from one call window to the next: it changes only on
   * the seat's own turns (exposures as shapesKey; -1: none yet); and `useful`, 1 for each
   * kind whose call could bring the hand nearer (claim).
   */
  private readonly held = { concealed: new Uint8Array(KINDS), exposed: -1, away: 0, useful: new Uint8Array(KINDS) };
  /** The forms the seat's exposures fit (exposed lines only, in form order), for the exposures keyed `fitKey` (shapesKey; NaN: none yet). */
  private fitKey = NaN;
  private fitList: number[] = [];
  /** Placed counts and tiles away of the forms a hand with exposures fits (worths' scratch). */
  private readonly xPlaced: Uint16Array;
  private readonly xAway: Uint8Array;
  /** Each kind's worth and unseen copies for the decision last weighed (worths). */
  private readonly worth = new Float64Array(KINDS);
  private unseen: readonly number[] = [];

  constructor(
    private readonly cc: CompiledCard,
    private readonly habits: Habits = MEDIUM_HABITS,
    name = 'heuristic',
  ) {
    this.name = name;
    this.lines = new IncrementalTilesAway(cc);
    this.xPlaced = new Uint16Array(cc.formCount);
    this.xAway = new Uint8Array(cc.formCount);
  }

  act(turn: Turn): Action {
    const seat = turn.seat;
    // the view is built only for the decisions that read it (not draws, nor claim windows with no call)
    switch (turn.phase) {
      case 'charleston':
        return this.pass(turn.view(), turn.rng);
      case 'vote': {
        const view = turn.view();
        if (this.habits.lookahead) return { type: 'vote', seat, yes: searchVote(this.cc, view, turn.rng).yes };
        return { type: 'vote', seat, yes: this.closest(view.concealed, myExposures(view)) > 3 };
      }
      case 'courtesy': {
        const view = turn.view();
        const ranked = this.ranked(view, turn.rng);
        if (this.habits.lookahead)
          return {
            type: 'courtesy',
            seat,
            tiles: searchCourtesy(
              this.cc,
              view,
              ranked.map((r) => r.tile),
              turn.rng,
            ).tiles,
          };
        return {
          type: 'courtesy',
          seat,
          tiles: ranked
            .filter((r) => r.worth === 0)
            .slice(0, 3)
            .map((r) => r.tile),
        };
      }
      default:
        break;
    }
    const options = turn.legal();
    // the first of each kind, in one pass (a decision late in a playout is mostly this)
    let both: Action | undefined, declare: Action | undefined, callMahJongg: Action | undefined, exchange: Action | undefined;
    let dead: Action | undefined,
      call = false,
      discard: Action | undefined,
      draw: Action | undefined;
    for (const a of options) {
      switch (a.type) {
        case 'declare':
        case 'callMahJongg':
          if (a.both && both === undefined) both = a;
          if (a.type === 'declare') declare ??= a;
          else callMahJongg ??= a;
          break;
        case 'exchange':
          if (!this.habits.ownJokersOnly || a.owner === a.seat) exchange ??= a;
          break;
        case 'callDead':
          dead ??= a;
          break;
        case 'call':
          call = true;
          break;
        case 'discard':
          discard ??= a;
          break;
        case 'draw':
          draw ??= a;
          break;
        default:
          break;
      }
    }
    const mahJongg = both ?? declare ?? callMahJongg;
    if (mahJongg) return mahJongg;
    if (exchange) return exchange;
    if (dead) return dead;
    if (turn.phase === 'claims') return call ? this.claim(turn.view(), options) : { type: 'decline', seat };
    if (turn.phase === 'discard') {
      const view = turn.view();
      let tile = this.cheapest(view, turn.rng);
      if (tile >= 0 && this.habits.guard !== undefined) tile = this.guarded(view, tile, this.habits.guard);
      if (tile >= 0) return { type: 'discard', seat, tile };
      return discard ?? options[0]; // nothing but jokers left
    }
    return draw ?? options[0];
  }

  /** The held tiles, cheapest to give up first (for searching players choosing candidates). */
  rank(turn: Turn): { tile: TileId; worth: number }[] {
    return this.ranked(turn.view(), turn.rng);
  }

  /** The same for a view as it would stand (a hand after a call, for a player weighing the call). */
  rankView(view: SeatView, rng: RngState): { tile: TileId; worth: number }[] {
    return this.ranked(view, rng);
  }

  /** Least tiles away over the lines the seat's exposures allow. */
  private closest(concealed: readonly number[], exposures: readonly Group[]): number {
    if (exposures.length > 0) return closestAway(this.cc, concealed, exposures);
    // every line: this player's kept figures, mended (the same as closestAway's)
    this.lines.update(concealed);
    let min = 99;
    for (let l = 0; l < this.cc.lineCount; l++) if (this.lines.away[l] < min) min = this.lines.away[l];
    return min;
  }

  /**
   * The held tiles (never jokers), cheapest to give up first. One pass of the fast core
   * gives every form's tiles away; the forms within one tile of the closest are the
   * targets (the closest weigh most, then by value). A tile costs the weight of the targets
   * it would set back by a tile if it went (a surplus copy costs nothing), plus stickiness,
   * plus the danger of feeding an opponent, plus noise.
   */
  private ranked(view: SeatView, rng: RngState): { tile: TileId; worth: number }[] {
    this.worths(view, rng);
    const { worth, unseen } = this;
    const out: { tile: TileId; worth: number }[] = [];
    for (let t = 0; t < JOKER; t++) if (view.concealed[t] > 0) out.push({ tile: t, worth: worth[t] });
    return out.sort((a, b) => a.worth - b.worth || unseen[a.tile] - unseen[b.tile] || a.tile - b.tile);
  }

  /** The first tile `ranked` would list (the discard), without listing them all; -1 when only jokers are held. */
  private cheapest(view: SeatView, rng: RngState): TileId {
    this.worths(view, rng);
    const { worth, unseen } = this;
    let best = -1;
    for (let t = 0; t < JOKER; t++) {
      if (view.concealed[t] === 0) continue;
      // ranked's order: worth, then fewer unseen copies, then the lower kind (met first)
      if (best < 0 || worth[t] < worth[best] || (worth[t] === worth[best] && unseen[t] < unseen[best])) best = t;
    }
    return best;
  }

  /**
   * The defence rule (Habits.guard): the cheapest tile (`best`, its worth in this.worth) unless
   * agents/mah-jongg/defence.ts rates it dangerous and another tile, not dangerous, is worth at most
   * `margin` more; then the cheapest of those.
   */
  private guarded(view: SeatView, best: TileId, margin: number): TileId {
    // only a player with exposures makes a tile dangerous
    if (!view.exposures.some((list, s) => s !== view.seat && list.length > 0)) return best;
    if (this.habits.guardWall !== undefined && view.wallLeft > this.habits.guardWall) return best;
    const rated = tileSafety(this.cc, view, { closeHidden: this.habits.guardHidden });
    const dangerous = new Uint8Array(KINDS);
    for (const r of rated) if (r.level === 'dangerous') dangerous[r.tile] = 1;
    if (dangerous[best] === 0) return best;
    const { worth, unseen } = this;
    let pick = best;
    for (let t = 0; t < JOKER; t++) {
      if (view.concealed[t] === 0 || dangerous[t] === 1 || worth[t] > worth[best] + margin) continue;
      if (pick === best || worth[t] < worth[pick] || (worth[t] === worth[pick] && unseen[t] < unseen[pick])) pick = t;
    }
    return pick;
  }

  /** Each held kind's worth into this.worth (see ranked), and the unseen counts into this.unseen. */
  private worths(view: SeatView, rng: RngState): void {
    const cc = this.cc;
    const mine = myExposures(view);
    // exposures: their tiles count as held, and only the forms they fit are targets
    const counts = [...view.concealed];
    for (const x of mine) {
      counts[x.tile] += x.size - x.jokers;
      counts[JOKER] += x.jokers;
    }
    const unseen = unseenCounts(view);
    this.unseen = unseen;
    const live = this.habits.live ? liveForms(cc, counts, unseen) : null;
    const fits = (f: number) => live === null || live[f] === 1;
    const cost = this.worth.fill(0);
    const reach = this.habits.targets > 1 ? 1 : 0;
    let nearest = 99,
      topForm = -1;
    if (mine.length > 0) {
      // only the forms the exposures fit are targets: those few weighed afresh (the kept
      // figures of every form are for hands without exposures, and stay as they were)
      const list = this.fitting(mine);
      const placed = this.xPlaced,
        away = this.xAway;
      for (const f of list) {
        placed[f] = placeForm(cc, f, counts);
        away[f] = awayFromPlaced(placed[f], cc.formSingles[f], cc.lineJokers[cc.formLine[f]] === 1 ? counts[JOKER] : 0);
      }
      for (const f of list) {
        const a = this.effective(f, placed, away);
        if (a < nearest && fits(f)) nearest = a;
      }
      // in form order, as over the lines below: the same sums, the same first target
      for (const f of list) {
        if (away[f] <= nearest + reach && this.weigh(f, nearest, reach, counts, cost, fits, placed, away) && topForm < 0) topForm = f;
      }
    } else {
      this.lines.update(counts);
      const { placed, formAway } = this.lines;
      for (let l = 0; l < cc.lineCount; l++) {
        if (this.lines.away[l] >= nearest) continue;
        if (live === null && !this.habits.pairCost) {
          nearest = this.lines.away[l];
          continue;
        }
        this.lines.openLine(l);
        nearest = Math.min(nearest, this.leastEffective(cc.lineStart[l], cc.lineStart[l + 1], placed, formAway, fits));
      }
      // the line kept to, while it stays within the habit's tiles of the closest: the only target
      const keep = this.habits.commit;
      const kept = this.keptLine[view.seat] ?? -1;
      let only = -1;
      if (keep !== undefined && kept >= 0 && this.lines.away[kept] <= nearest + keep) {
        this.lines.openLine(kept);
        const least = this.leastEffective(cc.lineStart[kept], cc.lineStart[kept + 1], placed, formAway, fits);
        if (least < 99) {
          only = kept;
          nearest = least;
        }
      }
      for (let l = 0; l < cc.lineCount; l++) {
        // a line's least tiles away bounds all its forms'
        if (this.lines.away[l] > nearest + reach || (only >= 0 && l !== only)) continue;
        this.lines.openLine(l);
        for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
          if (formAway[f] > nearest + reach) continue; // further still with the habit's extra: weigh would pass it by
          if (this.weigh(f, nearest, reach, counts, cost, fits, placed, formAway) && topForm < 0) topForm = f;
        }
      }
    }
    if (this.habits.stickiness > 0) for (const t of this.lastTarget) cost[t] += this.habits.stickiness;
    if (topForm >= 0) this.keptLine[view.seat] = cc.formLine[topForm];
    if (topForm >= 0 && this.habits.stickiness > 0) {
      this.lastTarget = [];
      for (let e = cc.entryStart[topForm]; e < cc.entryStart[topForm + 1]; e++) this.lastTarget.push(cc.entryKind[e]);
    }
    const danger = this.habits.defence ? this.danger(view) : null;
    for (let t = 0; t < JOKER; t++) {
      if (view.concealed[t] === 0) continue;
      if (danger) cost[t] += danger[t];
      if (this.habits.noise > 0) cost[t] += (nextInt(rng, 1000) / 1000) * this.habits.noise;
    }
  }

  /** The forms of exposed lines that the seat's exposures (one or more) fit, in form order; kept while the exposures stand. */
  private fitting(mine: readonly Group[]): number[] {
    const key = shapesKey(mine);
    if (key !== this.fitKey) {
      // NaN (too many to key) never equals: worked out afresh
      const cc = this.cc,
        list: number[] = [];
      // a form they fit holds the first one's kind: its postings, in form order
      for (let p = cc.postStart[mine[0].tile], end = cc.postStart[mine[0].tile + 1]; p < end; p++) {
        const f = cc.postForm[p];
        if (cc.card.lines[cc.formLine[f]].concealed || !fitsForm(cc, f, mine)) continue;
        list.push(f);
      }
      this.fitKey = key;
      this.fitList = list;
    }
    return this.fitList;
  }

  /**
   * Adds form f's weight to the cost of each held tile it could not spare; true when f is
   * one of the closest forms.
   */
  private weigh(f: number, nearest: number, reach: number, counts: number[], cost: Float64Array, fits: (f: number) => boolean, placed: Uint16Array, away: Uint8Array): boolean {
    const cc = this.cc;
    const a0 = this.effective(f, placed, away);
    if (a0 > nearest + reach || !fits(f)) return false;
    const j = cc.lineJokers[cc.formLine[f]] === 1 ? counts[JOKER] : 0;
    const weight = (a0 === nearest ? 1 : 0.25) * (1 + cc.card.lines[cc.formLine[f]].value / 100);
    for (let p = cc.entryStart[f]; p < cc.entryStart[f + 1]; p++) {
      const t = cc.entryKind[p],
        h = counts[t];
      if (t === JOKER || h === 0) continue;
      const code = cc.entryNeed[p] | (cc.entrySingle[p] << 4);
      const after = placed[f] - (PLACED[(h << 8) | code] - PLACED[((h - 1) << 8) | code]);
      if (this.effectiveFrom(after, f, j) > a0) cost[t] += weight;
    }
    return a0 === nearest;
  }

  /** Tiles away of form f (from its placed count and tiles away as weighed), with the habit's extra for missing single and pair tiles. */
  private effective(f: number, placed: Uint16Array, away: Uint8Array): number {
    const extra = this.habits.pairCost;
    return extra ? away[f] + extra * (this.cc.formSingles[f] - (placed[f] >> 8)) : away[f];
  }

  /** The least effective tiles away over forms from .. to - 1 that `fits` lets in (99 when none does). */
  private leastEffective(from: number, to: number, placed: Uint16Array, away: Uint8Array, fits: (f: number) => boolean): number {
    let least = 99;
    for (let f = from; f < to; f++) {
      const a = this.effective(f, placed, away);
      if (a < least && fits(f)) least = a;
    }
    return least;
  }

  /** The same from a packed placed count (engine/mah-jongg/analyzer.ts PLACED) and the usable jokers. */
  private effectiveFrom(placed: number, f: number, jokers: number): number {
    const a = awayFromPlaced(placed, this.cc.formSingles[f], jokers);
    const extra = this.habits.pairCost;
    return extra ? a + extra * (this.cc.formSingles[f] - (placed >> 8)) : a;
  }

  /**
   * Late in the game, how much discarding each kind risks: for each opponent whose
   * exposures narrow her hand down, the share of the forms they fit that need the kind.
   */
  private danger(view: SeatView): number[] | null {
    if (view.wallLeft > 40) return null;
    const cc = this.cc;
    const risk = new Array<number>(KINDS).fill(0);
    const scale = (40 - view.wallLeft) / 40;
    view.exposures.forEach((list, seat) => {
      if (seat === view.seat || list.length === 0 || view.dead[seat].every((d) => d)) return;
      const shapes = list.filter((x) => x.exchangeable).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
      if (shapes.length === 0) return;
      if (this.habits.readDanger !== undefined) {
        const r = readSeat(cc, view, seat);
        const w = scale * shapes.length * this.habits.readDanger;
        if (!r.noLine) for (let t = 0; t < KINDS; t++) risk[t] += w * r.needs[t];
        return;
      }
      const { fitting, need } = formsNeeding(cc, shapes);
      if (fitting > 0) for (let t = 0; t < KINDS; t++) risk[t] += (scale * shapes.length * need[t]) / fitting;
    });
    return risk;
  }

  private pass(view: SeatView, rng: RngState): Action {
    const ranked = this.ranked(view, rng);
    // pass what serves no target; when fewer than three such tiles, steal (blind pass) for the rest
    const useless = ranked.filter((r) => r.worth <= 0.05).length;
    if (this.habits.lookahead) {
      // weigh each allowed blind pass too: forwarding unseen keeps the hand, but brings nothing
      let choice = { tiles: [] as TileId[], blind: 3, expectedAway: this.closest(view.concealed, []) };
      if (!view.blindAllowed) choice.expectedAway = 99;
      for (let blind = view.blindAllowed ? 2 : 0; blind >= 0; blind--) {
        const c = searchPass(
          this.cc,
          view,
          ranked.map((r) => r.tile),
          3 - blind,
          3 - blind,
          rng,
        );
        if (c.expectedAway < choice.expectedAway) choice = { ...c, blind };
      }
      return { type: 'pass', seat: view.seat, tiles: choice.tiles, blind: choice.blind };
    }
    const blind = view.blindAllowed && !this.habits.noBlindPass ? Math.max(0, Math.min(3, 3 - useless)) : 0;
    return { type: 'pass', seat: view.seat, tiles: ranked.slice(0, 3 - blind).map((r) => r.tile), blind };
  }

  /** Called only when some call is among the options. */
  private claim(view: SeatView, options: Action[]): Action {
    const mine = myExposures(view);
    const held = this.held,
      exposed = shapesKey(mine);
    let same = held.exposed === exposed;
    for (let t = 0; t < KINDS && same; t++) same = held.concealed[t] === view.concealed[t];
    if (!same) {
      held.concealed.set(view.concealed);
      held.exposed = exposed;
      held.away = this.callWorth(view.concealed, mine, held.useful);
    }
    const now = held.away;
    const tile = view.claim!.tile;
    let choice: Action = { type: 'decline', seat: view.seat };
    if (held.useful[tile] === 0) return choice; // no call of it could come nearer (most windows)
    // a call brings the hand one tile nearer at most (callWorth)
    const within = this.habits.callWithin;
    if (within !== undefined && now - 1 > within) return choice;
    let bestAfter = now;
    for (const a of options) {
      if (a.type !== 'call') continue;
      const { concealed: hand, exposures } = handAfterCall(view.concealed, mine, tile, a);
      if (!exposuresFitCard(this.cc, exposures)) continue;
      // an exposure must bring an exposed target nearer; spend as few jokers as possible
      const after = this.closest(hand, exposures);
      if (after < bestAfter || (after === bestAfter && after < now && choice.type === 'call' && a.jokers < choice.jokers)) {
        bestAfter = after;
        choice = a;
      }
    }
    return choice;
  }

  /**
   * The hand's least tiles away over the lines its exposures allow (as closestAway), and in
   * `useful` a 1 for each kind whose call could bring it nearer. A call of kind t adds one
   * tile to the hand and fixes one more group of t: each form's tiles away (hand-check.ts
   * formLack) then drops by one at most, and only if the form still lacks t beyond what the
   * exposures hold, with a group of t left for the new one. So only forms of exposed lines
   * at the least tiles away can make a call worth it, through the kinds they lack so.
   */
  private callWorth(concealed: readonly number[], mine: readonly Group[], useful: Uint8Array): number {
    const cc = this.cc;
    // the bound holds for forms made of natural kinds; a card asking for jokers as tiles gets no shortcut
    if (cc.postStart[JOKER + 1] > cc.postStart[JOKER]) {
      useful.fill(1);
      return this.closest(concealed, mine);
    }
    useful.fill(0);
    let now = 99;
    if (mine.length === 0) {
      now = this.closest(concealed, mine); // which leaves every line's figures in this.lines (its forms' written out by openLine)
      for (let l = 0; l < cc.lineCount; l++) {
        if (this.lines.away[l] !== now || cc.card.lines[l].concealed) continue;
        this.lines.openLine(l);
        for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) if (this.lines.formAway[f] === now) markLacking(cc, f, concealed, mine, useful);
      }
      return now;
    }
    const list = this.fitting(mine);
    const lack = list.map((f) => formLack(cc, f, concealed, mine));
    for (const a of lack) if (a < now) now = a;
    for (let i = 0; i < list.length; i++) if (lack[i] === now) markLacking(cc, list[i], concealed, mine, useful);
    return now;
  }
}

/** Marks in `useful` each kind form f lacks beyond what the hand and its exposures hold, and holds in a group not yet exposed. */
function markLacking(cc: CompiledCard, f: number, concealed: readonly number[], mine: readonly Group[], useful: Uint8Array): void {
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    let exposed = 0;
    for (const x of mine) if (x.tile === t) exposed += x.size;
    if (cc.entryNeed[e] - exposed > concealed[t] && cc.entryNeed[e] - cc.entrySingle[e] - exposed > 0) useful[t] = 1;
  }
}

/**
 * A list of exposures as one number, 12 bits a shape in order (tile < 64, size < 8,
 * jokers < 8), with the count below: exact for up to four exposures (a rack's most); NaN,
 * equal to nothing, beyond (two racks), so those are never kept.
 */
function shapesKey(shapes: readonly Group[]): number {
  if (shapes.length > 4) return NaN;
  // -0: float arithmetic from the first call (three shapes pass 2^31, and integer code would deoptimize its callers once per thread)
  let key = -0;
  for (const x of shapes) key = key * 4096 + ((x.tile << 6) | (x.size << 3) | x.jokers);
  return key * 8 + shapes.length;
}

/**
 * For an opponent's exposures, the exposed forms they fit and how many entries of those
 * forms ask for each kind. It depends only on the exposures, which change a few times a
 * hand, so the answers are kept per card (the danger late in the hand asks on every
 * decision; a result must not be changed).
 */
export function formsNeeding(cc: CompiledCard, shapes: readonly Group[]): { fitting: number; need: number[] } {
  let memo = NEEDING.get(cc);
  if (memo === undefined) {
    memo = new Map();
    NEEDING.set(cc, memo);
  }
  const key = shapesKey(shapes);
  const hit = Number.isNaN(key) ? undefined : memo.get(key);
  if (hit !== undefined) return hit;
  let fitting = 0;
  const need = new Array<number>(KINDS).fill(0);
  for (let f = 0; f < cc.formCount; f++) {
    if (cc.card.lines[cc.formLine[f]].concealed || !fitsForm(cc, f, shapes)) continue;
    fitting++;
    for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) need[cc.entryKind[e]]++;
  }
  const out = { fitting, need };
  if (Number.isNaN(key)) return out;
  if (memo.size >= 1024) memo.clear();
  memo.set(key, out);
  return out;
}

const NEEDING = new WeakMap<CompiledCard, Map<number, { fitting: number; need: number[] }>>();

export function myExposures(view: SeatView): Group[] {
  return view.exposures[view.seat].filter((x) => x.exchangeable).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
}

/**
 * 1 for each form that can still be made: its singles and pairs need no more natural
 * tiles than the seat holds or has not seen, and its groups no more jokers than remain.
 * It depends only on those counts (held + unseen), which change only when tiles show on
 * the table, a kind or two at a time; so the last few answers are kept per card (the seats
 * of a table see different tiles), and a new one is the closest kept answer with the same
 * jokers mended for the forms holding a kind whose count differs (all forms when none has
 * the same jokers). An answer is never changed once returned (callers keep it).
 */
export function liveForms(cc: CompiledCard, held: readonly number[], unseen: readonly number[]): Uint8Array {
  let kept = LIVE.get(cc);
  if (kept === undefined) {
    kept = Array.from({ length: LIVE_KEPT }, () => ({ avail: new Int8Array(KINDS).fill(-1), out: new Uint8Array(cc.formCount) }));
    LIVE.set(cc, kept);
  }
  // the seats of a table see different tiles (their own exposures, their jokers): an answer kept
  // for each, and the new one mended from the kept one with the same jokers that differs in the fewest kinds
  const jokers = held[JOKER] + unseen[JOKER];
  let at = -1,
    changed = KINDS + 1;
  for (let k = 0; k < kept.length && changed > 0; k++) {
    const avail = kept[k].avail;
    if (avail[JOKER] !== jokers) continue;
    let c = 0;
    for (let t = 0; t < JOKER && c < changed; t++) if (avail[t] !== held[t] + unseen[t]) c++;
    if (c < changed) {
      changed = c;
      at = k;
    }
  }
  if (changed === 0) return kept[at].out;
  const full = at < 0 || changed > 8;
  const entry = full ? { avail: new Int8Array(KINDS), out: new Uint8Array(cc.formCount) } : { avail: kept[at].avail.slice(), out: kept[at].out.slice() };
  const avail = entry.avail,
    out = entry.out;
  if (full) {
    for (let t = 0; t < KINDS; t++) avail[t] = held[t] + unseen[t];
    for (let f = 0; f < cc.formCount; f++) out[f] = formLive(cc, f, avail);
  } else {
    const { postStart, postForm, postCode } = cc;
    for (let t = 0; t < JOKER; t++) {
      const a = held[t] + unseen[t];
      if (avail[t] === a) continue;
      // a form needing no more of kind t than the fewer of the two counts reads the same either way
      const fewer = Math.min(avail[t], a);
      avail[t] = a;
      // every other form with an entry of kind t; the others' answers stand
      for (let p = postStart[t], end = postStart[t + 1]; p < end; p++) {
        if ((postCode[p] & 15) <= fewer) continue;
        out[postForm[p]] = formLive(cc, postForm[p], avail);
      }
    }
  }
  // the new answer comes first, in place of the one it was mended from (most likely the same seat's, now past), or of the least recent
  kept.splice(full ? kept.length - 1 : at, 1);
  kept.unshift(entry);
  return out;
}

/** Answers kept by liveForms, most recent first. */
const LIVE_KEPT = 8;

/** Whether form f can still be made from `avail` natural tiles of each kind and avail[JOKER] jokers. */
function formLive(cc: CompiledCard, f: number, avail: ArrayLike<number>): number {
  const jokersLeft = cc.lineJokers[cc.formLine[f]] === 1 ? avail[JOKER] : 0;
  let short = 0;
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) {
    const t = cc.entryKind[e];
    if (t === JOKER) continue;
    const a = avail[t];
    if (cc.entrySingle[e] > a) return 0;
    if (cc.entryNeed[e] > a) short += cc.entryNeed[e] - a;
  }
  return short <= jokersLeft ? 1 : 0;
}

const LIVE = new WeakMap<CompiledCard, { avail: Int8Array; out: Uint8Array }[]>();
