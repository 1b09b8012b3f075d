// "Which hand should I chase?": a rack built by tapping tiles, the card lines closest to it
// (POST /api/analyze), and advice for the moment at the table (/api/charleston, /api/vote,
// /api/courtesy, /api/advice). Everything the page shows is kept in its address, so a rack
// can be shared and reloaded.

import { checkChosen, chooseCard as keepCard, startingCard } from './chosen-card.js';
import { errorWords } from './client.js';
import { byId as $ } from './dom.js';
import { call } from './offline.js'; // the server, or this tablet with no connection
import { lineElement, LEGEND, pageTile } from './lines.js';
import { sortTiles, TILE_ORDER, tileLabel, tilesInWords, tilesLabel } from './tiles.js';

/**
 * Copies of each tile in the set (engine/mah-jongg/tiles.ts): four of each, eight flowers and eight jokers.
 * @param {string} t
 */
const copies = (t) => (t === 'F' || t === 'J' ? 8 : 4);
/** Most tiles on one rack: East's 14 (concealed and exposed together). */
const RACK_MAX = 14;
/** Lines listed: as many as a player scans. */
const TOP = 8;
/** Simulated deals for the chances (the advice plays the server's one budget, with the seed drawn from the moment, as the in-game hint does). */
const DEALS = 200;

/** @import { AnalysisLine, Tile } from './types.js' */

/**
 * What the page is asked about: her rack (concealed and exposed), the tiles she has seen, the
 * moment of the game (and its direction, blind pass, the discard and who threw it), the card.
 * @typedef {{ hand: Tile[], exposed: Tile[][], seen: Tile[], moment: string, dir: string, blind: boolean, tile: Tile | null, from: string, card: string }} State
 */

/** The analyzer's answer (POST /api/analyze), with the chances when simulated, or the error shown in its place. @typedef {{ results: (AnalysisLine & { chance?: number, expectedScore?: number })[], simulation?: { deals: number }, error?: undefined } | { error: string, results?: undefined, simulation?: undefined }} Analysis */

/** @type {State} */
const state = {
  hand: [],
  /** Exposed groups, each a list of tiles; the last one takes tapped tiles. */
  exposed: [],
  seen: [],
  moment: 'charleston',
  dir: 'right',
  blind: false,
  /** The discard to call, and who threw it. */
  tile: null,
  from: 'left',
  /** A saved card's name (api/http/routes/cards.ts); '' for the server's card. */
  card: '',
};
/**
 * The chosen saved card's text, sent with every request (the API takes a card as text).
 * @type {string | null}
 */
let cardText = null;

let target = 'hand';
/** @type {Analysis | null} */
let analysis = null;
/** @type {Analysis | null} */
let chances = null;

// ---------------------------------------------------------------- the address

/** @param {Tile[][]} groups */
const groupsText = (groups) => groups.filter((g) => g.length).map((g) => g.join(' ')).join('; ');

