/**
 * `npm run study:paired -- [deals] [seed] [card] [--a learned] [--b strong] [--log FILE] [--threads K] [--chunk N] [--report]`:
 * two bots, each against three medium bots on the same duplicate deals (each deal once per
 * seat), and the paired differences of their win shares and mean scores deal by deal, with
 * 95% intervals. With --log, each finished deal is appended to FILE as it comes back (one JSON
 * line a bot and deal) and a run started again with the same FILE plays only the deals not there yet,
 * so a long study can be stopped and resumed.
 */
import { parseArgs } from 'node:util';
import './bots/registry.js'; // the lab's bots (learned-file, expert-deep, ...) beside the product's
import { JsonLog } from '../training/arena-log.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { loadCard } from '../io/cards.js';
import { runArena } from '../training/run-arena.js';
import { interval } from '../training/arena.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    a: { type: 'string', default: 'learned' },
    b: { type: 'string', default: 'strong' },
    log: { type: 'string' },
    threads: { type: 'string', default: '2' },
    chunk: { type: 'string' },
    report: { type: 'boolean', default: false },
  },
});
const deals = Number(positionals[0] ?? 4000),
  seed = Number(positionals[1] ?? 31),
  card = positionals[2];
const threads = Number(values.threads);
const game = mahJonggGame(loadRuleset('nmjl-4p'), loadCard(card));

interface DealResult {
  agent: string;
  deal: number;
  wins: number;
  score: number;
}
const key = (agent: string, deal: number) => `${agent}:${deal}`;
const done = new Map<string, DealResult>();
// a line cut off by a kill is dropped (JsonLog.open) and its deal played again
const logged = values.log === undefined ? null : JsonLog.open(values.log, { seed, card: card ?? 'practice' }, `${values.log} is the log of another study; give another --log`);
for (const l of logged?.lines ?? []) {
  const r = JSON.parse(l) as DealResult;
  done.set(key(r.agent, r.deal), r);
}

/** Plays `agent`'s games of the deals `ids` not logged yet: each deal's win share (a quarter per seat-game won) and mean score. */
async function play(agent: string, ids: readonly number[]): Promise<void> {
  const todo = ids.filter((d) => !done.has(key(agent, d)));
  if (todo.length > 0) {
    // one pool for the whole run; each batch of whole deals is logged as it comes back
    await runArena({
      game,
      seats: [agent, 'medium', 'medium', 'medium'],
      seed,
      dealIds: todo,
      threads,
      onGames: (games) => {
        const rows = new Map<number, DealResult>();
        for (const g of games) {
          // the bot's seats in this game: one, or all four when it is medium itself (its share is then their mean)
          const k = g.agents.filter((a) => a === agent).length;
          g.agents.forEach((a, s) => {
            if (a !== agent) return;
            const r = rows.get(g.deal) ?? { agent, deal: g.deal, wins: 0, score: 0 };
            if (g.winners.includes(s)) r.wins += 0.25 / k;
            r.score += g.scores[s] / 4 / k;
            rows.set(g.deal, r);
          });
        }
        for (const r of rows.values()) done.set(key(agent, r.deal), r);
        logged?.log.append([...rows.values()]);
      },
      onProgress: (n) => {
        if (n % 20 === 0 || n === todo.length) process.stderr.write(`${agent}: ${ids[0]}..${ids.at(-1)}: ${ids.length - todo.length + n} of ${ids.length} deals\n`);
      },
    });
  }
}

const r2 = (x: number) => Math.round(x * 100) / 100,
  r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const summary = (rows: DealResult[]) => {
  const w = interval(rows.map((r) => r.wins)),
    s = interval(rows.map((r) => r.score));
  return { winShare: [w.mean, w.low, w.high].map(r4), meanScore: [s.mean, s.low, s.high].map(r2) };
};
// in chunks of deals (--chunk), both bots each chunk: a study stopped part way has its pairs so far; --report plays nothing and reports those
const chunk = Math.max(1, Number(values.chunk ?? deals));
for (let from = 0; from < deals && !values.report; from += chunk) {
  const ids = Array.from({ length: Math.min(chunk, deals - from) }, (_, i) => from + i);
  await play(values.a!, ids);
  await play(values.b!, ids);
}
const paired = Array.from({ length: deals }, (_, d) => d).filter((d) => done.has(key(values.a!, d)) && done.has(key(values.b!, d)));
const a = paired.map((d) => done.get(key(values.a!, d))!),
  b = paired.map((d) => done.get(key(values.b!, d))!);
const dw = interval(a.map((r, i) => r.wins - b[i].wins)),
  ds = interval(a.map((r, i) => r.score - b[i].score));
console.log(
  JSON.stringify({
    deals: paired.length,
    of: deals,
    seed,
    card: card ?? 'practice',
    [values.a!]: summary(a),
    [values.b!]: summary(b),
    pairedWinShareDiff: [dw.mean, dw.low, dw.high].map(r4),
    pairedMeanScoreDiff: [ds.mean, ds.low, ds.high].map(r2),
  }),
);
