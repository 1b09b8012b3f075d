// The end of a game: who won and with what, the score, every hand, then the review of the
// person's decisions, biggest mistake first, each one opening the moment it happened.

import { ApiError, errorWords } from './client.js';
import { el } from './dom.js';
import { lineName, plainLines } from './lines.js';
import { sortTiles, tileElement, tileLabel, tilesInWords } from './tiles.js';

/**
 * The server's sentence in a player's words: tiles by name, card lines by the names players give them.
 * @param {string | null | undefined} text
 */
const words = (text) => tilesInWords(plainLines(text));

/** @import { View } from './app.js' */
/** @import { Review, ReviewDecision, ReviewProgress, Tile } from './types.js' */

/**
 * The review routes a page asks: the review itself, and how far it has got while it is worked out.
 * @typedef {{
 *   review(body: { recordId?: string | null, seat: number }): Promise<Review>,
 *   reviewProgress?(recordId: string, seat: number): Promise<ReviewProgress>,
 * }} ReviewApi
 */

/**
 * What the end and the review need of the page around them: who a seat is in words, the
 * person's seat, the review route, and (My games) a way to play on from a decision.
 * @typedef {{
 *   seatWords: (seat: number) => string,
 *   seat: () => number,
 *   api?: ReviewApi,
 *   gameId?: string,
 *   review?: boolean,
 *   playFrom?: (decision: ReviewDecision) => void,
 *   player?: string,
 * }} EndContext
 * `player`: whose decisions the review is of when she is not the one reading it (a coach reading
 * her student's): the review then speaks of her by name, not as "you".
 */

/** @param {EndContext} ctx */
const reviewTitle = (ctx) => (ctx.player ? `Review of ${ctx.player}\u2019s decisions` : 'Review of your decisions');

/**
 * @param {readonly Tile[]} tiles
 * @param {string} [size]
 */
function tileRow(tiles, size = 'small') {
  const row = el('div', { class: 'tile-row' });
  for (const t of tiles) row.append(tileElement(t, { size }));
  return row;
}

/**
 * A declared Mah Jongg's line as players name it: the server's words ("the second 2468 line",
 * from the game's own card), else read from its id.
 * @param {import('./types.js').DeclaredMahJongg} mj
 */
const lineWords = (mj) => mj.name ?? lineName(mj.line);

/**
 * @param {View} v
 * @param {(seat: number) => string} seatWords
 */
function outcomeWords(v, seatWords) {
  const r = v.result;
  if (!r) return 'The game has ended.';
  if (r.winners?.length) {
    return r.winners.map((s) => {
      const mj = (v.mahJonggs ?? []).find((m) => m.seat === s);
      const who = seatWords(s);
      return `${who === 'You' ? 'You' : who} made Mah Jongg${mj ? ` with ${lineWords(mj)} (worth ${mj.value})` : ''}.`;
    }).join(' ');
  }
  return r.wallGame ? 'A wall game: the tiles ran out and nobody made Mah Jongg.' : 'The game ended without a Mah Jongg.';
}

/**
 * A score line in a player's words: the engine's reason (engine/mah-jongg/scoring.ts) names seats by
 * number and cites the rule it applies; the table says who by where she sits, and keeps the
 * rule references for the "Rules behind the score" details.
 * @param {string} why
 * @param {(seat: number) => string} seatWords
 * @returns {string}
 */
