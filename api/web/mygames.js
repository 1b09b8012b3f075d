// "My games": who this browser is (sign in, make an account, sign out, change the password)
// and her finished games, newest first (GET /api/records), each with its date, game, rules,
// card, her seat, the bots she played and how it ended, and its record to keep.

import { api, call, errorWords } from './client.js';
import { byId as $ } from './dom.js';
import { reviewWithProgress, showReview } from './end.js';
import { plainLines } from './lines.js';
import { gameWords, placeWords, rulesetWords } from './names.js';
import { sortTiles, tileElement, tileLabel, tilesInWords, tilesLabel } from './tiles.js';

/** @import { ReviewDecision, Tile } from './types.js' */

/**
 * A finished game of hers (GET /api/records, docs/api.md): `seat` null for a game she watched;
 * `scores` are points (Mah Jongg) or pips left (Mexican Train).
 * @typedef {{
 *   id: string, game: string, ruleset: string, card?: string, seed: number, seat: number | null, seats: string[],
 *   winners: number[], scores: number[], wallGame?: boolean, finishedAt: string,
 * }} GameRecord
 */

/**
 * A move of a record, as the steps tell it (its type absent for the deal): a call names no tile (it takes the last discard).
 * @typedef {{ type?: string, seat: number, tile?: Tile, tiles?: Tile[], yes?: boolean, blind?: number, size?: number, jokers?: number, owner?: number, target?: number }} Move
 */

/** Who this browser is (GET /api/me). @typedef {{ signedIn: boolean, guest?: boolean, name?: string }} Me */

const PAGE = 20;
const SEATS = ['East', 'South', 'West', 'North'];

/** Requests under way: body[data-busy] counts them (the browser tests wait on it). */
let waiting = 0;

/** @param {boolean} on */
function busy(on) {
  waiting += on ? 1 : -1;
  document.body.dataset.busy = String(waiting);
}

/**
 * A message under the account form: an error (the server's own words), or good news.
 * @param {string} text
 * @param {boolean} [good]
 */
function say(text, good = false) {
  $('account-message').textContent = text;
  $('account-message').dataset.kind = good ? 'ok' : 'error';
}

/**
 * A request with the page busy meanwhile; a refusal is said under the account form.
 * @template T
 * @param {() => Promise<T>} fn
 * @returns {Promise<T | undefined>}
 */
async function work(fn) {
  busy(true);
  try { return await fn(); } catch (err) { say(errorWords(err)); return undefined; } finally { busy(false); }
}

/** @param {Me} me */
function showMe(me) {
  $('me-line').textContent = me.signedIn ? `You are signed in as ${me.name}.`
    : me.guest ? 'You are playing as a guest: make an account to keep your games on any device.'
    : 'Sign in to see your games, or make an account: a name and a password, no email.';
  $('sign-form').classList.toggle('hidden', me.signedIn);
  $('signed-in').classList.toggle('hidden', !me.signedIn);
}

/**
 * The server's sentence in a player's words: tiles by name, card lines by the names players give them.
 * @param {string | null | undefined} text
 */
const plain = (text) => tilesInWords(plainLines(text));

/** The player the games are of, in words: "You", or her student's name. */
const who = () => student ?? 'You';
const whose = () => (student === null ? 'your' : 'her');

/** The seat's name at the table: East, South... for Mah Jongg; "seat 2" at a Mexican Train table. @param {GameRecord} r */
const seatName = (r) => (r.seat === null ? 'a seat' : r.game === 'mah-jongg' && r.seats.length <= 4 ? SEATS[r.seat] : `seat ${r.seat + 1}`);

/**
 * Another seat of her game as the table named it to her: "Right", "Across", "Left" (her own: "You",
 * or her name for her coach); a game she only watched, by the seat's wind.
 * @param {number} seat
 * @param {GameRecord} r
 */
const seatWords = (seat, r) => (r.seat === null ? (SEATS[seat] ?? `Seat ${seat + 1}`) : seat === r.seat ? who() : placeWords(seat, r.seat, r.seats.length));
/** "your", "Right's", her name's for her coach. @param {number} seat @param {GameRecord} r */
const whoseSeat = (seat, r) => (seat === r.seat ? whose() : `${seatWords(seat, r)}'s`);

