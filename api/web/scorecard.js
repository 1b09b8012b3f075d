// Her score card on her phone (issue 47; routes api/http/routes/events.ts): the event and her
// card code in the address (scorecard.html?event=CODE&card=CODE, as the director's table card
// prints it). Each game she saves is first kept on this phone with its own id, then sent: a
// phone that lost the room's Wi-Fi sends it when back, and the server keeps it once however
// often it comes. Then she checks the card her seat checks, against her own.

import { call, errorWords } from './client.js';
import { byId as $, el } from './dom.js';
import { readResult, resultFields, resultWords as gameResultWords } from './game-result.js';

/**
 * @typedef {import('./game-result.js').Result} Result
 * @typedef {{ seat: string, wind: string, player: string, name: string }} Mate
 * @typedef {{ game: string, event: string, name: string, round: number, seated: boolean, words?: string, table?: number, seat?: string, wind?: string, players?: Mate[],
 *   games?: (Result | null)[], myPoints?: (number | null)[], hands?: number, points?: (number[] | null)[], championship?: boolean,
 *   checked?: boolean, checks?: { player: string, name: string, checked: boolean, entered: number }[], timeLeftMs?: number,
 *   online?: boolean, playing?: { code: string, seat: number, table: number, game: number } | null,
 *   differences?: { game: number, words: string }[], whatNow?: string, settled?: { game: number, reason: string }[] }} Card
 * @typedef {{ event: string, card: string, game?: number, result?: Result, hand?: number, points?: number[], entry: string }} Queued
 */

const QUEUE_KEY = 'tilemate-score-queue';
const q = new URLSearchParams(location.search);
let eventCode = (q.get('event') ?? '').toUpperCase();
let cardCode = (q.get('card') ?? '').toUpperCase();
/** @type {Card | null} */
let card = null;
/** Saved games she opened again to change. @type {Set<number>} */
const editing = new Set();
let waiting = 0;

/** @param {boolean} on */
function busy(on) {
  waiting += on ? 1 : -1;
  document.body.dataset.busy = String(waiting);
}

/** @param {string} text */
const say = (text) => { $('say').textContent = text; };

/** @returns {Queued[]} */
function queued() {
  try { return JSON.parse(localStorage.getItem(QUEUE_KEY) ?? '[]'); } catch { return []; }
}

/** @param {Queued[]} list */
function keep(list) {
  try { localStorage.setItem(QUEUE_KEY, JSON.stringify(list)); } catch { /* private mode: sent at once or not at all */ }
}

/** The games kept on this phone and not yet sent, sent now in order; each one kept here until the server has it. */
async function flush() {
  for (const item of queued()) {
    try {
      const { event: _e, ...sent } = item;
      card = await call('PUT', `/api/events/${item.event}/card`, sent);
      keep(queued().filter((x) => x.entry !== item.entry));
    } catch (err) {
      const offline = /** @type {{ code?: string }} */ (err).code === 'TM_NETWORK';
      if (!offline) keep(queued().filter((x) => x.entry !== item.entry));
      say(offline ? 'Your entries are kept on this phone: they will be sent when it is connected again.' : `${item.hand ? `Hand ${item.hand}` : `Game ${item.game}`} was not saved: ${errorWords(err)}.`);
      break;
    }
  }
  draw();
}

