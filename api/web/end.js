// The end of a game: who won and with what, the score, every hand, then the review of the
// person's decisions, biggest mistake first, each one opening the moment it happened.

import { sortTiles, tileElement, tileLabel, tilesFromCounts, tilesLabel } from './tiles.js';

const $ = (sel) => document.querySelector(sel);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function tileRow(tiles, size = 'small') {
  const row = el('div', undefined, 'tile-row');
  for (const t of tiles) row.append(tileElement(t, { size }));
  return row;
}

function outcomeWords(v, seatWords) {
  const r = v.result;
  if (!r) return 'The game has ended.';
  if (r.winners?.length) {
    return r.winners.map((s) => {
      const mj = (v.mahJonggs ?? []).find((m) => m.seat === s);
      const who = seatWords(s);
      return `${who === 'You' ? 'You' : who} made Mah Jongg${mj ? ` with ${mj.line} (worth ${mj.value})` : ''}.`;
    }).join(' ');
  }
  return r.wallGame ? 'A wall game: the tiles ran out and nobody made Mah Jongg.' : 'The game ended without a Mah Jongg.';
}

/** Renders the end once per game; the review is asked for once and kept. */
export async function renderEnd(ui, ctx) {
  const box = $('#end');
  const v = ui.view;
  box.classList.remove('hidden');
  if (box.dataset.game === ui.game.id && box.dataset.done === '1') return;
  box.dataset.game = ui.game.id;
  box.dataset.done = '1';
  box.replaceChildren();

  box.append(el('h2', 'Game over'), el('p', outcomeWords(v, ctx.seatWords), 'outcome'));

  const table = el('table');
  table.setAttribute('aria-label', 'Scores');
  const head = el('tr');
  head.append(el('th', 'Player'), el('th', 'Score'));
  table.append(head);
  (v.result?.scores ?? []).forEach((score, s) => {
    const tr = el('tr');
    tr.append(el('td', ctx.seatWords(s)), el('td', String(score)));
    tr.className = 'score-row';
    table.append(tr);
  });
  box.append(el('h3', 'Score'), table);

  const hands = el('div', undefined, 'hands');
  hands.append(el('h3', 'Everyone\u2019s hands'));
  const reveal = v.reveal?.concealed ?? [];
  for (let s = 0; s < v.players; s++) {
    const tiles = Array.isArray(reveal[s]) && typeof reveal[s][0] === 'number' ? tilesFromCounts(reveal[s]) : sortTiles(reveal[s] ?? []);
    hands.append(el('p', ctx.seatWords(s)));
    const row = tileRow(tiles, 'mid');
    for (const x of v.exposures?.[s] ?? []) {
      const g = el('span', undefined, 'group');
      for (let i = 0; i < x.size - x.jokers; i++) g.append(tileElement(x.tile, { size: 'mid' }));
      for (let i = 0; i < x.jokers; i++) g.append(tileElement('J', { size: 'mid' }));
      row.append(g);
    }
    hands.append(row);
  }
  box.append(hands);

  const review = el('section');
  review.id = 'review';
  review.append(el('h2', 'Review of your decisions'), el('p', 'Looking over your game…'));
  box.append(review);

  let data;
  try {
    data = await ctx.api.review({ gameId: ui.game.id, token: ui.game.token, record: v.record, seat: v.seat });
  } catch (err) {
    review.replaceChildren(el('h2', 'Review of your decisions'), el('p', `The review could not be made: ${err.message}`));
    return;
  }
  ui.review = data;
  showReview(review, data, ctx);
}

function decisionWords(d) {
  const lost = typeof d.loss === 'number' ? ` (about ${d.loss.toFixed(1)} points behind)` : '';
  if (d.agreed) return `Action ${d.index}: you chose ${d.chosen}; the advice agrees.`;
  return `Action ${d.index}: you chose ${d.chosen}; better was ${d.suggested}${lost}.`;
}

function showReview(box, data, ctx) {
  box.replaceChildren(el('h2', 'Review of your decisions'));
  const decisions = data.decisions ?? [];
  if (data.summary) box.append(el('p', data.summary));
  if (!decisions.length) { box.append(el('p', 'There were no decisions to review.')); return; }
  const list = el('ol');
  const moment = el('div');
  moment.id = 'moment';
  moment.className = 'hidden';
  for (const d of decisions) {
    const li = el('li');
    const b = el('button', decisionWords(d), 'btn btn-quiet review-item');
    b.type = 'button';
    b.addEventListener('click', () => {
      for (const other of list.querySelectorAll('button')) other.setAttribute('aria-current', 'false');
      b.setAttribute('aria-current', 'true');
      showMoment(moment, d, ctx);
    });
    li.append(b);
    list.append(li);
  }
  box.append(list, moment);
}

/** The moment of a decision: the rack then, the tile on the table, what was chosen and what was advised. */
function showMoment(box, d, ctx) {
  box.classList.remove('hidden');
  box.replaceChildren();
  box.append(el('h3', `Action ${d.index}: ${d.phase === 'claims' ? 'a call' : d.phase === 'charleston' ? 'a Charleston pass' : 'a discard'}`));
  const m = d.moment ?? {};
  if (m.rack) {
    box.append(el('p', 'Your rack then:'), tileRow(sortTiles(m.rack), 'mid'));
  }
  if (m.claim) box.append(el('p', `${ctx.seatWords(m.claim.discarder)} had discarded ${tileLabel(m.claim.tile)}.`));
  if (m.exposures?.length) box.append(el('p', `Your exposures: ${m.exposures.map((x) => `${x.size} x ${tileLabel(x.tile)}${x.jokers ? ` (${x.jokers} joker${x.jokers > 1 ? 's' : ''})` : ''}`).join('; ')}`));
  box.append(el('p', `You chose: ${d.chosen}.`));
  if (!d.agreed) box.append(el('p', `The advice: ${d.suggested}.`));
  if (d.why) box.append(el('p', d.why));
  if (d.tiles) box.append(el('p', tilesLabel(d.tiles)));
  box.scrollIntoView({ block: 'nearest' });
}
