// Tables together (docs/tables.md): open a table or join one by its code, the seats filling
// live, then the game for this person's seat, drawn by the one-person pages' own drawing
// (app.js for Mah Jongg, domino.js for Mexican Train) fed by the table's WebSocket. A coach
// also sees every seat's rack, pauses, and shows one student a hint. Plain ES modules, no
// build step; nothing here decides a rule.

import { api, ApiError, call, errorWords } from './client.js';
import { checkChosen, chooseCard, chosenCard } from './chosen-card.js';
import { setupDisplay } from './display.js';
import { $ } from './dom.js';
import { reviewWithProgress, showReview } from './end.js';
import { gameWords, rulesetWords } from './names.js';
import { TableGame, tables } from './table-game.js';
import { sortTiles, tileElement, tilesLabel } from './tiles.js';

/** @import { GameMessage as TableGameMessage, SeatInfo as TableSeat, ServerMessage as TableMessage, TableInfo, TableYou } from '../shared/table-wire.js' */

/** Her place at a table, kept per code: the token that acts for her, her seat, her role, her name, whether she opened it; `back`: the score card she came from (an online event's game). @typedef {{ token: string, seat?: number | null, role?: string, name?: string, host?: boolean, back?: string }} Place */

/** The drawing of her seat's game (app.js's mahJonggTable, domino.js's dominoTable). Each takes its own game's answers and hints, so here they are unknown. @typedef {{ update(answer: unknown): unknown, showHint(hint: unknown): unknown }} Drawing */

/** @type {Record<string, string>} */
const CLOCK_WORDS = { off: 'no clock', relaxed: 'a relaxed clock (1 minute a turn)', tournament: 'a tournament clock (20 seconds a turn)' };
/** @type {Record<string, [string, string][]>} */
const LEVELS = {
  'mah-jongg': [['easy', 'Easy'], ['medium', 'Medium'], ['hard', 'Hard'], ['expert', 'Expert']],
  'mexican-train': [['random', 'Easy'], ['greedy', 'Medium'], ['montecarlo', 'Hard']],
};
const WINDS = ['East', 'South', 'West', 'North'];
/** A table's code: six letters and digits, no 0, O, 1 or I. */
const CODE = /^[A-HJ-NP-Z2-9]{6}$/;
const NAME_KEY = 'tilemate-table-name';
/** @param {string} code */
const seatKey = (code) => `tilemate-table-${code}`;

/**
 * Everything the page knows about the table it sits at.
 * @type {{
 *   code: string | null, place: Place | null, table: TableInfo | null, you: TableYou | null, game: TableGameMessage | null,
 *   client: TableGame | null, drawing: Drawing | null, joining: TableInfo | null, ws: WebSocket | null, heardAt: number,
 *   saidOverSocket: boolean, retries: number, retryTimer: ReturnType<typeof setTimeout> | null,
 *   clockTimer: ReturnType<typeof setTimeout> | undefined, roundTimer: ReturnType<typeof setInterval> | undefined, queue: Promise<void>,
 * }}
 */
const state = {
  code: null,
  /** `{ token, seat, role, name, host }` kept in localStorage per code: a reload sits her down again. */
  place: null,
  table: null, // the latest TableInfo
  you: null, // `{ seat, role, name }` from the server
  game: null, // the latest `game` message
  client: null, // the TableGame the drawing talks through
  drawing: null, // `{ update, showHint }` of app.js or domino.js
  joining: null, // the TableInfo of the table she is about to join
  ws: null,
  heardAt: 0, // when the connection last said anything
  saidOverSocket: false, // a refusal the connection said is on show
  retries: 0,
  retryTimer: null,
  clockTimer: undefined,
  roundTimer: undefined,
  /** Messages are handled one after another (the drawing loads once, on the first game message). */
  queue: Promise.resolve(),
};

/** The table she sits at: what follows its first message runs only once there is one. */
const table = () => /** @type {TableInfo} */ (state.table);
/** Her place at the table she sits at. */
const place = () => /** @type {Place} */ (state.place);
/** The code of the table she sits at. */
const tableCode = () => /** @type {string} */ (state.code);

// ---------------------------------------------------------------- words

/**
 * @param {string} game
 * @param {string | undefined} level
 */
function levelWords(game, level) {
  return (LEVELS[game] ?? []).find(([v]) => v === level)?.[1] ?? level ?? '';
}

/**
 * What a seat is called at the table: her name, or the bot's place.
 * @param {number} s
 */
function seatName(s) {
  const t = state.table;
  const seat = t?.seats?.[s];
  if (seat?.kind === 'person' && seat.name) return seat.name;
  if (t?.game === 'mah-jongg') return `${WINDS[s] ?? `Seat ${s + 1}`} bot`;
  return `Bot ${s + 1}`;
}

/** Where a seat sits, in words: East, South... for Mah Jongg, Seat 1, 2... for Mexican Train. */
/**
 * @param {number} s
 * @param {TableInfo | null} [t]
 */