function draw() {
  const waitingHere = queued().filter((x) => x.event === eventCode && x.card === cardCode);
  $('queue-line').textContent = waitingHere.length ? `${waitingHere.length} ${waitingHere.length === 1 ? 'entry is' : 'entries are'} kept on this phone, waiting to be sent.` : '';
  if (!card) return;
  $('open-form').classList.add('hidden');
  $('card').classList.remove('hidden');
  if (!card.seated) {
    $('card-title').textContent = `${card.event}: ${card.name}`;
    $('card-about').textContent = card.words ?? '';
    $('games').replaceChildren();
    $('checks').replaceChildren();
    return;
  }
  if (card.game === 'mexican-train') return drawHands(card);
  $('card-title').textContent = `${card.name}, round ${card.round}, table ${card.table}`;
  const left = Math.ceil((card.timeLeftMs ?? 0) / 60_000);
  $('clock-line').textContent = card.timeLeftMs === undefined ? '' : left > 0 ? `The round's clock: ${left} minute${left === 1 ? '' : 's'} left.` : "The round's time is up: the director will say how the round ends.";
  $('card-about').textContent = `You sit ${card.seat} (${card.wind}). ${(card.players ?? []).filter((m) => m.seat !== card?.seat).map((m) => `${m.name} sits ${m.seat} (${m.wind})`).join(', ')}.${card.checked ? ' Your card is checked.' : ''}`;
  if (card.online) return drawOnline(card);
  $('checks').closest('.panel')?.classList.remove('hidden');
  // her points so far, and one game's form at a time: the first not yet entered (or the one she changes)
  const mine = (card.myPoints ?? []).filter((p) => p !== null);
  const sofar = mine.length ? el('p', { class: 'points-line', id: 'points-line', text: `Your points so far: ${mine.reduce((a, b) => a + b, 0)} after ${mine.length} game${mine.length === 1 ? '' : 's'}.` }) : null;
  const next = [1, 2, 3, 4].find((n) => !entered(n)) ?? 5;
  $('games').replaceChildren(...tableWords(card), ...(sofar ? [sofar] : []), ...[1, 2, 3, 4].map((n) => (n <= next || editing.has(n) ? gameForm(n) : el('p', { class: 'note later-game', text: `Game ${n}: after game ${n - 1}.` }))));
  $('checks').replaceChildren(...(card.checks ?? []).map((c) => el('li', {},
    `${c.name}: ${c.checked ? 'checked.' : `${c.entered} of 4 games entered. `}`,
    c.checked ? null : el('button', { type: 'button', class: 'btn', text: `${c.name}'s card matches mine`, on: () => check(c.player) }))),
    // a checked card can be opened again to change it until the round is accepted (issue 63)
    ...(card.checked ? [el('li', {}, 'Your card is checked. ', el('button', { type: 'button', class: 'btn', id: 'reopen-button', text: 'Reopen my card to change it', on: reopen }))] : []));
}

/**
 * What every player at her table sees: the games where the table's cards differ, each in one
 * sentence naming who entered what, with how it is put right; and the games the Director settled.
 * @param {Card} c
 */
function tableWords(c) {
  const out = [];
  if (c.differences?.length) {
    out.push(el('section', { class: 'panel', id: 'differences', role: 'status', 'aria-labelledby': 'differences-title' },
      el('h2', { id: 'differences-title', text: 'Your table’s cards differ' }),
      ...c.differences.map((d) => el('p', { text: d.words })),
      c.whatNow ? el('p', { class: 'note', text: c.whatNow }) : null));
  }
  for (const s of c.settled ?? []) out.push(el('p', { class: 'panel note', text: `The Director settled game ${s.game}: ${s.reason}.` }));
  return out;
}

/** She opens her checked card again to change a game: her card and the card she checked are checked again. */
async function reopen() {
  busy(true);
  try {
    card = await call('POST', `/api/events/${eventCode}/card/reopen`, { card: cardCode });
    say('Your card is open again: change the game, then ask for it to be checked again.');
  } catch (err) {
    say(`Not reopened: ${errorWords(err)}.`);
  }
  draw();
  busy(false);
}

/**
 * An online event's card: her table's games are played at Tilemate tables and scored there, so
 * there is nothing to type or check; the game she plays now, with its button, and each game
 * played in a sentence.
 * @param {Card} c
 */
function drawOnline(c) {
  $('checks').closest('.panel')?.classList.add('hidden');
  const now = c.playing;
  const played = (c.games ?? []).map((r, i) => (r ? el('section', { class: 'panel game-saved', 'aria-labelledby': `g${i + 1}-title` },
    el('h2', { id: `g${i + 1}-title`, text: `Game ${i + 1}: played` }),
    el('p', { text: resultWords(r) })) : null)).filter((x) => x !== null);
  const next = now
    ? el('section', { class: 'panel', 'aria-labelledby': 'play-title' },
      el('h2', { id: 'play-title', text: `Game ${now.game} of 4 is ready` }),
      el('p', { text: 'Your game is played at a Tilemate table and scored there: nothing to write down.' }),
      el('button', { type: 'button', class: 'btn btn-main', id: 'play-button', text: `Play game ${now.game}`, on: () => play(now.game) }))
    : el('p', { class: 'panel', text: (c.games ?? []).every((r) => r) ? 'Your four games are played: the round is scored.' : 'Your next game opens in a moment.' });
  $('games').replaceChildren(next, ...played);
}

/**
 * Takes her seat at her game's table: the table's page, her seat kept for it as the page keeps a
 * seat (together.js). A seat already taken from this phone for this game is gone back to, not
 * taken again (each taking adds a member to the table).
 * @param {number} game
 */
