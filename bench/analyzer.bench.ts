/**
 * `npm run bench`: the analyzer's speed on random 14-tile hands against the practice card.
 * Every figure is printed beside a plain baseline measured in the same run: these machines
 * are noisy, so the ratios are what to compare between runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Benchmark from 'benchmark';
import { Analyzer, tilesAwayAll } from '../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../engine/mah-jongg/compile.js';
import { IncrementalTilesAway } from '../engine/mah-jongg/incremental.js';
import { nextInt, seedRng } from '../engine/rng.js';
import { COPIES, JOKER, KINDS } from '../engine/mah-jongg/tiles.js';
import { loadCard } from '../io/cards.js';
import { handText, randomHands, runSuite } from './common.js';

const cc = loadCard();
const hands = randomHands(4096, 1);
const empty = new Array<number>(KINDS).fill(0);

/**
 * The baseline: a straightforward per-form loop, each form a plain array of 36 counts,
 * tiles away computed kind by kind exactly as the notation defines it.
 */
function plainForms(c: CompiledCard) {
  return Array.from({ length: c.formCount }, (_, f) => {
    const need = new Array<number>(KINDS).fill(0),
      single = new Array<number>(KINDS).fill(0);
    for (let e = c.entryStart[f]; e < c.entryStart[f + 1]; e++) {
      need[c.entryKind[e]] = c.entryNeed[e];
      single[c.entryKind[e]] = c.entrySingle[e];
    }
    return { line: c.formLine[f], jokers: c.lineJokers[c.formLine[f]] === 1, need, single };
  });
}
const forms = plainForms(cc);
function baseline(hand: number[], away: number[]): void {
  away.fill(99);
  for (const form of forms) {
    let placed = 0,
      groupLack = 0;
    for (let t = 0; t < KINDS; t++) {
      const natural = Math.min(hand[t], form.need[t]);
      placed += natural;
      groupLack += form.need[t] - form.single[t] - Math.max(0, natural - form.single[t]);
    }
    placed += form.jokers ? Math.min(hand[JOKER], groupLack) : 0;
    away[form.line] = Math.min(away[form.line], 14 - placed);
  }
}

const away = new Uint8Array(cc.lineCount),
  best = new Uint32Array(cc.lineCount);
const plainAway = new Array<number>(cc.lineCount);
const analyzer = new Analyzer(cc);
const inputs = hands.map((h) => ({ concealed: h, exposures: [], seen: empty, copies: COPIES }));
const inc = new IncrementalTilesAway(cc, hands[0]);
// A walk of 4096 turns from hands[0]: each turn a held tile goes out and a tile of the next
// hand comes in (at most four of a kind), so every swap is valid; both timings below walk it
// and start over from hands[0] when it wraps.
const swaps: [number, number][] = [];
{
  const rng = seedRng(5),
    hand = hands[0].slice();
  for (let s = 0; s < 4096; s++) {
    const held = hand.flatMap((n, t) => Array<number>(n).fill(t));
    const out = held[nextInt(rng, held.length)];
    const offered = hands[(s + 1) & 4095].flatMap((n, t) => (n > 0 && hand[t] < 4 && t !== out ? [t] : []));
    const into = offered[nextInt(rng, offered.length)];
    hand[out]--;
    hand[into]++;
    swaps.push([out, into]);
  }
}
let i = 0,
  k = 0,
  kFull = 0,
  fullHand = hands[0].slice();

// sanity: the fast core and the baseline agree on every hand before anything is timed
for (const h of hands) {
  tilesAwayAll(cc, h, away, best);
  baseline(h, plainAway);
  for (let l = 0; l < cc.lineCount; l++) if (away[l] !== plainAway[l]) throw new Error('rule violation: fast core and baseline disagree');
}
// and the incremental agrees with the fast core along the walk
{
  const walk = hands[0].slice();
  inc.reset(walk);
  for (const [out, into] of swaps) {
    walk[out]--;
    walk[into]++;
    inc.swap(out, into);
    tilesAwayAll(cc, walk, away, best);
    for (let l = 0; l < cc.lineCount; l++) if (inc.away[l] !== away[l] || inc.bestForm(l) !== best[l]) throw new Error('rule violation: incremental and fast core disagree');
  }
}