function placeWords(s, t = state.table) {
  return t?.game === 'mah-jongg' ? (WINDS[s] ?? `Seat ${s + 1}`) : `Seat ${s + 1}`;
}

/**
 * One short line about a seat: a bot's level, or that its person is away.
 * @param {number} s
 */
function seatFacts(s) {
  const seat = state.table?.seats?.[s];
  if (!seat) return '';
  if (seat.kind === 'bot') return `${levelWords(table().game, seat.level)} bot`;
  if (seat.kind === 'person') return seat.away ? 'Away for now: a bot plays for her until she is back' : '';
  return 'Empty seat';
}

/**
 * A seat's facts in a few words beside its name: "medium" for a bot, "away" for a person gone.
 * @param {number} s
 */
function botOrAway(s) {
  const seat = state.table?.seats?.[s];
  return seat?.kind === 'bot' ? levelWords(table().game, seat.level).toLowerCase() : 'away for now';
}

const isHost = () => !!state.place?.host || !!state.you?.host;
/** @param {TableInfo} t */
const coachName = (t) => t.host || 'the coach';

/** @param {string} text */
function say(text) {
  const box = $('#together-message');
  box.textContent = text;
  box.classList.toggle('hidden', !text);
}

// ---------------------------------------------------------------- the seat kept per table

/**
 * @param {string} code
 * @returns {Place | null}
 */
function loadPlace(code) {
  try { return JSON.parse(localStorage.getItem(seatKey(code)) ?? 'null'); } catch { return null; }
}

/**
 * @param {string} code
 * @param {Place} place
 */
function keepPlace(code, place) {
  try { localStorage.setItem(seatKey(code), JSON.stringify(place)); } catch { /* private mode: a reload asks again */ }
}

/** @param {string} code */
function forgetPlace(code) {
  try { localStorage.removeItem(seatKey(code)); } catch { /* nothing kept */ }
}

/** @param {string | null | undefined} text */
function normaliseCode(text) {
  const code = String(text ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return CODE.test(code) ? code : null;
}

// ---------------------------------------------------------------- open or join

function gameChosen() {
  return /** @type {HTMLInputElement} */ ($('#open-form input[name="game"]:checked')).value;
}

function showGameFields() {
  const game = gameChosen();
  for (const el of document.querySelectorAll('#open-form .for-mah-jongg')) el.classList.toggle('hidden', game !== 'mah-jongg' || (el.id === 'card-choice' && /** @type {HTMLSelectElement} */ ($('#card')).options.length < 2));
  for (const el of document.querySelectorAll('#open-form .for-mexican-train')) el.classList.toggle('hidden', game !== 'mexican-train');
}

/** The player's saved cards (signed in or as a guest), offered for a Mah Jongg table. */
async function loadCards() {
  try {
    const { cards, chosen } = await call('GET', '/api/cards');
    for (const c of cards ?? []) $('#card').append(new Option(c.title ? `${c.title} (${c.name})` : c.name, c.name));
    // the card she chose for every page (chosen-card.js; signed in, her account's) is the table's unless she picks another
    /** @type {HTMLSelectElement} */ ($('#card')).value = checkChosen(chosenCard(), cards ?? [], chosen).name;
  } catch { /* no cards: the practice card */ }
  showGameFields();
}

/** @param {SubmitEvent} ev */
async function openTable(ev) {
  ev.preventDefault();
  const data = new FormData(/** @type {HTMLFormElement} */ (ev.currentTarget));
  const game = String(data.get('game'));
  const name = String(data.get('name') ?? '').trim();
  if (!name) { say('Please type your name, so your friends know who you are.'); return; }
  /** @type {{ game: string, ruleset: string, name: string, teaching: boolean, clock: string, awayAfter: number, level: string, players?: number, card?: string }} */
  const body = {
    game,
    ruleset: String(data.get(game === 'mah-jongg' ? 'mj-ruleset' : 'mt-ruleset')),
    name,
    teaching: data.get('teaching') === 'yes',
    clock: String(data.get('clock')),
    awayAfter: Number(data.get('awayAfter')),
    level: String(data.get(game === 'mah-jongg' ? 'mj-level' : 'mt-level')),
  };
  if (game === 'mexican-train') body.players = Number(data.get('players'));
  const card = String(data.get('card') ?? '');
  if (game === 'mah-jongg' && card) body.card = card;
  /** @type {HTMLButtonElement} */ ($('#open-button')).disabled = true;
  say('');
  try {
    const a = await tables.open(body);
    rememberName(name);
    enter(a.code, { token: a.token, seat: a.seat, role: a.role, name, host: true });
  } catch (err) {
    say(`The table could not be opened: ${errorWords(err)}`);
  } finally {
    /** @type {HTMLButtonElement} */ ($('#open-button')).disabled = false;
  }
}

/** @param {string} name */
function rememberName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* not kept */ }
}

