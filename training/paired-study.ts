/**
 * `npm run study:paired -- [deals] [seed] [card]`: the learned policy and the strong habits,
 * each against three medium bots on the same duplicate deals (each deal once per seat), and
 * the paired difference of their win shares deal by deal, with its 95% interval.
 */
import { readCardText } from './cards.js';
import { runArena } from './run-arena.js';
import { interval } from './train.js';
const deals = Number(process.argv[2] ?? 4000), seed = Number(process.argv[3] ?? 31), card = process.argv[4];
const cardText = readCardText(card);
const per = async (agent: string) => {
  const { games, summary } = await runArena({ ruleset: 'nmjl-4p', seats: [agent, 'medium', 'medium', 'medium'], seed, deals, cardText, threads: 2 });
  const wins = new Array<number>(deals).fill(0);
  for (const g of games) g.agents.forEach((a, s) => { if (a === agent && g.winners.includes(s)) wins[g.deal] += 0.25; });
  return { wins, summary: summary.results.find((r) => r.agent === agent)! };
};
const a = await per('learned'), b = await per('strong');
const d = interval(a.wins.map((w, i) => w - b.wins[i]));
console.log(JSON.stringify({ deals, seed, card: card ?? 'practice', learned: a.summary, strong: b.summary, pairedDiff: [d.mean, d.low, d.high].map((x) => Math.round(x * 1e4) / 1e4) }));