function toUrl() {
  const q = new URLSearchParams();
  if (state.hand.length) q.set('hand', state.hand.join(' '));
  const ex = groupsText(state.exposed);
  if (ex) q.set('exposed', ex);
  if (state.seen.length) q.set('seen', state.seen.join(' '));
  q.set('moment', state.moment);
  if (state.moment === 'charleston') { q.set('dir', state.dir); if (state.blind) q.set('blind', '1'); }
  if (state.moment === 'call') { if (state.tile) q.set('tile', state.tile); q.set('from', state.from); }
  if (state.card) q.set('card', state.card);
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

/** @param {string | null} text */
const tilesOf = (text) => (text ?? '').split(/\s+/).filter((t) => TILE_ORDER.includes(t));

function fromUrl() {
  const q = new URLSearchParams(location.search);
  state.hand = sortTiles(tilesOf(q.get('hand'))).slice(0, RACK_MAX);
  state.exposed = (q.get('exposed') ?? '').split(';').map(tilesOf).filter((g) => g.length).slice(0, 4);
  state.seen = sortTiles(tilesOf(q.get('seen'))).slice(0, 140);
  /** @type {(v: string | null, allowed: string[], dflt: string) => string} */
  const pick = (v, allowed, dflt) => (v !== null && allowed.includes(v) ? v : dflt);
  state.moment = pick(q.get('moment'), ['charleston', 'vote', 'courtesy', 'discard', 'call'], 'charleston');
  state.dir = pick(q.get('dir'), ['right', 'across', 'left'], 'right');
  state.blind = q.get('blind') === '1';
  state.tile = tilesOf(q.get('tile'))[0] ?? null;
  state.from = pick(q.get('from'), ['right', 'across', 'left'], 'left');
  // the card named by the address, else the one she chose for every page (chosen-card.js)
  state.card = startingCard(location.search);
}

/** The saved cards in the Card list; the chosen one's text fetched. */
async function loadCards() {
  const select = $('card');
  try {
    const r = await call('GET', '/api/cards');
    for (const c of r.cards) {
      const o = document.createElement('option');
      o.value = c.name;
      o.textContent = `${c.title} (${c.name})`;
      select.append(o);
    }
    const kept = checkChosen(state.card, r.cards, r.chosen);
    if (kept.note) say(kept.note);
    state.card = kept.name;
  } catch { /* the practice card still works */ }
  await chooseCard(state.card);
}

/** @param {string} name */
async function chooseCard(name) {
  state.card = name;
  cardText = null;
  if (name) {
    try {
      cardText = (await call('GET', `/api/cards/${encodeURIComponent(name)}`)).text;
    } catch (err) {
      say(`The card ${name} could not be opened (${errorWords(err)}); the practice card is used instead.`);
      state.card = '';
    }
  }
  /** @type {HTMLSelectElement} */ ($('card')).value = state.card;
  analysisKey = '';
}

/** The card for a request: the chosen saved card's text, or nothing (the server's card). */
/**
 * @template {object} B
 * @param {B} b
 */
const withCard = (b) => (cardText === null ? b : { ...b, card: cardText });

// ---------------------------------------------------------------- building the rack

const rackSize = () => state.hand.length + state.exposed.reduce((n, g) => n + g.length, 0);
/** @param {Tile} t */
const held = (t) => [...state.hand, ...state.exposed.flat(), ...state.seen, ...(state.tile ? [state.tile] : [])].filter((x) => x === t).length;

/** @param {string} text */
function say(text) { $('pick-message').textContent = text; }

/** @param {Tile} t */
function add(t) {
  if (held(t) >= copies(t)) return say(`There are only ${copies(t)} of ${tileLabel(t)} in the set, and all of them are on this page already.`);
  if (target === 'hand' || target === 'exposed') {
    if (rackSize() >= RACK_MAX) return say('A rack holds at most 14 tiles. Tap a tile on your rack to take it back first.');
  }
  if (target === 'hand') state.hand = sortTiles([...state.hand, t]);
  else if (target === 'exposed') {
    if (!state.exposed.length) state.exposed.push([]);
    const g = state.exposed[state.exposed.length - 1];
    // an exposure is a group of one tile with jokers (engine/mah-jongg/analyzer.ts): naturals first, then jokers
    if (t !== 'J' && g.some((x) => x !== 'J' && x !== t)) return say('An exposed group is all one tile (jokers may stand in). Press "Start another group" for a new one.');
    state.exposed[state.exposed.length - 1] = [...g, t].sort((a, b) => Number(a === 'J') - Number(b === 'J'));
  } else if (target === 'seen') state.seen = sortTiles([...state.seen, t]);
  else state.tile = t;
  say('');
  changed();
}

/**
 * @param {string} where
 * @param {number} index
 * @param {number} [group]
 */
function removeAt(where, index, group) {
  if (where === 'hand') state.hand.splice(index, 1);
  else if (where === 'seen') state.seen.splice(index, 1);
  else if (where === 'exposed') {
    state.exposed[group ?? 0].splice(index, 1);
    state.exposed = state.exposed.filter((g, i) => g.length || i === state.exposed.length - 1);
  } else state.tile = null;
  changed();
}

function drawPicker() {
  const box = $('picker');
  /** @type {[string, Tile[]][]} */
  const rows = [['Bams', TILE_ORDER.slice(0, 9)], ['Craks', TILE_ORDER.slice(9, 18)], ['Dots', TILE_ORDER.slice(18, 27)], ['Winds, dragons, flower and joker', TILE_ORDER.slice(27)]];
  for (const [i, [name, tiles]] of rows.entries()) {
    const label = document.createElement('span');
    label.className = 'row-name';
    label.textContent = name;
    label.setAttribute('aria-hidden', 'true');
    const row = document.createElement('div');
    row.className = `tile-row pick-row${i < 3 ? ' suit' : ''}`;
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', name);
    for (const t of tiles) {
      const b = pageTile(t, { button: true });
      b.addEventListener('click', () => add(t));
      row.append(b);
    }
    box.append(label, row);
  }
}

/**
 * @param {string} where
 * @param {Tile[]} tiles
 * @param {number} [group]
 */
function tileButtons(where, tiles, group) {
  return tiles.map((t, i) => {
    const b = pageTile(t, { button: true, markLabel: 'tap to take it back' });
    b.dataset.where = where;
    b.addEventListener('click', () => removeAt(where, i, group));
    return b;
  });
}

function drawRack() {
  const n = rackSize();
  $('rack-count').textContent = n === 1 ? '(1 tile)' : `(${n} tiles)`;
  $('hand').replaceChildren(...tileButtons('hand', state.hand));
  if (!state.hand.length) $('hand').append(emptyNote('Tap tiles above to put them on your rack.'));
  $('exposed').replaceChildren(...state.exposed.filter((g) => g.length).map((g, gi) => {
    const box = document.createElement('span');
    box.className = 'group';
    box.append(...tileButtons('exposed', g, gi));
    return box;
  }));
  if (!state.exposed.some((g) => g.length)) $('exposed').append(emptyNote('None.'));
  $('seen').replaceChildren(...tileButtons('seen', state.seen));
  if (!state.seen.length) $('seen').append(emptyNote('None yet.'));
  $('call-tile').replaceChildren(...(state.tile ? [document.createTextNode('The discard: '), ...tileButtons('tile', [state.tile])] : [document.createTextNode('Choose "The discard I might call" above, then tap the tile.')]));
}

/** @param {string} text */
function emptyNote(text) {
  const p = document.createElement('span');
  p.className = 'empty';
  p.textContent = text;
  return p;
}

// ---------------------------------------------------------------- the moment

function drawMoment() {
  /** @type {HTMLSelectElement} */ ($('moment')).value = state.moment;
  /** @type {HTMLSelectElement} */ ($('direction')).value = state.dir;
  /** @type {HTMLInputElement} */ ($('blind')).checked = state.blind;
  /** @type {HTMLSelectElement} */ ($('from')).value = state.from;
  $('charleston-options').classList.toggle('hidden', state.moment !== 'charleston');
  $('call-options').classList.toggle('hidden', state.moment !== 'call');
  $('target-tile-choice').classList.toggle('hidden', state.moment !== 'call');
  if (state.moment !== 'call' && target === 'tile') setTarget('hand');
}

/** @param {string} t */
function setTarget(t) {
  target = t;
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="target"]'))) r.checked = r.value === t;
}

