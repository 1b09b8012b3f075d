// The Mexican Train table: one screen for a game against bots. Plain ES modules, no build step.
// The server holds the game and answers with this seat's view and its legal actions
// (docs/mexican-train.md, "HTTP"); the page shows them and sends what the person chooses.
// Nothing here decides a rule: a domino can be chosen, and a train offered for it, only when
// the server's `legal` list holds that play.

import { $ as find, el } from './dom.js';
import { errorWords } from './client.js';
import { LiveGame } from './live-game.js';
import { rulesetWords } from './names.js';
import { setupDisplay } from './display.js';

/** @import { DominoAction, DominoAnswer, DominoHint, DominoRound, DominoView } from './types.js' */

/**
 * Everything one table knows; only render() writes the screen.
 * @typedef {{
 *   view: DominoView | null,
 *   legal: DominoAction[],
 *   names: string[],
 *   selected: string | null,
 *   hint: DominoHint | null,
 *   hintKey: string | null,
 *   message: string,
 *   recent: string[],
 *   history: string[],
 *   roundsSeen: number,
 *   roundEnd: number | null,
 *   lastKey: string | null,
 *   follow: DominoAction | null,
 * }} Ui
 */

/**
 * What the page around the drawing says about the seats (createDominoTable).
 * @typedef {{
 *   seatName?: (seat: number) => string,
 *   seatLabel?: (seat: number) => string,
 *   newGame?: boolean,
 *   pushed?: boolean,
 * }} SeatHooks
 */

const SVG = 'http://www.w3.org/2000/svg';

/** @type {Record<string, string>} */
const BOT_WORDS = { random: 'easy bot', greedy: 'medium bot', montecarlo: 'hard bot' };
/** The practice table's bots, by seat, in the order they play (a name, never a seat number). */
const BOT_NAMES = ['Alice', 'Betty', 'Carol', 'Doris', 'Edith', 'Flora', 'Grace', 'Helen'];
/** @param {number} seat */
const botName = (seat) => BOT_NAMES[seat] ?? `Player ${seat + 1}`;

// ---------------------------------------------------------------- dominoes

/**
 * "12-5" → [12, 5].
 * @param {string} name
 */
const ends = (name) => name.split('-').map(Number);

// The colours of a double-12 set's pips, one per number, all dark enough for a white face.
const PIP_COLOURS = ['#000', '#0b5fb0', '#0b6b2e', '#b3121b', '#6b3d00', '#1a237e', '#a35200', '#8e1a66', '#00626b', '#4a148c', '#333', '#7a5c00', '#c2185b'];

/** Where n pips sit in a square half (0-1 across and down): the patterns printed on double-12 sets. */
/**
 * @param {number} n
 * @returns {number[][]}
 */
function pipSpots(n) {
  const L = 0.22, M = 0.5, R = 0.78, T = 0.22, B = 0.78;
  const four = [0.16, 0.39, 0.61, 0.84];
  switch (n) {
    case 0: return [];
    case 1: return [[M, M]];
    case 2: return [[L, T], [R, B]];
    case 3: return [[L, T], [M, M], [R, B]];
    case 4: return [[L, T], [R, T], [L, B], [R, B]];
    case 5: return [[L, T], [R, T], [M, M], [L, B], [R, B]];
    case 6: return [[L, T], [L, M], [L, B], [R, T], [R, M], [R, B]];
    case 7: return [[L, T], [L, M], [L, B], [M, M], [R, T], [R, M], [R, B]];
    case 8: return [[L, T], [L, M], [L, B], [M, T], [M, B], [R, T], [R, M], [R, B]];
    case 9: return [[L, T], [L, M], [L, B], [M, T], [M, M], [M, B], [R, T], [R, M], [R, B]];
    case 10: return [...four.map((y) => [L, y]), ...four.map((y) => [R, y]), [M, 0.39], [M, 0.61]];
    case 11: return [...four.map((y) => [L, y]), ...four.map((y) => [R, y]), [M, 0.22], [M, M], [M, 0.78]];
    default: return [...four.map((y) => [L, y]), ...four.map((y) => [M, y]), ...four.map((y) => [R, y])];
  }
}

/** A domino face drawn in SVG: two square halves with pips, standing up (a over b) or lying (a beside b). */
/**
 * @param {number} a
 * @param {number} b
 * @param {boolean} upright
 */