/** Finds the table of the code typed (or from the link) and offers its free seats. */
async function lookUp() {
  const code = normaliseCode(/** @type {HTMLInputElement} */ ($('#join-code')).value);
  $('#join-table').classList.add('hidden');
  if (!code) { say('A table\u2019s code is six letters and numbers, like K7QM2P.'); return; }
  say('');
  /** @type {TableInfo} */
  let t;
  try {
    t = await tables.info(code);
  } catch (err) {
    say(err instanceof ApiError && err.status === 404 ? `There is no open table with the code ${code}: please check it with your friend.` : `The table could not be found just now: ${errorWords(err)}`);
    return;
  }
  state.joining = t;
  /** @type {HTMLInputElement} */ ($('#join-code')).value = code;
  const status = t.status === 'open' ? 'The game has not started yet.' : t.status === 'over' ? 'The game is over.' : 'The game is being played, so you can watch.';
  const whose = t.teaching ? `a teaching table with ${coachName(t)} as the coach` : `opened by ${coachName(t)}`;
  const onCard = t.card ? ` on the card ${t.card}` : '';
  $('#join-about').textContent = `${gameWords(t.game)} (${rulesetWords(t.ruleset)})${onCard}, ${whose}. ${status}`;
  const box = $('#join-seats');
  box.replaceChildren(Object.assign(document.createElement('legend'), { textContent: 'Where do you sit?' }));
  const free = t.status === 'open' ? t.seats.filter((s) => s.kind === 'empty') : [];
  for (const s of free) box.append(seatChoice(String(s.seat), `${placeWords(s.seat, t)}: a free seat`));
  box.append(seatChoice('watch', 'Just watch (you will not see anyone\u2019s tiles)'));
  const first = box.querySelector('input');
  if (first) first.checked = true;
  $('#agree-words').textContent = `Your coach, ${coachName(t)}, will see your tiles while you play.`;
  $('#join-table').classList.remove('hidden');
  showAgree();
  if (!/** @type {HTMLInputElement} */ ($('#join-name')).value) $('#join-name').focus();
}

/**
 * @param {string} value
 * @param {string} words
 */
function seatChoice(value, words) {
  const label = document.createElement('label');
  label.className = 'choice';
  const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'seat', value });
  label.append(input, ` ${words}`);
  return label;
}

/** At a teaching table, taking a seat needs her agreement that the coach sees her tiles. */
function showAgree() {
  const t = state.joining;
  const seat = /** @type {HTMLInputElement | null} */ (document.querySelector('#join-seats input:checked'))?.value;
  const needed = !!t?.teaching && seat !== undefined && seat !== 'watch';
  $('#agree-row').classList.toggle('hidden', !needed);
  /** @type {HTMLButtonElement} */ ($('#join-button')).disabled = needed && !/** @type {HTMLInputElement} */ ($('#agree')).checked;
}

/** @param {SubmitEvent} ev */
async function joinTable(ev) {
  ev.preventDefault();
  const t = state.joining;
  if (!t) { await lookUp(); return; }
  const name = /** @type {HTMLInputElement} */ ($('#join-name')).value.trim();
  if (!name) { say('Please type your name, so the others know who you are.'); $('#join-name').focus(); return; }
  const choice = /** @type {HTMLInputElement | null} */ (document.querySelector('#join-seats input:checked'))?.value ?? 'watch';
  /** @type {{ name: string, watch?: boolean, seat?: number, agree?: boolean }} */
  const body = { name };
  if (choice === 'watch') body.watch = true;
  else body.seat = Number(choice);
  if (t.teaching && choice !== 'watch') body.agree = /** @type {HTMLInputElement} */ ($('#agree')).checked;
  /** @type {HTMLButtonElement} */ ($('#join-button')).disabled = true;
  say('');
  try {
    const a = await tables.join(t.code, body);
    rememberName(name);
    enter(a.code ?? t.code, { token: a.token, seat: a.seat, role: a.role, name, host: false });
  } catch (err) {
    say(`You could not join: ${errorWords(err)}`);
    await lookUp();
  } finally {
    showAgree();
  }
}

/** @param {string | null} code */
function showChoose(code) {
  $('#choose').classList.remove('hidden');
  $('#lobby').classList.add('hidden');
  try { /** @type {HTMLInputElement} */ ($('#open-name')).value ||= localStorage.getItem(NAME_KEY) ?? ''; /** @type {HTMLInputElement} */ ($('#join-name')).value ||= localStorage.getItem(NAME_KEY) ?? ''; } catch { /* no name kept */ }
  if (code) {
    // a friend's link: joining is what she came for, opening a table of her own waits behind a button
    $('#open-form').classList.add('hidden');
    $('#open-instead-row').classList.remove('hidden');
    /** @type {HTMLInputElement} */ ($('#join-code')).value = code;
    lookUp();
  }
}

// ---------------------------------------------------------------- at the table

/** Sits down at a table: her place kept for a reload, the link in the address bar, the WebSocket opened. */
/**
 * @param {string} code
 * @param {Place} place
 */