console.log(`card: ${cc.card.name}: ${cc.lineCount} lines, ${cc.formCount} concrete forms evaluated per full-card analysis (${cc.entryKind.length} kind entries)`);
console.log(`node ${process.version}, one core\n`);

const results = await runSuite(
  new Benchmark.Suite()
    .add('baseline: per-form loop over 36 counts', () => {
      baseline(hands[i++ & 4095], plainAway);
    })
    .add('tiles away, every line (fast core)', () => {
      tilesAwayAll(cc, hands[i++ & 4095], away, best);
    })
    .add('incremental: one tile swapped, every line', () => {
      if ((k & 4095) === 0) inc.reset(hands[0]); // the walk wraps: once in 4096
      const [out, into] = swaps[k++ & 4095];
      inc.swap(out, into);
    })
    .add('full recompute: one tile swapped, every line', () => {
      if ((kFull & 4095) === 0) fullHand = hands[0].slice();
      const [out, into] = swaps[kFull++ & 4095];
      fullHand[out]--;
      fullHand[into]++;
      tilesAwayAll(cc, fullHand, away, best);
    })
    .add('full analysis, top 1 (ranked, needs, outs)', () => {
      analyzer.analyze(inputs[i++ & 4095], { top: 1 });
    })
    .add('full analysis, top 5', () => {
      analyzer.analyze(inputs[i++ & 4095], { top: 5 });
    })
    .add('full analysis, every line in full', () => {
      analyzer.analyze(inputs[i++ & 4095]);
    }),
);

const base = results.get('baseline: per-form loop over 36 counts')!;
console.log('hands per second on one core                      ops/s    vs baseline');
for (const [name, hz] of results) {
  console.log(`${name.padEnd(46)} ${hz.toFixed(0).padStart(10)}    x${(hz / base).toFixed(2)}`);
}
const inc1 = results.get('incremental: one tile swapped, every line')!,
  full1 = results.get('full recompute: one tile swapped, every line')!;
console.log(`\nincremental after one swap vs a full recompute of the same swap: x${(inc1 / full1).toFixed(2)}`);
console.log(`fast core: ${((results.get('tiles away, every line (fast core)')! * cc.formCount) / 1e6).toFixed(1)} M forms per second`);

// End to end: the CLI on a batch of 100,000 hands, start-up included.
const dir = mkdtempSync(join(tmpdir(), 'tilemate-bench-'));
const file = join(dir, 'hands.txt');
writeFileSync(file, randomHands(100_000, 2).map(handText).join('\n') + '\n');
const bin = fileURLToPath(new URL('../../bin/tilemate.js', import.meta.url));
const time = (args: string[]) => {
  const t0 = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(res.stderr);
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, out: res.stdout };
};
const startup = time(['-e', '']);
const cli = time([bin, 'analyze', '--hands', file, '--top', '1', '--json']);
const lines = cli.out.trim().split('\n').length;
console.log(`\nCLI batch: ${lines} hands (--hands FILE --top 1 --json) in ${cli.seconds.toFixed(2)} s, start-up included: ${(lines / cli.seconds).toFixed(0)} hands/s`);
const allFile = join(dir, 'hands-20k.txt');
writeFileSync(allFile, randomHands(20_000, 3).map(handText).join('\n') + '\n');
const all = time([bin, 'analyze', '--hands', allFile, '--all']);
console.log(
  `CLI batch: 20000 hands (--hands FILE --all: every line of each, ${(all.out.length / 1e6).toFixed(0)} MB of JSON lines) in ${all.seconds.toFixed(2)} s, start-up included: ${(20_000 / all.seconds).toFixed(0)} hands/s`,
);
console.log(`(plain node start-up in the same run: ${(startup.seconds * 1000).toFixed(0)} ms)`);
