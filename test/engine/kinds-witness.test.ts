import { describe, expect, it } from 'vitest';
import { kindsWitness } from '../../engine/mah-jongg/hand-check.js';
import { nextInt, seedRng, shuffle } from '../../engine/rng.js';
import { JOKER, KINDS, setCopies, tilesFromCounts } from '../../engine/mah-jongg/tiles.js';
import { loadCard } from '../../io/cards.js';

/**
 * kindsWitness (the seats' Mah Jongg proof from kinds alone) against a walk over every form:
 * it says some form holds every kind exactly when one does, and otherwise the kinds it keeps
 * are kinds of the hand that no form holds all of, so any rack holding them fits no form.
 */
const cc = loadCard();
const formKinds = Array.from({ length: cc.formCount }, (_, f) => {
  const kinds = new Set<number>();
  for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) kinds.add(cc.entryKind[e]);
  return kinds;
});
const heldKinds = (hand: readonly number[]): number[] => hand.flatMap((n, t) => (n > 0 && t !== JOKER ? [t] : []));

describe('kindsWitness', () => {
  it('agrees with every form on random racks and on racks one tile from a form', () => {
    const rng = seedRng(5);
    const seen = { held: 0, pair: 0, more: 0 };
    const witness = new Uint8Array(KINDS);
    for (let i = 0; i < 3000; i++) {
      const hand = new Array<number>(KINDS).fill(0);
      if (i % 3 === 0) {
        // a form's tiles with one swapped for a random tile: often held, sometimes not
        const f = nextInt(rng, cc.formCount);
        for (let e = cc.entryStart[f]; e < cc.entryStart[f + 1]; e++) hand[cc.entryKind[e]] += cc.entryNeed[e];
        const held = heldKinds(hand);
        hand[held[nextInt(rng, held.length)]]--;
        hand[nextInt(rng, KINDS)]++;
      } else {
        for (const t of shuffle(rng, tilesFromCounts(setCopies(1, true))).slice(0, 13 + (i % 2))) hand[t]++;
      }
      const kinds = heldKinds(hand);
      const someForm = formKinds.some((fk) => kinds.every((t) => fk.has(t)));
      const answer = kindsWitness(cc, hand, witness);
      expect(answer).toBe(someForm);
      const kept = heldKinds([...witness]);
      if (answer) {
        seen.held++;
        expect(kept).toEqual(kinds);
        continue;
      }
      for (const t of kept) expect(hand[t]).toBeGreaterThan(0);
      expect(formKinds.some((fk) => kept.every((t) => fk.has(t)))).toBe(false);
      if (kept.length === 2) seen.pair++;
      else seen.more++;
    }
    // every way of answering was reached, so each was checked
    expect(seen.held).toBeGreaterThan(50);
    expect(seen.pair).toBeGreaterThan(50);
    expect(seen.more).toBeGreaterThan(50);
  });
});
