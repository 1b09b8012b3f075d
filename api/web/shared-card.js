// "A shared card" (issue 44, Share a card): a card another player shares, opened by its code
// (typed in the box, or ?code= in the link she gave). It shows the card's title, whose it is
// and its lines, read-only: there is nothing here to change it. Playing on it, choosing a hand
// with it or making it her card keeps it on her list of cards as shared:CODE
// (POST /api/shared-cards/:code/keep), so every page offers it (chosen-card.js), always as its
// owner has it now.

import { chooseCard, chosenCard } from './chosen-card.js';
import { call } from './client.js';
import { pageTile } from './lines.js';

const $ = (id) => document.getElementById(id);

function busy(on) {
  busy.n = (busy.n ?? 0) + (on ? 1 : -1);
  document.body.dataset.busy = String(busy.n);
}

/** The card open now (GET /api/shared-cards/:code), or null. */
let card = null;

/** How the pages choose it: her own card by its name, another's by shared:CODE. */
const reference = () => (card.yours && card.name ? card.name : card.reference);

async function open(typed) {
  const code = typed.trim();
  $('open-message').textContent = '';
  $('use-message').textContent = '';
  if (code === '') { $('open-message').textContent = 'Type the code you were given, then press Open it.'; return; }
  busy(true);
  try {
    card = await call('GET', `/api/shared-cards/${encodeURIComponent(code)}`);
    history.replaceState(null, '', `${location.pathname}?code=${encodeURIComponent(card.code)}`);
    $('share-code').value = card.code;
    draw();
  } catch (err) {
    card = null;
    $('shared-panel').classList.add('hidden');
    $('lines-panel').classList.add('hidden');
    $('open-message').textContent = err.message;
  } finally {
    busy(false);
  }
}

function draw() {
  $('card-title').textContent = card.title;
  $('card-owner').textContent = card.yours
    ? 'This is your own card, shared with this code: whoever has the code sees your changes.'
    : `Shared by ${card.owner}${card.coach ? ', your coach' : ''}. Only ${card.owner} can change it, and you always see her latest version.`;
  drawKept();
  $('lines-note').textContent = `${card.lines.length === 1 ? 'One line' : `${card.lines.length} lines`}, each with the number of ways to make it and one winning hand.`;
  $('card-lines').replaceChildren(...card.lines.map(lineElement));
  $('shared-panel').classList.remove('hidden');
  $('lines-panel').classList.remove('hidden');
}

/** Whether it is on her list of cards, and how. */
function drawKept() {
  $('card-kept').textContent = card.yours ? 'It is among your saved cards.'
    : card.coach ? `${card.owner} is your coach, so her shared cards are on your list of cards.`
    : card.kept ? 'It is on your list of cards, so every page can use it.'
    : 'Playing on it, or making it your card, puts it on your list of cards; you can take it off again.';
  $('take-off').classList.toggle('hidden', !card.kept);
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
  p.textContent = `${l.pattern}. ${l.forms === 1 ? 'One way' : `${l.forms} ways`} to make it; for example:`;
  const row = document.createElement('div');
  row.className = 'tile-row example';
  row.append(...l.example.split(' ').filter(Boolean).map((t) => pageTile(t)));
  el.append(h, p, row);
  return el;
}

/** Puts it on her list of cards (once), so that the page she goes to offers it; false when it could not be. */
async function listed() {
  if (card.yours || card.coach || card.kept) return true;
  busy(true);
  try {
    await call('POST', `/api/shared-cards/${encodeURIComponent(card.code)}/keep`);
    card.kept = true;
    drawKept();
    return true;
  } catch (err) {
    $('use-message').textContent = `It could not be put on your list of cards: ${err.message}`;
    return false;
  } finally {
    busy(false);
  }
}

$('open-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  open($('share-code').value);
});
$('play').addEventListener('click', async () => {
  if (card && await listed()) location.href = `./?card=${encodeURIComponent(reference())}`;
});
$('chase').addEventListener('click', async () => {
  if (card && await listed()) location.href = `chase.html?card=${encodeURIComponent(reference())}`;
});
$('make-mine').addEventListener('click', async () => {
  if (!card || !await listed()) return;
  chooseCard(reference());
  $('use-message').textContent = 'It is your card now: the practice table, Which hand? and tables with friends start on it.';
});
$('take-off').addEventListener('click', async () => {
  if (!card) return;
  busy(true);
  try {
    await call('DELETE', `/api/shared-cards/${encodeURIComponent(card.code)}/keep`);
    if (chosenCard() === card.reference) chooseCard('');
    card.kept = false;
    drawKept();
    $('use-message').textContent = 'It is off your list of cards; the code still opens it here.';
  } catch (err) {
    $('use-message').textContent = `It could not be taken off your list: ${err.message}`;
  } finally {
    busy(false);
  }
});

const asked = new URLSearchParams(location.search).get('code');
if (asked) {
  $('share-code').value = asked.slice(0, 20);
  open(asked.slice(0, 20));
}
