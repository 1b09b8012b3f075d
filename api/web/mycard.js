// "My card" (issue 44): the card she plays, entered as it is printed (card-editor.js: groups,
// a tap for each colour, the note, X or C, the value, under the card's headings), checked line
// by line as she goes, each line with the hands that make it; or written in Tilemate's notation
// for those who like it (POST /api/cards/check), the two round-tripping through POST
// /api/cards/printed and the reading's text. Saved on the server (PUT /api/cards/:name) and
// chosen for every page (chosen-card.js); opened from and downloaded as a .card file; started
// from the practice card. What she enters is kept in this browser as a draft until it is saved,
// and nothing she typed is replaced (by the practice card, a file, a photo, a saved card) without
// asking first, with an Undo after.

import { CardEditor } from './card-editor.js';
import { shareControls, sharedFromWords, takeOffList } from './card-share.js';
import { cardWords, checkChosen, chooseCard, chosenCard } from './chosen-card.js';
import { wireCodeBox } from './code-box.js';
import { call, errorCode } from './client.js';
import { byId as $ } from './dom.js';
import { pageTile } from './lines.js';

/** @import { EditorCard, PrintedCard } from './card-editor.js' */
/** @import { SavedCard } from './types.js' */

/** A saved card on her list, as GET /api/cards gives it: how many lines it has. @typedef {SavedCard & { title: string, lines: number, coach?: boolean }} ListedCard */

/** A card kept to be put back (Undo): the way it was entered, the editor's card, the typed notation, the name. @typedef {{ mode: string, card: EditorCard, text: string, name: string }} Kept */

/** A small original card to start the notation from (not a published card: see cards/). */
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

/** A name she saves her own card under (PUT /api/cards/:name). */
const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** The card being entered, its name and the way it is entered, kept in this browser until it is saved. */
const DRAFT_KEY = 'tilemate-card-draft';
/** The way she last chose to enter a card: as printed, or in the notation. */
const MODE_KEY = 'tilemate-card-mode';
/** A card's text at most (the server's limit, routes/cards.ts). */
const MAX_CHARS = 20_000;

// ---------------------------------------------------------------- busy: what the page waits for

const waiting = { work: 0, reading: false, checking: false };
function showBusy() {
  document.body.dataset.busy = String(waiting.work + (waiting.reading ? 1 : 0) + (waiting.checking ? 1 : 0));
}
/** @param {boolean} on */
function busy(on) {
  waiting.work += on ? 1 : -1;
  showBusy();
}

// ---------------------------------------------------------------- the editor and the mode

let mode = 'printed';

const editor = new CardEditor(
  { title: /** @type {HTMLInputElement} */ ($('card-title')), sections: $('sections'), addSection: /** @type {HTMLButtonElement} */ ($('add-section')), status: $('card-status'), message: $('read-message'), cardProblems: $('card-problems') },
  {
    changed: () => { keepDraft(); afterEdit(); },
    busy: (on) => { waiting.reading = on; showBusy(); },
    undoable: (words) => offerUndo(words),
  },
);

/** @param {string} m */
function setMode(m) {
  mode = m;
  $('printed-mode').classList.toggle('hidden', m !== 'printed');
  $('notation-mode').classList.toggle('hidden', m !== 'notation');
  $('card-status').classList.toggle('hidden', m !== 'printed');
  $('card-problems').classList.toggle('hidden', m !== 'printed');
  $('read-message').textContent = '';
  try { localStorage.setItem(MODE_KEY, m); } catch { /* private mode: this page only */ }
}

const typedText = () => /** @type {HTMLTextAreaElement} */ ($('card-text')).value;

/** Something she typed is there: a new card replaces it only once she says so. */
function hasContent() {
  return mode === 'printed' ? !editor.isEmpty() : typedText().trim() !== '';
}

/** The card in the notation as it stands: the reading's text (every line the editor has read, unsettled ones kept as drafts), or what is typed in the notation. */
async function currentText() {
  if (mode === 'notation') return typedText();
  if (editor.isEmpty()) return '';
  return (await editor.reading())?.text ?? '';
}

/**
 * The editor's card as it was written in the notation: brought back unchanged, the editor takes it back as it was (her typing, marks and all).
 * @type {{ text: string, card: EditorCard } | null}
 */
let writtenFrom = null;

