/**
 * `node dist/lab/reading-calibration.js [games] [seed] [--card FILE] [--bots medium] [--alpha 0.2,0.35,0.5,1]`:
 * how well the reading of an opponent (engine/mah-jongg/reading.ts) knows what she is making,
 * over self-play games of four bots. After each discard, the player across from the discarder
 * reads her from his own view; the truth is the family of the form her whole hand (her rack and
 * exposures, which the study may look at) is fewest tiles away from, a tie counting each of
 * the tied families as right. Prints, for each discard weight `alpha` (1: discards say nothing,
 * only what the table rules out), the mean log-loss of the truth (the smaller the better); for
 * the shipped weight, the calibration by decile of the top family's chance (how often it was
 * right against how sure it was), and top-1/top-3 accuracy by the number of her discards seen;
 * and, each time a discard gave Mah Jongg, where that tile ranked, among the discarder's other
 * tiles, by the chance the reading of the winner gave that she needed it (0: ranked first).
 */
import { parseArgs } from 'node:util';
import { botRng, makeBot } from '../agents/bots.js';
import { playOut } from '../agents/table.js';
import type { GameSpec } from '../engine/games.js';
import { awayFromPlaced, placeForm } from '../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import type { Action } from '../engine/mah-jongg/game.js';
import { fitsForm } from '../engine/mah-jongg/hand-check.js';
import { DISCARD_NEEDED, FAMILY_TEMPER, readSeat } from '../engine/mah-jongg/reading.js';
import type { GameState } from '../engine/mah-jongg/state.js';
import { JOKER, KINDS } from '../engine/mah-jongg/tiles.js';
import type { SeatView } from '../engine/mah-jongg/view.js';
import { loadGame } from '../engine/registry.js';
import { loadCard } from '../io/cards.js';
import { tileSafety } from '../agents/mah-jongg/defence.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { card: { type: 'string' }, bots: { type: 'string' }, alpha: { type: 'string' }, temper: { type: 'string' } } });
const games = Number(positionals[0] ?? 200);
const seed0 = Number(positionals[1] ?? 1);
const cc = loadCard(values.card);
const alphas = (values.alpha ?? '0.15,0.25,0.35,0.5,0.7,1').split(',').map(Number);
if (!alphas.includes(DISCARD_NEEDED)) alphas.push(DISCARD_NEEDED);
const tempers = (values.temper ?? String(FAMILY_TEMPER)).split(',').map(Number);
const game = loadGame('mah-jongg', { ruleset: 'nmjl-4p', card: { name: cc.card.name, text: cc.card.text } });

/** The families her whole hand is fewest tiles away from (the study sees her rack). */
function truth(cc: CompiledCard, s: GameState, seat: number): Set<number> {
  const p = s.players[seat];
  const counts = p.concealed.slice();
  const shapes = p.exposures.filter((x) => x.rack === 0).map((x) => ({ tile: x.tile, size: x.size, jokers: x.jokers }));
  for (const x of shapes) (counts[x.tile] += x.size - x.jokers), (counts[JOKER] += x.jokers);
  let best = 255;
  let out = new Set<number>();
  for (let f = 0; f < cc.formCount; f++) {
    const l = cc.formLine[f];
    if ((shapes.length > 0 && cc.card.lines[l].concealed) || !fitsForm(cc, f, shapes)) continue;
    const away = awayFromPlaced(placeForm(cc, f, counts), cc.formSingles[f], cc.lineJokers[l] === 1 ? counts[JOKER] : 0);
    const fam = cc.card.sections.indexOf(cc.card.lines[l].section);
    if (away < best) (best = away), (out = new Set([fam]));
    else if (away === best) out.add(fam);
  }
  return out;
}

