// The practice table: one screen for a game against bots. Plain ES modules, no build step.
// The server holds the game and answers with this seat's view and its legal actions; the
// page shows them and sends what the person chooses. Nothing here decides a rule: the
// buttons are the legal actions the server lists, no more.

import { api, call, errorWords } from './client.js';
import { cardWords, checkChosen, startingCard } from './chosen-card.js';
import { $ as find } from './dom.js';
import { LiveGame } from './live-game.js';
import { placeOf, placeWords } from './names.js';
import { blindChoice, receivedWords, sortTiles, tileElement, tileLabel, tilesInWords, tilesLabel } from './tiles.js';
import { renderCard } from './card.js';
import { renderEnd } from './end.js';
import { setupDisplay, undoSeconds } from './display.js';

/** @import { Action, ActionOf, Exposure, GameAnswer, GameEvent, Hint, Phase, Review, SavedCard, Tile } from './types.js' */

/**
 * The game answer's view as the page uses it (normalise): every seat's lists side by side, the
 * Charleston's pass and direction from the prompt, and the legal actions.
 * @typedef {{
 *   watching: boolean,
 *   seat: number,
 *   players: number,
 *   phase: Phase,
 *   turn: number,
 *   wallLeft: number,
 *   waitingOn?: number[],
 *   claim?: { tile: Tile, discarder: number } | null,
 *   turnFrom?: { from: string },
 *   result?: import('./types.js').GameResult | null,
 *   mahJonggs?: import('./types.js').DeclaredMahJongg[],
 *   rack: Tile[],
 *   legal: Action[],
 *   names: string[],
 *   recordId: string | null,
 *   discards: Tile[][],
 *   exposures: Exposure[][],
 *   concealedCounts: number[],
 *   dead: boolean[][],
 *   partner?: number,
 *   pass?: number,
 *   passDir?: 'right' | 'across' | 'left',
 *   charleston?: 'first' | 'second',
 *   blindAllowed?: boolean,
 * }} View
 */

/**
 * A pass she made, kept until it is over (noteReceived): the step it was made at, her rack
 * before it, and the action sent.
 * @typedef {{ phase: Phase, pass?: number, partner?: number, before: Tile[], action: import('./types.js').ActionOf<'pass' | 'courtesy'> }} Passing
 */

/**
 * Everything one table knows; only render() writes the screen.
 * @typedef {{
 *   view: View | null,
 *   selected: number[],
 *   blind: number,
 *   hint: Hint | null,
 *   hintKey: string | null,
 *   cardOpen: boolean,
 *   card: unknown,
 *   cardKey: string | null,
 *   message: string,
 *   log: string[],
 *   drawn: Tile | null,
 *   drawnBefore: Tile | null,
 *   review: Review | null,
 *   received: string,
 *   offers: { [seat: number]: number, mine?: Tile[] },
 *   dead: string,
 *   note: string,
 *   passing: Passing | null,
 *   lastDiscard: { tile: Tile, seat: number } | null,
 *   warnedFor: string | null,
 *   follow: Action | null,
 * }} Ui
 */

/**
 * How dangerous a discard is (GET /defence), with the question asked once before a dangerous one.
 * @typedef {{ tile: Tile, level: string, why: string, warning?: string }} Danger
 */

/**
 * What the page around the drawing says about the seats (createMahJonggTable).
 * @typedef {{
 *   seatWords?: (seat: number) => string | null | undefined,
 *   seatFacts?: (seat: number) => string,
 *   waitingShown?: boolean,
 *   card?: boolean,
 *   pushed?: boolean,
 *   undoSeconds?: () => number,
 * }} SeatHooks
 */

