// The director's desk (issue 47; routes api/http/routes/events.ts): her events, and one event's
// players, rounds, tables and cards, the round's clock, penalties and every change made. The
// event is named in the address (events.html?event=CODE), so a reload opens it again.

import { call, errorWords } from './client.js';
import { byId as $, el } from './dom.js';
import { chosenCard } from './chosen-card.js';
import { readResult, resultFields } from './game-result.js';

/**
 * @typedef {{ seat: string, wind: string, player: string, name: string, entered: number, checked: boolean }} DeskSeat
 * @typedef {{ table: number, collector: string | null, seats: DeskSeat[], games?: { game: number, code: string }[], differences?: { game: number, words: string }[], settled?: { game: number, reason: string, present?: string[] }[] }} DeskTable
 * @typedef {{ round: number, rotated: boolean, accepted: boolean, paused: boolean, ended: boolean, tables: DeskTable[], championship?: boolean, hands?: number }} DeskRound
 * @typedef {{ id: string, name: string, card: string, host: boolean, from: number, withdrawn: number | null, rated: boolean, asked?: boolean }} DeskPlayer
 * @typedef {{ code: string, game: string, name: string, roundMinutes?: number, tableSize?: number, championship?: boolean, over: boolean,
 *   online?: { level: string, awayAfter: number, card: string | null } | null, players: DeskPlayer[], rounds: DeskRound[], timeLeftMs: number | null,
 *   adjustments: { name: string, points: number, reason: string, round: number | null }[] }} Desk
 */

/** @type {Desk | null} */
let desk = null;
let waiting = 0;

/** @param {boolean} on */
function busy(on) {
  waiting += on ? 1 : -1;
  document.body.dataset.busy = String(waiting);
}

/** @param {string} text */
function say(text) {
  $('say').textContent = text;
}

/**
 * A request, with the page busy meanwhile; a refusal said in the server's own words.
 * @template T @param {() => Promise<T>} fn @returns {Promise<T | undefined>}
 */
async function work(fn) {
  busy(true);
  try {
    const out = await fn();
    say('');
    return out;
  } catch (err) {
    say(`That could not be done: ${errorWords(err)}.`);
    return undefined;
  } finally {
    busy(false);
  }
}

/** @param {number} ms */
const minutes = (ms) => {
  const m = Math.ceil(ms / 60_000);
  return `${m} minute${m === 1 ? '' : 's'}`;
};

/** @param {Desk | undefined} d */
function show(d) {
  if (!d) return;
  desk = d;
  $('start').classList.add('hidden');
  $('desk').classList.remove('hidden');
  $('desk-title').textContent = d.name;
  const active = d.players.filter((p) => p.withdrawn === null).length;
  const where = d.online ? ` Played online at Tilemate tables on ${d.online.card ?? "Tilemate's practice card"}; ${/^[aeiou]/.test(d.online.level) ? 'an' : 'a'} ${d.online.level} bot plays for anyone away ${d.online.awayAfter} seconds.` : '';
  const format = d.game === 'mexican-train' ? `Mexican Train, up to ${d.tableSize} a table${d.championship ? ', a qualifying game and a championship' : ''}.` : `Mah Jongg, rounds of ${d.roundMinutes} minutes.${where}`;
  $('desk-about').textContent = `Event code ${d.code}. ${d.players.length} registered, ${active} playing. ${format}${d.over ? ' The event is over.' : ''}`;
  /** @type {HTMLAnchorElement} */ ($('standings-link')).href = `standings.html?event=${d.code}`;
  /** @type {HTMLAnchorElement} */ ($('sheets-link')).href = `/api/events/${d.code}/sheets.pdf`;
  $('sheets-link').classList.toggle('hidden', !!d.online);
  history.replaceState(null, '', `events.html?event=${d.code}`);
  drawRound(d);
  drawPlayers(d);
  drawAdjustments(d);
  drawTableCards(d);
  drawCorrection(d);
}

/** The round and table "Change a game" names, when that table was seated. */
function correctionTable() {
  const round = Number(/** @type {HTMLInputElement} */ ($('correct-round')).value);
  const table = desk?.rounds[round - 1]?.tables.find((t) => t.table === Number(/** @type {HTMLInputElement} */ ($('correct-table')).value));
  return table ? { round, table } : null;
}

/** What "Change a game" was drawn for: the form keeps what the Director typed until she names another table. */
let correctionDrawn = '';