function enter(code, place) {
  state.code = code;
  state.place = place;
  keepPlace(code, place);
  history.replaceState(null, '', `together.html?code=${code}`);
  $('#choose').classList.add('hidden');
  $('#lobby').classList.remove('hidden');
  $('#leave-button').classList.remove('hidden');
  document.body.classList.add('at-table');
  drawShare();
  // the form she used is gone: her place in the page moves to the table's code
  $('#lobby .share h2').focus({ preventScroll: true });
  connect();
  roundClock();
}

function tableLink() {
  return `${location.origin}/together.html?code=${state.code}`;
}

function drawShare() {
  const code = tableCode();
  $('#code').textContent = code;
  $('#code').setAttribute('aria-label', `The code is ${code.split('').join(' ')}`);
  const link = /** @type {HTMLAnchorElement} */ ($('#table-link'));
  link.href = tableLink();
  link.textContent = tableLink();
  /** @type {HTMLImageElement} */ ($('#qr')).src = `/api/tables/${code}/qr.svg`;
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(tableLink());
    $('#copied').textContent = 'The link is copied: paste it into a message to your friends.';
  } catch {
    // no clipboard (an older browser, or a page not served over https): select it to copy by hand
    getSelection()?.selectAllChildren($('#table-link'));
    $('#copied').textContent = 'The link is selected: copy it and send it to your friends.';
  }
}

// ---------------------------------------------------------------- the WebSocket

function connect() {
  if (state.retryTimer !== null) clearTimeout(state.retryTimer);
  state.retryTimer = null;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  let ws;
  try {
    ws = new WebSocket(`${scheme}://${location.host}/api/tables/${state.code}/ws`);
  } catch {
    dropped();
    return;
  }
  state.ws = ws;
  ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'hello', token: place().token })));
  ws.addEventListener('message', (e) => {
    /** @type {TableMessage} */
    let msg;
    state.heardAt = Date.now();
    try { msg = JSON.parse(e.data); } catch { return; }
    if (state.retries || !$('#connection').classList.contains('hidden')) {
      state.retries = 0;
      $('#connection').classList.add('hidden');
    }
    state.queue = state.queue.then(() => handle(msg)).catch((err) => say(`Something went wrong on this page: ${errorWords(err)}`));
  });
  ws.addEventListener('close', () => {
    if (state.ws !== ws) return;
    state.ws = null;
    dropped();
  });
}

/** The connection dropped (a phone asleep, a network change): try again, waiting longer each time. */
function dropped() {
  if (!state.code || state.retryTimer) return;
  const wait = Math.min(15_000, 1000 * 2 ** state.retries) + Math.floor(Math.random() * 400);
  state.retries++;
  const line = $('#connection');
  line.textContent = 'You are not connected to the table just now, so the page is trying again by itself.';
  line.classList.remove('hidden');
  state.retryTimer = setTimeout(connect, wait);
}

/**
 * Back in view or back online: try at once rather than wait out the backoff. A phone that slept
 * may hold a connection that died without closing; one quiet for a while is opened afresh (the
 * server answers a new hello with the table and the game as they are).
 */
function reconnectNow() {
  if (!state.code || document.visibilityState === 'hidden') return;
  if (state.ws) {
    if (Date.now() - (state.heardAt ?? 0) < 25_000) return;
    const old = state.ws;
    state.ws = null;
    old.close();
  }
  connect();
}

/** @param {TableMessage} msg */
async function handle(msg) {
  switch (msg.type) {
    case 'table':
      // the table answers again: a refusal said over the connection before is past
      if (state.saidOverSocket) { say(''); state.saidOverSocket = false; }
      state.table = msg.table;
      state.you = msg.you;
      drawTable();
      // a game told before its table is drawn now
      if (state.game && !state.drawing) await drawGame(state.game);
      break;
    case 'game':
      state.game = msg;
      await drawGame(msg);
      break;
    case 'hint':
      if (state.drawing) {
        await state.drawing.showHint(msg.hint);
        const line = $('#hint-from-coach');
        line.textContent = 'Your coach sent you a hint: you can read it under your tiles.';
        line.classList.remove('hidden');
      }
      break;
    case 'error':
      if (msg.code === 'TM_NOT_FOUND' || msg.code === 'TM_UNAUTHORIZED') {
        // the table is gone, or the token no longer opens it: she joins again
        const code = tableCode();
        forgetPlace(code);
        leaveTable();
        say('Your place at this table could not be found any more: you can join it again below.');
        showChoose(code);
      } else {
        say(msg.message ?? 'The table refused that.');
        state.saidOverSocket = true;
      }
      break;
    default: break;
  }
}

function leaveTable() {
  const ws = state.ws;
  state.ws = null;
  ws?.close();
  if (state.retryTimer !== null) clearTimeout(state.retryTimer);
  state.retryTimer = null;
  state.code = null;
  state.place = null;
  $('#connection').classList.add('hidden');
}

// ---------------------------------------------------------------- the table before and around the game

