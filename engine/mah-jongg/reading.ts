import type { CompiledCard } from './compile.js';
import { fitsForm } from './hand-check.js';
import { JOKER, KINDS, type Group } from './tiles.js';
import type { SeatView } from './view.js';

/**
 * Reading the table (issue 48): what an opponent is likely making, from what her seat has
 * shown and nothing else (the viewing seat's view: her exposures, her discards, her rack's
 * size, the tiles seen), as chances over the card's forms, its lines' families (the card's
 * sections) and the tiles she still needs.
 *
 * Each form of the card starts with the same share of its line, every line alike (the reader
 * knows nothing of her yet). Then, exactly:
 * - a form is out when her exposures do not fit it, or it is concealed and she has exposed
 *   (teaching guide 5.2), or it needs more of a tile than can still reach her (a single or pair
 *   takes no joker, teaching guide 4.6; every other shortfall needs a joker still unseen);
 * - each tile she discarded weighs a form she would have kept it for by DISCARD_NEEDED: a player
 *   seldom throws a tile her hand needs (the teaching guide's "hot tiles" read the other way).
 * The forms' chances are those weights, made to add to 1.
 */

/** How much likelier a discard is from a hand that does not need the tile than from one that does (fit on self-play: lab/reading-calibration.ts). */
export const DISCARD_NEEDED = 0.7;
/**
 * The families' chances are the forms' raised to this power and made to add to 1 again: the
 * forms are not as far apart as the weights say (a player keeps several hands open for long),
 * and untempered chances claimed more than they were right (lab/reading-calibration.ts).
 */
export const FAMILY_TEMPER = 0.4;

export interface OpponentReading {
  seat: number;
  /** Each form's chance of being the hand she is making (0: no longer open to her). */
  forms: Float64Array;
  /** Each family's chance (the card's sections, in its order). */
  families: number[];
  /** Each tile kind's chance that the hand she is making still needs it. */
  needs: number[];
  /** No form of the card is open to her: her hand, as the table shows it, can no longer be made. */
  noLine: boolean;
  /** Her discards read (the evidence beside her exposures). */
  discards: number;
}

/** Her rack's exposures (the first rack: one rack a player at 3 and 4 players) as groups. */
function shapesOf(view: SeatView, seat: number): Group[] {
  return view.exposures[seat].filter((x) => x.rack === 0).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
}

/** Copies of each kind that may still reach `seat` as the viewer sees the table: not discarded, not exposed, not on the viewer's rack. */
function reachable(view: SeatView, seat: number): number[] {
  const v = view.copies.slice();
  for (const d of view.discards) for (const t of d) v[t]--;
  for (const list of view.exposures) for (const x of list) (v[x.tile] -= x.size - x.jokers), (v[JOKER] -= x.jokers);
  for (const m of view.mahJonggs) for (let t = 0; t < KINDS; t++) v[t] -= m.tiles[t];
  if (seat !== view.seat) for (let t = 0; t < KINDS; t++) v[t] -= view.concealed[t];
  return v.map((x) => Math.max(0, x));
}

/** What `seat` is likely making, from the viewer's view alone. */
export function readSeat(cc: CompiledCard, view: SeatView, seat: number, discardNeeded = DISCARD_NEEDED, temper = FAMILY_TEMPER): OpponentReading {
  const shapes = shapesOf(view, seat);
  const avail = reachable(view, seat);
  const exposed = new Array<number>(KINDS).fill(0);
  for (const x of shapes) exposed[x.tile] += x.size;
  const thrown = new Array<number>(KINDS).fill(0);
  for (const t of view.discards[seat]) thrown[t]++;
  // the kinds she has thrown, in order, each with its weight on a form that needs it (the product below is taken in kind order)
  const thrownKinds: number[] = [];
  const thrownWeight: number[] = [];
  for (let t = 0; t < JOKER; t++) {
    if (thrown[t] === 0) continue;
    thrownKinds.push(t);
    thrownWeight.push(discardNeeded ** thrown[t]);
  }
  const forms = new Float64Array(cc.formCount);
  const stillNeeds = new Uint8Array(KINDS);
  let total = 0;
  for (let l = 0; l < cc.lineCount; l++) {
    const line = cc.card.lines[l];
    if (shapes.length > 0 && line.concealed) continue;
    const prior = 1 / (cc.lineStart[l + 1] - cc.lineStart[l]);
    for (let f = cc.lineStart[l]; f < cc.lineStart[l + 1]; f++) {
      if (!fitsForm(cc, f, shapes)) continue;
      stillNeeds.fill(0);
      let jokers = 0;
      let open = true;
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1] && open; e++) {
        const k = cc.entryKind[e];
        const need = cc.entryNeed[e] - exposed[k];
        if (need <= 0) continue;
        stillNeeds[k] = 1;
        if (cc.entrySingle[e] > avail[k]) open = false;
        else jokers += Math.max(0, need - avail[k]);
      }
      if (!open || jokers > (cc.lineJokers[l] === 1 ? avail[JOKER] : 0)) continue;
      let w = prior;
      for (let i = 0; i < thrownKinds.length; i++) if (stillNeeds[thrownKinds[i]] === 1) w *= thrownWeight[i];
      forms[f] = w;
      total += w;
    }
  }
  const families = new Array<number>(cc.card.sections.length).fill(0);
  const needs = new Array<number>(KINDS).fill(0);
  if (total > 0) {
    for (let f = 0; f < cc.formCount; f++) {
      if (forms[f] === 0) continue;
      const p = (forms[f] /= total);
      families[cc.card.sections.indexOf(cc.card.lines[cc.formLine[f]].section)] += p;
      for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) if (cc.entryNeed[e] > exposed[cc.entryKind[e]]) needs[cc.entryKind[e]] += p;
    }
    if (temper !== 1) {
      let sum = 0;
      for (let i = 0; i < families.length; i++) sum += families[i] = families[i] ** temper;
      for (let i = 0; i < families.length; i++) families[i] /= sum;
    }
  }
  return { seat, forms, families, needs, noLine: total === 0, discards: view.discards[seat].length };
}

/** The family she is most likely making, with its chance, or null when no form is open to her. */
export function topFamily(cc: CompiledCard, r: OpponentReading): { family: string; p: number } | null {
  if (r.noLine) return null;
  let best = 0;
  for (let i = 1; i < r.families.length; i++) if (r.families[i] > r.families[best]) best = i;
  return { family: cc.card.sections[best], p: r.families[best] };
}