/**
 * How the game ended for her, in one sentence.
 * @param {GameRecord} r
 */
function ending(r) {
  const s = r.seat ?? 0;
  if (r.game === 'mah-jongg') {
    if (r.wallGame) return 'Nobody made Mah Jongg (a wall game).';
    const won = r.winners.includes(s);
    return `${won ? `${who()} made Mah Jongg` : `${r.winners.map((w) => (r.seat === null ? `Seat ${w + 1}` : seatWords(w, r))).join(' and ')} made Mah Jongg`}; ${whose()} score ${r.scores[s] > 0 ? '+' : ''}${r.scores[s]}.`;
  }
  const won = r.winners.includes(s);
  return `${who()} ${won ? 'won' : 'did not win'} with ${r.scores[s]} pips left.`;
}

/** What a seat did, said of another seat ("Right discards") and of her ("You discard"). @type {Record<string, [string, string]>} */
const VERBS = {
  draw: ['draws', 'draw'], discard: ['discards', 'discard'], pass: ['passes', 'pass'], courtesy: ['offers', 'offer'], vote: ['votes', 'vote'],
  call: ['calls', 'call'], callMahJongg: ['calls', 'call'], decline: ['lets it go', 'let it go'], exchange: ['exchanges', 'exchange'],
  declare: ['declares Mah Jongg', 'declare Mah Jongg'], callDead: ['calls', 'call'],
};
/** @type {Record<number, string>} */
const GROUP = { 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' };
/** The Charleston's passes in order (standardized rules 4: right, across, left; then left, across, right). */
const PASSES = { first: ['to the right', 'across', 'to the left'], second: ['to the left', 'across', 'to the right'] };

/**
 * What a move takes from the moves before it: a call or a call for Mah Jongg, the discard it takes
 * (the record names no tile); her Charleston pass, its direction (the first three before the vote,
 * the second three after; a pass made again after an all-blind pass, none).
 * @typedef {{ claimed?: { tile: Tile, seat: number }, direction?: string }} MoveContext
 * @param {{ action: Move }[]} steps
 * @param {GameRecord} r
 * @returns {MoveContext[]}
 */
function movesInContext(steps, r) {
  /** @type {{ tile: Tile, seat: number } | undefined} */
  let last;
  let second = false;
  let passes = 0;
  return steps.map(({ action: a }) => {
    /** @type {MoveContext} */
    const c = {};
    if (a.type === 'discard' && a.tile) last = { tile: a.tile, seat: a.seat };
    if ((a.type === 'call' || a.type === 'callMahJongg') && last) c.claimed = last;
    if (a.type === 'vote' && !second) { second = true; passes = 0; }
    if (a.type === 'pass' && a.seat === r.seat) c.direction = (second ? PASSES.second : PASSES.first)[passes++];
    return c;
  });
}

/** The moves of play told between her decisions (draws, passes face down and discards let go are not). */
const PLAY_MOVES = new Set(['discard', 'call', 'callMahJongg', 'declare', 'exchange', 'callDead']);
/** Her own moves that are choices of hers: the Charleston's and her moves of play (a draw is no choice). */
const DECISIONS = new Set(['pass', 'courtesy', 'vote', ...PLAY_MOVES]);

/**
 * A move of a finished game in one plain sentence, as the table told it: "Right discards 5 Bam.",
 * "You call Left's 2 Crak for a pung with 1 joker.", "You pass 2 Crak and 2 tiles blind to the left."
 * @param {Move} a
 * @param {GameRecord} r
 * @param {MoveContext} [c]
 */
function moveWords(a, r, c = {}) {
  if (a.type === undefined) return 'The deal.';
  const mine = a.seat === r.seat;
  const who = mine ? (student ?? 'You') : seatWords(a.seat, r);
  const verb = VERBS[a.type]?.[mine && student === null ? 1 : 0] ?? a.type;
  const what = c.claimed ? `${whoseSeat(c.claimed.seat, r)} ${tileLabel(c.claimed.tile)}` : 'the discard';
  const tiles = a.tiles ?? [];
  switch (a.type) {
    case 'vote': return `${who} ${verb} ${a.yes ? 'yes' : 'no'} to a second Charleston.`;
    case 'pass': {
      const blind = a.blind ?? 0;
      const passed = [tiles.length ? tilesLabel(tiles) : '', blind ? `${blind} tile${blind === 1 ? '' : 's'} blind` : ''].filter(Boolean).join(' and ');
      return `${who} ${verb} ${passed || 'nothing'}${c.direction ? ` ${c.direction}` : ''}.`;
    }
    case 'courtesy': return `${who} ${verb} ${tiles.length ? tilesLabel(tiles) : 'nothing'} across.`;
    case 'call': return `${who} ${verb} ${what} for a ${GROUP[a.size ?? 3] ?? 'group'}${a.jokers ? ` with ${a.jokers} joker${a.jokers === 1 ? '' : 's'}` : ''}.`;
    case 'callMahJongg': return `${who} ${verb} ${what} for Mah Jongg.`;
    case 'exchange': {
      const from = a.owner === undefined ? 'an' : a.owner === a.seat ? (mine && student === null ? 'your own' : 'her own') : whoseSeat(a.owner, r);
      return `${who} ${verb} ${a.tile ? `${mine ? whose() : 'a'} ${tileLabel(a.tile)}` : 'a tile'} for the joker in ${from} exposure.`;
    }
    case 'callDead': return `${who} ${verb} ${a.target === undefined ? 'a' : whoseSeat(a.target, r)} hand dead.`;
    default: return `${who} ${verb}${a.tile ? ` ${tileLabel(a.tile)}` : ''}.`;
  }
}

/**
 * What the others did between two of her decisions, in a sentence: their discards, calls and
 * Mah Jonggs (draws, passes face down and discards let go are left out).
 * @param {{ action: Move }[]} between
 * @param {GameRecord} r
 * @param {MoveContext[]} context each move's, as `between` lists them
 */
function meanwhileWords(between, r, context) {
  const told = between.map((s, i) => ({ a: s.action, c: context[i] })).filter(({ a }) => a.seat !== r.seat && PLAY_MOVES.has(a.type ?? ''));
  if (!told.length) return '';
  const shown = told.slice(-6).map(({ a, c }) => moveWords(a, r, c).replace(/\.$/, ''));
  return `Before it: ${told.length > 6 ? `${told.length - 6} more moves, then ` : ''}${shown.join('; ')}.`;
}

/**
 * Her game decision by decision: a slider and buttons over her own choices (the deal first,
 * the end last), each told in words with what the others did since her last one, her rack as it
 * was when she chose, and every seat's discards by then.
 * @param {GameRecord} r
 * @param {HTMLElement} box
 */
async function stepThrough(r, box) {
  /** @type {{ steps: { n: number, action: Move, rack: Tile[], discards: Tile[][] }[] } | undefined} */
  const data = await work(() => call('GET', `/api/records/${encodeURIComponent(r.id)}/steps?seat=${r.seat}`));
  if (!data) return;
  const steps = data.steps;
  const context = movesInContext(steps, r);
  // the deal, each decision of hers, and the end
  const stops = steps.flatMap((st, i) => (i === 0 || i === steps.length - 1 || (st.action.seat === r.seat && DECISIONS.has(st.action.type ?? '')) ? [i] : []));
  box.classList.remove('hidden');
  const label = Object.assign(document.createElement('label'), { textContent: 'Your decisions' });
  const slider = Object.assign(document.createElement('input'), { type: 'range', min: '0', max: String(stops.length - 1), value: '0', className: 'step-slider' });
  slider.id = `steps-${r.id}`;
  label.htmlFor = slider.id;
  /** @param {number} by */
  const move = (by) => { slider.value = String(Math.min(stops.length - 1, Math.max(0, Number(slider.value) + by))); draw(); };
  const prev = button('Previous decision', () => move(-1));
  const next = button('Next decision', () => move(1));
  const words = Object.assign(document.createElement('p'), { className: 'step-words' });
  words.setAttribute('aria-live', 'polite');
  const meanwhile = Object.assign(document.createElement('p'), { className: 'step-meanwhile' });
  const shown = document.createElement('div');
  const draw = () => {
    const k = Number(slider.value);
    const i = stops[k];
    const s = steps[i];
    const decisions = stops.length - 2;
    const end = i === steps.length - 1 && k > 0;
    const what = k === 0 ? 'The deal.' : end ? `The end of the game. ${moveWords(s.action, r, context[i])}` : `Decision ${k} of ${decisions}: ${moveWords(s.action, r, context[i])}`;
    words.textContent = what;
    meanwhile.textContent = k === 0 ? '' : meanwhileWords(steps.slice(stops[k - 1] + 1, i), r, context.slice(stops[k - 1] + 1, i));
    // what she saw when she chose: the table just before her move (the deal and the end as they are)
    const then = k === 0 || end ? s : steps[i - 1];
    const rack = document.createElement('div');
    rack.className = 'tile-row';
    for (const t of sortTiles(then.rack)) rack.append(tileElement(t, { size: 'small' }));
    const rackWords = student === null ? (k === 0 || end ? 'Your rack:' : 'Your rack when you chose:') : k === 0 || end ? `${student}'s rack:` : `${student}'s rack when she chose:`;
    const parts = [Object.assign(document.createElement('p'), { textContent: rackWords }), rack];
    then.discards.forEach((ds, seat) => {
      if (ds.length === 0) return;
      const row = document.createElement('div');
      row.className = 'tile-row';
      for (const t of ds) row.append(tileElement(t, { size: 'small' }));
      parts.push(Object.assign(document.createElement('p'), { textContent: `${seat === r.seat ? (student === null ? 'Your' : `${student}'s`) : `${seatWords(seat, r)}'s`} discards:` }), row);
    });
    shown.replaceChildren(...parts);
    prev.disabled = k === 0;
    next.disabled = k === stops.length - 1;
  };
  slider.addEventListener('input', draw);
  const controls = document.createElement('p');
  controls.className = 'save-row';
  controls.append(prev, next);
  box.replaceChildren(label, slider, controls, words, meanwhile, shown);
  draw();
}

/**
 * A new game from just before a decision of this game, opened at the practice table (which resumes the tab's game).
 * @param {GameRecord} r
 * @param {ReviewDecision} d
 */
async function playFrom(r, d) {
  const a = await work(() => call('POST', '/api/games/from', { recordId: r.id, before: d.index }));
  if (!a) return;
  try { sessionStorage.setItem('tilemate-game', JSON.stringify({ id: a.id, token: a.token, seat: a.seat })); } catch { /* private mode: the table starts afresh */ }
  location.href = './';
}

/** @type {(text: string, onClick: () => void) => HTMLButtonElement} */
const button = (text, onClick) => {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: 'btn', textContent: text });
  b.addEventListener('click', onClick);
  return b;
};
/** @type {(text: string, href: string) => HTMLAnchorElement} */
const link = (text, href) => Object.assign(document.createElement('a'), { className: 'btn', href, textContent: text });
/** @type {(className: string) => HTMLElement} */
const section = (className) => Object.assign(document.createElement('section'), { className: `${className} hidden` });