function drawTable() {
  const t = table();
  const open = t.status === 'open';
  $('#lobby').classList.toggle('hidden', !open);
  $('#table-status').classList.toggle('hidden', open);
  const teaching = t.teaching ? ` A teaching table: ${coachName(t)} is the coach and sees every player\u2019s tiles.` : '';
  $('#lobby-about').textContent = `${gameWords(t.game)}, ${rulesetWords(t.ruleset)}, with ${CLOCK_WORDS[t.clock ?? 'off'] ?? 'no clock'}.${teaching}`;
  drawCardLine(t);
  const list = $('#seat-list');
  list.replaceChildren(...t.seats.map((s) => seatItem(s, open)));
  const empty = t.seats.filter((s) => s.kind === 'empty').length;
  const host = isHost();
  $('#start-row').classList.toggle('hidden', !host || !open);
  if (host) {
    const level = /** @type {HTMLSelectElement} */ ($('#fill-level'));
    if (!level.options.length) {
      for (const [v, words] of LEVELS[t.game] ?? []) level.append(new Option(words, v, v === t.level, v === t.level));
    }
    $('#start-button').textContent = empty === 0 ? 'Start the game' : empty === 1 ? 'Start, with a bot in the empty seat' : `Start, with bots in the ${empty} empty seats`;
  }
  const watching = state.you?.role === 'spectator';
  $('#lobby-next').textContent = !open ? ''
    : host ? (empty ? 'Wait for your friends to join, or put bots in the empty seats, then start.' : 'Everyone is seated, so you can start the game.')
    : watching ? `You are watching: the game begins when ${coachName(t)} starts it.`
    : `You sit ${placeWords(state.you?.seat ?? 0)}: the game begins when ${coachName(t)} starts it.`;
  if (!open) drawStatus();
  if (state.you?.role === 'coach') drawCoach();
}

/**
 * "Card: ..." for a Mah Jongg table, before the game and during it, to everyone seated and watching.
 * @param {TableInfo} t
 */
function drawCardLine(t) {
  for (const id of ['#lobby-card', '#card-line']) {
    const line = /** @type {HTMLElement | null} */ (document.querySelector(id));
    if (!line) continue;
    line.textContent = t.card ? `Card: ${t.card}` : '';
    line.classList.toggle('hidden', !t.card);
  }
}

/**
 * @param {TableSeat} s
 * @param {boolean} open
 */
function seatItem(s, open) {
  const li = document.createElement('li');
  li.className = `seat-item seat-${s.kind}${s.away ? ' away' : ''}`;
  li.dataset.seat = String(s.seat);
  const mine = state.you?.seat === s.seat && state.you?.role === 'player';
  const who = s.kind === 'person' ? `${s.name}${mine ? ' (you)' : ''}${s.away ? ', away for now' : ''}`
    : s.kind === 'bot' ? `${levelWords(table().game, s.level)} bot` : 'Empty';
  const words = document.createElement('span');
  words.className = 'seat-words';
  const place = document.createElement('strong');
  place.textContent = `${placeWords(s.seat)}: `;
  words.append(place, who);
  li.append(words);
  if (open && isHost()) {
    if (s.kind === 'empty') li.append(smallButton(`Put a bot here (${placeWords(s.seat)})`, 'Put a bot here', () => setBot(s.seat, /** @type {HTMLSelectElement} */ ($('#fill-level')).value), 'add-bot'));
    if (s.kind === 'bot') li.append(smallButton(`Take the bot out (${placeWords(s.seat)})`, 'Take the bot out', () => setBot(s.seat, null), 'remove-bot'));
  }
  return li;
}

/**
 * @param {string} label
 * @param {string} text
 * @param {() => void} onClick
 * @param {string} kind
 */
function smallButton(label, text, onClick, kind) {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: 'btn btn-quiet', textContent: text });
  b.setAttribute('aria-label', label);
  b.dataset.action = kind;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * @param {number} seat
 * @param {string | null} bot
 */
async function setBot(seat, bot) {
  try {
    await tables.seat(tableCode(), place().token, seat, bot);
  } catch (err) {
    say(`That seat could not be changed: ${errorWords(err)}`);
  }
}

async function startGame() {
  const empty = table().seats.some((s) => s.kind === 'empty');
  /** @type {HTMLButtonElement} */ ($('#start-button')).disabled = true;
  try {
    await tables.start(tableCode(), place().token, empty ? /** @type {HTMLSelectElement} */ ($('#fill-level')).value : undefined);
  } catch (err) {
    say(`The game could not start: ${errorWords(err)}`);
  } finally {
    /** @type {HTMLButtonElement} */ ($('#start-button')).disabled = false;
  }
}

