// "My card": a card typed or pasted in the notation, checked as it is typed
// (POST /api/cards/check: every bad line with its token), each line's ways to make it and an
// example winning hand; saved on the server (PUT /api/cards/:name) and chosen for every page
// (chosen-card.js). What she types is kept in this browser as a draft until it is saved, and
// nothing she typed is replaced (by the example, or a saved card opened) without asking first,
// with an Undo after.

import { cardWords, chooseCard, chosenCard } from './chosen-card.js';
import { call } from './client.js';
import { pageTile } from './lines.js';

const $ = (id) => document.getElementById(id);

/** A small original card to start from (not a published card: see cards/). */
const EXAMPLE = `card: My practice card
// a comment runs to the end of the line
[Evens]
22a 444a 6666a 888a FF        ; x 25
FF 2222a 44b 66b 8888a        ; x 30
[Runs]
11a 222a 3333a 444a 55a       ; x 25 consec
[Winds]
NNNN EEE WWW SSSS             ; c 40
`;

const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** The card being typed and its name, kept in this browser until it is saved. */
const DRAFT_KEY = 'tilemate-card-draft';

function busy(on) {
  busy.n = (busy.n ?? 0) + (on ? 1 : -1);
  document.body.dataset.busy = String(busy.n);
}

let timer = null;
let asked = 0;

async function check() {
  const text = $('card-text').value;
  const mine = ++asked;
  if (text.trim() === '') {
    $('problems').replaceChildren();
    $('lines-note').textContent = 'Type a card to see its lines.';
    $('card-lines').replaceChildren();
    return;
  }
  busy(true);
  try {
    const r = await call('POST', '/api/cards/check', { text });
    if (mine === asked) draw(r);
  } catch (err) {
    if (mine === asked) $('problems').replaceChildren(item(`The card could not be checked: ${err.message}`, 'problem'));
  } finally {
    busy(false);
  }
}

function item(text, cls) {
  const li = document.createElement('li');
  li.textContent = text;
  if (cls) li.className = cls;
  return li;
}

/** "card line 4: "44q": "q" is not a tile" as a player reads it: the line, the word, what is wrong. */
function problemWords(e) {
  const what = e.message.replace(/^card line \d+: /, '').replace(/^"[^"]*": /, '');
  if (e.line === null) return `The card: ${what}`;
  return `Line ${e.line}${e.token ? `, at "${e.token}"` : ''}: ${what}`;
}

function draw(r) {
  const box = $('problems');
  if (r.errors.length) {
    const h = document.createElement('p');
    h.className = 'problem-head';
    h.textContent = r.errors.length === 1 ? 'One line needs mending:' : `${r.errors.length} lines need mending:`;
    const ul = document.createElement('ul');
    ul.className = 'problems';
    ul.append(...r.errors.map((e) => {
      const li = item(problemWords(e), 'problem');
      if (e.line !== null) li.dataset.line = String(e.line);
      if (e.token) li.dataset.token = e.token;
      return li;
    }));
    box.replaceChildren(h, ul);
  } else {
    const p = document.createElement('p');
    p.className = 'all-good';
    p.textContent = `Every line is well written: ${r.name}, ${r.lines.length} line${r.lines.length === 1 ? '' : 's'}.`;
    box.replaceChildren(p);
  }
  $('lines-note').textContent = r.lines.length ? 'Each line with the number of ways to make it and one winning hand.' : 'No line can be read yet.';
  $('card-lines').replaceChildren(...r.lines.map(lineElement));
}

function lineElement(l) {
  const el = document.createElement('article');
  el.className = 'card-line my-line';
  el.dataset.id = l.id;
  el.dataset.forms = String(l.forms);
  const h = document.createElement('h3');
  const id = document.createElement('span');
  id.textContent = `${l.id}${l.concealed ? ' (concealed)' : ''}`;
  const worth = document.createElement('span');
  worth.textContent = `${l.value} points`;
  h.append(id, worth);
  const p = document.createElement('p');
  p.textContent = `Line ${l.fileLine}: ${l.pattern}. ${l.forms === 1 ? 'One way' : `${l.forms} ways`} to make it; for example:`;
  const row = document.createElement('div');
  row.className = 'tile-row example';
  row.append(...l.example.split(' ').filter(Boolean).map((t) => pageTile(t)));
  el.append(h, p, row);
  return el;
}