async function play(game) {
  const gameKey = `tilemate-event-seat-${eventCode}-${cardCode}`;
  /** @type {{ game: number, code: string, link: string } | null} */
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(gameKey) ?? 'null'); } catch { /* nothing kept */ }
  if (kept !== null && kept.game === game && localStorage.getItem(`tilemate-table-${kept.code}`) !== null) {
    location.assign(kept.link);
    return;
  }
  busy(true);
  try {
    /** @type {{ code: string, link: string, token: string, seat: number, game: number }} */
    const seat = await call('POST', `/api/events/${eventCode}/card/play`, { card: cardCode });
    try {
      localStorage.setItem(`tilemate-table-${seat.code}`, JSON.stringify({ token: seat.token, seat: seat.seat, role: 'player', name: card?.name ?? '', host: false, back: `scorecard.html?event=${eventCode}&card=${cardCode}` }));
      localStorage.setItem(gameKey, JSON.stringify({ game: seat.game, code: seat.code, link: seat.link }));
    } catch { /* private mode: the table asks again */ }
    location.assign(seat.link);
  } catch (err) {
    say(`Your table could not be opened: ${errorWords(err)}.`);
    busy(false);
  }
}

/**
 * A Mexican Train card: her table in seat order, and for each hand every seat's points (the
 * player who went out scores 0), saved hands in a line each; then the card she checks.
 * @param {Card} c
 */
function drawHands(c) {
  const players = c.players ?? [];
  $('card-title').textContent = `${c.name}, ${c.championship ? 'the championship' : `game ${c.round}`}, table ${c.table}`;
  $('clock-line').textContent = '';
  $('card-about').textContent = `You sit in seat ${c.seat}. ${players.map((m) => `Seat ${m.seat}: ${m.name}`).join(', ')}.${c.checked ? ' Your card is checked.' : ''}`;
  $('checks-note').textContent = 'You check the card of the player before you at the table. Enter your own hands first: the cards are checked against each other.';
  $('games').replaceChildren(...Array.from({ length: c.hands ?? 0 }, (_, i) => handForm(c, i + 1)));
  $('checks').replaceChildren(...(c.checks ?? []).map((x) => el('li', {},
    `${x.name}: ${x.checked ? 'checked.' : `${x.entered} of ${c.hands} hands entered. `}`,
    x.checked ? null : el('button', { type: 'button', class: 'btn', text: `${x.name}'s card matches mine`, on: () => check(x.player) }))));
}

/** One hand: every seat's points, saved in a line (with a button to change it) or as a form. @param {Card} c @param {number} n */
function handForm(c, n) {
  const players = c.players ?? [];
  const pending = queued().filter((x) => x.event === eventCode && x.card === cardCode && x.hand === n).at(-1)?.points ?? null;
  const points = pending ?? c.points?.[n - 1] ?? null;
  if (points !== null && !editing.has(n)) {
    return savedPanel('h', 'Hand', n, pending !== null, `${players.map((m, i) => `${m.name}: ${points[i]}`).join(', ')}.`);
  }
  const form = el('form', { class: 'panel game-form', 'aria-labelledby': `h${n}-title` },
    el('h2', { id: `h${n}-title`, text: `Hand ${n}` }),
    el('p', { class: 'note', text: 'The points left in each player\u2019s hand; 0 for the player who went out.' }),
    ...players.map((m, i) => el('p', {}, el('label', { for: `h${n}-p${i}`, text: `${m.name} (seat ${m.seat})` }), el('br'),
      el('input', { id: `h${n}-p${i}`, type: 'number', min: '0', max: '400', required: true, value: points?.[i] ?? '' }))),
    el('p', {}, el('button', { type: 'submit', class: 'btn btn-main', id: `h${n}-save`, text: `Save hand ${n}`, disabled: c.checked === true })));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const values = players.map((_, i) => Number(/** @type {HTMLInputElement} */ (form.querySelector(`#h${n}-p${i}`)).value));
    await send(n, { hand: n, points: values });
  });
  return form;
}

/**
 * A game or hand saved (or kept on this phone), in a sentence, with a button to change it until her card is checked.
 * @param {string} prefix @param {string} label @param {number} n @param {boolean} pending @param {string} words
 */
function savedPanel(prefix, label, n, pending, words) {
  return el('section', { class: 'panel game-saved', 'aria-labelledby': `${prefix}${n}-title` },
    el('h2', { id: `${prefix}${n}-title`, text: `${label} ${n}: ${pending ? 'kept on this phone' : 'saved'}` }),
    el('p', { text: words }),
    card?.checked ? null : el('button', { type: 'button', class: 'btn', id: `${prefix}${n}-change`, text: `Change ${label.toLowerCase()} ${n}`, on: () => { editing.add(n); draw(); } }));
}