/**
 * "Change a game": the named table's players in its seats, the game's result asked as the score
 * card asks it (api/web/game-result.js, every case the rules score), and who is at the desk.
 * @param {Desk} d
 */
function drawCorrection(d) {
  if (d.game === 'mexican-train') return;
  const at = correctionTable();
  const key = at ? `${at.round}/${at.table.table}/${at.table.seats.map((s) => s.player).join()}` : '';
  if (key === correctionDrawn) return;
  correctionDrawn = key;
  const form = /** @type {HTMLFormElement} */ ($('correct-form'));
  const seats = at ? [...at.table.seats].sort((a, b) => a.seat.localeCompare(b.seat)) : [];
  $('correct-seats').textContent = at ? `Round ${at.round}, table ${at.table.table}: ${seats.map((s) => `${s.name} (${s.seat}, ${s.wind})`).join(', ')}.` : 'Name a round and a table that were seated.';
  $('correct-result').replaceChildren(...(at ? resultFields(form, 'correct', seats.map((s) => ({ seat: s.seat, short: `${s.name} (${s.seat})`, long: `${s.name} (${s.seat}, ${s.wind})` })), null) : []));
  const present = $('correct-present');
  present.classList.toggle('hidden', !at);
  present.replaceChildren(present.querySelector('legend') ?? '', ...seats.map((s) => el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'correct-present', value: s.player }), ` ${s.name} (${s.seat})`)));
}

/** @param {Desk} d */
function drawRound(d) {
  if (d.game === 'mexican-train') return drawTrainGame(d);
  $('clock-button').classList.remove('hidden');
  $('end-button').classList.remove('hidden');
  $('correct-form').closest('.panel')?.classList.remove('hidden');
  $('seat-button').textContent = 'Seat the next round';
  $('accept-button').textContent = 'Accept the round';
  const r = d.rounds.at(-1);
  const open = r !== undefined && !r.accepted;
  const words = !r ? 'No round has been seated yet: register the players, then seat the first round.'
    : r.accepted ? `Round ${r.round} is accepted.${d.over ? '' : ' Seat the next round when the room is ready.'}`
    : `Round ${r.round}${r.rotated || r.round === 1 ? '' : ' (seated afresh: the players who came and went left no room for the rotation)'}: ${r.ended ? 'the clock has ended' : r.paused ? `paused, ${minutes(d.timeLeftMs ?? 0)} left` : `${minutes(d.timeLeftMs ?? 0)} left`}. ${d.online ? `${r.tables.reduce((n, t) => n + t.seats[0].entered, 0)} of ${r.tables.length * 4} games played.` : `${r.tables.flatMap((t) => t.seats).filter((s) => s.checked).length} of ${r.tables.flatMap((t) => t.seats).length} cards checked.`}`;
  $('round-line').textContent = words;
  /** @type {HTMLButtonElement} */ ($('seat-button')).disabled = open || d.over;
  const clock = /** @type {HTMLButtonElement} */ ($('clock-button'));
  clock.disabled = !open || r.ended;
  clock.textContent = r?.paused ? 'Resume the clock' : 'Pause the clock';
  /** @type {HTMLButtonElement} */ ($('end-button')).disabled = !open || r.ended;
  /** @type {HTMLButtonElement} */ ($('accept-button')).disabled = !open;
  $('tables').replaceChildren(...(r ? r.tables.map((t) => el('div', { class: 'event-table' },
    el('h3', { text: `Table ${t.table}` }),
    el('ul', {}, t.seats.map((s) => el('li', { text: d.online ? `${s.seat} (${s.wind}): ${s.name}.` : `${s.seat} (${s.wind}): ${s.name}. ${s.checked ? 'Card checked.' : `${s.entered} of 4 games entered.`}${s.player === t.collector ? ' Collects the cards.' : ''}` }))),
    // a split table (issue 63): the games its cards differ at, to settle with the form below, and those settled
    ...(t.differences ?? []).map((x) => el('p', { class: 'note', text: `${x.words} Settle it with “Change a game” below, or the players change their cards.` })),
    ...(t.settled ?? []).map((x) => el('p', { class: 'note', text: `You settled game ${x.game}: ${x.reason}.${x.present?.length ? ` Present: ${x.present.join(', ')}.` : ''}` })),
    d.online ? onlineGames(t, r.accepted) : null)) : []));
}

