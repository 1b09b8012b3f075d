import { newRound, validateDomino, type DominoState } from '../../engine/domino/game.js';
import { loadDominoRuleset } from '../../engine/domino/rulesets.js';
import { doubleOf, fullDominoSet, parseDominoes, type DominoId } from '../../engine/domino/tiles.js';

export const d = (text: string): DominoId[] => parseDominoes(text);
export const t1 = (text: string): DominoId => parseDominoes(text)[0];

/**
 * A rigged table: the round's engine in the station, the given hands and trains, the given
 * tiles on top of the boneyard (`boneyardTop`: drawn first to last) and every other tile under
 * them, so all 91 stay accounted for. `validateDomino` checks the result.
 */
export function rig(opts: { ruleset: string; hands: string[]; round?: number; trains?: Record<number, string>; marked?: number[]; boneyardTop?: string; turn?: number }): DominoState {
  const rules = loadDominoRuleset(opts.ruleset);
  const n = opts.hands.length;
  const s = newRound(rules, n, 1, opts.round ?? 0);
  const engine = doubleOf(rules.engines[opts.round ?? 0]);
  const used = new Set<number>([engine]);
  const take = (ts: DominoId[]) => {
    for (const t of ts) {
      if (used.has(t)) throw new Error(`rigged twice: ${t}`);
      used.add(t);
    }
    return ts;
  };
  s.engine = engine;
  s.hands = opts.hands.map((h) => take(d(h)));
  s.trains = Array.from({ length: n + 1 }, (_, i) => ({ owner: i < n ? i : -1, tiles: [] as DominoId[], end: rules.engines[opts.round ?? 0], marked: i === n }));
  for (const [k, text] of Object.entries(opts.trains ?? {})) {
    const train = s.trains[Number(k)];
    for (const t of take(d(text))) {
      train.tiles.push(t);
      const hi = Math.floor((Math.sqrt(8 * t + 1) - 1) / 2),
        lo = t - (hi * (hi + 1)) / 2;
      train.end = train.end === hi ? lo : hi;
    }
  }
  for (const m of opts.marked ?? []) s.trains[m].marked = true;
  const top = take(d(opts.boneyardTop ?? '')).reverse();
  s.boneyard = [...fullDominoSet().filter((t) => !used.has(t)), ...top];
  s.openDoubles = [];
  s.turn = opts.turn ?? 0;
  s.starter = s.turn;
  s.step = { drawn: -1, cover: -1, free: false };
  validateDomino(s);
  return s;
}

/** The state as text, to check a refused action changed nothing. */
export const snapshot = (s: DominoState): string => JSON.stringify({ ...s, rules: s.rules.name });