export function plainScoreWhy(why, seatWords) {
  return why
    .replace(/\s*\((?:[^()]*(?:teaching guide|tournament|standardized|Siamese|rules?)\b[^()]*)\)/gi, '')
    .replace(/\bseat (\d+)(['\u2019]s)?/g, (_, n, own) => {
      const who = seatWords(Number(n));
      return own ? (who === 'You' ? 'your' : `${who}\u2019s`) : (who === 'You' ? 'you' : who);
    })
    .replace(/\b1 x the\b/g, 'once the')
    .replace(/\b2 x the\b/g, 'twice the')
    .replace(/\b(\d+) x the\b/g, '$1 times the')
    .replace(/\s+;/g, ';')
    .trim();
}

/**
 * Renders the end once per game into `box` (the table's own end panel); the review is asked
 * for once and kept.
 * @param {HTMLElement} box
 * @param {{ view: View | null, review: Review | null }} ui
 * @param {EndContext} ctx
 */
export async function renderEnd(box, ui, ctx) {
  const v = /** @type {View} */ (ui.view);
  box.classList.remove('hidden');
  if (box.dataset.game === ctx.gameId && box.dataset.done === '1') return;
  box.dataset.game = ctx.gameId ?? '';
  box.dataset.done = '1';
  box.replaceChildren();

  box.append(el('h2', { text: 'Game over' }), el('p', { text: outcomeWords(v, ctx.seatWords), class: 'outcome' }));

  const table = el('table');
  table.setAttribute('aria-label', 'Scores');
  const head = el('tr');
  head.append(el('th', { text: 'Player' }), el('th', { text: 'Score' }), el('th', { text: 'Why' }));
  table.append(head);
  const r = v.result ?? { scores: [], lines: [], hands: [] };
  r.scores.forEach((score, s) => {
    const tr = el('tr', { class: 'score-row' });
    const why = (r.lines ?? []).filter((l) => l.seat === s).map((l) => plainScoreWhy(l.why, ctx.seatWords)).join('; ');
    tr.append(el('td', { text: `${ctx.seatWords(s)}${v.names[s] && s !== v.seat ? ` (${v.names[s]})` : ''}` }), el('td', { text: score > 0 ? `+${score}` : String(score) }), el('td', { text: why }));
    table.append(tr);
  });
  box.append(el('h3', { text: 'Score' }), table);
  if ((r.lines ?? []).length > 0) {
    // for a coach or a tournament player: each line as the engine reasons it, with the rule it applies
    const rules = el('details', { class: 'score-rules' });
    rules.append(el('summary', { text: 'Rules behind the score' }));
    const list = el('ul');
    for (const l of r.lines ?? []) list.append(el('li', { text: `${ctx.seatWords(l.seat)}: ${l.points > 0 ? '+' : ''}${l.points}, ${l.why}` }));
    rules.append(list);
    box.append(rules);
  }

  const hands = el('div', { class: 'hands' });
  hands.append(el('h3', { text: 'Everyone\u2019s hands' }));
  for (let s = 0; s < v.players; s++) {
    const mj = (v.mahJonggs ?? []).filter((m) => m.seat === s);
    hands.append(el('p', { text: `${ctx.seatWords(s)}${mj.length ? `: Mah Jongg with ${mj.map(lineWords).join(' and ')}` : ''}` }));
    const row = tileRow(sortTiles([...(r.hands?.[s] ?? []), ...mj.flatMap((m) => m.tiles)]), 'mid');
    for (const x of v.exposures?.[s] ?? []) {
      const g = el('span', { class: 'group' });
      for (const t of x.tiles) g.append(tileElement(t, { size: 'mid' }));
      row.append(g);
    }
    hands.append(row);
  }
  box.append(hands);
  if (ctx.review === false) return;

  const review = el('section');
  review.id = 'review';
  /** @param {string} text */
  const say = (text) => review.replaceChildren(el('h2', { text: reviewTitle(ctx) }), el('p', { text, class: 'review-progress' }));
  review.append(el('h2', { text: reviewTitle(ctx) }), el('p', { text: 'Looking over your game\u2026 (this takes a few seconds)', class: 'review-progress' }));
  box.append(review);

  /** @type {Review} */
  let data;
  for (let attempt = 1; ; attempt++) {
    try {
      if (!v.recordId || !ctx.api) throw new Error('the server kept no record of this game');
      data = await reviewWithProgress(ctx.api, { recordId: v.recordId, seat: v.seat }, say, ctx.player);
      break;
    } catch (err) {
      // friends at one table on one home network ask for their reviews at once: the server makes a
      // few at a time for one address and asks the others to wait (TM_BUSY), so theirs follow
      if (err instanceof ApiError && err.code === 'TM_BUSY' && attempt < 10) {
        say('Other reviews are being made just now: yours follows in a moment\u2026');
        await new Promise((done) => setTimeout(done, 2000 + 1000 * attempt));
        continue;
      }
      review.replaceChildren(el('h2', { text: reviewTitle(ctx) }), el('p', { text: `The review could not be made: ${errorWords(err)}` }));
      return;
    }
  }
  ui.review = data;
  showReview(review, data, ctx);
}

/** How often the page asks how far a review has got (ms): four tablets of a club behind one address ask 120 times a minute of its 600. */
const PROGRESS_EVERY = 2000;

/**
 * How far a review has got, in words: "Reviewing your game: move 120 of 300…".
 * @param {ReviewProgress} p
 * @param {string} [player] whose game it is, when not the reader's
 */
export const progressWords = (p, player) => `Reviewing ${player ? `${player}\u2019s` : 'your'} game: move ${Math.min(p.total ?? 0, Math.max(1, p.done ?? 0))} of ${p.total ?? 0}\u2026`;

/**
 * The review of a kept game, asked for once; while the server works it out (tens of seconds
 * for a whole game), how far it has got is asked every 2 seconds and said (`say`). The
 * answer, or the review's own error, is the request's: the progress only ever adds words.
 * @param {ReviewApi} api
 * @param {{ recordId: string, seat: number }} body
 * @param {(text: string) => void} say
 * @param {string} [player] whose game it is, when not the reader's
 * @returns {Promise<Review>}
 */
export async function reviewWithProgress(api, body, say, player) {
  let open = true;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const ask = () => {
    timer = setTimeout(async () => {
      if (!open || !api.reviewProgress) return;
      try {
        // not under way yet (or done a moment ago): the answer follows
        const p = await api.reviewProgress(body.recordId, body.seat);
        if (open && p.running) say(progressWords(p, player));
      } catch {
        // the progress only adds words: the review's own answer says what went wrong
      }
      if (open) ask();
    }, PROGRESS_EVERY);
  };
  ask();
  try {
    return await api.review(body);
  } finally {
    open = false;
    clearTimeout(timer);
  }
}

/** @type {Record<string, string>} */
const PHASE_WORDS = { charleston: 'Charleston pass', vote: 'Second Charleston vote', courtesy: 'Courtesy pass', discard: 'Discard', claims: 'Call window' };

/**
 * The one judge's verdict on a decision (agents/mah-jongg/judge.ts); a review kept before it had
 * one says it from its figures.
 * @param {ReviewDecision} d
 * @returns {'right' | 'asGood' | 'mistake'}
 */
const verdictOf = (d) => d.verdict ?? (d.agreed ? 'right' : d.asGood ? 'asGood' : 'mistake');

/**
 * A decision of the review in a player's words, as the judge called it (the CLI's words,
 * api/cli/review-cli.ts): the coach's own choice; as good as it; about as good, and why; or a
 * mistake, the better choice, what it cost and why. The figures stay in the moment's Details.
 * @param {ReviewDecision} d
 * @param {string} [player] whose decision it was, when not the reader's
 * @returns {string}
 */
export function decisionWords(d, player) {
  const when = `${PHASE_WORDS[d.phase] ?? 'Decision'} (move ${d.index})`;
  const who = player ?? 'you';
  const reason = d.reason ? ` ${words(d.reason)}` : '';
  if (d.agreed) return `${when}: ${who} chose to ${words(d.chosen)}. Good: that is what the coach would do.`;
  const verdict = verdictOf(d);
  if (verdict === 'right') return `${when}: ${who} chose to ${words(d.chosen)}, as good as the coach's choice to ${words(d.suggested)}.`;
  if (verdict === 'asGood') return `${when}: ${who} chose to ${words(d.chosen)}, about as good as the coach's choice to ${words(d.suggested)}.${reason}`;
  const loss = d.loss ?? d.cost ?? 0;
  const cost = loss >= 0.5 ? ` It cost about ${Math.round(loss)} point${Math.round(loss) === 1 ? '' : 's'} a game.` : (d.tilesLost ?? 0) > 0 ? ` It left ${player ? 'her' : 'you'} ${d.tilesLost} tile${d.tilesLost === 1 ? '' : 's'} further from a hand.` : '';
  // the judge's reason in one sentence; a review kept before it had one gives the coach's idea instead
  const why = reason || (d.why ? ` ${words(d.why)}` : '');
  return `${when}: a mistake: ${who} chose to ${words(d.chosen)}; better was to ${words(d.suggested)}.${cost}${why}`;
}

/**
 * The judge's figures for a decision, for the Details: what it cost, give or take, over how many sampled games.
 * @param {ReviewDecision} d
 * @returns {string}
 */
export function judgeFigures(d) {
  if (d.agreed || !d.worlds) return '';
  const cost = Math.max(0, d.cost ?? d.loss ?? 0);
  return `The judge's estimate: about ${cost.toFixed(1)} points a game${d.lossSe ? `, give or take ${d.lossSe.toFixed(1)}` : ''}, over ${d.worlds} sampled game${d.worlds === 1 ? '' : 's'} played on from here (a mistake from 6 points; within 3 as good as the coach's).`;
}

/**
 * The review's own sentence (said to the player: "You made…"), of her by name for another reader.
 * @param {string} text
 * @param {string} [player]
 */
const summaryOf = (text, player) => (player ? text.replace(/^You made/, `${player} made`).replace('decisions of yours', `decisions of ${player}\u2019s`) : text);

/**
 * The review of a game's decisions, biggest mistake first, each opening the moment it happened.
 * @param {HTMLElement} box
 * @param {Review} data
 * @param {EndContext} ctx
 */
export function showReview(box, data, ctx) {
  box.replaceChildren(el('h2', { text: reviewTitle(ctx) }));
  const decisions = data.decisions ?? [];
  const s = data.summary;
  if (s) {
    // the review's own sentence (agents/coach/review.ts summaryText); a review kept from before it had one says it the old way
    const differ = s.mistakes ?? s.disagreed ?? s.decisions - s.agreed;
    const text = s.text ?? `You made ${s.decisions} decisions; the coach would have chosen differently ${differ === 1 ? 'once' : `${differ} times`}.`;
    box.append(el('p', { text: `${summaryOf(text, ctx.player)}${decisions.length ? ' Click one to see that moment.' : ''}` }));
  }
  if (data.dead) {
    // the moment the hand was called dead, flagged above the list
    const flag = el('p', { text: `Move ${data.dead.index}: ${ctx.seatWords(data.dead.by)} called ${ctx.player ? `${ctx.player}\u2019s` : 'your'} hand dead \u2014 the tiles on the table showed that no hand on the card could still be finished with what you had exposed.`, class: 'dead-flag' });
    box.append(flag);
  }
  if (!decisions.length) { box.append(el('p', { text: 'There were no decisions to review.' })); return; }
  const list = el('ol');
  const moment = el('div');
  moment.id = 'moment';
  moment.className = 'hidden';
  // every disagreement is shown; of the agreed choices, the first few
  const FIRST = Math.max(10, s?.mistakes ?? s?.disagreed ?? 0);
  decisions.forEach((d, i) => {
    const li = el('li');
    if (i >= FIRST) li.classList.add('hidden', 'more');
    const b = el('button', { text: decisionWords(d, ctx.player), class: 'btn btn-quiet review-item' });
    b.type = 'button';
    b.addEventListener('click', () => {
      for (const other of list.querySelectorAll('button')) other.setAttribute('aria-current', 'false');
      b.setAttribute('aria-current', 'true');
      li.append(moment); // the moment opens under its decision
      showMoment(moment, d, ctx);
    });
    li.append(b);
    list.append(li);
  });
  box.append(list);
  if (decisions.length > FIRST) {
    const more = el('button', { text: `Show all ${decisions.length} decisions`, class: 'btn' });
    more.type = 'button';
    more.addEventListener('click', () => {
      for (const li of list.querySelectorAll('li.more')) li.classList.remove('hidden');
      more.remove();
    });
    box.append(more);
  }
  box.append(moment);
}

/**
 * The moment of a decision: the rack then, every seat's discards, the tile on the table, the choice and the advice.
 * @param {HTMLElement} box
 * @param {ReviewDecision} d
 * @param {EndContext} ctx
 */
function showMoment(box, d, ctx) {
  box.classList.remove('hidden');
  box.replaceChildren();
  const m = d.moment ?? {};
  // the moment is the seat's view then (docs/api.md): per-seat lists either side by side or in `seats`
  const exposures = m.exposures ?? (m.seats ?? []).map((s) => s.exposures ?? []);
  const discardsThen = m.discards ?? (m.seats ?? []).map((s) => s.discards ?? []);
  box.append(el('h3', { text: `${PHASE_WORDS[d.phase] ?? 'Decision'}, move ${d.index}${m.wallLeft !== undefined ? ` (${m.wallLeft} tile${m.wallLeft === 1 ? '' : 's'} left in the wall)` : ''}` }));
  if (m.claim) {
    const row = el('div', { class: 'tile-row claim-row' });
    row.append(tileElement(m.claim.tile, { size: 'mid', mark: 'last-discard' }), el('span', { text: `${ctx.seatWords(m.claim.discarder)} had just discarded ${tileLabel(m.claim.tile)}.` }));
    box.append(row);
  }
  const seat = ctx.seat();
  const whose = ctx.player ? `${ctx.player}\u2019s` : 'Your';
  if (m.rack) box.append(el('p', { text: `${whose} rack then:` }), tileRow(sortTiles(m.rack), 'mid'));
  const mine = exposures[seat] ?? [];
  if (mine.length) {
    const row = el('div', { class: 'tile-row' });
    for (const x of mine) {
      const g = el('span', { class: 'group' });
      for (const t of x.tiles ?? []) g.append(tileElement(t, { size: 'mid' }));
      row.append(g);
    }
    box.append(el('p', { text: `${whose} exposures:` }), row);
  }
  const p = el('p');
  p.append(el('strong', { text: `${ctx.player ?? 'You'} chose: ` }), `${words(d.chosen)}.`);
  box.append(p);
  if (!d.agreed) {
    const q = el('p');
    q.append(el('strong', { text: 'The coach: ' }), `${words(d.suggested)}.`);
    box.append(q);
  }
  if (d.why) box.append(el('p', { text: words(d.why) }));
  const figures = judgeFigures(d);
  if (d.details || figures) {
    const more = el('details');
    more.append(el('summary', { text: 'Details' }));
    if (figures) more.append(el('p', { text: figures }));
    if (d.details) more.append(el('p', { text: words(d.details) }));
    box.append(more);
  }
  const discards = discardsThen;
  if (discards.some((x) => x.length)) {
    box.append(el('p', { text: 'Discards by then:' }));
    discards.forEach((ds, s) => {
      if (!ds.length) return;
      const row = el('div', { class: 'pool-row' });
      row.append(el('span', { text: ctx.seatWords(s), class: 'pool-label' }), tileRow(ds, 'small'));
      box.append(row);
    });
  }
  const playFrom = ctx.playFrom;
  if (playFrom) {
    // the same deal and bots, played on from just before this decision, to try the other choice
    const again = el('button', { text: 'Play on from here', class: 'btn' });
    again.type = 'button';
    again.addEventListener('click', () => playFrom(d));
    box.append(el('p'), again);
  }
  box.scrollIntoView({ block: 'nearest' });
}
