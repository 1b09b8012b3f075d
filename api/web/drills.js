// Drills (issue 46; routes api/http/routes/drills.ts): one decision at a dealt position, her
// answer graded by the coach's hint there. The drill is named by its kind, level and number,
// so its address (drills.html?kind=discard&level=2&seed=5) opens the same position again: a
// coach can send it, and a reload loses nothing. Her tally and streak are kept in this browser.

import { checkChosen, startingCard } from './chosen-card.js';
import { call, errorWords } from './client.js';
import { $, el } from './dom.js';
import { setupDisplay } from './display.js';
import { plainLines } from './lines.js';
import { blindChoice, tileElement, tileLabel, tilesLabel, tilesInWords } from './tiles.js';

/**
 * @typedef {{ type: string, seat: number, tile?: string, tiles?: string[], blind?: number, blindUpTo?: number, size?: number, jokers?: number, claimTile?: string, choose?: { min: number, max: number }, owner?: number, exposure?: number }} LegalAction
 * @typedef {{ tile: string, size: number, jokers: number, tiles: string[] }} Exposure
 * @typedef {{ seat: number, players: number, phase: string, wallLeft: number, rack: string[], claim: { tile: string, discarder: number } | null,
 *   prompt: { kind: string, direction?: string }, seats: { seat: number, concealedCount: number, exposures: Exposure[], discards: string[] }[] }} DrillView
 * @typedef {{ id: string, words: string, form?: string }} Choice
 * @typedef {{ kind: string, level: number, seed: number, deal: number, card: string, question: string, view: DrillView, legal: LegalAction[], date?: string, situation?: string, choices?: Choice[], forms?: Map<string, string[][]> | null }} Drill
 * @typedef {{ text: string, details?: string, action: LegalAction, tiles: string[], blind?: number }} Hint
 * @typedef {{ right: boolean, agreed: boolean, asGood: boolean, verdict: string, hint: Hint, days?: number, due?: string }} Grade
 * @typedef {{ recordId: string, decision: number, kind: string, finishedAt: string }} MistakeItem
 * @typedef {{ due: MistakeItem[], dueCount: number, total: number, next: string | null }} Mistakes
 * @typedef {{ id: string, coach: string, kind: string, level: number, seeds: number[], answers: Record<string, boolean> }} DrillSet
 * @typedef {{ id: string, title: string, source: string, steps: number }} LessonItem
 * @typedef {{ lesson: string, title: string, step: number, steps: number, say: string, drill: Drill }} LessonStep
 * @typedef {{ kinds: Record<string, { right: number, tried: number }>, streak: number, best: number, daily: Record<string, boolean> }} Tally
 */

const KIND_WORDS = /** @type {Record<string, string>} */ ({
  charleston: 'Pass three in the Charleston',
  courtesy: 'The second Charleston and the courtesy',
  discard: 'Choose a discard',
  call: 'Call or let it go',
  exchange: 'Take a joker or not',
  hand: 'Which hand to aim for',
  safe: 'Safe or risky',
  dead: 'Is that hand dead?',
  score: 'What does it score?',
});
const DIRECTION_WORDS = /** @type {Record<string, string>} */ ({ right: 'to the right', across: 'across', left: 'to the left' });
const GROUP = /** @type {Record<number, string>} */ ({ 3: 'pung', 4: 'kong', 5: 'quint', 6: 'sextet' });
const TALLY_KEY = 'tilemate-drills';

/** The drill shown, its answer once given, and her choice on the rack. */
const state = {
  /** @type {Drill | null} */ drill: null,
  /** @type {Grade | null} */ grade: null,
  /** rack positions chosen @type {number[]} */ chosen: [],
  /** received tiles passed on unseen (a blind pass) */ blind: 0,
  /** the day's puzzle is shown */ daily: false,
  /** one of her own mistakes is shown: its game and action @type {{ recordId: string, decision: number } | null} */ mistake: null,
  /** a drill of a set her coach gave her is shown @type {DrillSet | null} */ set: null,
  /** a lesson's step is shown @type {LessonStep | null} */ lesson: null,
  /** the lesson's step is done: what she did right @type {string | null} */ lessonDone: null,
  /** the answer she chose at a choice drill @type {string | null} */ choice: null,
  /** the card her drills are dealt on: one of her saved cards by name, or '' for the practice card */ card: '',
};

/** Her card as the drills' requests name it: `&card=name` (nothing for the practice card). */
function cardParam() {
  return state.card ? `&card=${encodeURIComponent(state.card)}` : '';
}