const body = () => ({ hand: state.hand.join(' '), exposed: groupsText(state.exposed), seen: state.seen.join(' ') });

/** What the moment needs before advice can be asked, in words; null when ready. */
function missingForAdvice() {
  const n = rackSize();
  const exposed = state.exposed.some((g) => g.length);
  if (state.moment === 'charleston' || state.moment === 'vote' || state.moment === 'courtesy') {
    if (exposed) return 'Nobody has exposed tiles before play starts: take the exposed tiles back first.';
    if (n < 13) return `Put ${13 - n} more tile${13 - n === 1 ? '' : 's'} on your rack (13, or 14 for East).`;
    return null;
  }
  if (state.moment === 'discard') return n === 14 ? null : `On your turn to discard you hold 14 tiles; this rack has ${n}.`;
  if (n !== 13) return `When someone else discards you hold 13 tiles; this rack has ${n}.`;
  if (!state.tile) return 'Choose the discard you might call: pick "The discard I might call", then tap the tile.';
  return null;
}

async function advise() {
  const box = $('advice');
  const missing = missingForAdvice();
  if (missing) { box.replaceChildren(para(missing)); return; }
  busy(true);
  box.replaceChildren(para('Working it out...'));
  try {
    /** @type {string} */
    let words;
    /** @type {string} */
    let details;
    let note = '';
    /** @type {Tile[]} */
    let tiles = [];
    if (state.moment === 'charleston') {
      const a = await call('POST', '/api/charleston', withCard({ hand: state.hand.join(' '), direction: state.dir, blind: state.blind }));
      const to = state.dir === 'across' ? 'across' : `to the ${state.dir}`;
      const blind = a.blind > 0 ? `, and pass ${a.blind} of the tiles you receive on without looking at them (a blind pass)` : '';
      words = a.pass.length ? `Pass ${tilesLabel(a.pass)} ${to}${blind}.` : `Pass the ${a.blind} tiles you receive on ${to} without looking at them (a blind pass).`;
      details = a.why;
      // the plan: the family the pass keeps her on and why, true of the lines kept (agents/mah-jongg/advice.ts charlestonPlan)
      note = a.plan?.family ? a.plan.text : '';
      tiles = a.pass;
    } else if (state.moment === 'vote') {
      const a = await call('POST', '/api/vote', withCard({ hand: state.hand.join(' ') }));
      // the advice's own sentence, as the hint in a game says it
      words = tilesInWords(a.why);
      details = `Closest line ${a.tilesAwayNow} tiles away now; ${a.expectedAway} on average after three more passes.`;
    } else if (state.moment === 'courtesy') {
      const a = await call('POST', '/api/courtesy', withCard({ hand: state.hand.join(' ') }));
      words = tilesInWords(a.why);
      details = `Closest line ${a.tilesAwayNow} tiles away now; ${a.expectedAway} on average after the exchange.`;
      tiles = a.offer;
    } else {
      // no worlds and no seed: the server's one budget and the seed drawn from the moment, so the answer is the in-game hint's
      const q = { question: state.moment, ...body() };
      if (state.moment === 'call') Object.assign(q, { tile: state.tile, from: state.from });
      const a = await call('POST', '/api/advice', withCard(q));
      ({ words, note, tiles } = decisionWords(a));
      details = tilesInWords(a.details);
    }
    box.replaceChildren(adviceElement(words, note, tiles, details));
  } catch (err) {
    box.replaceChildren(para(`The advice could not be worked out: ${errorWords(err)}`));
  } finally {
    busy(false);
  }
}

