/**
 * A player's progress over her finished games, week by week: how often she won and her mean
 * score against each level of bots (Mah Jongg), her pips left (Mexican Train), and from the
 * games' reviews the mistakes she made by kind (the Charleston, discards, calls, a dead hand)
 * and what they cost. Said in plain words first, this week against last; the numbers are
 * there for a chart and a details toggle. Her costliest habits come with an example each, for
 * her coach.
 */

/** A finished game as her list of games has it. */
export interface GamePlayed {
  id: string;
  game: string;
  /** Her seat, and every seat's player (the others are bots by name). */
  seat: number;
  seats: string[];
  winners: number[];
  scores: number[];
  finishedAt: string;
}

/** The part of a game's review that progress reads: each decision's kind and cost, and a dead hand. */
export interface ReviewSeen {
  recordId: string;
  decisions: { index: number; phase: string; agreed: boolean; verdict?: string; loss: number; chosen: string; suggested: string; why: string; reason?: string }[];
  dead?: { index: number } | null;
}

export type MistakeKind = 'Charleston' | 'discard' | 'call' | 'dead hand';
const KIND_OF: Record<string, MistakeKind> = { charleston: 'Charleston', vote: 'Charleston', courtesy: 'Charleston', discard: 'discard', claims: 'call' };
const KIND_WORDS: Record<MistakeKind, string> = { Charleston: 'the Charleston', discard: 'discards', call: 'calls', 'dead hand': 'dead hands' };

export interface WeekRow {
  week: string;
  game: string;
  against: string;
  games: number;
  winShare: number;
  meanScore: number;
}
export interface MistakeRow {
  week: string;
  kind: MistakeKind;
  reviewed: number;
  mistakes: number;
  costPerGame: number;
}
export interface Habit {
  kind: MistakeKind;
  mistakes: number;
  cost: number;
  example: { recordId: string; index: number; chosen: string; suggested: string; why: string };
}

export interface Progress {
  /** Plain sentences, most useful first. */
  said: string[];
  weeks: WeekRow[];
  mistakes: MistakeRow[];
  habits: Habit[];
  games: number;
  reviewed: number;
}

/** The Monday (UTC) of the week a moment falls in, as YYYY-MM-DD. */
export function weekOf(iso: string): string {
  const d = new Date(iso);
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day)).toISOString().slice(0, 10);
}

/** The opponents' level: the bots' name when they are all one, else "mixed". */
const against = (g: GamePlayed): string => {
  const bots = g.seats.filter((_, s) => s !== g.seat);
  return bots.every((b) => b === bots[0]) ? bots[0] : 'mixed';
};

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * `name`: whose progress it is, for the words (a coach reads "Rose played ..."); her own
 * progress says "you".
 */
export function progress(games: readonly GamePlayed[], reviews: readonly ReviewSeen[], now = new Date(), name?: string): Progress {
  const thisWeek = weekOf(now.toISOString());
  const lastWeek = weekOf(new Date(Date.parse(`${thisWeek}T00:00:00Z`) - 86_400_000).toISOString());
  // results by week, game and opponents
  const cells = new Map<string, { week: string; game: string; against: string; games: number; wins: number; score: number }>();
  for (const g of games) {
    const key = `${weekOf(g.finishedAt)}|${g.game}|${against(g)}`;
    const c = cells.get(key) ?? { week: weekOf(g.finishedAt), game: g.game, against: against(g), games: 0, wins: 0, score: 0 };
    c.games++;
    // a shared win counts its share
    if (g.winners.includes(g.seat)) c.wins += 1 / g.winners.length;
    c.score += g.scores[g.seat] ?? 0;
    cells.set(key, c);
  }
  const weeks = [...cells.values()]
    .sort((a, b) => a.week.localeCompare(b.week) || a.game.localeCompare(b.game) || a.against.localeCompare(b.against))
    .map((c) => ({ week: c.week, game: c.game, against: c.against, games: c.games, winShare: round1((100 * c.wins) / c.games), meanScore: round1(c.score / c.games) }));

  // mistakes by week and kind, from the reviewed games
  const weekOfRecord = new Map(games.map((g) => [g.id, weekOf(g.finishedAt)]));
  const reviewedByWeek = new Map<string, number>();
  const byKind = new Map<string, MistakeRow>();
  const habits = new Map<MistakeKind, Habit & { worst: number }>();
  for (const r of reviews) {
    const week = weekOfRecord.get(r.recordId);
    if (week === undefined) continue;
    reviewedByWeek.set(week, (reviewedByWeek.get(week) ?? 0) + 1);
    const found: { kind: MistakeKind; loss: number; d: ReviewSeen['decisions'][number] | null; index: number }[] = [];
    for (const d of r.decisions) {
      // the one judge's mistakes (agents/mah-jongg/judge.ts), as the review and the drills count them
      if (d.verdict !== 'mistake') continue;
      const kind = KIND_OF[d.phase];
      if (kind !== undefined) found.push({ kind, loss: Math.max(0, d.loss), d, index: d.index });
    }
    if (r.dead) found.push({ kind: 'dead hand', loss: 0, d: null, index: r.dead.index });
    for (const f of found) {
      const key = `${week}|${f.kind}`;
      const row = byKind.get(key) ?? { week, kind: f.kind, reviewed: 0, mistakes: 0, costPerGame: 0 };
      row.mistakes++;
      row.costPerGame += f.loss; // summed here, divided below
      byKind.set(key, row);
      const h = habits.get(f.kind);
      const example = { recordId: r.recordId, index: f.index, chosen: f.d?.chosen ?? '', suggested: f.d?.suggested ?? '', why: f.d?.reason ?? f.d?.why ?? 'another player called your hand dead' };
      // the costliest one of each kind is its example
      if (h === undefined) habits.set(f.kind, { kind: f.kind, mistakes: 1, cost: f.loss, example, worst: f.loss });
      else {
        h.mistakes++;
        h.cost += f.loss;
        if (f.loss > h.worst) {
          h.worst = f.loss;
          h.example = example;
        }
      }
    }
  }
  const mistakes = [...byKind.values()]
    .map((m) => {
      const reviewed = reviewedByWeek.get(m.week) ?? 1;
      return { ...m, reviewed, costPerGame: round1(m.costPerGame / reviewed) };
    })
    .sort((a, b) => a.week.localeCompare(b.week) || a.kind.localeCompare(b.kind));

  return {
    said: sentences(weeks, mistakes, thisWeek, lastWeek, name),
    weeks,
    mistakes,
    habits: [...habits.values()].map(({ worst: _, ...h }) => ({ ...h, cost: round1(h.cost) })).sort((a, b) => b.cost - a.cost || b.mistakes - a.mistakes),
    games: games.length,
    reviewed: reviews.filter((r) => weekOfRecord.has(r.recordId)).length,
  };
}

