/**
 * `node dist/lab/overrule-study.js [deals] [seed] [worlds] [minutes]`: would the rule
 * "take the best mean score" (overrule 0) play as well as the Monte Carlo player's and the
 * advice's "keep the default unless a challenger beats it by OVERRULE standard errors"? Two Monte Carlo
 * players differing only in that rule, each against three medium bots on the same duplicate
 * deals (each deal once per seat, the same playout seeds), and the paired differences of their
 * win shares and mean scores deal by deal, with 95% intervals. Stops early (between deals)
 * after `minutes`, reporting the deals played: a time cut, not a look at the results.
 *
 * Issue 29, run as `400 31 8 22` (stopped by the clock at 51 deals on the busy 2-core machine):
 * keep the default won 24.51% of the games [19.66, 29.36], best mean 16.67% [12.40, 20.93];
 * paired, best mean less keep the default: -7.84 points of win share [-13.07, -2.62], mean
 * score -10.93 [-23.17, 1.31]. So the advice keeps OVERRULE and shows the figure it ranks by.
 */
import { dealSeed } from '../training/arena.js';
import { interval } from '../training/arena.js';
import { mahJonggGame } from '../engine/mah-jongg/mah-jongg.js';
import { loadRuleset } from '../engine/mah-jongg/rulesets.js';
import { seedRng } from '../engine/rng.js';
import { loadCard } from '../io/cards.js';
import { makeAgent } from '../agents/mah-jongg/levels.js';
import { MonteCarloAgent, OVERRULE } from '../agents/mah-jongg/montecarlo.js';
import { playOut } from '../agents/table.js';

const deals = Number(process.argv[2] ?? 100),
  seed = Number(process.argv[3] ?? 31),
  worlds = Number(process.argv[4] ?? 8);
const minutes = Number(process.argv[5] ?? 20);
const rules = loadRuleset('nmjl-4p');
const cc = loadCard();
const game = mahJonggGame(rules, cc);
const spec = { seats: ['x', 'medium', 'medium', 'medium'], seed };

/** One deal, once per seat, for a player with the given rule: its win share and mean score over the four games. */
function playDeal(deal: number, overrule: number): { wins: number; score: number } {
  const dealt = game.type.arenaGame(game, deal) as typeof game;
  const s0 = dealSeed(spec, deal);
  let wins = 0,
    score = 0;
  for (let rotation = 0; rotation < 4; rotation++) {
    const agents = [0, 1, 2, 3].map((s) =>
      (s + rotation) % 4 === 0 ? new MonteCarloAgent(dealt.cc, rules, { worlds, candidates: 4, steps: 10 * worlds * 2_500, overrule }, 'mc') : makeAgent('medium', dealt.cc, rules),
    );
    const state = dealt.newGame(s0);
    playOut(dealt, state, agents, seedRng(s0 ^ Math.imul(0x9e3779b9, rotation + 1)));
    const r = dealt.outcome(state)!;
    const seat = (4 - rotation) % 4;
    if (r.winners.includes(seat)) wins += 0.25;
    score += r.scores[seat] / 4;
  }
  return { wins, score };
}

const start = Date.now();
const a: { wins: number; score: number }[] = [],
  b: { wins: number; score: number }[] = [];
for (let d = 0; d < deals && Date.now() - start < minutes * 60_000; d++) {
  a.push(playDeal(d, OVERRULE));
  b.push(playDeal(d, 0));
  if ((d + 1) % 10 === 0) process.stderr.write(`${d + 1} deals, ${Math.round((Date.now() - start) / 1000)} s\n`);
}
const r2 = (x: number) => Math.round(x * 100) / 100,
  r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const show = (i: { mean: number; low: number; high: number }, r: (x: number) => number) => [i.mean, i.low, i.high].map(r);
console.log(
  JSON.stringify({
    deals: a.length,
    seed,
    worlds,
    card: cc.card.name,
    keepDefault: { winShare: show(interval(a.map((x) => x.wins)), r4), meanScore: show(interval(a.map((x) => x.score)), r2) },
    bestMean: { winShare: show(interval(b.map((x) => x.wins)), r4), meanScore: show(interval(b.map((x) => x.score)), r2) },
    pairedWinShareDiff_bestMean_less_keepDefault: show(interval(a.map((x, i) => b[i].wins - x.wins)), r4),
    pairedMeanScoreDiff_bestMean_less_keepDefault: show(interval(a.map((x, i) => b[i].score - x.score)), r2),
  }),
);