/**
 * A decision's advice: the advice's own plain sentence and reason (the in-game hint's words),
 * the suggestion always the best of the figures under Details; options the deals cannot tell
 * apart are said to be about as good in that sentence.
 * @param {{ alternatives: { move: { type: string, tile?: Tile } }[], plain: string, why: string }} a
 * @returns {{ words: string, note: string, tiles: Tile[] }}
 */
function decisionWords(a) {
  const best = a.alternatives[0];
  const tiles = best.move.type === 'discard' && best.move.tile ? [best.move.tile] : [];
  return { words: tilesInWords(a.plain), note: tilesInWords(a.why), tiles };
}

/**
 * @param {string} words
 * @param {string} note
 * @param {Tile[]} tiles
 * @param {string} details
 */
function adviceElement(words, note, tiles, details) {
  const box = document.createElement('div');
  box.className = 'advice-box';
  const p = para(words);
  p.className = 'advice-do';
  box.append(p);
  if (note) box.append(para(note));
  if (tiles.length) {
    const row = document.createElement('div');
    row.className = 'tile-row';
    row.append(...tiles.map((t) => pageTile(t)));
    box.append(row);
  }
  box.append(detailsElement('Details', details));
  return box;
}

/**
 * @param {string} summary
 * @param {string} text
 */
function detailsElement(summary, text) {
  const d = document.createElement('details');
  const s = document.createElement('summary');
  s.textContent = summary;
  const p = document.createElement('p');
  p.textContent = text;
  d.append(s, p);
  return d;
}

