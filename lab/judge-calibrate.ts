/**
 * `node dist/lab/judge-calibrate.js [--truth FILE] [--split tune] [--worlds N]`: how the judge's
 * quick evaluation (agents/mah-jongg/paired-worlds.ts OutlookWorlds: paired worlds played to the
 * seat's next turn, rated there by the coach's model) reads in points. For every choice of the
 * truth set's part (the tune split unless told), its difference from the truth's best choice in
 * the model's chance of winning (dwin) and expected score (dscore) is set against the truth's
 * cost, and the cost is fitted as a·dwin + b·dscore (least squares, no constant) for the play
 * (discards, calls, exchanges) and the Charleston (passes, the vote, the courtesy offer) apart.
 * Prints the fits, the spread of what they leave, and each kind's share of choices the fit puts
 * on the wrong side of the mistake line. The judge's OUTLOOK_POINTS are this fit's.
 */
import { parseArgs } from 'node:util';
import { advisor } from '../agents/mah-jongg/advice.js';
import { judgeSeed, MISTAKE_POINTS } from '../agents/mah-jongg/judge.js';
import { OutlookWorlds } from '../agents/mah-jongg/paired-worlds.js';
import { decodeAction } from '../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { readTruthSet } from '../training/truth-file.js';

const { values } = parseArgs({
  options: { truth: { type: 'string', default: 'lab/truth/truth-set.jsonl' }, split: { type: 'string', default: 'tune' }, worlds: { type: 'string', default: '32' } },
});
const rows = readTruthSet(values.truth).filter((r) => values.split === 'all' || r.split === values.split);
const W = Number(values.worlds);

interface Point {
  kind: string;
  group: 'play' | 'charleston';
  cost: number;
  se: number;
  dwin: number;
  dscore: number;
}
const points: Point[] = [];
const t0 = Date.now();
for (const d of rows) {
  const cc = loadCard(`cards/${d.card}-2026.card`);
  const choices = d.choices.map((c) => decodeAction(c));
  const ow = new OutlookWorlds(cc, loadRuleset(d.view.ruleset), d.view, choices, judgeSeed(d.view), advisor(cc));
  ow.play(W);
  const best = d.truth.best;
  choices.forEach((_, i) => {
    if (i === best) return;
    const dwin = ow.versus(best, i, (win) => 100 * win).mean;
    const dscore = ow.versus(best, i, (_w, score) => score).mean;
    const group = d.kind === 'pass' || d.kind === 'vote' || d.kind === 'courtesy' ? 'charleston' : 'play';
    points.push({ kind: d.kind, group, cost: d.truth.choices[i].cost, se: d.truth.choices[i].se, dwin, dscore });
  });
}
console.log(`${points.length} choices of ${rows.length} decisions (${values.split}), ${W} worlds each, in ${Math.round((Date.now() - t0) / 1000)} s`);

/** Where a fit matters: the costs about the verdict's lines (a choice that costs scores of points is a mistake by any fit, and would pull the fit its way). */
const NEAR = 25;
/** Score differences from which the quick evaluation finds a choice behind: below it, the truth's costs are its noise about 0. */
const UPPER = 2.5;

/**
 * One variable's least absolute deviations through 0 (cost ≈ k·x, k the weighted median of
 * cost/x, weights |x|), and the spread left as 1.4826 median absolute deviations: a few choices
 * the model misreads badly (a quick Mah Jongg in some worlds, a hand it rates far off) would
 * pull a least-squares fit their way.
 */
function fitRobust(ps: readonly Point[], x: (p: Point) => number): { k: number; sd: number } {
  const rs = ps.filter((p) => x(p) !== 0).map((p) => ({ r: p.cost / x(p), w: Math.abs(x(p)) }));
  rs.sort((a, b) => a.r - b.r);
  const total = rs.reduce((s, r) => s + r.w, 0);
  let acc = 0,
    k = 0;
  for (const r of rs) {
    acc += r.w;
    if (acc >= total / 2) {
      k = r.r;
      break;
    }
  }
  const dev = ps.map((p) => Math.abs(p.cost - k * x(p))).sort((a, b) => a - b);
  return { k, sd: 1.4826 * (dev[Math.floor(dev.length / 2)] ?? 0) };
}

/** One variable's least squares through 0: cost ≈ k·x. */
function fitOne(ps: readonly Point[], x: (p: Point) => number): { k: number; sd: number } {
  const k =
    ps.reduce((s, p) => s + x(p) * p.cost, 0) /
    Math.max(
      1e-9,
      ps.reduce((s, p) => s + x(p) ** 2, 0),
    );
  const sd = Math.sqrt(ps.reduce((s, p) => s + (p.cost - k * x(p)) ** 2, 0) / Math.max(1, ps.length - 1));
  return { k, sd };
}