/**
 * The start form of the game's table, filled in with this deal, its rules and its bots.
 * @param {GameRecord} r
 */
function againHref(r) {
  const bot = encodeURIComponent(r.seats.find((_, i) => i !== r.seat) ?? '');
  return r.game === 'mah-jongg' ? `./?deal=${r.seed}&ruleset=${encodeURIComponent(r.ruleset)}&level=${bot}`
    : `domino.html?deal=${r.seed}&ruleset=${encodeURIComponent(r.ruleset)}&players=${r.seats.length}&bots=${bot}`;
}

/**
 * Her review of a Mah Jongg game, under it (kept by the server once computed); each moment can be played on from.
 * @param {GameRecord & { seat: number }} r
 * @param {HTMLElement} box
 */
async function reviewInto(r, box) {
  box.classList.remove('hidden');
  /** @param {string} text */
  const say = (text) => box.replaceChildren(Object.assign(document.createElement('p'), { textContent: text, className: 'review-progress' }));
  say(`Looking over ${student === null ? 'your' : `${student}\u2019s`} game\u2026 (this takes a few seconds the first time)`);
  busy(true);
  try {
    const data = await reviewWithProgress(api, { recordId: r.id, seat: r.seat }, say, student ?? undefined);
    showReview(box, data, { seat: () => r.seat, seatWords: (s) => seatWords(s, r), playFrom: (d) => playFrom(r, d), player: student ?? undefined });
  } catch (err) {
    box.replaceChildren(Object.assign(document.createElement('p'), { textContent: `The review could not be made: ${errorWords(err)}` }));
  } finally {
    busy(false);
  }
}