/** @param {string} text */
function para(text) {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}

// ---------------------------------------------------------------- the lines

let analysisKey = '';

async function analyze() {
  const n = rackSize();
  const key = JSON.stringify(withCard(body()));
  if (n < 13) {
    analysis = null;
    chances = null;
    analysisKey = '';
    $('lines-note').textContent = `Put ${13 - n} more tile${13 - n === 1 ? '' : 's'} on your rack to see the lines (13 tiles, or 14 for East).`;
    $('lines').replaceChildren();
    /** @type {HTMLButtonElement} */ ($('chances')).disabled = true;
    return;
  }
  if (key === analysisKey) return drawLines();
  analysisKey = key;
  chances = null;
  busy(true);
  try {
    analysis = await call('POST', '/api/analyze', withCard({ ...body(), top: TOP }));
  } catch (err) {
    analysis = { error: errorWords(err) };
  } finally {
    busy(false);
  }
  drawLines();
}

async function workOutChances() {
  busy(true);
  try {
    chances = await call('POST', '/api/analyze', withCard({ ...body(), top: TOP, simulate: DEALS }));
  } catch (err) {
    chances = { error: errorWords(err) };
  } finally {
    busy(false);
  }
  drawLines();
}

function drawLines() {
  const box = $('lines');
  /** @type {HTMLButtonElement} */ ($('chances')).disabled = !analysis || !!analysis.error;
  if (!analysis) return;
  if (analysis.error) {
    $('lines-note').textContent = `These tiles cannot be read: ${analysis.error}`;
    box.replaceChildren();
    return;
  }
  const results = /** @type {NonNullable<Analysis['results']>} */ (analysis.results);
  const best = results.find((r) => r.possible);
  $('lines-note').textContent = !best ? 'No line of the card can be made with these tiles any more.'
    : best.tilesAway === 0 ? `You have Mah Jongg: ${best.id}!`
      : `Your closest line is ${best.id}, ${best.tilesAway} tile${best.tilesAway === 1 ? '' : 's'} away.`;
  const byId = new Map((chances?.results ?? []).map((r) => [r.id, r]));
  const deals = chances?.simulation?.deals;
  box.replaceChildren(LEGEND(), ...results.map((r) => lineElement(r, byId.has(r.id) ? { ...byId.get(r.id), deals } : undefined, chances?.error)));
}

// ---------------------------------------------------------------- wiring

/** Requests under way: body[data-busy] counts them (the browser tests wait on it). */
let waiting = 0;

/** @param {boolean} on */
function busy(on) {
  waiting += on ? 1 : -1;
  document.body.dataset.busy = String(waiting);
}

function changed() {
  toUrl();
  drawRack();
  drawMoment();
  $('advice').replaceChildren();
  analyze();
}

drawPicker();
fromUrl();
await loadCards();
for (const r of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="target"]'))) r.addEventListener('change', () => { if (r.checked) target = r.value; });
$('new-group').addEventListener('click', () => {
  if (state.exposed.length && !state.exposed[state.exposed.length - 1].length) return;
  state.exposed.push([]);
  setTarget('exposed');
});
$('clear').addEventListener('click', () => { Object.assign(state, { hand: [], exposed: [], seen: [], tile: null }); changed(); });
$('moment').addEventListener('change', () => { state.moment = /** @type {HTMLSelectElement} */ ($('moment')).value; changed(); });
$('direction').addEventListener('change', () => { state.dir = /** @type {HTMLSelectElement} */ ($('direction')).value; changed(); });
$('blind').addEventListener('change', () => { state.blind = /** @type {HTMLInputElement} */ ($('blind')).checked; changed(); });
$('from').addEventListener('change', () => { state.from = /** @type {HTMLSelectElement} */ ($('from')).value; changed(); });
$('advise').addEventListener('click', advise);
$('card').addEventListener('change', async () => { keepCard(/** @type {HTMLSelectElement} */ ($('card')).value); await chooseCard(/** @type {HTMLSelectElement} */ ($('card')).value); changed(); });
$('chances').addEventListener('click', workOutChances);
changed();