// ---------------------------------------------------------------- saved cards

async function listSaved() {
  const ul = $('saved');
  try {
    const r = await call('GET', '/api/cards');
    savedCards = r.cards;
    // a kept choice of a card that is gone goes back to the practice card
    if (chosenCard() && !r.cards.some((c) => c.name === chosenCard())) chooseCard('');
    showChosen();
    if (!r.cards.length) { ul.replaceChildren(item('None yet. Write a card, give it a name and press Save.', 'empty')); return; }
    ul.replaceChildren(practiceItem(), ...r.cards.map((c) => {
      const li = document.createElement('li');
      li.dataset.name = c.name;
      const words = document.createElement('span');
      words.textContent = `${c.title} (${c.name}, ${c.lines} lines)`;
      const use = document.createElement('a');
      use.className = 'btn';
      use.href = `chase.html?card=${encodeURIComponent(c.name)}`;
      named(use, 'Use it to choose a hand', c.title);
      const game = document.createElement('a');
      game.className = 'btn';
      game.href = `./?card=${encodeURIComponent(c.name)}`;
      named(game, 'Play a game on it', c.title);
      const edit = button('Edit', c.title, async () => {
        const t = await call('GET', `/api/cards/${encodeURIComponent(c.name)}`);
        replaceText(t.text, c.name, `Replace what you have typed with your saved card ${c.title}?`, `Your saved card ${c.title} is in the box`);
      });
      const del = button('Delete', c.title, async () => {
        if (!confirm(`Delete the card ${c.title}?`)) return;
        await call('DELETE', `/api/cards/${encodeURIComponent(c.name)}`);
        listSaved();
      });
      const tools = document.createElement('span');
      tools.className = 'saved-tools';
      tools.append(chooseControl(c.name, c.title), use, game, edit, del);
      li.append(words, tools);
      return li;
    }));
  } catch (err) {
    ul.replaceChildren(item(`The saved cards could not be listed: ${err.message}`, 'problem'));
  }
}

let savedCards = [];

/** "Your card": the one every page starts on (chosen-card.js). */
function showChosen() {
  const name = chosenCard();
  const card = savedCards.find((c) => c.name === name);
  $('chosen-words').textContent = card
    ? `Your card is ${cardWords(card)}: every page (Which hand, the practice table, tables with friends) starts on it.`
    : 'Your card is the Tilemate practice card: choose one of your saved cards to play on it everywhere.';
}

/** The chosen card says so; another has a button to choose it. */
function chooseControl(name, title) {
  if (chosenCard() === name) {
    const mark = document.createElement('strong');
    mark.className = 'chosen-mark';
    mark.textContent = 'Your card';
    return mark;
  }
  return button('Choose it', title, () => { chooseCard(name); listSaved(); });
}

/** The practice card, to go back to it. */
function practiceItem() {
  const li = document.createElement('li');
  li.dataset.name = '';
  const words = document.createElement('span');
  words.textContent = 'Tilemate practice card (comes with Tilemate)';
  const tools = document.createElement('span');
  tools.className = 'saved-tools';
  tools.append(chooseControl('', 'Tilemate practice card'));
  li.append(words, tools);
  return li;
}

/** A control's words, then the card it acts on for screen readers (the visible words start its name). */
function named(el, text, title) {
  const extra = document.createElement('span');
  extra.className = 'sr-only';
  extra.textContent = `: ${title}`;
  el.replaceChildren(text, extra);
}

function button(text, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn btn-quiet';
  named(b, text, title);
  b.addEventListener('click', onClick);
  return b;
}