/** @param {GameRecord} r */
function gameItem(r) {
  const li = document.createElement('li');
  li.className = 'game-item';
  li.dataset.id = r.id;
  const when = new Date(r.finishedAt);
  const bots = r.seats.filter((_, i) => i !== r.seat).join(', ');
  const head = document.createElement('p');
  head.className = 'game-head';
  head.textContent = `${when.toLocaleDateString()} ${when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}: ${gameWords(r.game)}, ${rulesetWords(r.ruleset)}${r.card ? `, ${r.card}` : ''}`;
  const line = document.createElement('p');
  line.textContent = `${who()} sat ${seatName(r)} against ${bots} bots. ${ending(r)}`;
  const links = document.createElement('p');
  const rec = document.createElement('a');
  rec.href = `/api/records/${encodeURIComponent(r.id)}?format=jsonl`;
  rec.download = `${r.id}.jsonl`;
  rec.textContent = 'Keep the record';
  const deal = document.createElement('span');
  deal.className = 'deal';
  deal.textContent = ` Deal number ${r.seed}.`;
  links.append(rec, deal);
  li.append(head, line, links);
  const seat = r.seat;
  if (seat !== null) {
    const actions = document.createElement('p');
    actions.className = 'save-row';
    actions.append(link('Play this deal again', againHref(r)));
    li.append(actions);
    if (r.game === 'mah-jongg') {
      const steps = section('steps-box'), box = section('review-box');
      actions.append(button(student === null ? 'Review my play' : `Review ${student}\u2019s play`, () => reviewInto({ ...r, seat }, box)), button('Step through it', () => stepThrough(r, steps)));
      li.append(steps, box);
    }
  }
  return li;
}