/** @type {Record<number, string>} */
const GROUP = { 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' };
/** @type {Record<string, string>} */
const DIRECTION_WORDS = { right: 'to the right', across: 'across', left: 'to the left' };
/** The moves made by choosing tiles on the rack first, then pressing the main button. */
const TILE_CHOICES = new Set(['pass', 'courtesy', 'discard']);

// ---------------------------------------------------------------- seats and words

const WINDS = ['East', 'South', 'West', 'North'];

/**
 * The seat's wind: East deals, and the winds follow the turn (three players: East, South, West).
 * @param {number} seat
 */
function seatWind(seat) {
  return WINDS[seat] ?? '';
}

/** @param {View} v */
function passDirection(v) {
  return v.passDir ?? 'right';
}

// ---------------------------------------------------------------- the view from the server

/**
 * How many of `tile` a rack holds.
 * @param {readonly Tile[]} rack
 * @param {Tile} tile
 */
const copiesIn = (rack, tile) => rack.filter((t) => t === tile).length;

/**
 * The game answer (docs/api.md: view, legal, events, seats) as the page uses it: per-seat
 * lists side by side, the Charleston's pass and direction from the prompt, the legal
 * actions as the server gave them (they are posted back unchanged).
 * @param {GameAnswer} answer
 * @returns {View}
 */
function normalise(answer) {
  const raw = answer.view;
  const seats = raw.seats ?? [];
  // a spectator or a coach has no seat: she sees the table from East's side, with no rack
  const watching = raw.seat === null || raw.seat === undefined || answer.seat === null;
  /** @type {View} */
  const v = {
    ...raw,
    watching,
    seat: watching ? 0 : /** @type {number} */ (raw.seat),
    rack: sortTiles(raw.rack ?? []),
    legal: answer.legal ?? [],
    names: answer.seats ?? [],
    recordId: answer.recordId ?? null,
    discards: seats.map((s) => s.discards ?? []),
    exposures: seats.map((s) => s.exposures ?? []),
    concealedCounts: seats.map((s) => s.concealedCount ?? 0),
    dead: seats.map((s) => s.dead ?? []),
  };
  const p = raw.prompt ?? { kind: 'wait' };
  if (p.kind === 'courtesy') v.partner = p.partner;
  if (p.kind === 'charleston') {
    v.pass = p.pass;
    v.passDir = p.direction;
    v.charleston = p.charleston;
    v.blindAllowed = p.blindAllowed;
  }
  return v;
}

/**
 * Identifies one decision: a new one clears the selection and the hint.
 * @param {View} v
 */
function decisionKey(v) {
  const blindUpTo = v.legal.find((a) => a.type === 'pass')?.blindUpTo ?? '';
  // whether she is waited on, not who else is: at a table together others pass while she chooses
  return `${v.phase}|${v.pass ?? ''}|${blindUpTo}|${(v.waitingOn ?? []).includes(v.seat)}|${v.turn}|${v.wallLeft}|${v.rack.join(',')}|${v.claim ? `${v.claim.tile}@${v.claim.discarder}` : ''}|${v.discards.map((d) => d.length).join('.')}`;
}

// ---------------------------------------------------------------- defence (issue 29)

/** The bots' level of the game in this tab, kept for a reload. */
const LEVEL_KEY = 'tilemate-level';
/** The levels a learner plays at: before a discard the defence rates dangerous, the page asks once. */
const LEARNER_LEVELS = new Set(['easy', 'medium']);

/**
 * One Mah Jongg table drawn on the page: its own state (`ui`), the game at the server (`live`),
 * and what the page around it says about the seats (`seatHooks`), so that two tables never share
 * a thing. The practice page (practicePage) and a seat of a table together (mahJonggTable)
 * each make one. `live` is the practice page's LiveGame or a table's TableGame (table-game.js).
 * @param {LiveGame} live
 * @param {SeatHooks} [seatHooks]
 * @param {ParentNode} [root] where the table's elements are (the page)
 */
export function createMahJonggTable(live, seatHooks = {}, root = document) {
  if (root instanceof HTMLElement) live.root = root;
  /** @param {string} sel */
  const $ = (sel) => find(sel, root);
  /** A button of the table's, by its selector. @param {string} sel */
  const $button = (sel) => /** @type {HTMLButtonElement} */ (find(sel, root));

  /** Everything the page knows; only render() writes the screen. @type {Ui} */
  const ui = {
    view: null, // the latest view from the server (normalised)
    selected: [], // rack positions chosen (indices into the sorted rack)
    blind: 0, // Charleston: received tiles to pass on unseen
    hint: null, // the latest hint, for this decision only
    hintKey: null, // the decision the hint was for
    cardOpen: false,
    card: null, // the card panel's data for the current rack
    cardKey: null,
    message: '',
    log: [],
    drawn: null, // the tile just drawn, to mark on the rack
    review: null,
    received: '', // the Charleston or courtesy tiles just received, in words
    offers: {}, // the courtesy pass: how many tiles each seat offered (others' offers are face down: a count)
    dead: '', // why the person's hand was called dead: a banner until the game ends
    drawnBefore: null, // the tile marked as drawn before this answer (kept when an answer tells no draw)
    note: '', // a line about the pass (East passes first after an all-blind pass)
    passing: null, // the pass she made, until it is over
    lastDiscard: null, // the last discard told, for the call that takes it
    warnedFor: null, // the discard the defence warned about once
    follow: null, // the hint's choice she asked to be shown: its button outlined, for her to press
  };

  /** The view being drawn: everything below but render() runs only once there is one. */
  const view = () => /** @type {View} */ (ui.view);

  /** @param {number} seat */
  function seatWords(seat) {
    const v = view();
    // at a table together: her name (every seat's, for one watching)
    const named = hooks.seatWords?.(seat);
    if (v.watching) return named ?? `${seatWind(seat)}`;
    const place = placeOf(seat, v.seat, v.players);
    if (place === 'you') return 'You';
    return named ?? placeWords(seat, v.seat, v.players);
  }

  /**
   * Whether a seat is the person's own (never, for one watching the table).
   * @param {number | undefined} seat
   */
  function isMine(seat) {
    return !view().watching && seat === view().seat;
  }

  /**
   * "your" or "Ann’s": whose exposure, hand or discard.
   * @param {number} seat
   */
  function whose(seat) {
    return isMine(seat) ? 'your' : `${seatWords(seat)}\u2019s`;
  }

  /** @param {GameAnswer} answer */
  function setView(answer) {
    const before = ui.view;
    const v = normalise(answer);
    const key = decisionKey(v);
    if (ui.hintKey !== key) { ui.hint = null; ui.hintKey = null; }
    if (!before || decisionKey(before) !== key) { ui.selected = []; ui.blind = 0; ui.follow = null; }
    // a new Charleston (a new deal at a table): no courtesy offers yet
    if (v.phase === 'charleston' || v.phase === 'vote') ui.offers = {};
    // the tile just drawn (the server draws for the person): marked on the rack
    ui.drawn = null;
    if (v.phase === 'discard' && v.turn === v.seat && v.turnFrom?.from === 'wall') {
      const mine = (answer.events ?? []).filter((e) => e.drew !== undefined && e.action.seat === v.seat);
      if (mine.length) ui.drawn = mine[mine.length - 1].drew ?? null;
      // the same turn goes on (an exchange, a refused discard): the tile drawn, while it is still on her rack
      else if (before && before.turn === v.turn && before.phase === 'discard' && ui.drawnBefore && copiesIn(v.rack, ui.drawnBefore) >= copiesIn(before.rack, ui.drawnBefore)) ui.drawn = ui.drawnBefore;
    }
    ui.drawnBefore = ui.drawn;
    // every seat passed blind: the pass comes back to East, who passes first from her own tiles (standardized rules 4.5)
    ui.note = before && before.phase === 'charleston' && v.phase === 'charleston' && before.pass === v.pass && v.legal.length > 0
      ? 'Everyone passed blind, so East must pass first, from her own tiles: choose 3 tiles of yours, none passed on unseen this time.'
      : '';
    ui.view = v;
  }

  /** @param {(string | null)[]} lines */
  function addLog(lines) {
    for (const l of lines) if (l) ui.log.push(l);
    if (ui.log.length > 200) ui.log.splice(0, ui.log.length - 200);
  }

  /**
   * What the page around the drawing says about the seats. The practice page's seats are bots;
   * together.js names the people at the table (`seatWords`: her name, `seatFacts`: a line under
   * it), has no Card panel, asks no review for one watching, and its answers come pushed
   * (`pushed`: the tiles a pass brought are told once everyone has passed).
   * @type {Required<Pick<SeatHooks, 'seatFacts' | 'card' | 'pushed'>> & SeatHooks}
   */
  const hooks = {
    seatFacts: (s) => (view().names[s] ? `${view().names[s]} bot` : 'bot'),
    card: true,
    pushed: false,
    ...seatHooks,
  };

  function showGame() {
    $('#start')?.classList.add('hidden');
    $('#game').classList.remove('hidden');
    $button('#hint-button').disabled = !!ui.view?.watching;
    $button('#card-button').disabled = !hooks.card;
  }

  /** At Mah Jongg or the end of the game: the result in view and in focus (it is read first). */
  function showResult() {
    const end = $('#end');
    end.scrollIntoView({ block: 'start' });
    end.focus({ preventScroll: true });
  }

  /** @param {Action} action */
  async function send(action) {
    if (live.busy) return;
    if (action.type === 'discard' && !(await held(action))) {
      ui.message = `You kept ${tileLabel(action.tile)}: choose a tile to discard.`;
      await render();
      focusFirstAction();
      return;
    }
    const rackBefore = view().rack;
    const from = { phase: view().phase, pass: view().pass, partner: view().partner };
    const sent = live.send(action);
    ui.message = '';
    renderActions();
    $('#prompt-detail').textContent = 'The other players are taking their turns\u2026';
    try {
      // stale: the action had been applied already (a retry), and the answer is the game as it stands
      const { answer: res, stale } = await sent;
      setView(res);
      const passing = !stale && (action.type === 'pass' || action.type === 'courtesy') ? action : null;
      addLog(narrate(res.events ?? []));
      // the tiles that came in are told once the pass is over: at once against bots, at a table
      // together when everyone has passed (a later answer)
      ui.received = '';
      ui.passing = passing ? { ...from, before: rackBefore, action: passing } : null;
      noteReceived();
    } catch (err) {
      ui.message = `Not allowed: ${errorWords(err)}`;
    }
    await render();
    focusFirstAction();
  }

  /**
   * At the practice table a discard waits a moment on the page, with an Undo button, before it
   * is sent (`undoSeconds`, her choice under Menu, Display): taken back, it was never made, as the
   * server never heard it, so she sees nothing of what the next player does. At a table with
   * people, and when she chose to discard at once, it goes at once. Resolves to true to send it.
   * @param {ActionOf<'discard'>} action
   * @returns {Promise<boolean>}
   */
  function held(action) {
    const seconds = hooks.pushed ? 0 : (hooks.undoSeconds?.() ?? 0);
    if (seconds <= 0) return Promise.resolve(true);
    const tile = tileLabel(action.tile);
    return new Promise((done) => {
      let left = seconds;
      const line = Object.assign(document.createElement('p'), { className: 'note undo-line', id: 'undo-line' });
      line.setAttribute('role', 'status');
      const say = () => { line.textContent = `Your ${tile} goes to the table in ${left} second${left === 1 ? '' : 's'}.`; };
      /** @param {boolean} go */
      const finish = (go) => {
        clearInterval(timer);
        live.setBusy(false);
        done(go);
      };
      // made before the page is marked busy: these two stay pressable while the rest waits
      const undo = button(`Undo: keep ${tile}`, () => finish(false), 'btn-main', 'undo');
      undo.id = 'undo-button';
      const now = button(`Discard ${tile} now`, () => finish(true), '', 'discard-now');
      say();
      $('#actions').replaceChildren(line, undo, now);
      live.setBusy(true);
      live.drawn();
      undo.focus({ preventScroll: true });
      const timer = setInterval(() => {
        left--;
        if (left <= 0) finish(true);
        else say();
      }, 1000);
    });
  }

  /**
   * Once the pass she made is over, the tiles she received, in words. A pass still waiting (at a
   * table together, or East passing first when everyone passed blind) has brought nothing yet:
   * the same step, or the same phase with nothing for her to do (a seat waiting on the others is
   * shown no pass number, so the number alone cannot tell).
   */
  function noteReceived() {
    const p = ui.passing;
    const v = view();
    if (!p || (v.phase === p.phase && (v.pass === p.pass || v.legal.length === 0))) return;
    ui.passing = null;
    ui.received = receivedWords(p.before, tilesGiven(p), v.rack);
    addLog([ui.received]);
  }

  /**
   * The tiles that left her rack in a pass. A Charleston pass gives all she chose (a blind pass
   * forwards tiles that never reached her rack). A courtesy pass gives only as many as the
   * smaller of the two offers (teaching guide 2.4): offering 3 to a partner who offers none
   * gives nothing, and her tiles stay on her rack.
   * @param {Passing} p
   * @returns {Tile[]}
   */
  function tilesGiven(p) {
    const tiles = p.action.tiles ?? [];
    if (p.action.type !== 'courtesy') return tiles;
    const theirs = p.partner === undefined || p.partner === null ? 0 : ui.offers[p.partner];
    // the partner's offer not heard (a reload in between): the rack tells what it can
    if (theirs === undefined) return tiles;
    // her own offer as the server heard it, in its order (the engine gives the first ones)
    const mine = ui.offers.mine ?? tiles;
    return mine.slice(0, Math.min(mine.length, theirs));
  }

  async function askHint() {
    if (!live.session || live.busy || !ui.view || view().watching || view().phase === 'ended') return;
    const asked = live.hint();
    $button('#hint-button').disabled = true;
    const box = $('#hint');
    box.classList.remove('hidden');
    box.classList.add('thinking');
    box.textContent = 'Thinking about your choices\u2026 (a few seconds)';
    const key = decisionKey(ui.view);
    try {
      ui.hint = await asked;
    } catch (err) {
      ui.hint = { error: errorWords(err) };
    }
    ui.hintKey = key;
    $button('#hint-button').disabled = false;
    box.classList.remove('thinking');
    await render();
    showPlace();
    $('#hint').focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- what the table hears

  /**
   * The actions applied since the last answer, in words (others' passes are face down).
   * @param {GameEvent[]} events
   * @returns {(string | null)[]}
   */
  function narrate(events) {
    return events.map((e) => {
      const a = e.action;
      const me = isMine(a.seat);
      const who = seatWords(a.seat);
      const s = me ? '' : 's';
      switch (a.type) {
        case 'discard': ui.lastDiscard = { tile: a.tile, seat: a.seat }; return `${who} discard${s} ${tileLabel(a.tile)}.`;
        case 'draw': return me && e.drew ? `You draw ${tileLabel(e.drew)}.` : null;
        case 'call': {
          const d = ui.lastDiscard;
          const what = d ? `${whose(d.seat)} ${tileLabel(d.tile)}` : 'the discard';
          return `${who} call${s} ${what} for a ${GROUP[a.size] ?? 'group'}${a.jokers ? ` (with ${a.jokers} joker${a.jokers > 1 ? 's' : ''})` : ''}.`;
        }
        case 'callMahJongg': return `${who} call${s} the discard for Mah Jongg!`;
        case 'declare': return `${who} declare${s} Mah Jongg!`;
        case 'exchange': return `${who} exchange${s} a tile for a joker from ${whose(a.owner)} exposure.`;
        case 'callDead': {
          if (isMine(a.target)) {
            // teaching guide 6.6: a hand is dead when the tiles on the table prove it cannot be finished
            ui.dead = `${who} called your hand dead: the tiles on the table show that no hand on the card can be finished with what you exposed, so you cannot win this game.`;
            return `${who} call${s} your hand dead.`;
          }
          return `${who} call${s} ${seatWords(a.target)}\u2019s hand dead.`;
        }
        case 'vote': return `${who} vote${s} ${a.yes ? 'yes' : 'no'} to a second Charleston.`;
        case 'courtesy': {
          const n = me ? (a.tiles ?? []).length : (a.count ?? 0);
          ui.offers[a.seat] = n;
          if (me) ui.offers.mine = a.tiles ?? [];
          return `${who} offer${s} ${n} tile${n === 1 ? '' : 's'} across.`;
        }
        default: return null;
      }
    });
  }

  // ---------------------------------------------------------------- rendering

  async function render() {
    const v = view();
    if (!v) { live.drawn(); return; }
    // a page reloaded after the call still says so
    if (!ui.dead && !v.watching && v.dead?.[v.seat]?.some((d) => d)) ui.dead = 'Your hand is dead: you cannot win this game.';
    const banner = $('#dead-banner');
    banner.textContent = ui.dead;
    banner.classList.toggle('hidden', !ui.dead);
    renderSeats();
    renderPool();
    renderMe();
    renderHint();
    renderLog();
    $('#game').classList.toggle('over', v.phase === 'ended');
    if (v.phase === 'ended') {
      const first = $('#end').classList.contains('hidden');
      // the score is drawn at once; the review follows when the server has made it
      // one watching the table has no decisions of her own to review
      const drawing = renderEnd($('#end'), ui, { api, gameId: live.session?.id, seatWords, seat: () => view().seat, review: !v.watching });
      if (first) showResult();
      await drawing;
    }
    else $('#end').classList.add('hidden');
    await renderCardPanel();
    live.drawn();
  }

  function renderSeats() {
    const v = view();
    for (const el of root.querySelectorAll('#table .seat')) { el.replaceChildren(); el.classList.add('hidden'); el.classList.remove('turn'); }
    for (let s = 0; s < v.players; s++) {
      if (s === v.seat) continue;
      const el = $(`#table .seat[data-place="${placeOf(s, v.seat, v.players)}"]`);
      el.classList.remove('hidden');
      if (v.phase !== 'ended' && v.waitingOn?.length === 1 && v.waitingOn[0] === s) el.classList.add('turn');
      const h = document.createElement('h3');
      h.textContent = `${seatWords(s)} (${seatWind(s)})`;
      const who = document.createElement('div');
      who.className = 'facts';
      who.textContent = hooks.seatFacts(s);
      const facts = document.createElement('div');
      facts.className = 'facts';
      const count = v.concealedCounts[s] ?? 0;
      const discards = v.discards[s]?.length ?? 0;
      facts.textContent = `${count} tiles in hand · ${discards} discard${discards === 1 ? '' : 's'}`;
      el.append(h, ...(who.textContent ? [who] : []), facts);
      if (v.dead?.[s]?.some((d) => d)) {
        const dead = document.createElement('div');
        dead.className = 'dead';
        dead.textContent = 'Dead hand';
        el.append(dead);
      }
      const xs = v.exposures?.[s] ?? [];
      if (xs.length) el.append(exposureRow(xs, 'small'));
    }
  }

  /**
   * @param {Exposure[]} exposures
   * @param {string} size
   */
  function exposureRow(exposures, size) {
    const row = document.createElement('div');
    row.className = 'tile-row';
    for (const x of exposures) {
      const g = document.createElement('span');
      g.className = 'group';
      const naturals = x.size - x.jokers;
      const tiles = [...Array(naturals).fill(x.tile), ...Array(x.jokers).fill('J')];
      // teaching guide 4.7: jokers sit inside the group, so it is plain what they stand for
      if (x.jokers > 0 && naturals > 0) tiles.splice(1, 0, ...tiles.splice(naturals));
      for (const t of tiles) g.append(tileElement(t, { size }));
      g.setAttribute('aria-label', `${GROUP[x.size] ?? 'group'} of ${tileLabel(x.tile)}${x.jokers ? ` with ${x.jokers} joker${x.jokers > 1 ? 's' : ''}` : ''}`);
      row.append(g);
    }
    return row;
  }

  /** @param {View} v */
  function lastDiscard(v) {
    if (v.claim) return { seat: v.claim.discarder, tile: v.claim.tile };
    return null;
  }

  function renderPool() {
    const v = view();
    $('#wall-left').textContent = `Wall: ${v.wallLeft} tile${v.wallLeft === 1 ? '' : 's'} left`;
    const all = (v.discards ?? []).reduce((n, d) => n + d.length, 0);
    $('#pool-count').textContent = `${all} discarded`;
    const claim = $('#claim-tile');
    const last = lastDiscard(v);
    if (last && v.phase === 'claims') {
      claim.classList.remove('hidden');
      claim.replaceChildren();
      const t = tileElement(last.tile, { size: 'big' });
      t.classList.add('last-discard');
      const words = document.createElement('span');
      words.textContent = `${seatWords(last.seat)} discarded ${tileLabel(last.tile)}`;
      claim.append(t, words);
    } else claim.classList.add('hidden');
    const pool = $('#pool-tiles');
    pool.replaceChildren();
    // late in a game the discards scroll inside the pool: a scrolling region is reached by the keyboard (both pages)
    if (!pool.hasAttribute('tabindex')) { pool.tabIndex = 0; pool.setAttribute('role', 'group'); pool.setAttribute('aria-label', 'Discards by player'); }
    for (let s = 0; s < v.players; s++) {
      const d = v.discards?.[s] ?? [];
      if (!d.length) continue;
      const row = document.createElement('div');
      row.className = 'pool-row';
      const label = document.createElement('span');
      label.className = 'pool-label';
      label.textContent = seatWords(s);
      const tiles = document.createElement('div');
      tiles.className = 'tile-row';
      for (const t of d) tiles.append(tileElement(t, { size: 'small' }));
      row.append(label, tiles);
      pool.append(row);
    }
  }

  // ---------------------------------------------------------------- the person's place

  /**
   * @template {Action['type']} T
   * @param {T} type
   * @returns {ActionOf<T>[]}
   */
  function legalOf(type) {
    // a Mah Jongg in error (the hand is not one) is allowed but would kill the hand: no button for it
    return /** @type {ActionOf<T>[]} */ (view().legal.filter((a) => a.type === type && !a.inError));
  }

  function selectedTiles() {
    return ui.selected.map((i) => view().rack[i]);
  }

  /**
   * East's seat for one watching: her name, her tiles and discards counted.
   * @param {View} v
   */
  function eastWords(v) {
    const count = v.concealedCounts[0] ?? 0;
    const discards = v.discards[0]?.length ?? 0;
    return `${seatWords(0)} sits East: ${count} tiles in hand, ${discards} discard${discards === 1 ? '' : 's'}.`;
  }

  /**
   * What is happening at the table, for one watching it.
   * @param {View} v
   */
  function watchingWords(v) {
    // at a table together the page says whom it waits on above the table (hooks.waitingShown)
    const waiting = hooks.waitingShown ? '' : (v.waitingOn ?? []).map(seatWords).join(', ');
    switch (v.phase) {
      case 'charleston': return `The players are passing tiles to each other (the Charleston)${waiting ? `: waiting for ${waiting}` : ''}.`;
      case 'vote': return `The players are voting on a second Charleston${waiting ? `: waiting for ${waiting}` : ''}.`;
      case 'courtesy': return `The players across from each other may swap up to 3 tiles${waiting ? `: waiting for ${waiting}` : ''}.`;
      case 'draw': case 'discard': return `It is ${seatWords(v.turn)}\u2019s turn.`;
      case 'claims': return v.claim ? `${seatWords(v.claim.discarder)} discarded ${tileLabel(v.claim.tile)}, and the others may call it.` : 'The others may call the discard.';
      case 'ended': return 'The game is over.';
      default: return '';
    }
  }

  /** What the game asks of the person now, in words, and the buttons for it. */
  /**
   * @param {View} v
   * @returns {{ text: string, detail?: string }}
   */
  function promptFor(v) {
    if (v.watching) return { text: watchingWords(v) };
    const mine = v.legal.length > 0;
    const waitingOthers = () => `Waiting for ${(v.waitingOn ?? []).filter((s) => s !== v.seat).map(seatWords).join(', ') || 'the table'}…`;
    switch (v.phase) {
      case 'charleston': {
        if (!mine) return { text: waitingOthers() };
        const dir = passDirection(v);
        const n = (v.pass ?? 0) + 1;
        const which = v.charleston === 'second' ? `Second Charleston, pass ${n - 3} of 3` : `First Charleston, pass ${n} of 3`;
        const need = 3 - ui.blind;
        return {
          text: `${which}: choose ${need} tile${need === 1 ? '' : 's'} to pass ${DIRECTION_WORDS[dir]}.`,
          detail: `Tap tiles on your rack to choose them. Jokers can never be passed.${v.blindAllowed ? ' On this pass you may also pass on 1 to 3 of the tiles coming to you without looking (a blind pass).' : ''}`,
        };
      }
      case 'vote':
        return mine ? { text: 'Play a second Charleston?', detail: 'Everyone must agree; any player may say no, and no reason is needed.' } : { text: waitingOthers() };
      case 'courtesy':
        return mine
          ? { text: 'Courtesy pass: offer 0 to 3 tiles to the player across.', detail: 'Choose the tiles to offer, or offer none. You swap as many as the smaller offer.' }
          : { text: waitingOthers() };
      case 'draw':
        return v.turn === v.seat && mine ? { text: 'Your turn: draw a tile from the wall.' } : { text: `${seatWords(v.turn)} is drawing…` };
      case 'discard':
        if (v.turn !== v.seat) return { text: `${seatWords(v.turn)} is choosing a discard…` };
        return {
          text: ui.drawn ? `You drew ${tileLabel(ui.drawn)}. Choose a tile to discard.` : 'Your turn: choose a tile to discard.',
          detail: 'Tap a tile on your rack, then press Discard.',
        };
      case 'claims': {
        if (!mine) return { text: waitingOthers() };
        const c = /** @type {NonNullable<View['claim']>} */ (v.claim);
        return {
          text: `${seatWords(c.discarder)} discarded ${tileLabel(c.tile)}. Do you want it?`,
          detail: 'You may call it to expose a pung, kong or quint (then you discard), or for Mah Jongg. The bots wait for you.',
        };
      }
      case 'ended':
        return { text: 'The game is over.' };
      default:
        return { text: '' };
    }
  }

  function renderMe() {
    const v = view();
    const p = promptFor(v);
    // one watching sees East's side of the table here: no rack, only what anyone sees
    $('#me-seat').textContent = v.watching ? eastWords(v) : `You sit ${seatWind(v.seat)}`;
    $('#me').setAttribute('aria-label', v.watching ? 'East' : 'Your rack');
    $('#rack').classList.toggle('hidden', v.watching);
    $('#prompt').textContent = p.text;
    $('#prompt-detail').textContent = [ui.received, ui.note, p.detail].filter(Boolean).join(' ');
    $('#message').textContent = ui.message;
    const mine = v.exposures?.[v.seat] ?? [];
    const xs = $('#my-exposures');
    xs.replaceChildren();
    if (mine.length) xs.append(exposureRow(mine, 'mid'));
    renderRack();
    renderActions();
  }

  function rackChoosing() {
    const v = view();
    if (v.phase === 'charleston' || v.phase === 'courtesy') return v.legal.length > 0;
    if (v.phase === 'discard') return legalOf('discard').length > 0;
    return false;
  }

  function maxChoice() {
    const v = view();
    if (v.phase === 'charleston') return 3 - ui.blind;
    if (v.phase === 'courtesy') return 3;
    return 1;
  }

  function suggestedTiles() {
    const h = ui.hint;
    if (!h || h.error) return [];
    const a = h.action;
    return h.tiles ?? (a && 'tile' in a && a.tile ? [a.tile] : []);
  }

  function renderRack() {
    const v = view();
    const rack = $('#rack');
    rack.replaceChildren();
    const choosing = rackChoosing();
    const suggested = [...suggestedTiles()];
    v.rack.forEach((t, i) => {
      const el = tileElement(t, { size: 'big', button: true });
      el.dataset.index = String(i);
      const chosen = ui.selected.includes(i);
      if (chosen) el.classList.add('selected');
      const s = suggested.indexOf(t);
      if (s >= 0) { el.classList.add('suggested'); suggested.splice(s, 1); }
      if (t === ui.drawn && !rack.querySelector('.drawn')) { el.classList.add('drawn'); el.title += ' (just drawn)'; }
      el.setAttribute('aria-pressed', chosen ? 'true' : 'false');
      el.disabled = !choosing || (t === 'J' && (v.phase === 'charleston' || v.phase === 'courtesy'));
      el.addEventListener('click', () => toggleTile(i));
      rack.append(el);
    });
  }

  /** @param {number} i */
  function toggleTile(i) {
    if (live.busy || !rackChoosing()) return;
    const at = ui.selected.indexOf(i);
    if (at >= 0) ui.selected.splice(at, 1);
    else {
      const max = maxChoice();
      if (max === 1) ui.selected = [i];
      else if (ui.selected.length < max) ui.selected.push(i);
      else { ui.message = `You have chosen ${max} already: click one again to put it back.`; }
    }
    if (ui.selected.length <= maxChoice()) ui.message = ui.message.startsWith('You have chosen') && ui.selected.length < maxChoice() ? '' : ui.message;
    ui.follow = null;
    renderRack();
    renderActions();
    renderHint();
    $('#message').textContent = ui.message;
    /** @type {HTMLElement | null} */ (root.querySelector(`#rack [data-index="${i}"]`))?.focus();
  }

  /** The legal action each of the buttons sends, where it is one (the hint's choice is found by it). @type {WeakMap<HTMLElement, Action>} */
  const sends = new WeakMap();

  /** A button; `kind` (data-action) names the action it sends, for tests and styles. */
  /**
   * @param {string} text
   * @param {() => void} onClick
   * @param {string} [cls]
   * @param {string} [kind]
   */
  function button(text, onClick, cls = '', kind = '') {
    const b = document.createElement('button');
    b.type = 'button';
    if (kind) b.dataset.action = kind;
    b.className = `btn ${cls}`.trim();
    b.textContent = text;
    b.disabled = live.busy;
    b.addEventListener('click', onClick);
    return b;
  }

  /**
   * A button that sends one legal action as it is.
   * @param {string} text
   * @param {Action} a
   * @param {string} cls
   * @param {string} kind
   */
  function actionButton(text, a, cls, kind) {
    const b = button(text, () => send(a), cls, kind);
    sends.set(b, a);
    return b;
  }

  /**
   * " on rack 2" when the seat plays two racks (Siamese), else nothing.
   * @param {{ rack?: number, both?: boolean }} a
   */
  function onRack(a) {
    const racks = view().dead?.[view().seat]?.length ?? 1;
    if (a.both) return ' on both racks';
    return racks > 1 && a.rack !== undefined ? ` on rack ${a.rack + 1}` : '';
  }

  /** @param {ActionOf<'exchange'>} a */
  function describeExchange(a) {
    const v = view();
    const x = v.exposures[a.owner][a.exposure];
    const whose = a.owner === v.seat ? 'your' : `${seatWords(a.owner)}'s`;
    return `Exchange a ${tileLabel(x.tile)} for the joker in ${whose} ${GROUP[x.size] ?? 'group'}`;
  }

  function renderActions() {
    const v = view();
    const box = $('#actions');
    box.replaceChildren();
    if (!v || v.phase === 'ended') return;
    /** @param {HTMLElement[]} els */
    const add = (...els) => box.append(...els);
    const declare = legalOf('declare');
    switch (v.phase) {
      case 'charleston': {
        if (!v.legal.length) break;
        const chosen = selectedTiles();
        const need = 3 - ui.blind;
        const dir = passDirection(v);
        const pass = button(chosen.length === need ? `Pass ${tilesLabel(chosen)}${ui.blind ? ` and ${ui.blind} blind` : ''} ${DIRECTION_WORDS[dir]}` : `Pass ${DIRECTION_WORDS[dir]} (${chosen.length} of ${need} chosen)`, () => {
          send({ type: 'pass', seat: v.seat, tiles: selectedTiles(), blind: ui.blind });
        }, 'btn-main', 'pass');
        pass.id = 'pass-button';
        pass.disabled = live.busy || chosen.length !== need;
        add(pass);
        const blindUpTo = legalOf('pass')[0]?.blindUpTo ?? 0;
        if (blindUpTo > 0) {
          // a blind pass (standardized rules 4.5): the prompt's sentence explains it. A choice beside
          // the Pass button, in one short row (the hint and the rack stay on a phone's first screen),
          // never drawn like the main button
          add(blindChoice(blindUpTo, ui.blind, (b) => {
            ui.blind = b;
            while (ui.selected.length > 3 - b) ui.selected.pop();
            ui.follow = null;
            renderMe();
            renderHint();
          }, button));
        }
        for (const d of declare) add(actionButton('Mah Jongg!', d, 'btn-mj', 'declare'));
        break;
      }
      case 'vote':
        for (const a of legalOf('vote')) add(actionButton(a.yes ? 'Yes, a second Charleston' : 'No, stop the Charleston', a, a.yes ? 'btn-main' : '', a.yes ? 'vote-yes' : 'vote-no'));
        break;
      case 'courtesy': {
        if (!v.legal.length) break;
        const chosen = selectedTiles();
        const offer = button(chosen.length ? `Offer ${tilesLabel(chosen)}` : 'Offer nothing', () => send({ type: 'courtesy', seat: v.seat, tiles: selectedTiles() }), 'btn-main', 'courtesy');
        offer.id = 'courtesy-button';
        add(offer);
        break;
      }
      case 'draw':
        for (const a of legalOf('draw')) add(actionButton('Draw a tile', a, 'btn-main', 'draw'));
        break;
      case 'discard': {
        if (!legalOf('discard').length && !declare.length) break;
        const [tile] = selectedTiles();
        const d = button(tile ? `Discard ${tileLabel(tile)}` : 'Discard (choose a tile)', () => {
          const [t] = selectedTiles();
          const a = legalOf('discard').find((x) => x.tile === t);
          if (a) discardWithCare(a);
        }, 'btn-main', 'discard');
        d.id = 'discard-button';
        d.disabled = live.busy || !tile || (tile === 'J' && !legalOf('discard').some((x) => x.tile === 'J'));
        add(d);
        for (const a of declare) add(actionButton(`Mah Jongg${onRack(a)}!`, a, 'btn-mj', 'declare'));
        for (const a of legalOf('exchange')) add(actionButton(describeExchange(a), a, '', 'exchange'));
        break;
      }
      case 'claims': {
        if (!v.legal.length) break;
        const tile = tileLabel(v.claim?.tile ?? '');
        for (const a of legalOf('callMahJongg')) add(actionButton(`Mah Jongg with ${tile}${onRack(a)}!`, a, 'btn-mj', 'callMahJongg'));
        for (const a of legalOf('call')) {
          add(actionButton(`Call ${tile} for a ${GROUP[a.size]}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}${onRack(a)}`, a, '', 'call'));
        }
        for (const a of legalOf('decline')) {
          const b = actionButton(`Pass: let the ${tile} go`, a, '', 'decline');
          b.id = 'decline-button';
          add(b);
        }
        break;
      }
      default: break;
    }
    for (const a of legalOf('callDead')) add(actionButton(`Call ${seatWords(a.target)}'s hand dead`, a, '', 'callDead'));
    markAdvised(box);
  }

  /**
   * A discard at a learner's level: when the defence (GET /defence: the seat's view only) rates
   * the tile dangerous, the page asks once, in one sentence, with Discard and Keep buttons;
   * otherwise, and at a table together, the discard goes at once.
   * @param {ActionOf<'discard'>} a
   */
  async function discardWithCare(a) {
    if (live.busy) return;
    let level = null;
    try { level = sessionStorage.getItem(LEVEL_KEY); } catch { level = null; }
    const asked = `${decisionKey(view())}|${a.tile}`;
    if (hooks.pushed || level === null || !LEARNER_LEVELS.has(level) || ui.warnedFor === asked || !live.session) return send(a);
    /** @type {Danger | null} */
    let danger = null;
    // busy while the defence is asked: a second press waits, and the page is not drawn as settled before it answers
    live.setBusy(true);
    try {
      /** @type {{ at: number, tiles: Danger[] }} */
      const answer = await live.request('GET', '/defence');
      // the game has moved on since this page heard (its answer was lost): send, and let the server say so
      if (answer.at === live.at) danger = answer.tiles.find((x) => x.tile === a.tile && x.level === 'dangerous') ?? null;
    } catch { danger = null; } finally { live.setBusy(false); }
    if (!danger) return send(a);
    ui.warnedFor = asked;
    const box = $('#actions');
    const question = Object.assign(document.createElement('p'), { className: 'note discard-warning', textContent: danger.warning ?? `${danger.why} Discard it anyway?` });
    question.setAttribute('role', 'alert');
    // the safe choice is the main button, first and in focus; the risky one is the plain one beside it
    const keep = button(`Keep ${tileLabel(a.tile)}`, () => { renderActions(); focusFirstAction(); }, 'btn-main', 'keep-tile');
    const go = button(`Discard ${tileLabel(a.tile)} anyway`, () => send(a), '', 'discard-anyway');
    box.replaceChildren(question, keep, go);
    live.drawn();
    keep.focus();
  }

  function focusFirstAction() {
    const b = /** @type {HTMLButtonElement | null} */ (root.querySelector('#actions button:not(:disabled)') ?? root.querySelector('#rack button:not(:disabled)'));
    // she is reading this table's card panel: the answer does not take her away from it
    if (b && !$('#card-panel').contains(document.activeElement)) {
      showPlace();
      b.focus({ preventScroll: true });
    }
  }

  /**
   * Her place on screen whole (the prompt, the buttons, the hint and the rack), scrolled no
   * further than that needs: on a phone she never scrolls to find what a turn asks of her.
   */
  function showPlace() {
    const me = $('#me');
    if (me.checkVisibility()) me.scrollIntoView({ block: 'nearest' });
  }

  // ---------------------------------------------------------------- the hint

  function renderHint() {
    const box = $('#hint');
    const h = ui.hint;
    if (!h || view().phase === 'ended') { box.classList.add('hidden'); box.replaceChildren(); return; }
    box.classList.remove('hidden');
    box.tabIndex = -1;
    box.replaceChildren();
    if (h.error) {
      box.textContent = `No hint just now: ${h.error}`;
      return;
    }
    const head = document.createElement('p');
    head.className = 'hint-do';
    head.textContent = `Hint: ${actionWords(h.action, h)}`;
    const why = document.createElement('p');
    why.className = 'hint-why';
    why.textContent = tilesInWords(h.text ?? '');
    box.append(head, why);
    // what the others are likely making, read from the table (a sentence each)
    for (const line of h.table ?? []) {
      const p = document.createElement('p');
      p.className = 'hint-table';
      p.textContent = tilesInWords(line);
      box.append(p);
    }
    if (h.details) {
      // the figures behind the advice, for those who want them (statistics stay out of the sentence)
      const more = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = 'Details';
      const p = document.createElement('p');
      p.textContent = tilesInWords(h.details);
      more.append(summary, p);
      box.append(more);
    }
    // one way for every kind of decision: the hint's button never acts. It chooses the hint's tiles
    // (a pass, an offer, a discard) or, for a choice of buttons (a call, a vote, an exchange), finds
    // the button; either way the button that makes the move is outlined in gold, in focus, and she
    // presses it herself
    const advised = h.action;
    if (!advised || !view().legal.length) return;
    if (ui.follow && $('#actions .advised')) {
      box.append(Object.assign(document.createElement('p'), { className: 'hint-next', textContent: 'Now press the button outlined in gold to make that move.' }));
      return;
    }
    const n = suggestedTiles().length;
    const picks = TILE_CHOICES.has(advised.type) && rackChoosing() && (n > 0 || advised.type !== 'discard');
    const follow = button(!picks || (n === 0 && !h.blind) ? 'Show me the button' : n === 0 ? 'Choose this blind pass for me' : n === 1 ? 'Choose the tile for me' : 'Choose the tiles for me', () => followHint(), '', 'follow-hint');
    follow.id = 'follow-hint';
    box.append(follow);
  }

  /**
   * Whether a legal action is the one the hint advises: the same move, whatever the seat.
   * @param {Action} a
   * @param {Action} advised
   */
  function sameMove(a, advised) {
    if (a.type !== advised.type) return false;
    const mine = /** @type {Record<string, unknown>} */ (a);
    return Object.entries(advised).every(([k, x]) => k === 'seat' || x === undefined || !(k in mine) || JSON.stringify(mine[k]) === JSON.stringify(x));
  }

  /**
   * Outlines the button that makes the hint's move, once she asked to be shown it: for tiles to
   * choose, the main button while her choice is still the hint's; otherwise the button of that move.
   * @param {HTMLElement} box
   */
  function markAdvised(box) {
    const a = ui.follow;
    if (!a) return;
    for (const b of box.querySelectorAll('button')) {
      const sent = sends.get(/** @type {HTMLElement} */ (b));
      const on = TILE_CHOICES.has(a.type) ? /** @type {HTMLElement} */ (b).dataset.action === a.type : sent !== undefined && sameMove(sent, a);
      b.classList.toggle('advised', on);
    }
  }

  /** The advised action in a few plain words: the hint's headline. */
  /**
   * @param {Action | undefined} a
   * @param {Hint} h
   */
  function actionWords(a, h) {
    if (!a) return 'see below';
    const claim = view().claim;
    const claimed = claim ? tileLabel(claim.tile) : 'the tile';
    switch (a.type) {
      case 'pass': {
        const own = (h.tiles ?? a.tiles ?? []);
        const blind = h.blind ?? a.blind ?? 0;
        return `pass ${[own.length ? tilesLabel(own) : '', blind ? `${blind} blind` : ''].filter(Boolean).join(' and ')}`;
      }
      case 'discard': return `discard ${tileLabel(a.tile)}`;
      case 'decline': return `let the ${claimed} go`;
      case 'call': return `call the ${claimed} for a ${GROUP[a.size] ?? 'group'}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}`;
      case 'callMahJongg': return `call the ${claimed} for Mah Jongg!`;
      case 'declare': return 'declare Mah Jongg!';
      case 'vote': return a.yes ? 'vote yes to a second Charleston' : 'vote no to a second Charleston';
      case 'courtesy': return (a.tiles ?? []).length ? `offer ${tilesLabel(a.tiles ?? [])}` : 'offer nothing';
      case 'exchange': { const w = describeExchange(a); return w.charAt(0).toLowerCase() + w.slice(1); }
      case 'draw': return 'draw a tile';
      case 'callDead': return `call ${seatWords(a.target)}\u2019s hand dead`;
      default: return a.type;
    }
  }

  /**
   * Shows the hint's move without making it: the tiles it names chosen on the rack (and its blind
   * count), or the button of its move found; that button outlined and in focus. She presses it herself.
   */
  function followHint() {
    const h = /** @type {Hint} */ (ui.hint);
    const a = h.action;
    if (!a) return;
    const v = view();
    if (TILE_CHOICES.has(a.type) && rackChoosing()) {
      if (v.phase === 'charleston') ui.blind = Math.min(h.blind ?? 0, legalOf('pass')[0]?.blindUpTo ?? 0);
      const want = [...suggestedTiles()];
      ui.selected = [];
      v.rack.forEach((t, i) => {
        const at = want.indexOf(t);
        if (at >= 0) { ui.selected.push(i); want.splice(at, 1); }
      });
    }
    ui.follow = a;
    ui.message = '';
    renderMe();
    renderHint();
    const target = /** @type {HTMLButtonElement | null} */ (root.querySelector('#actions .advised'));
    if (target && !target.disabled) {
      showPlace();
      target.focus({ preventScroll: true });
    } else focusFirstAction();
  }

  function renderLog() {
    const box = $('#log');
    box.replaceChildren();
    if (!box.hasAttribute('tabindex')) { box.tabIndex = 0; box.setAttribute('role', 'region'); }
    box.classList.toggle('hidden', ui.log.length === 0);
    const h = document.createElement('h2');
    h.textContent = 'What happened';
    box.append(h);
    for (const line of ui.log) {
      const p = document.createElement('p');
      p.textContent = line;
      box.append(p);
    }
    box.scrollTop = box.scrollHeight;
  }

  // ---------------------------------------------------------------- the card panel

  async function renderCardPanel() {
    const panel = $('#card-panel');
    $('#card-button').setAttribute('aria-pressed', ui.cardOpen ? 'true' : 'false');
    // after the game there is no rack to read the card for: the review takes the room
    const open = ui.cardOpen && ui.view !== null && view().phase !== 'ended';
    $('#game').classList.toggle('with-card', open);
    $button('#card-button').disabled = !hooks.card || !live.session || ui.view?.phase === 'ended';
    $('#card-button').classList.toggle('hidden', !hooks.card);
    if (!open) { panel.classList.add('hidden'); return; }
    panel.classList.remove('hidden');
    await renderCard(panel, ui, live);
  }

  // ---------------------------------------------------------------- wiring

  /** The buttons and keys of the drawing itself, on either page: Hint, Card, H and C. */
  function wireTable() {
    $('#hint-button').addEventListener('click', askHint);
    $('#card-button').addEventListener('click', async () => {
      ui.cardOpen = !ui.cardOpen;
      await renderCardPanel();
      // on a phone or a tablet the panel lies below the rack: brought into view, not opened off screen
      const panel = $('#card-panel');
      if (ui.cardOpen && !panel.classList.contains('hidden')) {
        const r = panel.getBoundingClientRect();
        if (r.top < 0 || r.top > window.innerHeight * 0.6) panel.scrollIntoView({ block: 'start' });
      }
    });
    // keyboard: H for a hint, C for the card, Enter presses the main button; a key pressed
    // inside another table's root is that table's (the practice page's root is the whole page)
    document.addEventListener('keydown', (e) => {
      if (!(e.target instanceof Node) || !root.contains(e.target)) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey || e.metaKey) return;
      if (!live?.session || !ui.view) return;
      if (e.key === 'h' || e.key === 'H') { e.preventDefault(); askHint(); }
      if ((e.key === 'c' || e.key === 'C') && hooks.card) { e.preventDefault(); $('#card-button').click(); }
    });
    // a new face or print size: the tiles are drawn again
    document.addEventListener('tilemate-display', () => { render(); });
  }

  return { ui, live, setView, addLog, narrate, noteReceived, render, showGame, focusFirstAction, showPlace, wire: wireTable };
}

// ---------------------------------------------------------------- the practice page

const CARD_IN_PLAY_KEY = 'tilemate-game-card';

/** The header's menu closes once a choice in it is made, on Escape, and on a click elsewhere. */
function wireMenu() {
  const menu = /** @type {HTMLDetailsElement | null} */ (document.querySelector('#menu'));
  if (!menu) return;
  const close = () => { if (menu.open) menu.open = false; };
  find('.menu-items', menu).addEventListener('click', (e) => { if (e.target instanceof Element && e.target.closest('button')) close(); });
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) { e.preventDefault(); close(); find('summary', menu).focus(); }
  });
  document.addEventListener('click', (e) => { if (!menu.contains(/** @type {Node | null} */ (e.target))) close(); });
}