function dominoSvg(a, b, upright) {
  const svg = document.createElementNS(SVG, 'svg');
  const w = upright ? 100 : 200, h = upright ? 200 : 100;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('face');
  const rect = document.createElementNS(SVG, 'rect');
  Object.entries({ x: 2, y: 2, width: w - 4, height: h - 4, rx: 12, class: 'body' }).forEach(([k, v]) => rect.setAttribute(k, String(v)));
  svg.append(rect);
  const line = document.createElementNS(SVG, 'line');
  Object.entries(upright ? { x1: 12, y1: 100, x2: 88, y2: 100 } : { x1: 100, y1: 12, x2: 100, y2: 88 }).forEach(([k, v]) => line.setAttribute(k, String(v)));
  line.setAttribute('class', 'bar');
  svg.append(line);
  [a, b].forEach((n, half) => {
    const ox = upright ? 0 : half * 100, oy = upright ? half * 100 : 0;
    const r = n >= 10 ? 8 : 9.5;
    for (const [x, y] of pipSpots(n)) {
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', String(ox + 6 + x * 88));
      c.setAttribute('cy', String(oy + 6 + y * 88));
      c.setAttribute('r', String(r));
      c.setAttribute('fill', PIP_COLOURS[n]);
      svg.append(c);
    }
  });
  return svg;
}

/** A small domino for a train: the two numbers, the end toward the station first. */
/**
 * @param {number} a
 * @param {number} b
 */
function trainTile(a, b) {
  const el = document.createElement('span');
  el.className = 'mini';
  if (a === b) el.classList.add('double');
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', `${a} and ${b}`);
  const x = document.createElement('span');
  x.textContent = String(a);
  const y = document.createElement('span');
  y.textContent = String(b);
  el.append(x, y);
  return el;
}

/** Dominoes of a train laid from the station: each shown with its matching end first. */
/**
 * @param {string[]} tiles
 * @param {number} engine
 */
function orient(tiles, engine) {
  let end = engine;
  return tiles.map((name) => {
    const [p, q] = ends(name);
    const near = p === end ? p : q;
    const far = p === end ? q : p;
    end = far;
    return [near, far];
  });
}

/** @param {string | number} train */
const trainKey = (train) => String(train);
/** @param {string} name */
const isDoubleName = (name) => { const [a, b] = ends(name); return a === b; };

/**
 * One Mexican Train table drawn on the page: its own state (`ui`), the game at the server
 * (`live`), and what the page around it says about the seats (`seatHooks`), so that two
 * tables never share a thing. The practice page (practicePage) and a seat of a table together
 * (dominoTable) each make one.
 * @param {LiveGame} live
 * @param {SeatHooks} [seatHooks]
 * @param {ParentNode} [root] where the table's elements are (the page)
 */