/** The student whose games a coach is looking at (null: her own). @type {string | null} */
let student = null;
/** @param {string} sep */
const forStudent = (sep) => (student === null ? '' : `${sep}student=${encodeURIComponent(student)}`);

let shown = 0;
/** @param {boolean} [more] */
async function loadGames(more = false) {
  if (!more) { shown = 0; $('games').replaceChildren(); }
  $('whose').classList.toggle('hidden', student === null);
  $('whose').textContent = student === null ? '' : `${student}'s games, as she shares them with you.`;
  /** @type {{ records: GameRecord[], total: number } | undefined} */
  const r = await work(() => call('GET', `/api/records?offset=${shown}&limit=${PAGE}${forStudent('&')}`));
  if (!r) return;
  for (const rec of r.records) $('games').append(gameItem(rec));
  shown += r.records.length;
  $('games-note').textContent = r.total === 0 ? 'No finished games yet: play one at the practice table.' : `${r.total} finished game${r.total === 1 ? '' : 's'}.`;
  $('more').classList.toggle('hidden', shown >= r.total);
}

/** Her progress (or her student's): the sentences, the chart, and the numbers behind a Details toggle. */
/** The words of a drill's kind, as her progress names them. */
const KIND_PLURAL = /** @type {Record<string, string>} */ ({
  charleston: 'Passes in the Charleston',
  courtesy: 'The second Charleston and the courtesy',
  discard: 'Discards',
  claims: 'Calls',
  call: 'Calls',
  exchange: 'Joker exchanges',
  hand: 'Choosing a hand',
  safe: 'Safe or risky tiles',
  dead: 'Dead hands',
  score: 'Scoring',
});

/**
 * Her drills (her own progress only): each kind's mistakes from her games, how many are due,
 * and how she answers them, with a bar of her right answers; her streak on this device.
 */