/** Writes the card in the notation: the editor's reading becomes the text, to be changed there. */
async function toNotation() {
  busy(true);
  try {
    const text = await currentText();
    writtenFrom = { text, card: editor.snapshot() };
    /** @type {HTMLTextAreaElement} */ ($('card-text')).value = text;
    setMode('notation');
    keepDraft();
    check();
    $('card-text').focus();
  } catch (err) {
    $('tool-message').textContent = `The card cannot be written in the notation now: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

/** Back to the card as printed: the notation read into it (POST /api/cards/printed); a text with mistakes stays until they are mended. */
async function toPrinted() {
  const text = typedText();
  if (text.trim() === '') {
    editor.load({ name: '', sections: [] });
    setMode('printed');
    keepDraft();
    return;
  }
  if (writtenFrom?.text === text) {
    editor.restore(writtenFrom.card);
    setMode('printed');
    keepDraft();
    $('card-title').focus();
    return;
  }
  busy(true);
  try {
    const r = await call('POST', '/api/cards/printed', { text });
    editor.load(r.card);
    setMode('printed');
    keepDraft();
    $('card-title').focus();
  } catch (err) {
    $('tool-message').textContent = errorCode(err) === 'TM_NETWORK'
      ? 'Tilemate cannot be reached, so the card cannot be shown as printed now.'
      : 'The notation has a mistake, so the card cannot be shown as printed yet: mend the lines listed below first.';
  } finally {
    busy(false);
  }
}

/**
 * An error in one sentence a player reads.
 * @param {unknown} err an ApiError, an Error, or `{ message }` made from an answer
 */
function sentence(err) {
  if (errorCode(err) === 'TM_NETWORK') return 'Tilemate cannot be reached; check that it is still running, then try again.';
  const m = String(/** @type {{ message?: unknown } | null} */ (err)?.message ?? err);
  return `${m[0]?.toUpperCase() ?? ''}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}`;
}

// ---------------------------------------------------------------- the notation, for those who like it

/** @type {ReturnType<typeof setTimeout> | undefined} */
let checkTimer;
let asked = 0;

async function check() {
  const text = typedText();
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
    if (mine === asked) {
      const words = errorCode(err) === 'TM_NETWORK' ? 'Tilemate cannot be reached, so the card is not checked yet; what you typed is kept in this browser.' : `The card could not be checked: ${sentence(err)}`;
      $('problems').replaceChildren(item(words, 'problem'));
    }
  } finally {
    busy(false);
  }
}

/**
 * @param {string} text
 * @param {string} [cls]
 */
function item(text, cls) {
  const li = document.createElement('li');
  li.textContent = text;
  if (cls) li.className = cls;
  return li;
}

/**
 * "card line 4: "44q": "q" is not a tile" as a player reads it: the line, the word, what is wrong.
 * @param {CheckProblem} e
 */
function problemWords(e) {
  const what = e.message.replace(/^card line \d+: /, '').replace(/^"[^"]*": /, '');
  if (e.line === null) return `The card: ${what}`;
  return `Line ${e.line}${e.token ? `, at "${e.token}"` : ''}: ${what}`;
}

/**
 * The notation's check (POST /api/cards/check): its mistakes, its open questions, its lines.
 * @typedef {{ message: string, line: number | null, token?: string }} CheckProblem
 * @typedef {{ id: string, forms: number, concealed?: boolean, value: number, fileLine: number, pattern: string, example: string }} CheckedLine
 * @param {{ errors: CheckProblem[], questions?: { line: number, message: string }[], name: string, lines: CheckedLine[] }} r
 */
function draw(r) {
  const box = $('problems');
  /** @type {HTMLElement[]} */
  const parts = [];
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
    parts.push(h, ul);
  }
  if (r.questions?.length) {
    const h = document.createElement('p');
    h.className = 'problem-head';
    h.textContent = r.questions.length === 1 ? 'One line leaves a question open:' : `${r.questions.length} lines leave a question open:`;
    const ul = document.createElement('ul');
    ul.className = 'problems';
    ul.append(...r.questions.map((q) => {
      const li = item(`Line ${q.line}: ${q.message}`, 'question-line');
      li.dataset.line = String(q.line);
      return li;
    }));
    parts.push(h, ul);
  }
  if (parts.length === 0) {
    const p = document.createElement('p');
    p.className = 'all-good';
    p.textContent = `Every line is well written: ${r.name}, ${r.lines.length} line${r.lines.length === 1 ? '' : 's'}.`;
    parts.push(p);
  }
  box.replaceChildren(...parts);
  $('lines-note').textContent = r.lines.length ? 'Each line with a winning hand; its number of ways to make it is under Details.' : 'No line can be read yet.';
  $('card-lines').replaceChildren(...r.lines.map(lineElement));
}

/** @param {CheckedLine} l */
function lineElement(l) {
  const el = document.createElement('article');
  el.className = 'card-line my-line';
  el.dataset.id = l.id;
  el.dataset.forms = String(l.forms);
  const h = document.createElement('h4');
  const id = document.createElement('span');
  id.textContent = `${l.id}${l.concealed ? ' (concealed)' : ''}`;
  const worth = document.createElement('span');
  worth.textContent = `${l.value} points`;
  h.append(id, worth);
  const p = document.createElement('p');
  p.textContent = `Line ${l.fileLine}: ${l.pattern}. For example:`;
  const row = document.createElement('div');
  row.className = 'tile-row example';
  row.append(...l.example.split(' ').filter(Boolean).map((t) => pageTile(t)));
  const more = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'Details';
  const ways = document.createElement('p');
  ways.textContent = l.forms === 1 ? 'There is one way to make this line.' : `There are ${l.forms.toLocaleString('en-US')} ways to make this line.`;
  more.append(summary, ways);
  el.append(h, p, row, more);
  return el;
}

// ---------------------------------------------------------------- saved cards

/** @type {ListedCard[]} */
let savedCards = [];

async function listSaved() {
  const ul = $('saved');
  try {
    /** @type {{ cards: ListedCard[], chosen?: string | null }} */
    const r = await call('GET', '/api/cards');
    savedCards = r.cards;
    // signed in, the card chosen with her account (chosen-card.js); a kept choice of a card that is gone goes back to the practice card
    checkChosen(chosenCard(), r.cards, r.chosen);
    showChosen();
    if (!r.cards.length) { ul.replaceChildren(practiceItem(), item('None of your own yet. Enter your card below, give it a name and press Save.', 'empty')); return; }
    ul.replaceChildren(practiceItem(), ...r.cards.map(savedItem));
  } catch (err) {
    ul.replaceChildren(item(`The saved cards could not be listed: ${sentence(err)}`, 'problem'));
  }
}

/** @param {ListedCard} c */
function savedItem(c) {
  const li = document.createElement('li');
  li.dataset.name = c.name;
  const words = document.createElement('span');
  words.textContent = c.owner ? `${cardWords(c)}, ${c.lines} lines` : `${c.title} (${c.name}, ${c.lines} lines)`;
  const use = document.createElement('a');
  use.className = 'btn';
  use.href = `chase.html?card=${encodeURIComponent(c.name)}`;
  named(use, 'Use it to choose a hand', c.title);
  const game = document.createElement('a');
  game.className = 'btn';
  game.href = `./?card=${encodeURIComponent(c.name)}`;
  named(game, 'Play a game on it', c.title);
  const tools = document.createElement('span');
  tools.className = 'saved-tools';
  // a card shared with her is its owner's: she may play on it and copy it, never change or delete it
  const edit = button(c.owner ? 'Edit a copy' : 'Edit', c.title, async () => {
    busy(true);
    try {
      const t = await call('GET', `/api/cards/${encodeURIComponent(c.name)}`);
      await replaceCard({ text: t.text, name: c.owner ? '' : c.name, question: `Replace what you have typed with the card ${c.title}?`, done: `The card ${c.title} is in the editor` });
    } catch (err) {
      $('tool-message').textContent = `The card could not be opened: ${sentence(err)}`;
    } finally {
      busy(false);
    }
  });
  tools.append(chooseControl(c.name, c.title), use, game, edit);
  if (c.owner) {
    tools.append(button('Take it off my list', c.title, async () => {
      try {
        await takeOffList(c.name);
      } catch (err) {
        $('tool-message').textContent = `The card could not be taken off your list: ${sentence(err)}`;
      }
      listSaved();
    }));
    const from = document.createElement('span');
    from.className = 'shared-from';
    from.textContent = sharedFromWords(c);
    li.append(words, from, tools);
    return li;
  }
  tools.append(button('Delete', c.title, async () => {
    if (!confirm(`Delete the card ${c.title}?`)) return;
    try {
      await call('DELETE', `/api/cards/${encodeURIComponent(c.name)}`);
    } catch (err) {
      $('tool-message').textContent = `The card could not be deleted: ${sentence(err)}`;
    }
    listSaved();
  }));
  // shared read-only by a code, for her club (card-share.js)
  li.append(words, tools, shareControls(c.name, c.title));
  return li;
}

/** "Your card": the one every page starts on (chosen-card.js). */
function showChosen() {
  const name = chosenCard();
  const card = savedCards.find((c) => c.name === name);
  $('chosen-words').textContent = card
    ? `Your card is ${cardWords(card)}: every page (Which hand, the practice table, tables with friends) starts on it.`
    : 'Your card is the Tilemate practice card: choose one of your saved cards to play on it everywhere.';
}

/** The chosen card says so; another has a button to choose it. */
/**
 * @param {string} name
 * @param {string} title
 */
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
/**
 * @param {HTMLElement} el
 * @param {string} text
 * @param {string} title
 */
function named(el, text, title) {
  const extra = document.createElement('span');
  extra.className = 'sr-only';
  extra.textContent = `: ${title}`;
  el.replaceChildren(text, extra);
}

/**
 * @param {string} text
 * @param {string} title
 * @param {() => void} onClick
 */
function button(text, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn btn-quiet';
  named(b, text, title);
  b.addEventListener('click', onClick);
  return b;
}

// ---------------------------------------------------------------- saving, downloading, printing

/**
 * A saved name made from the card's own name: "Our Club Card 2026" is our-club-card-2026.
 * @param {string} title
 */
function nameFrom(title) {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
}

/** @type {(n: number, one: string, many: string) => string} */
const countWords = (n, one, many) => `${n} ${n === 1 ? one : many}`;

async function save() {
  const msg = $('save-message');
  if (/** @type {HTMLInputElement} */ ($('card-name')).value.trim() === '' && mode === 'printed' && nameFrom(/** @type {HTMLInputElement} */ ($('card-title')).value)) /** @type {HTMLInputElement} */ ($('card-name')).value = nameFrom(/** @type {HTMLInputElement} */ ($('card-title')).value);
  const name = /** @type {HTMLInputElement} */ ($('card-name')).value.trim();
  if (!NAME.test(name)) { msg.textContent = 'Give the card a name of small letters, digits and hyphens, such as my-card-2026.'; return; }
  if (mode === 'printed' && editor.cardProblems().length > 0) { msg.textContent = `Not saved: ${editor.cardProblems()[0]}`; return; }
  busy(true);
  try {
    let text = typedText();
    let ready = 0, open = 0;
    if (mode === 'printed') {
      if (editor.isEmpty()) { msg.textContent = 'There is nothing to save yet: enter the first line of your card.'; return; }
      const reading = await editor.reading();
      text = reading?.text ?? '';
      ready = reading?.ready ?? 0;
      open = editor.counts().open;
      if (ready === 0) { msg.textContent = 'Not saved yet: no line is ready, so finish one line first.'; return; }
    }
    const r = await call('PUT', `/api/cards/${encodeURIComponent(name)}`, { text });
    // a card just saved is the one she means to play: every page starts on it
    chooseCard(r.name);
    forgetDraft();
    // saved: what was there before is no longer offered back
    forgetUndo();
    msg.textContent = mode === 'printed'
      ? `Saved as ${r.name} and chosen as your card: ${countWords(ready, 'line is', 'lines are')} ready to play${open ? `, and ${countWords(open, 'line waits', 'lines wait')} for you to finish ${open === 1 ? 'it' : 'them'}` : ''}.`
      : `Saved as ${r.name}: ${r.title}, ${r.lines} lines, and chosen as your card.`;
    // shared read-only with her club from here too (card-share.js)
    $('share-box').replaceChildren(shareControls(r.name, r.title));
    await listSaved();
  } catch (err) {
    msg.textContent = `Not saved: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

/**
 * The name a downloaded file takes.
 * @param {string} ext
 */
function fileName(ext) {
  return `${/** @type {HTMLInputElement} */ ($('card-name')).value.trim() || nameFrom(mode === 'printed' ? /** @type {HTMLInputElement} */ ($('card-title')).value : (/^card:\s*(.*)$/m.exec(typedText())?.[1] ?? '')) || 'my-card'}.${ext}`;
}

/**
 * @param {Blob} blob
 * @param {string} name
 */
function offerFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function download() {
  const msg = $('tool-message');
  busy(true);
  try {
    const text = await currentText();
    if (text.trim() === '') { msg.textContent = 'There is nothing to download yet: enter the first line of your card.'; return; }
    const name = fileName('card');
    offerFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);
    msg.textContent = `The card is downloaded as ${name}; open it here again with Open a card file.`;
  } catch (err) {
    msg.textContent = `The card could not be downloaded: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

/**
 * The card drawn as printed (POST /api/cards/picture): a PDF to print, or a picture.
 * @param {'pdf' | 'png'} format
 */
async function picture(format) {
  const msg = $('tool-message');
  busy(true);
  try {
    const text = await currentText();
    if (text.trim() === '') { msg.textContent = 'There is nothing to print yet: enter the first line of your card.'; return; }
    msg.textContent = 'Tilemate is drawing the card.';
    let res;
    try {
      res = await fetch('/api/cards/picture', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, format }) });
    } catch {
      msg.textContent = 'Tilemate cannot be reached, so the card cannot be drawn now.';
      return;
    }
    if (!res.ok) {
      const e = await res.json().catch(() => ({}));
      msg.textContent = res.status === 404 && /no route/.test(e.message ?? '') ? 'This Tilemate server cannot draw cards yet.' : `The card could not be drawn: ${sentence({ message: e.message ?? `the server answered ${res.status}` })}`;
      return;
    }
    const name = fileName(format);
    offerFile(await res.blob(), name);
    msg.textContent = format === 'pdf' ? `The card is downloaded as ${name}: open it and print it.` : `A picture of the card is downloaded as ${name}.`;
  } catch (err) {
    msg.textContent = `The card could not be drawn: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

// ---------------------------------------------------------------- opening: the practice card, a file, a photo

/**
 * A card replaces what is there: at once when nothing is typed, else only once she says yes;
 * Undo puts hers back. `text` (the notation) or `printed` (a PrintedCard); `name` the saved
 * name to put in the name field (null leaves it).
 * @param {{ text?: string | null, printed?: PrintedCard | null, name?: string | null, question: string, done: string, after?: string }} what
 */
async function replaceCard({ text = null, printed = null, name = null, question, done, after = '' }) {
  // the notation opens in the notation when she writes it there; else it is read into the card as printed
  let target = printed !== null ? 'printed' : mode;
  let card = printed;
  if (target === 'printed' && card === null) {
    try {
      card = (await call('POST', '/api/cards/printed', { text })).card;
    } catch (err) {
      if (errorCode(err) === 'TM_NETWORK') { $('tool-message').textContent = sentence(err); return; }
      // a card with mistakes opens in the notation, where each one is shown, so nothing of it is lost
      target = 'notation';
      after = 'The card has a mistake, so it opens in the notation, where each mistake is listed.';
    }
  }
  const go = () => {
    takeUndo();
    writtenFrom = null;
    if (target === 'printed') editor.load(/** @type {PrintedCard} */ (card));
    else { /** @type {HTMLTextAreaElement} */ ($('card-text')).value = text ?? ''; }
    if (mode !== target) setMode(target);
    if (name !== null) /** @type {HTMLInputElement} */ ($('card-name')).value = name;
    $('ask').classList.add('hidden');
    $('draft-note').classList.add('hidden');
    if (undoState.before && undoState.hadContent) showUndo(`${done}; Undo puts back what you had typed.`);
    else forgetUndo();
    $('tool-message').textContent = after;
    keepDraft();
    if (target === 'notation') check();
  };
  const same = target === 'notation' && mode === 'notation' && typedText() === text;
  if (!hasContent() || same) { go(); return; }
  $('ask-words').textContent = question;
  $('ask').classList.remove('hidden');
  $('undo-row').classList.add('hidden');
  /** @type {HTMLButtonElement} */ ($('ask-yes')).onclick = go;
  $('ask-no').focus();
}

async function startFromPractice() {
  busy(true);
  try {
    const r = await call('GET', '/api/card/text');
    await replaceCard({ text: r.text, question: 'Replace what you have typed with the practice card?', done: 'The practice card is in the editor' });
  } catch (err) {
    $('tool-message').textContent = `The practice card could not be fetched: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

/** @param {File} file */
async function openFile(file) {
  const msg = $('tool-message');
  if (file.size > 4 * MAX_CHARS) { msg.textContent = `The file ${file.name} is too large to be a card file.`; return; }
  busy(true);
  try {
    const text = await file.text();
    if (text.length > MAX_CHARS) { msg.textContent = `The file ${file.name} is longer than a card may be (${MAX_CHARS.toLocaleString('en-US')} characters).`; return; }
    if (text.trim() === '') { msg.textContent = `The file ${file.name} is empty.`; return; }
    await replaceCard({ text, question: `Replace what you have typed with the card file ${file.name}?`, done: `The card file ${file.name} is open` });
  } catch (err) {
    msg.textContent = `The file could not be opened: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

/**
 * A photo of her printed card read into a draft (POST /api/cards/photo): the lines Tilemate is unsure of are marked for her to check.
 * @param {File} file
 */
async function readPhoto(file) {
  const msg = $('tool-message');
  if (!['image/png', 'image/jpeg'].includes(file.type)) { msg.textContent = 'Choose a photo saved as a PNG or JPEG picture.'; return; }
  busy(true);
  msg.textContent = 'Tilemate is reading the photo; this can take a minute.';
  try {
    let res;
    try {
      res = await fetch('/api/cards/photo', { method: 'POST', headers: { 'content-type': file.type }, body: file });
    } catch {
      msg.textContent = 'Tilemate cannot be reached, so the photo cannot be read now.';
      return;
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      msg.textContent = res.status === 404 && /no route/.test(data.message ?? '') ? 'This Tilemate server cannot read photos yet.' : `The photo could not be read: ${sentence({ message: data.message ?? `the server answered ${res.status}` })}`;
      return;
    }
    /** @type {{ sections: { lines: { unsure?: string }[] }[] }} */
    const read = data.card;
    const lines = read.sections.reduce((n, s) => n + s.lines.length, 0);
    const unsure = read.sections.reduce((n, s) => n + s.lines.filter((l) => l.unsure).length, 0);
    const after = lines === 0 ? 'Tilemate found no card lines in the photo: try a sharper photo taken straight on, in good light.'
      : `Tilemate read ${countWords(lines, 'line', 'lines')} from the photo${unsure ? `; check the ${countWords(unsure, 'marked line', 'marked lines')} against your card` : ''}.`;
    msg.textContent = '';
    await replaceCard({ printed: data.card, question: 'Replace what you have typed with the card read from the photo?', done: 'The card read from the photo is in the editor', after });
  } catch (err) {
    msg.textContent = `The photo could not be read: ${sentence(err)}`;
  } finally {
    busy(false);
  }
}

// ---------------------------------------------------------------- the draft, and Undo

function keepDraft() {
  try {
    const name = /** @type {HTMLInputElement} */ ($('card-name')).value;
    if (mode === 'notation' ? typedText().trim() === '' : editor.isEmpty()) localStorage.removeItem(DRAFT_KEY);
    else localStorage.setItem(DRAFT_KEY, JSON.stringify(mode === 'notation' ? { v: 2, mode, text: typedText(), name } : { v: 2, mode, card: editor.snapshot(), name }));
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
  if (draft === null || typeof draft !== 'object') return false;
  if (draft.v === 2 && draft.mode === 'printed' && draft.card && Array.isArray(draft.card.sections)) {
    setMode('printed');
    editor.restore(draft.card);
  } else if (typeof draft.text === 'string' && draft.text.trim() !== '') {
    // a draft in the notation (and one kept by the page before the editor) comes back as it was typed
    setMode('notation');
    /** @type {HTMLTextAreaElement} */ ($('card-text')).value = draft.text.slice(0, MAX_CHARS);
  } else return false;
  if (typeof draft.name === 'string') /** @type {HTMLInputElement} */ ($('card-name')).value = draft.name.slice(0, 40);
  $('draft-words').textContent = 'Draft restored: the card you were entering before is back.';
  $('draft-note').classList.remove('hidden');
  return true;
}

/** What was there before the last change Undo can take back. @type {{ before: Kept | null, hadContent: boolean, fresh: boolean }} */
const undoState = { before: null, hadContent: false, fresh: false };

function takeUndo() {
  undoState.before = { mode, card: editor.snapshot(), text: typedText(), name: /** @type {HTMLInputElement} */ ($('card-name')).value };
  undoState.hadContent = hasContent();
}

/** @param {string} words */
function showUndo(words) {
  $('undo-words').textContent = words;
  $('undo-row').classList.remove('hidden');
}

function forgetUndo() {
  undoState.before = null;
  $('undo-row').classList.add('hidden');
}

/**
 * The editor is about to make a change Undo can take back (an answer, a line removed).
 * @param {string} words
 */
function offerUndo(words) {
  takeUndo();
  undoState.fresh = true;
  showUndo(words);
}

/** She changed something herself: Undo no longer offers what was there before. */
function afterEdit() {
  if (undoState.fresh) { undoState.fresh = false; return; }
  if (undoState.before) forgetUndo();
}

function undo() {
  const b = undoState.before;
  if (!b) return;
  forgetUndo();
  writtenFrom = null;
  setMode(b.mode);
  /** @type {HTMLTextAreaElement} */ ($('card-text')).value = b.text;
  /** @type {HTMLInputElement} */ ($('card-name')).value = b.name;
  editor.restore(b.card);
  keepDraft();
  if (b.mode === 'notation') { check(); $('card-text').focus(); } else $('card-title').focus();
}

// ---------------------------------------------------------------- the page's controls

$('card-text').addEventListener('input', () => {
  keepDraft();
  if (undoState.before) forgetUndo();
  clearTimeout(checkTimer);
  waiting.checking = true;
  showBusy();
  checkTimer = setTimeout(() => { waiting.checking = false; showBusy(); check(); }, 300);
});
$('card-name').addEventListener('input', keepDraft);
$('add-section').addEventListener('click', () => editor.addSection());
$('to-notation').addEventListener('click', toNotation);
$('to-printed').addEventListener('click', toPrinted);
$('example').addEventListener('click', () => replaceCard({ text: EXAMPLE, question: 'Replace what you have typed with the example?', done: 'The example is in the box' }));
$('practice').addEventListener('click', startFromPractice);
$('open-button').addEventListener('click', () => $('open-file').click());
$('open-file').addEventListener('change', () => {
  const f = /** @type {HTMLInputElement} */ ($('open-file')).files?.[0];
  /** @type {HTMLInputElement} */ ($('open-file')).value = '';
  if (f) openFile(f);
});
$('photo-button').addEventListener('click', () => $('photo-file').click());
$('photo-file').addEventListener('change', () => {
  const f = /** @type {HTMLInputElement} */ ($('photo-file')).files?.[0];
  /** @type {HTMLInputElement} */ ($('photo-file')).value = '';
  if (f) readPhoto(f);
});
$('download').addEventListener('click', download);
$('print-pdf').addEventListener('click', () => picture('pdf'));
$('print-png').addEventListener('click', () => picture('png'));
$('ask-no').addEventListener('click', () => { $('ask').classList.add('hidden'); $('tool-message').textContent = ''; });
$('undo').addEventListener('click', undo);
$('discard-draft').addEventListener('click', () => {
  takeUndo();
  /** @type {HTMLTextAreaElement} */ ($('card-text')).value = '';
  /** @type {HTMLInputElement} */ ($('card-name')).value = '';
  editor.load({ name: '', sections: [] });
  forgetDraft();
  showUndo('The draft is discarded; Undo brings it back.');
  if (mode === 'notation') check();
});
$('save').addEventListener('click', save);

/** The note phrases a card prints that Tilemate understands, offered as she types a note. */
async function offerPhrases() {
  try {
    const r = await call('GET', '/api/cards/phrases');
    $('phrases').replaceChildren(...r.phrases.map((/** @type {string} */ p) => Object.assign(document.createElement('option'), { value: p })));
  } catch { /* the note is typed in full: it is read the same */ }
}

let startMode = 'printed';
try { startMode = localStorage.getItem(MODE_KEY) === 'notation' ? 'notation' : 'printed'; } catch { /* private mode */ }
setMode(startMode);
restoreDraft();
offerPhrases();
listSaved();
check();
// a club's card by its code, typed by hand: opened on the shared card's page, as its link does
wireCodeBox({ form: /** @type {HTMLFormElement} */ ($('code-form')), input: /** @type {HTMLInputElement} */ ($('club-code')), message: $('club-code-message'), busy });