async function save() {
  const name = $('card-name').value.trim();
  const msg = $('save-message');
  if (!NAME.test(name)) { msg.textContent = 'Give the card a name of small letters, digits and hyphens, such as my-card-2026.'; return; }
  busy(true);
  try {
    const r = await call('PUT', `/api/cards/${encodeURIComponent(name)}`, { text: $('card-text').value });
    // a card just saved is the one she means to play: every page starts on it
    chooseCard(r.name);
    forgetDraft();
    // saved: what was in the box before is no longer offered back
    before = null;
    $('undo-row').classList.add('hidden');
    msg.textContent = `Saved as ${r.name}: ${r.title}, ${r.lines} lines, and chosen as your card.`;
    await listSaved();
  } catch (err) {
    msg.textContent = `Not saved: ${err.message}`;
  } finally {
    busy(false);
  }
}

// ---------------------------------------------------------------- the draft, and nothing replaced unasked

function keepDraft() {
  const text = $('card-text').value;
  try {
    if (text.trim() === '') localStorage.removeItem(DRAFT_KEY);
    else localStorage.setItem(DRAFT_KEY, JSON.stringify({ text, name: $('card-name').value }));
  } catch { /* private mode or full: the draft lives in this page only */ }
}

function forgetDraft() {
  try { localStorage.removeItem(DRAFT_KEY); } catch { /* nothing kept */ }
  $('draft-note').classList.add('hidden');
}

/** A draft left in this browser is put back, with a note saying so and a way to discard it. */
function restoreDraft() {
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? 'null'); } catch { draft = null; }
  if (typeof draft?.text !== 'string' || draft.text.trim() === '') return;
  $('card-text').value = draft.text.slice(0, 20_000);
  if (typeof draft.name === 'string') $('card-name').value = draft.name.slice(0, 40);
  $('draft-words').textContent = 'Draft restored: the card you were typing before is back in the box.';
  $('draft-note').classList.remove('hidden');
}

/** What was in the box before the last replacement, for Undo. */
let before = null;

/** The box takes new text: at once when it is empty, else only once she says yes; Undo puts hers back. */
function replaceText(text, name, question, done) {
  const typed = $('card-text').value;
  const go = () => {
    before = { text: typed, name: $('card-name').value };
    $('card-text').value = text;
    if (name !== null) $('card-name').value = name;
    $('ask').classList.add('hidden');
    $('draft-note').classList.add('hidden');
    if (typed.trim() !== '') {
      $('undo-words').textContent = `${done}; Undo puts back what you had typed.`;
      $('undo-row').classList.remove('hidden');
    }
    keepDraft();
    check();
  };
  if (typed.trim() === '' || typed === text) { go(); return; }
  $('ask-words').textContent = question;
  $('ask').classList.remove('hidden');
  $('undo-row').classList.add('hidden');
  $('ask-yes').onclick = go;
  $('ask-no').focus();
}

function undo() {
  if (!before) return;
  $('card-text').value = before.text;
  $('card-name').value = before.name;
  before = null;
  $('undo-row').classList.add('hidden');
  keepDraft();
  check();
  $('card-text').focus();
}

$('card-text').addEventListener('input', () => {
  keepDraft();
  $('undo-row').classList.add('hidden');
  clearTimeout(timer);
  timer = setTimeout(check, 300);
});
$('card-name').addEventListener('input', keepDraft);
$('example').addEventListener('click', () => replaceText(EXAMPLE, null, 'Replace what you have typed with the example?', 'The example is in the box'));
$('ask-no').addEventListener('click', () => { $('ask').classList.add('hidden'); $('card-text').focus(); });
$('undo').addEventListener('click', undo);
$('discard-draft').addEventListener('click', () => {
  const typed = $('card-text').value;
  before = { text: typed, name: $('card-name').value };
  $('card-text').value = '';
  $('card-name').value = '';
  forgetDraft();
  $('undo-words').textContent = 'The draft is discarded; Undo brings it back.';
  $('undo-row').classList.remove('hidden');
  check();
});
$('save').addEventListener('click', save);
restoreDraft();
listSaved();
check();