async function loadDrillProgress() {
  const box = $('drill-progress');
  if (student !== null) { box.classList.add('hidden'); return; }
  /** @type {{ kinds: { kind: string, mistakes: number, due: number, answered: number, right: number }[] } | undefined} */
  const mine = await work(() => call('GET', '/api/drills/mine'));
  /** @type {{ kinds?: Record<string, { right: number, tried: number }>, streak?: number, best?: number }} */
  let tally = {};
  try { tally = JSON.parse(localStorage.getItem('tilemate-drills') ?? '{}'); } catch { tally = {}; }
  const rows = ['charleston', 'courtesy', 'discard', 'claims', 'exchange', 'hand', 'safe', 'dead', 'score'].map((kind) => {
    const m = mine?.kinds.find((k) => k.kind === kind) ?? { mistakes: 0, due: 0, answered: 0, right: 0 };
    const t = tally.kinds?.[kind === 'claims' ? 'call' : kind] ?? { right: 0, tried: 0 };
    return { kind, mistakes: m.mistakes, due: m.due, answered: m.answered + t.tried, right: m.right + t.right };
  }).filter((r) => r.mistakes > 0 || r.answered > 0);
  box.classList.toggle('hidden', rows.length === 0);
  $('drill-kinds').replaceChildren(...rows.map((r) => {
    const li = document.createElement('li');
    const words = [
      r.mistakes > 0 ? `${r.mistakes} mistake${r.mistakes === 1 ? '' : 's'} from your games to practise${r.due > 0 ? `, ${r.due} due today` : ''}` : '',
      r.answered > 0 ? `${r.right} right of ${r.answered} answered` : 'none answered yet',
    ].filter(Boolean).join('; ');
    li.append(`${KIND_PLURAL[r.kind]}: ${words}. `);
    if (r.answered > 0) {
      const bar = Object.assign(document.createElement('meter'), { min: 0, max: r.answered, value: r.right, className: 'drill-meter' });
      bar.setAttribute('aria-label', `${KIND_PLURAL[r.kind]}: ${r.right} right of ${r.answered}`);
      li.append(bar);
    }
    return li;
  }));
  $('drill-streak').textContent = (tally.best ?? 0) > 0 ? `Drills on this device: ${tally.streak ?? 0} right in a row now, ${tally.best} at best.` : '';
}

/** Her club rating across the server's events (her own only; a guest has none), in its sentence. */
async function loadClubRating() {
  const line = $('club-rating');
  if (student !== null) { line.classList.add('hidden'); return; }
  /** @type {{ rated: boolean, words: string, mexicanTrain?: { rated: boolean, words: string } } | null} */
  let r = null;
  try { r = await call('GET', '/api/ratings/me'); } catch { r = null; }
  const words = [r?.rated ? r.words : '', r?.mexicanTrain?.rated ? r.mexicanTrain.words : ''].filter((w) => w);
  line.textContent = words.join(' ');
  line.classList.toggle('hidden', words.length === 0);
}

/**
 * The events that ask for her account (a director named it for a player): each in its sentence,
 * to accept or decline; nothing of an event counts in her rating before she accepts (issue 63).
 */
async function loadEventAsks() {
  const list = $('event-asks');
  if (student !== null) { list.classList.add('hidden'); return; }
  /** @type {{ asks: { code: string, event: string, player: string, name: string, words: string }[] } | null} */
  let r = null;
  try { r = await call('GET', '/api/events/asks'); } catch { r = null; }
  const asks = r?.asks ?? [];
  /** @param {{ code: string, player: string }} a @param {boolean} accept @param {HTMLLIElement} li */
  const answer = async (a, accept, li) => {
    try {
      const done = await call('POST', `/api/events/${a.code}/consent`, { player: a.player, accept });
      li.replaceChildren(done.words);
      await loadClubRating();
    } catch (err) {
      li.append(` Not answered: ${errorWords(err)}.`);
    }
  };
  list.replaceChildren(...asks.map((a) => {
    const li = document.createElement('li');
    const button = (/** @type {string} */ text, /** @type {boolean} */ accept) => Object.assign(document.createElement('button'), { type: 'button', className: 'btn btn-small', textContent: text, onclick: () => answer(a, accept, li) });
    li.append(`${a.words} `, button('Accept', true), ' ', button('Decline', false));
    return li;
  }));
  list.classList.toggle('hidden', asks.length === 0);
}