/**
 * The practice page (index.html): a game against bots, started from its form. index.html
 * calls it (practice.js); together.html draws its seats with mahJonggTable() instead.
 */
export function practicePage() {
  const live = new LiveGame({ routes: '/api/games', sessionKey: 'tilemate-game' });
  const table = createMahJonggTable(live, { undoSeconds });
  const { ui } = table;
  const $ = find;
  // the card she chose (chosen-card.js: on My card, or ./?card=name): new games are played on it
  /** @type {string | null} */
  let chosenCard = null;
  /** The chosen card's title, named at the table once a game starts on it. */
  let chosenTitle = '';

  /** @param {SubmitEvent} ev */
  async function startGame(ev) {
    ev.preventDefault();
    if (live.busy) return;
    const form = /** @type {HTMLFormElement} */ (ev.currentTarget);
    const data = new FormData(form);
    /** @type {{ ruleset: string, level: string, seed?: number, card?: string }} */
    const body = { ruleset: String(data.get('ruleset')), level: String(data.get('level')) };
    try { sessionStorage.setItem(LEVEL_KEY, body.level); } catch { /* no warning before a dangerous discard after a reload */ }
    const seedText = String(data.get('seed') ?? '').trim();
    if (seedText !== '') body.seed = Number(seedText);
    if (chosenCard) body.card = chosenCard;
    $('#start-message').textContent = '';
    const started = live.start(body);
    /** @type {HTMLButtonElement} */ ($('#start-button')).disabled = true;
    try {
      const res = await started;
      ui.view = null;
      ui.log = [];
      ui.dead = '';
      ui.received = '';
      ui.review = null;
      ui.card = null;
      ui.cardKey = null;
      ui.lastDiscard = null;
      table.setView(res);
      table.addLog(table.narrate(res.events ?? []));
      keepCardInPlay(chosenTitle);
      table.showGame();
    } catch (err) {
      $('#start-message').textContent = `Could not start the game: ${errorWords(err)}`;
    }
    /** @type {HTMLButtonElement} */ ($('#start-button')).disabled = false;
    await table.render();
    if (ui.view && ui.view.phase !== 'ended') table.focusFirstAction();
  }

  /**
   * A reloaded page picks its game up again (the token stays in this tab's session only); a page
   * opened to play a deal again (./?deal=N) shows the start form filled in instead.
   */
  async function resume() {
    const res = new URLSearchParams(location.search).has('deal') ? null : await live.resume();
    if (res) {
      table.setView(res);
      table.addLog(table.narrate(res.events ?? []));
      showCardInPlay();
      table.showGame();
    }
    await table.render();
    // picked up again at her turn: her place on screen, as after any answer
    if (res && ui.view && ui.view.phase !== 'ended') table.focusFirstAction();
  }

  /**
   * The start form names the card new games are played on: the one she chose (checked against
   * her saved cards), or the practice card. Its title is kept to be named at the table.
   */
  async function showChosenCard() {
    /** @type {SavedCard[] | null} */
    let cards = null;
    /** Signed in, the card chosen with her account (chosen-card.js). @type {string | null | undefined} */
    let account;
    try { ({ cards = [], chosen: account } = await call('GET', '/api/cards')); } catch { /* not known just now: her choice is kept as it is */ }
    const kept = cards === null ? { name: chosenCard ?? '', note: '' } : checkChosen(chosenCard ?? '', cards, account);
    cards ??= [];
    chosenCard = kept.name || null;
    const saved = cards.find((c) => c.name === kept.name);
    if (saved) chosenTitle = saved.title || saved.name;
    else if (kept.name) chosenTitle = kept.name;
    else { try { chosenTitle = (await call('GET', '/api/health')).card; } catch { chosenTitle = ''; } }
    let note = /** @type {HTMLElement | null} */ (document.querySelector('#start .chosen-card'));
    if (!note) {
      note = document.createElement('p');
      note.className = 'note chosen-card';
      document.querySelector('#start h2')?.after(note);
    }
    note.textContent = saved?.owner ? `You will play on ${cardWords(saved)}, a card shared with you.`
      : saved ? `You will play on your own card, ${cardWords(saved)}, chosen on the My card page.`
      : kept.name ? `You will play on your own card ${kept.name}, chosen on the My card page.`
      : kept.note || 'You will play on the Tilemate practice card; to play on your own card, save it on the My card page.';
  }

  /**
   * "Card: ..." at the practice table, kept with the game for a reload (this tab only).
   * @param {string} title
   */
  function keepCardInPlay(title) {
    try { sessionStorage.setItem(CARD_IN_PLAY_KEY, JSON.stringify({ id: live.session?.id, title })); } catch { /* not kept */ }
    showCardInPlay();
  }

  function showCardInPlay() {
    /** @type {{ id?: string, title?: string } | null} */
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(CARD_IN_PLAY_KEY) ?? 'null'); } catch { kept = null; }
    const title = kept && kept.id === live.session?.id ? kept.title : '';
    let line = /** @type {HTMLElement | null} */ (document.querySelector('#card-in-play'));
    if (!line) {
      line = Object.assign(document.createElement('p'), { id: 'card-in-play', className: 'card-in-play' });
      document.querySelector('#me-seat')?.after(line);
    }
    line.textContent = title ? `Card: ${title}` : '';
    line.classList.toggle('hidden', !title);
  }

  const q = new URLSearchParams(location.search);
  // the card she chose for every page, or the one the address names (chosen-card.js)
  chosenCard = startingCard(location.search) || null;
  showChosenCard();
  // "Play this deal again" from My games (./?deal=N&ruleset=R&level=L): the start form filled in
  const deal = q.get('deal');
  if (deal !== null && /^\d{1,15}$/.test(deal)) /** @type {HTMLInputElement} */ ($('#seed')).value = deal;
  for (const name of ['ruleset', 'level']) {
    const input = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`#start input[name="${name}"]`))].find((i) => i.value === q.get(name));
    if (input) input.checked = true;
  }
  $('#start').addEventListener('submit', startGame);
  wireMenu();
  $('#new-button').addEventListener('click', () => {
    if (!live.leave(ui.view?.phase !== 'ended')) return;
    ui.view = null;
    $('#game').classList.add('hidden');
    $('#start').classList.remove('hidden');
    /** @type {HTMLButtonElement} */ ($('#hint-button')).disabled = true;
    /** @type {HTMLButtonElement} */ ($('#card-button')).disabled = true;
    $('#start-button').focus();
  });
  setupDisplay({ undo: true });
  table.wire();
  resume();
}