function sentences(weeks: WeekRow[], mistakes: MistakeRow[], thisWeek: string, lastWeek: string, name?: string): string[] {
  const said: string[] = [];
  const who = name ?? 'you';
  const Who = name ?? 'You';
  const whose = name === undefined ? 'Your' : `${name}'s`;
  const total = (week: string, game: string) =>
    weeks
      .filter((w) => w.week === week && w.game === game)
      .reduce((t, w) => ({ games: t.games + w.games, wins: t.wins + (w.winShare * w.games) / 100, score: t.score + w.meanScore * w.games }), { games: 0, wins: 0, score: 0 });
  const mj = total(thisWeek, 'mah-jongg'),
    mjLast = total(lastWeek, 'mah-jongg');
  if (mj.games > 0) {
    said.push(
      `This week ${who} played ${mj.games} Mah Jongg game${mj.games === 1 ? '' : 's'} and made Mah Jongg in ${Math.round(mj.wins)} of them${mjLast.games > 0 ? `; last week ${Math.round(mjLast.wins)} of ${mjLast.games}` : ''}.`,
    );
  } else if (mjLast.games > 0) {
    said.push(`Last week ${who} played ${mjLast.games} Mah Jongg game${mjLast.games === 1 ? '' : 's'} and made Mah Jongg in ${Math.round(mjLast.wins)} of them; none yet this week.`);
  }
  // the kind of mistake that cost the most lately, this week against last
  const cost = (week: string, kind: MistakeKind) => mistakes.find((m) => m.week === week && m.kind === kind)?.costPerGame ?? 0;
  const kinds = (['Charleston', 'discard', 'call'] as MistakeKind[])
    .map((k) => ({ k, now: cost(thisWeek, k), before: cost(lastWeek, k) }))
    .filter((x) => x.now > 0 || x.before > 0)
    .sort((a, b) => Math.max(b.now, b.before) - Math.max(a.now, a.before));
  if (kinds.length > 0) {
    const { k, now, before } = kinds[0];
    const reviewedIn = (week: string) => mistakes.some((m) => m.week === week);
    said.push(
      reviewedIn(lastWeek) && reviewedIn(thisWeek)
        ? `${Who} gave away about ${Math.round(before)} points a game in ${KIND_WORDS[k]} last week, ${Math.round(now)} this week.`
        : reviewedIn(thisWeek)
          ? `${Who} gave away about ${Math.round(now)} points a game in ${KIND_WORDS[k]} this week.`
          : `${Who} gave away about ${Math.round(before)} points a game in ${KIND_WORDS[k]} last week.`,
    );
  }
  const mt = total(thisWeek, 'mexican-train'),
    mtLast = total(lastWeek, 'mexican-train');
  if (mt.games > 0)
    said.push(
      `${whose} Mexican Train games this week ended with ${Math.round(mt.score / mt.games)} pips left on average${mtLast.games > 0 ? ` (${Math.round(mtLast.score / mtLast.games)} last week)` : ''}.`,
    );
  if (said.length === 0) said.push(name === undefined ? 'Play a few games and ask for their reviews: your progress will show here week by week.' : `${name} has no finished games yet.`);
  return said;
}