/** Whose turn it is, the clock and a pause, in one plain sentence each. */
function drawStatus() {
  const t = table();
  const g = state.game;
  const v = g?.view;
  const you = state.you;
  let turn = '';
  if (t.status === 'over' || v?.phase === 'ended') turn = 'The game is over.';
  else if (v) {
    const waiting = t.game === 'mah-jongg' ? (v.waitingOn ?? []) : (v.turn !== undefined ? [v.turn] : []);
    const mine = you?.role === 'player' && you.seat !== null && waiting.includes(you.seat);
    const others = waiting.filter((s) => !(you?.role === 'player' && s === you.seat)).map(seatName);
    turn = mine && others.length === 0 ? 'It is your turn.'
      : mine ? `It is your turn, and ${listWords(others)} ${others.length === 1 ? 'is' : 'are'} choosing too.`
      : others.length === 1 ? `It is ${others[0]}\u2019s turn.`
      : others.length ? `Waiting for ${listWords(others)}.` : '';
  } else turn = 'The game is starting.';
  $('#turn-line').textContent = turn;
  // an online event's game: once it is over, her score card has the next one
  const back = /** @type {HTMLAnchorElement} */ ($('#event-back'));
  const ended = t.status === 'over' || v?.phase === 'ended';
  back.classList.toggle('hidden', !ended || !state.place?.back);
  if (state.place?.back) back.href = state.place.back;
  const role = $('#role-line');
  role.textContent = you?.role === 'spectator' ? 'You are watching this table, so nobody\u2019s tiles are shown to you.' : '';
  role.classList.toggle('hidden', you?.role !== 'spectator');
  const paused = t.status === 'paused' || !!g?.paused;
  const pausedLine = $('#paused-line');
  pausedLine.textContent = isHost() ? 'You have paused the game: press Resume to go on.' : t.teaching ? 'Your coach has paused the game for a moment.' : `${coachName(t)} has paused the game for a moment.`;
  pausedLine.classList.toggle('hidden', !paused);
  // the host of an ordinary table may pause as the coach does (the coach's button is in her own panel)
  const hostPause = $('#host-pause');
  const over = t.status === 'over' || v?.phase === 'ended';
  hostPause.classList.toggle('hidden', !isHost() || you?.role !== 'player' || over);
  hostPause.textContent = paused ? 'Resume the game' : 'Pause the game';
  hostPause.setAttribute('aria-pressed', paused ? 'true' : 'false');
  $('#game')?.classList.toggle('paused', paused);
  drawClock();
}

/**
 * An online event's game: the round's clock, as her score card has it, shown at her table and
 * kept current (every 20 seconds while the page is seen).
 */
function roundClock() {
  const back = state.place?.back;
  const line = $('#round-clock');
  if (!back) { line.classList.add('hidden'); return; }
  const q = new URL(back, location.href).searchParams;
  const look = async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      /** @type {{ round: number, timeLeftMs?: number, paused?: boolean }} */
      const c = await call('GET', `/api/events/${encodeURIComponent(q.get('event') ?? '')}/card?card=${encodeURIComponent(q.get('card') ?? '')}`);
      const left = Math.ceil((c.timeLeftMs ?? 0) / 60_000);
      line.textContent = c.timeLeftMs === undefined ? '' : c.paused ? `Round ${c.round}: the director has paused the clock, with ${left} minute${left === 1 ? '' : 's'} left.` : left > 0 ? `Round ${c.round}: ${left} minute${left === 1 ? '' : 's'} left on the clock.` : `Round ${c.round}: the time is up.`;
      line.classList.toggle('hidden', line.textContent === '');
    } catch { /* the clock is shown again at the next look */ }
  };
  void look();
  clearInterval(state.roundTimer);
  state.roundTimer = setInterval(look, 20_000);
}

/** @param {string[]} names */
function listWords(names) {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function drawClock() {
  clearTimeout(state.clockTimer);
  const line = $('#clock-line');
  const c = state.game?.clock;
  const paused = state.table?.status === 'paused' || !!state.game?.paused;
  if (!c || paused || state.game?.view?.phase === 'ended') { line.textContent = ''; line.classList.add('hidden'); return; }
  const ends = c.endsAt;
  const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
  const seats = c.seats;
  const you = state.you;
  const mine = you?.role === 'player' && you.seat !== null && seats.includes(you.seat);
  const who = mine ? 'You have' : `${listWords(seats.map(seatName))} ${seats.length > 1 ? 'have' : 'has'}`;
  line.textContent = `${who} ${left} second${left === 1 ? '' : 's'} left to choose, then a bot chooses.`;
  line.classList.remove('hidden');
  line.classList.toggle('urgent', left <= 10);
  if (left > 0) state.clockTimer = setTimeout(drawClock, 1000);
}

// ---------------------------------------------------------------- the game for her seat

/** @param {string} game */
async function mountDrawing(game) {
  const template = /** @type {HTMLTemplateElement} */ ($(game === 'mexican-train' ? '#domino-game' : '#mah-jongg-game'));
  $('#seat-view').replaceChildren(template.content.cloneNode(true));
  const client = new TableGame({ code: tableCode(), token: place().token, seat: state.you?.role === 'player' ? (state.you.seat ?? null) : null });
  state.client = client;
  const seatHooks = game === 'mexican-train'
    ? { seatName, seatLabel: (/** @type {number} */ s) => (seatFacts(s) ? `${seatName(s)} (${botOrAway(s)})` : seatName(s)) }
    : { seatWords: seatName, seatFacts, waitingShown: true, card: state.you?.role === 'player' };
  if (game === 'mexican-train') {
    document.body.classList.add('domino-page');
    const css = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: 'domino.css' });
    document.head.append(css);
    const { dominoTable } = await import('./domino.js');
    state.drawing = dominoTable(client, seatHooks);
  } else {
    const { mahJonggTable } = await import('./app.js');
    state.drawing = mahJonggTable(client, seatHooks);
  }
  // a player asks for her own hint (and, at a teaching table, her coach may send her one); someone watching has nothing to decide
  $('#hint-button').classList.toggle('hidden', state.you?.role !== 'player');
}

