// The standings for the room (issue 47; GET /api/events/:code/standings): a page for a
// projector and for every phone, the round's clock at its head, read again every 15 seconds.
// On a wide screen (a projector, issue 63) rows that do not fit turn over a page at a time, so
// any number of players is seen; the clock counts down each second, yellow in the round's last
// ten minutes and red in its last five; on a phone the table keeps to place, name, total and
// Mah Jonggs, each round a tap away.

import { call, errorWords } from './client.js';
import { byId as $, el } from './dom.js';

/**
 * @typedef {{ place: number, name: string, rounds: (number | null)[], adjusted: number, total: number, mahJonggs: number | null, withdrawn: boolean }} Row
 * @typedef {{ code: string, game: string, name: string, round: number, accepted: number, over: boolean, timeLeftMs: number | null, columns: string[], winners: string[], rows: Row[], corrected?: { round: number, table: number, game: number }[] }} Standings
 */

const params = new URLSearchParams(location.search);
const code = (params.get('event') ?? '').toUpperCase();
/** Seconds a page of rows stays on a projector (`?every=`, 3 to 60; default 12). */
const EVERY_S = Math.min(60, Math.max(3, Number(params.get('every')) || 12));
/** A screen at least this wide shows the standings a page at a time when they do not fit; a narrower one scrolls. */
const PAGED_WIDTH = 900;
/** Minutes left at which the clock turns yellow, then red. */
const SOON_MIN = 10;
const LAST_MIN = 5;

/** @type {Standings | null} */
let shown = null;
/** When the clock's time left was read, by this page's clock. */
let readAt = 0;
/** The page of rows on screen (0-based), and when it turned. */
let page = 0;
let turnedAt = 0;

/** @param {Row[]} rows @param {number} i */
const placeWords = (rows, i) => (rows.some((r, j) => j !== i && r.place === rows[i].place) ? `=${rows[i].place}` : String(rows[i].place));

/** The clock's sentence and its state (plain, soon, last) now. @param {Standings} s */
function clockNow(s) {
  const what = s.game === 'mah-jongg' ? 'round' : 'game';
  if (s.winners.length) return { words: `${s.winners.join(' and ')} ${s.winners.length === 1 ? 'wins' : 'win'}.`, state: '' };
  if (s.over) return { words: 'The event is over.', state: '' };
  if (s.timeLeftMs === null) return { words: s.round === 0 ? `The first ${what} has not begun.` : `${s.accepted} ${what}${s.accepted === 1 ? '' : 's'} scored.`, state: '' };
  const left = Math.max(0, s.timeLeftMs - (performance.now() - readAt));
  const m = Math.ceil(left / 60_000);
  if (left === 0) return { words: `Round ${s.round}: time is up; finish the game being played.`, state: 'last' };
  const words = m > 1 ? `Round ${s.round}: ${m} minutes left.` : `Round ${s.round}: less than a minute left.`;
  return { words, state: m <= LAST_MIN ? 'last' : m <= SOON_MIN ? 'soon' : '' };
}

function drawClock() {
  if (!shown) return;
  const { words, state } = clockNow(shown);
  const clock = $('clock');
  // the sentence changes once a minute at most, so a screen reader hears it then, not each second
  if (clock.textContent !== words) clock.textContent = words;
  clock.dataset.state = state;
}

/** The rows that fit under the table's head on this screen, or all of them on a narrow one (it scrolls). */
function rowsAPage() {
  const body = /** @type {HTMLTableSectionElement} */ ($('standings-rows'));
  if (window.innerWidth < PAGED_WIDTH || body.rows.length === 0) return Infinity;
  // measured with every row shown: the first row's height, the room below the head for the rest
  for (const tr of body.rows) tr.hidden = false;
  const first = body.rows[0].getBoundingClientRect();
  const below = $('ties').getBoundingClientRect().height + $('corrected').getBoundingClientRect().height + 16;
  const room = window.innerHeight - (first.top + window.scrollY) - below;
  return Math.max(3, Math.floor(room / Math.max(1, first.height)));
}

