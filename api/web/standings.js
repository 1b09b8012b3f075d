// The standings for the room (issue 47; GET /api/events/:code/standings): a page for a
// projector and for every phone, the round's clock at its head, drawn again every 15 seconds.

import { call, errorWords } from './client.js';
import { byId as $, el } from './dom.js';

/**
 * @typedef {{ place: number, name: string, rounds: (number | null)[], adjusted: number, total: number, mahJonggs: number | null, withdrawn: boolean }} Row
 * @typedef {{ code: string, game: string, name: string, round: number, accepted: number, over: boolean, timeLeftMs: number | null, columns: string[], winners: string[], rows: Row[] }} Standings
 */

const code = (new URLSearchParams(location.search).get('event') ?? '').toUpperCase();

/** @param {Row[]} rows @param {number} i */
const placeWords = (rows, i) => (rows.some((r, j) => j !== i && r.place === rows[i].place) ? `=${rows[i].place}` : String(rows[i].place));

async function draw() {
  document.body.dataset.busy = '1';
  try {
    /** @type {Standings} */
    const s = await call('GET', `/api/events/${encodeURIComponent(code)}/standings`);
    document.title = `Tilemate: ${s.name}, standings`;
    $('event-title').textContent = s.name;
    const m = s.timeLeftMs === null ? 0 : Math.ceil(s.timeLeftMs / 60_000);
    const mj = s.game === 'mah-jongg';
    const what = mj ? 'round' : 'game';
    $('clock').textContent = s.winners.length ? `${s.winners.join(' and ')} ${s.winners.length === 1 ? 'wins' : 'win'}.` : s.over ? 'The event is over.'
      : s.timeLeftMs === null ? (s.round === 0 ? `The first ${what} has not begun.` : `${s.accepted} ${what}${s.accepted === 1 ? '' : 's'} scored.`)
      : `Round ${s.round}: ${m} minute${m === 1 ? '' : 's'} left.`;
    $('standings-caption').textContent = `After ${s.accepted} ${what}${s.accepted === 1 ? '' : 's'} scored${mj ? '' : ', the lowest total first'}`;
    $('standings-head').replaceChildren(...['Place', 'Player', ...s.columns, 'Adjusted', 'Total', ...(mj ? ['Mah Jonggs'] : [])].map((h) => el('th', { scope: 'col', text: h })));
    $('standings-rows').replaceChildren(...s.rows.map((r, i) => el('tr', {},
      el('td', { text: placeWords(s.rows, i) }),
      el('th', { scope: 'row', text: `${r.name}${r.withdrawn ? ' (withdrew)' : ''}` }),
      ...r.rounds.map((p) => el('td', { text: p === null ? '' : String(p) })),
      el('td', { text: r.adjusted ? String(r.adjusted) : '' }),
      el('td', { class: 'total', text: String(r.total) }),
      mj ? el('td', { text: String(r.mahJonggs) }) : null)));
    $('standings-table').classList.remove('hidden');
    if (!mj) $('ties').firstChild?.replaceWith('Mexican Train: the lowest total wins; in a championship, its players come first by their two games added. ');
    /** @type {HTMLAnchorElement} */ ($('csv-link')).href = `/api/events/${s.code}/standings.csv`;
    /** @type {HTMLAnchorElement} */ ($('pdf-link')).href = `/api/events/${s.code}/standings.pdf`;
    $('say').textContent = '';
  } catch (err) {
    $('say').textContent = `The standings could not be read: ${errorWords(err)}`;
  }
  document.body.dataset.busy = '0';
}

if (/^[A-Z0-9]{4,12}$/.test(code)) {
  draw();
  setInterval(() => { if (document.visibilityState === 'visible') draw(); }, 15_000);
} else $('say').textContent = 'This page shows an event\u2019s standings: open it from the director\u2019s link, which names the event.';