/** An online table's games: each one's table to watch, and how far the table has come. @param {DeskTable} t @param {boolean} accepted */
function onlineGames(t, accepted) {
  const played = t.seats[0]?.entered ?? 0;
  const games = t.games ?? [];
  return el('p', {}, `${played} of 4 games played. `,
    ...games.map((g) => el('a', { class: 'btn btn-small', href: `together.html?code=${g.code}`, text: `Watch game ${g.game}${g.game <= played ? ' (over)' : ''}` })),
    accepted || games.length > 0 ? '' : 'The first game opens in a moment.');
}

/** A Mexican Train event's game: its tables in seat order, each card's hands entered; no round clock. @param {Desk} d */
function drawTrainGame(d) {
  $('clock-button').classList.add('hidden');
  $('end-button').classList.add('hidden');
  $('correct-form').closest('.panel')?.classList.add('hidden');
  const g = d.rounds.at(-1);
  const open = g !== undefined && !g.accepted;
  const seats = g ? g.tables.flatMap((t) => t.seats) : [];
  $('round-line').textContent = !g ? 'No game has been seated yet: register the players, then seat the first game.'
    : g.accepted ? `${g.championship ? 'The championship' : `Game ${g.round}`} is accepted.${d.over ? '' : d.championship && !g.championship ? ' Seat the championship for the lowest at each table.' : ''}`
    : `${g.championship ? 'The championship' : `Game ${g.round}`}, ${g.hands} hands: ${seats.filter((s) => s.checked).length} of ${seats.length} cards checked.`;
  const seat = /** @type {HTMLButtonElement} */ ($('seat-button'));
  seat.disabled = open || d.over || (g?.championship ?? false);
  seat.textContent = d.championship && g?.accepted && !g.championship ? 'Seat the championship' : 'Seat the next game';
  /** @type {HTMLButtonElement} */ ($('accept-button')).disabled = !open;
  $('accept-button').textContent = 'Accept the game';
  $('tables').replaceChildren(...(g ? g.tables.map((t) => el('div', { class: 'event-table' },
    el('h3', { text: `Table ${t.table}` }),
    el('ul', {}, t.seats.map((s) => el('li', { text: `Seat ${s.seat}: ${s.name}. ${s.checked ? 'Card checked.' : `${s.entered} of ${g.hands} hands entered.`}` }))))) : []));
}

/** @param {Desk} d */
function drawPlayers(d) {
  $('players').replaceChildren(...d.players.map((p) => {
    const li = el('li', { text: `${p.name}${p.host ? ' (table host)' : ''}${p.rated ? ' (rated)' : p.asked ? ' (her account is asked to accept)' : ''}: card code ${p.card}.${p.from > 1 ? ` Plays from round ${p.from}.` : ''}${p.withdrawn !== null ? ` Withdrew before round ${p.withdrawn}.` : ' '}` });
    if (p.withdrawn === null && !d.over) li.append(el('button', { type: 'button', class: 'btn btn-small', text: `${p.name} withdraws`, on: () => withdraw(p) }));
    return li;
  }));
  const select = /** @type {HTMLSelectElement} */ ($('adjust-player'));
  const was = select.value;
  select.replaceChildren(...d.players.map((p) => el('option', { value: p.id, text: p.name })));
  if (was) select.value = was;
}

/** @param {Desk} d */
function drawAdjustments(d) {
  $('adjustments').replaceChildren(...d.adjustments.map((a) => el('li', { text: `${a.name}: ${a.points > 0 ? '+' : ''}${a.points}${a.round ? ` in round ${a.round}` : ''}, because ${a.reason}.` })));
}

/**
 * The table cards to print (issue 63): a page a table, its seats in order with the players'
 * names, then a slip for each player to cut off and hand her, with her own score card's full
 * address and its QR code: nobody's slip shows another player's code.
 * @param {Desk} d
 */