async function loadProgress() {
  /**
   * @type {{
   *   said: string[], games: number, reviewed: number,
   *   habits: { kind: string, mistakes: number, example: { chosen?: string, suggested: string, why: string } }[],
   *   weeks: { week: string, game: string, against: string, games: number, winShare: number, meanScore: number }[],
   * } | undefined}
   */
  const p = await work(() => call('GET', `/api/progress${forStudent('?')}`));
  await loadDrillProgress();
  await loadClubRating();
  // beside the progress, never holding it up
  void loadEventAsks();
  if (!p) return;
  $('progress-title').textContent = student === null ? 'My progress' : `${student}'s progress`;
  $('said').replaceChildren(...p.said.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  for (const h of p.habits.slice(0, 3)) {
    if (!h.example.chosen) continue;
    const li = document.createElement('li');
    li.textContent = `A costly habit in ${h.kind === 'call' ? 'calls' : h.kind === 'discard' ? 'discards' : 'the Charleston'} (${h.mistakes} time${h.mistakes === 1 ? '' : 's'}): for example, ${student === null ? "you" : student} chose to ${plain(h.example.chosen)} where it was better to ${plain(h.example.suggested)}. ${plain(h.example.why)}`;
    $('said').append(li);
  }
  const chart = /** @type {HTMLImageElement} */ ($('chart'));
  chart.classList.toggle('hidden', p.games === 0);
  if (p.games > 0) {
    chart.alt = `Chart of ${p.said.join(' ')}`;
    // a phone gets the chart drawn for its width, its words as big as the page's small print
    const size = matchMedia('(max-width: 700px)').matches ? '&size=phone' : '';
    chart.src = `/api/progress/chart.svg?v=${p.games}-${p.reviewed}${size}${forStudent('&')}`;
  }
  // the numbers, built as elements (names from a record are text, never markup)
  const box = $('progress-numbers');
  if (p.weeks.length === 0) { box.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'No games yet.' })); return; }
  const table = document.createElement('table');
  table.className = 'numbers';
  /** @type {(cells: (string | number)[], tag: 'th' | 'td') => HTMLTableRowElement} */
  const row = (cells, tag) => { const tr = document.createElement('tr'); for (const c of cells) tr.append(Object.assign(document.createElement(tag), { textContent: String(c) })); return tr; };
  table.append(Object.assign(document.createElement('caption'), { textContent: 'Week by week' }));
  const head = document.createElement('thead');
  head.append(row(['week of', 'game', 'bots', 'games', 'won', 'mean score'], 'th'));
  const body = document.createElement('tbody');
  for (const w of p.weeks) body.append(row([w.week, gameWords(w.game), w.against, w.games, `${w.winShare}%`, w.meanScore], 'td'));
  table.append(head, body);
  box.replaceChildren(table);
}

/** @param {Me} me */
async function loadCoaches(me) {
  $('coach-panel').classList.toggle('hidden', !me.signedIn);
  if (!me.signedIn) return;
  /** @type {[{ coaches: { name: string }[] } | undefined, { students: { name: string }[] } | undefined]} */
  const [coaches, students] = await Promise.all([work(() => call('GET', '/api/coach/coaches')), work(() => call('GET', '/api/coach/students'))]);
  $('my-coaches').replaceChildren(...(coaches?.coaches ?? []).map((c) => {
    const li = document.createElement('li');
    const stop = button(`Stop sharing with ${c.name}`, async () => { if (await work(() => call('DELETE', `/api/coach/coaches/${encodeURIComponent(c.name)}`))) await loadCoaches(me); });
    li.append(`${c.name} sees your games. `, stop);
    return li;
  }));
  $('my-students').replaceChildren(...(students?.students ?? []).map((st) => {
    const li = document.createElement('li');
    const open = button(student === st.name ? 'Back to my own games' : `See ${st.name}'s games`, async () => { student = student === st.name ? null : st.name; await loadCoaches(me); await loadProgress(); await loadGames(); });
    li.append(open);
    return li;
  }));
  await loadGivenDrills(students?.students ?? []);
}

const DRILL_KINDS = /** @type {Record<string, string>} */ ({ charleston: 'pass three in the Charleston', discard: 'choose a discard', call: 'call or let it go' });

/**
 * A coach's drills for her students: the form that gives them, and each set given with how
 * the student has answered it so far.
 * @param {{ name: string }[]} students
 */