/** @param {TableGameMessage} msg */
async function drawGame(msg) {
  if (!state.table) return;
  if (!state.drawing) await mountDrawing(table().game);
  const client = /** @type {TableGame} */ (state.client);
  const drawing = /** @type {Drawing} */ (state.drawing);
  $('#table-status').classList.remove('hidden');
  $('#lobby').classList.add('hidden');
  const answer = client.accept({ ...msg, seats: [] });
  if (answer) await drawing.update(answer);
  // the coach's hint is for one decision: the line about it goes with it
  if ($('#hint')?.classList.contains('hidden')) $('#hint-from-coach').classList.add('hidden');
  drawStatus();
  if (state.you?.role === 'coach') drawCoach();
}

// ---------------------------------------------------------------- the coach

function drawCoach() {
  const t = table();
  const g = state.game;
  const box = $('#coach');
  box.classList.toggle('hidden', t.status === 'open');
  const paused = t.status === 'paused' || !!g?.paused;
  const pause = /** @type {HTMLButtonElement} */ ($('#pause-button'));
  pause.textContent = paused ? 'Resume the game' : 'Pause the game';
  pause.setAttribute('aria-pressed', paused ? 'true' : 'false');
  const over = t.status === 'over' || g?.view?.phase === 'ended';
  pause.disabled = over;
  // at the end every hand is shown with the score: the racks and controls give way to the reviews
  box.classList.toggle('over', over);
  const students = t.seats.filter((s) => s.kind === 'person');
  const select = /** @type {HTMLSelectElement} */ ($('#hint-seat'));
  const chosen = select.value;
  select.replaceChildren(...students.map((s) => new Option(s.name ?? '', String(s.seat), false, String(s.seat) === chosen)));
  select.disabled = over || !students.length;
  /** @type {HTMLButtonElement} */ ($('#coach-hint-button')).disabled = over || !students.length;
  const racks = $('#racks');
  racks.replaceChildren(...t.seats.map((s) => rackOf(s.seat, g?.racks?.[s.seat])));
  drawReviews();
}

/**
 * One seat's rack as its player sees it (coach only).
 * @param {number} s
 * @param {NonNullable<TableGameMessage['racks']>[number] | undefined} rack
 */
function rackOf(s, rack) {
  const box = document.createElement('div');
  box.className = 'coach-rack';
  box.dataset.seat = String(s);
  const h = document.createElement('h3');
  h.textContent = `${seatName(s)} (${placeWords(s)})`;
  box.append(h);
  const view = rack;
  const row = document.createElement('div');
  row.className = 'tile-row';
  if (table().game === 'mah-jongg') {
    const tiles = sortTiles(view?.rack ?? []);
    for (const t of tiles) row.append(tileElement(t, { size: 'small' }));
    row.setAttribute('aria-label', tiles.length ? `${seatName(s)}\u2019s tiles: ${tilesLabel(tiles)}` : `${seatName(s)} has no tiles to show`);
  } else {
    for (const d of view?.hand ?? []) {
      const chip = document.createElement('span');
      chip.className = 'domino-chip';
      chip.textContent = d.replace('-', '\u2013');
      row.append(chip);
    }
    row.setAttribute('aria-label', `${seatName(s)}\u2019s dominoes`);
  }
  row.setAttribute('role', 'group');
  box.append(row);
  return box;
}

async function coachHint() {
  const seat = Number(/** @type {HTMLSelectElement} */ ($('#hint-seat')).value);
  const name = seatName(seat);
  /** @type {HTMLButtonElement} */ ($('#coach-hint-button')).disabled = true;
  $('#coach-said').textContent = `Working out a hint for ${name}\u2026`;
  try {
    await tables.hint(tableCode(), place().token, seat);
    $('#coach-said').textContent = `${name} can now see a hint under her tiles.`;
  } catch (err) {
    $('#coach-said').textContent = `No hint for ${name} just now: ${errorWords(err)}`;
  } finally {
    /** @type {HTMLButtonElement} */ ($('#coach-hint-button')).disabled = false;
  }
}

async function togglePause() {
  const paused = table().status === 'paused' || !!state.game?.paused;
  try {
    await tables.pause(tableCode(), place().token, !paused);
  } catch (err) {
    const words = `The game could not be ${paused ? 'resumed' : 'paused'}: ${errorWords(err)}`;
    if (state.you?.role === 'coach') $('#coach-said').textContent = words;
    else say(words);
  }
}