/**
 * The card her drills are dealt on: the one she chose for every page (chosen-card.js), or the
 * one the address names, once checked against her saved cards; said on the form.
 */
async function loadCard() {
  const wanted = startingCard(location.search);
  /** @type {{ name: string, title?: string }[]} */
  let cards = [];
  /** Signed in, the card chosen with her account (chosen-card.js). @type {string | null | undefined} */
  let account;
  try { ({ cards = [], chosen: account } = await call('GET', '/api/cards')); } catch { cards = []; }
  const kept = checkChosen(wanted, cards, account);
  state.card = kept.name;
  const saved = cards.find((c) => c.name === kept.name);
  $('#drill-card').textContent = kept.name
    ? `Your drills are dealt on your card ${saved?.title || kept.name}, chosen on the My card page. The lessons use the practice card.`
    : kept.note || 'Your drills are dealt on the Tilemate practice card; to drill on your own card, save and choose it on the My card page.';
}
const LESSONS_KEY = 'tilemate-lessons';

/** The steps she has done of each lesson (kept in this browser). @returns {Record<string, number>} */
function lessonsDone() {
  try { return JSON.parse(localStorage.getItem(LESSONS_KEY) ?? '{}'); } catch { return {}; }
}

/** What a set asks, in words: "3 drills to choose a discard, level 1". @param {DrillSet} s */
function setWords(s) {
  return `${s.seeds.length} drill${s.seeds.length === 1 ? '' : 's'}: ${(KIND_WORDS[s.kind] ?? s.kind).toLowerCase()}, level ${s.level}`;
}

/** A day in words: "Tuesday 1 December". @param {string} iso */
function dayWords(iso) {
  return new Date(iso).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
}

/** @param {boolean} on */
function busy(on) {
  document.body.dataset.busy = on ? '1' : '0';
}

/** @returns {Tally} */
function loadTally() {
  const empty = { kinds: {}, streak: 0, best: 0, daily: {} };
  try { return { ...empty, ...JSON.parse(localStorage.getItem(TALLY_KEY) ?? '{}') }; } catch { return empty; }
}

/** @param {Tally} t */
function saveTally(t) {
  try { localStorage.setItem(TALLY_KEY, JSON.stringify(t)); } catch { /* private mode: this visit only */ }
}

function showTally() {
  const t = loadTally();
  const kinds = Object.entries(t.kinds).filter(([, k]) => k.tried > 0);
  $('#tally').textContent = kinds.length === 0
    ? 'Your answers are counted here, on this device.'
    : `${kinds.map(([k, n]) => `${KIND_WORDS[k] ?? k}: ${n.right} right of ${n.tried}`).join('; ')}. ${t.streak} right in a row now (best ${t.best}).`;
}

/** Where another seat sits from hers, as the table names it. @param {number} s @param {DrillView} v */
function seatWords(s, v) {
  const d = (s - v.seat + v.players) % v.players;
  return d === 1 ? 'Right' : d === v.players - 1 ? 'Left' : 'Across';
}

/** @param {string[]} tiles @param {string} [size] */
function tileRow(tiles, size = 'small') {
  return el('span', { class: 'tile-row inline-tiles' }, tiles.map((t) => tileElement(t, { size })));
}

/**
 * The drill opened at the top of the screen, in focus: its question, then the answer buttons and
 * the rack. Focus alone scrolls no further than it must, and the drill opens where the form's
 * button or the last answer was, far down a phone's page: its question and buttons off-screen.
 */
function showDrill() {
  const box = $('#drill');
  box.focus({ preventScroll: true });
  box.scrollIntoView({ block: 'start' });
}

/**
 * The server's sentence in a beginner's words: tiles by name ("5 Bam"), card lines by the names
 * players give them ("the second 2468 line"), never the card's notation.
 * @param {string | null | undefined} text
 */
function plain(text) {
  return tilesInWords(plainLines(text));
}

/** A drill's kind and level: "Choose a discard, level 2", "What does it score? Level 1". @param {Drill} d */
function kindAndLevel(d) {
  const kind = KIND_WORDS[d.kind] ?? d.kind;
  return `${kind}${kind.endsWith('?') ? ' Level' : ', level'} ${d.level}`;
}

/** @param {string} kind */
function legalOf(kind) {
  return (state.drill?.legal ?? []).filter((a) => a.type === kind);
}

function chosenTiles() {
  const rack = state.drill?.view.rack ?? [];
  return state.chosen.map((i) => rack[i]);
}