async function loadGivenDrills(students) {
  $('give-drills').classList.toggle('hidden', students.length === 0);
  if (students.length === 0) return;
  const select = /** @type {HTMLSelectElement} */ ($('drill-student'));
  const chosen = select.value;
  select.replaceChildren(...students.map((st) => new Option(st.name, st.name)), ...(students.length > 1 ? [new Option('Every student', '')] : []));
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  /** @type {{ sets: { student: string, kind: string, level: number, seeds: number[], answers: Record<string, boolean>, createdAt: string }[] } | undefined} */
  const given = await work(() => call('GET', '/api/coach/drills'));
  $('given-drills').replaceChildren(...(given?.sets ?? []).map((s) => {
    const done = Object.keys(s.answers).length;
    const right = Object.values(s.answers).filter(Boolean).length;
    const day = new Date(s.createdAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long' });
    const li = document.createElement('li');
    li.textContent = `${s.student}: ${s.seeds.length} drill${s.seeds.length === 1 ? '' : 's'} to ${DRILL_KINDS[s.kind] ?? s.kind}, level ${s.level}, given ${day}. ${done === 0 ? 'Not started yet.' : `${done} answered, ${right} right.`}`;
    return li;
  }));
}

async function refresh() {
  $('invite-code').textContent = ''; // a code is for the one who made it, not whoever signs in next
  const me = await work(() => call('GET', '/api/me'));
  if (me) { showMe(me); if (!me.signedIn) student = null; await loadCoaches(me); }
  await loadProgress();
  await loadGames();
}

$('give-button').addEventListener('click', async () => {
  const name = /** @type {HTMLSelectElement} */ ($('drill-student')).value;
  const body = {
    ...(name === '' ? { everyone: true } : { student: name }),
    kind: /** @type {HTMLSelectElement} */ ($('drill-kind')).value,
    level: Number(/** @type {HTMLSelectElement} */ ($('drill-level')).value),
    count: Number(/** @type {HTMLInputElement} */ ($('drill-count')).value),
  };
  const r = await work(() => call('POST', '/api/coach/drills', body));
  if (r) {
    say(`${name === '' ? 'Every student has' : `${name} has`} the drills now, on her Lessons and drills page.`, true);
    /** @type {{ students: { name: string }[] } | undefined} */
    const students = await work(() => call('GET', '/api/coach/students'));
    await loadGivenDrills(students?.students ?? []);
  }
});
$('invite').addEventListener('click', async () => {
  const r = await work(() => call('POST', '/api/coach/invite'));
  if (r) $('invite-code').textContent = `Your code: ${r.code}. Give it to your coach; it works once, for a week.`;
});
$('take-code').addEventListener('click', async () => {
  const r = await work(() => call('POST', '/api/coach/students', { code: /** @type {HTMLInputElement} */ ($('student-code')).value }));
  if (r) { /** @type {HTMLInputElement} */ ($('student-code')).value = ''; say(`${r.student} shares her games with you now.`, true); await refresh(); }
});

$('sign-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  say('');
  const me = await work(() => call('POST', '/api/session', { name: /** @type {HTMLInputElement} */ ($('name')).value.trim(), password: /** @type {HTMLInputElement} */ ($('password')).value }));
  if (me) { /** @type {HTMLInputElement} */ ($('password')).value = ''; await refresh(); }
});
$('sign-up').addEventListener('click', async () => {
  say('');
  if (!/** @type {HTMLFormElement} */ ($('sign-form')).reportValidity()) return;
  const me = await work(() => call('POST', '/api/account', { name: /** @type {HTMLInputElement} */ ($('name')).value.trim(), password: /** @type {HTMLInputElement} */ ($('password')).value }));
  if (me) { /** @type {HTMLInputElement} */ ($('password')).value = ''; say('Your account is made: the games you played on this device are in it.', true); await refresh(); }
});
$('sign-out').addEventListener('click', async () => {
  say('');
  if (await work(() => call('DELETE', '/api/session'))) await refresh();
});
$('password-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const ok = await work(() => call('PUT', '/api/account/password', { old: /** @type {HTMLInputElement} */ ($('old-password')).value, password: /** @type {HTMLInputElement} */ ($('new-password')).value }));
  if (ok) { /** @type {HTMLInputElement} */ ($('old-password')).value = ''; /** @type {HTMLInputElement} */ ($('new-password')).value = ''; say('Your password is changed; your other devices are signed out.', true); }
});
$('more').addEventListener('click', () => loadGames(true));

refresh();