export function createDominoTable(live, seatHooks = {}, root = document) {
  if (root instanceof HTMLElement) live.root = root;
  /** @param {string} sel */
  const $ = (sel) => find(sel, root);
  /** A button of the table's, by its selector. @param {string} sel */
  const $button = (sel) => /** @type {HTMLButtonElement} */ (find(sel, root));

  /**
   * What the page around the drawing says about the seats: the practice page's bots go by
   * names (BOT_NAMES) and their levels; together.js names the people at the table (`seatName`: her name, `seatLabel`:
   * her name and what she is), has no New game button at the end, and its answers come pushed a
   * few moves at a time (`pushed`: "Since your last move" gathers them).
   * @type {Required<SeatHooks>}
   */
  const hooks = {
    seatName: botName,
    seatLabel: (seat) => `${botName(seat)} (${BOT_WORDS[ui.names[seat]] ?? ui.names[seat] ?? 'bot'})`,
    newGame: true,
    pushed: false,
    ...seatHooks,
  };

  /** Everything the page knows; only render() writes the screen. @type {Ui} */
  const ui = {
    view: null, // the latest view (tile names, as the server sends it)
    legal: [],
    names: [], // the seats' players: "human" or a bot's name
    selected: null, // the chosen domino's name
    follow: null, // the hint's move she asked to be shown: its button outlined, for her to press
    hint: null, // the latest hint, for this decision only
    hintKey: null,
    message: '',
    recent: [], // lines: what happened since the person's last move
    history: [], // every line of the game
    roundsSeen: 0, // rounds whose end the person has been shown
    roundEnd: null, // the index into view.rounds of a round ended and not yet acknowledged
    lastKey: null, // the decision the chosen domino was for
  };

  /** The view being drawn: everything below but render() runs only once there is one. */
  const view = () => /** @type {DominoView} */ (ui.view);

  // ---------------------------------------------------------------- words

  /** @param {number} seat */
  function seatName(seat) {
    if (seat === ui.view?.seat) return 'You';
    return hooks.seatName(seat);
  }

  /** @param {number} seat */
  function playerLabel(seat) {
    if (seat === view().seat) return 'You';
    return hooks.seatLabel(seat);
  }

  /**
   * A train in words: "your train", "Seat 2's train", "the Mexican train".
   * @param {number | 'mexican' | undefined} train
   */
  function trainWords(train) {
    if (train === 'mexican') return 'the Mexican train';
    if (train === view().seat) return 'your train';
    return `${seatName(/** @type {number} */ (train))}\u2019s train`;
  }


  /**
   * One action in plain words, after the fact.
   * @param {DominoAction & { seat: number }} a
   */
  function actionWords(a) {
    const me = a.seat === view().seat;
    const who = seatName(a.seat);
    if (a.type === 'play') {
      const dbl = isDoubleName(a.tile) ? ` \u2014 a double, which must be covered` : '';
      const where = a.train === a.seat && !me ? 'their own train' : trainWords(a.train);
      return `${who} played ${a.tile} on ${where}${dbl}.`;
    }
    if (a.type === 'draw') return me ? 'You drew a domino from the boneyard.' : `${who} could not play and drew a domino.`;
    return me ? 'You passed, and a marker went on your train.' : `${who} passed: nothing fit, so a marker went on their train.`;
  }

  /**
   * @param {DominoRound} r
   * @param {number} roundNo
   */
  function roundOverWords(r, roundNo) {
    const who = r.outBy < 0 ? 'nobody could play any more (a blocked round)' : r.outBy === view().seat ? 'you went out!' : `${seatName(r.outBy)} went out.`;
    return `Round ${roundNo} (engine ${r.engine}-${r.engine}) is over: ${who}`;
  }

  // ---------------------------------------------------------------- the answers

  /**
   * Where the actions of a new round begin, when a round ended during these events (the match
   * deals the next round at once, so one answer can hold both). The new round's plays are the
   * dominoes now on its trains; before its first play come only draw-and-pass pairs, one per
   * seat from the round's starter on.
   */
  /**
   * @param {NonNullable<DominoAnswer['events']>} events
   * @param {DominoView} v
   */
  function newRoundStart(events, v) {
    let plays = v.trains.reduce((n, t) => n + t.tiles.length, 0);
    let idx = events.length;
    while (plays > 0 && idx > 0) { idx--; if (events[idx].action.type === 'play') plays--; }
    // a first play may be the tile its player just drew (a draw never ends a round)
    if (idx < events.length && idx > 0 && events[idx - 1].action.type === 'draw' && events[idx - 1].action.seat === events[idx].action.seat) idx--;
    const firstSeat = idx < events.length ? events[idx].action.seat : v.turn;
    const pairs = (firstSeat - v.starter + v.players) % v.players;
    const at = idx - 2 * pairs;
    if (at < 0) return idx;
    for (let i = at; i < idx; i += 2) if (events[i].action.type !== 'draw' || events[i + 1]?.action.type !== 'pass') return idx;
    return at;
  }

  /**
   * Takes a game answer: the view, the legal actions, and what happened since the last one.
   * `how`: 'start' (a new game: the bots' moves before the person's first turn), 'move' (the
   * answer to an action), 'resume' (a reloaded page: the whole game's actions, told briefly).
   */
  /**
   * @param {DominoAnswer} answer
   * @param {'start' | 'move' | 'resume'} [how]
   */
  function setView(answer, how = 'move') {
    // one watching a table together has no seat and no hand
    /** @type {DominoView} */
    const v = { ...answer.view, seat: answer.view.seat ?? null, hand: answer.view.hand ?? [] };
    ui.view = v;
    ui.legal = answer.legal ?? [];
    ui.names = answer.seats ?? ui.names;
    const events = answer.events ?? [];
    /** @type {{ text: string, mine: boolean }[]} */
    const lines = [];
    const ended = how !== 'resume' && v.rounds.length > ui.roundsSeen;
    const split = ended && v.phase === 'play' ? newRoundStart(events, v) : events.length;
    const roundBegins = { text: `Round ${v.roundNo} begins with the ${v.engine} as the engine; ${v.starter === v.seat ? 'you start' : `${seatName(v.starter)} starts`}.`, mine: false };
    if (how === 'start') lines.push(roundBegins);
    events.forEach((e, i) => {
      if (ended && i === split) lines.push({ text: roundOverWords(v.rounds[v.rounds.length - 1], v.rounds.length), mine: false }, roundBegins);
      const a = e.action;
      // the person's own draw, when it is the last thing that happened: the tile is in the view
      const text = a.type === 'draw' && a.seat === v.seat && i === events.length - 1 && v.drawn ? `You drew ${v.drawn}.` : actionWords(a);
      lines.push({ text, mine: a.seat === v.seat && !text.startsWith('You drew ') });
    });
    if (ended && split === events.length) {
      lines.push({ text: roundOverWords(v.rounds[v.rounds.length - 1], v.rounds.length), mine: false });
      if (v.phase === 'play') lines.push(roundBegins);
    }
    if (ended) ui.roundEnd = v.rounds.length - 1;
    ui.roundsSeen = v.rounds.length;
    if (how === 'resume') ui.recent = [];
    else if (!hooks.pushed) ui.recent = lines.filter((l) => !l.mine).map((l) => l.text);
    else if (lines.length) {
      // at a table together the moves come a few at a time: what happened since her own last move, gathered
      const mine = lines.map((l) => l.mine).lastIndexOf(true);
      const others = lines.slice(mine + 1).filter((l) => !l.mine).map((l) => l.text);
      ui.recent = (mine >= 0 ? others : [...ui.recent, ...others]).slice(-12);
    }
    ui.history.push(...lines.map((l) => l.text));
    if (ui.history.length > 600) ui.history.splice(0, ui.history.length - 600);
    const key = decisionKey();
    if (ui.hintKey !== key) { ui.hint = null; ui.hintKey = null; }
    if (ui.lastKey !== key) { ui.selected = null; ui.follow = null; }
    ui.lastKey = key;
  }

  /** One decision of the person: a new one clears the chosen domino and the hint. */
  function decisionKey() {
    const v = view();
    if (!v) return '';
    return `${v.roundNo}|${v.turn}|${v.hand.join(',')}|${v.drawn ?? ''}|${v.trains.map((t) => t.tiles.length).join('.')}|${v.phase}`;
  }

  /**
   * The legal plays of a domino: [{tile, train}].
   * @param {string} tile
   */
  const playsOf = (tile) => /** @type {(DominoAction & { type: 'play' })[]} */ (ui.legal.filter((a) => a.type === 'play' && a.tile === tile));
  /** @param {DominoAction['type']} type */
  const legalOf = (type) => ui.legal.find((a) => a.type === type);

  // ---------------------------------------------------------------- talking to the server

  /** @param {HTMLFormElement} form */
  function readStartForm(form) {
    const data = new FormData(form);
    /** @type {{ ruleset: string, players: number, bots: string[], round?: number, seed?: number }} */
    const body = { ruleset: String(data.get('ruleset')), players: Number(data.get('players')), bots: [String(data.get('bots'))] };
    if (data.get('length') === 'round') body.round = 0;
    const seedText = String(data.get('seed') ?? '').trim();
    if (seedText !== '') {
      const seed = Number(seedText);
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error('the deal number is a whole number of 0 or more, as My games shows it');
      body.seed = seed;
    }
    return body;
  }

  /** @param {SubmitEvent} ev */
  async function startGame(ev) {
    ev.preventDefault();
    if (live.busy) return;
    $('#start-message').textContent = '';
    let body;
    try { body = readStartForm(/** @type {HTMLFormElement} */ (ev.currentTarget)); } catch (err) { $('#start-message').textContent = `Please check the form: ${errorWords(err)}.`; return; }
    const started = live.start(body);
    $button('#start-button').disabled = true;
    try {
      const res = await started;
      Object.assign(ui, { view: null, history: [], recent: [], hint: null, hintKey: null, selected: null, message: '', roundEnd: null, roundsSeen: 0 });
      setView(res, 'start');
      showGame();
    } catch (err) {
      $('#start-message').textContent = `Could not start the game: ${errorWords(err)}`;
    }
    $button('#start-button').disabled = false;
    render();
    focusFirst();
  }

  /** @param {DominoAction} action */
  async function send(action) {
    if (live.busy || !live.session) return;
    const sent = live.send(action);
    ui.message = '';
    render();
    try {
      // a retry of an action already applied answers with the game as it stands: drawn the same way
      const { answer } = await sent;
      ui.selected = null;
      setView(answer);
    } catch (err) {
      ui.message = `Not allowed: ${errorWords(err)}`;
    }
    render();
    focusFirst();
  }

  async function askHint() {
    if (!live.session || live.busy || !ui.view || view().seat === null || view().phase === 'ended' || ui.roundEnd !== null) return;
    const asked = live.hint();
    const key = decisionKey();
    const box = $('#hint');
    box.classList.remove('hidden');
    box.textContent = 'Thinking\u2026';
    try {
      ui.hint = await asked;
    } catch (err) {
      ui.hint = { error: errorWords(err) };
    }
    ui.hintKey = key;
    render();
    $('#hint').focus();
  }

  /**
   * Shows the hint's move without making it, as the Mah Jongg table does: the hinted domino
   * chosen, and the button that makes the move (its train's "Put ... here", or Draw, or Pass)
   * outlined in gold and in focus. She presses it herself.
   */
  function followHint() {
    const s = ui.hint?.suggest;
    if (!s) return;
    if (s.type === 'play') ui.selected = s.tile;
    ui.follow = s;
    ui.message = '';
    render();
    const target = /** @type {HTMLButtonElement | null} */ (root.querySelector('.btn.advised'));
    if (target) {
      target.scrollIntoView({ block: 'nearest' });
      target.focus({ preventScroll: true });
    }
  }

  /**
   * Whether a button makes the hint's move she asked to be shown.
   * @param {DominoAction} a the button's move
   */
  function advised(a) {
    const f = ui.follow;
    if (!f || f.type !== a.type) return false;
    return f.type !== 'play' || (a.type === 'play' && f.tile === a.tile && trainKey(f.train) === trainKey(a.train));
  }

  function showGame() {
    $('#start').classList.add('hidden');
    $('#game').classList.remove('hidden');
  }

  function newGame() {
    if (!live.leave(ui.view?.phase !== 'ended')) return;
    ui.view = null;
    $('#game').classList.add('hidden');
    $('#start').classList.remove('hidden');
    $button('#hint-button').disabled = true;
    $('#start-button').focus();
  }

  function render() {
    const v = view();
    if (!v) { live.drawn(); return; }
    const pausing = ui.roundEnd !== null && v.phase === 'play';
    $('#game').classList.toggle('over', v.phase === 'ended');
    $('#game').classList.toggle('between-rounds', pausing);
    renderBoard();
    renderRecent();
    renderMe(pausing);
    renderHint(pausing);
    renderHistory();
    renderRoundEnd(pausing);
    renderEnd();
    $button('#hint-button').disabled = live.busy || v.phase === 'ended' || pausing || !live.session || v.seat === null;
    live.drawn();
  }

  function renderBoard() {
    const v = view();
    const turn = v.phase === 'ended' ? 'The game is over.' : v.turn === v.seat ? 'Your turn.' : `${seatName(v.turn)} is playing\u2026`;
    $('#status').replaceChildren(
      el('span', { class: 'fact' }, `Round ${v.roundNo} of ${v.roundsInGame}`),
      el('span', { class: 'fact' }, `Boneyard: ${v.boneyard} domino${v.boneyard === 1 ? '' : 'es'}`),
      el('span', { class: 'fact' }, rulesetWords(v.ruleset)),
      el('span', { class: 'fact turn-fact' }, turn),
    );
    const body = $('#players tbody');
    body.replaceChildren(...v.handCounts.map((n, s) => el('tr', { class: `player-row${s === v.turn && v.phase === 'play' ? ' turn' : ''}${s === v.seat ? ' me' : ''}`, data: { seat: s } },
      el('th', { scope: 'row' }, playerLabel(s)),
      el('td', { class: 'count' }, String(n)),
      el('td', { class: 'total' }, String(v.totals[s])),
    )));
    const [e] = ends(v.engine);
    $('#station').replaceChildren(
      el('span', { class: 'station-label' }, 'Engine'),
      el('span', { class: 'engine', role: 'img', 'aria-label': `the engine, double ${e}` }, dominoSvg(e, e, false)),
      el('span', { class: 'station-words' }, `The double ${e} is in the station. Every train starts from a ${e}.`),
    );
    const chosen = ui.selected ? playsOf(ui.selected) : [];
    const hinted = ui.hint?.suggest?.type === 'play' ? ui.hint.suggest : null;
    const rows = v.trains.map((t) => {
      const key = trainKey(t.train);
      const open = v.openDoubles.some((d) => trainKey(d) === key);
      const mine = t.train === v.seat;
      const name = t.train === 'mexican' ? 'Mexican train' : mine ? 'Your train' : `${seatName(t.train)}\u2019s train`;
      const badges = [];
      if (t.train === 'mexican') badges.push(el('span', { class: 'badge public' }, 'Open to everyone'));
      else if (t.marked) badges.push(el('span', { class: 'badge marker' }, mine ? 'Your marker is up: anyone may play here' : 'Marker up: anyone may play here'));
      if (open) badges.push(el('span', { class: 'badge double' }, 'Double to cover'));
      const tiles = el('div', { class: 'train-tiles' });
      if (t.tiles.length === 0) tiles.append(el('span', { class: 'empty' }, 'not started'));
      else tiles.append(...orient(t.tiles, ends(v.engine)[0]).map(([a, b]) => trainTile(a, b)));
      const fits = chosen.find((a) => trainKey(a.train) === key);
      const play = fits ? el('button', { type: 'button', class: `btn btn-main play-here${advised({ type: 'play', tile: fits.tile, train: fits.train }) ? ' advised' : ''}`, data: { train: key }, disabled: live.busy, on: () => send({ type: 'play', tile: fits.tile, train: fits.train }) }, `Put ${fits.tile} here`) : null;
      const row = el('div', { class: `train${mine ? ' mine' : ''}${t.train === 'mexican' ? ' mexican' : ''}${fits ? ' target' : ''}${open ? ' has-double' : ''}${hinted && trainKey(hinted.train) === key ? ' suggested' : ''}`, data: { train: key } },
        el('div', { class: 'train-head' }, el('h3', {}, name), ...badges),
        el('div', { class: 'train-line' }, tiles, el('span', { class: 'open-end' }, el('small', {}, 'open end '), String(t.end)), play),
      );
      return row;
    });
    $('#trains').replaceChildren(...rows);
  }

  function renderRecent() {
    const box = $('#recent');
    const watching = view().seat === null;
    const lines = ui.recent.length ? ui.recent : [watching ? 'No one has moved yet.' : 'No one else has moved since.'];
    box.setAttribute('aria-label', watching ? 'Lately' : 'Since your last move');
    box.replaceChildren(el('h2', {}, watching ? 'What happened lately' : 'Since your last move'), el('ul', {}, ...lines.map((l) => el('li', {}, l))));
  }

  /**
   * @param {DominoView} v
   * @returns {[string, string]}
   */
  function promptFor(v) {
    if (v.phase === 'ended') return ['The game is over.', ''];
    if (v.seat === null) return [`It is ${seatName(v.turn)}\u2019s turn.`, ''];
    if (v.turn !== v.seat) return ['The others are playing\u2026', ''];
    const plays = ui.legal.filter((a) => a.type === 'play');
    const draw = legalOf('draw');
    const cover = v.step.cover >= 0 || v.openDoubles.length > 0;
    const doubleOn = v.openDoubles.length ? trainWords(v.openDoubles[0]) : '';
    if (v.drawn) {
      return plays.length
        ? [`You drew ${v.drawn}. It fits: click it, then the train to put it on.`, '']
        : [`You drew ${v.drawn}. It does not fit anywhere, so pass.`, 'When you pass, a marker goes on your train and anyone may play on it until you play there again.'];
    }
    if (plays.length) {
      const detail = cover ? `First the double on ${doubleOn} must be covered: only dominoes that match its ${v.trains.find((t) => trainKey(t.train) === trainKey(v.openDoubles[0]))?.end} can be played.` : 'Dominoes that fit somewhere are bright; the others are greyed out.';
      return [ui.selected ? `Now click the train for ${ui.selected}: its \u201cPut ${ui.selected} here\u201d button.` : 'Your turn: click one of your dominoes, then the train to put it on.', detail];
    }
    if (draw) return ['Nothing in your hand fits. Draw a domino from the boneyard.', cover ? `The double on ${doubleOn} must be covered first.` : ''];
    return ['Nothing fits and the boneyard is empty, so pass.', 'A marker goes on your train.'];
  }

  /** @param {boolean} pausing */
  function renderMe(pausing) {
    const v = view();
    const [prompt, detail] = pausing ? ['The round is over: see the scores above.', ''] : promptFor(v);
    $('#prompt').textContent = prompt;
    $('#prompt-detail').textContent = detail;
    // one watching a table together has no hand, nor anything to be asked (whose turn it is is said above the table)
    $('#hand').classList.toggle('hidden', v.seat === null);
    $('#me').classList.toggle('hidden', v.seat === null);
    const actions = [];
    if (!pausing && v.phase === 'play') {
      if (legalOf('draw')) actions.push(el('button', { type: 'button', class: `btn btn-main${advised({ type: 'draw' }) ? ' advised' : ''}`, data: { action: 'draw' }, disabled: live.busy, on: () => send({ type: 'draw' }) }, 'Draw a domino'));
      if (legalOf('pass')) actions.push(el('button', { type: 'button', class: `btn btn-main${advised({ type: 'pass' }) ? ' advised' : ''}`, data: { action: 'pass' }, disabled: live.busy, on: () => send({ type: 'pass' }) }, 'Pass'));
      if (ui.selected) actions.push(el('button', { type: 'button', class: 'btn btn-quiet', data: { action: 'unselect' }, on: () => { ui.selected = null; ui.follow = null; render(); } }, 'Choose another domino'));
    }
    $('#actions').replaceChildren(...actions);
    const pips = v.hand.reduce((n, t) => n + ends(t)[0] + ends(t)[1], 0);
    const hand = [...v.hand].sort((x, y) => { const [a, b] = ends(x), [c, d] = ends(y); return c - a || d - b; });
    const hinted = ui.hint?.suggest?.type === 'play' ? ui.hint.suggest.tile : null;
    $('#hand').replaceChildren(
      el('h2', { class: 'hand-title' }, `Your dominoes: ${v.hand.length} (${pips} pips)`),
      el('div', { class: 'hand-row' }, ...hand.map((name) => {
        const [a, b] = ends(name);
        const playable = !pausing && playsOf(name).length > 0;
        const cls = ['domino', playable ? 'playable' : 'cannot', ui.selected === name ? 'selected' : '', v.drawn === name ? 'drawn' : '', hinted === name ? 'suggested' : ''].filter(Boolean).join(' ');
        return el('button', {
          type: 'button', class: cls, data: { tile: name }, disabled: live.busy || !playable,
          'aria-pressed': ui.selected === name ? 'true' : 'false',
          on: () => { ui.selected = ui.selected === name ? null : name; ui.follow = null; ui.message = ''; render(); if (ui.selected) root.querySelector('.play-here')?.scrollIntoView({ block: 'nearest' }); },
        }, dominoSvg(a, b, true), el('span', { class: 'numbers' }, `${a}\u2013${b}`), v.drawn === name ? el('span', { class: 'tag' }, ' just drawn') : null, playable ? null : el('span', { class: 'sr-only' }, ', does not fit now'));
      })),
    );
    $('#message').textContent = ui.message;
  }

  /** @param {boolean} pausing */
  function renderHint(pausing) {
    const box = $('#hint');
    const h = ui.hint;
    if (!h || pausing || view().phase === 'ended') { box.classList.add('hidden'); box.replaceChildren(); return; }
    box.classList.remove('hidden');
    if (h.error) { box.replaceChildren(el('p', { class: 'hint-do' }, `No hint: ${h.error}`)); return; }
    // a hint that is no error names the action it advises and the plan for her train
    const s = /** @type {DominoAction} */ (h.suggest);
    const path = /** @type {string[]} */ (h.path);
    const what = s.type === 'play' ? `Play ${s.tile} on ${trainWords(s.train)}.` : s.type === 'draw' ? 'Draw a domino: nothing in your hand fits.' : 'Pass: nothing fits (a marker goes on your train).';
    const plan = path.length
      ? `Plan for your train, from its open ${h.ownEnd}: ${path.join(', ')} (${path.length} domino${path.length === 1 ? '' : 'es'}). Dominoes off this path are best played on other trains.`
      : `None of your dominoes can start a path from your train's open ${h.ownEnd} yet.`;
    // the hint's button never makes the move: it shows it (the domino chosen, its button outlined), and she presses that
    const shown = ui.follow && root.querySelector('.btn.advised');
    box.replaceChildren(
      el('p', { class: 'hint-do' }, `Hint: ${what}`),
      el('p', { class: 'hint-why' }, plan),
      shown
        ? el('p', { class: 'hint-next' }, 'Now press the button outlined in gold to make that move.')
        : el('button', { type: 'button', class: 'btn', data: { action: 'follow-hint', type: s.type, tile: s.type === 'play' ? s.tile : '', train: s.type === 'play' ? s.train : '' }, disabled: live.busy, on: followHint }, s.type === 'play' ? 'Choose the domino for me' : 'Show me the button'),
    );
  }

  function renderHistory() {
    $('#log').replaceChildren(...ui.history.map((l) => el('p', {}, l)));
  }

  /**
   * Pips left and round scores for one round: the table both end panels show.
   * @param {DominoRound} r
   */
  function roundTable(r) {
    const v = view();
    const rows = r.pipsLeft.map((p, s) => el('tr', { class: 'round-row', data: { seat: s } },
      el('th', { scope: 'row' }, playerLabel(s)),
      el('td', { class: 'pips' }, p === 0 && r.outBy === s ? '0 (went out)' : String(p)),
      el('td', { class: 'total' }, String(v.totals[s])),
    ));
    return el('table', { class: 'scores' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Player'), el('th', { scope: 'col' }, 'Pips left = score this round'), el('th', { scope: 'col' }, 'Total so far'))),
      el('tbody', {}, ...rows));
  }

  /** @param {boolean} pausing */
  function renderRoundEnd(pausing) {
    const box = $('#round-end');
    if (!pausing) { box.classList.add('hidden'); box.replaceChildren(); return; }
    const v = view();
    const at = /** @type {number} */ (ui.roundEnd);
    const r = v.rounds[at];
    box.classList.remove('hidden');
    box.replaceChildren(
      el('h2', {}, roundOverWords(r, at + 1)),
      el('p', {}, 'Each player scores the pips left in their hand. The lowest total at the end of the game wins.'),
      roundTable(r),
      el('button', { type: 'button', class: 'btn btn-main', data: { action: 'next-round' }, on: () => { ui.roundEnd = null; render(); focusFirst(); } }, `Next round (round ${v.roundNo} of ${v.roundsInGame})`),
    );
  }

  function renderEnd() {
    const box = $('#end');
    const v = view();
    const result = v.result;
    if (v.phase !== 'ended' || !result) { box.classList.add('hidden'); box.replaceChildren(); return; }
    box.classList.remove('hidden');
    const low = Math.min(...result.totals);
    const winners = result.winners.map((s) => (s === v.seat ? 'you' : seatName(s)));
    const headline = v.seat !== null && result.winners.includes(v.seat)
      ? (winners.length > 1 ? `A tie for the win: ${winners.join(' and ')}, with ${low} points.` : `You won, with ${low} points!`)
      : `${winners.join(' and ')} won, with ${low} points.`;
    const last = v.rounds[v.rounds.length - 1];
    const head = el('tr', {}, el('th', { scope: 'col' }, 'Player'), ...v.rounds.map((r, i) => el('th', { scope: 'col' }, `Round ${i + 1} (${r.engine}s)`)), el('th', { scope: 'col' }, 'Total'));
    const rows = result.totals.map((t, s) => el('tr', { class: `score-row${result.winners.includes(s) ? ' winner' : ''}`, data: { seat: s } },
      el('th', { scope: 'row' }, playerLabel(s)),
      ...v.rounds.map((r) => el('td', { class: 'pips' }, String(r.pipsLeft[s]))),
      el('td', { class: 'total' }, String(t)),
    ));
    const hands = v.reveal ? el('div', { class: 'hands' }, el('h3', {}, 'Dominoes left in each hand'),
      ...v.reveal.hands.map((h, s) => el('p', { class: 'hand-left' }, el('strong', {}, `${playerLabel(s)}: `), h.length ? h.join(', ') : 'none'))) : null;
    // the parts a page leaves out (no hands kept, no New game at a table together) are left out, not written as "null"
    const parts = [
      el('h2', {}, 'The game is over'),
      el('p', { class: 'headline' }, headline),
      el('p', {}, `${roundOverWords(last, v.rounds.length)} Each player scores the pips left in their hand; the lowest total wins.`),
      el('table', { class: 'scores' }, el('thead', {}, head), el('tbody', {}, ...rows)),
      hands,
      hooks.newGame ? el('p', { class: 'note' }, `Deal number ${v.reveal?.seed ?? ''}: enter it on the start form to play the same deal again.`) : null,
      hooks.newGame ? el('button', { type: 'button', class: 'btn btn-main', data: { action: 'new-game' }, on: newGame }, 'New game') : null,
    ];
    box.replaceChildren(...parts.filter((p) => p !== null));
  }

  function focusFirst() {
    const target = root.querySelector('#round-end:not(.hidden) button, #end:not(.hidden) button, #actions button, #hand button:not(:disabled)');
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- wiring

  /** The buttons and keys of the drawing itself, on either page: Hint, H and Escape. */
  function wireTable() {
    $('#hint-button').addEventListener('click', askHint);
    // a key pressed inside another table's root is that table's (the practice page's root is the whole page)
    document.addEventListener('keydown', (e) => {
      if (!(e.target instanceof Node) || !root.contains(e.target)) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey || e.metaKey) return;
      if (!live?.session || !ui.view) return;
      if (e.key === 'h' || e.key === 'H') { e.preventDefault(); askHint(); }
      if (e.key === 'Escape' && ui.selected) { ui.selected = null; render(); }
    });
  }

  /**
   * A reloaded page takes its game up again; a page opened to play a deal again shows its start form.
   * @param {boolean} again
   */
  async function resume(again) {
    const res = again ? null : await live.resume();
    if (res) {
      // the whole game's actions come back: the history, and no round-end panel for rounds already past
      setView(res, 'resume');
      showGame();
    }
    render();
  }

  return { ui, wire: wireTable, setView, render, decisionKey, startGame, newGame, resume };
}

/**
 * The practice page (domino.html): a game against bots, started from its form. domino.html
 * calls it (domino-page.js); together.html draws its seats with dominoTable() instead.
 */
export function practicePage() {
  const live = new LiveGame({ routes: '/api/domino/games', sessionKey: 'tilemate-domino-game' });
  const table = createDominoTable(live);
  const $ = find;
  $('#start').addEventListener('submit', table.startGame);
  $('#new-button').addEventListener('click', table.newGame);
  table.wire();
  // "Play this deal again" from My games (domino.html?deal=N&ruleset=R&players=P&bots=B): the start form filled in
  const again = new URLSearchParams(location.search);
  const deal = again.get('deal');
  if (deal !== null && /^\d{1,16}$/.test(deal)) /** @type {HTMLInputElement} */ ($('#seed')).value = deal;
  for (const name of ['ruleset', 'players', 'bots']) {
    const input = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`#start input[name="${name}"]`))].find((i) => i.value === again.get(name));
    if (input) input.checked = true;
  }
  setupDisplay({ faces: false });
  table.resume(again.has('deal'));
}


/**
 * One seat of a Mexican Train table together (together.js): drawn as the practice page draws
 * its game, from `game` answers pushed by the table. `client` has LiveGame's interface;
 * `seatHooks` names the seats. Returns `update(answer)` for each new answer and
 * `showHint(hint)` for a hint the coach sent.
 * @param {LiveGame} client
 * @param {SeatHooks} [seatHooks]
 * @param {ParentNode} [root] where the table's elements are (the page)
 */
export function dominoTable(client, seatHooks = {}, root = document) {
  const table = createDominoTable(client, { newGame: false, pushed: true, ...seatHooks }, root);
  const { ui } = table;
  table.wire();
  let first = true;
  return {
    /** @param {DominoAnswer} answer */
    update(answer) {
      table.setView(answer, first ? 'resume' : 'move');
      if (first) { find('#game', root).classList.remove('hidden'); first = false; }
      table.render();
    },
    /** @param {DominoHint} hint */
    showHint(hint) {
      if (!ui.view) return;
      ui.hint = hint;
      ui.hintKey = table.decisionKey();
      table.render();
    },
  };
}