/** How many rack tiles her answer takes: three less any blind ones for a pass, up to three for a courtesy offer, one for a discard, none for a call or a choice. */
function toChoose() {
  const d = state.drill;
  if (!d || d.choices) return 0;
  const phase = d.view.phase;
  return phase === 'charleston' ? 3 - state.blind : phase === 'courtesy' ? 3 : phase === 'discard' ? 1 : 0;
}

function draw() {
  const d = state.drill;
  if (!d) return;
  const v = d.view;
  $('#choose').classList.add('hidden');
  $('#drill').classList.remove('hidden');
  $('#mine').classList.add('hidden');
  $('#given').classList.add('hidden');
  $('#lessons').classList.add('hidden');
  const set = state.set;
  const lesson = state.lesson;
  $('#drill-title').textContent = lesson
    ? `Lesson: ${lesson.title}, step ${lesson.step} of ${lesson.steps}`
    : set
    ? `From ${set.coach}: drill ${set.seeds.indexOf(d.seed) + 1} of ${set.seeds.length}`
    : state.mistake
    ? 'A mistake from one of your games, at that very moment'
    : state.daily
      ? `Today's puzzle (${d.date}): ${kindAndLevel(d)}`
      : `${kindAndLevel(d)}, drill ${d.seed}`;
  $('#drill-question').textContent = plain(lesson ? lesson.say : d.question);

  // what she can see at the table
  const lines = [];
  // a lesson's step at a choice drill: its words say what to look for, the drill's question names the tile or player
  if (lesson && d.choices) lines.push(el('p', { class: 'drill-ask', text: plain(d.question) }));
  if (d.situation) lines.push(el('p', { text: plain(d.situation) }));
  else if (d.kind === 'hand' && v.phase === 'charleston') lines.push(el('p', { text: 'Your tiles as they were dealt, before the Charleston.' }));
  else if (v.phase === 'courtesy') lines.push(el('p', { text: 'The Charleston is over: you and the player across may swap up to three tiles. Choose the tiles to offer, or none.' }));
  else if (v.phase === 'charleston') lines.push(el('p', { text: `You pass ${DIRECTION_WORDS[v.prompt.direction ?? 'right'] ?? 'to the right'}${legalOf('pass')[0]?.blindUpTo ? ', and on this pass you may pass on tiles you receive without looking at them (a blind pass)' : ''}.` }));
  else lines.push(el('p', { text: `The wall has ${v.wallLeft} tiles left.` }));
  if (d.kind === 'call' && v.claim) {
    lines.push(el('p', { class: 'drill-claim' }, `${seatWords(v.claim.discarder, v)} discards `, tileElement(v.claim.tile, { size: 'mid' }), '.'));
  }
  /** @type {HTMLElement[]} */
  const shown = [];
  if (v.phase !== 'charleston' && v.phase !== 'courtesy') {
    shown.push(el('h3', { text: 'What the table shows' }));
    for (const s of v.seats) {
      if (s.seat === v.seat) continue;
      shown.push(el('div', { class: 'drill-seat' },
        el('h4', { text: seatWords(s.seat, v) }),
        s.exposures.length ? el('p', {}, 'Exposed: ', ...s.exposures.map((x) => tileRow(x.tiles))) : null,
        el('p', {}, s.discards.length ? 'Discarded: ' : 'No discards yet.', s.discards.length ? tileRow(s.discards) : null)));
    }
    const mine = v.seats[v.seat];
    if (mine.exposures.length) lines.push(el('p', {}, 'Your exposures: ', ...mine.exposures.map((x) => tileRow(x.tiles))));
    if (mine.discards.length) shown.push(el('p', {}, 'Your discards: ', tileRow(mine.discards)));
  }
  $('#situation').replaceChildren(...lines);
  $('#table-shown').replaceChildren(...shown);
  drawRack();
  drawAnswer();
  drawLines();
  drawResult();
}