interface Sample {
  /** Each alpha's chance of the truth (the tied families' chances added). */
  pTruth: number[];
  top1: boolean;
  top3: boolean;
  pTop: number;
  discards: number;
}
const samples: Sample[] = [];
const ranks: number[] = [];
/** The same, ranked by the defence's levels (agents/mah-jongg/defence.ts: dangerous, risky, safe). */
const defenceRanks: number[] = [];
/** The same by the defence's levels from the exposures' forms alone (tileSafety's bare share, before issue 48). */
const bareRanks: number[] = [];
const t0 = performance.now();
for (let g = 0; g < games; g++) {
  const seed = seed0 + g;
  const state = game.newGame(seed) as GameSpec['state'];
  const agents = Array.from({ length: 4 }, () => makeBot<GameSpec>(game, values.bots ?? 'medium'));
  let before: { view: SeatView; discarder: number; tile: number } | null = null;
  playOut(game, state, agents, botRng(seed), (a, st) => {
    const s = st as unknown as GameState;
    const action = a as unknown as Action;
    if (s.phase.kind === 'ended' && before !== null && (s.result?.outcome.mahJonggs[0]?.discarder ?? null) === before.discarder) {
      // the winning discard: where it ranked among the discarder's tiles by the reading of the winner
      const winner = s.result!.outcome.mahJonggs[0].seat;
      const needs = readSeat(cc, before.view, winner).needs;
      const rack = before.view.concealed.map((n, t) => (t === before!.tile ? n + 1 : n));
      const kinds = [...Array(KINDS).keys()].filter((t) => rack[t] > 0 && t !== JOKER);
      if (kinds.length > 1) {
        // ties take the middle of their places: a rating that cannot tell two tiles apart ranks them alike
        const rank = (score: (t: number) => number) =>
          (kinds.filter((t) => score(t) > score(before!.tile)).length + kinds.filter((t) => t !== before!.tile && score(t) === score(before!.tile)).length / 2) / (kinds.length - 1);
        ranks.push(rank((t) => needs[t]));
        const rackView = { ...before.view, concealed: rack };
        for (const [list, bare] of [
          [defenceRanks, false],
          [bareRanks, true],
        ] as const) {
          const level = new Map(tileSafety(cc, rackView, { bare }).map((x) => [x.tile as number, x.level === 'dangerous' ? 2 : x.level === 'risky' ? 1 : 0]));
          list.push(rank((t) => level.get(t) ?? 0));
        }
      }
    }
    if (action.type !== 'discard') return;
    const seat = action.seat;
    const viewer = (seat + 2) % 4;
    const view = game.view(st, viewer) as unknown as SeatView;
    before = { view: game.view(st, seat) as unknown as SeatView, discarder: seat, tile: action.tile };
    // before's view is after the discard: the tile is off her rack
    const right = truth(cc, s, seat);
    const pTruth = [...alphas.map((alpha) => readSeat(cc, view, seat, alpha)), ...tempers.map((temper) => readSeat(cc, view, seat, DISCARD_NEEDED, temper))].map((r) =>
      [...right].reduce((sum, fam) => sum + r.families[fam], 0),
    );
    const r = readSeat(cc, view, seat);
    const order = r.families.map((p, i) => [p, i] as const).sort((x, y) => y[0] - x[0]);
    samples.push({ pTruth, top1: right.has(order[0][1]), top3: order.slice(0, 3).some(([, i]) => right.has(i)), pTop: order[0][0], discards: view.discards[seat].length });
  });
}
const ms = performance.now() - t0;
console.log(`${games} games of four ${values.bots ?? 'medium'} bots on ${cc.card.name} (seeds ${seed0}..${seed0 + games - 1}), ${samples.length} readings, ${(ms / games).toFixed(0)} ms a game`);
console.log('mean log-loss of the truth by discard weight (smaller is better):');
alphas.forEach((alpha, i) => {
  const loss = samples.reduce((s, x) => s - Math.log(Math.max(1e-6, x.pTruth[i])), 0) / samples.length;
  console.log(`  alpha ${alpha}${alpha === DISCARD_NEEDED ? ' (shipped)' : ''}${alpha === 1 ? ' (the table only)' : ''}: ${loss.toFixed(3)}`);
});
console.log(`mean log-loss by the families' temper (alpha ${DISCARD_NEEDED}):`);
tempers.forEach((temper, j) => {
  const i = alphas.length + j;
  const loss = samples.reduce((s, x) => s - Math.log(Math.max(1e-6, x.pTruth[i])), 0) / samples.length;
  console.log(`  temper ${temper}${temper === FAMILY_TEMPER ? ' (shipped)' : ''}: ${loss.toFixed(3)}`);
});
console.log("calibration of the top family's chance (shipped weight), by decile:");
for (let d = 0; d < 10; d++) {
  const xs = samples.filter((x) => Math.min(9, Math.floor(x.pTop * 10)) === d);
  if (xs.length === 0) continue;
  const said = xs.reduce((s, x) => s + x.pTop, 0) / xs.length;
  const right = xs.filter((x) => x.top1).length / xs.length;
  const half = 1.96 * Math.sqrt((right * (1 - right)) / xs.length);
  console.log(
    `  ${(d / 10).toFixed(1)}-${((d + 1) / 10).toFixed(1)}: said ${(100 * said).toFixed(1)}%, right ${(100 * right).toFixed(1)}% [${(100 * (right - half)).toFixed(1)}, ${(100 * (right + half)).toFixed(1)}] of ${xs.length}`,
  );
}
console.log('top-1 and top-3 family right, by her discards seen:');
for (const [lo, hi] of [
  [0, 2],
  [3, 5],
  [6, 8],
  [9, 11],
  [12, 99],
]) {
  const xs = samples.filter((x) => x.discards >= lo && x.discards <= hi);
  if (xs.length === 0) continue;
  console.log(
    `  ${lo}-${hi === 99 ? 'more' : hi}: top-1 ${((100 * xs.filter((x) => x.top1).length) / xs.length).toFixed(1)}%, top-3 ${((100 * xs.filter((x) => x.top3).length) / xs.length).toFixed(1)}% of ${xs.length}`,
  );
}
for (const [xs, by] of [
  [ranks, "the reading's chance that the winner needed it"],
  [defenceRanks, "the defence's level (dangerous, risky, safe; ties share their places)"],
  [bareRanks, "the defence's level from the exposures' forms alone (before the reading)"],
] as const) {
  if (xs.length === 0) continue;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  console.log(
    `the tile that gave Mah Jongg, ranked among the discarder's tiles by ${by} (0 first, 1 last; a random order 0.5): mean ${mean.toFixed(3)} [${(mean - (1.96 * sd) / Math.sqrt(xs.length)).toFixed(3)}, ${(mean + (1.96 * sd) / Math.sqrt(xs.length)).toFixed(3)}] over ${xs.length} Mah Jonggs on a discard`,
  );
}
