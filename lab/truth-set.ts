/**
 * `node dist/lab/truth-set.js [--out FILE] [--games N] [--cards practice,garden,orchard]
 * [--levels random,easy,medium,hard,expert] [--threads K] [--minutes M] [--redis URL]`:
 * the truth set of issue 61 (training/truth.ts). For each card and level, N games with one seat
 * (East, South, West, North in turn) played by that level and the others by medium bots; some of
 * that seat's decisions are taken (training/truth.ts TAKE), and each is valued by paired
 * playouts until every choice's cost is known to about ±3 points (TRUTH_SETTINGS). Each valued
 * decision is appended to FILE as it comes back, after a header naming the run; started again
 * with the same FILE, it values only the decisions not there yet, so the set is made in pieces
 * (--minutes ends a piece: no decision is begun after it). With --redis, the decisions are jobs
 * on the training queue and any `tilemate actor --redis URL` values them.
 */
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { JsonLog } from '../training/arena-log.js';
import { queueRunner } from '../training/queue.js';
import { gameDecisions, TRUTH_SETTINGS, truthSeed, type TruthDecision, type TruthResult, type TruthTask } from '../training/truth.js';
import { readCardText, loadCard } from '../io/cards.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'lab/truth/truth-set.jsonl' },
    games: { type: 'string', default: '10' },
    cards: { type: 'string', default: 'practice,garden,orchard' },
    levels: { type: 'string', default: 'random,easy,medium,hard,expert' },
    threads: { type: 'string', default: '2' },
    minutes: { type: 'string', default: '0' },
    redis: { type: 'string' },
  },
});
const RULESET = 'nmjl-4p';
const games = Number(values.games);
const cards = values.cards.split(',');
const levels = values.levels.split(',');
const threads = Number(values.threads);
const until = Number(values.minutes) > 0 ? Date.now() + Number(values.minutes) * 60_000 : Infinity;
const cardFile = (name: string): string => `cards/${name}-2026.card`;

const header = { truthSet: 1, ruleset: RULESET, cards, levels, games, settings: TRUTH_SETTINGS };
const { log, lines } = JsonLog.open(values.out, header, `${values.out} is the truth set of another run (other cards, levels, games or settings); give another --out`);
const done = new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id));

// the decisions, in a fixed order: the games are played again (deterministic) at every start
const planned: TruthDecision[] = [];
for (const card of cards) {
  const cc = loadCard(cardFile(card));
  for (const level of levels) for (let game = 0; game < games; game++) planned.push(...gameDecisions(cc, card, RULESET, level, game, game % 4));
}
// valued a game of each card and level at a time, so that a set stopped part way holds every card and level alike
const todo = planned.filter((d) => !done.has(d.id)).sort((a, b) => a.game - b.game || levels.indexOf(a.level) - levels.indexOf(b.level) || cards.indexOf(a.card) - cards.indexOf(b.card));
console.log(`${planned.length} decisions planned, ${done.size} valued before, ${todo.length} to value`);

const texts = new Map(cards.map((c) => [c, readCardText(cardFile(c))]));
const runner = values.redis === undefined ? null : await queueRunner({ url: values.redis });
const pool = runner ? null : new Piscina({ filename: new URL('../training/train.worker.js', import.meta.url).href, minThreads: threads, maxThreads: threads });
const run = (task: TruthTask): Promise<TruthResult> => (runner ? runner.runTask<TruthResult>(task) : (pool!.run(task) as Promise<TruthResult>));

let next = 0,
  valued = 0;
const t0 = Date.now();
async function lane(): Promise<void> {
  while (next < todo.length && Date.now() < until) {
    const d = todo[next++];
    const r = await run({ kind: 'truth', ruleset: RULESET, cardText: texts.get(d.card)!, decision: d, seed: truthSeed(d.id), settings: TRUTH_SETTINGS });
    const { id: _, ...truth } = r;
    log.append([{ ...d, truth }]);
    valued++;
    if (valued % 10 === 0) console.log(`${valued} valued in ${Math.round((Date.now() - t0) / 1000)} s (${d.id}: ${r.worlds} worlds)`);
  }
}
await Promise.all(Array.from({ length: runner ? threads * 4 : threads }, lane));
console.log(`${valued} valued this piece; ${done.size + valued} of ${planned.length} in ${values.out}`);
await pool?.destroy();
await runner?.close();