/** The card lines a choice drill offers (Which hand to aim for?), each by its id: none for another kind. */
function linesOffered() {
  const d = state.drill;
  return d?.kind === 'hand' ? (d.choices ?? []).filter((c) => /^.+ #\d{1,3}$/.test(c.id)) : [];
}

/**
 * The lines a hand drill offers, under its answers, behind a toggle: each by its name, drawn as
 * tiles (its closest form to her tiles, as the analyzer pages draw it) once the analyzer has
 * answered, and as the card writes it, for those who read the card's notation.
 */
function drawLines() {
  const box = $('#answer-more');
  const d = state.drill;
  const offered = linesOffered();
  if (!d || offered.length === 0) { box.replaceChildren(); return; }
  if (d.forms === undefined) askForms(d);
  const open = box.querySelector('details')?.open ?? false;
  const forms = d.forms ?? null;
  const details = el('details', { class: 'line-forms', open },
    el('summary', { text: forms ? 'See these lines drawn as tiles' : 'See how the card writes these lines' }),
    ...offered.map((c) => {
      // the line as the card writes it: the server's (its words name the line as players do), else read from the words
      const at = c.words.indexOf(` (${c.id}`);
      const written = c.form ?? (at > 0 ? c.words.slice(0, at) : '');
      const groups = forms?.get(c.id);
      return el('div', { class: 'line-form', data: { id: c.id } },
        el('p', { class: 'line-form-name', text: plain(c.words) }),
        groups ? el('div', { class: 'tile-row form' }, groups.map((g) => el('span', { class: 'form-word' }, g.map((t) => tileElement(t, { size: 'small' }))))) : null,
        written ? el('p', { class: 'note', text: `On the card: ${written}.` }) : null);
    }));
  box.replaceChildren(details);
}

/**
 * The closest form of each line a hand drill offers, as the analyzer finds it for her tiles (her
 * rack, her exposures, the tiles seen) on the drill's card; drawn once it answers. Nothing is drawn
 * when it cannot be asked, or answers for another card than the drill's.
 * @param {Drill} d
 */
async function askForms(d) {
  d.forms = null;
  const v = d.view;
  const groups = (/** @type {Exposure[]} */ xs) => xs.map((x) => x.tiles.join(' ')).join(' ; ');
  /** @type {Record<string, string>} */
  const others = {};
  for (const s of v.seats) if (s.seat !== v.seat && s.exposures.length) others[seatWords(s.seat, v).toLowerCase()] = groups(s.exposures);
  const body = { hand: v.rack.join(' '), exposed: groups(v.seats[v.seat]?.exposures ?? []), seen: v.seats.flatMap((s) => s.discards).join(' '), others, all: true };
  try {
    // her own card (not a lesson's, a mistake's or a coach's drills, dealt on their own): its text
    const own = state.card && state.drill === d && !state.lesson && !state.mistake && !state.set;
    const card = own ? /** @type {{ text: string }} */ (await call('GET', `/api/cards/${encodeURIComponent(state.card)}`)).text : undefined;
    /** @type {{ card: string, results: { id: string, groups?: { tile: string }[][] }[] }} */
    const r = await call('POST', '/api/analyze', { ...body, ...(card ? { card } : {}) });
    if (r.card !== d.card) return;
    d.forms = new Map(r.results.filter((x) => x.groups?.length).map((x) => [x.id, (x.groups ?? []).map((g) => g.map((t) => t.tile))]));
  } catch {
    return; // the lines stay named, and written as the card writes them
  }
  if (state.drill === d) drawLines();
}

function drawRack() {
  const d = /** @type {Drill} */ (state.drill);
  const g = state.grade;
  const coach = g && !d.choices ? [...(g.hint.tiles ?? [])] : [];
  const choosing = !g && !state.lessonDone && toChoose() > 0;
  $('#drill-rack').replaceChildren(...d.view.rack.map((t, i) => {
    const b = tileElement(t, { size: 'big', button: true });
    const chosen = state.chosen.includes(i);
    b.classList.toggle('selected', chosen);
    b.setAttribute('aria-pressed', String(chosen));
    const c = coach.indexOf(t);
    if (c >= 0) { b.classList.add('suggested'); b.title += " (the coach's choice)"; coach.splice(c, 1); }
    // jokers are never passed (standardized rules 4.3); a lesson lets her try, and says so
    b.disabled = !choosing || ((d.view.phase === 'charleston' || d.view.phase === 'courtesy') && t === 'J' && !state.lesson);
    b.addEventListener('click', () => choose(i));
    return b;
  }));
}

/** @param {number} i */
function choose(i) {
  const at = state.chosen.indexOf(i);
  const max = toChoose();
  $('#drill-message').textContent = '';
  if (at >= 0) state.chosen.splice(at, 1);
  else if (max === 1) state.chosen = [i];
  else if (state.chosen.length < max) state.chosen.push(i);
  else $('#drill-message').textContent = `You have chosen ${max} already: tap one again to put it back.`;
  drawRack();
  drawAnswer();
}

/** @param {string} text @param {() => void} onClick @param {string} [cls] @param {string} [id] */
function button(text, onClick, cls = '', id = '') {
  const b = el('button', { type: 'button', class: `btn ${cls}`.trim(), text, on: onClick });
  if (id) b.id = id;
  return b;
}

function drawAnswer() {
  const d = /** @type {Drill} */ (state.drill);
  const box = $('#answer');
  if (state.grade || state.lessonDone) { box.replaceChildren(); return; }
  const seat = d.view.seat;
  /** @type {HTMLElement[]} */
  const out = [];
  if (d.choices) {
    for (const c of d.choices) {
      const b = button(plain(c.words), () => answerChoice(c.id), 'btn-choice');
      b.dataset.choice = c.id;
      out.push(b);
    }
  } else if (d.view.phase === 'courtesy') {
    const tiles = chosenTiles();
    out.push(button(tiles.length ? `Offer ${tilesLabel(tiles)}` : 'Offer nothing', () => answer({ type: 'courtesy', seat, tiles: chosenTiles() }), 'btn-main', 'answer-button'));
  } else if (d.view.phase === 'charleston') {
    const upTo = legalOf('pass')[0]?.blindUpTo ?? 0;
    if (upTo > 0) {
      // the blind pass: a choice beside the Pass button, never drawn like it
      out.push(blindChoice(upTo, state.blind, (b) => {
        state.blind = b;
        while (state.chosen.length > 3 - b) state.chosen.pop();
        drawRack();
        drawAnswer();
      }, (text, onClick, cls, kind) => {
        const b = button(text, onClick, cls);
        b.dataset.action = kind;
        return b;
      }));
    }
    const tiles = chosenTiles();
    const need = 3 - state.blind;
    const pass = button(tiles.length === need ? `Pass ${[tiles.length ? tilesLabel(tiles) : '', state.blind ? `${state.blind} unseen` : ''].filter(Boolean).join(' and ')}` : `Pass (${tiles.length} of ${need} chosen)`,
      () => answer({ type: 'pass', seat, tiles: chosenTiles(), blind: state.blind }), 'btn-main', 'answer-button');
    pass.disabled = tiles.length !== need;
    out.unshift(pass);
  } else if (d.view.phase === 'discard') {
    const [tile] = chosenTiles();
    const go = button(tile ? `Discard ${tileLabel(tile)}` : 'Discard (choose a tile)', () => answer({ type: 'discard', seat, tile: chosenTiles()[0] }), 'btn-main', 'answer-button');
    go.disabled = !tile || !legalOf('discard').some((a) => a.tile === tile);
    out.push(go);
    // a joker in an exposure she may take (teaching guide, Part 4, rule 7): the exchange is an answer too
    for (const a of legalOf('exchange')) {
      const x = d.view.seats[a.owner ?? seat]?.exposures[a.exposure ?? 0];
      const whose = a.owner === seat ? 'your own' : `${seatWords(a.owner ?? seat, d.view)}'s`;
      const b = button(`Exchange your ${tileLabel(a.tile ?? '')} for the joker in ${whose} ${GROUP[x?.size ?? 3] ?? 'group'}`, () => answer(a));
      b.dataset.action = 'exchange';
      out.push(b);
    }
  } else {
    const tile = d.view.claim ? tileLabel(d.view.claim.tile) : 'the tile';
    for (const a of legalOf('callMahJongg')) out.push(button(`Mah Jongg with the ${tile}!`, () => answer(a), 'btn-mj'));
    for (const a of legalOf('call')) {
      out.push(button(`Call the ${tile} for a ${GROUP[a.size ?? 3] ?? 'group'}${a.jokers ? ` with ${a.jokers} joker${a.jokers > 1 ? 's' : ''}` : ''}`, () => answer(a)));
    }
    for (const a of legalOf('decline')) out.push(button(`Let the ${tile} go`, () => answer(a), '', 'decline-button'));
  }
  box.replaceChildren(...out);
}

/** A move at the table as her answer. @param {LegalAction} action */
function answer(action) {
  const { blindUpTo: _b, choose: _c, claimTile: _t, ...sent } = action;
  return send({ answer: sent });
}

/** One of a choice drill's answers as hers. @param {string} id */
function answerChoice(id) {
  state.choice = id;
  return send({ choice: id });
}

/** Her answer sent and graded (a lesson's step: checked). @param {{ answer: object } | { choice: string }} given */
async function send(given) {
  const d = state.drill;
  if (!d || state.grade || state.lessonDone || document.body.dataset.busy === '1') return;
  if (state.lesson) return lessonAnswer(state.lesson, given);
  busy(true);
  $('#drill-message').textContent = 'The coach is weighing your answer\u2026';
  try {
    /** @type {Grade} */
    const g = state.mistake
      ? await call('POST', '/api/drills/mine/answer', { ...state.mistake, ...given })
      : await call('POST', '/api/drills/answer', { kind: d.kind, level: d.level, seed: d.seed, ...given, ...(state.set ? { set: state.set.id } : state.card ? { card: state.card } : {}) });
    if (state.set && !(String(d.seed) in state.set.answers)) state.set.answers[String(d.seed)] = g.right;
    state.grade = g;
    const t = loadTally();
    // her own mistakes are counted by the server (My games adds both); the streak counts every answer
    if (!state.mistake) {
      const k = (t.kinds[d.kind] ??= { right: 0, tried: 0 });
      k.tried++;
      if (g.right) k.right++;
    }
    t.streak = g.right ? t.streak + 1 : 0;
    t.best = Math.max(t.best, t.streak);
    if (state.daily && d.date) t.daily[d.date] = g.right;
    saveTally(t);
    $('#drill-message').textContent = '';
  } catch (err) {
    $('#drill-message').textContent = `Your answer could not be graded: ${errorWords(err)}`;
  }
  draw();
  busy(false);
  if (state.grade) $('#result').focus();
}

/**
 * Her move at a lesson's step, checked: done, and the step is kept as done; or not yet, the
 * reason said, her choice cleared, and the step stays.
 * @param {LessonStep} lesson @param {{ answer: object } | { choice: string }} given
 */
async function lessonAnswer(lesson, given) {
  busy(true);
  try {
    /** @type {{ ok: boolean, words: string }} */
    const r = await call('POST', '/api/lessons/check', { lesson: lesson.lesson, step: lesson.step, ...given });
    if (r.ok) {
      state.lessonDone = r.words;
      const done = lessonsDone();
      done[lesson.lesson] = Math.max(done[lesson.lesson] ?? 0, lesson.step);
      try { localStorage.setItem(LESSONS_KEY, JSON.stringify(done)); } catch { /* this visit only */ }
      $('#drill-message').textContent = '';
    } else {
      state.chosen = [];
      state.choice = null;
      $('#drill-message').textContent = plain(r.words);
    }
  } catch (err) {
    $('#drill-message').textContent = `Your move could not be checked: ${errorWords(err)}`;
  }
  draw();
  busy(false);
  if (state.lessonDone) $('#result').focus();
}

/** A lesson's step at its position. @param {string} id @param {number} step */
async function openLesson(id, step) {
  busy(true);
  try {
    /** @type {LessonStep} */
    const l = await call('GET', `/api/lessons/${encodeURIComponent(id)}/${step}`);
    Object.assign(state, { drill: l.drill, grade: null, chosen: [], blind: 0, daily: false, mistake: null, set: null, lesson: l, lessonDone: null, choice: null });
    history.replaceState(null, '', `drills.html?lesson=${encodeURIComponent(id)}&step=${step}`);
    $('#drill-message').textContent = '';
    draw();
    showDrill();
  } catch (err) {
    $('#tally').textContent = `The lesson could not be opened: ${errorWords(err)}`;
  }
  busy(false);
}

/** The lessons, each with how far she got. */
async function showLessons() {
  /** @type {LessonItem[]} */
  let lessons = [];
  try { lessons = (await call('GET', '/api/lessons')).lessons ?? []; } catch { lessons = []; }
  const done = lessonsDone();
  $('#lesson-list').replaceChildren(...lessons.map((l) => {
    const n = Math.min(done[l.id] ?? 0, l.steps);
    const li = el('li', { text: `${l.title} (${l.steps} step${l.steps === 1 ? '' : 's'}). ${n === l.steps ? 'Done. ' : n > 0 ? `${n} of ${l.steps} done. ` : ''}` });
    li.append(button(n === l.steps ? 'Again' : n > 0 ? 'Go on' : 'Start', () => openLesson(l.id, n === l.steps ? 1 : n + 1), n > 0 && n < l.steps ? 'btn-main' : '', `lesson-${l.id}`));
    return li;
  }));
}

function drawResult() {
  const box = $('#result');
  if (state.lesson) {
    const l = state.lesson;
    box.classList.toggle('hidden', !state.lessonDone);
    if (!state.lessonDone) { box.replaceChildren(); return; }
    box.className = 'drill-right';
    const last = l.step === l.steps;
    box.replaceChildren(
      el('p', { class: 'verdict', text: plain(state.lessonDone) }),
      el('div', { class: 'buttons' },
        button(last ? 'Back to the lessons' : 'Next step', () => (last ? back() : openLesson(l.lesson, l.step + 1)), 'btn-main', 'next-button')),
    );
    return;
  }
  const g = state.grade;
  const d = /** @type {Drill} */ (state.drill);
  box.classList.toggle('hidden', !g);
  if (!g) { box.replaceChildren(); return; }
  const t = loadTally();
  box.className = g.right ? 'drill-right' : 'drill-wrong';
  const mine = d.choices?.find((c) => c.id === state.choice);
  box.replaceChildren(
    // a line's name begins a button in a capital, but not mid-sentence
    ...(mine ? [el('p', { class: 'note', text: plain(`Your answer: ${mine.words.replace(/^The /, 'the ')}.`) })] : []),
    el('p', { class: 'verdict', text: plain(g.verdict) }),
    el('p', { class: 'why', text: plain(g.hint.text) }),
    ...(!g.agreed && !d.choices && (g.hint.tiles ?? []).length > 0 ? [el('p', { class: 'note', text: 'On your rack, your choice is outlined in blue and the coach’s in gold.' })] : []),
    ...(g.hint.details ? [el('details', {}, el('summary', { text: 'Details' }), el('p', { text: plain(g.hint.details) }))] : []),
    ...(g.days !== undefined && g.due ? [el('p', { class: 'comes-back', text: g.right ? `It comes back on ${dayWords(g.due)}, to check you still know it.` : `It comes back on ${dayWords(g.due)}, to try again.` })] : []),
    el('p', { class: 'note', text: `${t.streak} right in a row now (best ${t.best}).` }),
    el('div', { class: 'buttons' },
      state.daily ? null : button(state.mistake ? 'Next mistake' : 'Next drill', () => (state.mistake ? nextMistake() : state.set ? nextOfSet(state.set) : next()), 'btn-main', 'next-button'),
      button('Choose another kind', () => back(), state.daily ? 'btn-main' : '', 'back-button')),
  );
}

/**
 * Opens a drill: the day's puzzle, or one by kind, level and number (a new number when none
 * is given), or one of a set her coach gave her.
 * @param {string} path @param {boolean} daily @param {DrillSet | null} [set]
 */
async function open(path, daily, set = null) {
  busy(true);
  $('#drill-message').textContent = '';
  try {
    /** @type {Drill} */
    const d = await call('GET', path);
    Object.assign(state, { drill: d, grade: null, chosen: [], blind: 0, daily, mistake: null, set, lesson: null, lessonDone: null, choice: null });
    if (!daily && !set) history.replaceState(null, '', `drills.html?kind=${d.kind}&level=${d.level}&seed=${d.seed}${cardParam()}`);
    draw();
    showDrill();
  } catch (err) {
    $('#choose').classList.remove('hidden');
    $('#tally').textContent = `The drill could not be dealt: ${errorWords(err)}`;
  }
  busy(false);
}

function chosenKind() {
  const form = /** @type {HTMLFormElement} */ ($('#choose'));
  const data = new FormData(form);
  return { kind: String(data.get('kind') ?? 'charleston'), level: String(data.get('level') ?? '1') };
}

function next() {
  const d = /** @type {Drill} */ (state.drill);
  return open(`/api/drills?kind=${d.kind}&level=${d.level}${cardParam()}`, false);
}

/** The next drill of a set she has not answered, or back to the form with how she did. @param {DrillSet} set */
function nextOfSet(set) {
  const seed = set.seeds.find((s) => !(String(s) in set.answers));
  if (seed === undefined) {
    const right = Object.values(set.answers).filter(Boolean).length;
    back();
    $('#tally').textContent = `You have done all ${set.seeds.length} of ${set.coach}'s drills: ${right} right.`;
    return;
  }
  return open(`/api/drills?kind=${set.kind}&level=${set.level}&seed=${seed}`, false, set);
}

/** The sets her coaches gave her, on the form, each with how far she is. */
async function showGiven() {
  /** @type {DrillSet[]} */
  let sets = [];
  try { sets = (await call('GET', '/api/drills/given')).sets ?? []; } catch { sets = []; }
  $('#given').classList.toggle('hidden', sets.length === 0);
  $('#given-sets').replaceChildren(...sets.map((s) => {
    const done = Object.keys(s.answers).length;
    const right = Object.values(s.answers).filter(Boolean).length;
    const li = el('li', { text: `${s.coach} gave you ${setWords(s)}. ${done === s.seeds.length ? `All done: ${right} right.` : `${done} done so far.`} ` });
    if (done < s.seeds.length) li.append(button(done === 0 ? 'Start them' : 'Go on', () => nextOfSet(s), 'btn-main'));
    return li;
  }));
}

/** Her mistakes due now, in words, on the form: and the button to practise them. */
async function showMine() {
  /** @type {Mistakes | null} */
  let mine = null;
  try { mine = await call('GET', '/api/drills/mine'); } catch { mine = null; }
  const box = $('#mine');
  box.classList.toggle('hidden', !mine || mine.total === 0);
  if (!mine || mine.total === 0) return mine;
  const n = mine.dueCount;
  $('#mine-words').textContent = n > 0
    ? `${n} of the mistakes the reviews of your games found ${n === 1 ? 'is' : 'are'} due for practice today.`
    : `Nothing is due today: your next mistake comes back on ${dayWords(/** @type {string} */ (mine.next))}.`;
  /** @type {HTMLButtonElement} */ ($('#mine-button')).disabled = n === 0;
  return mine;
}

/** The next of her mistakes due, or a word that there is none left today. */
async function nextMistake() {
  busy(true);
  /** @type {Mistakes | null} */
  let mine = null;
  try { mine = await call('GET', '/api/drills/mine'); } catch (err) { $('#drill-message').textContent = `Your mistakes could not be read: ${errorWords(err)}`; }
  const item = mine?.due[0];
  if (!item) {
    busy(false);
    back();
    $('#tally').textContent = mine?.next ? `That was the last one due today: the next comes back on ${dayWords(mine.next)}.` : 'No mistakes are due now.';
    return;
  }
  try {
    /** @type {Drill} */
    const d = await call('GET', `/api/drills/mine/${encodeURIComponent(item.recordId)}/${item.decision}`);
    Object.assign(state, { drill: d, grade: null, chosen: [], blind: 0, daily: false, mistake: { recordId: item.recordId, decision: item.decision }, lesson: null, lessonDone: null, choice: null });
    draw();
    showDrill();
  } catch (err) {
    $('#drill-message').textContent = `That mistake could not be shown: ${errorWords(err)}`;
  }
  busy(false);
}

function back() {
  state.drill = null;
  state.mistake = null;
  state.set = null;
  state.lesson = null;
  state.lessonDone = null;
  $('#lessons').classList.remove('hidden');
  showLessons();
  history.replaceState(null, '', 'drills.html');
  $('#drill').classList.add('hidden');
  $('#choose').classList.remove('hidden');
  showTally();
  showMine();
  showGiven();
  $('#start-button').focus();
}

/** Her card, once checked: drills wait for it. */
const cardKnown = loadCard();
$('#choose').addEventListener('submit', async (e) => {
  e.preventDefault();
  const { kind, level } = chosenKind();
  await cardKnown;
  open(`/api/drills?kind=${encodeURIComponent(kind)}&level=${encodeURIComponent(level)}${cardParam()}`, false);
});
$('#daily-button').addEventListener('click', async () => {
  await cardKnown;
  open(`/api/drills/daily${state.card ? `?card=${encodeURIComponent(state.card)}` : ''}`, true);
});
$('#mine-button').addEventListener('click', () => nextMistake());
setupDisplay();
showTally();
showMine();
showGiven();
showLessons();
// an address naming a drill opens it (a link a coach sent, or this page reloaded)
const q = new URLSearchParams(location.search);
if (q.has('lesson')) openLesson(q.get('lesson') ?? '', Number(q.get('step') ?? 1) || 1);
else if (q.has('kind') && q.has('level')) {
  for (const name of ['kind', 'level']) {
    const input = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`#choose input[name="${name}"]`))].find((i) => i.value === q.get(name));
    if (input) input.checked = true;
  }
  const seed = q.get('seed');
  cardKnown.then(() => open(`/api/drills?kind=${encodeURIComponent(q.get('kind') ?? '')}&level=${encodeURIComponent(q.get('level') ?? '')}${seed && /^\d{1,10}$/.test(seed) ? `&seed=${seed}` : ''}${cardParam()}`, false));
}