/** At the end: each student's review of her play (Mah Jongg), or her record to keep. */
function drawReviews() {
  const t = table();
  const ids = t.recordIds;
  const box = $('#reviews');
  if (!ids || box.dataset.done === '1') { box.classList.toggle('hidden', !ids); return; }
  box.dataset.done = '1';
  box.classList.remove('hidden');
  const h = document.createElement('h2');
  h.textContent = 'Your students\u2019 games';
  box.replaceChildren(h);
  for (const s of t.seats) {
    const id = ids[s.seat];
    if (s.kind !== 'person' || !id) continue;
    const item = document.createElement('div');
    item.className = 'review-item-box';
    const p = document.createElement('p');
    const rec = Object.assign(document.createElement('a'), { href: `/api/records/${encodeURIComponent(id)}?format=jsonl`, textContent: `Keep ${s.name}\u2019s game record`, download: `${id}.jsonl` });
    p.append(rec);
    item.append(p);
    if (t.game === 'mah-jongg') {
      const out = document.createElement('section');
      out.className = 'student-review hidden';
      const b = Object.assign(document.createElement('button'), { type: 'button', className: 'btn', textContent: `Review ${s.name}\u2019s play` });
      b.dataset.action = 'review';
      b.addEventListener('click', () => reviewOf(s, id, out));
      p.append(' ', b);
      item.append(out);
    }
    box.append(item);
  }
}

/**
 * @param {TableSeat} s
 * @param {string} recordId
 * @param {HTMLElement} out
 */
async function reviewOf(s, recordId, out) {
  out.classList.remove('hidden');
  /** @param {string} text */
  const say = (text) => out.replaceChildren(Object.assign(document.createElement('p'), { textContent: text, className: 'review-progress' }));
  say(`Looking over ${s.name}\u2019s game\u2026 (this takes a few seconds)`);
  try {
    const data = await reviewWithProgress(api, { recordId, seat: s.seat }, say, s.name ?? undefined);
    showReview(out, data, { seat: () => s.seat, seatWords: (x) => (x === s.seat ? (s.name ?? seatName(x)) : seatName(x)) });
    const h = out.querySelector('h2');
    if (h) h.textContent = `${s.name}\u2019s decisions`;
  } catch (err) {
    out.replaceChildren(Object.assign(document.createElement('p'), { textContent: `The review could not be made: ${errorWords(err)}` }));
  }
}

// ---------------------------------------------------------------- wiring

function wire() {
  $('#open-form').addEventListener('submit', openTable);
  $('#open-form').addEventListener('change', (e) => { if (e.target instanceof HTMLInputElement && e.target.name === 'game') showGameFields(); });
  // a card picked here is her card on the other pages too
  $('#card').addEventListener('change', () => chooseCard(/** @type {HTMLSelectElement} */ ($('#card')).value));
  $('#join-form').addEventListener('submit', joinTable);
  $('#look-button').addEventListener('click', lookUp);
  $('#join-code').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); lookUp(); } });
  $('#join-seats').addEventListener('change', showAgree);
  $('#agree').addEventListener('change', showAgree);
  $('#copy-button').addEventListener('click', copyLink);
  $('#open-instead').addEventListener('click', () => {
    $('#open-form').classList.remove('hidden');
    $('#open-instead-row').classList.add('hidden');
    $('#open-form input[name="game"]:checked').focus();
  });
  $('#start-button').addEventListener('click', startGame);
  $('#pause-button').addEventListener('click', togglePause);
  $('#host-pause').addEventListener('click', togglePause);
  $('#coach-hint-button').addEventListener('click', coachHint);
  $('#leave-button').addEventListener('click', () => {
    const status = state.table?.status;
    const player = state.you?.role === 'player';
    // this page holds her place: once left, the table goes on without her (a host's open table, without anyone to start it)
    const question = status === 'open' && isHost() ? 'Leave this table? Nobody else can start its game.'
      : (status === 'playing' || status === 'paused') && player ? 'Leave this table? A bot will play your seat.'
      : (status === 'playing' || status === 'paused') && state.you?.role === 'coach' ? 'Leave this table? Nobody else can pause it or send hints.'
      : null;
    if (question && !window.confirm(question)) return;
    const code = state.code;
    if (code) forgetPlace(code);
    leaveTable();
    location.href = 'together.html';
  });
  document.addEventListener('visibilitychange', reconnectNow);
  window.addEventListener('online', reconnectNow);
}

function leaveButton() {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: 'btn hidden', id: 'leave-button', textContent: 'Leave the table' });
  $('header.top .tools').append(b);
}

leaveButton();
setupDisplay();
wire();
loadCards();
{
  const code = normaliseCode(new URLSearchParams(location.search).get('code'));
  const place = code ? loadPlace(code) : null;
  if (code && place?.token) enter(code, place);
  else showChoose(code);
}