function drawTableCards(d) {
  const r = d.rounds.at(-1);
  const codes = new Map(d.players.map((p) => [p.id, p.card]));
  const train = d.game === 'mexican-train';
  /** @param {DeskSeat} s */
  const seatWords = (s) => (train ? `Seat ${s.seat}` : `${s.seat} (${s.wind})`);
  $('table-cards').replaceChildren(...(r && !r.accepted ? r.tables.map((t) => {
    // seats in their order: A, B, C, D (Mexican Train: 1, 2, 3...)
    const seats = [...t.seats].sort((a, b) => String(a.seat).localeCompare(String(b.seat), 'en', { numeric: true }));
    return el('div', { class: 'table-card' },
      el('h2', { text: `${d.name}: ${train && r.championship ? 'the championship' : `${train ? 'game' : 'round'} ${r.round}`}, table ${t.table}` }),
      el('ul', {}, seats.map((s) => el('li', { text: `${seatWords(s)}: ${s.name}` }))),
      el('p', { class: 'note', text: 'Cut along the lines and give each player her own slip: it opens her score card on her phone.' }),
      el('div', { class: 'slips' }, seats.map((s) => {
        const path = `/scorecard.html?event=${d.code}&card=${codes.get(s.player)}`;
        return el('div', { class: 'slip' },
          el('img', { src: `/api/qr.svg?path=${encodeURIComponent(path)}`, alt: `A QR code that opens ${s.name}'s score card`, width: 120, height: 120 }),
          el('p', {}, el('strong', { text: `${s.name}, ${seatWords(s)}, table ${t.table}` })),
          el('p', { text: 'Your score card (scan the code, or type the address):' }),
          el('p', { class: 'slip-address', text: `${location.origin}${path}` }));
      })));
  }) : []));
}

/** @param {DeskPlayer} p */
async function withdraw(p) {
  if (!desk || !confirm(`${p.name} withdraws from the next round on? Her scores so far stay.`)) return;
  show(await work(() => call('POST', `/api/events/${desk?.code}/players/${p.id}/withdraw`)));
}

/** @param {string} path @param {object} [body] @returns {Promise<Desk | undefined>} */
async function act(path, body) {
  if (!desk) return undefined;
  /** @type {Desk | undefined} */
  const d = await work(() => call('POST', `/api/events/${desk?.code}${path}`, body));
  show(d);
  return d;
}

async function open(/** @type {string} */ code) {
  show(await work(() => call('GET', `/api/events/${encodeURIComponent(code)}/desk`)));
}

async function start() {
  /** @type {{ signedIn: boolean } | undefined} */
  const me = await work(() => call('GET', '/api/me'));
  if (!me?.signedIn) {
    $('sign-first').classList.remove('hidden');
    return;
  }
  const code = new URLSearchParams(location.search).get('event');
  if (code && /^[A-Za-z0-9]{4,12}$/.test(code)) return open(code);
  $('start').classList.remove('hidden');
  /** @type {{ events: { code: string, name: string, createdAt: string }[] } | undefined} */
  const mine = await work(() => call('GET', '/api/events'));
  $('my-events').replaceChildren(...(mine?.events ?? []).map((e) => el('li', {}, `${e.name} (${e.code}), created ${new Date(e.createdAt).toLocaleDateString()} `, el('button', { type: 'button', class: 'btn', text: `Open ${e.name}`, on: () => open(e.code) }))));
}