/**
 * One seat of a Mah Jongg table together (together.js): drawn as the practice page draws its
 * game, from `game` answers pushed by the table rather than answers to the page's own requests.
 * `client` has LiveGame's interface (session, at, busy, send, hint, drawn); `seatHooks` names
 * the seats. Returns `update(answer)` for each new answer and `showHint(hint)` for a hint the
 * coach sent.
 * @param {LiveGame} client
 * @param {SeatHooks} [seatHooks]
 * @param {ParentNode} [root] where the table's elements are (the page)
 */
export function mahJonggTable(client, seatHooks = {}, root = document) {
  const table = createMahJonggTable(client, { card: false, pushed: true, ...seatHooks }, root);
  const { ui } = table;
  table.wire();
  let first = true;
  /** The decision her place was last shown for (a push that asks her something new shows it). */
  let shownFor = '';
  return {
    /** @param {GameAnswer} answer */
    async update(answer) {
      table.setView(answer);
      table.addLog(table.narrate(answer.events ?? []));
      table.noteReceived();
      if (first) { table.showGame(); first = false; }
      await table.render();
      const v = ui.view;
      if (v && v.legal.length > 0 && decisionKey(v) !== shownFor) {
        shownFor = decisionKey(v);
        table.showPlace();
      }
    },
    /** @param {Hint} hint */
    async showHint(hint) {
      if (!ui.view) return;
      ui.hint = hint;
      ui.hintKey = decisionKey(ui.view);
      await table.render();
    },
  };
}