/** Shows the page of rows due now (wide screens), and says which places are on it. */
function drawPage(turn = false) {
  if (!shown) return;
  const body = /** @type {HTMLTableSectionElement} */ ($('standings-rows'));
  const n = body.rows.length;
  const per = rowsAPage();
  const pages = per >= n ? 1 : Math.ceil(n / per);
  if (turn) page = (page + 1) % pages;
  if (page >= pages) page = 0;
  [...body.rows].forEach((tr, i) => {
    tr.hidden = pages > 1 && Math.floor(i / per) !== page;
  });
  const what = shown.game === 'mah-jongg' ? 'round' : 'game';
  const after = `After ${shown.accepted} ${what}${shown.accepted === 1 ? '' : 's'} scored${shown.game === 'mah-jongg' ? '' : ', the lowest total first'}`;
  const from = page * per + 1;
  const to = Math.min(n, (page + 1) * per);
  $('standings-caption').textContent = pages > 1 ? `${after}: places ${from} to ${to} of ${n} players, page ${page + 1} of ${pages}` : after;
  document.body.dataset.pages = String(pages);
  document.body.dataset.page = String(page + 1);
}

async function draw() {
  document.body.dataset.busy = '1';
  try {
    /** @type {Standings} */
    const s = await call('GET', `/api/events/${encodeURIComponent(code)}/standings`);
    shown = s;
    readAt = performance.now();
    document.title = `Tilemate: ${s.name}, standings`;
    $('event-title').textContent = s.name;
    drawClock();
    const mj = s.game === 'mah-jongg';
    // the columns a phone leaves out until she asks for them: each round and the adjustments
    // a round the Director changed after it was accepted is marked, and the change said under the table
    const changed = new Set((s.corrected ?? []).map((c) => `Round ${c.round}`));
    const head = [['Place', ''], ['Player', ''], ...s.columns.map((c) => [changed.has(c) ? `${c} *` : c, 'col-round']), ['Adjusted', 'col-round'], ['Total', ''], ...(mj ? [['Mah Jonggs', '']] : [])];
    $('corrected').textContent = (s.corrected ?? []).length
      ? `* Changed by the Director after the round was accepted: ${(s.corrected ?? []).map((c) => `round ${c.round}, table ${c.table}, game ${c.game}`).join('; ')}.`
      : '';
    $('standings-head').replaceChildren(...head.map(([h, cls]) => el('th', { scope: 'col', class: cls, text: h })));
    $('standings-rows').replaceChildren(...s.rows.map((r, i) => el('tr', {},
      el('td', { text: placeWords(s.rows, i) }),
      el('th', { scope: 'row', text: `${r.name}${r.withdrawn ? ' (withdrew)' : ''}` }),
      // a round she did not play (she came late, or had withdrawn) says so, never 0
      ...r.rounds.map((p) => el('td', { class: `col-round${p === null ? ' missed' : ''}`, text: p === null ? 'missed' : String(p) })),
      el('td', { class: 'col-round', text: r.adjusted ? String(r.adjusted) : '' }),
      el('td', { class: 'total', text: String(r.total) }),
      mj ? el('td', { text: String(r.mahJonggs) }) : null)));
    $('standings-table').classList.remove('hidden');
    $('rounds-toggle').classList.toggle('hidden', s.columns.length === 0);
    if (!mj) $('ties').firstChild?.replaceWith('Mexican Train: the lowest total wins; in a championship, its players come first by their two games added. ');
    /** @type {HTMLAnchorElement} */ ($('csv-link')).href = `/api/events/${s.code}/standings.csv`;
    /** @type {HTMLAnchorElement} */ ($('pdf-link')).href = `/api/events/${s.code}/standings.pdf`;
    $('say').textContent = '';
    drawPage();
  } catch (err) {
    $('say').textContent = `The standings could not be read: ${errorWords(err)}`;
  }
  document.body.dataset.busy = '0';
}

$('rounds-toggle').addEventListener('click', () => {
  const on = !document.body.classList.contains('show-rounds');
  document.body.classList.toggle('show-rounds', on);
  $('rounds-toggle').setAttribute('aria-pressed', String(on));
  $('rounds-toggle').textContent = on ? 'Hide each round' : 'Show each round';
});

if (/^[A-Z0-9]{4,12}$/.test(code)) {
  draw();
  setInterval(() => { if (document.visibilityState === 'visible') draw(); }, 15_000);
  setInterval(() => {
    drawClock();
    if (performance.now() - turnedAt >= EVERY_S * 1000) {
      turnedAt = performance.now();
      drawPage(true);
    }
  }, 1000);
  turnedAt = performance.now();
  window.addEventListener('resize', () => drawPage());
} else $('say').textContent = 'This page shows an event\u2019s standings: open it from the director\u2019s link, which names the event.';
