// The standings for the room (issue 47; GET /api/events/:code/standings): a page for a
// projector and for every phone, the round's clock at its head, drawn again every 15 seconds.

import { call, errorWords } from './client.js';
import { byId as $, el } from './dom.js';

/**
 * @typedef {{ place: number, name: string, rounds: number[], adjusted: number, total: number, mahJonggs: number, withdrawn: boolean }} Row
 * @typedef {{ code: string, name: string, round: number, accepted: number, over: boolean, timeLeftMs: number | null, rows: Row[] }} Standings
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
    $('clock').textContent = s.over ? 'The event is over.'
      : s.timeLeftMs === null ? (s.round === 0 ? 'The first round has not begun.' : `Round ${s.round} is scored.`)
      : `Round ${s.round}: ${m} minute${m === 1 ? '' : 's'} left.`;
    const rounds = s.rows[0]?.rounds.length ?? 0;
    $('standings-caption').textContent = `After ${s.accepted} round${s.accepted === 1 ? '' : 's'} scored`;
    $('standings-head').replaceChildren(...['Place', 'Player', ...Array.from({ length: rounds }, (_, i) => `Round ${i + 1}`), 'Adjusted', 'Total', 'Mah Jonggs'].map((h) => el('th', { scope: 'col', text: h })));
    $('standings-rows').replaceChildren(...s.rows.map((r, i) => el('tr', {},
      el('td', { text: placeWords(s.rows, i) }),
      el('th', { scope: 'row', text: `${r.name}${r.withdrawn ? ' (withdrew)' : ''}` }),
      ...r.rounds.map((p) => el('td', { text: String(p) })),
      el('td', { text: r.adjusted ? String(r.adjusted) : '' }),
      el('td', { class: 'total', text: String(r.total) }),
      el('td', { text: String(r.mahJonggs) }))));
    $('standings-table').classList.remove('hidden');
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