/**
 * Her entry kept on this phone with its own id first, then sent with everything else waiting.
 * @param {number} n @param {{ game: number, result: Result } | { hand: number, points: number[] }} entry
 */
async function send(n, entry) {
  keep([...queued(), { event: eventCode, card: cardCode, ...entry, entry: crypto.randomUUID() }]);
  editing.delete(n);
  busy(true);
  say('');
  await flush();
  busy(false);
}

/** The seat's player in words: "Rose (B, North)". @param {string} seat */
const seatWords = (seat) => {
  const m = card?.players?.find((x) => x.seat === seat);
  return m ? `${m.name} (${m.seat}, ${m.wind})` : seat;
};

/** The seat's player in a few words for a choice: "Rose (B)". @param {string} seat */
const shortWords = (seat) => {
  const m = card?.players?.find((x) => x.seat === seat);
  return m ? `${m.name} (${m.seat})` : seat;
};

/** A game's result in one sentence. @param {Result} r */
const resultWords = (r) => gameResultWords(r, seatWords);

/** Whether game `n` has a result on her card or kept on this phone. @param {number} n */
const entered = (n) => (card?.games?.[n - 1] ?? null) !== null || queued().some((x) => x.event === eventCode && x.card === cardCode && x.game === n);

/**
 * One game: saved, in a sentence (with a button to change it until her card is checked); else
 * its form: who made Mah Jongg (or a wall game), the hand's value, how she won, the exposures.
 * @param {number} n
 */
function gameForm(n) {
  const saved = card?.games?.[n - 1] ?? null;
  const pending = queued().filter((x) => x.event === eventCode && x.card === cardCode && x.game === n).at(-1)?.result ?? null;
  const r = pending ?? saved;
  if (r !== null && !editing.has(n)) {
    const p = pending === null ? card?.myPoints?.[n - 1] : null;
    return savedPanel('g', 'Game', n, pending !== null, `${resultWords(r)}${typeof p === 'number' ? ` You score ${p}.` : ''}`);
  }
  const seats = (card?.players ?? []).map((m) => ({ seat: m.seat, short: shortWords(m.seat), long: seatWords(m.seat) }));
  const form = el('form', { class: 'panel', 'aria-labelledby': `g${n}-title` });
  form.append(
    el('h2', { id: `g${n}-title`, text: `Game ${n}${saved ? ': saved' : pending ? ': kept on this phone' : ''}` }),
    ...resultFields(form, `g${n}`, seats, r),
    el('p', {}, el('button', { type: 'submit', class: 'btn btn-main', id: `g${n}-save`, text: `Save game ${n}`, disabled: card?.checked === true })),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    save(n, form);
  });
  return form;
}

/** @param {number} n @param {HTMLFormElement} form */
async function save(n, form) {
  const read = readResult(form, `g${n}`);
  if ('missing' in read) { say(`Game ${n}: ${read.missing}.`); return; }
  await send(n, { game: n, result: read.result });
}

/** @param {string} player */
async function check(player) {
  busy(true);
  try {
    card = await call('POST', `/api/events/${eventCode}/card/check`, { card: cardCode, player });
    say('Checked: the card matches yours.');
  } catch (err) {
    say(`Not checked: ${errorWords(err)}.`);
  }
  draw();
  busy(false);
}

async function load() {
  busy(true);
  try {
    card = await call('GET', `/api/events/${eventCode}/card?card=${encodeURIComponent(cardCode)}`);
    history.replaceState(null, '', `scorecard.html?event=${eventCode}&card=${cardCode}`);
  } catch (err) {
    say(`Your card could not be opened: ${errorWords(err)}.`);
    $('open-form').classList.remove('hidden');
  }
  await flush();
  busy(false);
}

$('open-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  eventCode = /** @type {HTMLInputElement} */ ($('event-code')).value.trim().toUpperCase();
  cardCode = /** @type {HTMLInputElement} */ ($('card-code')).value.trim().toUpperCase();
  load();
});
// back on the room's Wi-Fi: what waits on this phone goes now
window.addEventListener('online', () => flush());
if (eventCode && cardCode) load();
else $('open-form').classList.remove('hidden');
// an online event's card follows her table: the next game's button appears when it opens
setInterval(() => { if (card?.online && document.visibilityState === 'visible' && waiting === 0) load(); }, 5_000);