$('create-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const name = /** @type {HTMLInputElement} */ ($('event-name')).value.trim();
  const roundMinutes = Number(/** @type {HTMLInputElement} */ ($('round-minutes')).value) || 55;
  const game = /** @type {HTMLSelectElement} */ ($('event-game')).value;
  const tableSize = Number(/** @type {HTMLInputElement} */ ($('table-size')).value) || 4;
  const online = /** @type {HTMLInputElement} */ ($('event-online')).checked
    ? { level: /** @type {HTMLSelectElement} */ ($('online-level')).value, awayAfter: Number(/** @type {HTMLInputElement} */ ($('online-away')).value) || 120, ...(chosenCard() ? { card: chosenCard() } : {}) }
    : null;
  const body = game === 'mah-jongg' ? { name, roundMinutes, ...(online ? { online } : {}) } : { name, game: 'mexican-train', ruleset: game, tableSize };
  /** @type {{ code: string } | undefined} */
  const made = await work(() => call('POST', '/api/events', body));
  if (made) await open(made.code);
});
$('event-game').addEventListener('change', () => {
  const train = /** @type {HTMLSelectElement} */ ($('event-game')).value !== 'mah-jongg';
  $('minutes-line').classList.toggle('hidden', train);
  $('online-line').classList.toggle('hidden', train);
  $('size-line').classList.toggle('hidden', !train);
});
for (const r of document.querySelectorAll('input[name="where"]')) {
  r.addEventListener('change', () => $('online-options').classList.toggle('hidden', !/** @type {HTMLInputElement} */ ($('event-online')).checked));
}
$('online-card').textContent = `The tables play on ${chosenCard() ? `your chosen card, ${chosenCard()}` : "Tilemate's practice card (choose one of your own cards on My card first to play on it)"}.`;
$('player-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('player-name'));
  const host = /** @type {HTMLInputElement} */ ($('player-host')).checked;
  const accountInput = /** @type {HTMLInputElement} */ ($('player-account'));
  const account = accountInput.value.trim();
  await act('/players', { name: input.value.trim(), host, ...(account ? { account } : {}) });
  input.value = '';
  accountInput.value = '';
  input.focus();
});
$('adjust-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const reason = /** @type {HTMLInputElement} */ ($('adjust-reason'));
  await act('/adjustments', { player: /** @type {HTMLSelectElement} */ ($('adjust-player')).value, points: Number(/** @type {HTMLInputElement} */ ($('adjust-points')).value), reason: reason.value.trim() });
  reason.value = '';
});
$('correct-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const form = /** @type {HTMLFormElement} */ ($('correct-form'));
  const at = correctionTable();
  if (!at) { say('There is no such table in that round: choose a round and a table that were seated.'); return; }
  const read = readResult(form, 'correct');
  if ('missing' in read) { say(`To change the game, ${read.missing}.`); return; }
  const present = new FormData(form).getAll('correct-present').map(String);
  const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
  const done = await act('/corrections', { round: at.round, table: at.table.table, game: Number(value('correct-game')), result: read.result, reason: value('correct-reason').trim(), ...(present.length ? { present } : {}) });
  if (done) {
    // ruled: the form is drawn afresh for the next one
    correctionDrawn = '';
    /** @type {HTMLInputElement} */ ($('correct-reason')).value = '';
    drawCorrection(done);
  }
});
for (const id of ['correct-round', 'correct-table']) $(id).addEventListener('input', () => { if (desk) drawCorrection(desk); });
$('seat-button').addEventListener('click', () => act('/rounds'));
$('clock-button').addEventListener('click', () => act('/clock', { action: desk?.rounds.at(-1)?.paused ? 'resume' : 'pause' }));
$('end-button').addEventListener('click', () => act('/clock', { action: 'end' }));
$('accept-button').addEventListener('click', () => act('/accept'));
$('print-button').addEventListener('click', () => window.print());
$('back-button').addEventListener('click', () => {
  history.replaceState(null, '', 'events.html');
  $('desk').classList.add('hidden');
  desk = null;
  start();
});
$('log-button').addEventListener('click', async () => {
  if (!desk) return;
  /** @type {{ changes: { n: number, by: string, at: string, change: { type: string, round?: number, table?: number, game?: number, reason?: string, present?: string[] } }[] } | undefined} */
  const log = await work(() => call('GET', `/api/events/${desk?.code}/log`));
  $('log').replaceChildren(...(log?.changes ?? []).slice(-200).map((c) => el('li', { text: `${new Date(c.at).toLocaleTimeString()}: ${c.by}: ${changeWords(c.change)}.` })));
});

/**
 * A change in words, for the log: a ruling with its game, its reason and who was at the desk (rules 22).
 * @param {{ type: string, round?: number, table?: number, game?: number, reason?: string, present?: string[] }} c
 */
function changeWords(c) {
  if (c.type !== 'correct') return CHANGE_WORDS[c.type] ?? c.type;
  const names = (c.present ?? []).map((id) => desk?.players.find((p) => p.id === id)?.name ?? 'a player');
  return `ruled on round ${c.round}, table ${c.table}, game ${c.game}, because ${c.reason}${names.length ? ` (at the desk: ${names.join(', ')})` : ''}`;
}

/** Each change in words, for the log. */
const CHANGE_WORDS = /** @type {Record<string, string>} */ ({
  create: 'created the event',
  register: 'registered a player',
  withdraw: 'withdrew a player',
  seat: 'seated a round',
  clock: 'set the clock',
  enter: 'entered a game',
  verify: 'checked a card',
  accept: 'accepted the round',
  adjust: 'adjusted points',
  correct: 'ruled on a game',
  reopen: 'reopened a checked card',
  consent: 'answered for her account',
  finish: 'ended the event',
  'open-game': 'opened a game at a Tilemate table',
  played: 'scored a game from its table',
});

// the clock's minutes left, kept current while a round is played
setInterval(() => { if (desk && document.visibilityState === 'visible' && waiting === 0) open(desk.code); }, 30_000);
start();