/** Least squares of cost on (dwin, dscore), no constant. */
function fitCost(ps: readonly Point[]): { a: number; b: number; sd: number } {
  let xx = 0,
    xy = 0,
    yy = 0,
    xc = 0,
    yc = 0;
  for (const p of ps) {
    xx += p.dwin * p.dwin;
    xy += p.dwin * p.dscore;
    yy += p.dscore * p.dscore;
    xc += p.dwin * p.cost;
    yc += p.dscore * p.cost;
  }
  const det = xx * yy - xy * xy;
  const a = det === 0 ? 0 : (xc * yy - yc * xy) / det;
  const b = det === 0 ? 0 : (yc * xx - xc * xy) / det;
  const sd = Math.sqrt(ps.reduce((s, p) => s + (p.cost - a * p.dwin - b * p.dscore) ** 2, 0) / Math.max(1, ps.length - 2));
  return { a, b, sd };
}

for (const group of ['play', 'charleston'] as const) {
  // Mah Jongg is decided by its rule, not by the quick evaluation
  const ps = points.filter((p) => p.group === group && p.cost <= NEAR && p.kind !== 'mahjongg');
  const f = fitCost(ps);
  const win = fitOne(ps, (p) => p.dwin),
    score = fitOne(ps, (p) => p.dscore);
  console.log(`${group} (costs up to ${NEAR}): win alone ${win.k.toFixed(3)} × dwin(%), sd ${win.sd.toFixed(2)}; score alone ${score.k.toFixed(3)} × dscore, sd ${score.sd.toFixed(2)}`);
  const rw = fitRobust(ps, (p) => p.dwin),
    rsc = fitRobust(ps, (p) => p.dscore);
  console.log(`  robust: win alone ${rw.k.toFixed(3)} × dwin(%), spread ${rw.sd.toFixed(2)}; score alone ${rsc.k.toFixed(3)} × dscore, spread ${rsc.sd.toFixed(2)}`);
  // the judge's fit: where the quick evaluation finds the choice behind, about the lines and past
  // them (score differences from UPPER to 40 points, chosen by the evaluation, never by the
  // truth's cost), the ratio of the truth's mean cost to the mean difference
  const upper = points.filter((p) => p.group === group && p.kind !== 'mahjongg' && p.dscore >= UPPER && p.dscore <= 40);
  const k =
    upper.reduce((s, p) => s + p.cost, 0) /
    Math.max(
      1e-9,
      upper.reduce((s, p) => s + p.dscore, 0),
    );
  const sd = Math.sqrt(upper.reduce((s, p) => s + (p.cost - k * p.dscore) ** 2, 0) / Math.max(1, upper.length - 1));
  const beyond = Math.sqrt(Math.max(0, sd ** 2 - upper.reduce((s, p) => s + p.se ** 2, 0) / Math.max(1, upper.length)));
  console.log(
    `  behind by ${UPPER} to 40 (${upper.length} choices): cost ≈ ${k.toFixed(3)} × dscore, sd ${sd.toFixed(2)}, ${beyond.toFixed(2)} beyond the truth's own noise (the judge's OUTLOOK_POINTS)`,
  );
  const truthSe = Math.sqrt(ps.reduce((s, p) => s + p.se * p.se, 0) / Math.max(1, ps.length));
  console.log(`${group}: cost ≈ ${f.a.toFixed(3)} × dwin(%) + ${f.b.toFixed(3)} × dscore; residual sd ${f.sd.toFixed(2)} points (the truth's own se ${truthSe.toFixed(2)}), ${ps.length} choices`);
  for (const kind of [...new Set(ps.map((p) => p.kind))]) {
    const k = points.filter((p) => p.group === group && p.kind === kind);
    const wrong = k.filter((p) => p.cost >= MISTAKE_POINTS !== f.a * p.dwin + f.b * p.dscore >= MISTAKE_POINTS).length;
    console.log(`  ${kind}: ${wrong} of ${k.length} on the other side of the mistake line`);
  }
}
// the fit's shape: the truth's mean cost in bins of the quick evaluation's score difference
for (const group of ['play', 'charleston'] as const) {
  const ps = points.filter((p) => p.group === group && p.kind !== 'mahjongg');
  const edges = [-Infinity, 0, 2.5, 5, 10, 20, 40, 80, Infinity];
  const rows: string[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const inBin = ps.filter((p) => p.dscore >= edges[i] && p.dscore < edges[i + 1]);
    if (inBin.length === 0) continue;
    const mean = (f: (p: Point) => number) => inBin.reduce((s, p) => s + f(p), 0) / inBin.length;
    const med = [...inBin.map((p) => p.cost)].sort((a, b) => a - b)[Math.floor(inBin.length / 2)];
    rows.push(`[${edges[i]}, ${edges[i + 1]}): n ${inBin.length}, dscore ${mean((p) => p.dscore).toFixed(1)}, truth cost mean ${mean((p) => p.cost).toFixed(1)} median ${med.toFixed(1)}`);
  }
  console.log(`${group} by the quick evaluation's score difference:\n  ${rows.join('\n  ')}`);
}
